// InterPodAffinity PreFilter, its AddPod/RemovePod extensions, and Filter
// (upstream interpodaffinity/filtering.go).
#include <string>
#include <utility>

#include "reference/framework/plugins/helper/typed_state.h"
#include "reference/framework/plugins/interpodaffinity/interpod_affinity.h"

namespace schedref::reference::framework::plugins::interpodaffinity {
namespace {

// m[(key, node's value for key)] += value, erasing a pair that reaches 0.
// Nothing happens when the node lacks the key.
void Update(TopologyToMatchedTermCount& m, const api::Node& node,
            const std::string& topology_key, int64_t value) {
  auto it = node.labels.find(topology_key);
  if (it == node.labels.end()) return;
  TopologyPair pair{topology_key, it->second};
  int64_t& count = m[pair];
  count += value;
  if (count == 0) m.erase(pair);
}

// For every term: if `pod` matches ALL terms, add `value` at each term's
// pair (upstream updateWithAffinityTerms).
void UpdateWithAffinityTerms(TopologyToMatchedTermCount& m,
                             const std::vector<AffinityTerm>& terms,
                             const api::Pod& pod, const api::Node& node,
                             int64_t value) {
  if (!PodMatchesAllAffinityTerms(terms, pod)) return;
  for (const AffinityTerm& t : terms) Update(m, node, t.topology_key, value);
}

// For every term `pod` matches, add `value` at that term's pair (upstream
// updateWithAntiAffinityTerms).
void UpdateWithAntiAffinityTerms(TopologyToMatchedTermCount& m,
                                 const std::vector<AffinityTerm>& terms,
                                 const api::Pod& pod,
                                 const api::Labels& ns_labels,
                                 const api::Node& node, int64_t value) {
  for (const AffinityTerm& t : terms) {
    if (TermMatches(t, pod, ns_labels)) Update(m, node, t.topology_key, value);
  }
}

// Applies `pod`, running on `node`, to the counts with `multiplier` (+1 to
// add, -1 to remove): upstream preFilterState.updateWithPod.
void UpdateWithPod(PreFilterState& s, const api::Pod& pod,
                   const api::Node& node, int64_t multiplier) {
  UpdateWithAntiAffinityTerms(s.existing_anti_affinity_counts,
                              RequiredAntiAffinityTerms(pod), s.pod,
                              s.namespace_labels, node, multiplier);
  UpdateWithAffinityTerms(s.affinity_counts, s.required_affinity_terms, pod,
                          node, multiplier);
  // The incoming pod's terms have their namespaceSelector merged into the
  // namespaces, so the added pod's namespace labels are not looked up.
  UpdateWithAntiAffinityTerms(s.anti_affinity_counts,
                              s.required_anti_affinity_terms, pod,
                              api::Labels{}, node, multiplier);
}

Status MissingPreFilterState() {
  return Status::Error(std::string("error reading \"") + kPreFilterStateKey +
                       "\" from cycleState: not found");
}

bool SatisfyExistingPodsAntiAffinity(const PreFilterState& s,
                                     const api::Node& node) {
  for (const auto& [key, value] : node.labels) {
    auto it = s.existing_anti_affinity_counts.find({key, value});
    if (it != s.existing_anti_affinity_counts.end() && it->second > 0) {
      return false;
    }
  }
  return true;
}

bool SatisfyPodAntiAffinity(const PreFilterState& s, const api::Node& node) {
  for (const AffinityTerm& t : s.required_anti_affinity_terms) {
    auto label = node.labels.find(t.topology_key);
    if (label == node.labels.end()) continue;
    auto it = s.anti_affinity_counts.find({t.topology_key, label->second});
    if (it != s.anti_affinity_counts.end() && it->second > 0) return false;
  }
  return true;
}

bool SatisfyPodAffinity(const PreFilterState& s, const api::Node& node) {
  bool pods_exist = true;
  for (const AffinityTerm& t : s.required_affinity_terms) {
    auto label = node.labels.find(t.topology_key);
    // The node must carry every term's topology key.
    if (label == node.labels.end()) return false;
    auto it = s.affinity_counts.find({t.topology_key, label->second});
    if (it == s.affinity_counts.end() || it->second <= 0) pods_exist = false;
  }
  if (pods_exist) return true;
  // The first pod of a group whose members have affinity to each other:
  // no pod anywhere matches the terms, but the pod matches them itself.
  return s.affinity_counts.empty() &&
         PodMatchesAllAffinityTerms(s.required_affinity_terms, s.pod);
}

}  // namespace

PreFilterOutput InterPodAffinity::PreFilter(
    CycleState& state, const api::Pod& pod,
    const std::vector<const NodeInfo*>& /*nodes*/) {
  const std::map<std::string, api::Labels>& ns_map =
      handle_->NamespaceLabels();
  PreFilterState s;
  s.pod = pod;
  s.required_affinity_terms = RequiredAffinityTerms(pod);
  s.required_anti_affinity_terms = RequiredAntiAffinityTerms(pod);
  for (AffinityTerm& t : s.required_affinity_terms) {
    MergeAffinityTermNamespaces(t, ns_map);
  }
  for (AffinityTerm& t : s.required_anti_affinity_terms) {
    MergeAffinityTermNamespaces(t, ns_map);
  }
  s.namespace_labels = NamespaceLabelsOf(pod.ns, ns_map);

  const bool has_incoming_terms = !s.required_affinity_terms.empty() ||
                                  !s.required_anti_affinity_terms.empty();
  for (const NodeInfo& info : handle_->SnapshotSharedLister().List()) {
    const api::Node& node = *info.node;
    for (const api::Pod& existing : info.pods) {
      // Existing pods' required anti-affinity against the incoming pod.
      UpdateWithAntiAffinityTerms(s.existing_anti_affinity_counts,
                                  RequiredAntiAffinityTerms(existing), pod,
                                  s.namespace_labels, node, 1);
      if (!has_incoming_terms) continue;
      // The incoming pod's terms against existing pods.
      UpdateWithAffinityTerms(s.affinity_counts, s.required_affinity_terms,
                              existing, node, 1);
      UpdateWithAntiAffinityTerms(s.anti_affinity_counts,
                                  s.required_anti_affinity_terms, existing,
                                  api::Labels{}, node, 1);
    }
  }

  if (s.existing_anti_affinity_counts.empty() && !has_incoming_terms) {
    return {std::nullopt, Status::Skip()};
  }
  helper::WriteState(state, kPreFilterStateKey, std::move(s));
  return {std::nullopt, Status::Success()};
}

Status InterPodAffinity::AddPod(CycleState& state,
                                const api::Pod& /*pod_to_schedule*/,
                                const api::Pod& pod_to_add,
                                const NodeInfo& node) {
  auto* data = dynamic_cast<helper::TypedState<PreFilterState>*>(
      state.Read(kPreFilterStateKey));
  if (data == nullptr) return MissingPreFilterState();
  UpdateWithPod(data->value, pod_to_add, *node.node, 1);
  return Status::Success();
}

Status InterPodAffinity::RemovePod(CycleState& state,
                                   const api::Pod& /*pod_to_schedule*/,
                                   const api::Pod& pod_to_remove,
                                   const NodeInfo& node) {
  auto* data = dynamic_cast<helper::TypedState<PreFilterState>*>(
      state.Read(kPreFilterStateKey));
  if (data == nullptr) return MissingPreFilterState();
  UpdateWithPod(data->value, pod_to_remove, *node.node, -1);
  return Status::Success();
}

Status InterPodAffinity::Filter(CycleState& state, const api::Pod& /*pod*/,
                                const NodeInfo& node) {
  const PreFilterState* s =
      helper::ReadState<PreFilterState>(state, kPreFilterStateKey);
  if (s == nullptr) return MissingPreFilterState();
  if (!SatisfyPodAffinity(*s, *node.node)) {
    return Status(Code::kUnschedulableAndUnresolvable,
                  kErrReasonAffinityRulesNotMatch);
  }
  if (!SatisfyPodAntiAffinity(*s, *node.node)) {
    return Status(Code::kUnschedulable, kErrReasonAntiAffinityRulesNotMatch);
  }
  if (!SatisfyExistingPodsAntiAffinity(*s, *node.node)) {
    return Status(Code::kUnschedulable,
                  kErrReasonExistingAntiAffinityRulesNotMatch);
  }
  return Status::Success();
}

}  // namespace schedref::reference::framework::plugins::interpodaffinity
