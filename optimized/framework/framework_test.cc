// Tests for Framework: placement through api::ExpandPlugins (whose own table
// is api/config/plugin_expansion_test.cc) and the Run* rules, including that the
// parallel Score gives the same totals for any thread count. Cases adapted
// from upstream pkg/scheduler/framework/runtime/framework_test.go.
#include "optimized/framework/framework.h"

#include <gtest/gtest.h>

#include "optimized/framework/testing/fixtures.h"

namespace schedref::optimized::framework {
namespace {

class FakeQueueSort final : public QueueSortPlugin {
 public:
  std::string Name() const override { return "Sort"; }
  bool Less(const QueuedPodInfo&, const QueuedPodInfo&) const override { return false; }
};

class FakeBind final : public BindPlugin {
 public:
  std::string Name() const override { return "Bind"; }
  Status Bind(CycleState&, const PodInfo&, const std::string&) override {
    return Status::Success();
  }
};

// PreFilter returns `pre`; Filter rejects nodes named in `reject`; Score is
// the node's position times `step`, normalized to [0, 100] by dividing by
// the maximum when `normalize`. With `hot_clear`, NarrowHotCheck asks for
// those Hot flags clear (a test of the plan, not of a filter's contract).
class Fake final : public PreFilterPlugin, public FilterPlugin, public ScorePlugin,
                   public PermitPlugin {
 public:
  Fake(std::string name, PreFilterOutput pre, std::set<std::string> reject, int64_t step,
       bool normalize, PermitOutput permit, std::optional<uint32_t> hot_clear,
       std::optional<int64_t> uniform, std::vector<uint8_t> by_position)
      : name_(std::move(name)), pre_(std::move(pre)), reject_(std::move(reject)),
        step_(step), normalize_(normalize), permit_(std::move(permit)), hot_clear_(hot_clear),
        uniform_(uniform), by_position_(std::move(by_position)) {}
  std::string Name() const override { return name_; }
  PreFilterOutput PreFilter(CycleState&, const PodInfo&, const std::vector<NodeInfo*>&) override {
    return pre_;
  }
  Status Filter(const CycleState&, const PodInfo&, const NodeInfo& node) const override {
    if (reject_.contains(node.Name())) return Status(Code::kUnschedulable, name_ + " says no");
    return Status::Success();
  }
  bool NarrowHotCheck(const CycleState&, const PodInfo&, HotCheck* check) const override {
    if (!hot_clear_) return false;
    check->flags_clear |= *hot_clear_;
    return true;
  }
  ScoreOutput Score(const CycleState&, const PodInfo&, const NodeInfo& node) const override {
    return {node.index * step_, Status::Success()};
  }
  std::optional<int64_t> UniformScore(const CycleState&, const PodInfo&,
                                      uint32_t) const override {
    return uniform_;
  }
  const uint8_t* ScoresByPosition(const CycleState&) const override {
    return by_position_.empty() ? nullptr : by_position_.data();
  }
  bool HasScoreExtensions() const override { return normalize_; }
  Status NormalizeScore(const CycleState&, const PodInfo&, const std::vector<const NodeInfo*>&,
                        std::vector<int64_t>& scores) override {
    int64_t max = 1;
    for (int64_t s : scores) max = std::max(max, s);
    for (int64_t& s : scores) s = s * kMaxNodeScore / max;
    return Status::Success();
  }
  PermitOutput Permit(CycleState&, const PodInfo&, const std::string&) override { return permit_; }

 private:
  std::string name_;
  PreFilterOutput pre_;
  std::set<std::string> reject_;
  int64_t step_;
  bool normalize_;
  PermitOutput permit_;
  std::optional<uint32_t> hot_clear_;
  std::optional<int64_t> uniform_;
  std::vector<uint8_t> by_position_;
};

struct FakeSpec {
  PreFilterOutput pre;
  std::set<std::string> reject;
  int64_t step = 0;
  bool normalize = false;
  PermitOutput permit;
  std::optional<uint32_t> hot_clear;
  std::optional<int64_t> uniform;  // what UniformScore says
  std::vector<uint8_t> by_position;  // what ScoresByPosition points to
};

// Registers `name` as a factory of default-constructed T's.
template <typename T>
void RegisterPlugin(Registry& r, const std::string& name) {
  EXPECT_TRUE(r.Register(name, [](const nlohmann::json&, Handle*) -> StatusOr<std::unique_ptr<Plugin>> {
    return std::unique_ptr<Plugin>(new T());
  }).ok());
}

Registry MakeRegistry(const std::map<std::string, FakeSpec>& fakes) {
  Registry r;
  RegisterPlugin<FakeQueueSort>(r, "Sort");
  RegisterPlugin<FakeBind>(r, "Bind");
  for (const auto& [name, spec] : fakes) {
    std::string n = name;
    FakeSpec s = spec;
    EXPECT_TRUE(r.Register(n, [n, s](const nlohmann::json&, Handle*) -> StatusOr<std::unique_ptr<Plugin>> {
      return std::unique_ptr<Plugin>(
          new Fake(n, s.pre, s.reject, s.step, s.normalize, s.permit, s.hot_clear, s.uniform,
                   s.by_position));
    }).ok());
  }
  return r;
}

api::PluginSet Enabled(std::vector<api::PluginRef> refs) {
  api::PluginSet s;
  s.enabled = std::move(refs);
  return s;
}

// Nodes n0, n1, ... n{count-1}.
std::vector<api::Node> NumberedNodes(int count) {
  std::vector<api::Node> nodes;
  for (int i = 0; i < count; ++i) nodes.push_back(st::MakeNode().Name("n" + std::to_string(i)).Obj());
  return nodes;
}

api::Plugins Base() {
  api::Plugins p;
  p.queue_sort = Enabled({{"Sort", 0}});
  p.bind = Enabled({{"Bind", 0}});
  return p;
}

TEST(FrameworkNewTest, ConfigurationErrors) {
  Registry r = MakeRegistry({{"A", {}}});
  api::Plugins p = Base();
  p.filter = Enabled({{"Nope", 0}});
  StatusOr<std::unique_ptr<Framework>> f = Framework::New(r, api::Profile{}, p, nullptr);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().message(), "FilterPlugin \"Nope\" does not exist");
  api::Profile twice;
  twice.plugin_config = {{"A", nlohmann::json::object()}, {"A", nlohmann::json::object()}};
  f = Framework::New(r, twice, Base(), nullptr);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().message(), "repeated config for plugin A");
}

