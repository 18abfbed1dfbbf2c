// The InterPodAffinity plugin the upstream-transcribed tests run against,
// chosen by SCHEDREF_IMPL_REFERENCE or SCHEDREF_IMPL_OPTIMIZED
// (bazel/upstream_test.bzl), and the extension-point calls whose shapes
// differ: the optimized plugin takes shared PodInfos and the candidate
// nodes, the reference takes api::Pod values; each keeps its PreFilter
// state its own way.
#ifndef SCHEDREF_TESTING_UPSTREAM_FRAMEWORK_PLUGINS_INTERPODAFFINITY_IMPL_H_
#define SCHEDREF_TESTING_UPSTREAM_FRAMEWORK_PLUGINS_INTERPODAFFINITY_IMPL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#if defined(SCHEDREF_IMPL_REFERENCE)
#include "reference/framework/plugins/helper/typed_state.h"
#include "reference/framework/plugins/interpodaffinity/interpod_affinity.h"
#include "reference/framework/plugins/interpodaffinity/test_util.h"
#include "reference/framework/testing/wrappers.h"
#define SCHEDREF_INTERPODAFFINITY_NS \
  schedref::reference::framework::plugins::interpodaffinity
#elif defined(SCHEDREF_IMPL_OPTIMIZED)
#include "optimized/framework/plugins/interpodaffinity/interpod_affinity.h"
#include "optimized/framework/plugins/interpodaffinity/test_util.h"
#include "testing/st/wrappers.h"
#define SCHEDREF_INTERPODAFFINITY_NS \
  schedref::optimized::framework::plugins::interpodaffinity
#else
#error "define SCHEDREF_IMPL_REFERENCE or SCHEDREF_IMPL_OPTIMIZED"
#endif

