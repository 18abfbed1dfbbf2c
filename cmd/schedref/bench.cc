#include "cmd/schedref/bench.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/codec/trace_codec.h"
#include "api/scheduler.h"
#include "api/types/trace.h"
#include "cmd/schedref/bare_loop.h"
#include "cmd/schedref/workloads.h"
#include "conformance/implementations.h"

namespace schedref::cmd {
namespace {

constexpr char kReference[] = "reference";
constexpr char kOptimized[] = "optimized";
constexpr int kMaxThreads = 256;
constexpr int kMaxRepeat = 100;

// --- What a child does --------------------------------------------------------

// One forked child: one implementation at one thread count. It runs the
// workload's init-only scenario once (the init phase, timed for the report
// only) and then, `repeat` times in turn, the measured-phase scenarios
// built from that run's bindings (BindInitPods): "base" with no measured
// pods, "full" with `measured`, "small" with `small` (0: none).
struct Job {
  std::string impl;
  int threads = 1;
  std::string workload;
  WorkloadSize size;  // nodes and init pods; measured_pods unused
  int measured = 0;   // 0: no full run
  int small = 0;      // 0: no small run
  bool capture_init = false;
  bool capture_full = false;
  bool capture_small = false;
  int repeat = 1;
  std::string tag;  // "[SchedulingBasic] optimized, 2 threads"
};

struct PhaseResult {
  double seconds = 0;  // wall clock of the fastest of the job's repeats
  double cpu_seconds = 0;  // CPU time (user + system) of that run
  int64_t measured_bound = 0;
  int64_t pods_created = 0;
  // The scheduler extenders' calls in that run and their wall time.
  int64_t extender_calls = 0;
  double extender_seconds = 0;
  std::vector<std::string> trace;  // canonical lines, if captured
};

struct JobResult {
  enum class Outcome { kOk, kNotRegistered, kFailed };
  Outcome outcome = Outcome::kFailed;
  std::string error;
  std::map<std::string, PhaseResult> phases;
  int64_t max_rss_kib = 0;
};

// The child reports to the parent over a pipe, one item per line:
//   phase <label> <seconds> <cpu seconds> <measured bound> <pods created>
//         <trace lines>
//   <trace lines, if any>
//   done | not-registered | error <message>
void WriteAll(int fd, const std::string& data) {
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // the parent is gone; nothing left to tell
    done += static_cast<size_t>(n);
  }
}

std::string ReadAll(int fd) {
  std::string data;
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    data.append(buf, static_cast<size_t>(n));
  }
  return data;
}