TEST(FrameworkRunTest, PreFilterResultIntersectionAndMessages) {
  auto pre = [](std::set<std::string> nodes) {
    return PreFilterOutput{PreFilterResult(std::move(nodes)), Status()};
  };
  Registry r = MakeRegistry({{"P1", {pre({"n1", "n2"})}}, {"P2", {pre({"n3"})}}});
  api::Plugins p = Base();
  p.pre_filter = Enabled({{"P1", 0}, {"P2", 0}});
  StatusOr<std::unique_ptr<Framework>> f = Framework::New(r, api::Profile{}, p, nullptr);
  ASSERT_TRUE(f.ok()) << f.status().message();
  CycleState state;
  std::set<std::string> with_nodes;
  PreFilterOutput out = (*f)->RunPreFilterPlugins(
      state, *NewPodInfo(st::MakePod().Name("p").Obj()), {}, &with_nodes);
  EXPECT_EQ(out.status.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(out.status.Message(), "node(s) didn't satisfy plugin(s) [P1 P2] simultaneously");
  EXPECT_EQ(with_nodes, (std::set<std::string>{"P1", "P2"}));
}

TEST(FrameworkRunTest, FilterStopsAtTheFirstRejectionAndRecordsDetail) {
  Registry r = MakeRegistry({{"A", {{}, {"n0"}}}, {"B", {{}, {"n0", "n1"}}}});
  api::Plugins p = Base();
  p.filter = Enabled({{"A", 0}, {"B", 0}});
  StatusOr<std::unique_ptr<Framework>> f = Framework::New(r, api::Profile{}, p, nullptr);
  ASSERT_TRUE(f.ok()) << f.status().message();
  std::unique_ptr<Snapshot> snap = testing::MakeSnapshot(
      {st::MakeNode().Name("n0").Obj(), st::MakeNode().Name("n1").Obj()});
  CycleState state;
  PodInfoPtr pod = NewPodInfo(st::MakePod().Name("p").Obj());
  std::vector<const FilterPlugin*> active = (*f)->ActiveFilters(state);
  FilterDetail detail;
  Status s0 = (*f)->RunFilterPlugins(active, state, *pod, *snap->List()[0], &detail);
  EXPECT_EQ(s0.plugin(), "A");
  EXPECT_EQ(s0.Message(), "A says no");
  ASSERT_EQ(detail.size(), 1u);  // B never ran
  detail.clear();
  Status s1 = (*f)->RunFilterPlugins(active, state, *pod, *snap->List()[1], &detail);
  EXPECT_EQ(s1.plugin(), "B");
  ASSERT_EQ(detail.size(), 2u);
  EXPECT_TRUE(detail[0].second.IsSuccess());
  // A skipped filter is not in the active list.
  state.skip_filter_plugins.insert("A");
  EXPECT_EQ((*f)->ActiveFilters(state).size(), 1u);
}

TEST(FrameworkRunTest, HotPlanJoinsTheNarrowingFiltersAndKeepsTheRestInOrder) {
  Registry r = MakeRegistry({{"A", {.hot_clear = NodeInfo::kUnschedulable}},
                             {"B", {.reject = {"n0", "n1"}}},
                             {"C", {.hot_clear = NodeInfo::kHardTaints}},
                             {"D", {.reject = {"n1"}}}});
  api::Plugins p = Base();
  p.filter = Enabled({{"A", 0}, {"B", 0}, {"C", 0}, {"D", 0}});
  StatusOr<std::unique_ptr<Framework>> f = Framework::New(r, api::Profile{}, p, nullptr);
  ASSERT_TRUE(f.ok()) << f.status().message();
  CycleState state;
  PodInfoPtr pod = NewPodInfo(st::MakePod().Name("p").Obj());
  const std::vector<const FilterPlugin*> active = (*f)->ActiveFilters(state);
  Framework::HotPlan plan = (*f)->PlanHotCheck(active, state, *pod);
  EXPECT_EQ(plan.check.flags_clear, NodeInfo::kUnschedulable | NodeInfo::kHardTaints);
  ASSERT_EQ(plan.rest.size(), 2u);
  EXPECT_EQ(plan.rest[0], active[1]);  // B
  EXPECT_EQ(plan.rest[1], active[3]);  // D
  // A skipped filter neither narrows nor stays in the rest.
  state.skip_filter_plugins.insert("C");
  plan = (*f)->PlanHotCheck((*f)->ActiveFilters(state), state, *pod);
  EXPECT_EQ(plan.check.flags_clear, NodeInfo::kUnschedulable);
  EXPECT_EQ(plan.rest.size(), 2u);
}

TEST(FrameworkRunTest, FilterPluginsManyFiltersOnlyTheNodesStillInTheRunning) {
  Registry r = MakeRegistry({{"B", {.reject = {"n0", "n1"}}}, {"D", {.reject = {"n2"}}}});
  api::Plugins p = Base();
  p.filter = Enabled({{"B", 0}, {"D", 0}});
  StatusOr<std::unique_ptr<Framework>> f = Framework::New(r, api::Profile{}, p, nullptr);
  ASSERT_TRUE(f.ok()) << f.status().message();
  std::unique_ptr<Snapshot> snap = testing::MakeSnapshot(
      {st::MakeNode().Name("n0").Obj(), st::MakeNode().Name("n1").Obj(),
       st::MakeNode().Name("n2").Obj(), st::MakeNode().Name("n3").Obj()});
  CycleState state;
  PodInfoPtr pod = NewPodInfo(st::MakePod().Name("p").Obj());
  std::vector<const NodeInfo*> nodes(snap->List().begin(), snap->List().end());
  uint8_t pass[] = {1, 0, 1, 1};  // n1 is out of the running already
  Status statuses[4];
  statuses[1] = Status(Code::kUnschedulable, "decided before");
  (*f)->RunFilterPluginsMany((*f)->ActiveFilters(state), state, *pod, nodes.data(), 4, pass,
                             statuses);
  EXPECT_EQ(std::vector<int>(pass, pass + 4), (std::vector<int>{0, 0, 0, 1}));
  EXPECT_EQ(statuses[0].plugin(), "B");
  EXPECT_EQ(statuses[1].Message(), "decided before");
  EXPECT_EQ(statuses[2].plugin(), "D");
  EXPECT_TRUE(statuses[3].IsSuccess());
}

// A node-object filter rejecting the nodes it names, and a PreFilter
// plugin with extensions (whose Filter passes everything).
class ByName final : public NodeObjectFilterPlugin {
 public:
  std::string Name() const override { return "ByName"; }
  Status Filter(const CycleState&, const PodInfo&, const NodeInfo& node) const override {
    if (node.Name() == "n1") return Status(Code::kUnschedulable, "not n1");
    return Status::Success();
  }
};
class WithExtensions final : public PreFilterPlugin, public FilterPlugin {
 public:
  std::string Name() const override { return "Ext"; }
  PreFilterOutput PreFilter(CycleState&, const PodInfo&, const std::vector<NodeInfo*>&) override {
    return {};
  }
  bool HasPreFilterExtensions() const override { return true; }
  Status Filter(const CycleState&, const PodInfo&, const NodeInfo&) const override {
    return Status::Success();
  }
};

// RunFilterPluginsWithoutPods answers only when no copy could change the
// answer, and then as RunFilterPlugins would.
TEST(FrameworkRunTest, FilterWithoutPodsAnswersOnlyWithoutCopies) {
  Registry r = MakeRegistry({{"A", {}}});
  RegisterPlugin<ByName>(r, "ByName");
  RegisterPlugin<WithExtensions>(r, "Ext");
  std::unique_ptr<Snapshot> snap = testing::MakeSnapshot(
      {st::MakeNode().Name("n0").Obj(), st::MakeNode().Name("n1").Obj()},
      {st::MakePod().Name("v").UID("v").Node("n0").Obj()});
  const NodeInfo& n0 = *snap->List()[0];
  const NodeInfo& n1 = *snap->List()[1];
  const std::vector<const PodInfo*> removed = {n0.pods()[0].get()};
  PodInfoPtr pod = NewPodInfo(st::MakePod().Name("p").UID("p").Priority(5).Obj());
  PodInfoPtr high = NewPodInfo(st::MakePod().Name("h").UID("h").Priority(5).Obj());
  PodInfoPtr low = NewPodInfo(st::MakePod().Name("l").UID("l").Priority(4).Obj());
  auto make = [&](std::vector<api::PluginRef> filters, std::vector<api::PluginRef> pre) {
    api::Plugins p = Base();
    p.filter = Enabled(std::move(filters));
    p.pre_filter = Enabled(std::move(pre));
    StatusOr<std::unique_ptr<Framework>> f = Framework::New(r, api::Profile{}, p, nullptr);
    EXPECT_TRUE(f.ok()) << f.status().message();
    return std::move(*f);
  };

  // Node-object filters only: answered, with the plugin attributed.
  std::unique_ptr<Framework> f = make({{"ByName", 0}}, {});
  CycleState state;
  FilterPlan plan = f->PlanFilters(state);
  EXPECT_FALSE(plan.extensions);
  EXPECT_EQ(f->RunFilterPluginsWithoutPods(plan, state, *pod, n0, removed, {}), Status::Success());
  std::optional<Status> s1 = f->RunFilterPluginsWithoutPods(plan, state, *pod, n1, {}, {});
  ASSERT_TRUE(s1.has_value());
  EXPECT_EQ(s1->plugin(), "ByName");
  EXPECT_EQ(s1->Message(), "not n1");
  // A lower-priority nominated pod does not count; an equal one does.
  EXPECT_TRUE(f->RunFilterPluginsWithoutPods(plan, state, *pod, n0, removed, {low}).has_value());
  EXPECT_FALSE(f->RunFilterPluginsWithoutPods(plan, state, *pod, n0, removed, {high}).has_value());
  // The pod itself, nominated, does not count either.
  EXPECT_TRUE(f->RunFilterPluginsWithoutPods(plan, state, *pod, n0, removed, {pod}).has_value());

  // A filter that cannot answer: none, unless an earlier one rejects.
  f = make({{"ByName", 0}, {"A", 0}}, {});
  plan = f->PlanFilters(state);
  EXPECT_FALSE(f->RunFilterPluginsWithoutPods(plan, state, *pod, n0, removed, {}).has_value());
  EXPECT_TRUE(f->RunFilterPluginsWithoutPods(plan, state, *pod, n1, {}, {}).has_value());
  state.skip_filter_plugins.insert("A");
  plan = f->PlanFilters(state);
  EXPECT_EQ(f->RunFilterPluginsWithoutPods(plan, state, *pod, n0, removed, {}), Status::Success());

  // A PreFilter extension that would run: none; skipped: answered.
  f = make({{"ByName", 0}}, {{"Ext", 0}});
  CycleState with_ext;
  plan = f->PlanFilters(with_ext);
  EXPECT_TRUE(plan.extensions);
  EXPECT_FALSE(f->RunFilterPluginsWithoutPods(plan, with_ext, *pod, n1, {}, {}).has_value());
  with_ext.skip_filter_plugins.insert("Ext");
  plan = f->PlanFilters(with_ext);
  EXPECT_FALSE(plan.extensions);
  EXPECT_TRUE(f->RunFilterPluginsWithoutPods(plan, with_ext, *pod, n1, {}, {}).has_value());
}

TEST(FrameworkRunTest, ScoreTotalsDoNotDependOnTheThreadCount) {
  // A: raw 3i, normalized to 100 * 3i / 297 (weight 2); B: raw i (weight 1).
  Registry r = MakeRegistry({{"A", {{}, {}, 3, true}}, {"B", {{}, {}, 1, false}}});
  api::Plugins p = Base();
  p.score = Enabled({{"A", 2}, {"B", 1}});
  const std::vector<api::Node> nodes = NumberedNodes(100);
  PodInfoPtr pod = NewPodInfo(st::MakePod().Name("p").Obj());
  std::vector<int64_t> want(100);
  for (int i = 0; i < 100; ++i) want[i] = 2 * (100 * 3 * i / 297) + i;
  for (int threads : {1, 2, 4}) {
    SCOPED_TRACE(threads);
    testing::FakeHandle handle(testing::MakeSnapshot(nodes));
    handle.parallelizer = Parallelizer(threads);
    StatusOr<std::unique_ptr<Framework>> f = Framework::New(r, api::Profile{}, p, &handle);
    ASSERT_TRUE(f.ok()) << f.status().message();
    const std::vector<NodeInfo*>& list = handle.SnapshotSharedLister().List();
    std::vector<const NodeInfo*> feasible(list.begin(), list.end());
    CycleState state;
    StatusOr<ScoreResult> result = (*f)->RunScorePlugins(state, *pod, feasible, true);
    ASSERT_TRUE(result.ok()) << result.status().message();
    EXPECT_EQ(result->totals, want);
    EXPECT_EQ(result->detail[10].at("A").raw, 30);
    EXPECT_EQ(result->detail[10].at("A").normalized, 100 * 30 / 297);
    EXPECT_EQ(result->detail[10].at("A").weighted, 2 * (100 * 30 / 297));
    // A plugin PreScore skipped is absent from the detail and the totals.
    state.skip_score_plugins.insert("A");
    result = (*f)->RunScorePlugins(state, *pod, feasible, true);
    ASSERT_TRUE(result.ok());
    EXPECT_EQ(result->totals[10], 10);
    EXPECT_FALSE(result->detail[10].contains("A"));
  }
}

TEST(FrameworkRunTest, AUniformScoreStandsForEveryNodeExceptInADetailedResult) {
  // U says every node scores 7 (weight 3) but Score says i: the totals show
  // which one was used. B: raw i (weight 1).
  FakeSpec u{{}, {}, 1, true};
  u.uniform = 7;
  Registry r = MakeRegistry({{"U", u}, {"B", {{}, {}, 1, false}}});
  api::Plugins p = Base();
  p.score = Enabled({{"U", 3}, {"B", 1}});
  const std::vector<api::Node> nodes = NumberedNodes(100);
  testing::FakeHandle handle(testing::MakeSnapshot(nodes));
  StatusOr<std::unique_ptr<Framework>> f = Framework::New(r, api::Profile{}, p, &handle);
  ASSERT_TRUE(f.ok()) << f.status().message();
  const std::vector<NodeInfo*>& list = handle.SnapshotSharedLister().List();
  std::vector<const NodeInfo*> feasible(list.begin(), list.end());
  PodInfoPtr pod = NewPodInfo(st::MakePod().Name("p").Obj());
  CycleState state;
  StatusOr<ScoreResult> result = (*f)->RunScorePlugins(state, *pod, feasible, false);
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(result->totals[0], 3 * 7);
  EXPECT_EQ(result->totals[10], 3 * 7 + 10);
  // With detail every plugin scores every node (normalized: 100 * i / 99).
  result = (*f)->RunScorePlugins(state, *pod, feasible, true);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->totals[10], 3 * (100 * 10 / 99) + 10);
  EXPECT_EQ(result->detail[10].at("U").raw, 10);
  // A skipped plugin counts for nothing, uniform or not.
  state.skip_score_plugins.insert("U");
  result = (*f)->RunScorePlugins(state, *pod, feasible, false);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->totals[10], 10);
  // A uniform score out of range is the same error as a per-node one.
  FakeSpec bad;
  bad.uniform = 101;
  Registry r2 = MakeRegistry({{"Bad", bad}});
  p.score = Enabled({{"Bad", 1}});
  f = Framework::New(r2, api::Profile{}, p, &handle);
  ASSERT_TRUE(f.ok());
  CycleState fresh;
  result = (*f)->RunScorePlugins(fresh, *pod, feasible, false);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().message(),
            "applying score defaultWeights on Score plugins: plugin \"Bad\" returns an invalid "
            "score 101, it should in the range of [0, 100] after normalizing");
}

