// InterPodAffinity PreScore, Score and NormalizeScore (upstream
// interpodaffinity/scoring.go).
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include "reference/framework/plugins/helper/typed_state.h"
#include "reference/framework/plugins/interpodaffinity/interpod_affinity.h"

namespace schedref::reference::framework::plugins::interpodaffinity {
namespace {

using ScoreMap = std::map<std::string, std::map<std::string, int64_t>>;

// If `pod` matches `term` and `node` carries the term's topology key, adds
// weight * multiplier at that pair (upstream scoreMap.processTerm). Returns
// true iff an entry was touched: upstream skips scoring when no entry was
// ever created, even if the entries net to 0.
bool ProcessTerm(ScoreMap& m, const AffinityTerm& term, int32_t weight,
                 const api::Pod& pod, const api::Labels& ns_labels,
                 const api::Node& node, int32_t multiplier) {
  if (!TermMatches(term, pod, ns_labels)) return false;
  auto it = node.labels.find(term.topology_key);
  if (it == node.labels.end()) return false;
  // Upstream multiplies in int32 before widening.
  m[term.topology_key][it->second] +=
      static_cast<int64_t>(static_cast<int32_t>(weight * multiplier));
  return true;
}

bool ProcessTerms(ScoreMap& m, const std::vector<WeightedAffinityTerm>& terms,
                  const api::Pod& pod, const api::Labels& ns_labels,
                  const api::Node& node, int32_t multiplier) {
  bool touched = false;
  for (const WeightedAffinityTerm& t : terms) {
    touched |= ProcessTerm(m, t.term, t.weight, pod, ns_labels, node,
                           multiplier);
  }
  return touched;
}

Status MissingPreScoreState() {
  return Status::Error(std::string("failed to read \"") + kPreScoreStateKey +
                       "\" from cycleState: not found");
}

}  // namespace

Status InterPodAffinity::PreScore(
    CycleState& state, const api::Pod& pod,
    const std::vector<const NodeInfo*>& /*nodes*/) {
  std::vector<WeightedAffinityTerm> preferred = PreferredAffinityTerms(pod);
  std::vector<WeightedAffinityTerm> preferred_anti =
      PreferredAntiAffinityTerms(pod);
  const bool has_constraints = !preferred.empty() || !preferred_anti.empty();
  if (args_.ignore_preferred_terms_of_existing_pods && !has_constraints) {
    return Status::Skip();
  }

  const std::map<std::string, api::Labels>& ns_map =
      handle_->NamespaceLabels();
  for (WeightedAffinityTerm& t : preferred) {
    MergeAffinityTermNamespaces(t.term, ns_map);
  }
  for (WeightedAffinityTerm& t : preferred_anti) {
    MergeAffinityTermNamespaces(t.term, ns_map);
  }
  const api::Labels ns_labels = NamespaceLabelsOf(pod.ns, ns_map);

  // Note: upstream visits only nodes (and pods) with pod affinity unless
  // the incoming pod has preferred terms; the others add nothing, so every
  // pod of every node is visited here.
  ScoreMap topology_score;
  bool touched = false;
  for (const NodeInfo& info : handle_->SnapshotSharedLister().List()) {
    const api::Node& node = *info.node;
    if (node.labels.empty()) continue;
    for (const api::Pod& existing : info.pods) {
      // The incoming pod's preferred terms; their namespaceSelectors are
      // merged, so the existing pod's namespace labels are not looked up.
      touched |= ProcessTerms(topology_score, preferred, existing,
                              api::Labels{}, node, 1);
      touched |= ProcessTerms(topology_score, preferred_anti, existing,
                              api::Labels{}, node, -1);
      // The existing pod's terms against the incoming pod.
      if (args_.hard_pod_affinity_weight > 0) {
        for (const AffinityTerm& t : RequiredAffinityTerms(existing)) {
          touched |= ProcessTerm(topology_score, t,
                                 args_.hard_pod_affinity_weight, pod,
                                 ns_labels, node, 1);
        }
      }
      touched |= ProcessTerms(topology_score, PreferredAffinityTerms(existing),
                              pod, ns_labels, node, 1);
      touched |= ProcessTerms(topology_score,
                              PreferredAntiAffinityTerms(existing), pod,
                              ns_labels, node, -1);
    }
  }
  if (!touched) return Status::Skip();
  helper::WriteState(state, kPreScoreStateKey,
                     PreScoreState{std::move(topology_score)});
  return Status::Success();
}

ScoreOutput InterPodAffinity::Score(CycleState& state, const api::Pod& /*pod*/,
                                    const NodeInfo& node) {
  const PreScoreState* s =
      helper::ReadState<PreScoreState>(state, kPreScoreStateKey);
  if (s == nullptr) return {0, MissingPreScoreState()};
  int64_t score = 0;
  for (const auto& [key, values] : s->topology_score) {
    auto label = node.node->labels.find(key);
    if (label == node.node->labels.end()) continue;
    auto it = values.find(label->second);
    if (it != values.end()) score += it->second;
  }
  return {score, Status::Success()};
}

Status InterPodAffinity::NormalizeScore(CycleState& state,
                                        const api::Pod& /*pod*/,
                                        NodeScoreList& scores) {
  const PreScoreState* s =
      helper::ReadState<PreScoreState>(state, kPreScoreStateKey);
  if (s == nullptr) return MissingPreScoreState();
  if (s->topology_score.empty()) return Status::Success();
  int64_t min_count = std::numeric_limits<int64_t>::max();
  int64_t max_count = std::numeric_limits<int64_t>::min();
  for (const NodePluginScore& n : scores) {
    if (n.score > max_count) max_count = n.score;
    if (n.score < min_count) min_count = n.score;
  }
  const int64_t diff = max_count - min_count;
  for (NodePluginScore& n : scores) {
    double f = 0;
    if (diff > 0) {
      f = static_cast<double>(kMaxNodeScore) *
          (static_cast<double>(n.score - min_count) /
           static_cast<double>(diff));
    }
    n.score = static_cast<int64_t>(f);
  }
  return Status::Success();
}

}  // namespace schedref::reference::framework::plugins::interpodaffinity