std::string OneLine(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

int64_t MeasuredBound(const api::Trace& trace, const std::string& ns) {
  const std::string prefix = ns + "/";
  int64_t bound = 0;
  for (const auto& [pod, node] : trace.placements) {
    if (!node.empty() && pod.compare(0, prefix.size(), prefix) == 0) ++bound;
  }
  return bound;
}

// User + system CPU time of this process (every thread), in seconds.
double ProcessCpuSeconds() {
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
         (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

// Runs `scenario` once with a fresh instance of the job's implementation;
// sets the wall-clock and CPU seconds of the Run call. nullopt: the
// implementation is not registered.
std::optional<StatusOr<api::Trace>> RunOnce(const Job& job,
                                            const api::Scenario& scenario,
                                            double* seconds,
                                            double* cpu_seconds,
                                            api::ExtenderCallStats* extenders = nullptr) {
  std::unique_ptr<api::Scheduler> impl =
      conformance::MakeImplementation(job.impl);
  if (impl == nullptr) return std::nullopt;
  api::RunOptions options;
  options.threads = job.threads;
  options.extender_stats = extenders;
  const double cpu_start = ProcessCpuSeconds();
  const auto start = std::chrono::steady_clock::now();
  StatusOr<api::Trace> trace = impl->Run(scenario, options);
  *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                           start)
                 .count();
  *cpu_seconds = ProcessCpuSeconds() - cpu_start;
  return trace;
}

// The init pods an init-only run bound, in binding order, as
// BindInitPods wants them.
std::vector<std::pair<std::string, std::string>> BoundInOrder(
    const api::Trace& trace) {
  std::vector<std::pair<std::string, std::string>> out;
  std::set<std::string> seen;
  for (const api::Trace::Record& r : trace.records) {
    const api::Binding* b = api::AsBinding(r);
    if (b == nullptr || b->outcome != api::BindingOutcome::kBound) continue;
    const auto it = trace.placements.find(b->pod);
    if (it == trace.placements.end() || it->second != b->node) continue;
    if (seen.insert(b->pod).second) {
      out.emplace_back(b->pod, b->node);
    }
  }
  return out;
}

std::string PhaseLine(const std::string& label, const PhaseResult& r) {
  char line[256];
  std::snprintf(line, sizeof line, "phase %s %.9f %.9f %lld %lld %lld %.9f %zu\n",
                label.c_str(), r.seconds, r.cpu_seconds,
                static_cast<long long>(r.measured_bound),
                static_cast<long long>(r.pods_created),
                static_cast<long long>(r.extender_calls), r.extender_seconds,
                r.trace.size());
  std::string out = line;
  for (const std::string& l : r.trace) out += l + "\n";
  return out;
}

// Runs `job` and writes its report to `fd`; returns the child's exit code.
int ChildMain(const Job& job, int fd, std::ostream& err) {
  auto fail = [fd](const std::string& message) {
    WriteAll(fd, "error " + OneLine(message) + "\n");
    return 1;
  };
  std::string report;

  // The init phase; it also warms the process up for the timed runs.
  WorkloadSize size = job.size;
  size.measured_pods = 0;
  StatusOr<Workload> init = MakeWorkload(job.workload, size);
  if (!init.ok()) return fail(init.status().message());
  err << job.tag << ": init phase, " << size.nodes << " nodes, "
      << init->pods_created << " pods\n";
  std::vector<std::pair<std::string, std::string>> bound;
  {
    PhaseResult r;
    std::optional<StatusOr<api::Trace>> trace =
        RunOnce(job, init->scenario, &r.seconds, &r.cpu_seconds);
    if (!trace.has_value()) {
      WriteAll(fd, "not-registered\n");
      return 3;
    }
    if (!trace->ok()) {
      return fail("init phase: " + trace->status().message());
    }
    err << job.tag << ": init phase took " << r.seconds << " s\n";
    bound = BoundInOrder(**trace);
    r.measured_bound = static_cast<int64_t>(bound.size());
    r.pods_created = init->pods_created;
    if (job.capture_init) r.trace = api::EncodeTraceLines(**trace);
    report += PhaseLine("init", r);
  }

  struct Timed {
    std::string label;
    int measured;
    bool capture;
    Workload workload;
    PhaseResult result;
  };
  std::vector<Timed> timed;
  for (const auto& [label, measured, capture] :
       {std::tuple<std::string, int, bool>{"base", 0, false},
        {"full", job.measured, job.capture_full},
        {"small", job.small, job.capture_small}}) {
    if (label != "base" && measured == 0) continue;
    size.measured_pods = measured;
    StatusOr<Workload> w = MakeWorkload(job.workload, size);
    if (!w.ok()) return fail(w.status().message());
    StatusOr<Workload> m = BindInitPods(*w, bound);
    if (!m.ok()) return fail(m.status().message());
    Timed t{label, measured, capture, std::move(m).value(), PhaseResult{}};
    t.result.seconds = std::numeric_limits<double>::infinity();
    t.result.pods_created = t.workload.pods_created;
    timed.push_back(std::move(t));
  }
  for (int round = 0; round < job.repeat; ++round) {
    for (Timed& t : timed) {
      err << job.tag << ": " << t.label << " run"
          << (job.repeat > 1 ? " " + std::to_string(round + 1) + "/" +
                                   std::to_string(job.repeat)
                             : std::string())
          << " (" << t.measured << " measured pods)\n";
      double seconds = 0, cpu_seconds = 0;
      api::ExtenderCallStats extenders;
      std::optional<StatusOr<api::Trace>> trace =
          RunOnce(job, t.workload.scenario, &seconds, &cpu_seconds, &extenders);
      if (!trace.has_value()) {
        WriteAll(fd, "not-registered\n");
        return 3;
      }
      if (!trace->ok()) {
        return fail(t.label + " run: " + trace->status().message());
      }
      err << job.tag << ": " << t.label << " run took " << seconds << " s\n";
      if (seconds < t.result.seconds) {
        t.result.seconds = seconds;
        t.result.cpu_seconds = cpu_seconds;
        t.result.extender_calls = extenders.calls;
        t.result.extender_seconds = static_cast<double>(extenders.nanos) / 1e9;
      }
      if (round + 1 == job.repeat) {
        t.result.measured_bound =
            MeasuredBound(**trace, t.workload.measured_namespace);
        if (t.capture) t.result.trace = api::EncodeTraceLines(**trace);
      }
    }
  }
  for (const Timed& t : timed) report += PhaseLine(t.label, t.result);
  WriteAll(fd, report + "done\n");
  return 0;
}

JobResult ParseReport(const std::string& data) {
  JobResult result;
  std::istringstream in(data);
  std::string line;
  while (std::getline(in, line)) {
    if (line == "done") {
      result.outcome = JobResult::Outcome::kOk;
      return result;
    }
    if (line == "not-registered") {
      result.outcome = JobResult::Outcome::kNotRegistered;
      return result;
    }
    if (line.rfind("error ", 0) == 0) {
      result.error = line.substr(6);
      return result;
    }
    std::istringstream fields(line);
    std::string word, label;
    PhaseResult r;
    long long bound = 0, created = 0, extender_calls = 0;
    size_t lines = 0;
    if (!(fields >> word >> label >> r.seconds >> r.cpu_seconds >> bound >>
          created >> extender_calls >> r.extender_seconds >> lines) ||
        word != "phase") {
      result.error = "unreadable report line from the child: " + line;
      return result;
    }
    r.measured_bound = bound;
    r.pods_created = created;
    r.extender_calls = extender_calls;
    for (size_t i = 0; i < lines && std::getline(in, line); ++i) {
      r.trace.push_back(line);
    }
    result.phases[label] = std::move(r);
  }
  result.error = "the child ended its report early";
  return result;
}

// Forks, runs `job` in the child, and collects its report and peak memory.
JobResult RunJob(const Job& job, std::ostream& err) {
  std::cout.flush();
  std::cerr.flush();
  err.flush();
  std::fflush(nullptr);
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    JobResult r;
    r.error = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    JobResult r;
    r.error = std::string("fork: ") + std::strerror(errno);
    return r;
  }
  if (pid == 0) {
    close(fds[0]);
    const int code = ChildMain(job, fds[1], err);
    close(fds[1]);
    err.flush();
    // _exit: no atexit handlers and no stdio flush of the parent's buffers.
    _exit(code);
  }
  close(fds[1]);
  const std::string data = ReadAll(fds[0]);
  close(fds[0]);
  int status = 0;
  struct rusage usage {};
  while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  JobResult result = ParseReport(data);
  result.max_rss_kib = usage.ru_maxrss;
  if (result.outcome == JobResult::Outcome::kOk &&
      !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
    result.outcome = JobResult::Outcome::kFailed;
  }
  if (result.outcome == JobResult::Outcome::kFailed && WIFSIGNALED(status)) {
    result.error = "the child was killed by signal " +
                   std::to_string(WTERMSIG(status)) + " (" +
                   strsignal(WTERMSIG(status)) + ")" +
                   (result.error.empty() ? "" : "; " + result.error);
  }
  return result;
}

// --- Report -------------------------------------------------------------------

std::string Format(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

std::string Rate(double pods_per_second) {
  if (!std::isfinite(pods_per_second)) return "n/a";
  return Format(pods_per_second >= 100 ? "%.0f" : "%.1f", pods_per_second);
}

std::string Ratio(double r) {
  if (!std::isfinite(r)) return "n/a";
  return Format(r >= 10 ? "%.0fx" : "%.1fx", r);
}

std::string Mib(int64_t kib) { return Format("%.0f MiB", kib / 1024.0); }

std::string Pad(std::string s, size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

std::string CpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const size_t colon = line.find(':');
      if (colon != std::string::npos) {
        return line.substr(line.find_first_not_of(' ', colon + 1));
      }
    }
  }
  return "unknown CPU";
}

