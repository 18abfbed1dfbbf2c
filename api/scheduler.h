// The interface every scheduler implementation satisfies: take a scenario,
// run it on a virtual clock, produce the trace. This header is the contract
// between implementations and the conformance runner; the semantics it
// promises are in docs/semantics/ and docs/deviations.md.
#ifndef SCHEDREF_API_SCHEDULER_H_
#define SCHEDREF_API_SCHEDULER_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "api/scenario.h"
#include "api/status.h"
#include "api/trace.h"

namespace schedref::api {

struct RunOptions {
  // Record NodeDetail for every node of every attempt (what `explain` shows).
  bool full_detail = false;
  // Worker threads an implementation may use; the trace must not depend on
  // it. 0: implementation default.
  int threads = 0;
  // Legal-choice conformance (docs/conformance-protocol.md): at scheduling
  // cycle `first`, choose node `second` instead of the RNG's pick, provided
  // upstream could legally have chosen it (it ties for the highest total
  // score). An illegal forced choice is ignored and recorded as a trace
  // note "illegalChoice". The RNG is consumed exactly as without forcing.
  std::map<int64_t, std::string> forced_choices;
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
