#include "cmd/schedref/scenario_bench.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "api/codec/input_file.h"
#include "api/codec/scenario_decode.h"
#include "api/codec/trace_codec.h"
#include "api/scheduler.h"
#include "conformance/implementations.h"

namespace schedref::cmd {
namespace {

struct Run {
  std::string impl;
  int threads = 1;
};

struct Result {
  bool ok = false;
  std::string error;
  double seconds = 0;
  int64_t bound = 0;
  uint64_t hash = 0;
  int64_t records = 0;
  long max_rss_kib = 0;
};

uint64_t Fnv1a(const std::string& s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

std::string Format(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// In the child: decode, run, report "ok SECONDS BOUND HASH RECORDS" or
// "error MESSAGE" on `fd`.
int ChildMain(const ScenarioBenchOptions& options, const Run& run, int fd) {
  std::string report;
  StatusOr<std::string> text = api::ReadInputFile(options.scenario);
  StatusOr<api::Scenario> scenario =
      text.ok() ? api::DecodeScenario(*text, options.scenario) : StatusOr<api::Scenario>(text.status());
  if (!scenario.ok()) {
    report = "error " + scenario.status().message();
  } else {
    std::unique_ptr<api::Scheduler> impl = conformance::MakeImplementation(run.impl);
    api::RunOptions ro;
    ro.threads = run.threads;
    const auto start = std::chrono::steady_clock::now();
    auto next = start + std::chrono::seconds(2);
    if (options.progress) {
      ro.on_instant = [&](api::TimeMs now, const api::Trace& trace) {
        const auto wall = std::chrono::steady_clock::now();
        if (wall < next) return;
        next = wall + std::chrono::seconds(2);
        std::cerr << "progress: " << run.impl << " (" << run.threads << " threads): virtual time "
                  << now / 1000.0 << "s, " << trace.records.size() << " records, "
                  << std::chrono::duration_cast<std::chrono::seconds>(wall - start).count()
                  << "s elapsed\n"
                  << std::flush;
      };
    }
    StatusOr<api::Trace> trace = impl->Run(*scenario, ro);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!trace.ok()) {
      report = "error " + trace.status().message();
    } else {
      int64_t bound = 0;
      for (const api::Trace::Record& r : trace->records) {
        const api::Binding* b = api::AsBinding(r);
        if (b != nullptr && b->outcome == api::BindingOutcome::kBound) ++bound;
      }
      std::ostringstream line;
      line << "ok " << Format("%.6f", seconds) << " " << bound << " "
           << Fnv1a(api::EncodeTrace(*trace)) << " " << trace->records.size();
      report = line.str();
    }
  }
  const char* p = report.data();
  size_t left = report.size();
  while (left > 0) {
    const ssize_t n = write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return 1;
    p += n;
    left -= static_cast<size_t>(n);
  }
  return 0;
}

Result Measure(const ScenarioBenchOptions& options, const Run& run) {
  Result r;
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    r.error = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    r.error = std::string("fork: ") + std::strerror(errno);
    return r;
  }
  if (pid == 0) {
    close(fds[0]);
    const int code = ChildMain(options, run, fds[1]);
    close(fds[1]);
    std::cerr.flush();
    _exit(code);
  }
  close(fds[1]);
  std::string data;
  char buf[4096];
  while (true) {
    const ssize_t n = read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    data.append(buf, static_cast<size_t>(n));
  }
  close(fds[0]);
  int status = 0;
  struct rusage usage {};
  while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  r.max_rss_kib = usage.ru_maxrss;
  std::istringstream in(data);
  std::string word;
  in >> word;
  if (word == "ok" && (in >> r.seconds >> r.bound >> r.hash >> r.records)) {
    r.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (!r.ok) r.error = "the run exited abnormally";
  } else if (word == "error") {
    std::getline(in, r.error);
    if (!r.error.empty() && r.error.front() == ' ') r.error.erase(0, 1);
  } else {
    r.error = WIFSIGNALED(status)
                  ? std::string("killed by signal ") + strsignal(WTERMSIG(status))
                  : "no report from the run";
  }
  return r;
}

std::string Pad(std::string s, size_t width) {
  if (s.size() < width) s += std::string(width - s.size(), ' ');
  return s;
}

}  // namespace

int RunScenarioBench(const ScenarioBenchOptions& options, std::ostream& out, std::ostream& err) {
  if (options.threads.empty()) {
    err << "error: --threads: must not be empty\n";
    return 2;
  }
  for (int t : options.threads) {
    if (t < 1 || t > 256) {
      err << "error: --threads: " << t << " is not in [1, 256]\n";
      return 2;
    }
  }
  // Decoded once here as well, so that bad input fails before any run,
  // with the decoder's located message.
  StatusOr<std::string> text = api::ReadInputFile(options.scenario);
  if (!text.ok()) {
    err << "error: " << text.status().message() << "\n";
    return 1;
  }
  int64_t nodes = 0, pods = 0;
  {
    StatusOr<api::Scenario> s = api::DecodeScenario(*text, options.scenario);
    if (!s.ok()) {
      err << "error: " << s.status().message() << "\n";
      return 1;
    }
    nodes = static_cast<int64_t>(s->initial.nodes.size());
    pods = static_cast<int64_t>(s->initial.pods.size());
    for (const api::Event& e : s->timeline) {
      if (e.op != api::Event::Op::kCreate) continue;
      if (std::holds_alternative<api::Node>(e.object)) ++nodes;
      if (std::holds_alternative<api::Pod>(e.object)) ++pods;
    }
  }
  std::vector<Run> runs;
  if (!options.skip_reference) runs.push_back({"reference", 1});
  for (int t : options.threads) runs.push_back({"optimized", t});

  out << "scenario: " << options.scenario << " (" << nodes << " nodes, " << pods
      << " pods created)\n"
      << "method: one forked run per row: wall time of Scheduler::Run, pods bound per "
         "second of it, peak RSS (wait4) of the whole run; trace = FNV-1a of the canonical "
         "trace\n\n";
  out << Pad("impl", 11) << Pad("threads", 9) << Pad("wall", 12) << Pad("bound", 9)
      << Pad("pods/s", 12) << Pad("peak RSS", 12) << "trace\n";
  std::optional<uint64_t> first_hash;
  bool failed = false, differ = false;
  for (const Run& run : runs) {
    if (options.progress) err << "running " << run.impl << " with " << run.threads << " threads\n";
    const Result r = Measure(options, run);
    out << Pad(run.impl, 11) << Pad(std::to_string(run.threads), 9);
    if (!r.ok) {
      out << "failed: " << r.error << "\n";
      failed = true;
      continue;
    }
    char hash[32];
    std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(r.hash));
    out << Pad(Format("%.3f s", r.seconds), 12) << Pad(std::to_string(r.bound), 9)
        << Pad(Format("%.0f", r.seconds > 0 ? r.bound / r.seconds : 0), 12)
        << Pad(Format("%.0f MiB", r.max_rss_kib / 1024.0), 12) << hash << "\n";
    if (!first_hash) {
      first_hash = r.hash;
    } else if (*first_hash != r.hash) {
      differ = true;
    }
    out.flush();
  }
  if (failed) {
    out << "\nresult: a run failed\n";
    return 1;
  }
  if (differ) {
    out << "\nresult: the runs' decisions DIFFER (their traces are not identical)\n";
    return 1;
  }
  out << "\nresult: identical decisions in every run (" << runs.size() << " runs)\n";
  return 0;
}

}  // namespace schedref::cmd
