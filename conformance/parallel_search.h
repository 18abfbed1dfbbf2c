// What upstream's parallel feasible-node search can end with: the rule by
// which the legal-choice oracle judges a forced search
// (ForcedDecisions::searches, docs/conformance.md "Which freedoms are
// accepted").
//
// Upstream (schedule_one.go findNodesThatPassFilters, v1.32, with
// client-go workqueue.ParallelizeUntil and parallelize.chunkSizeFor) checks
// nodes[(start + i) % n] for i in [0, n) with `parallelism` workers. The
// positions are cut into chunks of ChunkSizeFor(n, parallelism); workers
// take chunks in position order, one at a time, and check a chunk's
// positions in order, looking for cancellation before each one. A passing
// node is kept iff it is among the first `to_find` to complete; the one
// that completes next cancels the search and is dropped, as is every
// passing node that completes after it. A failing node's rejection is
// always recorded, even after cancellation. So an outcome (the feasible
// list in completion order, the rejected nodes) is reachable iff:
//
//   - when at most `to_find` nodes pass, nothing cancels: every passing node
//     is kept and every failing one rejected;
//   - otherwise exactly `to_find` nodes are kept, and in each chunk the
//     checked positions are a prefix of the chunk reaching its last kept or
//     rejected node, whose failing nodes are all rejected and passing nodes
//     all kept;
//   - the workers can complete the kept nodes in the listed order and the
//     rejected ones in some order, a worker holding each chunk it took
//     until it finished it (so at most `parallelism` unfinished chunks, and
//     a chunk's nodes in order); and, when the search is cancelled, a
//     passing node is left that a worker can complete next: the next node
//     of a chunk it holds, or the first node of a chunk a free worker can
//     take (with every chunk before it).
//
// WhyNotReachable decides this with a greedy schedule (see Schedule in the
// .cc); parallel_search_test.cc checks it against an exhaustive search
// over every schedule of small searches.
#ifndef SCHEDREF_CONFORMANCE_PARALLEL_SEARCH_H_
#define SCHEDREF_CONFORMANCE_PARALLEL_SEARCH_H_

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace schedref::conformance {

// parallelize.chunkSizeFor: min(floor(sqrt(n)), n / parallelism + 1), at
// least 1.
int64_t ChunkSizeFor(int64_t n, int32_t parallelism);

// One node in check order (position 0 is nodes[start]).
struct CheckedNode {
  std::string name;
  bool passes = false;
};

// "" iff upstream's parallel search over `nodes` (in check order) with
// `parallelism` workers, stopping after `to_find` feasible nodes, can end
// with the feasible list `feasible` (in feasible-list order) and the
// rejections of exactly `rejected`; otherwise why not, naming nodes.
// REQUIRES: parallelism >= 1, to_find >= 1.
std::string WhyNotReachable(const std::vector<CheckedNode>& nodes,
                            int64_t to_find, int32_t parallelism,
                            const std::vector<std::string>& feasible,
                            const std::set<std::string>& rejected);

}  // namespace schedref::conformance

#endif  // SCHEDREF_CONFORMANCE_PARALLEL_SEARCH_H_