TEST(FrameworkRunTest, ScoresByPositionAreReadWhereThePositionsAreKnown) {
  // P's Score says i, its array says 100 - pos (weight 2); B: raw i
  // (weight 1). The totals show which one was read.
  FakeSpec by_pos{{}, {}, 1, false};
  for (int pos = 0; pos < 100; ++pos) by_pos.by_position.push_back(static_cast<uint8_t>(100 - pos));
  Registry r = MakeRegistry({{"P", by_pos}, {"B", {{}, {}, 1, false}}});
  api::Plugins p = Base();
  p.score = Enabled({{"P", 2}, {"B", 1}});
  const std::vector<api::Node> nodes = NumberedNodes(100);
  testing::FakeHandle handle(testing::MakeSnapshot(nodes));
  StatusOr<std::unique_ptr<Framework>> f = Framework::New(r, api::Profile{}, p, &handle);
  ASSERT_TRUE(f.ok()) << f.status().message();
  const std::vector<NodeInfo*>& list = handle.SnapshotSharedLister().List();
  // Feasible: positions 90..99 then 0..4, as a round-robin scan finds them.
  std::vector<const NodeInfo*> feasible;
  std::vector<int32_t> positions;
  for (int32_t pos : {90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 0, 1, 2, 3, 4}) {
    feasible.push_back(list[pos]);
    positions.push_back(pos);
  }
  PodInfoPtr pod = NewPodInfo(st::MakePod().Name("p").Obj());
  CycleState state;
  StatusOr<ScoreResult> result =
      (*f)->RunScorePlugins(state, *pod, feasible, false, positions.data());
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(result->totals[0], 2 * (100 - 90) + 90);
  EXPECT_EQ(result->totals[10], 2 * 100 + 0);
  // Without positions, or with detail, P scores node by node.
  result = (*f)->RunScorePlugins(state, *pod, feasible, false);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->totals[0], 2 * 90 + 90);
  result = (*f)->RunScorePlugins(state, *pod, feasible, true, positions.data());
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->totals[0], 2 * 90 + 90);
  EXPECT_EQ(result->detail[0].at("P").raw, 90);
}

