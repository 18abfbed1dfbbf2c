// InterPodAffinity PreScore, Score and NormalizeScore (upstream
// interpodaffinity/scoring.go).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include "optimized/framework/plugins/interpodaffinity/affinity_match.h"
#include "optimized/framework/plugins/interpodaffinity/interpod_affinity.h"

namespace schedref::optimized::framework::plugins::interpodaffinity {

const int PreScoreState::kKey = CycleState::NewKey();

namespace {

const api::Labels& NoLabels() {
  static const api::Labels kNone;
  return kNone;
}

// What one node's pods add at the node's pair for `key`.
struct KeyScore {
  const std::string* key;
  int64_t score;
};

// upstream scoreMap.processTerm: if `pod` matches `term` and the node
// carries the term's key, weight * multiplier is added at that key. An entry
// is created even when the sum is 0: upstream skips scoring only when no
// entry was ever created.
void ProcessTerm(std::vector<KeyScore>& out, const AffinityTerm& term,
                 int32_t weight, const api::Pod& pod, const api::Labels& ns_labels,
                 const api::Labels& node_labels, int32_t multiplier) {
  if (!node_labels.contains(term.topology_key)) return;
  if (!TermMatches(term, pod, ns_labels)) return;
  // Upstream multiplies in int32 before widening.
  const int64_t w = static_cast<int64_t>(static_cast<int32_t>(weight * multiplier));
  for (KeyScore& e : out) {
    if (*e.key == term.topology_key) {
      e.score += w;
      return;
    }
  }
  out.push_back({&term.topology_key, w});
}

void ProcessTerms(std::vector<KeyScore>& out,
                  const std::vector<WeightedAffinityTerm>& terms,
                  const api::Pod& pod, const api::Labels& ns_labels,
                  const api::Labels& node_labels, int32_t multiplier) {
  for (const WeightedAffinityTerm& t : terms) {
    ProcessTerm(out, t.term, t.weight, pod, ns_labels, node_labels, multiplier);
  }
}

Status MissingPreScoreState() {
  return Status::Error(std::string("failed to read \"") + kPreScoreStateKey +
                       "\" from cycleState: not found");
}

}  // namespace

int64_t PreScoreData::ScoreOf(const api::Node& node) const {
  int64_t score = 0;
  for (size_t k = 0; k < keys.size(); ++k) {
    auto label = node.labels.find(keys[k]);
    if (label == node.labels.end()) continue;
    auto it = value_scores[k].find(label->second);
    if (it != value_scores[k].end()) score += it->second;
  }
  return score;
}

Status InterPodAffinity::PreScore(CycleState& state, const PodInfo& pod,
                                  const std::vector<const NodeInfo*>& nodes) {
  const bool has_constraints = !pod.preferred_affinity_terms.empty() ||
                               !pod.preferred_anti_affinity_terms.empty();
  if (args_.ignore_preferred_terms_of_existing_pods && !has_constraints) {
    return Status::Skip();
  }
  const Snapshot& snapshot = handle_->SnapshotSharedLister();
  // No existing pod with any pod (anti-)affinity: none has terms that
  // score, and the index need not be brought up to date to tell.
  if (!has_constraints && snapshot.HavePodsWithAffinityList().empty()) return Status::Skip();
  if (!has_constraints) {
    // Only existing pods' own terms could add anything: Skip when no pod
    // has terms that score (snapshot_index.h keeps the counts; it is
    // already up to date when PreFilter ran in this cycle).
    snapshot_index_.Refresh(snapshot);
    if (snapshot_index_.PodsWithPreferredTerms() == 0 &&
        (args_.hard_pod_affinity_weight <= 0 ||
         snapshot_index_.PodsWithRequiredAffinity() == 0)) {
      return Status::Skip();
    }
  }
  const std::map<std::string, api::Labels>& ns_map = handle_->NamespaceLabels();
  std::vector<WeightedAffinityTerm> preferred = pod.preferred_affinity_terms;
  std::vector<WeightedAffinityTerm> preferred_anti = pod.preferred_anti_affinity_terms;
  for (WeightedAffinityTerm& t : preferred) MergeAffinityTermNamespaces(t.term, ns_map);
  for (WeightedAffinityTerm& t : preferred_anti) {
    MergeAffinityTermNamespaces(t.term, ns_map);
  }
  const api::Labels& ns_labels = NamespaceLabelsOf(pod.pod.ns, ns_map);
  const int32_t hard_weight = args_.hard_pod_affinity_weight;

  // Without preferred terms of its own, only existing pods with affinity
  // terms can add anything.
  const std::vector<NodeInfo*>& list =
      has_constraints ? snapshot.List() : snapshot.HavePodsWithAffinityList();
  std::vector<std::vector<KeyScore>> partial(list.size());
  handle_->Parallel().For(0, static_cast<int64_t>(list.size()), [&](int64_t i) {
    const NodeInfo& info = *list[i];
    const api::Labels& labels = info.node()->labels;
    if (labels.empty()) return;
    std::vector<KeyScore>& out = partial[i];
    const std::vector<PodInfoPtr>& pods =
        has_constraints ? info.pods() : info.pods_with_affinity();
    for (const PodInfoPtr& p : pods) {
      // The incoming pod's preferred terms; their namespaceSelectors are
      // merged, so the existing pod's namespace labels are not looked up.
      ProcessTerms(out, preferred, p->pod, NoLabels(), labels, 1);
      ProcessTerms(out, preferred_anti, p->pod, NoLabels(), labels, -1);
      // The existing pod's terms against the incoming pod.
      if (hard_weight > 0) {
        for (const AffinityTerm& t : p->required_affinity_terms) {
          ProcessTerm(out, t, hard_weight, pod.pod, ns_labels, labels, 1);
        }
      }
      ProcessTerms(out, p->preferred_affinity_terms, pod.pod, ns_labels, labels, 1);
      ProcessTerms(out, p->preferred_anti_affinity_terms, pod.pod, ns_labels,
                   labels, -1);
    }
  });

  auto data = std::make_shared<PreScoreData>();
  bool touched = false;
  for (size_t i = 0; i < list.size(); ++i) {
    const api::Labels& labels = list[i]->node()->labels;
    for (const KeyScore& e : partial[i]) {
      touched = true;
      auto key = std::find(data->keys.begin(), data->keys.end(), *e.key);
      if (key == data->keys.end()) {
        data->keys.push_back(*e.key);
        data->value_scores.emplace_back();
        key = data->keys.end() - 1;
      }
      data->value_scores[key - data->keys.begin()][labels.at(*e.key)] += e.score;
    }
  }
  if (!touched) return Status::Skip();

  const size_t num_nodes = static_cast<size_t>(snapshot.NumNodes());
  data->score.assign(num_nodes, 0);
  data->scored_node.assign(num_nodes, nullptr);
  handle_->Parallel().For(0, static_cast<int64_t>(nodes.size()), [&](int64_t i) {
    const NodeInfo* info = nodes[i];
    if (info->index < 0 || static_cast<size_t>(info->index) >= num_nodes) return;
    data->score[info->index] = data->ScoreOf(*info->node());
    data->scored_node[info->index] = info;
  });
  auto s = std::make_unique<PreScoreState>();
  s->data = std::move(data);
  state.Write(PreScoreState::kKey, std::move(s));
  return Status::Success();
}

ScoreOutput InterPodAffinity::Score(const CycleState& state, const PodInfo& /*pod*/,
                                    const NodeInfo& node) const {
  const auto* s = state.ReadAs<PreScoreState>(PreScoreState::kKey);
  if (s == nullptr) return {0, MissingPreScoreState()};
  const PreScoreData& d = *s->data;
  if (node.index >= 0 && static_cast<size_t>(node.index) < d.scored_node.size() &&
      d.scored_node[node.index] == &node) {
    return {d.score[node.index], Status::Success()};
  }
  return {d.ScoreOf(*node.node()), Status::Success()};
}

Status InterPodAffinity::NormalizeScore(const CycleState& state,
                                        const PodInfo& /*pod*/,
                                        const std::vector<const NodeInfo*>& /*nodes*/,
                                        std::vector<int64_t>& scores) {
  const auto* s = state.ReadAs<PreScoreState>(PreScoreState::kKey);
  if (s == nullptr) return MissingPreScoreState();
  if (s->data->keys.empty() || scores.empty()) return Status::Success();
  int64_t min_count = std::numeric_limits<int64_t>::max();
  int64_t max_count = std::numeric_limits<int64_t>::min();
  for (int64_t score : scores) {
    max_count = std::max(max_count, score);
    min_count = std::min(min_count, score);
  }
  const int64_t diff = max_count - min_count;
  for (int64_t& score : scores) {
    double f = 0;
    if (diff > 0) {
      f = static_cast<double>(kMaxNodeScore) *
          (static_cast<double>(score - min_count) / static_cast<double>(diff));
    }
    score = static_cast<int64_t>(f);
  }
  return Status::Success();
}

}  // namespace schedref::optimized::framework::plugins::interpodaffinity
