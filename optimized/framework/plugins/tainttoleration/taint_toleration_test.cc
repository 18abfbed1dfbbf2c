#include "optimized/framework/plugins/tainttoleration/taint_toleration.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "optimized/framework/testing/filter_pass_check.h"
#include "optimized/framework/testing/fixtures.h"
#include "testing/st/wrappers.h"

namespace schedref::optimized::framework::plugins::tainttoleration {
namespace {

using st::MakeNode;
using st::MakePod;
using testing::MakeNodeInfo;

api::Node NodeWithTaints(const std::string& name,
                         std::vector<api::Taint> taints) {
  return MakeNode().Name(name).Taints(std::move(taints)).Obj();
}

api::Pod PodWithTolerations(const std::string& name,
                            std::vector<api::Toleration> tolerations) {
  return MakePod().Name(name).Tolerations(std::move(tolerations)).Obj();
}

api::Toleration Tol(std::string key, std::string op, std::string value,
                    std::string effect) {
  return {std::move(key), std::move(op), std::move(value), std::move(effect),
          std::nullopt};
}

// PreScore, Score on every node, NormalizeScore: the normalized scores.
std::vector<int64_t> RunScore(TaintToleration& plugin, const api::Pod& pod,
                              const std::vector<api::Node>& nodes) {
  std::vector<NodeInfo> infos;
  for (const api::Node& n : nodes) infos.push_back(MakeNodeInfo(n));
  std::vector<const NodeInfo*> ptrs;
  for (const NodeInfo& i : infos) ptrs.push_back(&i);
  const PodInfoPtr pod_info = NewPodInfo(pod);
  CycleState state;
  EXPECT_TRUE(plugin.PreScore(state, *pod_info, ptrs).IsSuccess());
  std::vector<int64_t> scores;
  for (const NodeInfo& info : infos) {
    ScoreOutput out = plugin.Score(state, *pod_info, info);
    EXPECT_TRUE(out.status.IsSuccess());
    scores.push_back(out.score);
  }
  EXPECT_TRUE(plugin.NormalizeScore(state, *pod_info, ptrs, scores).IsSuccess());
  // Where the plugin says every node scores the same, it is what they score.
  const std::optional<int64_t> uniform =
      plugin.UniformScore(state, *pod_info, HotFlagsOf(ptrs.data(), ptrs.size()));
  if (uniform) {
    for (int64_t s : scores) EXPECT_EQ(s, *uniform);
  }
  return scores;
}

// The reference's table (upstream TestTaintTolerationScore plus its own).
TEST(TaintTolerationTest, Score) {
  struct Case {
    std::string name;
    api::Pod pod;
    std::vector<api::Node> nodes;
    std::vector<int64_t> expected;
  };
  const std::vector<Case> cases = {
      {"node with taints tolerated by the pod, gets a higher score than those "
       "node with intolerable taints",
       PodWithTolerations("pod1", {Tol("foo", "Equal", "bar", "PreferNoSchedule")}),
       {NodeWithTaints("nodeA", {{"foo", "bar", "PreferNoSchedule"}}),
        NodeWithTaints("nodeB", {{"foo", "blah", "PreferNoSchedule"}})},
       {100, 0}},
      {"the nodes that all of their taints are tolerated by the pod, get the "
       "same score, no matter how many tolerable taints a node has",
       PodWithTolerations("pod1",
                          {Tol("cpu-type", "Equal", "arm64", "PreferNoSchedule"),
                           Tol("disk-type", "Equal", "ssd", "PreferNoSchedule")}),
       {NodeWithTaints("nodeA", {}),
        NodeWithTaints("nodeB", {{"cpu-type", "arm64", "PreferNoSchedule"}}),
        NodeWithTaints("nodeC", {{"cpu-type", "arm64", "PreferNoSchedule"},
                                 {"disk-type", "ssd", "PreferNoSchedule"}})},
       {100, 100, 100}},
      {"the more intolerable taints a node has, the lower score it gets.",
       PodWithTolerations("pod1", {Tol("foo", "Equal", "bar", "PreferNoSchedule")}),
       {NodeWithTaints("nodeA", {}),
        NodeWithTaints("nodeB", {{"cpu-type", "arm64", "PreferNoSchedule"}}),
        NodeWithTaints("nodeC", {{"cpu-type", "arm64", "PreferNoSchedule"},
                                 {"disk-type", "ssd", "PreferNoSchedule"}})},
       {100, 50, 0}},
      {"only taints and tolerations that have effect PreferNoSchedule are "
       "checked by taints-tolerations priority function",
       PodWithTolerations("pod1", {Tol("cpu-type", "Equal", "arm64", "NoSchedule"),
                                   Tol("disk-type", "Equal", "ssd", "NoSchedule")}),
       {NodeWithTaints("nodeA", {}),
        NodeWithTaints("nodeB", {{"cpu-type", "arm64", "NoSchedule"}}),
        NodeWithTaints("nodeC", {{"cpu-type", "arm64", "PreferNoSchedule"},
                                 {"disk-type", "ssd", "PreferNoSchedule"}})},
       {100, 100, 0}},
      {"Default behaviour No taints and tolerations, lands on node with no "
       "taints",
       PodWithTolerations("pod1", {}),
       {NodeWithTaints("nodeA", {}),
        NodeWithTaints("nodeB", {{"cpu-type", "arm64", "PreferNoSchedule"}})},
       {100, 0}},
      {"empty-effect toleration tolerates PreferNoSchedule",
       PodWithTolerations("pod1", {Tol("foo", "Exists", "", "")}),
       {NodeWithTaints("nodeA", {{"foo", "x", "PreferNoSchedule"}}),
        NodeWithTaints("nodeB", {{"bar", "x", "PreferNoSchedule"}})},
       {100, 0}},
      // Ours: truncating division of the reversed normalisation
      // (100 - 100*1/3 = 67, 100 - 100*2/3 = 34).
      {"rounding of the reversed normalisation", PodWithTolerations("pod1", {}),
       {NodeWithTaints("nodeA", {{"a", "1", "PreferNoSchedule"}}),
        NodeWithTaints("nodeB", {{"a", "1", "PreferNoSchedule"},
                                 {"b", "1", "PreferNoSchedule"}}),
        NodeWithTaints("nodeC", {{"a", "1", "PreferNoSchedule"},
                                 {"b", "1", "PreferNoSchedule"},
                                 {"c", "1", "PreferNoSchedule"}})},
       {67, 34, 0}},
  };
  TaintToleration plugin;
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(RunScore(plugin, tc.pod, tc.nodes), tc.expected);
  }
}

TEST(TaintTolerationTest, UniformScoreIffNoNodeHasAPreferNoScheduleTaint) {
  TaintToleration plugin;
  const PodInfoPtr pod = NewPodInfo(PodWithTolerations("p", {}));
  const std::vector<NodeInfo> hard_only = {
      MakeNodeInfo(NodeWithTaints("a", {})),
      MakeNodeInfo(NodeWithTaints("b", {{"k", "v", "NoSchedule"}}))};
  const std::vector<NodeInfo> one_soft = {
      MakeNodeInfo(NodeWithTaints("a", {})),
      MakeNodeInfo(NodeWithTaints("b", {{"k", "v", "PreferNoSchedule"}}))};
  auto flags = [](const std::vector<NodeInfo>& infos) {
    uint32_t f = 0;
    for (const NodeInfo& i : infos) f |= i.hot().flags;
    return f;
  };
  CycleState state;
  // Without PreScore, Score fails: no shortcut around the failure.
  EXPECT_EQ(plugin.UniformScore(state, *pod, flags(hard_only)), std::nullopt);
  ASSERT_TRUE(plugin.PreScore(state, *pod, {}).IsSuccess());
  EXPECT_EQ(plugin.UniformScore(state, *pod, flags(hard_only)), kMaxNodeScore);
  EXPECT_EQ(plugin.UniformScore(state, *pod, flags(one_soft)), std::nullopt);
  EXPECT_EQ(RunScore(plugin, PodWithTolerations("p", {}),
                     {NodeWithTaints("a", {}), NodeWithTaints("b", {{"k", "v", "NoSchedule"}})}),
            (std::vector<int64_t>{100, 100}));
}

TEST(TaintTolerationTest, ScoreWithoutPreScoreIsAnError) {
  TaintToleration plugin;
  const CycleState state;
  ScoreOutput out = plugin.Score(state, *NewPodInfo(MakePod().Obj()),
                                 MakeNodeInfo(NodeWithTaints("n", {})));
  EXPECT_EQ(out.status,
            Status::Error("failed to read \"PreScoreTaintToleration\" from "
                          "cycleState: not found"));
}

// PreScore state survives a CycleState copy (preemption clones the state).
TEST(TaintTolerationTest, PreScoreStateIsCloned) {
  TaintToleration plugin;
  const PodInfoPtr pod = NewPodInfo(
      PodWithTolerations("p", {Tol("foo", "Exists", "", "PreferNoSchedule")}));
  CycleState state;
  ASSERT_TRUE(plugin.PreScore(state, *pod, {}).IsSuccess());
  const CycleState copy = state;
  const NodeInfo node = MakeNodeInfo(NodeWithTaints(
      "n", {{"foo", "1", "PreferNoSchedule"}, {"bar", "1", "PreferNoSchedule"}}));
  ScoreOutput out = plugin.Score(copy, *pod, node);
  ASSERT_TRUE(out.status.IsSuccess());
  EXPECT_EQ(out.score, 1);
}

// The reference's table (upstream TestTaintTolerationFilter plus its own).
TEST(TaintTolerationTest, Filter) {
  struct Case {
    std::string name;
    api::Pod pod;
    api::Node node;
    Status want;
  };
  auto untolerated = [](const std::string& kv) {
    return Status(Code::kUnschedulableAndUnresolvable,
                  "node(s) had untolerated taint {" + kv + "}");
  };
  const std::vector<Case> cases = {
      {"A pod having no tolerations can't be scheduled onto a node with "
       "nonempty taints",
       PodWithTolerations("pod1", {}),
       NodeWithTaints("nodeA", {{"dedicated", "user1", "NoSchedule"}}),
       untolerated("dedicated: user1")},
      {"A pod which can be scheduled on a dedicated node assigned to user1 "
       "with effect NoSchedule",
       PodWithTolerations("pod1", {Tol("dedicated", "", "user1", "NoSchedule")}),
       NodeWithTaints("nodeA", {{"dedicated", "user1", "NoSchedule"}}),
       Status::Success()},
      {"A pod which can't be scheduled on a dedicated node assigned to user2 "
       "with effect NoSchedule",
       PodWithTolerations("pod1",
                          {Tol("dedicated", "Equal", "user2", "NoSchedule")}),
       NodeWithTaints("nodeA", {{"dedicated", "user1", "NoSchedule"}}),
       untolerated("dedicated: user1")},
      {"A pod can be scheduled onto the node, with a toleration uses operator "
       "Exists that tolerates the taints on the node",
       PodWithTolerations("pod1", {Tol("foo", "Exists", "", "NoSchedule")}),
       NodeWithTaints("nodeA", {{"foo", "bar", "NoSchedule"}}),
       Status::Success()},
      {"A pod has multiple tolerations, node has multiple taints, all the "
       "taints are tolerated, pod can be scheduled onto the node",
       PodWithTolerations("pod1", {Tol("dedicated", "Equal", "user2", "NoSchedule"),
                                   Tol("foo", "Exists", "", "NoSchedule")}),
       NodeWithTaints("nodeA", {{"dedicated", "user2", "NoSchedule"},
                                {"foo", "bar", "NoSchedule"}}),
       Status::Success()},
      {"A pod has a toleration that keys and values match the taint on the "
       "node, but (non-empty) effect doesn't match, can't be scheduled onto "
       "the node",
       PodWithTolerations("pod1", {Tol("foo", "Equal", "bar", "PreferNoSchedule")}),
       NodeWithTaints("nodeA", {{"foo", "bar", "NoSchedule"}}),
       untolerated("foo: bar")},
      {"The pod has a toleration that keys and values match the taint on the "
       "node, the effect of toleration is empty, and the effect of taint is "
       "NoSchedule. Pod can be scheduled onto the node",
       PodWithTolerations("pod1", {Tol("foo", "Equal", "bar", "")}),
       NodeWithTaints("nodeA", {{"foo", "bar", "NoSchedule"}}),
       Status::Success()},
      {"The pod has a toleration that key and value don't match the taint on "
       "the node, but the effect of taint on node is PreferNoSchedule. Pod "
       "can be scheduled onto the node",
       PodWithTolerations("pod1",
                          {Tol("dedicated", "Equal", "user2", "NoSchedule")}),
       NodeWithTaints("nodeA", {{"dedicated", "user1", "PreferNoSchedule"}}),
       Status::Success()},
      {"The pod has no toleration, but the effect of taint on node is "
       "PreferNoSchedule. Pod can be scheduled onto the node",
       PodWithTolerations("pod1", {}),
       NodeWithTaints("nodeA", {{"dedicated", "user1", "PreferNoSchedule"}}),
       Status::Success()},
      {"first untolerated taint wins",
       PodWithTolerations("pod1", {Tol("a", "Exists", "", "")}),
       NodeWithTaints("nodeA", {{"a", "1", "NoSchedule"},
                                {"b", "2", "NoExecute"},
                                {"c", "3", "NoSchedule"}}),
       untolerated("b: 2")},
      {"empty taint value", PodWithTolerations("pod1", {}),
       NodeWithTaints("nodeA", {{"k", "", "NoExecute"}}), untolerated("k: ")},
  };
  TaintToleration plugin;
  const CycleState state;
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(plugin.Filter(state, *NewPodInfo(tc.pod), MakeNodeInfo(tc.node)),
              tc.want);
  }
}