// Two plugins read by position (NodeResourcesFit and BalancedAllocation's
// case) take one pass that also lists the ties; with both weights 1 and
// consecutive positions, a vector pass over byte sums. Each row checks the
// totals, the best and the ties against a plain sum, for lengths around
// the vector width and for positions that are not consecutive.
TEST(FrameworkRunTest, TwoScoresByPositionGiveTotalsBestAndTies) {
  constexpr int kNodes = 120;
  // Scores with many ties at the top, in no pattern: 98, 99 or 100 by a
  // fixed pseudo-random sequence, and a few lower ones.
  std::vector<uint8_t> a(kNodes), b(kNodes);
  uint32_t x = 12345;
  for (int pos = 0; pos < kNodes; ++pos) {
    x = x * 1103515245u + 12345u;
    a[pos] = static_cast<uint8_t>(98 + (x >> 16) % 3);
    x = x * 1103515245u + 12345u;
    b[pos] = static_cast<uint8_t>((x >> 16) % 7 == 0 ? (x >> 20) % 90 : 100);
  }
  struct Row {
    std::string name;
    int64_t weight_a, weight_b;
    std::vector<int32_t> positions;
  };
  auto run = [](int32_t first, int32_t n) {
    std::vector<int32_t> p;
    for (int32_t i = 0; i < n; ++i) p.push_back(first + i);
    return p;
  };
  std::vector<int32_t> wrapped = run(100, 20);
  for (int32_t pos : run(0, 30)) wrapped.push_back(pos);
  std::vector<int32_t> gaps;
  for (int32_t pos = 1; pos < kNodes; pos += 3) gaps.push_back(pos);
  const std::vector<Row> rows = {
      {"one node", 1, 1, run(7, 1)},
      {"fifteen", 1, 1, run(3, 15)},
      {"sixteen", 1, 1, run(0, 16)},
      {"seventeen", 1, 1, run(50, 17)},
      {"every node", 1, 1, run(0, kNodes)},
      {"ninety-seven from 23", 1, 1, run(23, 97)},
      {"wrapped round", 1, 1, wrapped},
      {"with gaps", 1, 1, gaps},
      {"weighted, consecutive", 2, 3, run(5, 40)},
      {"weighted, with gaps", 3, 1, gaps},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.name);
    FakeSpec fa{{}, {}, 1, false};
    fa.by_position = a;
    FakeSpec fb{{}, {}, 1, false};
    fb.by_position = b;
    Registry r = MakeRegistry({{"A", fa}, {"B", fb}});
    api::Plugins p = Base();
    p.score = Enabled({{"A", static_cast<int32_t>(row.weight_a)},
                       {"B", static_cast<int32_t>(row.weight_b)}});
    const std::vector<api::Node> nodes = NumberedNodes(kNodes);
    testing::FakeHandle handle(testing::MakeSnapshot(nodes));
    StatusOr<std::unique_ptr<Framework>> f = Framework::New(r, api::Profile{}, p, &handle);
    ASSERT_TRUE(f.ok()) << f.status().message();
    const std::vector<NodeInfo*>& list = handle.SnapshotSharedLister().List();
    std::vector<const NodeInfo*> feasible;
    std::vector<int64_t> want_totals;
    int64_t want_best = INT64_MIN;
    for (int32_t pos : row.positions) {
      feasible.push_back(list[pos]);
      want_totals.push_back(row.weight_a * a[pos] + row.weight_b * b[pos]);
      want_best = std::max(want_best, want_totals.back());
    }
    std::vector<uint32_t> want_ties;
    for (size_t i = 0; i < want_totals.size(); ++i) {
      if (want_totals[i] == want_best) want_ties.push_back(static_cast<uint32_t>(i));
    }
    PodInfoPtr pod = NewPodInfo(st::MakePod().Name("p").Obj());
    CycleState state;
    // Twice: the second run reuses the first one's recycled buffers.
    for (int round = 0; round < 2; ++round) {
      StatusOr<ScoreResult> result =
          (*f)->RunScorePlugins(state, *pod, feasible, false, row.positions.data());
      ASSERT_TRUE(result.ok()) << result.status().message();
      EXPECT_EQ(result->totals, want_totals);
      EXPECT_EQ(result->best, want_best);
      EXPECT_EQ(result->ties, want_ties);
      (*f)->RecycleScores(std::move(*result));
    }
  }
}

