#include "conformance/features.h"

#include <algorithm>
#include <array>

#include "api/config/default_plugins.h"

namespace schedref::conformance {
namespace {

// Plugins that have a Score extension point: the in-tree plugins that carry
// a score weight in api/config/default_plugins.h. The test plugins have none.
constexpr std::array<std::string_view, 7> kScorePlugins = {
    "TaintToleration",  "NodeAffinity",
    "NodeResourcesFit", "PodTopologySpread",
    "InterPodAffinity", "NodeResourcesBalancedAllocation",
    "ImageLocality"};

constexpr std::array<std::string_view, 4> kTestPlugins = {
    "TestPermit", "TestReserve", "TestPreBind", "TestBind"};

// Upstream's minFeasibleNodesToFind: with at most this many nodes every
// node is checked whatever percentageOfNodesToScore says.
constexpr size_t kMinFeasibleNodesToFind = 100;

template <size_t N>
bool In(const std::array<std::string_view, N>& list, const std::string& s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

bool Names(const std::vector<api::PluginRef>& refs, const std::string& name) {
  return std::any_of(refs.begin(), refs.end(),
                     [&](const api::PluginRef& r) { return r.name == name; });
}

std::vector<const api::PluginSet*> AllSets(const api::Plugins& p) {
  return {&p.pre_enqueue, &p.queue_sort, &p.pre_filter, &p.filter,
          &p.post_filter, &p.pre_score,  &p.score,      &p.reserve,
          &p.permit,      &p.pre_bind,   &p.bind,       &p.post_bind,
          &p.multi_point};
}

// Whether the profile runs at least one Score plugin, after MultiPoint
// expansion (a MultiPoint plugin reaches Score unless Score's disabled list
// names it or "*").
bool HasScorePlugin(const api::Plugins& p) {
  if (!p.score.enabled.empty()) return true;
  if (Names(p.score.disabled, "*")) return false;
  for (const api::PluginRef& ref : p.multi_point.enabled) {
    if (In(kScorePlugins, ref.name) && !Names(p.score.disabled, ref.name)) {
      return true;
    }
  }
  return false;
}

bool UsesPodAffinity(const api::Pod& pod) {
  if (!pod.affinity) return false;
  for (const std::optional<api::PodAffinity>* a :
       {&pod.affinity->pod_affinity, &pod.affinity->pod_anti_affinity}) {
    if (a->has_value() &&
        (!(*a)->required.empty() || !(*a)->preferred.empty())) {
      return true;
    }
  }
  return false;
}

}  // namespace

const std::vector<std::string>& FeatureTags() {
  static const std::vector<std::string> kTags = {
      "bind-latency",  "custom-plugins",     "early-stop",
      "extenders",     "fail-bind",          "inter-pod-affinity",
      "multi-profile", "pod-lifetimes",      "preemption",
      "scheduling-gates", "test-plugins",    "topology-spread"};
  return kTags;
}

std::set<std::string> ScenarioFeatures(const api::Scenario& scenario,
                                       const api::Trace& reference_trace) {
  std::set<std::string> need;

  // Configuration.
  const api::SchedulerConfiguration& config = scenario.config;
  if (config.profiles.size() > 1) need.insert("multi-profile");
  if (!config.extenders.empty() || !scenario.extenders.empty()) {
    need.insert("extenders");
  }
  std::set<std::string> node_names;
  for (const api::Node& n : scenario.initial.nodes) node_names.insert(n.name);
  for (const api::Event& e : scenario.timeline) {
    if (e.op == api::Event::Op::kCreate &&
        std::holds_alternative<api::Node>(e.object)) {
      node_names.insert(std::get<api::Node>(e.object).name);
    }
  }
  for (const api::Profile& profile : config.profiles) {
    if (profile.plugins.has_value() || !profile.plugin_config.empty()) {
      need.insert("custom-plugins");
    }
    api::Plugins effective = api::EffectivePlugins(profile);
    for (const api::PluginSet* set : AllSets(effective)) {
      for (const api::PluginRef& ref : set->enabled) {
        if (In(kTestPlugins, ref.name)) need.insert("test-plugins");
      }
    }
    int32_t percentage = profile.percentage_of_nodes_to_score.value_or(
        config.percentage_of_nodes_to_score);
    if (!HasScorePlugin(effective) ||
        (node_names.size() > kMinFeasibleNodesToFind && percentage != 100)) {
      need.insert("early-stop");
    }
  }

  // Timeline operations.
  if (scenario.bind_latency_ms > 0) need.insert("bind-latency");
  for (const api::Event& e : scenario.timeline) {
    if (e.op == api::Event::Op::kFailBind) need.insert("fail-bind");
    if (e.op == api::Event::Op::kSetBindLatency && e.duration_ms > 0) {
      need.insert("bind-latency");
    }
  }

  // Pods, initial and created or updated by the timeline (generated
  // arrivals are timeline creations once decoded).
  std::vector<const api::Pod*> pods;
  for (const api::Pod& p : scenario.initial.pods) pods.push_back(&p);
  for (const api::Event& e : scenario.timeline) {
    if (const api::Pod* p = std::get_if<api::Pod>(&e.object)) pods.push_back(p);
  }
  for (const api::Pod* p : pods) {
    if (UsesPodAffinity(*p)) need.insert("inter-pod-affinity");
    if (!p->topology_spread_constraints.empty()) need.insert("topology-spread");
    if (!p->scheduling_gates.empty()) need.insert("scheduling-gates");
    if (p->lifetime.has_value()) need.insert("pod-lifetimes");
  }

  // What the reference did.
  for (const api::Trace::Record& r : reference_trace.records) {
    const api::Attempt* a = api::AsAttempt(r);
    const api::Note* n = api::AsNote(r);
    if ((a != nullptr && a->preemption.has_value()) ||
        (n != nullptr && n->what.starts_with("victim"))) {
      need.insert("preemption");
    }
  }
  return need;
}

}  // namespace schedref::conformance
