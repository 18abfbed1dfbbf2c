// perf-import (perf_import.h) against upstream's own misc config: the
// imported SchedulingBasic makes exactly the built-in workload's decisions
// for the same counts, and what it cannot import is refused with the field.
#include "cmd/schedref/perf_import.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <tuple>
#include <vector>

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
       u + ": [0].workloadTemplate[1].templatePaths: at least one template path is required"},
      {"MissingParam/small",
       u + ": [1].workloads[0].params: no parameter \"measurePods\" for countParam "
           "\"$measurePods\""},
      {"Volumes/small",
       u + ": [2].workloadTemplate[0].persistentVolumeTemplatePath: required with "
           "persistentVolumeClaimTemplatePath"},
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

constexpr char kChurn[] = "cmd/schedref/testdata/perf_import/misc/ops-config.yaml";

// The timeline as (at, operation, key) triples.
using Entries = std::vector<std::tuple<api::TimeMs, std::string, std::string>>;
Entries TimelineOf(const api::Scenario& s) {
  Entries out;
  for (const api::Event& e : s.timeline) {
    const char* op = e.op == api::Event::Op::kCreate   ? "create"
                     : e.op == api::Event::Op::kDelete ? "delete"
                                                       : "other";
    out.emplace_back(e.at, op, e.kind + " " + e.name);
  }
  return out;
}

// churn, mode create: one object per template every interval from the
// churn's instant, `number` ticks; the next operation does not wait.
TEST(PerfImport, ChurnCreate) {
  StatusOr<api::Scenario> s = ImportPerfWorkload(kChurn, "ChurnCreate/small");
  ASSERT_TRUE(s.ok()) << s.status().message();
  const Entries want = {{0, "create", "Pod namespace-2/pod-0"},
                        {200, "create", "Pod namespace-1/pod-0"},
                        {400, "create", "Pod namespace-1/pod-1"},
                        {600, "create", "Pod namespace-1/pod-2"}};
  EXPECT_EQ(TimelineOf(*s), want);
  // Both implementations run it alike.
  EXPECT_EQ(Trace(*s, "reference"), Trace(*s, "optimized"));
}

// churn, mode recreate: `number` slots per template; a tick creates into
// an empty slot and deletes a full one, for the churn window (5 s here).
TEST(PerfImport, ChurnRecreate) {
  StatusOr<api::Scenario> s = ImportPerfWorkload(kChurn, "ChurnRecreate/small", 5000);
  ASSERT_TRUE(s.ok()) << s.status().message();
  const Entries want = {
      {1000, "create", "Node scheduler-perf-0"}, {1000, "create", "Pod churn/pod-0"},
      {2000, "create", "Node scheduler-perf-1"}, {2000, "create", "Pod churn/pod-1"},
      {3000, "delete", "Node scheduler-perf-0"}, {3000, "delete", "Pod churn/pod-0"},
      {4000, "delete", "Node scheduler-perf-1"}, {4000, "delete", "Pod churn/pod-1"},
      {5000, "create", "Node scheduler-perf-2"}, {5000, "create", "Pod churn/pod-2"}};
  EXPECT_EQ(TimelineOf(*s), want);
  EXPECT_EQ(Trace(*s, "reference"), Trace(*s, "optimized"));
  // The default window is 10 s: ten ticks.
  StatusOr<api::Scenario> d = ImportPerfWorkload(kChurn, "ChurnRecreate/small");
  ASSERT_TRUE(d.ok()) << d.status().message();
  EXPECT_EQ(TimelineOf(*d).size(), 20u);
  EXPECT_EQ(std::get<0>(TimelineOf(*d).back()), 10000);
}

// deletePods: the namespace's pods in creation order, one every
// 1/deletePodsPerSecond s from one period on; without
// skipWaitToCompletion the next operation starts after the last one
// (then 1 s later, as every later createPods); rate 0 deletes at once.
TEST(PerfImport, DeletePods) {
  StatusOr<api::Scenario> s = ImportPerfWorkload(kChurn, "DeleteWaits/small");
  ASSERT_TRUE(s.ok()) << s.status().message();
  const Entries want = {{0, "create", "Pod doomed/pod-0"},    {0, "create", "Pod doomed/pod-1"},
                        {0, "create", "Pod doomed/pod-2"},    {250, "delete", "Pod doomed/pod-0"},
                        {500, "delete", "Pod doomed/pod-1"},  {750, "delete", "Pod doomed/pod-2"},
                        {1750, "create", "Pod after/pod-0"}, {1750, "delete", "Pod after/pod-0"}};
  EXPECT_EQ(TimelineOf(*s), want);
  EXPECT_EQ(Trace(*s, "reference"), Trace(*s, "optimized"));
}

