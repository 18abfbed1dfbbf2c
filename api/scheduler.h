// The interface every scheduler implementation satisfies: take a scenario,
// run it on a virtual clock, produce the trace. This header is the contract
// between implementations and the conformance runner; the semantics it
// promises are in docs/semantics/ and docs/deviations.md.
#ifndef SCHEDREF_API_SCHEDULER_H_
#define SCHEDREF_API_SCHEDULER_H_

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "api/scenario.h"
#include "api/status.h"
#include "api/trace.h"

namespace schedref::api {

// Legal-choice conformance (docs/conformance.md): the decisions an
// implementation made where upstream kube-scheduler is nondeterministic,
// imposed on the oracle (the reference) one scheduling cycle at a time. The
// oracle takes a forced decision iff upstream could legally have made it;
// otherwise it ignores it and records a trace note "illegalChoice" saying
// why. Other implementations reject forced decisions they do not support
// with an error.
struct ForcedSearch {
  // The feasible nodes, in feasible-list order (Attempt::feasible_nodes).
  std::vector<std::string> feasible;
  // The nodes whose rejection was recorded (the keys of
  // Attempt::rejections).
  std::set<std::string> rejected;
  friend bool operator==(const ForcedSearch&, const ForcedSearch&) = default;
};

struct ForcedDecisions {
  // selectHost: the node chosen at a cycle, legal iff it ties for the
  // highest total score. The RNG is drawn as without forcing.
  std::map<int64_t, std::string> choices;
  // findNodesThatPassFilters: the outcome of a cycle's feasible-node search,
  // legal iff upstream's parallel search (parallelism workers over chunks
  // of the node list from the round-robin start) can end with it.
  std::map<int64_t, ForcedSearch> searches;
  // DefaultPreemption: the node a cycle's preemption nominates, legal iff
  // it is the choice of pickOneNodeForPreemption, final tie included, for
  // the candidates of the dry run from some offset.
  std::map<int64_t, std::string> nominations;
  // The scheduling queue: the pod (namespace/name) a cycle pops, legal iff
  // it is in activeQ and ties with activeQ's head under QueueSort (neither
  // sorts before the other: upstream's heap leaves such ties to its
  // insertion history, and a real clock stamps same-instant pods in
  // creation order).
  std::map<int64_t, std::string> pops;
  bool empty() const {
    return choices.empty() && searches.empty() && nominations.empty() && pops.empty();
  }
  friend bool operator==(const ForcedDecisions&,
                         const ForcedDecisions&) = default;
};

struct RunOptions {
  // Record NodeDetail for every node of every attempt (what `explain` shows).
  bool full_detail = false;
  // Record each attempt's feasible nodes (Attempt::feasible_nodes), what
  // legal-choice conformance needs to judge an early-stop search.
  bool record_feasible_nodes = false;
  // Worker threads an implementation may use; the trace must not depend on
  // it. 0: implementation default.
  int threads = 0;
  ForcedDecisions forced;
};

class Scheduler {
 public:
  virtual ~Scheduler() = default;

  // A short stable name ("reference", "optimized").
  virtual std::string Name() const = 0;

  // Runs `scenario` from its initial objects through the end of its timeline
  // and returns the trace.
  //
  // Errors: Invalid when the scenario's configuration is rejected (upstream's
  // configuration validation messages) or an event names an object that does
  // not exist. A scheduling failure is never an error: it is a trace record.
  // REQUIRES: the scenario passed api::DecodeScenario's validation.
  [[nodiscard]] virtual StatusOr<Trace> Run(const Scenario& scenario,
                                            const RunOptions& options) = 0;
};

}  // namespace schedref::api

#endif  // SCHEDREF_API_SCHEDULER_H_
