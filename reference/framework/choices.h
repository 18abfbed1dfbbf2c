// The choice points of the specification: every place where upstream
// kube-scheduler (v1.32) may legally do more than one thing, named, with the
// one thing the reference does. docs/deviations.md says why each pinned
// choice is what it is; docs/conformance.md lists the freedoms.
//
// A run asks its Choices object at each point and does what it answers. The
// reference's own runs use PinnedChoices, which answers what
// docs/deviations.md specifies (the seeded RNG's draw, the serial early-stop
// search, the head of activeQ, the first best preemption candidate). Anyone
// else answering must answer within the freedom each point describes; the
// reference does not check, it only asks.
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_CHOICES_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_CHOICES_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "reference/framework/node_info.h"
#include "reference/framework/status.h"

namespace schedref::reference::framework {

// The queue's pop (upstream activeQ.pop): the head under QueueSort, or any
// pod that ties with it (neither sorts before the other); upstream's heap
// leaves such ties to its insertion history.
struct PopChoice {
  int64_t cycle = 0;   // the cycle the popped pod starts
  std::string head;    // namespace/name of activeQ's head
  // "" iff pod `key` is in activeQ and ties with the head; otherwise why not.
  std::function<std::string(const std::string& key)> why_not_tied;
};

// findNodesThatPassFilters: the feasible-node search. Upstream checks
// nodes[(start + i) % n] with Parallelizer.Until workers and stops after
// `to_find` feasible nodes, so which nodes were checked and kept depends on
// goroutine timing.
struct SearchChoice {
  int64_t cycle = 0;
  // The nodes in check order (position 0 is the round-robin start).
  std::vector<const NodeInfo*> nodes;
  int64_t to_find = 0;
  int32_t parallelism = 1;
  // False: the profile has no Filter plugins, and upstream takes the first
  // `to_find` nodes without a search (no freedom).
  bool has_filters = true;
  // The nominated node when it failed evaluateNominatedNode just before
  // this search (its rejection stands whether or not the search checks it
  // again), else "".
  std::string rejected_before;
  // Runs the filters on one node.
  std::function<Status(const NodeInfo&)> filter;
};

struct SearchOutcome {
  // Positions in SearchChoice::nodes: the feasible nodes in feasible-list
  // order, the rejected ones with their status.
  std::vector<size_t> feasible;
  std::vector<std::pair<size_t, Status>> rejected;
  // A filter's Error (Code::kError) stops the search; `error_at` is where.
  Status error;
  size_t error_at = 0;
};

// selectHost: which of the nodes tying for the highest total score.
// Upstream samples uniformly with math/rand.
struct HostChoice {
  int64_t cycle = 0;
  std::vector<std::string> tied;  // in feasible-list order
  size_t drawn = 0;               // the seeded RNG's draw, < tied.size()
};

// DefaultPreemption: where the dry run starts (upstream: a random offset
// among the potential nodes) and which of pickOneNodeForPreemption's best
// candidates wins its last tie (upstream: map order).
struct PreemptionChoice {
  int64_t cycle = 0;
  int32_t num_offsets = 0;  // the potential nodes
  int32_t drawn_offset = 0;
  // The best candidates of the dry run from the drawn offset, first the
  // one the reference picks; empty iff no node is a candidate.
  std::vector<std::string> best;
  // The same for any offset.
  std::function<std::vector<std::string>(int32_t offset)> best_from;
};

struct PreemptionPick {
  int32_t offset = 0;
  std::string node;  // one of best_from(offset); "" iff there is none
};

class Choices {
 public:
  virtual ~Choices() = default;

  // Returns the namespace/name of the pod to pop.
  virtual std::string Pop(const PopChoice& choice) = 0;
  virtual SearchOutcome Search(const SearchChoice& choice) = 0;
  // Returns a position in choice.tied.
  virtual size_t SelectHost(const HostChoice& choice) = 0;
  virtual PreemptionPick Preemption(const PreemptionChoice& choice) = 0;
};

// What the reference does at every choice point (docs/deviations.md).
// Stateless: the RNG is drawn by the caller.
class PinnedChoices : public Choices {
 public:
  // The head.
  std::string Pop(const PopChoice& choice) override;
  // One node at a time in check order, stopping at the `to_find`th
  // feasible node or the first Error (docs/deviations.md "Feasible-node
  // search"); without filters, the first `to_find` nodes.
  SearchOutcome Search(const SearchChoice& choice) override;
  // The draw.
  size_t SelectHost(const HostChoice& choice) override;
  // The drawn offset and the first best candidate.
  PreemptionPick Preemption(const PreemptionChoice& choice) override;
};

}  // namespace schedref::reference::framework

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_CHOICES_H_
