#include "optimized/framework/plugins/defaultpreemption/default_preemption.h"

#include <gtest/gtest.h>

#include "optimized/framework/testing/fixtures.h"

namespace schedref::optimized::framework::plugins::defaultpreemption {
namespace {

PodInfoPtr V(const std::string& name, int32_t priority, std::optional<api::TimeMs> start = {}) {
  api::Pod p = st::MakePod().Name(name).Priority(priority).Obj();
  p.start_time = start;
  return NewPodInfo(p);
}

Candidate C(const std::string& node, std::vector<PodInfoPtr> victims, int64_t violations = 0) {
  return Candidate{node, std::move(victims), violations};
}

TEST(PickOneNodeForPreemptionTest, UpstreamCriteriaInOrder) {
  // upstream preemption_test.go TestPickOneNodeForPreemption, reduced to
  // the candidates' victims.
  struct Case {
    std::string name;
    std::vector<Candidate> candidates;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"fewest PDB violations wins over lower priority",
       {C("n1", {V("a", 1)}, 1), C("n2", {V("b", 100)}, 0)}, "n2"},
      {"minimum highest priority victim",
       {C("n1", {V("a", 100), V("b", 1)}), C("n2", {V("c", 50)})}, "n2"},
      {"minimum sum of priorities",
       {C("n1", {V("a", 10), V("b", 10)}), C("n2", {V("c", 10), V("d", 5)})}, "n2"},
      {"negative priorities: fewer victims win the sum",
       {C("n1", {V("a", -100), V("b", -100)}), C("n2", {V("c", -100)})}, "n2"},
      {"fewest victims",
       {C("n1", {V("a", 10), V("b", 0), V("c", 0)}), C("n2", {V("d", 10), V("e", 0)}),
        C("n3", {V("f", 10), V("g", 0), V("h", 0)})},
       "n2"},
      {"latest start time of the highest-priority victims",
       {C("n1", {V("a", 10, 5)}), C("n2", {V("b", 10, 7)}), C("n3", {V("c", 10, 6)})}, "n2"},
      {"no start time counts as now (latest)",
       {C("n1", {V("a", 10, 5)}), C("n2", {V("b", 10)})}, "n2"},
      {"full tie: the first candidate in list order",
       {C("n2", {V("a", 10, 5)}), C("n1", {V("b", 10, 5)})}, "n2"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(c.candidates[PickOneNodeForPreemption(c.candidates, 1000)].node, c.want);
  }
}

TEST(FilterPodsWithPDBViolationTest, BudgetRule) {
  api::PodDisruptionBudget pdb;
  pdb.ns = "default";
  pdb.name = "pdb";
  pdb.selector = api::LabelSelector{{{"app", "a"}}, {}};
  pdb.disruptions_allowed = 1;
  auto a = [](const std::string& name, const std::string& ns = "default") {
    return NewPodInfo(st::MakePod().Name(name).Namespace(ns).Label("app", "a").Obj());
  };
  auto names = [](const std::vector<PodInfoPtr>& pods) {
    std::vector<std::string> out;
    for (const PodInfoPtr& p : pods) out.push_back(p->pod.name);
    return out;
  };
  auto [v, nv] = FilterPodsWithPDBViolation({a("p1"), a("p2"), a("p3", "other")}, {pdb});
  EXPECT_EQ(names(v), std::vector<std::string>{"p2"});
  EXPECT_EQ(names(nv), (std::vector<std::string>{"p1", "p3"}));
  pdb.disrupted_pods = {"p1"};  // already disrupted: takes nothing
  std::tie(v, nv) = FilterPodsWithPDBViolation({a("p1"), a("p2")}, {pdb});
  EXPECT_TRUE(v.empty());
  pdb.selector = api::LabelSelector{};  // empty selector: matches nothing
  pdb.disruptions_allowed = 0;
  std::tie(v, nv) = FilterPodsWithPDBViolation({a("p1"), a("p2")}, {pdb});
  EXPECT_TRUE(v.empty());
}

TEST(DefaultPreemptionTest, UpstreamNumCandidates) {
  // upstream TestCalculateNumCandidates.
  struct Case {
    std::string name;
    int32_t pct, abs, nodes, want;
  };
  const Case cases[] = {
      {"no nodes", 10, 100, 0, 0},
      {"nodes < minCandidateNodesAbsolute", 10, 100, 50, 50},
      {"nodes > minCandidateNodesAbsolute", 10, 100, 200, 100},
      {"percentage > absolute", 50, 100, 1000, 500},
      {"nodes < absolute and percentage >= absolute", 10, 100, 100, 100},
  };
  testing::FakeHandle handle;
  for (const Case& c : cases) {
    DefaultPreemption pl({c.pct, c.abs}, &handle);
    EXPECT_EQ(pl.NumCandidates(c.nodes), c.want) << c.name;
  }
}

TEST(DefaultPreemptionTest, NotEligibleWithPolicyNever) {
  api::Pod pod = st::MakePod().Name("p").Priority(10).Obj();
  pod.preemption_policy = "Never";
  testing::FakeHandle handle(testing::MakeSnapshot({st::MakeNode().Name("n").Obj()}));
  handle.pods[pod.Key()] = pod;
  DefaultPreemption pl({}, &handle);
  CycleState state;
  NodeToStatus statuses;
  statuses.absent_status = Status(Code::kUnschedulable, "Insufficient cpu");
  PostFilterOutput out = pl.PostFilter(state, *NewPodInfo(pod), statuses);
  EXPECT_FALSE(out.result.has_value());
  EXPECT_EQ(out.status.code(), Code::kUnschedulable);
  EXPECT_EQ(out.status.Message(), "preemption: not eligible due to preemptionPolicy=Never.");
}

TEST(DefaultPreemptionTest, NoPotentialNodesClearsTheNomination) {
  api::Pod pod = st::MakePod().Name("p").Priority(10).Obj();
  pod.nominated_node_name = "n1";
  testing::FakeHandle handle(testing::MakeSnapshot(
      {st::MakeNode().Name("n1").Obj(), st::MakeNode().Name("n2").Obj()}));
  handle.pods[pod.Key()] = pod;
  DefaultPreemption pl({}, &handle);
  CycleState state;
  NodeToStatus statuses;  // every node UnschedulableAndUnresolvable
  PostFilterOutput out = pl.PostFilter(state, *NewPodInfo(pod), statuses);
  ASSERT_TRUE(out.result.has_value());
  EXPECT_EQ(out.result->nominated_node_name, std::string());
  EXPECT_EQ(out.status.Message(),
            "preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.");
  EXPECT_EQ(handle.cleared_nominations, std::vector<std::string>{"default/p"});
}

}  // namespace
}  // namespace schedref::optimized::framework::plugins::defaultpreemption
