// The InterPodAffinity plugin the upstream-transcribed tests run against,
// chosen by SCHEDREF_IMPL_REFERENCE or SCHEDREF_IMPL_OPTIMIZED
// (bazel/upstream_test.bzl), and the extension-point calls whose shapes
// differ: the optimized plugin takes shared PodInfos and the candidate
// nodes, the reference takes api::Pod values.
#ifndef SCHEDREF_TESTING_UPSTREAM_FRAMEWORK_PLUGINS_INTERPODAFFINITY_IMPL_H_
#define SCHEDREF_TESTING_UPSTREAM_FRAMEWORK_PLUGINS_INTERPODAFFINITY_IMPL_H_

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#if defined(SCHEDREF_IMPL_REFERENCE)
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

#if defined(SCHEDREF_IMPL_REFERENCE)
namespace st = framework::st;
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
