#include "optimized/framework/plugins/interpodaffinity/snapshot_index.h"

#include <string_view>
#include <utility>

namespace schedref::optimized::framework::plugins::interpodaffinity {
namespace {

// Length-prefixed, so that no two different inputs encode alike.
void Put(std::string& out, std::string_view s) {
  out += std::to_string(s.size());
  out += ':';
  out += s;
}

void PutSelector(std::string& out, const std::optional<api::LabelSelector>& sel) {
  if (!sel) {
    out += 'N';
    return;
  }
  out += 'S';
  Put(out, std::to_string(sel->match_labels.size()));
  for (const auto& [k, v] : sel->match_labels) {
    Put(out, k);
    Put(out, v);
  }
  Put(out, std::to_string(sel->match_expressions.size()));
  for (const api::LabelSelectorRequirement& r : sel->match_expressions) {
    Put(out, r.key);
    Put(out, r.op);
    Put(out, std::to_string(r.values.size()));
    for (const std::string& v : r.values) Put(out, v);
  }
}

}  // namespace

void SnapshotIndex::ClassCounts::clear() {
  size_ = 0;
  more_.clear();
}

void SnapshotIndex::ClassCounts::Add(int32_t cls) {
  ClassCount* entries = size_ <= kInline ? inline_ : more_.data();
  for (uint32_t i = 0; i < size_; ++i) {
    if (entries[i].cls == cls) {
      ++entries[i].count;
      return;
    }
  }
  if (size_ < kInline) {
    inline_[size_++] = {cls, 1};
    return;
  }
  if (size_ == kInline) more_.assign(inline_, inline_ + kInline);
  more_.push_back({cls, 1});
  ++size_;
}

SnapshotIndex::SnapshotIndex()
    : table_(std::make_shared<PairTable>()),
      nodes_(std::make_shared<std::vector<const api::Node*>>()),
      node_pairs_(std::make_shared<std::vector<int32_t>>()) {}

std::vector<const api::Node*>& SnapshotIndex::MutableNodes() {
  if (nodes_.use_count() > 1) nodes_ = std::make_shared<std::vector<const api::Node*>>(*nodes_);
  return *nodes_;
}

std::vector<int32_t>& SnapshotIndex::MutablePairs() {
  if (node_pairs_.use_count() > 1) {
    node_pairs_ = std::make_shared<std::vector<int32_t>>(*node_pairs_);
  }
  return *node_pairs_;
}

void SnapshotIndex::EncodeLabels(std::string& out, const std::string& ns,
                                 const api::Labels& labels) {
  Put(out, ns);
  Put(out, std::to_string(labels.size()));
  for (const auto& [k, v] : labels) {
    Put(out, k);
    Put(out, v);
  }
}

void SnapshotIndex::EncodeTerm(std::string& out, const AffinityTerm& term) {
  Put(out, term.topology_key);
  Put(out, std::to_string(term.namespaces.size()));
  for (const std::string& ns : term.namespaces) Put(out, ns);
  PutSelector(out, term.selector);
  PutSelector(out, term.namespace_selector);
}

bool SnapshotIndex::TakeChanges(std::vector<Before>* out) {
  out->clear();
  for (const Before& b : journal_) journaled_[b.pos] = 0;
  const bool whole = journal_whole_;
  if (whole) out->swap(journal_);
  journal_.clear();
  journal_whole_ = true;
  return whole;
}

void SnapshotIndex::DropJournal() {
  for (const Before& b : journal_) journaled_[b.pos] = 0;
  journal_.clear();
  journal_whole_ = false;
}

void SnapshotIndex::Reset() {
  DropJournal();
  memo_.Clear();
  refreshed_ = nullptr;
  label_class_ids_.clear();
  label_classes_.clear();
  term_class_ids_.clear();
  term_classes_.clear();
  term_class_keys_.clear();
  // Every position is re-read (the memo is gone); what they held names
  // classes that no longer exist.
  for (ClassCounts& terms : anti_terms_) terms.clear();
  positions_with_anti_terms_ = 0;
  term_class_totals_.clear();
}

int32_t SnapshotIndex::LabelClassOf(const api::Pod& pod) {
  std::string key;
  EncodeLabels(key, pod.ns, pod.labels);
  auto [it, inserted] = label_class_ids_.try_emplace(std::move(key), NumLabelClasses());
  if (inserted) {
    api::Pod rep;
    rep.ns = pod.ns;
    rep.labels = pod.labels;
    label_classes_.push_back(std::move(rep));
  }
  return it->second;
}

int32_t SnapshotIndex::TermClassOf(const AffinityTerm& term) {
  std::string key;
  EncodeTerm(key, term);
  auto [it, inserted] = term_class_ids_.try_emplace(std::move(key), NumTermClasses());
  if (inserted) {
    term_classes_.push_back(term);
    term_class_keys_.push_back(table_->InternKey(term.topology_key));
  }
  return it->second;
}

void SnapshotIndex::ReadNode(size_t pos, const NodeInfo& info) {
  if (journal_whole_ && journaled_[pos] == 0) {
    journaled_[pos] = 1;
    const size_t columns = tracked_.size();
    const int32_t* row = node_pairs_->data() + pos * columns;
    journal_.push_back(
        Before{pos, pods_[pos], anti_terms_[pos], std::vector<int32_t>(row, row + columns)});
  }
  ClassCounts& pods = pods_[pos];
  pods.clear();
  ScoringPods scoring;
  for (const PodInfoPtr& p : info.pods()) {
    pods.Add(LabelClassOf(p->pod));
    if (!p->preferred_affinity_terms.empty() || !p->preferred_anti_affinity_terms.empty()) {
      ++scoring.preferred;
    }
    if (!p->required_affinity_terms.empty()) ++scoring.required_affinity;
  }
  pods_with_preferred_ += scoring.preferred - scoring_[pos].preferred;
  pods_with_required_affinity_ += scoring.required_affinity - scoring_[pos].required_affinity;
  scoring_[pos] = scoring;
  ClassCounts& terms = anti_terms_[pos];
  positions_with_anti_terms_ -= terms.empty() ? 0 : 1;
  for (const ClassCount& e : terms) term_class_totals_[e.cls] -= e.count;
  terms.clear();
  for (const PodInfoPtr& p : info.pods_with_required_anti_affinity()) {
    for (const AffinityTerm& t : p->required_anti_affinity_terms) terms.Add(TermClassOf(t));
  }
  positions_with_anti_terms_ += terms.empty() ? 0 : 1;
  term_class_totals_.resize(term_classes_.size(), 0);
  for (const ClassCount& e : terms) term_class_totals_[e.cls] += e.count;
  MutableNodes()[pos] = info.node();
  const api::Labels& labels = info.node()->labels;
  const size_t columns = tracked_.size();
  std::vector<int32_t>& pairs = MutablePairs();
  for (size_t c = 0; c < columns; ++c) {
    auto label = labels.find(table_->keys[tracked_[c]]);
    pairs[pos * columns + c] =
        label == labels.end() ? kNoKey : table_->InternPair(tracked_[c], label->second);
  }
  memo_.Set(pos, info);
}

void SnapshotIndex::Refresh(const Snapshot& snapshot) {
  if (label_classes_.size() > kMaxClasses || term_classes_.size() > kMaxClasses) {
    Reset();
  }
  // The cache stamps every change with a new generation: the same
  // cache-maintained snapshot at the same generation has not changed.
  if (&snapshot == refreshed_ && snapshot.generation > 0 &&
      snapshot.generation == refreshed_generation_) {
    return;
  }
  // After the last call every position was fresh; if this is that
  // snapshot, maintained since then, only the positions its change log
  // names can be stale.
  bool incremental = &snapshot == refreshed_ && snapshot.generation > 0 &&
                     snapshot.generation >= refreshed_generation_;
  memo_.Begin(snapshot);
  const std::vector<NodeInfo*>& list = snapshot.List();
  const size_t n = list.size();
  pods_.resize(n);
  if (scoring_.size() != n) {
    // Positions come and go (a node added or deleted): the totals lose what
    // the positions past the new end held, and every position is checked
    // below. ReadNode replaces a position's part of the totals, so a
    // position whose node moved or changed is re-read and the others,
    // still fresh, are kept: a node joining or leaving at the end of the
    // list re-reads no other node.
    for (size_t p = n; p < scoring_.size(); ++p) {
      pods_with_preferred_ -= scoring_[p].preferred;
      pods_with_required_affinity_ -= scoring_[p].required_affinity;
      positions_with_anti_terms_ -= anti_terms_[p].empty() ? 0 : 1;
      for (const ClassCount& e : anti_terms_[p]) term_class_totals_[e.cls] -= e.count;
    }
    scoring_.resize(n);
    anti_terms_.resize(n);
    incremental = false;
    DropJournal();
  }
  journaled_.resize(n, 0);
  if (nodes_->size() != n) MutableNodes().resize(n);
  if (node_pairs_->size() != n * tracked_.size()) MutablePairs().resize(n * tracked_.size());
  changed_.clear();
  if (incremental && snapshot.ChangedSince(refreshed_rebuilds_, &changed_)) {
    for (int32_t pos : changed_) {
      const size_t p = static_cast<size_t>(pos);
      if (p < n && !memo_.Fresh(p, *list[p])) ReadNode(p, *list[p]);
    }
  } else {
    for (size_t pos = 0; pos < n; ++pos) {
      if (!memo_.Fresh(pos, *list[pos])) ReadNode(pos, *list[pos]);
    }
  }
  refreshed_ = &snapshot;
  refreshed_generation_ = snapshot.generation;
  refreshed_rebuilds_ = snapshot.rebuilds();
}

void SnapshotIndex::TrackKeys(const Snapshot& snapshot,
                              const std::vector<int32_t>& key_ids) {
  if (column_.size() < table_->keys.size()) column_.resize(table_->keys.size(), -1);
  std::vector<int32_t> added;
  for (int32_t key : key_ids) {
    if (column_[key] >= 0) continue;
    column_[key] = static_cast<int32_t>(tracked_.size() + added.size());
    added.push_back(key);
  }
  if (added.empty()) return;
  DropJournal();  // the rows it holds are narrower
  const std::vector<NodeInfo*>& list = snapshot.List();
  const size_t n = list.size();
  const size_t old_columns = tracked_.size();
  tracked_.insert(tracked_.end(), added.begin(), added.end());
  const size_t columns = tracked_.size();
  auto pairs = std::make_shared<std::vector<int32_t>>(n * columns, kNoKey);
  for (size_t pos = 0; pos < n; ++pos) {
    for (size_t c = 0; c < old_columns; ++c) {
      (*pairs)[pos * columns + c] = (*node_pairs_)[pos * old_columns + c];
    }
    const api::Labels& labels = list[pos]->node()->labels;
    for (size_t c = old_columns; c < columns; ++c) {
      auto label = labels.find(table_->keys[tracked_[c]]);
      if (label != labels.end()) {
        (*pairs)[pos * columns + c] = table_->InternPair(tracked_[c], label->second);
      }
    }
  }
  node_pairs_ = std::move(pairs);
}

}  // namespace schedref::optimized::framework::plugins::interpodaffinity