namespace SCHEDREF_INTERPODAFFINITY_NS {

// The three count maps of a PreFilter state.
struct Counts {
  TopologyToMatchedTermCount existing_anti, affinity, anti;
};

#if defined(SCHEDREF_IMPL_REFERENCE)
namespace st = framework::st;

inline PreFilterOutput PreFilterOut(PluginEnv& env, CycleState& state,
                                    const api::Pod& pod) {
  return env.plugin->PreFilter(state, pod, {});
}
inline Status FilterNode(PluginEnv& env, CycleState& state,
                         const api::Pod& pod, const std::string& node) {
  return env.plugin->Filter(state, pod, *env.handle.snapshot.Get(node));
}
inline Status FilterOnEmptyNode(PluginEnv& env, CycleState& state,
                                const api::Pod& pod) {
  NodeInfo info;
  info.node = api::Node{};
  return env.plugin->Filter(state, pod, info);
}
inline Status AddPodTo(PluginEnv& env, CycleState& state,
                       const api::Pod& pending, const api::Pod& pod,
                       const std::string& node) {
  return env.plugin->AddPod(state, pending, pod, *env.handle.snapshot.Get(node));
}
inline Status RemovePodFrom(PluginEnv& env, CycleState& state,
                            const api::Pod& pending, const api::Pod& pod,
                            const std::string& node) {
  return env.plugin->RemovePod(state, pending, pod,
                               *env.handle.snapshot.Get(node));
}
// Removes the first pod the snapshot lists on `node`.
inline Status RemoveFirstPodOf(PluginEnv& env, CycleState& state,
                               const api::Pod& pending, const std::string& node) {
  const NodeInfo& info = *env.handle.snapshot.Get(node);
  return env.plugin->RemovePod(state, pending, info.pods[0], info);
}
inline Counts CountsOf(const CycleState& state) {
  const PreFilterState* s =
      helper::ReadState<PreFilterState>(state, kPreFilterStateKey);
  return Counts{s->existing_anti_affinity_counts, s->affinity_counts,
                s->anti_affinity_counts};
}
#else
inline PreFilterOutput PreFilterOut(PluginEnv& env, CycleState& state,
                                    const api::Pod& pod) {
  return RunPreFilter(env, state, pod);
}
inline Status FilterNode(PluginEnv& env, CycleState& state,
                         const api::Pod& pod, const std::string& node) {
  return env.plugin->Filter(state, *NewPodInfo(pod), env.Node(node));
}
inline Status FilterOnEmptyNode(PluginEnv& env, CycleState& state,
                                const api::Pod& pod) {
  NodeInfo info(std::make_shared<const api::Node>());
  return env.plugin->Filter(state, *NewPodInfo(pod), info);
}
inline Status AddPodTo(PluginEnv& env, CycleState& state,
                       const api::Pod& pending, const api::Pod& pod,
                       const std::string& node) {
  return env.plugin->AddPod(state, *NewPodInfo(pending), *NewPodInfo(pod),
                            env.Node(node));
}
inline Status RemovePodFrom(PluginEnv& env, CycleState& state,
                            const api::Pod& pending, const api::Pod& pod,
                            const std::string& node) {
  return env.plugin->RemovePod(state, *NewPodInfo(pending), *NewPodInfo(pod),
                               env.Node(node));
}
// Removes the first pod the snapshot lists on `node`.
inline Status RemoveFirstPodOf(PluginEnv& env, CycleState& state,
                               const api::Pod& pending, const std::string& node) {
  const NodeInfo& info = env.Node(node);
  return env.plugin->RemovePod(state, *NewPodInfo(pending), *info.pods()[0],
                               info);
}
inline Counts CountsOf(const CycleState& state) {
  const PreFilterState* s = ReadPreFilterState(state);
  return Counts{s->ExistingAntiAffinityCounts(), s->AffinityCounts(),
                s->AntiAffinityCounts()};
}
#endif

struct ScoreRun {
  Status pre_score;
  std::vector<int64_t> scores;  // in node order
};

// PreScore over every node (all are candidates), Score each, NormalizeScore.
inline ScoreRun RunScoring(const api::Pod& pod,
                           const std::vector<api::Pod>& pods,
                           const std::vector<api::Node>& nodes,
                           InterPodAffinityArgs args) {
  auto env = SetupPlugin(pods, nodes, TestNamespaces(), args);
  CycleState state;
  ScoreRun out;
#if defined(SCHEDREF_IMPL_REFERENCE)
  out.pre_score = env->plugin->PreScore(state, pod, {});
  if (!out.pre_score.IsSuccess()) return out;
  NodeScoreList scores;
  for (const api::Node& n : nodes) {
    ScoreOutput s =
        env->plugin->Score(state, pod, *env->handle.snapshot.Get(n.name));
    EXPECT_TRUE(s.status.IsSuccess());
    scores.push_back({n.name, s.score});
  }
  EXPECT_TRUE(env->plugin->NormalizeScore(state, pod, scores).IsSuccess());
  for (const NodePluginScore& s : scores) out.scores.push_back(s.score);
#else
  const PodInfoPtr info = NewPodInfo(pod);
  std::vector<const NodeInfo*> candidates(env->snapshot().List().begin(),
                                          env->snapshot().List().end());
  out.pre_score = env->plugin->PreScore(state, *info, candidates);
  if (!out.pre_score.IsSuccess()) return out;
  for (const NodeInfo* n : candidates) {
    ScoreOutput s = env->plugin->Score(state, *info, *n);
    EXPECT_TRUE(s.status.IsSuccess());
    out.scores.push_back(s.score);
  }
  EXPECT_TRUE(env->plugin->NormalizeScore(state, *info, candidates, out.scores)
                  .IsSuccess());
#endif
  return out;
}

}  // namespace SCHEDREF_INTERPODAFFINITY_NS

#endif  // SCHEDREF_TESTING_UPSTREAM_FRAMEWORK_PLUGINS_INTERPODAFFINITY_IMPL_H_
