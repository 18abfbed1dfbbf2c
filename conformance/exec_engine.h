// An external implementation: a command, started once with `sh -c`, that
// speaks the schedref-conformance protocol on its stdin and stdout
// (docs/conformance-protocol.md, messages in conformance/protocol.h).
//
// Life cycle:
//   Start   -> spawn, handshake             -> ready
//   ready   -> Run: request, read the trace -> ready
//                 the implementation's error line          -> ready
//                 timeout, exit, a line that is not JSON   -> stopped
//   stopped -> the next Run respawns and re-handshakes first
// A stopped implementation is killed (its whole process group) because the
// runner can no longer tell which of its lines answer which request.
// Destruction closes its stdin and gives it kShutdownGrace to exit.
#ifndef SCHEDREF_CONFORMANCE_EXEC_ENGINE_H_
#define SCHEDREF_CONFORMANCE_EXEC_ENGINE_H_

#include <chrono>
#include <memory>
#include <set>
#include <string>

#include "api/status.h"
#include "conformance/engine.h"
#include "conformance/protocol.h"
#include "conformance/subprocess.h"

namespace schedref::conformance {

class ExecEngine final : public Engine {
 public:
  static constexpr std::chrono::seconds kShutdownGrace{5};

  // Starts `command` and performs the handshake; `timeout` bounds the
  // handshake and, later, each scenario (request written to placements line
  // read). Errors: Invalid or FailedPrecondition, "--exec: " followed by
  // what went wrong (the process could not start, exited before answering,
  // timed out, answered with another protocol version ...).
  [[nodiscard]] static StatusOr<std::unique_ptr<ExecEngine>> Start(
      const std::string& command, std::chrono::milliseconds timeout);

  ~ExecEngine() override;

  std::string Name() const override { return handshake_.name; }
  std::set<std::string> Unsupported() const override {
    return handshake_.unsupported;
  }
  StatusOr<api::Trace> Run(const ScenarioInput& input) override;

 private:
  ExecEngine(std::string command, std::chrono::milliseconds timeout);
  // Spawns the command and handshakes; on success child_ is ready.
  [[nodiscard]] Status Spawn();
  // Kills the child (if any) and forgets it; the next Run respawns.
  // Returns how it ended.
  std::string Stop();

  // Constant after construction.
  const std::string command_;
  const std::chrono::milliseconds timeout_;

  // From the first handshake; later handshakes must give the same name.
  Handshake handshake_;
  // nullptr while stopped.
  std::unique_ptr<Subprocess> child_;
};

}  // namespace schedref::conformance

#endif  // SCHEDREF_CONFORMANCE_EXEC_ENGINE_H_
