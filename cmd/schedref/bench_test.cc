#include "cmd/schedref/bench.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "conformance/implementations.h"

namespace schedref::cmd {
namespace {

// A report row's run column (30 wide), and its measured column after the
// init phase's 12.
std::string RowStart(const std::string& run) {
  std::string row = "  " + run;
  row.resize(2 + 30, ' ');
  return row;
}
bool HasRow(const std::string& report, const std::string& run,
            int measured) {
  const std::string start = RowStart(run);
  for (size_t at = report.find(start); at != std::string::npos;
       at = report.find(start, at + 1)) {
    if (report.compare(at + start.size() + 12, std::to_string(measured).size() + 1,
                       std::to_string(measured) + " ") == 0) {
      return true;
    }
  }
  return false;
}

bool OptimizedRegistered() {
  const std::vector<std::string> names = conformance::ImplementationNames();
  return std::find(names.begin(), names.end(), "optimized") != names.end();
}

TEST(BenchOptionsTest, Errors) {
  struct Case {
    std::string name;
    BenchOptions options;
    std::string want;
  };
  std::vector<Case> cases;
  auto add = [&](std::string name, auto edit, std::string want) {
    BenchOptions o;
    edit(o);
    cases.push_back({std::move(name), o, std::move(want)});
  };
  add("unknown workload", [](BenchOptions& o) { o.workload = "Basic"; },
      "--workload: unknown workload \"Basic\" (known: SchedulingBasic, "
      "SchedulingNodeAffinity, SchedulingPodAntiAffinity, TopologySpreading, "
      "PreemptionBasic, SchedulingSecrets, SchedulingInTreePVs, SchedulingMigratedInTreePVs, "
      "SchedulingCSIPVs, PreemptionPVs, Unschedulable, MixedChurn, SchedulingBasicExtender, or all)");
  add("no nodes", [](BenchOptions& o) { o.nodes = 0; },
      "--nodes: must be in [1, 100000], got 0");
  add("negative init", [](BenchOptions& o) { o.init_pods = -3; },
      "--init-pods: must be in [0, 1000000], got -3");
  add("no measured", [](BenchOptions& o) { o.measured_pods = 0; },
      "--measured-pods: must be in [1, 1000000], got 0");
  add("no reference measured",
      [](BenchOptions& o) { o.reference_measured_pods = 0; },
      "--reference-measured-pods: must be in [1, 1000000], got 0");
  add("no threads", [](BenchOptions& o) { o.threads.clear(); },
      "--threads: must not be empty");
  add("zero threads", [](BenchOptions& o) { o.threads = {1, 0}; },
      "--threads: 0 is not in [1, 256]");
  add("duplicate threads", [](BenchOptions& o) { o.threads = {2, 1, 2}; },
      "--threads: 2 is listed twice");
  add("repeat", [](BenchOptions& o) { o.repeat = 0; },
      "--repeat: must be in [1, 100], got 0");
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const Status s = ValidateBenchOptions(c.options);
    EXPECT_TRUE(s.IsInvalid());
    EXPECT_EQ(s.message(), c.want);
    std::ostringstream out, err;
    EXPECT_EQ(RunBench(c.options, out, err), kBenchUsage);
    EXPECT_EQ(err.str(), "error: " + c.want + "\n");
    EXPECT_EQ(out.str(), "");
  }
  EXPECT_TRUE(ValidateBenchOptions(BenchOptions{}).ok());
  BenchOptions all;
  all.workload = "all";
  EXPECT_TRUE(ValidateBenchOptions(all).ok());
}

// Every workload end to end at a tiny size: both implementations (or the
// reference alone while the optimized one is not registered) run, every
// measured pod binds, and the decisions are compared. No timing is checked.
TEST(BenchTest, EveryWorkloadRunsEndToEnd) {
  BenchOptions o;
  o.workload = "all";
  o.nodes = 30;
  o.init_pods = 10;
  o.measured_pods = 20;
  o.reference_measured_pods = 8;
  o.threads = {1, 2};
  std::ostringstream out, err;
  ASSERT_EQ(RunBench(o, out, err), kBenchOk) << out.str() << err.str();
  const std::string report = out.str();
  for (const std::string name :
       {"SchedulingBasic", "SchedulingNodeAffinity",
        "SchedulingPodAntiAffinity", "TopologySpreading", "PreemptionBasic",
        "SchedulingSecrets", "SchedulingInTreePVs", "SchedulingMigratedInTreePVs",
        "SchedulingCSIPVs", "PreemptionPVs", "Unschedulable", "MixedChurn",
        "SchedulingBasicExtender"}) {
    EXPECT_NE(report.find("== " + name + ": 30 nodes, 10 init pods, 20 "
                                         "measured pods"),
              std::string::npos)
        << name;
  }
  EXPECT_NE(report.find("method: each implementation runs in a forked child"),
            std::string::npos);
  EXPECT_NE(report.find("pods/s = measured pods / (t_full - t_base)"),
            std::string::npos);
  EXPECT_TRUE(HasRow(report, "reference", 8)) << report;
  EXPECT_NE(report.find("note: the reference ran 8 of the 20 measured pods"),
            std::string::npos);
  EXPECT_EQ(report.find("measured pods were bound"), std::string::npos)
      << report;
  EXPECT_EQ(report.find("FAILED"), std::string::npos) << report;
  EXPECT_NE(report.find("== summary"), std::string::npos);
  // The guide's yardstick, on SchedulingBasic alone: 30 nodes are below
  // upstream's 100-node minimum, so it scans all of them.
  EXPECT_NE(report.find("  bare loop, 1 thread: "), std::string::npos) << report;
  EXPECT_NE(report.find("scan to 30 feasible, two scores, pick, account; fastest of 3)"),
            std::string::npos)
      << report;
  EXPECT_EQ(report.find("bare loop", report.find("== SchedulingNodeAffinity")),
            std::string::npos)
      << report;
  if (OptimizedRegistered()) {
    EXPECT_NE(report.find("  optimized, 1 thread, per pod: "), std::string::npos) << report;
    EXPECT_TRUE(HasRow(report, "optimized, 2 threads", 20)) << report;
    EXPECT_TRUE(HasRow(report, "optimized, 1 thread (small)", 8)) << report;
    // 10 init + 8 measured pods; at 8 measured pods the churn workloads
    // have no churn tick yet.
    EXPECT_NE(report.find("decisions: identical on 18 pods (reference vs "
                          "optimized at 1 and 2 threads): the init phase, 10 "
                          "pods, 22 trace lines; the measured phase, 8 pods "
                          "(8 measured), 18 trace lines"),
              std::string::npos)
        << report;
    EXPECT_NE(report.find("optimized/reference, 1 thread: "),
              std::string::npos);
    EXPECT_EQ(report.find("DIFFER"), std::string::npos) << report;
  } else {
    EXPECT_NE(report.find("optimized: not registered "
                          "(conformance::MakeImplementation(\"optimized\") "
                          "returns nullptr"),
              std::string::npos)
        << report;
    EXPECT_NE(report.find("decisions: not compared (no optimized run)"),
              std::string::npos);
  }
}

TEST(BenchTest, SkipReference) {
  BenchOptions o;
  o.workload = "SchedulingBasic";
  o.nodes = 10;
  o.init_pods = 3;
  o.measured_pods = 5;
  o.threads = {1};
  o.skip_reference = true;
  std::ostringstream out, err;
  const int code = RunBench(o, out, err);
  if (OptimizedRegistered()) {
    EXPECT_EQ(code, kBenchOk) << out.str() << err.str();
    EXPECT_NE(out.str().find("decisions: not compared (--skip-reference)"),
              std::string::npos);
    EXPECT_EQ(out.str().find("  reference "), std::string::npos);
  } else {
    EXPECT_EQ(code, kBenchFailed);
    EXPECT_NE(err.str().find("error: nothing to run: the optimized "
                             "implementation is not registered and "
                             "--skip-reference was given"),
              std::string::npos)
        << err.str();
  }
}

}  // namespace
}  // namespace schedref::cmd