// FilterPass takes out exactly the nodes Filter rejects, with its status,
// for pods with and without tolerations over tainted and untainted nodes.
TEST(TaintTolerationTest, FilterPassMatchesFilter) {
  const std::vector<api::Node> nodes = {
      NodeWithTaints("plain", {}),
      NodeWithTaints("user1", {{"dedicated", "user1", "NoSchedule"}}),
      NodeWithTaints("prefer", {{"dedicated", "user1", "PreferNoSchedule"}}),
      NodeWithTaints("execute", {{"k", "", "NoExecute"}}),
      NodeWithTaints("two", {{"dedicated", "user2", "NoSchedule"}, {"foo", "bar", "NoSchedule"}}),
  };
  std::vector<NodeInfo> infos;
  for (const api::Node& n : nodes) infos.push_back(MakeNodeInfo(n));
  std::vector<const NodeInfo*> ptrs;
  for (const NodeInfo& i : infos) ptrs.push_back(&i);
  const std::vector<api::Pod> pods = {
      PodWithTolerations("none", {}),
      PodWithTolerations("user1", {Tol("dedicated", "", "user1", "NoSchedule")}),
      PodWithTolerations("exists", {Tol("", "Exists", "", "")}),
      PodWithTolerations("two", {Tol("dedicated", "Equal", "user2", "NoSchedule"),
                                 Tol("foo", "Exists", "", "NoSchedule")}),
  };
  TaintToleration plugin;
  const CycleState state;
  for (const api::Pod& pod : pods) {
    SCOPED_TRACE(pod.name);
    EXPECT_TRUE(testing::FilterPassMatchesFilter(plugin, state, *NewPodInfo(pod), ptrs));
  }
}

