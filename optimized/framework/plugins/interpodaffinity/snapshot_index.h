// SnapshotIndex: the snapshot's pods and node labels as InterPodAffinity's
// PreFilter reads them, kept from one scheduling cycle to the next so that
// a cycle re-reads only the nodes that changed (docs/optimized.md
// "Per-node memos"). No upstream counterpart: upstream matches every
// term against every pod in every cycle.
//
// Model. Pods with the same namespace and labels ("label class") match
// every (merged) term of an incoming pod alike, and required anti-affinity
// terms with the same namespaces, selectors and topology key ("term
// class") match an incoming pod alike (affinity_match.h: TermMatches reads
// nothing else). Per snapshot position the index keeps the node's pods as
// (label class, count) and its pods' required anti-affinity terms as
// (term class, count), in first-seen order, and the node's pair id
// (topology_counts.h PairTable) for each tracked topology key. A position
// is re-read when helper::NodeMemo says its NodeInfo changed; a newly
// tracked key is looked up on every node once.
//
// Classes are interned for the index's lifetime; past kMaxClasses of
// either kind the index starts afresh, which bounds its memory when pods
// keep bringing new labels.
//
// Thread safety: none; PreFilter calls it on one thread.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_INTERPODAFFINITY_SNAPSHOT_INDEX_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_INTERPODAFFINITY_SNAPSHOT_INDEX_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "api/types/objects.h"
#include "optimized/framework/plugins/helper/node_memo.h"
#include "optimized/framework/plugins/interpodaffinity/topology_counts.h"
#include "optimized/framework/snapshot.h"
#include "optimized/framework/types.h"

namespace schedref::optimized::framework::plugins::interpodaffinity {

class SnapshotIndex {
 public:
  struct ClassCount {
    int32_t cls;
    int32_t count;
  };
  // A node's (class, count) list: up to two entries inline (most nodes),
  // so that a scan over every node reads one contiguous array.
  class ClassCounts {
   public:
    const ClassCount* begin() const { return size_ <= kInline ? inline_ : more_.data(); }
    const ClassCount* end() const { return begin() + size_; }
    bool empty() const { return size_ == 0; }
    void clear();
    // One more of class `cls`.
    void Add(int32_t cls);

   private:
    static constexpr uint32_t kInline = 2;
    ClassCount inline_[kInline] = {};
    uint32_t size_ = 0;
    std::vector<ClassCount> more_;  // all entries once past kInline
  };

  // A position as it was before Refresh re-read it (TakeChanges).
  struct Before {
    size_t pos;
    ClassCounts pods;
    ClassCounts anti_terms;
    std::vector<int32_t> pairs;  // its row of node_pairs() then
  };

  SnapshotIndex();

  // Re-reads the snapshot positions whose node changed since the last
  // call (all of them the first time, or for another snapshot); nothing
  // when the cache-maintained snapshot is the one of the last call.
  void Refresh(const Snapshot& snapshot);
  // Tracks every key of `key_ids` (table key ids), looking a new key up on
  // every node of `snapshot`.
  // REQUIRES: Refresh(snapshot) was the last Refresh call.
  void TrackKeys(const Snapshot& snapshot, const std::vector<int32_t>& key_ids);

  // Moves into *out every position Refresh re-read since the last call,
  // each as it was before its first re-read since then (positions in no
  // particular order, each once), and returns true; or returns false iff
  // that is not the whole change: since the last call (or ever) the index
  // started afresh, positions came or went, or keys were newly tracked.
  // What lets a caller that summed the positions at the last call update
  // its sums instead of summing every position again.
  [[nodiscard]] bool TakeChanges(std::vector<Before>* out);
  // Appends an encoding of the label class of (ns, labels), and of a term:
  // equal encodings iff equal inputs.
  static void EncodeLabels(std::string& out, const std::string& ns, const api::Labels& labels);
  static void EncodeTerm(std::string& out, const AffinityTerm& term);

