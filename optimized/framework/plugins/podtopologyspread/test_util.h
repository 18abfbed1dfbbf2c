// Fixtures shared by the optimized PodTopologySpread tests: upstream's
// st.SpreadConstraint arguments and a plugin wired to a fake handle.
// testonly.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_PODTOPOLOGYSPREAD_TEST_UTIL_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_PODTOPOLOGYSPREAD_TEST_UTIL_H_

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "api/types/objects.h"
#include "optimized/framework/plugins/podtopologyspread/pod_topology_spread.h"
#include "optimized/framework/testing/fixtures.h"

// gtest output for statuses: "Unschedulable: reason, reason". Guarded so
// that both plugins' test utils can be included together.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_STATUS_PRINT_TO_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_STATUS_PRINT_TO_
namespace schedref::optimized::framework {
inline void PrintTo(const Status& s, std::ostream* os) {
  *os << CodeName(s.code()) << ": " << s.Message();
}
}  // namespace schedref::optimized::framework
#endif

namespace schedref::optimized::framework::plugins::podtopologyspread {

using api::kDoNotSchedule;
using api::kLabelHostname;
using api::kScheduleAnyway;
using api::pluginargs::kListDefaulting;

// `key Exists` (upstream fooSelector / barSelector).
inline api::LabelSelector ExistsSelector(const std::string& key) {
  api::LabelSelector s;
  s.match_expressions.push_back({key, "Exists", {}});
  return s;
}

// upstream st.PodWrapper.SpreadConstraint(maxSkew, key, when, selector,
// minDomains, nodeAffinityPolicy, nodeTaintsPolicy, matchLabelKeys).
inline api::TopologySpreadConstraint Tsc(
    int32_t max_skew, std::string key, std::string when,
    std::optional<api::LabelSelector> selector,
    std::optional<int32_t> min_domains = std::nullopt,
    std::optional<std::string> node_affinity_policy = std::nullopt,
    std::optional<std::string> node_taints_policy = std::nullopt,
    std::vector<std::string> match_label_keys = {}) {
  api::TopologySpreadConstraint c;
  c.max_skew = max_skew;
  c.topology_key = std::move(key);
  c.when_unsatisfiable = std::move(when);
  c.label_selector = std::move(selector);
  c.min_domains = min_domains;
  c.node_affinity_policy = std::move(node_affinity_policy);
  c.node_taints_policy = std::move(node_taints_policy);
  c.match_label_keys = std::move(match_label_keys);
  return c;
}

struct PluginEnv {
  explicit PluginEnv(std::unique_ptr<Snapshot> snapshot)
      : handle(std::move(snapshot)) {}
  testing::FakeHandle handle;
  std::unique_ptr<PodTopologySpread> plugin;

  const Snapshot& snapshot() const { return handle.SnapshotSharedLister(); }
  const NodeInfo& Node(const std::string& name) const { return *snapshot().Get(name); }
};

// upstream tests build the plugin with DefaultingType List and no default
// constraints unless they say otherwise.
inline std::unique_ptr<PluginEnv> SetupPlugin(
    const std::vector<api::Pod>& pods, const std::vector<api::Node>& nodes,
    PodTopologySpreadArgs args = {{}, kListDefaulting}, int threads = 1) {
  auto env = std::make_unique<PluginEnv>(testing::MakeSnapshot(nodes, pods));
  env->handle.parallelizer = Parallelizer(threads);
  env->plugin = std::make_unique<PodTopologySpread>(args, &env->handle);
  return env;
}

// PreFilter over every node of the env's snapshot.
inline PreFilterOutput RunPreFilter(PluginEnv& env, CycleState& state,
                                    const api::Pod& pod) {
  return env.plugin->PreFilter(state, *NewPodInfo(pod), env.snapshot().List());
}

inline const PreFilterState* ReadPreFilterState(const CycleState& state) {
  return state.ReadAs<PreFilterState>(PreFilterState::kKey);
}

}  // namespace schedref::optimized::framework::plugins::podtopologyspread

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_PODTOPOLOGYSPREAD_TEST_UTIL_H_
