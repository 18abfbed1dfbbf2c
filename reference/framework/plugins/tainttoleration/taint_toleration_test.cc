#include "reference/framework/plugins/tainttoleration/taint_toleration.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "reference/framework/testing/wrappers.h"

namespace schedref::reference::framework::plugins::tainttoleration {
namespace {

using st::MakeNode;
using st::MakePod;

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

// Transcribed from upstream taint_toleration_test.go TestTaintTolerationScore.
TEST(TaintTolerationTest, UpstreamScore) {
  struct Case {
    std::string name;
    api::Pod pod;
    std::vector<api::Node> nodes;
    std::vector<int64_t> expected;
  };
  const std::vector<Case> cases = {
      {"node with taints tolerated by the pod, gets a higher score than those "
       "node with intolerable taints",
       PodWithTolerations("pod1",
                          {Tol("foo", "Equal", "bar", "PreferNoSchedule")}),
       {NodeWithTaints("nodeA", {{"foo", "bar", "PreferNoSchedule"}}),
        NodeWithTaints("nodeB", {{"foo", "blah", "PreferNoSchedule"}})},
       {100, 0}},
      {"the nodes that all of their taints are tolerated by the pod, get the "
       "same score, no matter how many tolerable taints a node has",
       PodWithTolerations(
           "pod1", {Tol("cpu-type", "Equal", "arm64", "PreferNoSchedule"),
                    Tol("disk-type", "Equal", "ssd", "PreferNoSchedule")}),
       {NodeWithTaints("nodeA", {}),
        NodeWithTaints("nodeB", {{"cpu-type", "arm64", "PreferNoSchedule"}}),
        NodeWithTaints("nodeC", {{"cpu-type", "arm64", "PreferNoSchedule"},
                                 {"disk-type", "ssd", "PreferNoSchedule"}})},
       {100, 100, 100}},
      {"the more intolerable taints a node has, the lower score it gets.",
       PodWithTolerations("pod1",
                          {Tol("foo", "Equal", "bar", "PreferNoSchedule")}),
       {NodeWithTaints("nodeA", {}),
        NodeWithTaints("nodeB", {{"cpu-type", "arm64", "PreferNoSchedule"}}),
        NodeWithTaints("nodeC", {{"cpu-type", "arm64", "PreferNoSchedule"},
                                 {"disk-type", "ssd", "PreferNoSchedule"}})},
       {100, 50, 0}},
      {"only taints and tolerations that have effect PreferNoSchedule are "
       "checked by taints-tolerations priority function",
       PodWithTolerations("pod1",
                          {Tol("cpu-type", "Equal", "arm64", "NoSchedule"),
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
      // Ours: a toleration with an empty effect counts for scoring.
      {"empty-effect toleration tolerates PreferNoSchedule",
       PodWithTolerations("pod1", {Tol("foo", "Exists", "", "")}),
       {NodeWithTaints("nodeA", {{"foo", "x", "PreferNoSchedule"}}),
        NodeWithTaints("nodeB", {{"bar", "x", "PreferNoSchedule"}})},
       {100, 0}},
  };
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    TaintToleration plugin;
    CycleState state;
    std::vector<NodeInfo> infos;
    for (const api::Node& n : tc.nodes) infos.push_back(st::MakeNodeInfo(n));
    std::vector<const NodeInfo*> ptrs;
    for (const NodeInfo& i : infos) ptrs.push_back(&i);
    ASSERT_TRUE(plugin.PreScore(state, tc.pod, ptrs).IsSuccess());
    NodeScoreList scores;
    for (const NodeInfo& info : infos) {
      ScoreOutput out = plugin.Score(state, tc.pod, info);
      ASSERT_TRUE(out.status.IsSuccess());
      scores.push_back({info.Name(), out.score});
    }
    ASSERT_TRUE(plugin.NormalizeScore(state, tc.pod, scores).IsSuccess());
    std::vector<int64_t> got;
    for (const NodePluginScore& s : scores) got.push_back(s.score);
    EXPECT_EQ(got, tc.expected);
  }
}

TEST(TaintTolerationTest, ScoreWithoutPreScoreIsAnError) {
  TaintToleration plugin;
  CycleState state;
  ScoreOutput out = plugin.Score(state, MakePod().Obj(),
                                 st::MakeNodeInfo(NodeWithTaints("n", {})));
  EXPECT_EQ(out.status.code(), Code::kError);
}

// Upstream TestTaintTolerationFilter.
TEST(TaintTolerationTest, UpstreamFilter) {
  struct Case {
    std::string name;
    api::Pod pod;
    api::Node node;
    Status want;
  };
  const std::vector<Case> cases = {
      {"A pod having no tolerations can't be scheduled onto a node with "
       "nonempty taints",
       PodWithTolerations("pod1", {}),
       NodeWithTaints("nodeA", {{"dedicated", "user1", "NoSchedule"}}),
       Status(Code::kUnschedulableAndUnresolvable,
              "node(s) had untolerated taint {dedicated: user1}")},
      {"A pod which can be scheduled on a dedicated node assigned to user1 "
       "with effect NoSchedule",
       PodWithTolerations("pod1",
                          {Tol("dedicated", "", "user1", "NoSchedule")}),
       NodeWithTaints("nodeA", {{"dedicated", "user1", "NoSchedule"}}),
       Status::Success()},
      {"A pod which can't be scheduled on a dedicated node assigned to user2 "
       "with effect NoSchedule",
       PodWithTolerations("pod1",
                          {Tol("dedicated", "Equal", "user2", "NoSchedule")}),
       NodeWithTaints("nodeA", {{"dedicated", "user1", "NoSchedule"}}),
       Status(Code::kUnschedulableAndUnresolvable,
              "node(s) had untolerated taint {dedicated: user1}")},
      {"A pod can be scheduled onto the node, with a toleration uses operator "
       "Exists that tolerates the taints on the node",
       PodWithTolerations("pod1", {Tol("foo", "Exists", "", "NoSchedule")}),
       NodeWithTaints("nodeA", {{"foo", "bar", "NoSchedule"}}),
       Status::Success()},
      {"A pod has multiple tolerations, node has multiple taints, all the "
       "taints are tolerated, pod can be scheduled onto the node",
       PodWithTolerations("pod1",
                          {Tol("dedicated", "Equal", "user2", "NoSchedule"),
                           Tol("foo", "Exists", "", "NoSchedule")}),
       NodeWithTaints("nodeA", {{"dedicated", "user2", "NoSchedule"},
                                {"foo", "bar", "NoSchedule"}}),
       Status::Success()},
      {"A pod has a toleration that keys and values match the taint on the "
       "node, but (non-empty) effect doesn't match, can't be scheduled onto "
       "the node",
       PodWithTolerations("pod1",
                          {Tol("foo", "Equal", "bar", "PreferNoSchedule")}),
       NodeWithTaints("nodeA", {{"foo", "bar", "NoSchedule"}}),
       Status(Code::kUnschedulableAndUnresolvable,
              "node(s) had untolerated taint {foo: bar}")},
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
      // Ours: the first untolerated taint in node order is reported, and a
      // NoExecute taint rejects too.
      {"first untolerated taint wins",
       PodWithTolerations("pod1", {Tol("a", "Exists", "", "")}),
       NodeWithTaints("nodeA", {{"a", "1", "NoSchedule"},
                                {"b", "2", "NoExecute"},
                                {"c", "3", "NoSchedule"}}),
       Status(Code::kUnschedulableAndUnresolvable,
              "node(s) had untolerated taint {b: 2}")},
  };
  TaintToleration plugin;
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    CycleState state;
    EXPECT_EQ(plugin.Filter(state, tc.pod, st::MakeNodeInfo(tc.node)),
              tc.want);
  }
}

struct HintCase {
  std::string name;
  api::Pod pod;
  EventObject old_obj, new_obj;
  QueueingHint expected;
  bool want_err;
};

// Upstream TestIsSchedulableAfterNodeChange.
TEST(TaintTolerationTest, UpstreamIsSchedulableAfterNodeChange) {
  const api::Pod pod = PodWithTolerations(
      "pod1", {Tol("dedicated", "Equal", "user2", "NoSchedule")});
  const std::vector<HintCase> cases = {
      {"backoff-wrong-new-object", MakePod().Obj(), std::monostate{},
       MakePod().Name("not-a-node").Obj(), QueueingHint::kQueue, true},
      {"backoff-wrong-old-object", MakePod().Obj(),
       MakePod().Name("not-a-node").Obj(),
       NodeWithTaints("nodeA", {{"dedicated", "user1", "NoSchedule"}}),
       QueueingHint::kQueue, true},
      {"skip-queue-on-untoleratedtaint-node-added", pod, std::monostate{},
       NodeWithTaints("nodeA", {{"dedicated", "user1", "NoSchedule"}}),
       QueueingHint::kSkip, false},
      {"queue-on-toleratedtaint-node-added", pod, std::monostate{},
       NodeWithTaints("nodeA", {{"dedicated", "user2", "NoSchedule"}}),
       QueueingHint::kQueue, false},
      {"skip-unrelated-change", pod,
       NodeWithTaints("nodeA", {{"dedicated", "user1", "NoSchedule"}}),
       NodeWithTaints("nodeA", {{"dedicated", "user1", "NoSchedule"},
                                {"dedicated", "user3", "NoSchedule"}}),
       QueueingHint::kSkip, false},
      {"queue-on-taint-change", pod,
       NodeWithTaints("nodeA", {{"dedicated", "user1", "NoSchedule"}}),
       NodeWithTaints("nodeA", {{"dedicated", "user2", "NoSchedule"}}),
       QueueingHint::kQueue, false},
  };
  for (const HintCase& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto got = TaintToleration::IsSchedulableAfterNodeChange(
        tc.pod, tc.old_obj, tc.new_obj);
    EXPECT_EQ(!got.ok(), tc.want_err);
    if (got.ok()) {
      EXPECT_EQ(*got, tc.expected);
    }
  }
}

// Upstream Test_isSchedulableAfterPodChange, v1.32 form (the hint checks
// only that the update is for the target pod; the queue calls it only for
// toleration updates, so the v1.30 case "skip-updates-not-toleration" has no
// counterpart).
TEST(TaintTolerationTest, UpstreamIsSchedulableAfterPodTolerationChange) {
  const api::Pod target = MakePod().Namespace("ns-1").Name("pod-1").UID("uid0")
                              .Obj();
  const std::vector<HintCase> cases = {
      {"backoff-wrong-new-object", MakePod().Obj(), std::monostate{},
       NodeWithTaints("n", {}), QueueingHint::kQueue, true},
      {"backoff-wrong-old-object", MakePod().Obj(), NodeWithTaints("n", {}),
       MakePod().Obj(), QueueingHint::kQueue, true},
      {"skip-updates-other-pod", target,
       MakePod().Namespace("ns-1").Name("pod-2").UID("uid1").Obj(),
       MakePod()
           .Namespace("ns-1")
           .Name("pod-2")
           .UID("uid1")
           .Toleration(Tol("foo", "", "", "NoSchedule"))
           .Obj(),
       QueueingHint::kSkip, false},
      {"queue-on-toleration-added", target, target,
       MakePod()
           .Namespace("ns-1")
           .Name("pod-1")
           .UID("uid0")
           .Toleration(Tol("foo", "", "", "NoSchedule"))
           .Obj(),
       QueueingHint::kQueue, false},
  };
  for (const HintCase& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto got = TaintToleration::IsSchedulableAfterPodTolerationChange(
        tc.pod, tc.old_obj, tc.new_obj);
    EXPECT_EQ(!got.ok(), tc.want_err);
    if (got.ok()) {
      EXPECT_EQ(*got, tc.expected);
    }
  }
}

TEST(TaintTolerationTest, EventsToRegister) {
  std::vector<ClusterEventWithHint> events =
      TaintToleration().EventsToRegister();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].event.resource, EventResource::kNode);
  EXPECT_EQ(events[0].event.action, kAdd | kUpdateNodeTaint);
  EXPECT_EQ(events[1].event.resource, EventResource::kPod);
  EXPECT_EQ(events[1].event.action, kUpdatePodTolerations);
}

}  // namespace
}  // namespace schedref::reference::framework::plugins::tainttoleration
