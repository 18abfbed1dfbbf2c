// InterPodAffinity PreFilter, its AddPod/RemovePod extensions, and Filter
// (upstream interpodaffinity/filtering.go).
#include <algorithm>
#include <string>
#include <utility>

#include "optimized/framework/plugins/interpodaffinity/affinity_match.h"
#include "optimized/framework/plugins/interpodaffinity/interpod_affinity.h"
#include "optimized/framework/plugins/names/names.h"

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
        return SharedRejectionOf<Code::kUnschedulableAndUnresolvable,
                               kErrReasonAffinityRulesNotMatch, names::kInterPodAffinity>();
      }
      if (s.affinity.Get(pair) <= 0) pods_exist = false;
    }
    // Unless it is the first pod of a group whose members have affinity to
    // each other: no pod anywhere matches, but the pod matches itself.
    if (!pods_exist &&
        !(s.affinity.NonZero() == 0 && sh.pod_matches_own_affinity)) {
      return SharedRejectionOf<Code::kUnschedulableAndUnresolvable,
                             kErrReasonAffinityRulesNotMatch, names::kInterPodAffinity>();
    }
  }
  for (int32_t key : sh.anti_affinity_keys) {
    const int32_t pair = pair_of(key);
    if (pair >= 0 && s.anti_affinity.Get(pair) > 0) {
      return SharedRejectionOf<Code::kUnschedulable, kErrReasonAntiAffinityRulesNotMatch,
                               names::kInterPodAffinity>();
    }
  }
  if (s.existing_anti_affinity.NonZero() == 0) return Status::Success();
  // Some label (key, value) of the node with a positive count. Every
  // counted pair is in the index or among the extra pairs.
  const int32_t num_keys = static_cast<int32_t>(sh.index.keys.size());
  for (int32_t key = 0; key < num_keys; ++key) {
    const int32_t pair = pair_of(key);
    if (pair >= 0 && s.existing_anti_affinity.Get(pair) > 0) {
      return SharedRejectionOf<Code::kUnschedulable, kErrReasonExistingAntiAffinityRulesNotMatch,
                               names::kInterPodAffinity>();
    }
  }
  const int32_t base = sh.index.num_pairs;
  for (size_t i = 0; i < s.extra_pairs.size(); ++i) {
    if (s.existing_anti_affinity.Get(base + static_cast<int32_t>(i)) <= 0) continue;
    auto label = node.labels.find(s.extra_pairs[i].first);
    if (label != node.labels.end() && label->second == s.extra_pairs[i].second) {
      return SharedRejectionOf<Code::kUnschedulable, kErrReasonExistingAntiAffinityRulesNotMatch,
                               names::kInterPodAffinity>();
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
  const std::string& name = index.KeyName(key);
  const std::string& value = node.node()->labels.at(name);
  for (size_t i = 0; i < extra_pairs.size(); ++i) {
    if (extra_pairs[i].first == name && extra_pairs[i].second == value) {
      return index.num_pairs + static_cast<int32_t>(i);
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
  const int32_t base = shared->index.num_pairs;
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
  if (id < index.num_pairs) {
    const auto& [key, value] = index.table->pairs[id];
    return {index.table->keys[key], *value};
  }
  return extra_pairs[id - index.num_pairs];
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
  const bool has_incoming_terms =
      !pod.required_affinity_terms.empty() || !pod.required_anti_affinity_terms.empty();
  // Without existing pods with required anti-affinity nothing can count
  // against the pod (upstream's existingAntiAffinityCounts is then empty):
  // with no terms of its own, Skip without bringing the index up to date
  // (and before building any state, which a Skip drops). It catches up at
  // its next Refresh (the change log, or a full re-read); the sums kept
  // from an earlier cycle are dropped as below.
  if (!has_incoming_terms && snapshot.HavePodsWithRequiredAntiAffinityList().empty()) {
    prefilter_sums_.valid = false;
    return {std::nullopt, Status::Skip()};
  }

  const std::map<std::string, api::Labels>& ns_map = handle_->NamespaceLabels();
  auto sh = std::make_shared<PreFilterShared>();
  sh->affinity_terms = pod.required_affinity_terms;
  sh->anti_affinity_terms = pod.required_anti_affinity_terms;
  for (AffinityTerm& t : sh->affinity_terms) MergeAffinityTermNamespaces(t, ns_map);
  for (AffinityTerm& t : sh->anti_affinity_terms) {
    MergeAffinityTermNamespaces(t, ns_map);
  }
  sh->namespace_labels = NamespaceLabelsOf(pod.pod.ns, ns_map);
  const api::Labels& ns_labels = sh->namespace_labels;

  // The snapshot's pods by class (snapshot_index.h), re-read only where a
  // node changed since the last cycle.
  SnapshotIndex& x = snapshot_index_;
  x.Refresh(snapshot);
  PairTable& table = *x.table();
  const size_t n = static_cast<size_t>(snapshot.NumNodes());

  // 1. Existing pods' required anti-affinity against the incoming pod, one
  // evaluation per term class that some pod has; a matching term counts
  // where the node carries its key.
  std::vector<int8_t> term_matches(static_cast<size_t>(x.NumTermClasses()), -1);
  auto term_matches_pod = [&](int32_t cls) {
    int8_t& m = term_matches[cls];
    if (m < 0) m = TermMatches(x.TermClass(cls), pod.pod, ns_labels) ? 1 : 0;
    return m == 1;
  };
  std::vector<int32_t> keys;  // table key ids: the matching existing terms', the pod's terms'
  for (int32_t cls = 0; cls < x.NumTermClasses(); ++cls) {
    if (x.TermClassTotal(cls) == 0 || !term_matches_pod(cls)) continue;
    const int32_t key = x.TermClassKey(cls);
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
  }
  const bool may_have_existing = !keys.empty();
  std::vector<SnapshotIndex::Before>& changes = prefilter_changes_;
  if (!may_have_existing && !has_incoming_terms) {
    // Nothing counts; what changed is not summed, so the sums kept from an
    // earlier cycle no longer match the index.
    (void)x.TakeChanges(&changes);
    prefilter_sums_.valid = false;
    return {std::nullopt, Status::Skip()};
  }

  // 2. The cycle's keys: every key the index tracks (at least the
  // incoming pod's terms' keys and the matching existing terms' keys; the
  // others count nothing), so that the index's node pair array is the
  // cycle's as it is.
  for (const AffinityTerm& t : sh->affinity_terms) keys.push_back(table.InternKey(t.topology_key));
  for (const AffinityTerm& t : sh->anti_affinity_terms) {
    keys.push_back(table.InternKey(t.topology_key));
  }
  x.TrackKeys(snapshot, keys);
  TopologyIndex& index = sh->index;
  index.keys = x.tracked();
  for (const AffinityTerm& t : sh->affinity_terms) {
    sh->affinity_keys.push_back(x.Column(table.KeyId(t.topology_key)));
  }
  for (const AffinityTerm& t : sh->anti_affinity_terms) {
    sh->anti_affinity_keys.push_back(x.Column(table.KeyId(t.topology_key)));
  }
  const size_t num_keys = index.keys.size();
  index.nodes = x.nodes();
  index.node_pairs = x.node_pairs();
  index.table = x.table();
  index.num_pairs = static_cast<int32_t>(table.pairs.size());

  // 3. The counts: each position's pods and terms, by class. The incoming
  // pod's terms against the pods, one evaluation per label class: per
  // class, whether it matches all affinity terms, then each anti-affinity
  // term.
  const size_t num_pairs = table.pairs.size();
  const size_t num_anti = sh->anti_affinity_terms.size();
  const size_t width = 1 + num_anti;
  std::vector<int8_t> class_matches(static_cast<size_t>(x.NumLabelClasses()) * width, -1);
  auto class_row = [&](int32_t cls) {
    int8_t* row = class_matches.data() + static_cast<size_t>(cls) * width;
    if (row[0] < 0) {
      const api::Pod& rep = x.LabelClass(cls);
      row[0] = PodMatchesAllAffinityTerms(sh->affinity_terms, rep) ? 1 : 0;
      for (size_t j = 0; j < num_anti; ++j) {
        row[1 + j] = TermMatches(sh->anti_affinity_terms[j], rep, NoLabels()) ? 1 : 0;
      }
    }
    return row;
  };
  // Each array with its number of non-zero entries (PairCounts::NonZero).
  struct Counts {
    std::vector<int64_t> v;
    int64_t non_zero = 0;
    void Add(int32_t pair, int64_t change) {
      int64_t& c = v[pair];
      non_zero -= c != 0 ? 1 : 0;
      c += change;
      non_zero += c != 0 ? 1 : 0;
    }
  };
  Counts existing_counts, affinity_counts, anti_counts;
  const size_t affinity_size = sh->affinity_terms.empty() ? 0 : num_pairs;
  const size_t anti_size = num_anti == 0 ? 0 : num_pairs;
  // What existing terms counted, in all (each count is positive).
  int64_t existing_total = 0;
  std::vector<int64_t> anti_match(num_anti);
  // Adds `sign` times what a position with these pods, terms and pair row
  // (num_keys wide) counts.
  auto count = [&](const SnapshotIndex::ClassCounts& pods,
                   const SnapshotIndex::ClassCounts& terms, const int32_t* pairs,
                   int64_t sign) {
    for (const SnapshotIndex::ClassCount& e : terms) {
      if (!term_matches_pod(e.cls)) continue;
      if (const int32_t pair = pairs[x.Column(x.TermClassKey(e.cls))]; pair >= 0) {
        existing_counts.Add(pair, sign * e.count);
        existing_total += sign * e.count;
      }
    }
    if (!has_incoming_terms) return;
    int64_t affinity_match = 0;
    std::fill(anti_match.begin(), anti_match.end(), 0);
    for (const SnapshotIndex::ClassCount& e : pods) {
      const int8_t* row = class_row(e.cls);
      affinity_match += row[0] * e.count;
      for (size_t j = 0; j < num_anti; ++j) anti_match[j] += row[1 + j] * e.count;
    }
    if (affinity_match > 0) {
      for (int32_t key : sh->affinity_keys) {
        if (pairs[key] >= 0) affinity_counts.Add(pairs[key], sign * affinity_match);
      }
    }
    for (size_t j = 0; j < num_anti; ++j) {
      if (anti_match[j] > 0 && pairs[sh->anti_affinity_keys[j]] >= 0) {
        anti_counts.Add(pairs[sh->anti_affinity_keys[j]], sign * anti_match[j]);
      }
    }
  };
  auto row_of = [&](size_t pos) { return index.node_pairs->data() + pos * num_keys; };
  // The sums of the last cycle are this cycle's less what changed since,
  // when the incoming pod counts exactly as that cycle's did: the same
  // namespace, labels and namespace labels, and the same merged terms
  // (term_matches_pod and class_row read nothing else).
  std::string signature;
  SnapshotIndex::EncodeLabels(signature, pod.pod.ns, pod.pod.labels);
  SnapshotIndex::EncodeLabels(signature, "", ns_labels);
  for (const AffinityTerm& t : sh->affinity_terms) SnapshotIndex::EncodeTerm(signature, t);
  signature += '|';
  for (const AffinityTerm& t : sh->anti_affinity_terms) SnapshotIndex::EncodeTerm(signature, t);
  PreFilterSums& sums = prefilter_sums_;
  const bool whole = x.TakeChanges(&changes);
  if (whole && sums.valid && sums.signature == signature && sums.num_keys == num_keys) {
    // Pairs interned since then count nothing yet (zeros).
    auto from = [](const PreFilterSums::Kept& kept, size_t size, Counts& into) {
      into.v.reserve(size);
      into.v.assign(kept.counts->begin(), kept.counts->end());
      into.v.resize(size, 0);
      into.non_zero = kept.non_zero;
    };
    from(sums.existing, num_pairs, existing_counts);
    from(sums.affinity, affinity_size, affinity_counts);
    from(sums.anti, anti_size, anti_counts);
    existing_total = sums.existing_total;
    for (const SnapshotIndex::Before& b : changes) {
      count(b.pods, b.anti_terms, b.pairs.data(), -1);
      count(x.PodClasses(b.pos), x.AntiTermClasses(b.pos), row_of(b.pos), 1);
    }
  } else {
    existing_counts.v.assign(num_pairs, 0);
    affinity_counts.v.assign(affinity_size, 0);
    anti_counts.v.assign(anti_size, 0);
    for (size_t pos = 0; pos < n; ++pos) {
      count(x.PodClasses(pos), x.AntiTermClasses(pos), row_of(pos), 1);
    }
  }
  auto share = [](Counts& c) {
    return PreFilterSums::Kept{std::make_shared<const std::vector<int64_t>>(std::move(c.v)),
                               c.non_zero};
  };
  sums.valid = true;
  sums.signature = std::move(signature);
  sums.num_keys = num_keys;
  sums.existing = share(existing_counts);
  sums.affinity = share(affinity_counts);
  sums.anti = share(anti_counts);
  sums.existing_total = existing_total;
  if (existing_total == 0 && !has_incoming_terms) return {std::nullopt, Status::Skip()};

  sh->pod_matches_own_affinity =
      PodMatchesAllAffinityTerms(sh->affinity_terms, pod.pod);

  auto s = std::make_unique<PreFilterState>();
  s->shared = std::move(sh);
  s->existing_anti_affinity = PairCounts(sums.existing.counts, sums.existing.non_zero);
  s->affinity = PairCounts(sums.affinity.counts, sums.affinity.non_zero);
  s->anti_affinity = PairCounts(sums.anti.counts, sums.anti.non_zero);
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