// The 1-minute load average: other work on the machine skews wall clocks.
std::string LoadAverage() {
  double load[1] = {0};
  if (getloadavg(load, 1) != 1) return "unknown";
  return Format("%.2f", load[0]);
}

std::string ThreadsLabel(int threads) {
  return std::to_string(threads) + (threads == 1 ? " thread" : " threads");
}

// The keys of a trace line's JSON object whose values differ.
std::string DifferingFields(const std::string& a, const std::string& b) {
  const nlohmann::json x = nlohmann::json::parse(a, nullptr, false);
  const nlohmann::json y = nlohmann::json::parse(b, nullptr, false);
  if (!x.is_object() || !y.is_object()) return "";
  std::set<std::string> keys;
  for (const auto& [k, v] : x.items()) keys.insert(k);
  for (const auto& [k, v] : y.items()) keys.insert(k);
  std::string out;
  for (const std::string& k : keys) {
    if (!x.contains(k) || !y.contains(k) || x[k] != y[k]) {
      out += (out.empty() ? "" : ", ") + k;
    }
  }
  return out;
}

std::string Clip(const std::string& line) {
  constexpr size_t kMax = 400;
  if (line.empty()) return "(end of trace)";
  return line.size() <= kMax ? line : line.substr(0, kMax) + "...";
}

