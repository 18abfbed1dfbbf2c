// What the optimized cache keeps beyond the reference's state, checked
// against a recomputation: every NodeInfo's running aggregates against a
// NodeInfo rebuilt from its node and pods, and an incrementally refreshed
// Snapshot against one built from scratch out of the cache's NodeInfos.
// Shared by cache_snapshot_test (random operations) and the model adapter
// (cache_model_adapter.h). testonly.
#ifndef SCHEDREF_OPTIMIZED_BACKEND_CACHE_CACHE_INVARIANTS_H_
#define SCHEDREF_OPTIMIZED_BACKEND_CACHE_CACHE_INVARIANTS_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "optimized/backend/cache/cache.h"
#include "optimized/framework/snapshot.h"
#include "optimized/framework/types.h"

namespace schedref::optimized::backend::cache {

// What a check probes beyond the NodeInfos themselves: host ports (TCP on
// 0.0.0.0; a triple's removal is visible only by probing it), image names
// and node names (lookups of absent nodes).
struct Probes {
  std::vector<int32_t> host_ports;
  std::vector<std::string> images;
  std::vector<std::string> node_names;
};

// The first aggregate of `info` that differs from a NodeInfo rebuilt from
// its node and pods (requested, non-zero requests, allocatable unless a
// ghost, host ports, pods with (anti-)affinity as sets: swap-removal keeps
// upstream's order, which a rebuild need not reproduce), or nullopt.
std::optional<std::string> AggregatesMismatch(const framework::NodeInfo& info,
                                              const Probes& probes);

// The first thing a plugin can read that differs between `got` and `want`:
// node list and indexes, every NodeInfo field, the affinity lists, image
// counts, lookups of absent nodes; or nullopt.
std::optional<std::string> SnapshotMismatch(const framework::Snapshot& got,
                                            const framework::Snapshot& want,
                                            const Probes& probes);

// The nodes a snapshot lists now: in the node tree, with a node object, in
// the tree's order.
std::vector<std::string> SnapshotNodesNow(const Cache& cache);

// A snapshot built from scratch out of the cache's NodeInfos, in `order`.
// REQUIRES: the cache holds a NodeInfo for every name in `order`.
std::unique_ptr<framework::Snapshot> SnapshotFromScratch(
    const Cache& cache, const std::vector<std::string>& order);

}  // namespace schedref::optimized::backend::cache

#endif  // SCHEDREF_OPTIMIZED_BACKEND_CACHE_CACHE_INVARIANTS_H_