struct HintCase {
  std::string name;
  api::Pod pod;
  std::optional<api::Node> old_node, new_node;
  std::optional<api::Pod> old_pod, new_pod;
  QueueingHint expected;

  EventObjects Objects() const {
    EventObjects o;
    o.old_node = old_node ? &*old_node : nullptr;
    o.new_node = new_node ? &*new_node : nullptr;
    o.old_pod = old_pod ? &*old_pod : nullptr;
    o.new_pod = new_pod ? &*new_pod : nullptr;
    return o;
  }
};

// Upstream TestIsSchedulableAfterNodeChange.
TEST(TaintTolerationTest, IsSchedulableAfterNodeChange) {
  const api::Pod pod = PodWithTolerations(
      "pod1", {Tol("dedicated", "Equal", "user2", "NoSchedule")});
  const api::Node user1 =
      NodeWithTaints("nodeA", {{"dedicated", "user1", "NoSchedule"}});
  const api::Node user2 =
      NodeWithTaints("nodeA", {{"dedicated", "user2", "NoSchedule"}});
  const std::vector<HintCase> cases = {
      {"skip-queue-on-untoleratedtaint-node-added", pod, {}, user1, {}, {},
       QueueingHint::kSkip},
      {"queue-on-toleratedtaint-node-added", pod, {}, user2, {}, {},
       QueueingHint::kQueue},
      {"skip-unrelated-change", pod, user1,
       NodeWithTaints("nodeA", {{"dedicated", "user1", "NoSchedule"},
                                {"dedicated", "user3", "NoSchedule"}}),
       {}, {}, QueueingHint::kSkip},
      {"queue-on-taint-change", pod, user1, user2, {}, {}, QueueingHint::kQueue},
      {"skip-already-tolerated", pod, user2, user2, {}, {}, QueueingHint::kSkip},
      {"skip-on-delete", pod, user1, {}, {}, {}, QueueingHint::kSkip},
  };
  for (const HintCase& tc : cases) {
    SCOPED_TRACE(tc.name);
    StatusOr<QueueingHint> got =
        TaintToleration::IsSchedulableAfterNodeChange(tc.pod, tc.Objects());
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(*got, tc.expected);
  }
}