// One line of the closing summary.
struct Summary {
  std::string workload;
  double threshold = 0;
  double reference_rate = NAN;
  std::map<int, double> optimized_rate;  // threads -> pods/s
  std::string decisions;
};

struct Context {
  const BenchOptions& options;
  std::ostream& out;
  std::ostream& err;
  bool optimized_registered = true;
  bool failed = false;
  std::vector<Summary> summaries;
};

double MeasuredRate(const JobResult& r, const std::string& phase,
                    int measured) {
  const auto base = r.phases.find("base");
  const auto full = r.phases.find(phase);
  if (base == r.phases.end() || full == r.phases.end()) return NAN;
  const double dt = full->second.seconds - base->second.seconds;
  return dt > 0 ? measured / dt : NAN;
}

constexpr size_t kRunColumn = 30;

void PrintTableHeader(Context& ctx) {
  ctx.out << "  " << Pad("run", kRunColumn) << Pad("init phase", 12)
          << Pad("measured", 10) << Pad("t_base", 10) << Pad("t_full", 10)
          << Pad("pods/s", 9) << Pad("/upstream", 11) << Pad("cpu", 6)
          << Pad("pods/cpu-s", 12) << "peak RSS\n";
}

// `threads`: the CPUs the run may use (1 for the reference).
void PrintRunRow(Context& ctx, const std::string& name, const JobResult& r,
                 const std::string& phase, int measured, double threshold,
                 int threads) {
  const PhaseResult& init = r.phases.at("init");
  const PhaseResult& base = r.phases.at("base");
  const PhaseResult& full = r.phases.at(phase);
  const double rate = MeasuredRate(r, phase, measured);
  const double dt = full.seconds - base.seconds;
  // The share of a CPU the measured phase got: CPU time over wall time.
  const double cpu_dt = full.cpu_seconds - base.cpu_seconds;
  const double cpu = dt > 0 && cpu_dt > 0 ? cpu_dt / dt : NAN;
  // The same rate per CPU-second: what a single-threaded run would show on
  // an idle machine.
  const double cpu_rate = cpu_dt > 0 ? measured / cpu_dt : NAN;
  ctx.out << "  " << Pad(name, kRunColumn)
          << Pad(Format("%.2f s", init.seconds), 12)
          << Pad(std::to_string(measured), 10)
          << Pad(Format("%.3f s", base.seconds), 10)
          << Pad(Format("%.3f s", full.seconds), 10) << Pad(Rate(rate), 9)
          << Pad(Ratio(rate / threshold), 11)
          << Pad(std::isfinite(cpu) ? Format("%.0f%%", 100 * cpu) : "n/a", 6)
          << Pad(Rate(cpu_rate), 12) << Mib(r.max_rss_kib) << "\n";
  // With extenders: the measured phase's time per scheduling cycle (one
  // per measured pod), split into the extender calls and the rest.
  const int64_t calls = full.extender_calls - base.extender_calls;
  if (calls > 0 && measured > 0 && dt > 0) {
    const double ext = full.extender_seconds - base.extender_seconds;
    const double per_cycle_ms = 1000 * dt / measured;
    const double ext_ms = 1000 * ext / measured;
    ctx.out << "    per cycle: " << Format("%.3f ms", per_cycle_ms) << ", of which extender calls "
            << Format("%.3f ms", ext_ms) << " ("
            << Format("%.1f", static_cast<double>(calls) / measured) << " calls) and plugins, "
            << "queue and cache " << Format("%.3f ms", per_cycle_ms - ext_ms) << "\n";
  }
  if (dt < 0.01) {
    ctx.out << "    warning: the measured phase took under 10 ms; this rate "
               "is mostly noise\n";
  } else if (threads == 1 && cpu < 0.85) {
    ctx.out << "    warning: this single-threaded run got "
            << Format("%.0f%%", 100 * cpu)
            << " of a CPU in its measured phase (other load on the "
               "machine); its pods/s is understated, pods/cpu-s is not\n";
  }
  if (full.measured_bound != measured) {
    ctx.out << "    warning: " << full.measured_bound << " of " << measured
            << " measured pods were bound at the end of the run\n";
  }
}

