// Snapshot: the view of the cluster one scheduling cycle works on.
// Specification: upstream pkg/scheduler/backend/cache/snapshot.go.
//
// The snapshot owns a copy of every NodeInfo; the cache refreshes only the
// NodeInfos whose generation moved since the last refresh (upstream
// Cache.UpdateSnapshot), so a cycle that changed one node copies one node.
// The list is in node-tree order (zone round-robin), which the round-robin
// start index of findNodesThatFitPod walks.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_SNAPSHOT_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_SNAPSHOT_H_

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "optimized/framework/hot_check.h"
#include "optimized/framework/string_map.h"
#include "optimized/framework/types.h"

namespace schedref::optimized::framework {

class Snapshot {
 public:
  Snapshot();
  // Not copyable or movable: the cache keeps pointers to its slots
  // (SlotStamp).
  Snapshot(const Snapshot&) = delete;
  Snapshot& operator=(const Snapshot&) = delete;

  // Nodes in node-tree order; NodeInfo::index is the position here.
  const std::vector<NodeInfo*>& List() const { return list_; }
  // The same list, read-only (what Filter and Score loops take).
  const std::vector<const NodeInfo*>& ConstList() const { return const_list_; }
  // Nodes with at least one pod with pod (anti-)affinity / required
  // anti-affinity, in List() order.
  const std::vector<NodeInfo*>& HavePodsWithAffinityList() const {
    return with_affinity_;
  }
  const std::vector<NodeInfo*>& HavePodsWithRequiredAntiAffinityList() const {
    return with_required_anti_affinity_;
  }
  // nullptr iff no such node in the snapshot.
  const NodeInfo* Get(const std::string& name) const;
  int NumNodes() const { return static_cast<int>(list_.size()); }
  // How many listed nodes carry `image` (a normalized name) in
  // status.images (upstream's ImageStateSummary.NumNodes).
  int NumNodesWithImage(const std::string& image) const;

  // --- Maintained by the cache (backend/cache) -----------------------------

  // The snapshot's own copy of a node, created if absent.
  NodeInfo& Mutable(const std::string& name);
  // Mutable(name) if the snapshot has the node, else nullptr (and nothing
  // is handed out).
  NodeInfo* MutableIfPresent(const std::string& name);
  // Says whether a slot handed out by Mutable or MutableIfPresent is still
  // that node's: iff the stamp taken then equals Stamp() now (no node left
  // this snapshot since, so no slot was reset or reused).
  struct SlotStamp {
    uint64_t snapshot = 0;  // 0: none
    uint64_t erasures = 0;
    bool operator==(const SlotStamp&) const = default;
  };
  SlotStamp Stamp() const { return {id_, erasures_}; }
  // Mutable(name) for the node whose slot `info` is.
  // REQUIRES: `info` was handed out under a stamp equal to Stamp().
  NodeInfo& MutableSlot(NodeInfo* info);
  void Erase(const std::string& name);
  // Rebuilds the lists after Mutable/Erase calls. `order` is the node-tree
  // order (the names of the nodes present). With `nodes_changed` false the
  // node list, the indexes and the image counts are kept (only pods moved),
  // and the affinity lists are recomputed only if a node handed out by
  // Mutable had, or now has, pods with affinity (otherwise they cannot have
  // changed).
  void Rebuild(const std::vector<std::string>& order, bool nodes_changed);
  // The cache generation this snapshot reflects.
  int64_t generation = 0;

  // For each position of List(), its rank when the positions are ordered by
  // node name (ties, a node the list names twice, by position): what puts
  // a cycle's per-node records into name order without comparing names.
  // Computed on the first call after the node list changed.
  const std::vector<int32_t>& NameRanks() const;

  // --- Hot-line summaries (hot_check.h) -------------------------------------

  // Positions in blocks of kSummaryBlock: HotSummaries()[b] summarizes the
  // Hot lines of List()[b * kSummaryBlock, (b + 1) * kSummaryBlock) (the
  // last block may be short). Kept by Rebuild for the nodes it was told
  // about (Mutable), so a scan can pass a whole block at once.
  static constexpr size_t kSummaryBlock = 32;
  const std::vector<HotSummary>& HotSummaries() const { return hot_summaries_; }
  // The union of every listed node's Hot flags.
  uint32_t AnyHotFlags() const { return any_hot_flags_; }

  // --- Change log (per-node memos, plugins/helper/node_memo.h) -------------

  // How many times Rebuild ran.
  int64_t rebuilds() const { return rebuilds_; }
  // Appends to `positions` (unordered, possibly repeated) the position of
  // every NodeInfo handed out by Mutable in the rebuilds after the first
  // `since` ones, and returns true; or returns false iff the log cannot
  // tell: the node list was rebuilt since then (positions moved) or the log
  // no longer reaches back that far. Every other position holds the same
  // NodeInfo, unchanged, as after rebuild number `since`.
  [[nodiscard]] bool ChangedSince(int64_t since, std::vector<int32_t>* positions) const;

 private:
  // Each NodeInfo starts a cache line, so that its Hot part is one line.
  struct alignas(64) AlignedNodeInfo {
    NodeInfo info;
  };
  // The NodeInfos live side by side in slabs, not one allocation each:
  // Filter and Score walk hundreds of them per cycle, and scattered ones
  // cost a TLB miss apiece (docs/performance.md, "Where the time goes").
  // A slot never moves while its node is in the snapshot; an erased node's
  // slot is reset and reused.
  static constexpr size_t kSlab = 256;
  AlignedNodeInfo* NewSlot();
  std::vector<std::unique_ptr<AlignedNodeInfo[]>> slabs_;
  size_t used_in_last_slab_ = kSlab;
  std::vector<AlignedNodeInfo*> free_slots_;
  StringMap<AlignedNodeInfo*> nodes_;
  std::vector<NodeInfo*> list_;
  std::vector<const NodeInfo*> const_list_;
  std::vector<NodeInfo*> with_affinity_;
  std::vector<NodeInfo*> with_required_anti_affinity_;
  StringMap<int> image_nodes_;
  std::vector<HotSummary> hot_summaries_;
  uint32_t any_hot_flags_ = 0;
  void SummarizeBlock(size_t block);
  // NameRanks(), valid iff name_ranks_valid_.
  mutable std::vector<int32_t> name_ranks_;
  mutable bool name_ranks_valid_ = false;
  // Puts `info` into `list` (in list order by index), or takes it out, so
  // that it is there iff `member`.
  static void SetMembership(std::vector<NodeInfo*>& list, NodeInfo* info, bool member);

  // Nodes handed out by Mutable since the last Rebuild, each with its Hot
  // line when handed out, and whether Erase ran since then.
  struct Touched {
    NodeInfo* info;
    NodeInfo::Hot before;
  };
  std::vector<Touched> touched_;
  bool erased_ = false;
  const uint64_t id_;
  uint64_t erasures_ = 0;
  // (rebuild number, position) of every node handed out by Mutable, for
  // the rebuilds after log_floor_ (complete for those), oldest first.
  static constexpr size_t kMaxLog = 1 << 14;
  int64_t rebuilds_ = 0;
  int64_t log_floor_ = 0;
  std::deque<std::pair<int64_t, int32_t>> log_;
};

}  // namespace schedref::optimized::framework

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_SNAPSHOT_H_
