#include "reference/framework/plugins/nodeunschedulable/node_unschedulable.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "reference/framework/testing/wrappers.h"

namespace schedref::reference::framework::plugins::nodeunschedulable {
namespace {

using st::MakeNode;
using st::MakePod;

// Transcribed from upstream
// pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable_test.go
// (v1.31/v1.32 form): TestNodeUnschedulable.
TEST(NodeUnschedulableTest, UpstreamFilter) {
  struct Case {
    std::string name;
    api::Pod pod;
    api::Node node;
    Status want;
  };
  const std::vector<Case> cases = {
      {"Does not schedule pod to unschedulable node "
       "(node.Spec.Unschedulable==true)",
       MakePod().Obj(), MakeNode().Name("n").Unschedulable(true).Obj(),
       Status(Code::kUnschedulableAndUnresolvable, kErrReasonUnschedulable)},
      {"Schedule pod to normal node", MakePod().Obj(),
       MakeNode().Name("n").Unschedulable(false).Obj(), Status::Success()},
      {"Schedule pod with toleration to unschedulable node "
       "(node.Spec.Unschedulable==true)",
       MakePod()
           .Toleration(api::Toleration{"node.kubernetes.io/unschedulable", "",
                                       "", "NoSchedule", std::nullopt})
           .Obj(),
       MakeNode().Name("n").Unschedulable(true).Obj(), Status::Success()},
      // Ours: an Exists toleration with an empty key tolerates everything.
      {"wildcard toleration",
       MakePod()
           .Toleration(api::Toleration{"", "Exists", "", "", std::nullopt})
           .Obj(),
       MakeNode().Name("n").Unschedulable(true).Obj(), Status::Success()},
      // Ours: a toleration for another effect does not help.
      {"NoExecute toleration does not tolerate NoSchedule",
       MakePod()
           .Toleration(api::Toleration{"node.kubernetes.io/unschedulable",
                                       "Exists", "", "NoExecute",
                                       std::nullopt})
           .Obj(),
       MakeNode().Name("n").Unschedulable(true).Obj(),
       Status(Code::kUnschedulableAndUnresolvable, kErrReasonUnschedulable)},
  };
  NodeUnschedulable plugin;
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
TEST(NodeUnschedulableTest, UpstreamIsSchedulableAfterNodeChange) {
  const api::Pod not_a_node = MakePod().Name("x").Obj();
  const api::Node unsched_not_ready =
      MakeNode()
          .Name("n")
          .Unschedulable(true)
          .Taint({"node.kubernetes.io/not-ready", "", "NoExecute"})
          .Obj();
  const api::Node sched_not_ready =
      MakeNode()
          .Name("n")
          .Taint({"node.kubernetes.io/not-ready", "", "NoExecute"})
          .Obj();
  const std::vector<HintCase> cases = {
      {"error-wrong-new-object", MakePod().Obj(), std::monostate{},
       not_a_node, QueueingHint::kQueue, true},
      {"error-wrong-old-object", MakePod().Obj(), not_a_node,
       MakeNode().Name("n").Unschedulable(true).Obj(), QueueingHint::kQueue,
       true},
      {"skip-queue-on-unschedulable-node-added", MakePod().Obj(),
       std::monostate{}, MakeNode().Name("n").Unschedulable(true).Obj(),
       QueueingHint::kSkip, false},
      {"queue-on-schedulable-node-added", MakePod().Obj(), std::monostate{},
       MakeNode().Name("n").Obj(), QueueingHint::kQueue, false},
      {"skip-unrelated-change-unschedulable-true", MakePod().Obj(),
       MakeNode().Name("n").Unschedulable(true).Obj(), unsched_not_ready,
       QueueingHint::kSkip, false},
      {"skip-unrelated-change-unschedulable-false", MakePod().Obj(),
       MakeNode().Name("n").Obj(), sched_not_ready, QueueingHint::kSkip,
       false},
      {"queue-on-unschedulable-field-change", MakePod().Obj(),
       MakeNode().Name("n").Unschedulable(true).Obj(),
       MakeNode().Name("n").Obj(), QueueingHint::kQueue, false},
  };
  for (const HintCase& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto got = NodeUnschedulable::IsSchedulableAfterNodeChange(
        tc.pod, tc.old_obj, tc.new_obj);
    EXPECT_EQ(!got.ok(), tc.want_err);
    if (got.ok()) {
      EXPECT_EQ(*got, tc.expected);
    }
  }
}

// Upstream TestIsSchedulableAfterPodTolerationChange.
TEST(NodeUnschedulableTest, UpstreamIsSchedulableAfterPodTolerationChange) {
  const api::Node not_a_pod = MakeNode().Name("n").Obj();
  const std::vector<HintCase> cases = {
      {"error-wrong-new-object", MakePod().Obj(), std::monostate{},
       not_a_pod, QueueingHint::kQueue, true},
      {"error-wrong-old-object", MakePod().Obj(), not_a_pod, MakePod().Obj(),
       QueueingHint::kQueue, true},
      {"skip-different-pod-update", MakePod().UID("uid").Obj(),
       MakePod().UID("different-uid").Obj(),
       MakePod()
           .UID("different-uid")
           .Toleration("node.kubernetes.io/unschedulable")
           .Obj(),
       QueueingHint::kSkip, false},
      {"queue-when-the-unsched-pod-gets-toleration", MakePod().UID("uid").Obj(),
       MakePod().UID("uid").Obj(),
       MakePod().UID("uid").Toleration("node.kubernetes.io/unschedulable").Obj(),
       QueueingHint::kQueue, false},
      {"skip-when-the-unsched-pod-gets-unrelated-toleration",
       MakePod().UID("uid").Obj(), MakePod().UID("uid").Obj(),
       MakePod().UID("uid").Toleration("unrelated-key").Obj(),
       QueueingHint::kSkip, false},
  };
  for (const HintCase& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto got = NodeUnschedulable::IsSchedulableAfterPodTolerationChange(
        tc.pod, tc.old_obj, tc.new_obj);
    EXPECT_EQ(!got.ok(), tc.want_err);
    if (got.ok()) {
      EXPECT_EQ(*got, tc.expected);
    }
  }
}

TEST(NodeUnschedulableTest, EventsToRegister) {
  NodeUnschedulable plugin;
  std::vector<ClusterEventWithHint> events = plugin.EventsToRegister();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].event.resource, EventResource::kNode);
  EXPECT_EQ(events[0].event.action, kAdd | kUpdateNodeTaint);
  EXPECT_EQ(events[1].event.resource, EventResource::kPod);
  EXPECT_EQ(events[1].event.action, kUpdatePodTolerations);
}

}  // namespace
}  // namespace schedref::reference::framework::plugins::nodeunschedulable