// Compares one trace of the reference with the optimized runs' traces of
// the same scenario. Prints each difference; returns true iff all equal.
bool SameDecisions(Context& ctx, const std::string& what,
                   const std::vector<std::string>& want,
                   const std::map<int, const std::vector<std::string>*>& got) {
  bool identical = true;
  for (const auto& [threads, lines] : got) {
    size_t i = 0;
    while (i < want.size() && i < lines->size() && want[i] == (*lines)[i]) {
      ++i;
    }
    if (i == want.size() && i == lines->size()) continue;
    identical = false;
    const std::string a = i < want.size() ? want[i] : "";
    const std::string b = i < lines->size() ? (*lines)[i] : "";
    ctx.out << "  decisions: DIFFER in the " << what << ": optimized at "
            << ThreadsLabel(threads) << " vs reference, trace line " << i + 1
            << " of " << want.size();
    const std::string fields = DifferingFields(a, b);
    if (!fields.empty()) ctx.out << "; fields: " << fields;
    ctx.out << "\n    reference: " << Clip(a) << "\n    optimized: "
            << Clip(b) << "\n";
  }
  return identical;
}

// The developers' guide's yardstick on SchedulingBasic (bare_loop.h): the
// bare loop over the same nodes and pods, in this process, the fastest of
// `repeat` runs, and the optimized implementation's time per pod as a
// multiple of it.
void PrintBareLoop(Context& ctx, const WorkloadInfo& info, WorkloadSize size, int measured,
                   const std::map<int, JobResult>& optimized) {
  size.measured_pods = measured;
  StatusOr<Workload> w = MakeWorkload(info.name, size);
  if (!w.ok()) {
    ctx.out << "  bare loop: " << w.status().message() << "\n";
    return;
  }
  // The pods in creation order; the init pods, created first, are placed
  // before the clock starts.
  std::vector<const api::Pod*> pods;
  for (const api::Pod& p : w->scenario.initial.pods) pods.push_back(&p);
  for (const api::Event& e : w->scenario.timeline) {
    const auto* pod = std::get_if<api::Pod>(&e.object);
    if (e.op == api::Event::Op::kCreate && pod != nullptr) pods.push_back(pod);
  }
  size_t untimed = 0;
  while (untimed < pods.size() && pods[untimed]->ns != w->measured_namespace) ++untimed;
  double best = 0;
  int64_t unplaced = 0;
  for (int round = 0; round < ctx.options.repeat; ++round) {
    const BareLoopResult r = RunBareLoop(w->scenario.initial.nodes, pods, untimed);
    unplaced = std::count(r.chosen.begin(), r.chosen.end(), -1);
    if (r.seconds > 0) best = std::max(best, static_cast<double>(pods.size() - untimed) / r.seconds);
  }
  ctx.out << "  bare loop, 1 thread: " << Rate(best) << " pods/s (the developers' guide's "
          << "yardstick: scan to " << BareLoopNodesToFind(size.nodes)
          << " feasible, two scores, pick, account; fastest of " << ctx.options.repeat
          << (unplaced > 0 ? "; " + std::to_string(unplaced) + " pods found no node" : "")
          << ")\n";
  auto one = optimized.find(1);
  if (one != optimized.end() && best > 0) {
    const double rate = MeasuredRate(one->second, "full", measured);
    ctx.out << "  optimized, 1 thread, per pod: " << Format("%.2f", best / rate)
            << "x the bare loop's time (the guide asks for at most 3x)\n";
  }
}

