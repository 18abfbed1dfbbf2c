// PodTopologySpread PreScore, Score and NormalizeScore (upstream
// podtopologyspread/scoring.go).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>

#include "optimized/framework/plugins/podtopologyspread/pod_topology_spread.h"

namespace schedref::optimized::framework::plugins::podtopologyspread {

const int PreScoreState::kKey = CycleState::NewKey();

namespace {

// Marks ignored nodes in NormalizeScore (upstream invalidScore).
constexpr int64_t kInvalidScore = -1;

Status MissingPreScoreState() {
  return Status::Error(std::string("error reading \"") + kPreScoreStateKey +
                       "\" from cycleState: not found");
}

// ln(size + 2): the weight of a constraint's counts, so that the counts of
// topologies with fewer domains are not watered down.
// Note: Go's math.Log and the C library's log may differ in the last bit
// (docs/deviations.md "Floating point").
double TopologyNormalizingWeight(size_t size) {
  return std::log(static_cast<double>(size + 2));
}

// count * weight + maxSkew - 1: maxSkew - 1 waters down the differences
// between domains, the tolerance of the score to skew.
double ScoreForCount(int64_t count, int32_t max_skew, double weight) {
  return static_cast<double>(count) * weight + static_cast<double>(max_skew - 1);
}

bool IsHostname(const Constraint& c) { return c.topology_key == api::kLabelHostname; }

// The value a node is counted under for constraint c: its label, or ""
// when it lacks the key (only possible under system defaulting, where
// upstream registers the empty value).
std::string_view ValueOf(const api::Node& node, const Constraint& c) {
  auto label = node.labels.find(c.topology_key);
  return label == node.labels.end() ? std::string_view() : std::string_view(label->second);
}

}  // namespace

bool PreScoreData::Ignored(const api::Node& node) const {
  return require_all_topologies &&
         !NodeLabelsMatchSpreadConstraints(node.labels, constraints);
}

int64_t PreScoreData::ScoreOf(const NodeInfo& node) const {
  if (Ignored(*node.node())) return 0;
  const api::Labels& labels = node.node()->labels;
  double score = 0;
  for (size_t c = 0; c < constraints.size(); ++c) {
    const Constraint& constraint = constraints[c];
    auto label = labels.find(constraint.topology_key);
    if (label == labels.end()) continue;
    int64_t count = 0;
    if (IsHostname(constraint)) {
      count = CountPodsMatchSelector(node.pods(), constraint.selector, ns);
    } else {
      auto it = domain_ids[c].find(label->second);
      if (it != domain_ids[c].end()) count = counts[c][it->second];
    }
    score += ScoreForCount(count, constraint.max_skew, weight[c]);
  }
  return static_cast<int64_t>(std::round(score));
}

Status PodTopologySpread::PreScore(CycleState& state, const PodInfo& pod,
                                   const std::vector<const NodeInfo*>& nodes) {
  const Snapshot& snapshot = handle_->SnapshotSharedLister();
  const std::vector<NodeInfo*>& all_nodes = snapshot.List();
  if (all_nodes.empty()) return Status::Skip();

  const api::Pod& p = pod.pod;
  // (Found before any state is built: no constraint is a Skip.)
  auto constraints =
      !p.topology_spread_constraints.empty()
          ? FilterTopologySpreadConstraints(p.topology_spread_constraints, p.labels,
                                            api::kScheduleAnyway)
          : BuildDefaultConstraints(default_constraints_, p, api::kScheduleAnyway,
                                    handle_->SelectorListers());
  if (constraints.empty()) return Status::Skip();
  auto data = std::make_shared<PreScoreData>();
  data->constraints = std::move(constraints);
  // Only non-system-default constraints require every key on a node, so
  // that nodes without a zone label still get hostname spreading.
  data->require_all_topologies =
      !p.topology_spread_constraints.empty() || !system_defaulted_;
  data->ns = p.ns;
  const size_t num = data->constraints.size();

  // upstream initPreScoreState: the domains of the candidate nodes.
  data->domain_ids.resize(num);
  size_t ignored_count = 0;
  for (const NodeInfo* info : nodes) {
    const api::Node& node = *info->node();
    if (data->Ignored(node)) {
      ++ignored_count;
      continue;
    }
    for (size_t c = 0; c < num; ++c) {
      const Constraint& constraint = data->constraints[c];
      // Per-node counts are taken in Score.
      if (IsHostname(constraint)) continue;
      data->domain_ids[c].try_emplace(ValueOf(node, constraint),
                                      static_cast<int32_t>(data->domain_ids[c].size()));
    }
  }
  data->counts.resize(num);
  for (size_t c = 0; c < num; ++c) {
    size_t size = data->domain_ids[c].size();
    if (IsHostname(data->constraints[c])) size = nodes.size() - ignored_count;
    data->weight.push_back(TopologyNormalizingWeight(size));
    data->counts[c].assign(data->domain_ids[c].size(), 0);
  }

  // The counts, over every node of the cluster, of the registered domains;
  // a slot per (node, constraint), merged in node order.
  const size_t n = all_nodes.size();
  std::vector<int32_t> domain(n * num, -1);
  std::vector<int64_t> matching(n * num, 0);
  const PreScoreData& d = *data;
  handle_->Parallel().For(0, static_cast<int64_t>(n), [&](int64_t i) {
    const NodeInfo& info = *all_nodes[i];
    const api::Node& node = *info.node();
    if (d.Ignored(node)) return;
    int affinity_ok = -1, taints_ok = -1;  // computed on first use
    for (size_t c = 0; c < num; ++c) {
      const Constraint& constraint = d.constraints[c];
      // A domain of no candidate node is not scored; hostname constraints
      // have no registered domains.
      auto it = d.domain_ids[c].find(ValueOf(node, constraint));
      if (it == d.domain_ids[c].end()) continue;
      if (constraint.honor_node_affinity) {
        if (affinity_ok < 0) affinity_ok = PodMatchesNodeAffinity(p, node);
        if (!affinity_ok) continue;
      }
      if (constraint.honor_node_taints) {
        if (taints_ok < 0) taints_ok = PodToleratesNodeTaints(p, node);
        if (!taints_ok) continue;
      }
      domain[i * num + c] = it->second;
      matching[i * num + c] = CountPodsMatchSelector(info.pods(), constraint.selector, p.ns);
    }
  });
  for (size_t i = 0; i < n * num; ++i) {
    if (domain[i] >= 0) data->counts[i % num][domain[i]] += matching[i];
  }

  // Every candidate's score, so that Score is a read.
  const size_t num_nodes = static_cast<size_t>(snapshot.NumNodes());
  data->score.assign(num_nodes, 0);
  data->ignored.assign(num_nodes, 0);
  data->scored_node.assign(num_nodes, nullptr);
  handle_->Parallel().For(0, static_cast<int64_t>(nodes.size()), [&](int64_t i) {
    const NodeInfo* info = nodes[i];
    if (info->index < 0 || static_cast<size_t>(info->index) >= num_nodes) return;
    data->ignored[info->index] = d.Ignored(*info->node()) ? 1 : 0;
    data->score[info->index] = d.ScoreOf(*info);
    data->scored_node[info->index] = info;
  });
  auto s = std::make_unique<PreScoreState>();
  s->data = std::move(data);
  state.Write(PreScoreState::kKey, std::move(s));
  return Status::Success();
}

ScoreOutput PodTopologySpread::Score(const CycleState& state, const PodInfo& /*pod*/,
                                     const NodeInfo& node) const {
  const auto* s = state.ReadAs<PreScoreState>(PreScoreState::kKey);
  if (s == nullptr) return {0, MissingPreScoreState()};
  const PreScoreData& d = *s->data;
  if (d.Computed(node)) return {d.score[node.index], Status::Success()};
  return {d.ScoreOf(node), Status::Success()};
}

Status PodTopologySpread::NormalizeScore(const CycleState& state,
                                         const PodInfo& /*pod*/,
                                         const std::vector<const NodeInfo*>& nodes,
                                         std::vector<int64_t>& scores) {
  const auto* s = state.ReadAs<PreScoreState>(PreScoreState::kKey);
  if (s == nullptr) return MissingPreScoreState();
  const PreScoreData& d = *s->data;
  int64_t min_score = std::numeric_limits<int64_t>::max();
  int64_t max_score = 0;
  for (size_t i = 0; i < scores.size(); ++i) {
    const NodeInfo& node = *nodes[i];
    const bool ignored =
        d.Computed(node) ? d.ignored[node.index] != 0 : d.Ignored(*node.node());
    if (ignored) {
      scores[i] = kInvalidScore;
      continue;
    }
    min_score = std::min(min_score, scores[i]);
    max_score = std::max(max_score, scores[i]);
  }
  for (int64_t& score : scores) {
    if (score == kInvalidScore) {
      score = 0;
      continue;
    }
    if (max_score == 0) {
      score = kMaxNodeScore;
      continue;
    }
    score = kMaxNodeScore * (max_score + min_score - score) / max_score;
  }
  return Status::Success();
}

}  // namespace schedref::optimized::framework::plugins::podtopologyspread
