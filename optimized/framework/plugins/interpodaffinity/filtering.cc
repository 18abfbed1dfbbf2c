// InterPodAffinity PreFilter, its AddPod/RemovePod extensions, and Filter
// (upstream interpodaffinity/filtering.go).
#include <algorithm>
#include <string>
#include <utility>

#include "optimized/framework/plugins/interpodaffinity/affinity_match.h"
#include "optimized/framework/plugins/interpodaffinity/interpod_affinity.h"

namespace schedref::optimized::framework::plugins::interpodaffinity {

const int PreFilterState::kKey = CycleState::NewKey();

namespace {

const api::Labels& NoLabels() {
  static const api::Labels kNone;
  return kNone;
}

Status MissingPreFilterState() {
  return Status::Error(std::string("error reading \"") + kPreFilterStateKey +
                       "\" from cycleState: not found");
}

// One existing-anti-affinity contribution found on a node: `count` terms
// with this topology key (the node carries it) matched the incoming pod.
struct KeyCount {
  const std::string* key;
  int64_t count;
};

// The filter proper. `pair_of(key_id)` gives the node's pair for a key of
// the index: kNoKey, a pair id or kNoPair.
template <typename PairOf>
Status FilterNode(const PreFilterState& s, const api::Node& node,
                  const PairOf& pair_of) {
  const PreFilterShared& sh = *s.shared;
  if (!sh.affinity_keys.empty()) {
    bool pods_exist = true;
    for (int32_t key : sh.affinity_keys) {
      const int32_t pair = pair_of(key);
      // The node must carry every term's topology key.
      if (pair == kNoKey) {
        return Status(Code::kUnschedulableAndUnresolvable,
                      kErrReasonAffinityRulesNotMatch);
      }
      if (s.affinity.Get(pair) <= 0) pods_exist = false;
    }
    // Unless it is the first pod of a group whose members have affinity to
    // each other: no pod anywhere matches, but the pod matches itself.
    if (!pods_exist &&
        !(s.affinity.NonZero() == 0 && sh.pod_matches_own_affinity)) {
      return Status(Code::kUnschedulableAndUnresolvable,
                    kErrReasonAffinityRulesNotMatch);
    }
  }
  for (int32_t key : sh.anti_affinity_keys) {
    const int32_t pair = pair_of(key);
    if (pair >= 0 && s.anti_affinity.Get(pair) > 0) {
      return Status(Code::kUnschedulable, kErrReasonAntiAffinityRulesNotMatch);
    }
  }
  if (s.existing_anti_affinity.NonZero() == 0) return Status::Success();
  // Some label (key, value) of the node with a positive count. Every
  // counted pair is in the index or among the extra pairs.
  const int32_t num_keys = static_cast<int32_t>(sh.index.keys.size());
  for (int32_t key = 0; key < num_keys; ++key) {
    const int32_t pair = pair_of(key);
    if (pair >= 0 && s.existing_anti_affinity.Get(pair) > 0) {
      return Status(Code::kUnschedulable,
                    kErrReasonExistingAntiAffinityRulesNotMatch);
    }
  }
  const int32_t base = static_cast<int32_t>(sh.index.pairs.size());
  for (size_t i = 0; i < s.extra_pairs.size(); ++i) {
    if (s.existing_anti_affinity.Get(base + static_cast<int32_t>(i)) <= 0) continue;
    auto label = node.labels.find(s.extra_pairs[i].first);
    if (label != node.labels.end() && label->second == s.extra_pairs[i].second) {
      return Status(Code::kUnschedulable,
                    kErrReasonExistingAntiAffinityRulesNotMatch);
    }
  }
  return Status::Success();
}

}  // namespace

int32_t PreFilterState::PairOf(const NodeInfo& node, int32_t key) const {
  const TopologyIndex& index = shared->index;
  if (index.Indexed(node)) return index.Row(node)[key];
  const int32_t pair = index.LookupPair(*node.node(), key);
  if (pair != kNoPair) return pair;
  const std::string& value = node.node()->labels.at(index.keys[key]);
  for (size_t i = 0; i < extra_pairs.size(); ++i) {
    if (extra_pairs[i].first == index.keys[key] && extra_pairs[i].second == value) {
      return static_cast<int32_t>(index.pairs.size() + i);
    }
  }
  return kNoPair;
}

int32_t PreFilterState::PairForUpdate(const NodeInfo& node, int32_t key_id,
                                      const std::string& key) {
  if (key_id >= 0) {
    const int32_t pair = PairOf(node, key_id);
    if (pair != kNoPair) return pair;
  }
  auto label = node.node()->labels.find(key);
  if (label == node.node()->labels.end()) return kNoKey;
  const int32_t base = static_cast<int32_t>(shared->index.pairs.size());
  for (size_t i = 0; i < extra_pairs.size(); ++i) {
    if (extra_pairs[i].first == key && extra_pairs[i].second == label->second) {
      return base + static_cast<int32_t>(i);
    }
  }
  extra_pairs.emplace_back(key, label->second);
  return base + static_cast<int32_t>(extra_pairs.size() - 1);
}

void PreFilterState::UpdateWithPod(const PodInfo& incoming, const PodInfo& pod,
                                   const NodeInfo& node, int64_t multiplier) {
  const PreFilterShared& sh = *shared;
  for (const AffinityTerm& t : pod.required_anti_affinity_terms) {
    if (!TermMatches(t, incoming.pod, sh.namespace_labels)) continue;
    const int32_t pair =
        PairForUpdate(node, sh.index.KeyId(t.topology_key), t.topology_key);
    if (pair != kNoKey) existing_anti_affinity.Add(pair, multiplier);
  }
  if (PodMatchesAllAffinityTerms(sh.affinity_terms, pod.pod)) {
    for (size_t i = 0; i < sh.affinity_terms.size(); ++i) {
      const int32_t pair = PairForUpdate(node, sh.affinity_keys[i],
                                         sh.affinity_terms[i].topology_key);
      if (pair != kNoKey) affinity.Add(pair, multiplier);
    }
  }
  // The incoming pod's terms have their namespaceSelectors merged, so the
  // other pod's namespace labels are not looked up.
  for (size_t i = 0; i < sh.anti_affinity_terms.size(); ++i) {
    if (!TermMatches(sh.anti_affinity_terms[i], pod.pod, NoLabels())) continue;
    const int32_t pair = PairForUpdate(node, sh.anti_affinity_keys[i],
                                       sh.anti_affinity_terms[i].topology_key);
    if (pair != kNoKey) anti_affinity.Add(pair, multiplier);
  }
}

TopologyPair PreFilterState::PairName(int32_t id) const {
  const TopologyIndex& index = shared->index;
  if (id < static_cast<int32_t>(index.pairs.size())) {
    const auto& [key, value] = index.pairs[id];
    return {index.keys[key], std::string(value)};
  }
  return extra_pairs[id - index.pairs.size()];
}

TopologyToMatchedTermCount PreFilterState::ToMap(const PairCounts& counts) const {
  TopologyToMatchedTermCount out;
  for (const auto& [id, count] : counts.Entries()) out[PairName(id)] = count;
  return out;
}

TopologyToMatchedTermCount PreFilterState::ExistingAntiAffinityCounts() const {
  return ToMap(existing_anti_affinity);
}
TopologyToMatchedTermCount PreFilterState::AffinityCounts() const {
  return ToMap(affinity);
}
TopologyToMatchedTermCount PreFilterState::AntiAffinityCounts() const {
  return ToMap(anti_affinity);
}

PreFilterOutput InterPodAffinity::PreFilter(CycleState& state, const PodInfo& pod,
                                            const std::vector<NodeInfo*>& /*nodes*/) {
  const Snapshot& snapshot = handle_->SnapshotSharedLister();
  const std::map<std::string, api::Labels>& ns_map = handle_->NamespaceLabels();
  Parallelizer& parallel = handle_->Parallel();
  auto sh = std::make_shared<PreFilterShared>();
  sh->affinity_terms = pod.required_affinity_terms;
  sh->anti_affinity_terms = pod.required_anti_affinity_terms;
  for (AffinityTerm& t : sh->affinity_terms) MergeAffinityTermNamespaces(t, ns_map);
  for (AffinityTerm& t : sh->anti_affinity_terms) {
    MergeAffinityTermNamespaces(t, ns_map);
  }
  sh->namespace_labels = NamespaceLabelsOf(pod.pod.ns, ns_map);
  const api::Labels& ns_labels = sh->namespace_labels;

  // 1. Existing pods' required anti-affinity against the incoming pod: only
  // nodes holding such pods can contribute.
  const std::vector<NodeInfo*>& anti_nodes =
      snapshot.HavePodsWithRequiredAntiAffinityList();
  std::vector<std::vector<KeyCount>> existing(anti_nodes.size());
  parallel.For(0, static_cast<int64_t>(anti_nodes.size()), [&](int64_t i) {
    const NodeInfo& info = *anti_nodes[i];
    const api::Labels& labels = info.node()->labels;
    std::vector<KeyCount>& out = existing[i];
    for (const PodInfoPtr& p : info.pods_with_required_anti_affinity()) {
      for (const AffinityTerm& t : p->required_anti_affinity_terms) {
        if (!labels.contains(t.topology_key)) continue;
        if (!TermMatches(t, pod.pod, ns_labels)) continue;
        auto it = std::find_if(out.begin(), out.end(), [&](const KeyCount& e) {
          return *e.key == t.topology_key;
        });
        if (it == out.end()) {
          out.push_back({&t.topology_key, 1});
        } else {
          ++it->count;
        }
      }
    }
  });
  const bool has_existing = std::any_of(
      existing.begin(), existing.end(), [](const auto& v) { return !v.empty(); });
  const bool has_incoming_terms =
      !sh->affinity_terms.empty() || !sh->anti_affinity_terms.empty();
  if (!has_existing && !has_incoming_terms) return {std::nullopt, Status::Skip()};

  // 2. The keys, and every node's pair for each of them.
  TopologyIndex& index = sh->index;
  for (const AffinityTerm& t : sh->affinity_terms) {
    sh->affinity_keys.push_back(index.InternKey(t.topology_key));
  }
  for (const AffinityTerm& t : sh->anti_affinity_terms) {
    sh->anti_affinity_keys.push_back(index.InternKey(t.topology_key));
  }
  std::vector<std::vector<int32_t>> existing_keys(existing.size());
  for (size_t i = 0; i < existing.size(); ++i) {
    for (const KeyCount& e : existing[i]) {
      existing_keys[i].push_back(index.InternKey(*e.key));
    }
  }
  const std::vector<NodeInfo*>& list = snapshot.List();
  const size_t n = list.size();
  const size_t num_keys = index.keys.size();
  const size_t num_anti = sh->anti_affinity_terms.size();
  index.nodes.resize(n);
  std::vector<const std::string*> values(n * num_keys, nullptr);
  std::vector<int64_t> affinity_match(sh->affinity_terms.empty() ? 0 : n, 0);
  std::vector<int64_t> anti_match(n * num_anti, 0);
  parallel.For(0, static_cast<int64_t>(n), [&](int64_t i) {
    const NodeInfo& info = *list[i];
    const api::Node& node = *info.node();
    index.nodes[i] = &node;
    for (size_t k = 0; k < num_keys; ++k) {
      auto label = node.labels.find(index.keys[k]);
      if (label != node.labels.end()) values[i * num_keys + k] = &label->second;
    }
    if (!has_incoming_terms) return;
    // The incoming pod's terms against the pods on this node.
    for (const PodInfoPtr& p : info.pods()) {
      if (!affinity_match.empty() &&
          PodMatchesAllAffinityTerms(sh->affinity_terms, p->pod)) {
        ++affinity_match[i];
      }
      for (size_t j = 0; j < num_anti; ++j) {
        if (TermMatches(sh->anti_affinity_terms[j], p->pod, NoLabels())) {
          ++anti_match[i * num_anti + j];
        }
      }
    }
  });
  index.node_pairs.assign(n * num_keys, kNoKey);
  for (size_t i = 0; i < n; ++i) {
    for (size_t k = 0; k < num_keys; ++k) {
      if (const std::string* v = values[i * num_keys + k]) {
        index.node_pairs[i * num_keys + k] =
            index.InternPair(static_cast<int32_t>(k), *v);
      }
    }
  }

  // 3. The counts, merged in node order.
  const size_t num_pairs = index.pairs.size();
  auto pair_at = [&](size_t pos, int32_t key) {
    return index.node_pairs[pos * num_keys + key];
  };
  std::vector<int64_t> existing_counts(has_existing ? num_pairs : 0, 0);
  for (size_t i = 0; i < existing.size(); ++i) {
    for (size_t e = 0; e < existing[i].size(); ++e) {
      existing_counts[pair_at(anti_nodes[i]->index, existing_keys[i][e])] +=
          existing[i][e].count;
    }
  }
  std::vector<int64_t> affinity_counts(affinity_match.empty() ? 0 : num_pairs, 0);
  for (size_t i = 0; i < affinity_match.size(); ++i) {
    if (affinity_match[i] == 0) continue;
    for (int32_t key : sh->affinity_keys) {
      if (int32_t pair = pair_at(i, key); pair >= 0) {
        affinity_counts[pair] += affinity_match[i];
      }
    }
  }
  std::vector<int64_t> anti_counts(num_anti == 0 ? 0 : num_pairs, 0);
  for (size_t i = 0; i < n && num_anti > 0; ++i) {
    for (size_t j = 0; j < num_anti; ++j) {
      if (anti_match[i * num_anti + j] == 0) continue;
      if (int32_t pair = pair_at(i, sh->anti_affinity_keys[j]); pair >= 0) {
        anti_counts[pair] += anti_match[i * num_anti + j];
      }
    }
  }
  sh->pod_matches_own_affinity =
      PodMatchesAllAffinityTerms(sh->affinity_terms, pod.pod);

  auto s = std::make_unique<PreFilterState>();
  s->shared = std::move(sh);
  s->existing_anti_affinity = PairCounts(std::move(existing_counts));
  s->affinity = PairCounts(std::move(affinity_counts));
  s->anti_affinity = PairCounts(std::move(anti_counts));
  state.Write(PreFilterState::kKey, std::move(s));
  return {std::nullopt, Status::Success()};
}

Status InterPodAffinity::AddPod(CycleState& state, const PodInfo& pod_to_schedule,
                                const PodInfo& pod_to_add, const NodeInfo& node) {
  auto* s = state.ReadAs<PreFilterState>(PreFilterState::kKey);
  if (s == nullptr) return MissingPreFilterState();
  s->UpdateWithPod(pod_to_schedule, pod_to_add, node, 1);
  return Status::Success();
}

Status InterPodAffinity::RemovePod(CycleState& state,
                                   const PodInfo& pod_to_schedule,
                                   const PodInfo& pod_to_remove,
                                   const NodeInfo& node) {
  auto* s = state.ReadAs<PreFilterState>(PreFilterState::kKey);
  if (s == nullptr) return MissingPreFilterState();
  s->UpdateWithPod(pod_to_schedule, pod_to_remove, node, -1);
  return Status::Success();
}

Status InterPodAffinity::Filter(const CycleState& state, const PodInfo& /*pod*/,
                                const NodeInfo& node) const {
  const auto* s = state.ReadAs<PreFilterState>(PreFilterState::kKey);
  if (s == nullptr) return MissingPreFilterState();
  const TopologyIndex& index = s->shared->index;
  if (index.Indexed(node)) {
    const int32_t* row = index.Row(node);
    return FilterNode(*s, *node.node(), [row](int32_t key) { return row[key]; });
  }
  return FilterNode(*s, *node.node(),
                    [&](int32_t key) { return s->PairOf(node, key); });
}

}  // namespace schedref::optimized::framework::plugins::interpodaffinity
