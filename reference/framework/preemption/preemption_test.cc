// The evaluator's pieces that need no plugin: victim importance,
// pickOneNodeForPreemption's criteria in order (upstream
// default_preemption_test.go TestSelectBestCandidate covers them through
// the whole dry run; here each criterion gets its own row), potential
// nodes (upstream types_test.go TestNodesForStatusCode), and the dry run's
// offset, stop rule and candidate order with a scripted Interface.
#include "reference/framework/preemption/preemption.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "reference/framework/preemption/importance.h"
#include "reference/framework/preemption/testing/handle.h"
#include "reference/framework/testing/wrappers.h"

namespace schedref::reference::framework::preemption {
namespace {

using st::MakeNode;
using st::MakePod;

api::Pod V(const std::string& name, int32_t priority,
           std::optional<api::TimeMs> start = std::nullopt) {
  st::PodWrapper w = MakePod().Name(name).Priority(priority);
  if (start) w.StartTime(*start);
  return w.Obj();
}

TEST(ImportanceTest, MoreImportantPod) {
  EXPECT_TRUE(MoreImportantPod(V("a", 10), V("b", 5), 0));
  EXPECT_FALSE(MoreImportantPod(V("a", 5), V("b", 10), 0));
  // Equal priority: the earlier start is more important.
  EXPECT_TRUE(MoreImportantPod(V("a", 5, 1), V("b", 5, 2), 0));
  // No start time: now.
  EXPECT_TRUE(MoreImportantPod(V("a", 5, 1), V("b", 5), 100));
  // Neither started: the first argument (upstream's earlier time.Now()).
  EXPECT_TRUE(MoreImportantPod(V("a", 5), V("b", 5), 100));
  EXPECT_TRUE(MoreImportantPod(V("b", 5), V("a", 5), 100));
  EXPECT_EQ(EarliestPodStartTime({V("a", 5, 9), V("b", 7, 8), V("c", 7, 3)}, 0),
            3);
  EXPECT_EQ(EarliestPodStartTime({}, 0), std::nullopt);
}

Candidate C(const std::string& name, std::vector<api::Pod> pods,
            int64_t violations = 0) {
  return {name, {std::move(pods), violations}};
}

TEST(PickOneNodeForPreemptionTest, CriteriaInOrder) {
  struct Case {
    std::string name;
    std::vector<Candidate> candidates;
    std::string want;
  };
  std::vector<Case> cases = {
      {"no candidates", {}, ""},
      {"fewest PDB violations wins over lower priority",
       {C("n1", {V("a", 1)}, 1), C("n2", {V("b", 100)}, 0)}, "n2"},
      {"minimum highest priority victim",
       {C("n1", {V("a", 100), V("b", 1)}), C("n2", {V("c", 50)})}, "n2"},
      {"minimum sum of priorities",
       {C("n1", {V("a", 10), V("b", 10)}), C("n2", {V("c", 10), V("d", 5)})},
       "n2"},
      {"negative priorities: fewer victims win the sum",
       {C("n1", {V("a", -100), V("b", -100)}), C("n2", {V("c", -100)})}, "n2"},
      {"fewest victims",
       {C("n1", {V("a", 10), V("b", 0), V("c", 0)}),
        C("n2", {V("d", 10), V("e", 0)}), C("n3", {V("f", 10), V("g", 0), V("h", 0)})},
       "n2"},
      {"latest start time of the highest-priority victims",
       {C("n1", {V("a", 10, 5)}), C("n2", {V("b", 10, 7)}),
        C("n3", {V("c", 10, 6)})},
       "n2"},
      {"full tie: the first candidate in list order",
       {C("n2", {V("a", 10, 5)}), C("n1", {V("b", 10, 5)})}, "n2"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(PickOneNodeForPreemption(c.candidates, 1000), c.want);
  }
}

TEST(NodesForStatusCodeTest, SnapshotOrderAndAbsentStatus) {
  Snapshot snapshot = testing::MakeSnapshot(
      {}, {MakeNode().Name("a").Obj(), MakeNode().Name("b").Obj(),
           MakeNode().Name("c").Obj()});
  NodeToStatus m;
  m.statuses["c"] = Status(Code::kUnschedulable, "x");
  m.statuses["a"] = Status(Code::kUnschedulableAndUnresolvable, "y");
  auto names = [](const std::vector<const NodeInfo*>& nodes) {
    std::vector<std::string> out;
    for (const NodeInfo* n : nodes) out.push_back(n->Name());
    return out;
  };
  EXPECT_EQ(names(NodesForStatusCode(m, snapshot, Code::kUnschedulable)),
            std::vector<std::string>{"c"});
  m.absent_status = Status(Code::kUnschedulable, std::vector<std::string>{});
  EXPECT_EQ(names(NodesForStatusCode(m, snapshot, Code::kUnschedulable)),
            (std::vector<std::string>{"b", "c"}));
}

// An Interface whose SelectVictimsOnNode answers from a table and records
// the order it was asked in.
class ScriptedInterface : public Interface {
 public:
  std::pair<int32_t, int32_t> GetOffsetAndNumCandidates(int32_t n) override {
    return {offset % n, num_candidates};
  }
  std::pair<bool, std::string> PodEligibleToPreemptOthers(
      const api::Pod&, const Status&) override {
    return {true, ""};
  }
  SelectVictimsResult SelectVictimsOnNode(
      CycleState&, const api::Pod&, NodeInfo& node,
      const std::vector<api::PodDisruptionBudget>&) override {
    asked.push_back(node.Name());
    return answers.at(node.Name());
  }
  int32_t offset = 0;
  int32_t num_candidates = 100;
  std::map<std::string, SelectVictimsResult> answers;
  std::vector<std::string> asked;
};

TEST(EvaluatorTest, DryRunOffsetStopRuleAndOrder) {
  testing::TestHandle handle(testing::MakeSnapshot(
      {}, {MakeNode().Name("n0").Obj(), MakeNode().Name("n1").Obj(),
           MakeNode().Name("n2").Obj(), MakeNode().Name("n3").Obj()}));
  ScriptedInterface iface;
  iface.answers["n0"] = {{V("v0", 0)}, 1, Status::Success()};  // violating
  iface.answers["n1"] = {{}, 0,
                         Status(Code::kUnschedulableAndUnresolvable,
                                "No preemption victims found for incoming pod")};
  iface.answers["n2"] = {{V("v2", 0)}, 0, Status::Success()};
  iface.answers["n3"] = {{V("v3", 0)}, 0, Status::Success()};
  Evaluator ev(&handle, &iface);
  std::vector<const NodeInfo*> potential;
  for (const NodeInfo& n : handle.snapshot.List()) potential.push_back(&n);
  CycleState state;
  // From offset 3: n3 (non-violating) and then n0 reach 2 candidates.
  DryRunResult r = ev.DryRunPreemption(state, V("p", 10), potential, {}, 3, 2);
  EXPECT_EQ(iface.asked, (std::vector<std::string>{"n3", "n0"}));
  ASSERT_EQ(r.candidates.size(), 2u);
  EXPECT_EQ(r.candidates[0].name, "n3");
  EXPECT_EQ(r.candidates[1].name, "n0");
  // From offset 0 with room for 1: n0 violating (kept), n1 fails (status
  // recorded), n2 non-violating stops the run.
  iface.asked.clear();
  r = ev.DryRunPreemption(state, V("p", 10), potential, {}, 0, 1);
  EXPECT_EQ(iface.asked, (std::vector<std::string>{"n0", "n1", "n2"}));
  ASSERT_EQ(r.candidates.size(), 2u);
  EXPECT_EQ(r.candidates[0].name, "n2");
  EXPECT_EQ(r.candidates[1].name, "n0");
  EXPECT_EQ(r.node_statuses.statuses.size(), 1u);
  EXPECT_EQ(r.node_statuses.statuses.at("n1").Message(),
            "No preemption victims found for incoming pod");
}

TEST(EvaluatorTest, PreemptMessagesAndNomination) {
  testing::TestHandle handle(testing::MakeSnapshot(
      {}, {MakeNode().Name("n0").Obj(), MakeNode().Name("n1").Obj(),
           MakeNode().Name("n2").Obj()}));
  const api::Pod pod = MakePod().Name("p").Priority(10).NominatedNodeName("n9").Obj();
  handle.pods[pod.Key()] = pod;
  ScriptedInterface iface;
  iface.answers["n0"] = {{}, 0,
                         Status(Code::kUnschedulableAndUnresolvable,
                                "No preemption victims found for incoming pod")};
  iface.answers["n1"] = {{}, 0, Status(Code::kUnschedulable, "Insufficient cpu")};
  Evaluator ev(&handle, &iface);
  CycleState state;
  NodeToStatus statuses;
  statuses.statuses["n0"] = Status(Code::kUnschedulable, "Insufficient cpu");
  statuses.statuses["n1"] = Status(Code::kUnschedulable, "Insufficient cpu");
  PostFilterOutput out = ev.Preempt(state, pod, statuses);
  ASSERT_TRUE(out.result.has_value());
  EXPECT_EQ(out.result->nominated_node_name, "");
  EXPECT_EQ(out.status,
            Status(Code::kUnschedulable,
                   "0/3 nodes are available: 1 Insufficient cpu, 1 No "
                   "preemption victims found for incoming pod, 1 Preemption "
                   "is not helpful for scheduling."));
  EXPECT_TRUE(handle.cleared_nominations.empty());

  // No potential node: all "not helpful", and the nomination is cleared.
  NodeToStatus none;
  out = ev.Preempt(state, pod, none);
  EXPECT_EQ(out.status,
            Status(Code::kUnschedulable,
                   "0/3 nodes are available: 3 Preemption is not helpful for "
                   "scheduling."));
  EXPECT_EQ(handle.cleared_nominations, std::vector<std::string>{"default/p"});

  // The pod is gone.
  handle.pods.clear();
  out = ev.Preempt(state, pod, statuses);
  EXPECT_FALSE(out.result.has_value());
  EXPECT_EQ(out.status, Status::Error("pod \"p\" not found"));
}

TEST(EvaluatorTest, PrepareCandidate) {
  testing::TestHandle handle;
  handle.nominated["n1"] = {MakePod().Name("low").Priority(1).Obj(),
                            MakePod().Name("same").Priority(10).Obj()};
  ScriptedInterface iface;
  Evaluator ev(&handle, &iface);
  ASSERT_TRUE(ev.PrepareCandidate(C("n1", {V("v1", 5), V("v2", 1)}),
                                  MakePod().Name("p").Priority(10).Obj())
                  .IsSuccess());
  EXPECT_EQ(handle.preempted,
            (std::vector<std::pair<std::string, std::string>>{
                {"default/v1", "default/p"}, {"default/v2", "default/p"}}));
  EXPECT_EQ(handle.cleared_nominations, std::vector<std::string>{"default/low"});
}

}  // namespace
}  // namespace schedref::reference::framework::preemption
