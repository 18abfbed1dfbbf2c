#include "conformance/exec_engine.h"

#include <utility>

#include "api/codec/trace_codec.h"

namespace schedref::conformance {
namespace {

using Clock = Subprocess::Clock;
using Io = Subprocess::Io;

// How long an implementation that closed its output gets to exit before it
// is killed, so that its exit status can be reported.
constexpr std::chrono::seconds kExitGrace{1};

std::string Seconds(std::chrono::milliseconds d) {
  if (d.count() % 1000 == 0) return std::to_string(d.count() / 1000) + " s";
  std::string s = std::to_string(d.count() / 1000) + ".";
  std::string frac = std::to_string(d.count() % 1000);
  s += std::string(3 - frac.size(), '0') + frac;
  while (s.back() == '0') s.pop_back();
  return s + " s";
}

bool Blank(const std::string& line) {
  return line.find_first_not_of(" \t\r") == std::string::npos;
}

// Reads the next line that is not blank (the protocol ignores blank lines).
Io ReadNonBlank(Subprocess& child, std::string* line,
                Clock::time_point deadline) {
  for (;;) {
    Io io = child.ReadLine(line, deadline);
    if (io != Io::kOk || !Blank(*line)) return io;
  }
}

}  // namespace

ExecEngine::ExecEngine(std::string command, std::chrono::milliseconds timeout)
    : command_(std::move(command)), timeout_(timeout) {}

ExecEngine::~ExecEngine() {
  if (child_ != nullptr) child_->Finish(Clock::now() + kShutdownGrace);
}

StatusOr<std::unique_ptr<ExecEngine>> ExecEngine::Start(
    const std::string& command, std::chrono::milliseconds timeout) {
  std::unique_ptr<ExecEngine> engine(new ExecEngine(command, timeout));
  Status s = engine->Spawn();
  if (!s.ok()) return s.WithPrefix("--exec");
  return engine;
}

Status ExecEngine::Spawn() {
  StatusOr<std::unique_ptr<Subprocess>> started = Subprocess::Start(command_);
  if (!started.ok()) return started.status();
  std::unique_ptr<Subprocess> child = std::move(*started);
  const Clock::time_point deadline = Clock::now() + timeout_;
  std::string line;
  Io io = child->WriteLine(HandshakeRequest(), deadline);
  if (io == Io::kOk) io = ReadNonBlank(*child, &line, deadline);
  switch (io) {
    case Io::kOk:
      break;
    case Io::kTimeout:
      child->Kill();
      return Status::Invalid("no handshake answer within " + Seconds(timeout_));
    case Io::kTooLong:
      child->Kill();
      return Status::Invalid("handshake answer is longer than " +
                             std::to_string(Subprocess::kMaxLineBytes) +
                             " bytes");
    case Io::kClosed:
      return Status::Invalid(
          "the implementation " + child->Finish(Clock::now() + kExitGrace) +
          " before answering the handshake (command: " + command_ + ")");
  }
  StatusOr<Handshake> handshake = ParseHandshake(line);
  if (!handshake.ok()) {
    child->Kill();
    return handshake.status();
  }
  if (!handshake_.name.empty() && handshake->name != handshake_.name) {
    child->Kill();
    return Status::Invalid("the restarted implementation calls itself \"" +
                           handshake->name + "\", not \"" + handshake_.name +
                           "\"");
  }
  if (handshake_.name.empty()) handshake_ = std::move(*handshake);
  child_ = std::move(child);
  return Status::Ok();
}

std::string ExecEngine::Stop() {
  std::string how = child_->Kill();
  child_.reset();
  return how;
}

StatusOr<api::Trace> ExecEngine::Run(const ScenarioInput& input) {
  if (child_ == nullptr) {
    Status s = Spawn();
    if (!s.ok()) return s.WithPrefix("cannot restart the implementation");
  }
  const std::string restarted =
      "; it was stopped and is restarted for the next scenario";
  // Between two answers the implementation must be silent: a line already
  // waiting would be taken for the start of this answer.
  std::string stray;
  switch (ReadNonBlank(*child_, &stray, Clock::now())) {
    case Io::kTimeout:  // nothing waiting: as it should be
      break;
    case Io::kClosed: {  // it exited after its last answer: start it again
      child_->Finish(Clock::now() + kExitGrace);
      child_.reset();
      Status s = Spawn();
      if (!s.ok()) return s.WithPrefix("cannot restart the implementation");
      break;
    }
    case Io::kOk:
    case Io::kTooLong:
      Stop();
      return Status::Invalid(
          "protocol violation: output after the previous answer's last line "
          "(" + (stray.size() > 120 ? stray.substr(0, 120) + "..." : stray) +
          ")" + restarted);
  }
  const Clock::time_point deadline = Clock::now() + timeout_;
  switch (child_->WriteLine(RunRequest(input.path, input.text, input.feasible_nodes), deadline)) {
    case Io::kOk:
      break;
    case Io::kClosed: {
      std::string how = child_->Finish(Clock::now() + kExitGrace);
      child_.reset();
      return Status::Invalid("the implementation " + how +
                             " before it read the run request" + restarted);
    }
    case Io::kTimeout:
    case Io::kTooLong:
      Stop();
      return Status::Invalid("timed out after " + Seconds(timeout_) +
                             " writing the run request (the implementation "
                             "does not read its stdin)" + restarted);
  }
  std::string text, line;
  int received = 0;
  for (;;) {
    Io io = ReadNonBlank(*child_, &line, deadline);
    const std::string progress =
        " (" + std::to_string(received) + " trace lines received)";
    if (io == Io::kTimeout) {
      Stop();
      return Status::Invalid("timed out after " + Seconds(timeout_) +
                             " without a placements line" + progress +
                             restarted);
    }
    if (io == Io::kTooLong) {
      Stop();
      return Status::Invalid("protocol violation: a response line longer "
                             "than " +
                             std::to_string(Subprocess::kMaxLineBytes) +
                             " bytes" + progress + restarted);
    }
    if (io == Io::kClosed) {
      std::string how = child_->Finish(Clock::now() + kExitGrace);
      child_.reset();
      return Status::Invalid("the implementation " + how +
                             " before the placements line" + progress +
                             restarted);
    }
    ResponseLine r = ClassifyResponseLine(line);
    if (r.kind == ResponseLine::Kind::kMalformed) {
      Stop();
      return Status::Invalid("protocol violation: response line " +
                             std::to_string(received + 1) + " is " +
                             r.message + restarted);
    }
    if (r.kind == ResponseLine::Kind::kError) {
      return Status::Invalid("implementation error: " + r.message);
    }
    text += line;
    text += '\n';
    ++received;
    if (r.kind == ResponseLine::Kind::kPlacements) break;
  }
  return api::DecodeTrace(text, Name() + " output");
}

}  // namespace schedref::conformance