// Upstream Test_isSchedulableAfterPodChange (v1.32 form).
TEST(TaintTolerationTest, IsSchedulableAfterPodTolerationChange) {
  const api::Pod target = MakePod().Namespace("ns-1").Name("pod-1").UID("uid0")
                              .Obj();
  const std::vector<HintCase> cases = {
      {"skip-updates-other-pod", target, {}, {},
       MakePod().Namespace("ns-1").Name("pod-2").UID("uid1").Obj(),
       MakePod().Namespace("ns-1").Name("pod-2").UID("uid1")
           .Toleration(Tol("foo", "", "", "NoSchedule")).Obj(),
       QueueingHint::kSkip},
      {"queue-on-toleration-added", target, {}, {}, target,
       MakePod().Namespace("ns-1").Name("pod-1").UID("uid0")
           .Toleration(Tol("foo", "", "", "NoSchedule")).Obj(),
       QueueingHint::kQueue},
  };
  for (const HintCase& tc : cases) {
    SCOPED_TRACE(tc.name);
    StatusOr<QueueingHint> got =
        TaintToleration::IsSchedulableAfterPodTolerationChange(tc.pod,
                                                              tc.Objects());
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(*got, tc.expected);
  }
}

TEST(TaintTolerationTest, EventsAndConstruction) {
  auto plugin = TaintToleration::New(nlohmann::json::object(), nullptr);
  ASSERT_TRUE(plugin.ok());
  EXPECT_EQ((*plugin)->Name(), "TaintToleration");
  const std::vector<ClusterEventWithHint> events =
      TaintToleration().EventsToRegister();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].event.resource, EventResource::kNode);
  EXPECT_EQ(events[0].event.action, kAdd | kUpdateNodeTaint);
  EXPECT_EQ(events[1].event.resource, EventResource::kPod);
  EXPECT_EQ(events[1].event.action, kUpdatePodTolerations);
}

}  // namespace
}  // namespace schedref::optimized::framework::plugins::tainttoleration