TEST(FrameworkRunTest, OutOfRangeScoreIsAnError) {
  Registry r = MakeRegistry({{"B", {{}, {}, 1, false}}});
  api::Plugins p = Base();
  p.score = Enabled({{"B", 1}});
  const std::vector<api::Node> nodes = NumberedNodes(102);
  testing::FakeHandle handle(testing::MakeSnapshot(nodes));
  StatusOr<std::unique_ptr<Framework>> f = Framework::New(r, api::Profile{}, p, &handle);
  ASSERT_TRUE(f.ok());
  const std::vector<NodeInfo*>& list = handle.SnapshotSharedLister().List();
  std::vector<const NodeInfo*> feasible(list.begin(), list.end());
  CycleState state;
  StatusOr<ScoreResult> result =
      (*f)->RunScorePlugins(state, *NewPodInfo(st::MakePod().Name("p").Obj()), feasible, false);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().message(),
            "applying score defaultWeights on Score plugins: plugin \"B\" returns an invalid "
            "score 101, it should in the range of [0, 100] after normalizing");
}

TEST(FrameworkRunTest, PermitWaitTimesOutWithUpstreamsMessage) {
  FakeSpec wait;
  wait.permit = PermitOutput{Status(Code::kWait, std::vector<std::string>{}), 30'000};
  Registry r = MakeRegistry({{"W", wait}});
  api::Plugins p = Base();
  p.permit = Enabled({{"W", 0}});
  StatusOr<std::unique_ptr<Framework>> f = Framework::New(r, api::Profile{}, p, nullptr);
  ASSERT_TRUE(f.ok()) << f.status().message();
  CycleState state;
  PodInfoPtr pod = NewPodInfo(st::MakePod().Name("p").Obj());
  Status s = (*f)->RunPermitPlugins(state, *pod, "n", 1000);
  EXPECT_TRUE(s.IsWait());
  EXPECT_EQ(s.Message(), "one or more plugins asked to wait and no plugin rejected pod \"p\"");
  (*f)->ExpireWaitingPods(30'999);
  EXPECT_FALSE((*f)->WaitingPods().at(pod->uid()).result.has_value());
  (*f)->ExpireWaitingPods(31'000);
  const std::optional<Status>& result = (*f)->WaitingPods().at(pod->uid()).result;
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(result->Message(), "rejected due to timeout after waiting 30s at plugin W");
  EXPECT_FALSE((*f)->Allow(pod->uid(), "W"));  // already resolved
}

}  // namespace
}  // namespace schedref::optimized::framework
