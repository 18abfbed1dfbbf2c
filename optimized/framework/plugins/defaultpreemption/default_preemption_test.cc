#include "optimized/framework/plugins/defaultpreemption/default_preemption.h"

#include <mutex>

#include <gtest/gtest.h>

#include "optimized/framework/testing/fixtures.h"

// Under --config=tsan, TBB's false positives are suppressed by library
// (bazel/tsan_suppressions.cc), which needs both accesses' stacks; with
// TSan's default history the batched dry run's are sometimes lost.
extern "C" const char* __tsan_default_options() { return "history_size=7"; }

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

// A PluginsRunner with one filter, "the pod's cpu fits", and PreFilter
// extensions that count, in the cycle state, the pods removed from the
// node. The filter rejects a node whose count disagrees with the node's
// pods (a dry run that leaked another node's state into this one) and every
// node listed in `errors`; it records the nodes it ran on.
class CpuRunner : public PluginsRunner {
 public:
  struct Removed : StateData {
    int64_t count = 0;
    std::unique_ptr<StateData> Clone() const override { return std::make_unique<Removed>(*this); }
  };
  static const int kKey;

  explicit CpuRunner(const Snapshot& snapshot) : snapshot_(snapshot) {}

  Status RunPreFilterExtensionAddPod(const FilterPlan&, CycleState& state, const PodInfo&,
                                     const PodInfo&, const NodeInfo&) override {
    --state.ReadAs<Removed>(kKey)->count;
    return Status::Success();
  }
  Status RunPreFilterExtensionRemovePod(const FilterPlan&, CycleState& state, const PodInfo&,
                                        const PodInfo&, const NodeInfo&) override {
    ++state.ReadAs<Removed>(kKey)->count;
    return Status::Success();
  }
  // Its extensions run for every state, so every dry run copies.
  FilterPlan PlanFilters(const CycleState&) const override { return {{}, true, {}}; }
  std::optional<Status> RunFilterPluginsWithoutPods(const FilterPlan&, const CycleState&,
                                                    const PodInfo&, const NodeInfo&,
                                                    const std::vector<const PodInfo*>&,
                                                    const std::vector<PodInfoPtr>&) const override {
    return std::nullopt;
  }
  std::optional<Status> RunFilterPluginsWithoutAllPods(const FilterPlan&, const CycleState&,
                                                       const PodInfo&, const NodeInfo&,
                                                       const std::vector<PodInfoPtr>&) const override {
    return std::nullopt;
  }
  Status RunFilterPluginsWithNominatedPods(const FilterPlan&, const CycleState& state,
                                           const PodInfo& pod, const NodeInfo& node,
                                           const std::vector<PodInfoPtr>&) override {
    {
      std::lock_guard<std::mutex> lock(mu);
      filtered.push_back(node.Name());
    }
    if (errors.contains(node.Name())) return Status::Error("broken " + node.Name());
    const int64_t removed = static_cast<int64_t>(snapshot_.Get(node.Name())->pods().size()) -
                            static_cast<int64_t>(node.pods().size());
    if (state.ReadAs<Removed>(kKey)->count != removed) {
      return Status::Error("state of another node on " + node.Name());
    }
    if (node.requested().milli_cpu + pod.requests.milli_cpu > node.allocatable().milli_cpu) {
      return Status(Code::kUnschedulable, "Insufficient cpu");
    }
    return Status::Success();
  }

  std::set<std::string> errors;
  std::mutex mu;
  std::vector<std::string> filtered;  // every filter call's node, in order; guarded by mu

 private:
  const Snapshot& snapshot_;
};
const int CpuRunner::kKey = CycleState::NewKey();

// Nodes n0..n5 (or more) of 4 cpu; Low(node, cpu, i) a priority-0 pod
// there, started at i.
struct DryRunFixture {
  static api::Pod Low(const std::string& node, const std::string& cpu, int i, int32_t prio = 0) {
    return st::MakePod().Name(node + "-p" + std::to_string(i)).Node(node).Priority(prio)
        .Req({{"cpu", cpu}}).StartTime(i).Obj();
  }

  explicit DryRunFixture(std::vector<api::Pod> pods, int num_nodes = 6, int threads = 1) {
    std::vector<api::Node> nodes;
    for (int i = 0; i < num_nodes; ++i) {
      nodes.push_back(st::MakeNode().Name("n" + std::to_string(i)).Capacity({{"cpu", "4"}}).Obj());
    }
    handle = std::make_unique<testing::FakeHandle>(testing::MakeSnapshot(nodes, pods));
    handle->parallelizer = Parallelizer(threads);
    runner = std::make_unique<CpuRunner>(handle->SnapshotSharedLister());
    handle->runner = runner.get();
    preemptor = st::MakePod().Name("hi").Priority(10).Req({{"cpu", "3"}}).Obj();
    handle->pods[preemptor.Key()] = preemptor;
    state.Write(CpuRunner::kKey, std::make_unique<CpuRunner::Removed>());
    for (const api::Node& n : nodes) statuses.Add(n.name, -1, Status(Code::kUnschedulable, "x"));
  }