// Upstream's SchedulingWhileGated: a node from a template with a fixed
// name, 10 gated pods, 10 pods deleted at 50/s without waiting while the
// measured pods arrive.
TEST(PerfImport, SchedulingWhileGated) {
  StatusOr<api::Scenario> s = ImportPerfWorkload(kMisc, "SchedulingWhileGated/1Node_10GatedPods");
  ASSERT_TRUE(s.ok()) << s.status().message();
  ASSERT_EQ(s->initial.nodes.size(), 1u);
  EXPECT_EQ(s->initial.nodes[0].name, "scheduler-perf-node");
  std::vector<api::TimeMs> deletes;
  int64_t measured = 0;
  for (const api::Event& e : s->timeline) {
    if (e.op == api::Event::Op::kDelete) {
      EXPECT_EQ(e.name.rfind("namespace-3/", 0), 0u) << e.name;
      deletes.push_back(e.at);
    }
    if (e.op == api::Event::Op::kCreate && e.name.rfind("namespace-5/", 0) == 0) {
      EXPECT_EQ(e.at, 2000);
      ++measured;
    }
  }
  const std::vector<api::TimeMs> want = {1020, 1040, 1060, 1080, 1100,
                                         1120, 1140, 1160, 1180, 1200};
  EXPECT_EQ(deletes, want);
  EXPECT_EQ(measured, 10);
  EXPECT_EQ(Trace(*s, "reference"), Trace(*s, "optimized"));
}

// nodeAllocatableStrategy: allocatable from capacity with the strategy's
// quantities, and a CSINode per node; volume templates: per pod a bound
// claim pvc-<i> and volume <namespace>-vol-<i> (CSI handle: the volume's
// name; EBS volumeID vol-<i>), the pod's volume "vol" naming the claim.
TEST(PerfImport, AllocatableAndVolumes) {
  StatusOr<api::Scenario> s = ImportPerfWorkload(kChurn, "CSIPVs/small");
  ASSERT_TRUE(s.ok()) << s.status().message();
  ASSERT_EQ(s->initial.nodes.size(), 2u);
  const api::Node& n = s->initial.nodes[0];
  EXPECT_EQ(n.name, "node-0-0");
  EXPECT_EQ(n.allocatable.at("attachable-volumes-csi-ebs.csi.aws.com"), 39);
  EXPECT_EQ(n.allocatable.at(api::kResourceCpu), 4000);  // from capacity
  ASSERT_EQ(s->initial.csi_nodes.size(), 2u);
  const auto& csi = s->initial.csi_nodes[0];
  EXPECT_EQ(csi.name, "node-0-0");
  ASSERT_EQ(csi.drivers.size(), 1u);
  EXPECT_EQ(csi.drivers[0].name, "ebs.csi.aws.com");
  EXPECT_EQ(csi.drivers[0].node_id, "node-0-0");
  EXPECT_EQ(csi.drivers[0].allocatable_count, 39);
  const auto& pvcs = s->initial.persistent_volume_claims;
  ASSERT_EQ(pvcs.size(), 2u);
  EXPECT_EQ(pvcs[1].ns + "/" + pvcs[1].name, "namespace-1/pvc-1");
  EXPECT_EQ(pvcs[1].spec.volume_name, "namespace-1-vol-1");
  EXPECT_EQ(pvcs[1].phase, "Bound");
  ASSERT_EQ(s->initial.persistent_volumes.size(), 2u);
  EXPECT_EQ(s->initial.persistent_volumes[0].name, "namespace-1-vol-0");
  // The second createPods is 1 s later: its claim and volume too.
  const Entries want = {{0, "create", "Pod namespace-1/pod-0"},
                        {0, "create", "Pod namespace-1/pod-1"},
                        {1000, "create", "PersistentVolumeClaim namespace-2/pvc-0"},
                        {1000, "create", "PersistentVolume namespace-2-vol-0"},
                        {1000, "create", "Pod namespace-2/pod-0"}};
  EXPECT_EQ(TimelineOf(*s), want);
  const std::vector<std::string> ref = Trace(*s, "reference");
  EXPECT_EQ(ref, Trace(*s, "optimized"));
  // Every pod is bound: the volumes are bound and attachable.
  size_t bound = 0;
  for (const std::string& line : ref) bound += line.find("\"bound\"") != std::string::npos;
  EXPECT_EQ(bound, 3u) << ::testing::PrintToString(ref);
}

TEST(PerfImport, ChurnAndDeleteErrors) {
  const std::string f = kChurn;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"ChurnNoNumber/x", f + ": [3].workloadTemplate[0].number: must be > 0 in mode recreate"},
      {"ChurnBadMode/x", f + ": [4].workloadTemplate[0].mode: expected create or recreate"},
      {"ChurnFixedName/x", "cmd/schedref/testdata/perf_import/templates/node-with-name.yaml: "
                           "metadata.generateName: required field is missing"},
      {"DeleteNegativeRate/x",
       f + ": [6].workloadTemplate[0].deletePodsPerSecond: expected a non-negative integer"},
      {"DeleteNoNamespace/x", f + ": [7].workloadTemplate[0].namespace: required field is missing"},
  };
  for (const auto& [workload, want] : cases) {
    StatusOr<api::Scenario> s = ImportPerfWorkload(kChurn, workload);
    ASSERT_FALSE(s.ok()) << workload;
    EXPECT_EQ(s.status().message(), want);
  }
}

}  // namespace
}  // namespace schedref::cmd
