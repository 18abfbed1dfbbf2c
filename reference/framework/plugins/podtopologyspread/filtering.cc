// PodTopologySpread PreFilter, its AddPod/RemovePod extensions, and Filter
// (upstream podtopologyspread/filtering.go).
#include <algorithm>
#include <climits>
#include <string>
#include <utility>

#include "reference/framework/plugins/helper/typed_state.h"
#include "reference/framework/plugins/podtopologyspread/pod_topology_spread.h"

namespace schedref::reference::framework::plugins::podtopologyspread {
namespace {

Status MissingPreFilterState() {
  return Status::Error(std::string("reading \"") + kPreFilterStateKey +
                       "\" from cycleState: not found");
}

// upstream updateWithPod: `updated` running on `node` changes the counts
// by `delta` for the incoming pod `preemptor`.
void UpdateWithPod(PreFilterState& s, const api::Pod& updated,
                   const api::Pod& preemptor, const api::Node& node,
                   int delta) {
  if (updated.ns != preemptor.ns) return;
  if (!NodeLabelsMatchSpreadConstraints(node.labels, s.constraints)) return;
  for (size_t i = 0; i < s.constraints.size(); ++i) {
    const Constraint& c = s.constraints[i];
    // Unlike the counting in PreFilter, an empty selector is matched here
    // as it is (it matches every pod), as upstream does.
    if (!SelectorMatches(c.selector, updated.labels)) continue;
    if (!MatchNodeInclusionPolicies(c, preemptor, node)) continue;
    s.tp_value_to_match_num[i][node.labels.at(c.topology_key)] += delta;
  }
}

}  // namespace

int PreFilterState::MinMatchNum(size_t i) const {
  const std::map<std::string, int>& counts = tp_value_to_match_num[i];
  if (static_cast<int64_t>(counts.size()) < constraints[i].min_domains) {
    // Fewer eligible domains than minDomains: the global minimum is 0.
    return 0;
  }
  // Upstream's critical paths start at MaxInt32: the value when there is no
  // domain at all (only reachable with minDomains <= 0).
  int min = INT32_MAX;
  for (const auto& [value, num] : counts) min = std::min(min, num);
  return min;
}

PreFilterOutput PodTopologySpread::PreFilter(
    CycleState& state, const api::Pod& pod,
    const std::vector<const NodeInfo*>& /*nodes*/) {
  PreFilterState s;
  s.constraints = GetConstraints(pod);
  if (s.constraints.empty()) return {std::nullopt, Status::Skip()};
  s.tp_value_to_match_num.resize(s.constraints.size());
  // Note: v1.32 reads every node from the snapshot lister here.
  for (const NodeInfo& info : handle_->SnapshotSharedLister().List()) {
    const api::Node& node = *info.node;
    // Only nodes carrying every topology key are counted.
    if (!NodeLabelsMatchSpreadConstraints(node.labels, s.constraints)) continue;
    for (size_t i = 0; i < s.constraints.size(); ++i) {
      const Constraint& c = s.constraints[i];
      if (!MatchNodeInclusionPolicies(c, pod, node)) continue;
      // Every eligible node's domain gets an entry, even with no pods.
      s.tp_value_to_match_num[i][node.labels.at(c.topology_key)] +=
          CountPodsMatchSelector(info.pods, c.selector, pod.ns);
    }
  }
  helper::WriteState(state, kPreFilterStateKey, std::move(s));
  return {std::nullopt, Status::Success()};
}

Status PodTopologySpread::AddPod(CycleState& state,
                                 const api::Pod& pod_to_schedule,
                                 const api::Pod& pod_to_add,
                                 const NodeInfo& node) {
  auto* data = dynamic_cast<helper::TypedState<PreFilterState>*>(
      state.Read(kPreFilterStateKey));
  if (data == nullptr) return MissingPreFilterState();
  UpdateWithPod(data->value, pod_to_add, pod_to_schedule, *node.node, 1);
  return Status::Success();
}

Status PodTopologySpread::RemovePod(CycleState& state,
                                    const api::Pod& pod_to_schedule,
                                    const api::Pod& pod_to_remove,
                                    const NodeInfo& node) {
  auto* data = dynamic_cast<helper::TypedState<PreFilterState>*>(
      state.Read(kPreFilterStateKey));
  if (data == nullptr) return MissingPreFilterState();
  UpdateWithPod(data->value, pod_to_remove, pod_to_schedule, *node.node, -1);
  return Status::Success();
}

Status PodTopologySpread::Filter(CycleState& state, const api::Pod& pod,
                                 const NodeInfo& node) {
  const PreFilterState* s =
      helper::ReadState<PreFilterState>(state, kPreFilterStateKey);
  if (s == nullptr) return MissingPreFilterState();
  for (size_t i = 0; i < s->constraints.size(); ++i) {
    const Constraint& c = s->constraints[i];
    auto value = node.node->labels.find(c.topology_key);
    if (value == node.node->labels.end()) {
      return Status(Code::kUnschedulableAndUnresolvable,
                    kErrReasonNodeLabelNotMatch);
    }
    // existing matching pods + (the pod matches itself) - global minimum
    // must not exceed maxSkew.
    const int self_match = SelectorMatches(c.selector, pod.labels) ? 1 : 0;
    const auto& counts = s->tp_value_to_match_num[i];
    auto it = counts.find(value->second);
    const int match_num = it == counts.end() ? 0 : it->second;
    const int64_t skew = static_cast<int64_t>(match_num) + self_match -
                         s->MinMatchNum(i);
    if (skew > c.max_skew) {
      return Status(Code::kUnschedulable, kErrReasonConstraintsNotMatch);
    }
  }
  return Status::Success();
}

}  // namespace schedref::reference::framework::plugins::podtopologyspread
