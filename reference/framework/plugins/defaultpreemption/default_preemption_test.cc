// Tables transcribed from upstream
// pkg/scheduler/framework/plugins/defaultpreemption/default_preemption_test.go
// (008b3652959ca58af8be3fb5b6ecfe9ae7638282): TestPostFilter (rows without
// extenders, pod groups and async API calls, which v1.32's default profile
// does not have), TestDryRunPreemption-style rows, and the reprieve order
// of SelectVictimsOnNode; plus eligibility and PDB rules (the args' rows
// are in api/config/pluginargs/defaultpreemption_args_test.cc).
//
// The plugins run inside a real Framework (PrioritySort, NodeResourcesFit,
// upstream's "test-plugin" whose AddPod/RemovePod fail on nodes labelled
// error=true, a binder), as upstream's tests do.
#include "reference/framework/plugins/defaultpreemption/default_preemption.h"

#include <gtest/gtest.h>

#include <climits>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "api/config/config.h"
#include "reference/framework/framework.h"
#include "reference/framework/plugins/interpodaffinity/interpod_affinity.h"
#include "reference/framework/plugins/noderesources/fit.h"
#include "reference/framework/plugins/podtopologyspread/pod_topology_spread.h"
#include "reference/framework/plugins/queuesort/priority_sort.h"
#include "reference/framework/preemption/testing/handle.h"
#include "reference/framework/registry.h"
#include "reference/framework/testing/wrappers.h"

namespace schedref::reference::framework::plugins::defaultpreemption {
namespace {

using st::MakeNode;
using st::MakePod;

constexpr int32_t kLow = 0, kMid = 100, kHigh = 1000, kVeryHigh = 10000;
const st::ResourceStrings kSmall = {{"cpu", "100m"}, {"memory", "100"}};
const st::ResourceStrings kMedium = {{"cpu", "200m"}, {"memory", "200"}};
const st::ResourceStrings kLarge = {{"cpu", "300m"}, {"memory", "300"}};
const st::ResourceStrings kOnePod = {{"pods", "1"}};
const st::ResourceStrings kNodeRes = {{"cpu", "200m"}, {"memory", "400"}};

// upstream TestPlugin.
class TestPlugin final : public PreFilterPlugin, public FilterPlugin {
 public:
  std::string Name() const override { return "test-plugin"; }
  PreFilterOutput PreFilter(CycleState&, const api::Pod&,
                            const std::vector<const NodeInfo*>&) override {
    return {};
  }
  bool HasPreFilterExtensions() const override { return true; }
  Status AddPod(CycleState&, const api::Pod& pod_to_schedule, const api::Pod&,
                const NodeInfo& node) override {
    if (ErrorNode(node)) {
      return Status::Error("failed to add pod: " + pod_to_schedule.name);
    }
    return Status::Success();
  }
  Status RemovePod(CycleState&, const api::Pod& pod_to_schedule,
                   const api::Pod&, const NodeInfo& node) override {
    if (ErrorNode(node)) {
      return Status::Error("failed to remove pod: " + pod_to_schedule.name);
    }
    return Status::Success();
  }
  Status Filter(CycleState&, const api::Pod&, const NodeInfo&) override {
    return Status::Success();
  }

 private:
  static bool ErrorNode(const NodeInfo& node) {
    auto it = node.node->labels.find("error");
    return it != node.node->labels.end() && it->second == "true";
  }
};

class FakeBinder final : public BindPlugin {
 public:
  std::string Name() const override { return "DefaultBinder"; }
  Status Bind(CycleState&, const api::Pod&, const std::string&) override {
    return Status::Success();
  }
};

// A cluster, its framework (as the handle's runner) and the plugin.
struct Env {
  preemption::testing::TestHandle handle;
  std::unique_ptr<Framework> framework;
  std::unique_ptr<DefaultPreemption> plugin;