void BenchWorkload(Context& ctx, const WorkloadInfo& info) {
  const BenchOptions& o = ctx.options;
  WorkloadSize size;
  size.nodes = o.nodes.value_or(info.default_nodes);
  size.init_pods = o.init_pods.value_or(info.default_init_pods);
  const int measured = o.measured_pods.value_or(info.default_measured_pods);
  const int small =
      std::min(o.reference_measured_pods.value_or(info.default_reference_measured_pods), measured);
  const bool compare = !o.skip_reference;

  Summary summary;
  summary.workload = info.name;
  summary.threshold = info.upstream_threshold;
  ctx.out << "\n== " << info.name << ": " << size.nodes << " nodes, "
          << size.init_pods << " init pods, " << measured
          << " measured pods\n"
          << "   follows " << info.upstream << " (upstream threshold "
          << info.upstream_threshold << " pods/s)\n";

  // Optimized first: its figures are ready long before the reference's.
  std::map<int, JobResult> optimized;
  for (int threads : o.threads) {
    if (!ctx.optimized_registered) break;
    Job job;
    job.impl = kOptimized;
    job.threads = threads;
    job.workload = info.name;
    job.size = size;
    job.measured = measured;
    job.small = compare && small != measured ? small : 0;
    job.capture_init = compare;
    job.capture_full = compare && small == measured;
    job.capture_small = compare;
    job.repeat = o.repeat;
    job.tag = "[" + info.name + "] optimized, " + ThreadsLabel(threads);
    JobResult r = RunJob(job, ctx.err);
    if (r.outcome == JobResult::Outcome::kNotRegistered) {
      ctx.optimized_registered = false;
      ctx.out << "   optimized: not registered "
                 "(conformance::MakeImplementation(\"optimized\") returns "
                 "nullptr; see conformance/implementations.cc): only the "
                 "reference runs\n";
      ctx.err << "note: the optimized implementation is not registered; "
                 "running the reference only\n";
      break;
    }
    if (r.outcome == JobResult::Outcome::kFailed) {
      ctx.failed = true;
      ctx.out << "   optimized, " << ThreadsLabel(threads)
              << ": FAILED: " << r.error << "\n";
      continue;
    }
    optimized.emplace(threads, std::move(r));
  }

  JobResult reference;
  bool have_reference = false;
  if (!o.skip_reference) {
    Job job;
    job.impl = kReference;
    job.threads = 1;
    job.workload = info.name;
    job.size = size;
    job.small = small;
    job.capture_init = true;
    job.capture_small = true;
    job.repeat = 1;  // long runs: warm-up effects are noise there
    job.tag = "[" + info.name + "] reference";
    reference = RunJob(job, ctx.err);
    if (reference.outcome == JobResult::Outcome::kOk) {
      have_reference = true;
    } else {
      ctx.failed = true;
      ctx.out << "   reference: FAILED: "
              << (reference.outcome == JobResult::Outcome::kNotRegistered
                      ? std::string("not registered")
                      : reference.error)
              << "\n";
    }
  }

  PrintTableHeader(ctx);
  if (have_reference) {
    PrintRunRow(ctx, "reference", reference, "small", small,
                info.upstream_threshold, 1);
    summary.reference_rate = MeasuredRate(reference, "small", small);
  }
  for (const auto& [threads, r] : optimized) {
    PrintRunRow(ctx, "optimized, " + ThreadsLabel(threads), r, "full",
                measured, info.upstream_threshold, threads);
    summary.optimized_rate[threads] = MeasuredRate(r, "full", measured);
  }
  for (const auto& [threads, r] : optimized) {
    if (r.phases.count("small") == 0) continue;
    PrintRunRow(ctx, "optimized, " + ThreadsLabel(threads) + " (small)", r,
                "small", small, info.upstream_threshold, threads);
  }
  if (info.name == "SchedulingBasic") PrintBareLoop(ctx, info, size, measured, optimized);

  // Decisions: the init phase, then the measured phase on the reference's
  // scenario.
  if (o.skip_reference) {
    summary.decisions = "not compared";
    ctx.out << "  decisions: not compared (--skip-reference)\n";
  } else if (!have_reference || optimized.empty()) {
    summary.decisions = "not compared";
    ctx.out << "  decisions: not compared ("
            << (have_reference ? "no optimized run" : "no reference run")
            << ")\n";
  } else {
    const std::string phase = small == measured ? "full" : "small";
    std::map<int, const std::vector<std::string>*> init_traces, traces;
    std::string threads_list;
    for (const auto& [threads, r] : optimized) {
      init_traces[threads] = &r.phases.at("init").trace;
      traces[threads] = &r.phases.at(phase).trace;
      threads_list += (threads_list.empty() ? "" : " and ") +
                      std::to_string(threads);
    }
    const PhaseResult& ref_init = reference.phases.at("init");
    const PhaseResult& ref_small = reference.phases.at("small");
    const bool same_init =
        SameDecisions(ctx, "init phase", ref_init.trace, init_traces);
    const bool same_measured =
        SameDecisions(ctx, "measured phase", ref_small.trace, traces);
    if (same_init && same_measured) {
      // The small scenario creates every pod: init, measured and churn.
      const int64_t pods = ref_small.pods_created;
      summary.decisions = "identical on " + std::to_string(pods) + " pods";
      ctx.out << "  decisions: identical on " << pods
              << " pods (reference vs optimized at " << threads_list << " "
              << (threads_list.find(" and ") == std::string::npos
                      ? "thread"
                      : "threads")
              << "): the init phase, " << ref_init.pods_created << " pods, "
              << ref_init.trace.size() << " trace lines; the measured phase, "
              << ref_small.pods_created - ref_init.pods_created
              << " pods (" << small << " measured), "
              << ref_small.trace.size() << " trace lines\n";
    } else {
      summary.decisions = "DIFFER";
      ctx.failed = true;
    }
  }

  // Ratios.
  if (have_reference && !optimized.empty()) {
    for (const auto& [threads, r] : optimized) {
      const double full_ratio =
          MeasuredRate(r, "full", measured) / summary.reference_rate;
      ctx.out << "  optimized/reference, " << ThreadsLabel(threads) << ": "
              << Ratio(full_ratio);
      if (small != measured) {
        ctx.out << " (optimized on " << measured << " measured pods, "
                << "reference on " << small << "); "
                << Ratio(MeasuredRate(r, "small", small) /
                         summary.reference_rate)
                << " on the same " << small << "-pod measured phase";
      }
      ctx.out << "\n";
    }
  }
  if (have_reference && small != measured) {
    ctx.out << "  note: the reference ran " << small << " of the " << measured
            << " measured pods (--reference-measured-pods). Its cost per "
               "pod does not fall as pods accumulate (every cycle recomputes "
               "from the whole cluster), so on all "
            << measured
            << " its pods/s would be no higher and the first ratio above is "
               "a lower bound; the same-phase ratio compares equal work.\n";
  }
  ctx.summaries.push_back(std::move(summary));
}

