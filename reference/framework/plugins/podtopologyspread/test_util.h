// Fixtures shared by the PodTopologySpread tests: upstream's
// st.SpreadConstraint arguments and a plugin wired to a test handle.
// testonly.
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_PODTOPOLOGYSPREAD_TEST_UTIL_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_PODTOPOLOGYSPREAD_TEST_UTIL_H_

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "api/types/objects.h"
#include "reference/framework/plugins/podtopologyspread/pod_topology_spread.h"
#include "reference/framework/preemption/testing/handle.h"

namespace schedref::reference::framework::plugins::podtopologyspread {

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
  preemption::testing::TestHandle handle;
  std::unique_ptr<PodTopologySpread> plugin;
};

// upstream tests build the plugin with DefaultingType List and no default
// constraints unless they say otherwise.
inline std::unique_ptr<PluginEnv> SetupPlugin(
    const std::vector<api::Pod>& pods, const std::vector<api::Node>& nodes,
    PodTopologySpreadArgs args = {{}, kListDefaulting}) {
  auto env = std::make_unique<PluginEnv>();
  env->handle.snapshot = preemption::testing::MakeSnapshot(pods, nodes);
  env->plugin = std::make_unique<PodTopologySpread>(args, &env->handle);
  return env;
}

}  // namespace schedref::reference::framework::plugins::podtopologyspread

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_PODTOPOLOGYSPREAD_TEST_UTIL_H_
