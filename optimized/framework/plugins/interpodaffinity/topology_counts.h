// Interned topology pairs and counts over them: how the optimized
// InterPodAffinity stores upstream's topologyToMatchedTermCount
// (map[(key, value)]int64) so that Filter does integer lookups.
//
// Model. PreFilter interns every topology key it needs and, for each key,
// every value the snapshot's nodes carry, giving each (key, value) pair a
// small integer id; node_pairs[pos * keys + key] is the id of the node at
// snapshot position `pos` for `key` (kNoKey when it lacks the key). A count
// map is then a vector indexed by pair id.
//
// Cloning. Preemption's dry runs and the nominated-pods pass clone the
// cycle state many times and change only a few pairs (one node's), so
// PairCounts shares its PreFilter vector between clones and keeps a clone's
// changes in a short list (copy-on-write).
//
// Lifetime: values are string_views into the labels of the snapshot's
// nodes, valid while the cycle's snapshot is unchanged, i.e. during the
// scheduling cycle that built them.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_INTERPODAFFINITY_TOPOLOGY_COUNTS_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_INTERPODAFFINITY_TOPOLOGY_COUNTS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "api/objects.h"
#include "optimized/framework/types.h"

namespace schedref::optimized::framework::plugins::interpodaffinity {

// Pair lookups return a pair id >= 0, or one of these.
inline constexpr int32_t kNoKey = -1;   // the node lacks the topology key
inline constexpr int32_t kNoPair = -2;  // it has it, but the pair has no id

struct TopologyIndex {
  std::vector<std::string> keys;
  // Per key id: value -> pair id.
  std::vector<std::unordered_map<std::string_view, int32_t>> value_ids;
  // Pair id -> (key id, value).
  std::vector<std::pair<int32_t, std::string_view>> pairs;
  // The api::Node of each snapshot position: a NodeInfo whose node() is
  // nodes[index] is the snapshot's node (or a copy of it), so node_pairs
  // applies to it.
  std::vector<const api::Node*> nodes;
  std::vector<int32_t> node_pairs;

  // The key's id, or -1.
  int32_t KeyId(std::string_view key) const;
  // The key's id, added if absent.
  int32_t InternKey(const std::string& key);
  // The pair's id, added if absent.
  int32_t InternPair(int32_t key_id, std::string_view value);

  bool Indexed(const NodeInfo& node) const {
    return node.index >= 0 && node.index < static_cast<int32_t>(nodes.size()) &&
           nodes[node.index] == node.node();
  }
  // REQUIRES: Indexed(node).
  const int32_t* Row(const NodeInfo& node) const {
    return node_pairs.data() + static_cast<size_t>(node.index) * keys.size();
  }
  // By the node's labels: kNoKey, a pair id, or kNoPair.
  int32_t LookupPair(const api::Node& node, int32_t key_id) const;
};

// Counts per pair id. Zero counts are "absent", as in upstream's map.
class PairCounts {
 public:
  PairCounts();
  explicit PairCounts(std::vector<int64_t> base);

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
