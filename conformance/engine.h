// An engine: a scheduler implementation as conformance sees it, whether it
// is built in (an api::Scheduler in this process) or external (a process
// speaking docs/conformance-protocol.md, conformance/exec_engine.h). The
// runner gives it a scenario and gets a trace back; nothing else.
#ifndef SCHEDREF_CONFORMANCE_ENGINE_H_
#define SCHEDREF_CONFORMANCE_ENGINE_H_

#include <memory>
#include <set>
#include <string>

#include "api/scheduler.h"
#include "api/status.h"
#include "api/types/scenario.h"
#include "api/types/trace.h"

namespace schedref::conformance {

// One scenario as the runner hands it to an engine.
struct ScenarioInput {
  // The file it was read from, as the user named it.
  std::string path;
  // The document, without its expectedTrace (an engine is not shown the
  // answer); what external engines receive.
  std::string text;
  // The decoded document (expected_trace included); what built-in engines
  // run.
  const api::Scenario* scenario = nullptr;
  // Ask for each attempt's feasible nodes (api::Attempt::feasible_nodes;
  // the run request's option "feasibleNodes"): legal-choice mode does.
  bool feasible_nodes = false;
};

class Engine {
 public:
  virtual ~Engine() = default;

  // The name shown in results: a built-in's name, or the name an external
  // implementation gave in the handshake.
  virtual std::string Name() const = 0;

  // Feature tags (conformance/features.h) the engine declared unsupported;
  // scenarios that need one are skipped.
  virtual std::set<std::string> Unsupported() const = 0;

  // Runs the scenario and returns the implementation's trace. Errors
  // (Invalid, FailedPrecondition) carry a message that says what went wrong:
  // the implementation's own error, a trace that does not decode, a
  // timeout, an implementation that exited.
  // REQUIRES: input.scenario != nullptr.
  [[nodiscard]] virtual StatusOr<api::Trace> Run(const ScenarioInput& input) = 0;
};

// A built-in implementation: supports every feature, runs in this process
// with default RunOptions but for `threads` (RunOptions::threads; 0: the
// implementation's default) and the input's feasible_nodes.
[[nodiscard]] std::unique_ptr<Engine> MakeBuiltinEngine(
    std::unique_ptr<api::Scheduler> scheduler, int threads = 0);

}  // namespace schedref::conformance

#endif  // SCHEDREF_CONFORMANCE_ENGINE_H_
