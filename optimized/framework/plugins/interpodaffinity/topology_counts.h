// Interned topology pairs and counts over them: how the optimized
// InterPodAffinity stores upstream's topologyToMatchedTermCount
// (map[(key, value)]int64) so that Filter does integer lookups.
//
// Model. The plugin interns every topology key it needs and, for each
// key, every value the snapshot's nodes carry, giving each (key, value)
// pair a small integer id that stays valid for the plugin's lifetime
// (PairTable, append-only), so that a node's pair ids found in one cycle
// can be reused in the next (docs/optimized.md "Per-node memos"). A
// cycle's TopologyIndex lists the keys that cycle needs and, per snapshot
// position, the node's pair id for each (kNoKey when it lacks the key);
// a count map is then a vector indexed by pair id.
//
// Cloning. Preemption's dry runs and the nominated-pods pass clone the
// cycle state many times and change only a few pairs (one node's), so
// PairCounts shares its PreFilter vector between clones and keeps a clone's
// changes in a short list (copy-on-write).
//
// Lifetime: a TopologyIndex is read only during the scheduling cycle that
// built it; the table it points to only grows, and only in PreFilter.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_INTERPODAFFINITY_TOPOLOGY_COUNTS_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_INTERPODAFFINITY_TOPOLOGY_COUNTS_H_

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "api/types/objects.h"
#include "optimized/framework/types.h"

namespace schedref::optimized::framework::plugins::interpodaffinity {

// Pair lookups return a pair id >= 0, or one of these.
inline constexpr int32_t kNoKey = -1;   // the node lacks the topology key
inline constexpr int32_t kNoPair = -2;  // it has it, but the pair has no id

// Every (key, value) pair the plugin has interned. Append-only: ids are
// never reassigned. Thread safety: the Intern methods must not run
// concurrently with anything; the const ones may run concurrently.
struct PairTable {
  std::vector<std::string> keys;
  // Per key id: value -> pair id (node-based: keys never move).
  std::vector<std::unordered_map<std::string, int32_t>> value_ids;
  // Pair id -> (key id, value).
  std::vector<std::pair<int32_t, const std::string*>> pairs;

  // The key's id, or -1.
  int32_t KeyId(std::string_view key) const;
  // The key's id, added if absent.
  int32_t InternKey(const std::string& key);
  // The pair's id, added if absent.
  int32_t InternPair(int32_t key_id, const std::string& value);
  // The pair's id, or kNoPair.
  int32_t FindPair(int32_t key_id, const std::string& value) const;
};

// What one cycle's PreFilter found: its keys ("cycle keys", numbered
// 0..keys.size()-1; at least the ones it needs) and every snapshot node's
// pair for each. The node arrays are shared with the plugin's
// SnapshotIndex, which copies them before changing them while a
// TopologyIndex still holds them.
struct TopologyIndex {
  // Never null once PreFilter built the index.
  std::shared_ptr<const PairTable> table;
  // table->pairs.size() at PreFilter: ids at or above it are not the
  // table's (PreFilterState's extra pairs).
  int32_t num_pairs = 0;
  // Cycle key -> table key id.
  std::vector<int32_t> keys;
  // The api::Node of each snapshot position: a NodeInfo whose node() is
  // nodes[index] is the snapshot's node (or a copy of it), so node_pairs
  // applies to it.
  std::shared_ptr<const std::vector<const api::Node*>> nodes;
  // [pos * keys.size() + k]: the pair id, or kNoKey.
  std::shared_ptr<const std::vector<int32_t>> node_pairs;

  // The cycle key of `key`, or -1.
  int32_t KeyId(std::string_view key) const;
  const std::string& KeyName(int32_t k) const { return table->keys[keys[k]]; }

  bool Indexed(const NodeInfo& node) const {
    return nodes != nullptr && node.index >= 0 &&
           node.index < static_cast<int32_t>(nodes->size()) &&
           (*nodes)[node.index] == node.node();
  }
  // REQUIRES: Indexed(node).
  const int32_t* Row(const NodeInfo& node) const {
    return node_pairs->data() + static_cast<size_t>(node.index) * keys.size();
  }
  // By the node's labels, for cycle key k: kNoKey, a pair id below
  // num_pairs, or kNoPair.
  int32_t LookupPair(const api::Node& node, int32_t k) const;
};

// Counts per pair id. Zero counts are "absent", as in upstream's map.
class PairCounts {
 public:
  PairCounts();
  explicit PairCounts(std::vector<int64_t> base);
  // The same counts, sharing `base` (never modified; not null), told how
  // many of its entries are non-zero.
  // REQUIRES: non_zero is that number.
  PairCounts(std::shared_ptr<const std::vector<int64_t>> base, int64_t non_zero)
      : base_(std::move(base)), non_zero_(non_zero) {
    assert(non_zero_ == std::count_if(base_->begin(), base_->end(),
                                      [](int64_t v) { return v != 0; }));
  }

  // 0 for a negative id.
  int64_t Get(int32_t id) const {
    if (id < 0) return 0;
    int64_t v = id < static_cast<int32_t>(base_->size()) ? (*base_)[id] : 0;
    for (const auto& [d_id, d] : delta_) {
      if (d_id == id) return v + d;
    }
    return v;
  }
  // REQUIRES: id >= 0.
  void Add(int32_t id, int64_t change);
  // How many ids have a non-zero count (the size of upstream's map).
  int64_t NonZero() const { return non_zero_; }
  // (id, count) for every non-zero count, ids ascending.
  std::vector<std::pair<int32_t, int64_t>> Entries() const;

 private:
  // Past this many changed ids a clone takes its own copy of the base.
  static constexpr size_t kMaxDelta = 32;
  // Never null; shared between clones, never modified.
  std::shared_ptr<const std::vector<int64_t>> base_;
  // id -> change from base_, ids unique, changes non-zero.
  std::vector<std::pair<int32_t, int64_t>> delta_;
  int64_t non_zero_ = 0;
};

}  // namespace schedref::optimized::framework::plugins::interpodaffinity

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_INTERPODAFFINITY_TOPOLOGY_COUNTS_H_
