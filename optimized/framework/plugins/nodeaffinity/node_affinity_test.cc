#include "optimized/framework/plugins/nodeaffinity/node_affinity.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "optimized/framework/testing/fixtures.h"
#include "testing/st/wrappers.h"

namespace schedref::optimized::framework::plugins::nodeaffinity {
namespace {

using st::MakeNode;
using st::MakePod;
using testing::MakeNodeInfo;

api::NodeSelectorRequirement R(std::string key, std::string op,
                               std::vector<std::string> values = {}) {
  return {std::move(key), std::move(op), std::move(values)};
}

api::NodeSelectorTerm Exprs(std::vector<api::NodeSelectorRequirement> e) {
  return {std::move(e), {}};
}
api::NodeSelectorTerm Fields(std::vector<api::NodeSelectorRequirement> f) {
  return {{}, std::move(f)};
}

api::Pod PodWithRequired(std::vector<api::NodeSelectorTerm> terms,
                         api::Labels node_selector = {}) {
  return MakePod()
      .NodeSelector(node_selector)
      .RequiredNodeAffinity(api::NodeSelector{std::move(terms)})
      .Obj();
}

NodeAffinityArgs AddedRequired(std::vector<api::NodeSelectorTerm> terms) {
  NodeAffinityArgs args;
  args.added_affinity.emplace();
  args.added_affinity->required = api::NodeSelector{std::move(terms)};
  return args;
}


// PreFilter's compiled state survives a CycleState copy (preemption and the
// nominated-pods pass filter with clones).
TEST(NodeAffinityTest, PreFilterStateIsCloned) {
  NodeAffinity plugin({});
  const PodInfoPtr pod =
      NewPodInfo(PodWithRequired({Exprs({R("zone", "In", {"a"})})}));
  CycleState state;
  ASSERT_TRUE(plugin.PreFilter(state, *pod, {}).status.IsSuccess());
  const CycleState copy = state;
  state = CycleState();
  EXPECT_TRUE(plugin.Filter(copy, *pod,
                            MakeNodeInfo(MakeNode().Name("n").Label("zone", "a").Obj()))
                  .IsSuccess());
  EXPECT_EQ(plugin.Filter(copy, *pod,
                          MakeNodeInfo(MakeNode().Name("n").Label("zone", "b").Obj())),
            Status(Code::kUnschedulableAndUnresolvable, kErrReasonPod));
}

api::PreferredSchedulingTerm Pref(int32_t weight,
                                  std::vector<api::NodeSelectorRequirement> e) {
  return {weight, Exprs(std::move(e))};
}

api::Pod PodWithPreferred(const std::vector<api::PreferredSchedulingTerm>& terms) {
  st::PodWrapper w = MakePod();
  for (const auto& t : terms) w.PreferredNodeAffinity(t.weight, t.preference);
  return w.Obj();
}

NodeAffinityArgs AddedPreferred(std::vector<api::PreferredSchedulingTerm> terms) {
  NodeAffinityArgs args;
  args.added_affinity.emplace();
  args.added_affinity->preferred = std::move(terms);
  return args;
}

// The reference's table (upstream TestNodeAffinityPriority). Raw scores are
// also taken without PreScore (upstream's fallback) and must agree.
TEST(NodeAffinityTest, Score) {
  const api::Labels label1 = {{"foo", "bar"}};
  const api::Labels label2 = {{"key", "value"}};
  const api::Labels label3 = {{"az", "az1"}};
  const api::Labels label4 = {{"abc", "az11"}, {"def", "az22"}};
  const api::Labels label5 = {{"foo", "bar"}, {"key", "value"}, {"az", "az1"}};
  const std::vector<api::PreferredSchedulingTerm> affinity1 = {
      Pref(2, {R("foo", "In", {"bar"})})};
  const std::vector<api::PreferredSchedulingTerm> affinity2 = {
      Pref(2, {R("foo", "In", {"bar"})}), Pref(4, {R("key", "In", {"value"})}),
      Pref(5, {R("foo", "In", {"bar"}), R("key", "In", {"value"}),
               R("az", "In", {"az1"})})};
  struct Case {
    std::string name;
    api::Pod pod;
    std::vector<std::pair<std::string, api::Labels>> nodes;
    std::vector<int64_t> expected;
    NodeAffinityArgs args;
    Status want_pre_score;
  };
  const std::vector<Case> cases = {
      {"Skip is returned in PreScore when NodeAffinity is nil",
       MakePod().Obj(), {{"node1", label1}}, {}, {}, Status::Skip()},
      {"no node matches preferred scheduling requirements in NodeAffinity of "
       "pod so all nodes' priority is zero",
       PodWithPreferred(affinity1),
       {{"node1", label4}, {"node2", label2}, {"node3", label3}},
       {0, 0, 0}, {}, {}},
      {"only node1 matches the preferred scheduling requirements of pod",
       PodWithPreferred(affinity1),
       {{"node1", label1}, {"node2", label2}, {"node3", label3}},
       {100, 0, 0}, {}, {}},
      {"all nodes matches the preferred scheduling requirements of pod but "
       "with different priorities ",
       PodWithPreferred(affinity2),
       {{"node1", label1}, {"node5", label5}, {"node2", label2}},
       {18, 100, 36}, {}, {}},
      {"added affinity", MakePod().Obj(),
       {{"node1", label1}, {"node2", label2}}, {100, 0},
       AddedPreferred(affinity1), {}},
      {"added affinity and pod has default affinity",
       PodWithPreferred(affinity1),
       {{"node1", label1}, {"node2", label2}, {"node3", label5}},
       {40, 60, 100}, AddedPreferred({Pref(3, {R("key", "In", {"value"})})}),
       {}},
      // Ours.
      {"weight-0 and empty terms are dropped",
       PodWithPreferred({Pref(0, {R("foo", "In", {"bar"})}), {7, {}},
                         Pref(1, {R("key", "Exists")})}),
       {{"node1", label1}, {"node2", label2}}, {0, 100}, {}, {}},
      {"added affinity with only zero-weight terms still scores",
       MakePod().Obj(), {{"node1", label1}}, {0},
       AddedPreferred({Pref(0, {R("foo", "In", {"bar"})})}), {}},
      {"added required affinity alone skips scoring", MakePod().Obj(),
       {{"node1", label1}}, {}, AddedRequired({Exprs({R("foo", "Exists")})}),
       Status::Skip()},
  };
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    ASSERT_TRUE(api::pluginargs::ValidateNodeAffinityArgs(tc.args).ok());
    NodeAffinity plugin(tc.args);
    const PodInfoPtr pod = NewPodInfo(tc.pod);
    std::vector<NodeInfo> infos;
    for (const auto& [name, labels] : tc.nodes) {
      infos.push_back(MakeNodeInfo(MakeNode().Name(name).Labels(labels).Obj()));
    }
    std::vector<const NodeInfo*> ptrs;
    for (const NodeInfo& i : infos) ptrs.push_back(&i);
    CycleState state;
    ASSERT_EQ(plugin.PreScore(state, *pod, ptrs), tc.want_pre_score);
    if (!tc.want_pre_score.IsSuccess()) continue;
    std::vector<int64_t> scores;
    for (const NodeInfo& info : infos) {
      ScoreOutput out = plugin.Score(state, *pod, info);
      ASSERT_TRUE(out.status.IsSuccess());
      ScoreOutput fallback = plugin.Score(CycleState(), *pod, info);
      ASSERT_TRUE(fallback.status.IsSuccess());
      EXPECT_EQ(fallback.score, out.score);
      scores.push_back(out.score);
    }
    ASSERT_TRUE(plugin.NormalizeScore(state, *pod, ptrs, scores).IsSuccess());
    EXPECT_EQ(scores, tc.expected);
  }
}

// Upstream: "PreScore returns error when an incoming Pod has a broken
// affinity". The problem text is api/types/labels.h's; the path is upstream's.
TEST(NodeAffinityTest, PreScoreBrokenAffinity) {
  const PodInfoPtr pod = NewPodInfo(
      MakePod()
          .PreferredNodeAffinity(0, Exprs({R("ignored key", "In", {"x"})}))
          .PreferredNodeAffinity(2, Exprs({R("invalid key", "In", {"bar"})}))
          .PreferredNodeAffinity(3, Exprs({R("ok", "Gt", {"x"})}))
          .Obj());
  NodeAffinity plugin({});
  CycleState state;
  const Status s = plugin.PreScore(state, *pod, {});
  EXPECT_EQ(s.code(), Code::kError);
  EXPECT_EQ(s.Message().rfind("[[1].matchExpressions[0].key: ", 0), 0u)
      << s.Message();
  EXPECT_NE(s.Message().find(", [2].matchExpressions[0].values[0]: "),
            std::string::npos)
      << s.Message();
  // Score without PreScore reports the same error.
  const ScoreOutput out =
      plugin.Score(state, *pod, MakeNodeInfo(MakeNode().Name("n").Obj()));
  EXPECT_EQ(out.status, s);

  StatusOr<std::vector<CompiledPreferredTerm>> one = CompilePreferredTerms(
      {Pref(2, {R("invalid key", "In", {"bar"})})});
  ASSERT_FALSE(one.ok());
  EXPECT_EQ(one.status().message().rfind("[0].matchExpressions[0].key: ", 0), 0u)
      << one.status().message();
}

struct HintCase {
  std::string name;
  NodeAffinityArgs args;
  std::optional<api::Node> old_node, new_node;
  QueueingHint expected;
  bool want_err = false;
};

StatusOr<QueueingHint> RunHint(const HintCase& tc, const api::Pod& pod) {
  NodeAffinity plugin(tc.args);
  EventObjects objects;
  objects.old_node = tc.old_node ? &*tc.old_node : nullptr;
  objects.new_node = tc.new_node ? &*tc.new_node : nullptr;
  return plugin.IsSchedulableAfterNodeChange(pod, objects);
}

// Upstream Test_isSchedulableAfterNodeChange.
TEST(NodeAffinityTest, IsSchedulableAfterNodeChange) {
  const api::Pod pod = MakePod().NodeAffinityIn("foo", {"bar"}).Obj();
  const NodeAffinityArgs enforced =
      AddedRequired({Exprs({R("foo", "In", {"bar"})})});
  const std::vector<HintCase> cases = {
      {"skip-queue-on-add", {}, {}, MakeNode().Obj(), QueueingHint::kSkip},
      {"queue-on-add", {}, {}, MakeNode().Label("foo", "bar").Obj(),
       QueueingHint::kQueue},
      {"skip-unrelated-changes", {}, MakeNode().Obj(),
       MakeNode().Capacity({}).Obj(), QueueingHint::kSkip},
      {"skip-unrelated-changes-on-labels", {}, MakeNode().Obj(),
       MakeNode().Label("k", "v").Obj(), QueueingHint::kSkip},
      {"skip-labels-changes-on-node-from-suitable-to-unsuitable", {},
       MakeNode().Label("foo", "bar").Obj(), MakeNode().Label("k", "v").Obj(),
       QueueingHint::kSkip},
      {"queue-on-labels-change-makes-pod-schedulable", {}, MakeNode().Obj(),
       MakeNode().Label("foo", "bar").Obj(), QueueingHint::kQueue},
      {"skip-queue-on-add-scheduler-enforced-node-affinity", enforced, {},
       MakeNode().Obj(), QueueingHint::kSkip},
      {"queue-on-add-scheduler-enforced-node-affinity", enforced, {},
       MakeNode().Label("foo", "bar").Obj(), QueueingHint::kQueue},
      // Ours.
      {"skip-already-matching", {}, MakeNode().Label("foo", "bar").Obj(),
       MakeNode().Label("foo", "bar").Label("k", "v").Obj(),
       QueueingHint::kSkip},
      {"skip-on-delete", {}, MakeNode().Label("foo", "bar").Obj(), {},
       QueueingHint::kSkip},
  };
  for (const HintCase& tc : cases) {
    SCOPED_TRACE(tc.name);
    StatusOr<QueueingHint> got = RunHint(tc, pod);
    ASSERT_TRUE(got.ok()) << got.status().message();
    EXPECT_EQ(*got, tc.expected);
  }
}

// A required term that does not parse makes the hint an error (Queue) when
// nothing matches, as nodeaffinity.RequiredNodeAffinity.Match reports; a
// nodeSelector mismatch is decided before the terms are looked at.
TEST(NodeAffinityTest, HintErrorOnUnparsableTerm) {
  const api::Pod pod = PodWithRequired({Exprs({R("foo", "Gt", {"x"})})});
  StatusOr<QueueingHint> got =
      RunHint({"", {}, {}, MakeNode().Obj(), QueueingHint::kSkip}, pod);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().message().rfind(
                "nodeSelectorTerms[0].matchExpressions[0].values[0]: ", 0),
            0u)
      << got.status().message();