void PrintHeader(Context& ctx) {
  const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  ctx.out << "schedref bench\n"
          << "machine: " << cpus << " CPUs online, " << CpuModel()
          << "; load average " << LoadAverage() << " at the start\n"
#ifdef NDEBUG
          << "build: optimized (NDEBUG)\n"
#else
          << "build: NOT optimized (assertions on; build with -c opt for "
             "figures)\n"
#endif
          << "method: each implementation runs in a forked child (peak RSS "
             "from wait4). The child runs the init-only scenario (nodes + "
             "init pods; 'init phase', not part of any rate), then moves the "
             "init pods it bound into the cluster and times "
             "api::Scheduler::Run on that cluster alone (t_base) and with "
             "the measured pods (t_full), "
          << (ctx.options.repeat > 1
                  ? "the fastest of " + std::to_string(ctx.options.repeat) +
                        " interleaved runs each for the optimized "
                        "implementation, one run each for the reference"
                  : std::string("one run each"))
          << ". pods/s = measured pods / (t_full - t_base); cpu = CPU time "
             "over wall time of that difference (100% = one busy CPU); "
             "pods/cpu-s = measured pods / CPU time of that difference. "
             "Scenario generation is not timed; peak RSS includes it.\n";
}

void PrintSummary(Context& ctx) {
  ctx.out << "\n== summary (pods/s of the measured phase; x = multiple of "
             "the upstream threshold)\n";
  for (const Summary& s : ctx.summaries) {
    ctx.out << "  " << Pad(s.workload, 27) << "reference "
            << Pad(Rate(s.reference_rate), 8);
    for (const auto& [threads, rate] : s.optimized_rate) {
      ctx.out << " optimized/" << threads << " " << Pad(Rate(rate), 8) << " ("
              << Ratio(rate / s.threshold) << ")";
    }
    ctx.out << "  decisions " << s.decisions << "\n";
  }
}

}  // namespace

