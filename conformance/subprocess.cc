#include "conformance/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

namespace schedref::conformance {
namespace {

// Milliseconds left until `deadline`, rounded up; -1 once it has passed.
int RemainingMs(Subprocess::Clock::time_point deadline) {
  auto left = deadline - Subprocess::Clock::now();
  if (left <= Subprocess::Clock::duration::zero()) return -1;
  auto ms = std::chrono::ceil<std::chrono::milliseconds>(left).count();
  return ms > 1'000'000 ? 1'000'000 : static_cast<int>(ms);
}

// write(2) that turns a SIGPIPE into EPIPE for this call only: the signal is
// blocked for the calling thread while writing, and the one the write raised
// (if it was not already pending) is consumed before the mask is restored.
ssize_t WriteWithoutSigpipe(int fd, const char* data, size_t size) {
  sigset_t pipe_set, old_mask, pending;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  sigemptyset(&pending);
  sigpending(&pending);
  const bool was_pending = sigismember(&pending, SIGPIPE) == 1;
  pthread_sigmask(SIG_BLOCK, &pipe_set, &old_mask);
  ssize_t written = write(fd, data, size);
  const int saved_errno = errno;
  if (written < 0 && saved_errno == EPIPE && !was_pending) {
    const timespec zero{0, 0};
    while (sigtimedwait(&pipe_set, nullptr, &zero) < 0 && errno == EINTR) {
    }
  }
  pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
  errno = saved_errno;
  return written;
}

void CloseFd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

// Moves `fd` above the standard descriptors (keeping close-on-exec), so that
// the child's dup2 onto 0 and 1 cannot clobber a pipe end that happens to
// be 0, 1 or 2 when this process was started with them closed.
int AboveStdio(int fd) {
  if (fd > 2) return fd;
  int moved = fcntl(fd, F_DUPFD_CLOEXEC, 3);
  close(fd);
  return moved;
}

}  // namespace

StatusOr<std::unique_ptr<Subprocess>> Subprocess::Start(
    const std::string& command) {
  int to_child[2], from_child[2];
  if (pipe2(to_child, O_CLOEXEC) != 0) {
    return Status::FailedPrecondition(std::string("pipe: ") +
                                      std::strerror(errno));
  }
  if (pipe2(from_child, O_CLOEXEC) != 0) {
    int saved = errno;
    close(to_child[0]);
    close(to_child[1]);
    return Status::FailedPrecondition(std::string("pipe: ") +
                                      std::strerror(saved));
  }
  for (int* fd : {&to_child[0], &to_child[1], &from_child[0], &from_child[1]}) {
    *fd = AboveStdio(*fd);
  }
  const char* cmd = command.c_str();
  pid_t pid = fork();
  if (pid < 0) {
    int saved = errno;
    for (int fd : {to_child[0], to_child[1], from_child[0], from_child[1]}) {
      close(fd);
    }
    return Status::FailedPrecondition(std::string("fork: ") +
                                      std::strerror(saved));
  }
  if (pid == 0) {
    // The child: only async-signal-safe calls until exec.
    setpgid(0, 0);
    signal(SIGPIPE, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    if (dup2(to_child[0], 0) < 0 || dup2(from_child[1], 1) < 0) _exit(127);
    execl("/bin/sh", "sh", "-c", cmd, static_cast<char*>(nullptr));
    _exit(127);
  }
  // Also from the parent, so the group exists before anyone signals it
  // (fails harmlessly once the child has exec'd; it did it itself then).
  setpgid(pid, pid);
  close(to_child[0]);
  close(from_child[1]);
  fcntl(to_child[1], F_SETFL, fcntl(to_child[1], F_GETFL) | O_NONBLOCK);
  fcntl(from_child[0], F_SETFL, fcntl(from_child[0], F_GETFL) | O_NONBLOCK);
  return std::unique_ptr<Subprocess>(
      new Subprocess(pid, to_child[1], from_child[0]));
}

Subprocess::Subprocess(pid_t pid, int to_child, int from_child)
    : pid_(pid), to_child_(to_child), from_child_(from_child) {}

Subprocess::~Subprocess() {
  CloseFd(to_child_);
  if (!reaped_) Kill();
  CloseFd(from_child_);
}

bool Subprocess::ReadAvailable() {
  char chunk[65536];
  for (;;) {
    ssize_t n = read(from_child_, chunk, sizeof chunk);
    if (n > 0) {
      buffer_.append(chunk, static_cast<size_t>(n));
      if (buffer_.size() > kMaxLineBytes + sizeof chunk) return true;
      continue;
    }
    if (n == 0) {
      eof_ = true;
      return false;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return true;
    eof_ = true;  // a read error ends the conversation like end of file
    return false;
  }
}

Subprocess::Io Subprocess::WriteLine(std::string_view line,
                                     Clock::time_point deadline) {
  std::string data(line);
  data += '\n';
  size_t off = 0;
  while (off < data.size()) {
    if (to_child_ < 0) return Io::kClosed;
    int ms = RemainingMs(deadline);
    if (ms < 0) return Io::kTimeout;
    pollfd fds[2] = {{to_child_, POLLOUT, 0}, {from_child_, POLLIN, 0}};
    nfds_t n = (from_child_ >= 0 && !eof_) ? 2 : 1;
    int r = poll(fds, n, ms);
    if (r < 0) {
      if (errno == EINTR) continue;
      return Io::kClosed;
    }
    if (r == 0) continue;  // the deadline check above decides
    if (n == 2 && (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
      ReadAvailable();
    }
    if ((fds[0].revents & (POLLOUT | POLLERR | POLLHUP)) != 0) {
      ssize_t w = WriteWithoutSigpipe(to_child_, data.data() + off,
                                      data.size() - off);
      if (w > 0) {
        off += static_cast<size_t>(w);
      } else if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK &&
                 errno != EINTR) {
        CloseFd(to_child_);
        return Io::kClosed;
      }
    }
  }
  return Io::kOk;
}

Subprocess::Io Subprocess::ReadLine(std::string* line,
                                    Clock::time_point deadline) {
  size_t scanned = 0;
  for (;;) {
    size_t nl = buffer_.find('\n', scanned);
    if (nl != std::string::npos) {
      line->assign(buffer_, 0, nl);
      buffer_.erase(0, nl + 1);
      return Io::kOk;
    }
    scanned = buffer_.size();
    if (buffer_.size() > kMaxLineBytes) return Io::kTooLong;
    if (eof_) {
      if (buffer_.empty()) return Io::kClosed;
      *line = std::move(buffer_);
      buffer_.clear();
      return Io::kOk;
    }
    // A deadline that has passed still reads what is already there.
    int ms = RemainingMs(deadline);
    pollfd fd{from_child_, POLLIN, 0};
    int r = poll(&fd, 1, ms < 0 ? 0 : ms);
    if (r < 0 && errno != EINTR) {
      eof_ = true;
      continue;
    }
    if (r > 0) {
      ReadAvailable();
      continue;
    }
    if (ms < 0) return Io::kTimeout;
  }
}

void Subprocess::Reap(bool block) {
  if (reaped_) return;
  for (;;) {
    int status = 0;
    pid_t r = waitpid(pid_, &status, block ? 0 : WNOHANG);
    if (r == pid_) {
      reaped_ = true;
      wait_status_ = status;
      return;
    }
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {  // ECHILD: someone else reaped it; nothing left to wait for
      reaped_ = true;
      wait_status_ = 0;
    }
    return;
  }
}

std::string Subprocess::Finish(Clock::time_point deadline) {
  CloseFd(to_child_);
  for (;;) {
    Reap(false);
    if (reaped_) break;
    int ms = RemainingMs(deadline);
    if (ms < 0) return Kill();
    // Keep draining its output so that it cannot block on a full pipe.
    if (from_child_ >= 0 && !eof_) {
      pollfd fd{from_child_, POLLIN, 0};
      if (poll(&fd, 1, ms < 10 ? ms : 10) > 0) {
        ReadAvailable();
        buffer_.clear();
      }
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(ms < 10 ? ms : 10));
    }
  }
  CloseFd(from_child_);
  return ExitDescription();
}

std::string Subprocess::Kill() {
  if (!reaped_) {
    // Only before reaping: until then the group id cannot name anyone else.
    kill(-pid_, SIGKILL);
    kill(pid_, SIGKILL);
    Reap(true);
  }
  CloseFd(to_child_);
  CloseFd(from_child_);
  return ExitDescription();
}

std::string Subprocess::ExitDescription() const {
  if (!reaped_) return "running";
  if (WIFEXITED(wait_status_)) {
    return "exited with status " + std::to_string(WEXITSTATUS(wait_status_));
  }
  if (WIFSIGNALED(wait_status_)) {
    int sig = WTERMSIG(wait_status_);
    const char* name = sigabbrev_np(sig);
    return "killed by signal " + std::to_string(sig) +
           (name != nullptr ? std::string(" (SIG") + name + ")" : "");
  }
  return "ended with wait status " + std::to_string(wait_status_);
}

}  // namespace schedref::conformance
