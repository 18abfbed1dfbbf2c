// The PodTopologySpread plugin the upstream-transcribed filtering tests run
// against, chosen by SCHEDREF_IMPL_REFERENCE or SCHEDREF_IMPL_OPTIMIZED
// (bazel/upstream_test.bzl), and the extension-point calls whose shapes
// differ: the optimized plugin takes shared PodInfos and the candidate
// nodes, the reference takes api::Pod values; each keeps its PreFilter
// state its own way.
#ifndef SCHEDREF_TESTING_UPSTREAM_FRAMEWORK_PLUGINS_PODTOPOLOGYSPREAD_IMPL_H_
#define SCHEDREF_TESTING_UPSTREAM_FRAMEWORK_PLUGINS_PODTOPOLOGYSPREAD_IMPL_H_

#include <map>
#include <string>

#if defined(SCHEDREF_IMPL_REFERENCE)
#include "reference/framework/plugins/helper/typed_state.h"
#include "reference/framework/plugins/podtopologyspread/pod_topology_spread.h"
#include "reference/framework/plugins/podtopologyspread/test_util.h"
#include "reference/framework/testing/wrappers.h"
#define SCHEDREF_PODTOPOLOGYSPREAD_NS \
  schedref::reference::framework::plugins::podtopologyspread
#elif defined(SCHEDREF_IMPL_OPTIMIZED)
#include "optimized/framework/plugins/podtopologyspread/pod_topology_spread.h"
#include "optimized/framework/plugins/podtopologyspread/test_util.h"
#include "testing/st/wrappers.h"
#define SCHEDREF_PODTOPOLOGYSPREAD_NS \
  schedref::optimized::framework::plugins::podtopologyspread
#else
#error "define SCHEDREF_IMPL_REFERENCE or SCHEDREF_IMPL_OPTIMIZED"
#endif

namespace SCHEDREF_PODTOPOLOGYSPREAD_NS {

#if defined(SCHEDREF_IMPL_REFERENCE)
inline Status PreFilterStatus(PluginEnv& env, CycleState& state,
                              const api::Pod& pod) {
  return env.plugin->PreFilter(state, pod, {}).status;
}
inline Status FilterNode(PluginEnv& env, CycleState& state,
                         const api::Pod& pod, const std::string& node) {
  return env.plugin->Filter(state, pod, *env.handle.snapshot.Get(node));
}
inline Status AddPodTo(PluginEnv& env, CycleState& state,
                       const api::Pod& preemptor, const api::Pod& pod,
                       const std::string& node) {
  return env.plugin->AddPod(state, preemptor, pod,
                            *env.handle.snapshot.Get(node));
}
inline Status RemovePodFrom(PluginEnv& env, CycleState& state,
                            const api::Pod& preemptor, const api::Pod& pod,
                            const std::string& node) {
  return env.plugin->RemovePod(state, preemptor, pod,
                               *env.handle.snapshot.Get(node));
}
// Constraint `i`'s matching pods by topology value.
inline std::map<std::string, int> MatchCounts(const CycleState& state, int i) {
  return helper::ReadState<PreFilterState>(state, kPreFilterStateKey)
      ->tp_value_to_match_num[i];
}
inline int MinMatch(const CycleState& state, int i) {
  return helper::ReadState<PreFilterState>(state, kPreFilterStateKey)
      ->MinMatchNum(i);
}
#else
inline Status PreFilterStatus(PluginEnv& env, CycleState& state,
                              const api::Pod& pod) {
  return RunPreFilter(env, state, pod).status;
}
inline Status FilterNode(PluginEnv& env, CycleState& state,
                         const api::Pod& pod, const std::string& node) {
  return env.plugin->Filter(state, *NewPodInfo(pod), env.Node(node));
}
inline Status AddPodTo(PluginEnv& env, CycleState& state,
                       const api::Pod& preemptor, const api::Pod& pod,
                       const std::string& node) {
  return env.plugin->AddPod(state, *NewPodInfo(preemptor), *NewPodInfo(pod),
                            env.Node(node));
}
inline Status RemovePodFrom(PluginEnv& env, CycleState& state,
                            const api::Pod& preemptor, const api::Pod& pod,
                            const std::string& node) {
  return env.plugin->RemovePod(state, *NewPodInfo(preemptor), *NewPodInfo(pod),
                               env.Node(node));
}
// Constraint `i`'s matching pods by topology value.
inline std::map<std::string, int> MatchCounts(const CycleState& state, int i) {
  return ReadPreFilterState(state)->Counts(i);
}
inline int MinMatch(const CycleState& state, int i) {
  return ReadPreFilterState(state)->MinMatchNum(i);
}
#endif

}  // namespace SCHEDREF_PODTOPOLOGYSPREAD_NS

#endif  // SCHEDREF_TESTING_UPSTREAM_FRAMEWORK_PLUGINS_PODTOPOLOGYSPREAD_IMPL_H_