Status ValidateBenchOptions(const BenchOptions& o) {
  if (o.workload != "all" && FindWorkload(o.workload) == nullptr) {
    std::string known;
    for (const std::string& n : WorkloadNames()) known += n + ", ";
    return Status::Invalid("--workload: unknown workload \"" + o.workload +
                           "\" (known: " + known + "or all)");
  }
  auto range = [](const std::string& flag, const std::optional<int>& v,
                  int lo, int hi) -> Status {
    if (v.has_value() && (*v < lo || *v > hi)) {
      return Status::Invalid(flag + ": must be in [" + std::to_string(lo) +
                             ", " + std::to_string(hi) + "], got " +
                             std::to_string(*v));
    }
    return Status::Ok();
  };
  SCHEDREF_RETURN_IF_ERROR(range("--nodes", o.nodes, 1, kMaxWorkloadNodes));
  SCHEDREF_RETURN_IF_ERROR(
      range("--init-pods", o.init_pods, 0, kMaxWorkloadPods));
  SCHEDREF_RETURN_IF_ERROR(
      range("--measured-pods", o.measured_pods, 1, kMaxWorkloadPods));
  SCHEDREF_RETURN_IF_ERROR(range("--reference-measured-pods",
                                 o.reference_measured_pods, 1,
                                 kMaxWorkloadPods));
  SCHEDREF_RETURN_IF_ERROR(range("--repeat", o.repeat, 1, kMaxRepeat));
  if (o.threads.empty()) {
    return Status::Invalid("--threads: must not be empty");
  }
  std::set<int> seen;
  for (int t : o.threads) {
    if (t < 1 || t > kMaxThreads) {
      return Status::Invalid("--threads: " + std::to_string(t) +
                             " is not in [1, " + std::to_string(kMaxThreads) +
                             "]");
    }
    if (!seen.insert(t).second) {
      return Status::Invalid("--threads: " + std::to_string(t) +
                             " is listed twice");
    }
  }
  return Status::Ok();
}

int RunBench(const BenchOptions& options, std::ostream& out,
             std::ostream& err) {
  if (Status s = ValidateBenchOptions(options); !s.ok()) {
    err << "error: " << s.message() << "\n";
    return kBenchUsage;
  }
  Context ctx{options, out, err};
  PrintHeader(ctx);
  for (const WorkloadInfo& info : Workloads()) {
    if (options.workload != "all" && options.workload != info.name) continue;
    if (options.skip_reference && !ctx.optimized_registered) break;
    BenchWorkload(ctx, info);
  }
  if (options.skip_reference && !ctx.optimized_registered) {
    err << "error: nothing to run: the optimized implementation is not "
           "registered and --skip-reference was given\n";
    out << "nothing ran: the optimized implementation is not registered and "
           "--skip-reference was given\n";
    return kBenchFailed;
  }
  if (ctx.summaries.size() > 1) PrintSummary(ctx);
  out << "load average " << LoadAverage() << " at the end\n";
  out.flush();
  return ctx.failed ? kBenchFailed : kBenchOk;
}

}  // namespace schedref::cmd