  // The table every pair id refers to; the caller may intern keys in it.
  const std::shared_ptr<PairTable>& table() const { return table_; }
  // The tracked table key ids, in column order.
  const std::vector<int32_t>& tracked() const { return tracked_; }
  // The column of a tracked table key id.
  int32_t Column(int32_t key_id) const { return column_[key_id]; }
  // Per position: the node (api object) the position was read from, and
  // [pos * tracked().size() + column] its pair id or kNoKey. Shared: the
  // index copies an array before changing it while others hold it.
  std::shared_ptr<const std::vector<const api::Node*>> nodes() const { return nodes_; }
  std::shared_ptr<const std::vector<int32_t>> node_pairs() const { return node_pairs_; }
  // The node's pair id at `pos` for tracked table key `key_id`, or kNoKey.
  // REQUIRES: TrackKeys covered key_id; pos < the snapshot's node count.
  int32_t Pair(size_t pos, int32_t key_id) const {
    return (*node_pairs_)[pos * tracked_.size() + column_[key_id]];
  }
  const ClassCounts& PodClasses(size_t pos) const { return pods_[pos]; }
  const ClassCounts& AntiTermClasses(size_t pos) const { return anti_terms_[pos]; }
  // A pod standing for the label class: its namespace and labels only.
  const api::Pod& LabelClass(int32_t cls) const { return label_classes_[cls]; }
  const AffinityTerm& TermClass(int32_t cls) const { return term_classes_[cls]; }
  // The table key id of the term class's topology key.
  int32_t TermClassKey(int32_t cls) const { return term_class_keys_[cls]; }
  int32_t NumLabelClasses() const { return static_cast<int32_t>(label_classes_.size()); }
  int32_t NumTermClasses() const { return static_cast<int32_t>(term_classes_.size()); }
  // How many of the snapshot's pods have preferred (anti-)affinity terms,
  // and required affinity terms: the only pods whose own terms score.
  int64_t PodsWithPreferredTerms() const { return pods_with_preferred_; }
  int64_t PodsWithRequiredAffinity() const { return pods_with_required_affinity_; }
  // How many positions have AntiTermClasses (0: no pod of the snapshot has
  // required anti-affinity terms).
  int64_t PositionsWithAntiTerms() const { return positions_with_anti_terms_; }
  // How many required anti-affinity terms of class `cls` the snapshot's
  // pods have: the sum of AntiTermClasses over every position.
  int64_t TermClassTotal(int32_t cls) const {
    return static_cast<size_t>(cls) < term_class_totals_.size() ? term_class_totals_[cls] : 0;
  }

  static constexpr size_t kMaxClasses = 1 << 16;

 private:
  struct ScoringPods {
    int32_t preferred = 0;
    int32_t required_affinity = 0;
  };

  void Reset();
  // Empties the journal and marks it incomplete until the next TakeChanges.
  void DropJournal();
  void ReadNode(size_t pos, const NodeInfo& info);
  int32_t LabelClassOf(const api::Pod& pod);
  int32_t TermClassOf(const AffinityTerm& term);
  // The shared arrays, copied first if someone else holds them.
  std::vector<const api::Node*>& MutableNodes();
  std::vector<int32_t>& MutablePairs();

  helper::NodeMemo memo_;
  const Snapshot* refreshed_ = nullptr;
  int64_t refreshed_generation_ = 0;
  int64_t refreshed_rebuilds_ = 0;
  std::vector<int32_t> changed_;  // scratch for Refresh
  // TakeChanges' journal: complete iff journal_whole_; journaled_[pos]
  // iff pos is in journal_.
  std::vector<Before> journal_;
  std::vector<uint8_t> journaled_;
  bool journal_whole_ = false;
  std::shared_ptr<PairTable> table_;
  // Tracked table key ids, and table key id -> column (-1: untracked).
  std::vector<int32_t> tracked_;
  std::vector<int32_t> column_;
  // Per position.
  std::shared_ptr<std::vector<const api::Node*>> nodes_;
  std::shared_ptr<std::vector<int32_t>> node_pairs_;
  std::vector<ClassCounts> pods_;
  std::vector<ClassCounts> anti_terms_;
  std::vector<ScoringPods> scoring_;
  int64_t pods_with_preferred_ = 0;
  int64_t pods_with_required_affinity_ = 0;
  int64_t positions_with_anti_terms_ = 0;
  std::vector<int64_t> term_class_totals_;  // by term class
  // Interned classes; the maps' keys are their encodings (snapshot_index.cc).
  std::unordered_map<std::string, int32_t> label_class_ids_;
  std::vector<api::Pod> label_classes_;
  std::unordered_map<std::string, int32_t> term_class_ids_;
  std::vector<AffinityTerm> term_classes_;
  std::vector<int32_t> term_class_keys_;
};

}  // namespace schedref::optimized::framework::plugins::interpodaffinity

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_INTERPODAFFINITY_SNAPSHOT_INDEX_H_
