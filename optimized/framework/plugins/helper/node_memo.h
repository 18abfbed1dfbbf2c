// NodeMemo: which of the snapshot's nodes are unchanged since a plugin last
// derived something from them, so that per-node results (a label's value
// id, how many of the node's pods a selector matches) can be kept from one
// scheduling cycle to the next instead of being recomputed from every node.
// No upstream counterpart; the equivalence argument is docs/optimized.md
// "Per-node memos".
//
// Model. The cache stamps every change of a NodeInfo (its node object or
// its pods) with a cache-wide generation number that never repeats
// (backend/cache Touch), and a snapshot's NodeInfos change only by copying
// the cache's, generation included (Cache::UpdateSnapshot). So in a
// cache-maintained snapshot, a NodeInfo with the generation a result was
// computed at holds the same node object and the same pods as then. The
// memo keeps, per snapshot position, the NodeInfo, its api::Node and its
// generation at the time the caller Set() the slot; Fresh() compares all
// three.
//
// Snapshots built by hand (tests) number each NodeInfo's changes on its
// own, and a NodeInfo created where an erased one lived can repeat a
// number; Snapshot::generation is 0 for them (only the cache sets it), and
// the memo then keeps nothing: every slot is stale in every cycle.
//
// Thread safety: none; a plugin calls it from PreFilter/PreScore, which the
// scheduler runs on one thread. Fresh() may be called concurrently with
// other Fresh() calls.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_HELPER_NODE_MEMO_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_HELPER_NODE_MEMO_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "api/types/objects.h"
#include "optimized/framework/snapshot.h"
#include "optimized/framework/types.h"

namespace schedref::optimized::framework::plugins::helper {

class NodeMemo {
 public:
  // Starts a cycle on `snapshot`: forgets every slot when the snapshot is
  // another object than last time, is not maintained by a cache
  // (generation 0) or went back in generation; then has one slot per
  // snapshot node (new slots stale).
  void Begin(const Snapshot& snapshot);
  // Forgets every slot (the caller's own inputs changed).
  void Clear();
  // True iff slot `pos` was Set() for `info` in its current state.
  // REQUIRES: pos < size().
  bool Fresh(size_t pos, const NodeInfo& info) const {
    const Stamp& s = stamps_[pos];
    return s.info == &info && s.generation == info.generation &&
           s.node == info.node();
  }
  // Records that the caller's slot `pos` now holds results for `info` as
  // it is; a no-op for a snapshot the memo keeps nothing for.
  // REQUIRES: pos < size().
  void Set(size_t pos, const NodeInfo& info);
  size_t size() const { return stamps_.size(); }
  // For each i in [0, n): when nodes[i] is list[pos] (pos: its index) and
  // slot pos is Fresh for it, out[i] = values[pos]; otherwise appends i to
  // missed[]. Returns how many it appended. For per-node results the
  // caller keeps in an array parallel to the slots: a hit, the usual case,
  // costs a few loads.
  // REQUIRES: list.size() <= size(); `values` has size() entries;
  // `missed` has room for n.
  template <typename Value>
  size_t Lookup(const NodeInfo* const* nodes, size_t n, const std::vector<NodeInfo*>& list,
                const Value* values, int64_t* out, size_t* missed) const {
    const NodeInfo* const* slots = list.data();
    const size_t size = list.size();
    const Stamp* stamps = stamps_.data();
    size_t num_missed = 0;
    for (size_t i = 0; i < n; ++i) {
      const NodeInfo& node = *nodes[i];
      const auto pos = static_cast<size_t>(node.index);
      // For the snapshot's own NodeInfo at pos, Fresh reduces to the
      // generation: a cache-wide number that never repeats names one state
      // of one node (the model above), whichever NodeInfo object held it;
      // slots of other snapshots never match (Set keeps nothing for them).
      if (pos < size && slots[pos] == &node && stamps[pos].generation == node.generation) {
        out[i] = values[pos];
        continue;
      }
      missed[num_missed++] = i;
    }
    return num_missed;
  }
  // Appends, in increasing order, every position of `list` (the snapshot's
  // List()) that is not Fresh. For a caller that Set()s every position it
  // is given, from one cycle to the next: then only the positions the
  // snapshot's change log names (Snapshot::ChangedSince) can be stale and
  // only they are looked at, instead of every node; when the log cannot
  // tell, or after Clear(), every position is looked at.
  // REQUIRES: Begin(snapshot) was called this cycle, `list` is its List();
  // the caller Set()s every appended position before the next Begin().
  void StalePositions(const std::vector<NodeInfo*>& list, std::vector<size_t>* out);

 private:
  struct Stamp {
    const NodeInfo* info = nullptr;
    const api::Node* node = nullptr;
    int64_t generation = -1;
  };

  const Snapshot* snapshot_ = nullptr;
  int64_t snapshot_generation_ = 0;
  bool keep_ = false;  // the snapshot is cache-maintained
  // The snapshot's rebuild count when StalePositions last handed out every
  // stale position (all slots were then Set); -1 when unknown.
  int64_t complete_at_ = -1;
  std::vector<int32_t> changed_;  // StalePositions' scratch
  std::vector<Stamp> stamps_;
};

}  // namespace schedref::optimized::framework::plugins::helper

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_HELPER_NODE_MEMO_H_