  PostFilterOutput Run(int32_t pct, int32_t abs) {
    DefaultPreemption pl({pct, abs}, handle.get());
    return pl.PostFilter(state, *NewPodInfo(preemptor), statuses);
  }

  std::unique_ptr<testing::FakeHandle> handle;
  std::unique_ptr<CpuRunner> runner;
  api::Pod preemptor;
  CycleState state;
  NodeToStatus statuses;
};

TEST(DefaultPreemptionDryRunTest, CandidatesStopRuleAndStatuses) {
  using F = DryRunFixture;
  // n0: only a higher-priority pod (no victims); n1: 3 cpu of priority 20
  // plus 1 of priority 0 (does not fit once the victim is gone); n2..n5:
  // four 1-cpu pods, three of which must go; n4's are older (started
  // earlier), so it loses on the latest-start criterion.
  std::vector<api::Pod> pods = {F::Low("n0", "1", 0, 20), F::Low("n1", "3", 0, 20),
                                F::Low("n1", "1", 1)};
  for (const std::string n : {"n2", "n3", "n5"}) {
    for (int i = 0; i < 4; ++i) pods.push_back(F::Low(n, "1", 10 + i));
  }
  for (int i = 0; i < 4; ++i) pods.push_back(F::Low("n4", "1", i));
  struct Case {
    std::string name;
    uint64_t random;  // the offset is random % 6
    int32_t abs;      // numCandidates (pct 0)
    std::set<std::string> errors;
    std::string want_node;  // "" : no candidate
    std::vector<std::string> want_filtered_nodes;  // distinct, in order
    std::string want_message;  // with no candidate
  };
  const std::vector<Case> cases = {
      {"one candidate wanted: the first node that has one", 0, 1, {}, "n2",
       {"n1", "n2"}, ""},
      {"offset wraps; stops once 2 candidates are found", 4, 2, {}, "n5",
       {"n4", "n5"}, ""},
      {"all nodes tried when fewer candidates exist than wanted; n2, n3, n5 tie", 1, 6, {}, "n2",
       {"n1", "n2", "n3", "n4", "n5"}, ""},
      {"errors are ignored when a candidate exists", 1, 2, {"n1"}, "n2", {"n1", "n2", "n3"},
       ""},
      {"no candidate: the statuses of the tried nodes", 0, 6, {"n2", "n3", "n4", "n5"}, "",
       {"n1", "n2", "n3", "n4", "n5"},
       "preemption: [broken n2, broken n3, broken n4, broken n5]"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    DryRunFixture f(pods);
    f.handle->next_random = c.random;
    f.runner->errors = c.errors;
    PostFilterOutput out = f.Run(0, c.abs);
    std::vector<std::string> filtered;
    for (const std::string& n : f.runner->filtered) {
      if (filtered.empty() || filtered.back() != n) filtered.push_back(n);
    }
    EXPECT_EQ(filtered, c.want_filtered_nodes);
    if (c.want_node.empty()) {
      EXPECT_EQ(out.status.code(), Code::kError);
      EXPECT_EQ(out.status.Message(), c.want_message);
      continue;
    }
    ASSERT_TRUE(out.status.IsSuccess()) << out.status.Message();
    ASSERT_TRUE(out.result.has_value());
    EXPECT_EQ(out.result->nominated_node_name, c.want_node);
    // The three least important of the node's four pods, most important first.
    const std::string& n = c.want_node;
    const int base = n == "n4" ? 0 : 10;
    EXPECT_EQ(f.handle->preempted,
              (std::vector<std::string>{"default/" + n + "-p" + std::to_string(base + 1),
                                        "default/" + n + "-p" + std::to_string(base + 2),
                                        "default/" + n + "-p" + std::to_string(base + 3)}));
  }
}

TEST(DefaultPreemptionDryRunTest, PotentialNodesTakeTheAbsentStatus) {
  using F = DryRunFixture;
  std::vector<api::Pod> pods;
  for (const std::string n : {"n0", "n1", "n2", "n3", "n4", "n5"}) {
    for (int i = 0; i < 4; ++i) pods.push_back(F::Low(n, "1", i));
  }
  DryRunFixture f(pods);
  // Potential: n0 n1 n3 n4 n5 (n2 is unresolvable; "ghost" is no node).
  // "n2" with a stale index hint: the name decides.
  f.statuses.statuses = {{"n2", 0, Status(Code::kUnschedulableAndUnresolvable, "x")},
                         {"ghost", -1, Status(Code::kUnschedulable, "x")}};
  f.statuses.absent_status = Status(Code::kUnschedulable, "x");
  f.handle->next_random = 7;  // offset 7 % 5 = 2: n3
  PostFilterOutput out = f.Run(0, 1);
  ASSERT_TRUE(out.result.has_value());
  EXPECT_EQ(out.result->nominated_node_name, "n3");
  EXPECT_EQ(std::set<std::string>(f.runner->filtered.begin(), f.runner->filtered.end()),
            std::set<std::string>{"n3"});
}

TEST(DefaultPreemptionDryRunTest, BatchesGiveTheSequentialResult) {
  using F = DryRunFixture;
  // 200 nodes: every third cannot fit the pod (3 cpu of priority 20), every
  // fifth errs, the others have four 1-cpu pods, three of which must go,
  // every seventh's under a PDB that allows one disruption. Victims start
  // later on later nodes, so that a candidate taken past the stop point
  // would win pickOneNode.
  constexpr int kNodes = 200;
  std::vector<api::Pod> pods;
  std::set<std::string> errors;
  for (int i = 0; i < kNodes; ++i) {
    const std::string n = "n" + std::to_string(i);
    if (i % 3 == 0) pods.push_back(F::Low(n, "3", 0, 20));
    if (i % 5 == 0) errors.insert(n);
    for (int j = 0; j < 4; ++j) {
      api::Pod p = F::Low(n, "1", 1 + i * 10 + j);
      p.name += "-" + std::to_string(j);
      p.uid = p.Key();
      if (i % 7 == 0) p.labels["app"] = "guarded";
      pods.push_back(p);
    }
  }
  api::PodDisruptionBudget pdb;
  pdb.ns = "default";
  pdb.name = "pdb";
  pdb.selector = api::LabelSelector{{{"app", "guarded"}}, {}};
  pdb.disruptions_allowed = 1;
  struct Outcome {
    std::string status;
    std::optional<std::string> nominated;
    std::vector<std::string> preempted;
    bool operator==(const Outcome&) const = default;
  };
  auto run = [&](int threads, uint64_t random, int32_t abs, bool all_err) {
    DryRunFixture f(pods, kNodes, threads);
    f.handle->pdbs = {pdb};
    f.handle->next_random = random;
    f.runner->errors = errors;
    if (all_err) {
      for (int i = 0; i < kNodes; ++i) f.runner->errors.insert("n" + std::to_string(i));
    }
    PostFilterOutput out = f.Run(0, abs);
    Outcome o{out.status.Message(), std::nullopt, f.handle->preempted};
    if (out.result) o.nominated = out.result->nominated_node_name;
    return o;
  };
  for (uint64_t random : {0, 57, 199}) {
    for (int32_t abs : {1, 40, 150, 200}) {
      for (bool all_err : {false, true}) {
        SCOPED_TRACE("random " + std::to_string(random) + ", candidates " + std::to_string(abs) +
                     (all_err ? ", every node errs" : ""));
        const Outcome want = run(1, random, abs, all_err);
        EXPECT_EQ(want.nominated.has_value() && !want.nominated->empty(), !all_err);
        for (int threads : {2, 4}) {
          const Outcome got = run(threads, random, abs, all_err);
          EXPECT_EQ(got.status, want.status) << threads << " threads";
          EXPECT_EQ(got.nominated, want.nominated) << threads << " threads";
          EXPECT_EQ(got.preempted, want.preempted) << threads << " threads";
        }
      }
    }
  }
}

TEST(DefaultPreemptionDryRunTest, NoCandidateHistogram) {
  using F = DryRunFixture;
  // n0: no lower-priority pod; n1: does not fit without its victim; the
  // other nodes are not potential (absent from the statuses).
  DryRunFixture f({F::Low("n0", "1", 0, 20), F::Low("n1", "3", 0, 20), F::Low("n1", "1", 1)});
  f.statuses.statuses = {{"n0", -1, Status(Code::kUnschedulable, "x")},
                         {"n1", -1, Status(Code::kUnschedulable, "x")}};
  PostFilterOutput out = f.Run(10, 100);
  ASSERT_TRUE(out.result.has_value());
  EXPECT_EQ(out.result->nominated_node_name, std::string());
  EXPECT_EQ(out.status.Message(),
            "preemption: 0/6 nodes are available: 1 Insufficient cpu, 1 No preemption victims "
            "found for incoming pod, 4 Preemption is not helpful for scheduling.");
  EXPECT_EQ(f.runner->filtered, std::vector<std::string>{"n1"});  // n0 needs no filter
}

}  // namespace
}  // namespace schedref::optimized::framework::plugins::defaultpreemption
