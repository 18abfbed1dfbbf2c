// PodTopologySpread PreScore, Score and NormalizeScore (upstream
// podtopologyspread/scoring.go).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include "reference/framework/plugins/helper/typed_state.h"
#include "reference/framework/plugins/podtopologyspread/pod_topology_spread.h"

namespace schedref::reference::framework::plugins::podtopologyspread {
namespace {

// Marks ignored nodes in NormalizeScore (upstream invalidScore).
constexpr int64_t kInvalidScore = -1;

Status MissingPreScoreState() {
  return Status::Error(std::string("error reading \"") + kPreScoreStateKey +
                       "\" from cycleState: not found");
}

// ln(size + 2): the weight of a constraint's counts, so that the counts of
// topologies with fewer domains are not watered down.
// Note: Go's math.Log and the C library's log may differ in the last bit;
// the score is rounded, so only a sum landing exactly on .5 could differ
// (docs/deviations.md "Floating point").
double TopologyNormalizingWeight(size_t size) {
  return std::log(static_cast<double>(size + 2));
}

// count * weight + maxSkew - 1: maxSkew - 1 waters down the differences
// between domains, the tolerance of the score to skew.
double ScoreForCount(int64_t count, int32_t max_skew, double weight) {
  return static_cast<double>(count) * weight +
         static_cast<double>(max_skew - 1);
}

}  // namespace

Status PodTopologySpread::PreScore(CycleState& state, const api::Pod& pod,
                                   const std::vector<const NodeInfo*>& nodes) {
  const std::vector<NodeInfo>& all_nodes =
      handle_->SnapshotSharedLister().List();
  if (all_nodes.empty()) return Status::Skip();

  PreScoreState s;
  // Only non-system-default constraints require every key on a node, so
  // that nodes without a zone label still get hostname spreading.
  const bool require_all_topologies =
      !pod.topology_spread_constraints.empty() || !system_defaulted_;
  s.constraints =
      !pod.topology_spread_constraints.empty()
          ? FilterTopologySpreadConstraints(pod.topology_spread_constraints,
                                            pod.labels, kScheduleAnyway)
          : BuildDefaultConstraints(default_constraints_, pod, kScheduleAnyway,
                                    handle_->SelectorListers());
  if (s.constraints.empty()) return Status::Skip();

  // upstream initPreScoreState: the domains of the filtered nodes.
  s.topology_value_to_pod_counts.resize(s.constraints.size());
  std::vector<size_t> topo_size(s.constraints.size(), 0);
  for (const NodeInfo* info : nodes) {
    const api::Node& node = *info->node;
    if (require_all_topologies &&
        !NodeLabelsMatchSpreadConstraints(node.labels, s.constraints)) {
      s.ignored_nodes.insert(node.name);
      continue;
    }
    for (size_t i = 0; i < s.constraints.size(); ++i) {
      const Constraint& c = s.constraints[i];
      // Per-node counts are taken in Score.
      if (c.topology_key == kLabelHostname) continue;
      auto label = node.labels.find(c.topology_key);
      // Under system defaulting a node may lack the key: upstream then
      // registers the empty value.
      const std::string value =
          label == node.labels.end() ? std::string() : label->second;
      if (s.topology_value_to_pod_counts[i].emplace(value, 0).second) {
        ++topo_size[i];
      }
    }
  }
  for (size_t i = 0; i < s.constraints.size(); ++i) {
    size_t size = topo_size[i];
    if (s.constraints[i].topology_key == kLabelHostname) {
      size = nodes.size() - s.ignored_nodes.size();
    }
    s.topology_normalizing_weight.push_back(TopologyNormalizingWeight(size));
  }

  // The counts, over every node of the cluster, of the registered domains.
  for (const NodeInfo& info : all_nodes) {
    const api::Node& node = *info.node;
    if (require_all_topologies &&
        !NodeLabelsMatchSpreadConstraints(node.labels, s.constraints)) {
      continue;
    }
    for (size_t i = 0; i < s.constraints.size(); ++i) {
      const Constraint& c = s.constraints[i];
      if (!MatchNodeInclusionPolicies(c, pod, node)) continue;
      auto label = node.labels.find(c.topology_key);
      const std::string value =
          label == node.labels.end() ? std::string() : label->second;
      auto it = s.topology_value_to_pod_counts[i].find(value);
      // A domain of no filtered node is not scored; hostname constraints
      // have no registered domains.
      if (it == s.topology_value_to_pod_counts[i].end()) continue;
      it->second += CountPodsMatchSelector(info.pods, c.selector, pod.ns);
    }
  }
  helper::WriteState(state, kPreScoreStateKey, std::move(s));
  return Status::Success();
}

ScoreOutput PodTopologySpread::Score(CycleState& state, const api::Pod& pod,
                                     const NodeInfo& node) {
  const PreScoreState* s =
      helper::ReadState<PreScoreState>(state, kPreScoreStateKey);
  if (s == nullptr) return {0, MissingPreScoreState()};
  if (s->ignored_nodes.contains(node.Name())) return {0, Status::Success()};
  double score = 0;
  for (size_t i = 0; i < s->constraints.size(); ++i) {
    const Constraint& c = s->constraints[i];
    auto label = node.node->labels.find(c.topology_key);
    if (label == node.node->labels.end()) continue;
    int64_t count = 0;
    if (c.topology_key == kLabelHostname) {
      count = CountPodsMatchSelector(node.pods, c.selector, pod.ns);
    } else {
      const auto& counts = s->topology_value_to_pod_counts[i];
      auto it = counts.find(label->second);
      if (it != counts.end()) count = it->second;
    }
    score += ScoreForCount(count, c.max_skew, s->topology_normalizing_weight[i]);
  }
  return {static_cast<int64_t>(std::round(score)), Status::Success()};
}

Status PodTopologySpread::NormalizeScore(CycleState& state,
                                         const api::Pod& /*pod*/,
                                         NodeScoreList& scores) {
  const PreScoreState* s =
      helper::ReadState<PreScoreState>(state, kPreScoreStateKey);
  if (s == nullptr) return MissingPreScoreState();
  int64_t min_score = std::numeric_limits<int64_t>::max();
  int64_t max_score = 0;
  for (NodePluginScore& n : scores) {
    if (s->ignored_nodes.contains(n.name)) {
      n.score = kInvalidScore;
      continue;
    }
    min_score = std::min(min_score, n.score);
    max_score = std::max(max_score, n.score);
  }
  for (NodePluginScore& n : scores) {
    if (n.score == kInvalidScore) {
      n.score = 0;
      continue;
    }
    if (max_score == 0) {
      n.score = kMaxNodeScore;
      continue;
    }
    n.score = kMaxNodeScore * (max_score + min_score - n.score) / max_score;
  }
  return Status::Success();
}

}  // namespace schedref::reference::framework::plugins::podtopologyspread
