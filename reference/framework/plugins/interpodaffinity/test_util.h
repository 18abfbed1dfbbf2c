// Fixtures shared by the InterPodAffinity tests: terms built like upstream's
// st.PodAffinityIn / createPodWithAffinityTerms, the namespaces upstream's
// tests register, and a plugin wired to a test handle. testonly.
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_INTERPODAFFINITY_TEST_UTIL_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_INTERPODAFFINITY_TEST_UTIL_H_

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "api/types/objects.h"
#include "reference/framework/plugins/interpodaffinity/interpod_affinity.h"
#include "reference/framework/preemption/testing/handle.h"

namespace schedref::reference::framework::plugins::interpodaffinity {

// A term whose labelSelector has the given requirements.
inline api::PodAffinityTerm Term(
    std::vector<api::LabelSelectorRequirement> requirements,
    std::string topology_key) {
  api::PodAffinityTerm t;
  t.label_selector = api::LabelSelector{{}, std::move(requirements)};
  t.topology_key = std::move(topology_key);
  return t;
}

// `key <op> values`, e.g. Req("service", "In", {"securityscan"}).
inline api::LabelSelectorRequirement Req(std::string key, std::string op,
                                         std::vector<std::string> values = {}) {
  return {std::move(key), std::move(op), std::move(values)};
}

// upstream createPodWithAffinityTerms.
inline api::Pod CreatePodWithAffinityTerms(
    const std::string& ns, const std::string& node_name,
    const api::Labels& labels, std::vector<api::PodAffinityTerm> affinity,
    std::vector<api::PodAffinityTerm> anti_affinity,
    const std::string& name = "") {
  api::Pod pod;
  pod.ns = ns.empty() ? "default" : ns;
  pod.name = name;
  pod.uid = pod.ns + "/" + name;
  pod.scheduler_name = "default-scheduler";
  pod.node_name = node_name;
  pod.labels = labels;
  pod.affinity.emplace();
  pod.affinity->pod_affinity.emplace();
  pod.affinity->pod_affinity->required = std::move(affinity);
  pod.affinity->pod_anti_affinity.emplace();
  pod.affinity->pod_anti_affinity->required = std::move(anti_affinity);
  return pod;
}

// upstream scoring_test.go `namespaces`.
inline std::map<std::string, api::Labels> TestNamespaces() {
  return {{"subteam1.team1", {{"team", "team1"}}},
          {"subteam2.team1", {{"team", "team1"}}},
          {"subteam1.team2", {{"team", "team2"}}},
          {"subteam2.team2", {{"team", "team2"}}}};
}

// A plugin reading the snapshot of `pods` on `nodes` through a test handle.
struct PluginEnv {
  preemption::testing::TestHandle handle;
  std::unique_ptr<InterPodAffinity> plugin;
};

inline std::unique_ptr<PluginEnv> SetupPlugin(
    const std::vector<api::Pod>& pods, const std::vector<api::Node>& nodes,
    std::map<std::string, api::Labels> namespaces = {},
    InterPodAffinityArgs args = {}) {
  auto env = std::make_unique<PluginEnv>();
  env->handle.snapshot = preemption::testing::MakeSnapshot(pods, nodes);
  env->handle.namespace_labels = std::move(namespaces);
  env->plugin = std::make_unique<InterPodAffinity>(args, &env->handle);
  return env;
}

}  // namespace schedref::reference::framework::plugins::interpodaffinity

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_INTERPODAFFINITY_TEST_UTIL_H_
