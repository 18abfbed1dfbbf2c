// perf-import (perf_import.h) against upstream's own misc config: the
// imported SchedulingBasic makes exactly the built-in workload's decisions
// for the same counts, and what it cannot import is refused with the field.
#include "cmd/schedref/perf_import.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "api/codec/trace_codec.h"
#include "api/scheduler.h"
#include "cmd/schedref/workloads.h"
#include "conformance/implementations.h"

namespace schedref::cmd {
namespace {

constexpr char kMisc[] = "cmd/schedref/testdata/perf_import/misc/performance-config.yaml";

std::vector<std::string> Trace(const api::Scenario& s, const std::string& impl) {
  std::unique_ptr<api::Scheduler> scheduler = conformance::MakeImplementation(impl);
  StatusOr<api::Trace> trace = scheduler->Run(s, api::RunOptions{});
  EXPECT_TRUE(trace.ok()) << trace.status().message();
  return trace.ok() ? api::EncodeTraceLines(*trace) : std::vector<std::string>{};
}

TEST(PerfImport, SchedulingBasicMakesTheBuiltInWorkloadsDecisions) {
  struct Case {
    std::string workload;
    WorkloadSize size;  // the entry's params
    std::string impl;
  };
  const std::vector<Case> cases = {
      {"SchedulingBasic/5Nodes", {5, 5, 10}, "reference"},
      {"SchedulingBasic/5Nodes_QueueingHintsEnabled", {5, 5, 10}, "optimized"},
      {"SchedulingBasic/500Nodes", {500, 500, 1000}, "optimized"},
  };
  for (const Case& c : cases) {
    StatusOr<api::Scenario> imported = ImportPerfWorkload(kMisc, c.workload);
    ASSERT_TRUE(imported.ok()) << c.workload << ": " << imported.status().message();
    EXPECT_EQ(imported->initial.nodes.size(), static_cast<size_t>(c.size.nodes));
    StatusOr<Workload> builtin = MakeWorkload("SchedulingBasic", c.size);
    ASSERT_TRUE(builtin.ok()) << builtin.status().message();
    const std::vector<std::string> got = Trace(*imported, c.impl);
    EXPECT_GT(got.size(), static_cast<size_t>(c.size.init_pods + c.size.measured_pods));
    EXPECT_EQ(got, Trace(builtin->scenario, c.impl)) << c.workload;
  }
}

TEST(PerfImport, Errors) {
  struct Case {
    std::string workload;
    std::string want;  // a prefix of the message
  };
  const std::string f = kMisc;
  const std::vector<Case> cases = {
      {"SchedulingBasic", "--workload: expected \"<test case>/<workload>\", got \"SchedulingBasic\""},
      {"NoSuchCase/x", f + ": no test case \"NoSuchCase\" (test cases: SchedulingBasic, "},
      {"SchedulingBasic/6Nodes",
       f + ": [0].workloads: no workload \"6Nodes\" (workloads: 5Nodes, "},
  };
  for (const Case& c : cases) {
    StatusOr<api::Scenario> s = ImportPerfWorkload(kMisc, c.workload);
    ASSERT_FALSE(s.ok()) << c.workload;
    EXPECT_EQ(s.status().message().substr(0, c.want.size()), c.want) << s.status().message();
  }
  // What perf-import does not read is refused by its path.
  const std::string u = "cmd/schedref/testdata/perf_import/misc/unsupported-config.yaml";
  const std::vector<Case> refused = {
      {"Churn/small",
       u + ": [0].workloadTemplate[1].opcode: \"churn\" is not supported by perf-import "
           "(supported: createNodes, createNamespaces, createPods, barrier, sleep)"},
      {"MissingParam/small",
       u + ": [1].workloads[0].params: no parameter \"measurePods\" for countParam "
           "\"$measurePods\""},
      {"Volumes/small",
       u + ": [2].workloadTemplate[0].persistentVolumeClaimTemplatePath: not supported by "
           "perf-import"},
  };
  for (const Case& c : refused) {
    StatusOr<api::Scenario> s = ImportPerfWorkload(u, c.workload);
    ASSERT_FALSE(s.ok()) << c.workload;
    EXPECT_EQ(s.status().message(), c.want);
  }
  StatusOr<api::Scenario> missing = ImportPerfWorkload("no/such.yaml", "A/b");
  EXPECT_FALSE(missing.ok());
}

// barrier takes no time; sleep moves the clock on; a later createPods is
// 1 s after the previous instant, in its own namespace.
TEST(PerfImport, BarrierAndSleep) {
  StatusOr<api::Scenario> s = ImportPerfWorkload(
      "cmd/schedref/testdata/perf_import/misc/unsupported-config.yaml", "Sleepy/small");
  ASSERT_TRUE(s.ok()) << s.status().message();
  ASSERT_EQ(s->initial.nodes.size(), 1u);
  EXPECT_EQ(s->initial.nodes[0].name, "node-0-0");
  std::vector<std::pair<api::TimeMs, std::string>> events;
  for (const api::Event& e : s->timeline) {
    events.emplace_back(e.at, e.op == api::Event::Op::kAdvance ? "advance" : e.name);
  }
  const std::vector<std::pair<api::TimeMs, std::string>> want = {
      {0, "namespace-1/pod-0"}, {5000, "advance"}, {6000, "later/pod-0"}, {6000, "later/pod-1"}};
  EXPECT_EQ(events, want);
}

}  // namespace
}  // namespace schedref::cmd