  const api::Pod matching_other_term = PodWithRequired(
      {Exprs({R("foo", "Gt", {"x"})}), Exprs({R("zone", "Exists")})});
  got = RunHint({"", {}, {}, MakeNode().Label("zone", "a").Obj(),
                 QueueingHint::kSkip},
                matching_other_term);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(*got, QueueingHint::kQueue);

  const api::Pod with_selector = PodWithRequired(
      {Exprs({R("foo", "Gt", {"x"})})}, {{"zone", "a"}});
  got = RunHint({"", {}, {}, MakeNode().Obj(), QueueingHint::kSkip},
                with_selector);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(*got, QueueingHint::kSkip);
}

TEST(NodeAffinityTest, NewDecodesArgs) {
  auto plugin = NodeAffinity::New(nlohmann::json::object(), nullptr);
  ASSERT_TRUE(plugin.ok());
  EXPECT_EQ((*plugin)->Name(), "NodeAffinity");

  auto enforced = NodeAffinity::New(nlohmann::json::parse(R"({
    "addedAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
      "nodeSelectorTerms": [{"matchExpressions":
          [{"key": "zone", "operator": "In", "values": ["a"]}]}]}}})"),
                                    nullptr);
  ASSERT_TRUE(enforced.ok()) << enforced.status().message();
  auto* filter = dynamic_cast<FilterPlugin*>(enforced->get());
  ASSERT_NE(filter, nullptr);
  EXPECT_EQ(filter->Filter(CycleState(), *NewPodInfo(MakePod().Obj()),
                           MakeNodeInfo(MakeNode().Name("n").Label("zone", "b").Obj())),
            Status(Code::kUnschedulableAndUnresolvable, kErrReasonEnforced));

  auto unknown = NodeAffinity::New(nlohmann::json{{"foo", 1}}, nullptr);
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message(),
            "strict decoding error: unknown field \"foo\"");
  auto invalid = NodeAffinity::New(nlohmann::json::parse(R"({
    "addedAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
      {"weight": 1, "preference": {"matchExpressions":
          [{"key": "disk", "operator": "Gt", "values": ["x"]}]}}]}})"),
                                   nullptr);
  ASSERT_FALSE(invalid.ok());
  EXPECT_TRUE(invalid.status().IsInvalid());
}

