#include "optimized/framework/plugins/nodeunschedulable/node_unschedulable.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "optimized/framework/testing/filter_pass_check.h"
#include "optimized/framework/testing/fixtures.h"
#include "testing/st/wrappers.h"

namespace schedref::optimized::framework::plugins::nodeunschedulable {
namespace {

using st::MakeNode;
using st::MakePod;
using testing::MakeNodeInfo;

api::Toleration Tol(std::string key, std::string op, std::string effect) {
  return {std::move(key), std::move(op), "", std::move(effect), std::nullopt};
}

// The reference's table (upstream TestNodeUnschedulable plus its own rows).
TEST(NodeUnschedulableTest, Filter) {
  struct Case {
    std::string name;
    api::Pod pod;
    api::Node node;
    Status want;
  };
  const Status kRejected(Code::kUnschedulableAndUnresolvable,
                         kErrReasonUnschedulable);
  const std::vector<Case> cases = {
      {"Does not schedule pod to unschedulable node", MakePod().Obj(),
       MakeNode().Name("n").Unschedulable(true).Obj(), kRejected},
      {"Schedule pod to normal node", MakePod().Obj(),
       MakeNode().Name("n").Unschedulable(false).Obj(), Status::Success()},
      {"Schedule pod with toleration to unschedulable node",
       MakePod().Toleration(Tol("node.kubernetes.io/unschedulable", "",
                                "NoSchedule")).Obj(),
       MakeNode().Name("n").Unschedulable(true).Obj(), Status::Success()},
      {"wildcard toleration", MakePod().Toleration(Tol("", "Exists", "")).Obj(),
       MakeNode().Name("n").Unschedulable(true).Obj(), Status::Success()},
      {"NoExecute toleration does not tolerate NoSchedule",
       MakePod().Toleration(Tol("node.kubernetes.io/unschedulable", "Exists",
                                "NoExecute")).Obj(),
       MakeNode().Name("n").Unschedulable(true).Obj(), kRejected},
      {"a taint alone is not this plugin's business", MakePod().Obj(),
       MakeNode().Name("n").Taint({"node.kubernetes.io/unschedulable", "",
                                   "NoSchedule"}).Obj(),
       Status::Success()},
  };
  NodeUnschedulable plugin;
  const CycleState state;
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(plugin.Filter(state, *NewPodInfo(tc.pod), MakeNodeInfo(tc.node)),
              tc.want);
  }
  EXPECT_EQ(plugin.Filter(state, *NewPodInfo(MakePod().Obj()), NodeInfo()),
            Status(Code::kUnschedulableAndUnresolvable,
                   kErrReasonUnknownCondition));
}

// FilterPass takes out exactly the nodes Filter rejects, with its status,
// a node without a node object (a ghost) included.
TEST(NodeUnschedulableTest, FilterPassMatchesFilter) {
  std::vector<NodeInfo> infos = {
      MakeNodeInfo(MakeNode().Name("a").Unschedulable(true).Obj()),
      MakeNodeInfo(MakeNode().Name("b").Obj()),
      NodeInfo(),
      MakeNodeInfo(MakeNode().Name("c").Unschedulable(true).Obj()),
      MakeNodeInfo(MakeNode().Name("d").Obj()),
  };
  std::vector<const NodeInfo*> ptrs;
  for (const NodeInfo& i : infos) ptrs.push_back(&i);
  NodeUnschedulable plugin;
  const CycleState state;
  for (const api::Pod& pod :
       {MakePod().Obj(),
        MakePod().Toleration(Tol("node.kubernetes.io/unschedulable", "", "NoSchedule")).Obj()}) {
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
TEST(NodeUnschedulableTest, IsSchedulableAfterNodeChange) {
  const api::Node unsched = MakeNode().Name("n").Unschedulable(true).Obj();
  const api::Node sched = MakeNode().Name("n").Obj();
  const api::Node unsched_not_ready =
      MakeNode().Name("n").Unschedulable(true)
          .Taint({"node.kubernetes.io/not-ready", "", "NoExecute"}).Obj();
  const api::Node sched_not_ready =
      MakeNode().Name("n")
          .Taint({"node.kubernetes.io/not-ready", "", "NoExecute"}).Obj();
  const std::vector<HintCase> cases = {
      {"skip-queue-on-unschedulable-node-added", MakePod().Obj(), {}, unsched,
       {}, {}, QueueingHint::kSkip},
      {"queue-on-schedulable-node-added", MakePod().Obj(), {}, sched, {}, {},
       QueueingHint::kQueue},
      {"skip-unrelated-change-unschedulable-true", MakePod().Obj(), unsched,
       unsched_not_ready, {}, {}, QueueingHint::kSkip},
      {"skip-unrelated-change-unschedulable-false", MakePod().Obj(), sched,
       sched_not_ready, {}, {}, QueueingHint::kSkip},
      {"queue-on-unschedulable-field-change", MakePod().Obj(), unsched, sched,
       {}, {}, QueueingHint::kQueue},
      {"skip-on-becoming-unschedulable", MakePod().Obj(), sched, unsched, {},
       {}, QueueingHint::kSkip},
      {"skip-on-delete", MakePod().Obj(), sched, {}, {}, {},
       QueueingHint::kSkip},
  };
  for (const HintCase& tc : cases) {
    SCOPED_TRACE(tc.name);
    StatusOr<QueueingHint> got =
        NodeUnschedulable::IsSchedulableAfterNodeChange(tc.pod, tc.Objects());
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(*got, tc.expected);
  }
}

// Upstream TestIsSchedulableAfterPodTolerationChange.
TEST(NodeUnschedulableTest, IsSchedulableAfterPodTolerationChange) {
  const std::vector<HintCase> cases = {
      {"skip-different-pod-update", MakePod().UID("uid").Obj(), {}, {},
       MakePod().UID("different-uid").Obj(),
       MakePod().UID("different-uid")
           .Toleration("node.kubernetes.io/unschedulable").Obj(),
       QueueingHint::kSkip},
      {"queue-when-the-unsched-pod-gets-toleration", MakePod().UID("uid").Obj(),
       {}, {}, MakePod().UID("uid").Obj(),
       MakePod().UID("uid").Toleration("node.kubernetes.io/unschedulable").Obj(),
       QueueingHint::kQueue},
      {"skip-when-the-unsched-pod-gets-unrelated-toleration",
       MakePod().UID("uid").Obj(), {}, {}, MakePod().UID("uid").Obj(),
       MakePod().UID("uid").Toleration("unrelated-key").Obj(),
       QueueingHint::kSkip},
  };
  for (const HintCase& tc : cases) {
    SCOPED_TRACE(tc.name);
    StatusOr<QueueingHint> got =
        NodeUnschedulable::IsSchedulableAfterPodTolerationChange(tc.pod,
                                                                tc.Objects());
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(*got, tc.expected);
  }
}

TEST(NodeUnschedulableTest, EventsAndConstruction) {
  auto plugin = NodeUnschedulable::New(nlohmann::json::object(), nullptr);
  ASSERT_TRUE(plugin.ok());
  EXPECT_EQ((*plugin)->Name(), "NodeUnschedulable");
  const std::vector<ClusterEventWithHint> events =
      NodeUnschedulable().EventsToRegister();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].event.resource, EventResource::kNode);
  EXPECT_EQ(events[0].event.action, kAdd | kUpdateNodeTaint);
  EXPECT_EQ(events[1].event.resource, EventResource::kPod);
  EXPECT_EQ(events[1].event.action, kUpdatePodTolerations);
  EXPECT_TRUE(static_cast<bool>(events[0].hint));
  EXPECT_TRUE(static_cast<bool>(events[1].hint));
}

}  // namespace
}  // namespace schedref::optimized::framework::plugins::nodeunschedulable