  std::vector<const NodeInfo*> Nodes() const {
    std::vector<const NodeInfo*> out;
    for (const NodeInfo& n : handle.snapshot.List()) out.push_back(&n);
    return out;
  }
};

std::unique_ptr<Env> MakeEnv(const std::vector<api::Pod>& pods,
                             const std::vector<api::Node>& nodes,
                             std::vector<std::string> filter_plugins = {
                                 "NodeResourcesFit", "test-plugin"},
                             DefaultPreemptionArgs args = {}) {
  auto env = std::make_unique<Env>();
  env->handle.snapshot = preemption::testing::MakeSnapshot(pods, nodes);
  Registry registry;
  auto add = [&registry](const std::string& name, PluginFactory f) {
    EXPECT_TRUE(registry.Register(name, std::move(f)).ok());
  };
  add("PrioritySort", queuesort::PrioritySort::New);
  add("NodeResourcesFit", noderesources::Fit::New);
  add("InterPodAffinity", interpodaffinity::InterPodAffinity::New);
  add("PodTopologySpread", podtopologyspread::PodTopologySpread::New);
  add("test-plugin", [](const nlohmann::json&, Handle*)
                         -> StatusOr<std::unique_ptr<Plugin>> {
    return std::unique_ptr<Plugin>(new TestPlugin());
  });
  add("DefaultBinder", [](const nlohmann::json&, Handle*)
                           -> StatusOr<std::unique_ptr<Plugin>> {
    return std::unique_ptr<Plugin>(new FakeBinder());
  });
  api::Profile profile;
  api::Plugins plugins;
  plugins.multi_point.enabled.push_back({"PrioritySort", 0});
  for (const std::string& p : filter_plugins) {
    plugins.multi_point.enabled.push_back({p, 0});
  }
  plugins.multi_point.enabled.push_back({"DefaultBinder", 0});
  profile.plugin_config.push_back(
      {"PodTopologySpread", nlohmann::json{{"defaultingType", "List"}}});
  auto f = Framework::New(registry, profile, plugins, &env->handle);
  EXPECT_TRUE(f.ok()) << f.status().message();
  env->framework = std::move(f).value();
  env->handle.runner = env->framework.get();
  env->plugin = std::make_unique<DefaultPreemption>(args, &env->handle);
  for (const api::Pod& p : pods) env->handle.pods[p.Key()] = p;
  return env;
}

NodeToStatus Statuses(std::map<std::string, Code> codes) {
  NodeToStatus m;
  for (const auto& [node, code] : codes) {
    m.statuses[node] = Status(code, std::vector<std::string>{});
  }
  return m;
}

TEST(DefaultPreemptionTest, UpstreamPostFilter) {
  const Code kUn = Code::kUnschedulable;
  const Code kUnres = Code::kUnschedulableAndUnresolvable;
  auto pod = [](const std::string& name) {
    return MakePod().Name(name).UID(name).Namespace("default");
  };
  api::PodDisruptionBudget violating_pdb;
  violating_pdb.ns = "default";
  violating_pdb.name = "violating-pdb";
  violating_pdb.selector =
      api::LabelSelector{{{"test.kubernetes.io/is-violating-pdb", "violating"}}, {}};
  violating_pdb.disruptions_allowed = 0;
  api::PodDisruptionBudget non_violating_pdb = violating_pdb;
  non_violating_pdb.name = "non-violating-pdb";
  non_violating_pdb.selector = api::LabelSelector{
      {{"test.kubernetes.io/is-violating-pdb", "non-violating"}}, {}};
  non_violating_pdb.disruptions_allowed = INT32_MAX;

  struct Case {
    std::string name;
    api::Pod pod;
    std::vector<api::Pod> pods;
    std::vector<api::PodDisruptionBudget> pdbs;
    std::vector<api::Node> nodes;
    NodeToStatus statuses;
    std::optional<std::string> want_nominated;  // nullopt: no result
    Status want_status;
  };
  std::vector<Case> cases = {
      {"pod with higher priority can be made schedulable",
       pod("p").Priority(kHigh).Obj(), {pod("p1").Node("node1").Obj()}, {},
       {MakeNode().Name("node1").Capacity(kOnePod).Obj()},
       Statuses({{"node1", kUn}}), "node1", Status::Success()},
      {"pod with tied priority is still unschedulable", pod("p").Obj(),
       {pod("p1").Node("node1").Obj()}, {},
       {MakeNode().Name("node1").Capacity(kOnePod).Obj()},
       Statuses({{"node1", kUn}}), "",
       Status(kUn, "preemption: 0/1 nodes are available: 1 No preemption "
                   "victims found for incoming pod.")},
      {"preemption should respect filteredNodesStatuses",
       pod("p").Priority(kHigh).Obj(), {pod("p1").Node("node1").Obj()}, {},
       {MakeNode().Name("node1").Capacity(kOnePod).Obj()},
       Statuses({{"node1", kUnres}}), "",
       Status(kUn, "preemption: 0/1 nodes are available: 1 Preemption is not "
                   "helpful for scheduling.")},
      {"preemption should respect absent NodeToStatusReader entry meaning "
       "UnschedulableAndUnresolvable",
       pod("p").Priority(kHigh).Obj(), {pod("p1").Node("node1").Obj()}, {},
       {MakeNode().Name("node1").Capacity(kOnePod).Obj()}, NodeToStatus{}, "",
       Status(kUn, "preemption: 0/1 nodes are available: 1 Preemption is not "
                   "helpful for scheduling.")},
      {"pod can be made schedulable on one node", pod("p").Priority(kMid).Obj(),
       {pod("p1").Priority(kHigh).Node("node1").Obj(),
        pod("p2").Priority(kLow).Node("node2").Obj()},
       {},
       {MakeNode().Name("node1").Capacity(kOnePod).Obj(),
        MakeNode().Name("node2").Capacity(kOnePod).Obj()},
       Statuses({{"node1", kUn}, {"node2", kUn}}), "node2", Status::Success()},
      {"pod can be made schedulable on minHighestPriority node",
       pod("p").Priority(kVeryHigh).Obj(),
       {pod("p1").Label("test.kubernetes.io/is-violating-pdb", "non-violating")
            .Priority(kHigh).Node("node1").Obj(),
        pod("p2").Label("test.kubernetes.io/is-violating-pdb", "violating")
            .Priority(kLow).Node("node1").Obj(),
        pod("p3").Label("test.kubernetes.io/is-violating-pdb", "violating")
            .Priority(kMid).Node("node2").Obj()},
       {violating_pdb, non_violating_pdb},
       {MakeNode().Name("node1").Capacity(kOnePod).Obj(),
        MakeNode().Name("node2").Capacity(kOnePod).Obj()},
       Statuses({{"node1", kUn}, {"node2", kUn}}), "node2", Status::Success()},
      {"no candidate nodes found, no enough resource after removing low "
       "priority pods",
       pod("p").Priority(kHigh).Req(kLarge).Obj(),
       {pod("p1").Node("node1").Obj(), pod("p2").Node("node2").Obj()}, {},
       {MakeNode().Name("node1").Capacity(kNodeRes).Obj(),
        MakeNode().Name("node2").Capacity(kNodeRes).Obj()},
       Statuses({{"node1", kUn}, {"node2", kUn}}), "",
       Status(kUn, "preemption: 0/2 nodes are available: 2 Insufficient cpu.")},
      {"no candidate nodes found with mixed reasons, no lower priority pod and "
       "no enough CPU resource",
       pod("p").Priority(kHigh).Req(kLarge).Obj(),
       {pod("p1").Node("node1").Priority(kHigh).Obj(),
        pod("p2").Node("node2").Obj(),
        pod("p3").Node("node3").Priority(kHigh).Obj()},
       {},
       {MakeNode().Name("node1").Capacity(kOnePod).Obj(),
        MakeNode().Name("node2").Capacity(kNodeRes).Obj(),
        MakeNode().Name("node3").Capacity(kOnePod).Obj()},
       Statuses({{"node1", kUn}, {"node2", kUn}, {"node3", kUn}}), "",
       Status(kUn, "preemption: 0/3 nodes are available: 1 Insufficient cpu, 2 "
                   "No preemption victims found for incoming pod.")},
      {"no candidate nodes found with mixed reason, 2 "
       "UnschedulableAndUnresolvable nodes and 2 nodes don't have enough CPU "
       "resource",
       pod("p").Priority(kHigh).Req(kLarge).Obj(),
       {pod("p1").Node("node1").Obj(), pod("p2").Node("node2").Obj()}, {},
       {MakeNode().Name("node1").Capacity(kNodeRes).Obj(),
        MakeNode().Name("node2").Capacity(kNodeRes).Obj(),
        MakeNode().Name("node3").Capacity(kNodeRes).Obj(),
        MakeNode().Name("node4").Capacity(kNodeRes).Obj()},
       Statuses({{"node1", kUn}, {"node2", kUn}, {"node4", kUnres}}), "",
       Status(kUn, "preemption: 0/4 nodes are available: 2 Insufficient cpu, 2 "
                   "Preemption is not helpful for scheduling.")},
      {"only one node but failed with TestPlugin",
       pod("p").Priority(kHigh).Req(kLarge).Obj(),
       {pod("p1").Node("node1").Obj()}, {},
       {MakeNode().Name("node1").Capacity(kLarge).Label("error", "true").Obj()},
       Statuses({{"node1", kUn}}), std::nullopt,
       Status::Error("preemption: running RemovePod on PreFilter plugin "
                     "\"test-plugin\": failed to remove pod: p")},
      {"one failed with TestPlugin and the other pass",
       pod("p").Priority(kHigh).Req(kLarge).Obj(),
       {pod("p1").Node("node1").Obj(), pod("p2").Node("node2").Req(kMedium).Obj()},
       {},
       {MakeNode().Name("node1").Capacity(kLarge).Label("error", "true").Obj(),
        MakeNode().Name("node2").Capacity(kLarge).Obj()},
       Statuses({{"node1", kUn}, {"node2", kUn}}), "node2", Status::Success()},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    auto env = MakeEnv(c.pods, c.nodes);
    env->handle.pods[c.pod.Key()] = c.pod;
    env->handle.pdbs = c.pdbs;
    CycleState state;
    std::set<std::string> with_nodes;
    ASSERT_TRUE(env->framework->RunPreFilterPlugins(state, c.pod, env->Nodes(),
                                                    &with_nodes)
                    .status.IsSuccess());
    PostFilterOutput out = env->plugin->PostFilter(state, c.pod, c.statuses);
    EXPECT_EQ(out.status.code(), c.want_status.code());
    EXPECT_EQ(out.status.Message(), c.want_status.Message());
    ASSERT_EQ(out.result.has_value(), c.want_nominated.has_value());
    if (out.result) {
      EXPECT_EQ(out.result->nominated_node_name, c.want_nominated);
    }
  }
}

// Victims of the chosen node are preempted, most important first, and
// lower-priority pods nominated to it lose their nomination.
TEST(DefaultPreemptionTest, PreparesTheCandidate) {
  const api::Pod p = MakePod().Name("p").Priority(kHigh).Req(kLarge).Obj();
  auto env = MakeEnv(
      {MakePod().Name("v1").Node("node1").Priority(kLow).Req(kSmall).Obj(),
       MakePod().Name("v2").Node("node1").Priority(kMid).Req(kMedium).Obj()},
      {MakeNode().Name("node1").Capacity({{"cpu", "300m"}, {"memory", "1000"}})
           .Obj()});
  env->handle.pods[p.Key()] = p;
  env->handle.nominated["node1"] = {
      MakePod().Name("lower").Priority(kMid).NominatedNodeName("node1").Obj()};
  CycleState state;
  std::set<std::string> with_nodes;
  ASSERT_TRUE(env->framework->RunPreFilterPlugins(state, p, env->Nodes(),
                                                  &with_nodes)
                  .status.IsSuccess());
  PostFilterOutput out = env->plugin->PostFilter(
      state, p, Statuses({{"node1", Code::kUnschedulable}}));
  EXPECT_TRUE(out.status.IsSuccess()) << out.status.Message();
  ASSERT_TRUE(out.result.has_value());
  EXPECT_EQ(out.result->nominated_node_name, "node1");
  EXPECT_EQ(env->handle.preempted,
            (std::vector<std::pair<std::string, std::string>>{
                {"default/v2", "default/p"}, {"default/v1", "default/p"}}));
  EXPECT_EQ(env->handle.cleared_nominations,
            std::vector<std::string>{"default/lower"});
}

// upstream TestDryRunPreemption ("a pod that fits on both nodes when lower
// priority pods are preempted", "... other pods running are higher
// priority, no preemption would happen"), and the reprieve order.
TEST(DefaultPreemptionTest, UpstreamDryRunAndReprieve) {
  {
    auto env = MakeEnv(
        {MakePod().Name("p1").Node("node1").Priority(kMid).Req(kLarge).Obj(),
         MakePod().Name("p2").Node("node2").Priority(kMid).Req(kLarge).Obj()},
        {MakeNode().Name("node1").Capacity(kLarge).Obj(),
         MakeNode().Name("node2").Capacity(kLarge).Obj()});
    const api::Pod p = MakePod().Name("p").Priority(kHigh).Req(kLarge).Obj();
    CycleState state;
    std::set<std::string> with_nodes;
    (void)env->framework->RunPreFilterPlugins(state, p, env->Nodes(), &with_nodes);
    preemption::Evaluator ev(&env->handle, env->plugin.get());
    preemption::DryRunResult r =
        ev.DryRunPreemption(state, p, env->Nodes(), {}, 0, 2);
    ASSERT_EQ(r.candidates.size(), 2u);
    EXPECT_EQ(r.candidates[0].name, "node1");
    EXPECT_EQ(r.candidates[0].victims.pods[0].name, "p1");
    EXPECT_EQ(r.candidates[1].name, "node2");
    const api::Pod low = MakePod().Name("p").Priority(kLow).Req(kLarge).Obj();
    r = ev.DryRunPreemption(state, low, env->Nodes(), {}, 0, 2);
    EXPECT_TRUE(r.candidates.empty());
  }
  // Reprieve: most important first; PDB-violating pods are reprieved first.
  auto victims_of = [](std::vector<api::PodDisruptionBudget> pdbs,
                       const std::string& cpu) {
    auto env = MakeEnv(
        {MakePod().Name("a").Node("n").Priority(1).StartTime(1)
             .Label("app", "a").Req({{"cpu", "300m"}}).Obj(),
         MakePod().Name("b").Node("n").Priority(2).Req({{"cpu", "300m"}}).Obj(),
         MakePod().Name("c").Node("n").Priority(1).StartTime(2)
             .Req({{"cpu", "300m"}}).Obj()},
        {MakeNode().Name("n").Capacity({{"cpu", cpu}}).Obj()});
    const api::Pod p = MakePod().Name("p").Priority(10).Req({{"cpu", "400m"}}).Obj();
    CycleState state;
    std::set<std::string> with_nodes;
    (void)env->framework->RunPreFilterPlugins(state, p, env->Nodes(), &with_nodes);
    NodeInfo node = env->handle.snapshot.List()[0];
    preemption::SelectVictimsResult r =
        env->plugin->SelectVictimsOnNode(state, p, node, pdbs);
    EXPECT_TRUE(r.status.IsSuccess());
    std::vector<std::string> names;
    for (const api::Pod& v : r.victims) names.push_back(v.name);
    return std::make_pair(names, r.num_violating_victims);
  };
  EXPECT_EQ(victims_of({}, "1"),
            std::make_pair(std::vector<std::string>{"c"}, 0));
  EXPECT_EQ(victims_of({}, "800m"),
            std::make_pair(std::vector<std::string>{"a", "c"}, 0));
  api::PodDisruptionBudget pdb;
  pdb.ns = "default";
  pdb.selector = api::LabelSelector{{{"app", "a"}}, {}};
  EXPECT_EQ(victims_of({pdb}, "800m"),
            std::make_pair(std::vector<std::string>{"b", "c"}, 0));
  EXPECT_EQ(victims_of({pdb}, "400m"),
            std::make_pair(std::vector<std::string>{"b", "a", "c"}, 1));
}

// RemovePod extensions make victims' anti-affinity and spreading go away
// in the dry run.
TEST(DefaultPreemptionTest, DryRunUsesRemovePodExtensions) {
  const api::Node node = MakeNode().Name("n").Label("kubernetes.io/hostname", "n")
                             .Label("zone", "z").Obj();
  api::PodAffinityTerm anti;
  anti.label_selector = api::LabelSelector{{{"app", "x"}}, {}};
  anti.topology_key = "kubernetes.io/hostname";
  const api::Pod p = MakePod().Name("p").Priority(kHigh).PodAntiAffinityTerm(anti)
                         .Obj();
  auto env = MakeEnv({MakePod().Name("x").Node("n").Label("app", "x").Obj()},
                     {node}, {"InterPodAffinity"});
  env->handle.pods[p.Key()] = p;
  CycleState state;
  std::set<std::string> with_nodes;
  ASSERT_TRUE(env->framework->RunPreFilterPlugins(state, p, env->Nodes(),
                                                  &with_nodes)
                  .status.IsSuccess());
  PostFilterOutput out =
      env->plugin->PostFilter(state, p, Statuses({{"n", Code::kUnschedulable}}));
  EXPECT_TRUE(out.status.IsSuccess()) << out.status.Message();
  EXPECT_EQ(env->handle.preempted.size(), 1u);
}

TEST(DefaultPreemptionTest, UpstreamPodEligibleToPreemptOthers) {
  auto env = MakeEnv(
      {MakePod().Name("victim").Node("node1").Priority(kLow).Terminating()
           .Condition("DisruptionTarget", "True", "PreemptionByScheduler").Obj(),
       MakePod().Name("high").Node("node2").Priority(kVeryHigh).Terminating()
           .Condition("DisruptionTarget", "True", "PreemptionByScheduler").Obj(),
       // Terminating, but not because of preemption.
       MakePod().Name("deleted").Node("node3").Priority(kLow).Terminating().Obj(),
       MakePod().Name("other-reason").Node("node4").Priority(kLow).Terminating()
           .Condition("DisruptionTarget", "True", "DeletionByTaintManager").Obj()},
      {MakeNode().Name("node1").Obj(), MakeNode().Name("node2").Obj(),
       MakeNode().Name("node3").Obj(), MakeNode().Name("node4").Obj()});
  const Status unsched(Code::kUnschedulable, std::vector<std::string>{});
  const Status unres(Code::kUnschedulableAndUnresolvable,
                     std::vector<std::string>{});
  struct Case {
    std::string name;
    api::Pod pod;
    Status nominated_status;
    bool want;
    std::string reason;
  };
  std::vector<Case> cases = {
      {"Pod with nominated node", MakePod().Name("p").Priority(kHigh)
           .NominatedNodeName("node1").Obj(),
       unsched, false, kNotEligibleTerminating},
      {"Pod with nominated node, but without nominated node status",
       MakePod().Name("p").Priority(kHigh).NominatedNodeName("node1").Obj(),
       Status(), false, kNotEligibleTerminating},
      {"Pod without nominated node", MakePod().Name("p").Priority(kHigh).Obj(),
       unsched, true, ""},
      {"Pod with 'PreemptNever' preemption policy",
       MakePod().Name("p").Priority(kHigh).PreemptionPolicy("Never").Obj(),
       unsched, false, kNotEligibleNever},
      {"preemption victim pod terminating, as indicated by the dry-run on an "
       "UnschedulableAndUnresolvable nominated node",
       MakePod().Name("p").Priority(kHigh).NominatedNodeName("node1").Obj(),
       unres, true, ""},
      {"terminating pod of higher priority does not block",
       MakePod().Name("p").Priority(kHigh).NominatedNodeName("node2").Obj(),
       unsched, true, ""},
      {"a pod terminating without the DisruptionTarget condition does not block",
       MakePod().Name("p").Priority(kHigh).NominatedNodeName("node3").Obj(),
       unsched, true, ""},
      {"a DisruptionTarget condition for another reason does not block",
       MakePod().Name("p").Priority(kHigh).NominatedNodeName("node4").Obj(),
       unsched, true, ""},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    auto [eligible, reason] =
        env->plugin->PodEligibleToPreemptOthers(c.pod, c.nominated_status);
    EXPECT_EQ(eligible, c.want);
    EXPECT_EQ(reason, c.reason);
  }
  // Through PostFilter: Unschedulable, no result (nomination kept).
  const api::Pod never =
      MakePod().Name("n").Priority(kHigh).PreemptionPolicy("Never").Obj();
  env->handle.pods[never.Key()] = never;
  CycleState state;
  PostFilterOutput out = env->plugin->PostFilter(state, never, NodeToStatus{});
  EXPECT_FALSE(out.result.has_value());
  EXPECT_EQ(out.status, Status(Code::kUnschedulable,
                               "preemption: not eligible due to "
                               "preemptionPolicy=Never."));
}

TEST(DefaultPreemptionTest, FilterPodsWithPDBViolation) {
  api::PodDisruptionBudget pdb;
  pdb.ns = "default";
  pdb.name = "pdb";
  pdb.selector = api::LabelSelector{{{"app", "a"}}, {}};
  pdb.disruptions_allowed = 1;
  auto a = [](const std::string& name, const std::string& ns = "default") {
    return MakePod().Name(name).Namespace(ns).Label("app", "a").Obj();
  };
  auto names = [](const std::vector<api::Pod>& pods) {
    std::vector<std::string> out;
    for (const api::Pod& p : pods) out.push_back(p.name);
    return out;
  };
  // One disruption allowed: the second matching pod violates.
  auto [v, nv] = FilterPodsWithPDBViolation({a("p1"), a("p2"), a("p3", "other")},
                                            {pdb});
  EXPECT_EQ(names(v), std::vector<std::string>{"p2"});
  EXPECT_EQ(names(nv), (std::vector<std::string>{"p1", "p3"}));
  // Already disrupted pods do not take from the budget.
  pdb.disrupted_pods = {"p1"};
  std::tie(v, nv) = FilterPodsWithPDBViolation({a("p1"), a("p2")}, {pdb});
  EXPECT_TRUE(v.empty());
  // An empty selector matches nothing.
  pdb.selector = api::LabelSelector{};
  pdb.disruptions_allowed = 0;
  std::tie(v, nv) = FilterPodsWithPDBViolation({a("p1"), a("p2")}, {pdb});
  EXPECT_TRUE(v.empty());
}

TEST(DefaultPreemptionTest, UpstreamNumCandidates) {
  // upstream TestCalculateNumCandidates.
  struct NumCase {
    std::string name;
    int32_t pct, abs, nodes, want;
  };
  std::vector<NumCase> num = {
      {"no nodes", 10, 100, 0, 0},
      {"nodes < minCandidateNodesAbsolute", 10, 100, 50, 50},
      {"nodes > minCandidateNodesAbsolute", 10, 100, 200, 100},
      {"nodes > minCandidateNodesAbsolute and percentage > absolute", 50, 100,
       1000, 500},
      {"nodes < minCandidateNodesAbsolute and percentage >= absolute", 10, 100,
       100, 100},
  };
  preemption::testing::TestHandle handle;
  for (const NumCase& c : num) {
    SCOPED_TRACE(c.name);
    DefaultPreemption pl({c.pct, c.abs}, &handle);
    EXPECT_EQ(pl.CalculateNumCandidates(c.nodes), c.want);
  }
  // The offset draws from the handle's RNG.
  handle.random_values = {7};
  DefaultPreemption pl({}, &handle);
  EXPECT_EQ(pl.GetOffsetAndNumCandidates(5), std::make_pair(2, 5));
}

}  // namespace
}  // namespace schedref::reference::framework::plugins::defaultpreemption