TEST(NodeAffinityTest, EventsToRegister) {
  NodeAffinity plugin(AddedRequired({Exprs({R("foo", "In", {"bar"})})}));
  const std::vector<ClusterEventWithHint> events = plugin.EventsToRegister();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].event.resource, EventResource::kNode);
  EXPECT_EQ(events[0].event.action, kAdd | kUpdateNodeLabel);
  ASSERT_TRUE(static_cast<bool>(events[0].hint));
  // The hint is bound to this plugin's added affinity.
  const api::Node node = MakeNode().Label("foo", "baz").Obj();
  EventObjects objects;
  objects.new_node = &node;
  EXPECT_EQ(*events[0].hint(MakePod().Obj(), objects), QueueingHint::kSkip);
}

// The verdicts Filter keeps across cycles (node_affinity.h): one plugin
// with a handle, over cycles of a snapshot maintained the way the cache
// maintains it (cache-wide generations) while node labels change and the
// pods' selectors alternate, must filter like a plugin without a handle
// (which keeps nothing).
TEST(NodeAffinityTest, VerdictsAcrossCycles) {
  std::vector<api::Node> nodes;
  for (int i = 0; i < 12; ++i) {
    nodes.push_back(MakeNode()
                        .Name("n" + std::to_string(i))
                        .Label("zone", "z" + std::to_string(i % 3))
                        .Label("enforced", i % 4 == 0 ? "no" : "yes")
                        .Obj());
  }
  const std::vector<api::Pod> pods = {
      PodWithRequired({Exprs({R("zone", "In", {"z0", "z1"})})}),
      PodWithRequired({Exprs({R("zone", "In", {"z2"})})}),
      PodWithRequired({Exprs({R("zone", "In", {"z0", "z1"})})}, {{"zone", "z1"}}),
      PodWithRequired({Fields({R("metadata.name", "NotIn", {"n3"})})}),
  };
  const NodeAffinityArgs args = AddedRequired({Exprs({R("enforced", "In", {"yes"})})});
  testing::FakeHandle handle(testing::MakeSnapshot(nodes));
  auto* snapshot = const_cast<Snapshot*>(&handle.SnapshotSharedLister());
  int64_t generation = 0;
  for (NodeInfo* info : snapshot->List()) info->generation = ++generation;
  snapshot->generation = generation;
  NodeAffinity plugin(args, &handle);
  NodeAffinity oracle(args);
  uint32_t rng = 7;
  auto next = [&rng](uint32_t n) {
    rng = rng * 1103515245 + 12345;
    return (rng >> 16) % n;
  };
  int mismatches_seen = 0;
  for (int cycle = 0; cycle < 60; ++cycle) {
    SCOPED_TRACE("cycle " + std::to_string(cycle));
    if (next(3) == 0) {  // a node's labels change, as the cache publishes it
      NodeInfo& info = snapshot->Mutable(nodes[next(nodes.size())].name);
      auto changed = std::make_shared<api::Node>(*info.node());
      changed->labels["zone"] = "z" + std::to_string(next(3));
      changed->labels["enforced"] = next(4) == 0 ? "no" : "yes";
      info.SetNode(changed);
      info.generation = ++generation;
      snapshot->Rebuild({}, false);
      snapshot->generation = generation;
    }
    const PodInfoPtr pod = NewPodInfo(pods[next(cycle < 20 ? 1 : pods.size())]);
    CycleState state, oracle_state;
    ASSERT_TRUE(plugin.PreFilter(state, *pod, snapshot->List()).status.IsSuccess());
    ASSERT_TRUE(oracle.PreFilter(oracle_state, *pod, snapshot->List()).status.IsSuccess());
    for (int pass = 0; pass < 2; ++pass) {  // the second pass reads the verdicts
      for (const NodeInfo* info : snapshot->List()) {
        const Status want = oracle.Filter(oracle_state, *pod, *info);
        ASSERT_EQ(plugin.Filter(state, *pod, *info), want) << info->Name();
        if (!want.IsSuccess()) ++mismatches_seen;
        NodeInfo copy = *info;  // not the snapshot's: never kept
        ASSERT_EQ(plugin.Filter(state, *pod, copy), want) << info->Name() << " (copy)";
      }
    }
  }
  EXPECT_GT(mismatches_seen, 100);
}

}  // namespace
}  // namespace schedref::optimized::framework::plugins::nodeaffinity
