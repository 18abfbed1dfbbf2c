// The interface every scheduler implementation satisfies: take a scenario,
// run it on a virtual clock, produce the trace. This header is the contract
// between implementations and the conformance runner; the semantics it
// promises are in docs/semantics/ and docs/deviations.md.
#ifndef SCHEDREF_API_SCHEDULER_H_
#define SCHEDREF_API_SCHEDULER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "api/status.h"
#include "api/types/scenario.h"
#include "api/types/trace.h"

namespace schedref::api {

// What a run's scheduler extenders cost (RunOptions::extender_stats).
struct ExtenderCallStats {
  int64_t calls = 0;
  // Wall time spent in the calls (HTTP round trips included).
  int64_t nanos = 0;
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
  // Called once per virtual instant the run visits, after its scheduling
  // cycles, with the clock and the trace so far: for progress reports
  // (`schedref run`). It observes only; the trace does not depend on it.
  // Empty: never called.
  std::function<void(TimeMs now, const Trace& trace)> on_instant;
  // Set: receives, when Run returns, the extender calls the run made and
  // their wall time (`schedref bench`). It observes only.
  ExtenderCallStats* extender_stats = nullptr;
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
