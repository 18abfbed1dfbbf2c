// A child process started with `sh -c COMMAND`, talked to in lines over two
// pipes: the exec engine's transport (docs/conformance-protocol.md).
//
// The child's stdin and stdout are pipes to this process; its stderr is ours,
// so an implementation's diagnostics reach the user unchanged. The child
// leads its own process group, and Kill() (also run by the destructor when
// the child is still there) sends SIGKILL to that group by its id, so a
// wrapper script and everything it started go away together.
//
// Every operation that can block takes a deadline: a child that hangs, stops
// reading or never ends its line costs at most the time the caller granted.
// While waiting to write, WriteLine also drains the child's output into the
// line buffer, so a child that answers before it has read its whole input
// cannot deadlock the two processes.
//
// Writing to a child that has gone raises SIGPIPE; WriteLine blocks the
// signal for the calling thread while it writes and discards the one it
// raised, so the runner sees kClosed instead of dying. The process-wide
// disposition of SIGPIPE is left alone.
//
// Thread safety: none. One thread owns a Subprocess.
#ifndef SCHEDREF_CONFORMANCE_SUBPROCESS_H_
#define SCHEDREF_CONFORMANCE_SUBPROCESS_H_

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "api/status.h"

namespace schedref::conformance {

class Subprocess {
 public:
  using Clock = std::chrono::steady_clock;

  // What a read or write ended with.
  enum class Io {
    kOk,
    kTimeout,  // the deadline passed; the child is still running
    kClosed,   // the child closed its end of the pipe (or exited)
    kTooLong,  // ReadLine: a line longer than kMaxLineBytes
  };

  // A line longer than this is a broken child, not a trace.
  static constexpr size_t kMaxLineBytes = 256u << 20;

  // Starts `/bin/sh -c command`. Errors: FailedPrecondition naming the
  // system call that failed (pipe, fork). A command that does not exist is
  // not an error here: sh exits with 127 and the first read sees kClosed.
  [[nodiscard]] static StatusOr<std::unique_ptr<Subprocess>> Start(
      const std::string& command);

  ~Subprocess();
  Subprocess(const Subprocess&) = delete;
  Subprocess& operator=(const Subprocess&) = delete;

  // Writes `line` and a "\n".
  // REQUIRES: `line` holds no "\n".
  [[nodiscard]] Io WriteLine(std::string_view line, Clock::time_point deadline);

  // Reads the next line into `*line`, without its "\n". A final line the
  // child ends without "\n" is returned at end of file; after it, kClosed.
  // With a deadline in the past, returns a line only if it has already
  // arrived (kTimeout otherwise): a check for unexpected output.
  [[nodiscard]] Io ReadLine(std::string* line, Clock::time_point deadline);

  // Closes the child's stdin (a well-behaved implementation exits on end of
  // input), waits until `deadline` for it to exit, kills its group if it has
  // not, and reaps it. Returns how it ended (ExitDescription).
  std::string Finish(Clock::time_point deadline);

  // Sends SIGKILL to the child's process group and reaps the child. Returns
  // how it ended. Idempotent.
  std::string Kill();

  // "exited with status 3", "killed by signal 9"; "running" while the
  // child has not been reaped.
  std::string ExitDescription() const;

 private:
  Subprocess(pid_t pid, int to_child, int from_child);
  // Reads what is available into buffer_. Returns false at end of file.
  bool ReadAvailable();
  // Reaps the child if it has exited (or, with block, waits until it has).
  void Reap(bool block);

  // Constant after construction.
  const pid_t pid_;
  // Our ends of the pipes; -1 once closed.
  int to_child_;
  int from_child_;
  // Output read but not yet returned by ReadLine.
  std::string buffer_;
  bool eof_ = false;
  bool reaped_ = false;
  int wait_status_ = 0;
};

}  // namespace schedref::conformance

#endif  // SCHEDREF_CONFORMANCE_SUBPROCESS_H_
