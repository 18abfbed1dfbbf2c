#include "reference/framework/plugins/nodename/node_name.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "reference/framework/testing/wrappers.h"

namespace schedref::reference::framework::plugins::nodename {
namespace {

using st::MakeNode;
using st::MakePod;

// Transcribed from upstream
// pkg/scheduler/framework/plugins/nodename/node_name_test.go TestNodeName.
TEST(NodeNameTest, UpstreamFilter) {
  struct Case {
    std::string name;
    api::Pod pod;
    api::Node node;
    Status want;
  };
  const std::vector<Case> cases = {
      {"no host specified", MakePod().Obj(), MakeNode().Obj(),
       Status::Success()},
      {"host matches", MakePod().Node("foo").Obj(),
       MakeNode().Name("foo").Obj(), Status::Success()},
      {"host doesn't match", MakePod().Node("bar").Obj(),
       MakeNode().Name("foo").Obj(),
       Status(Code::kUnschedulableAndUnresolvable, kErrReason)},
  };
  NodeName plugin;
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    CycleState state;
    EXPECT_EQ(plugin.Filter(state, tc.pod, st::MakeNodeInfo(tc.node)),
              tc.want);
  }
}

// The v1.32 hint test (TestIsSchedulableAfterNodeAdd) as we understand it:
// wrong object -> error, matching node -> Queue, other node -> Skip, pod
// without nodeName -> Queue.
TEST(NodeNameTest, IsSchedulableAfterNodeAdd) {
  struct Case {
    std::string name;
    api::Pod pod;
    EventObject new_obj;
    QueueingHint expected;
    bool want_err;
  };
  const std::vector<Case> cases = {
      {"backoff-wrong-new-object", MakePod().Node("foo").Obj(),
       MakePod().Obj(), QueueingHint::kQueue, true},
      {"skip-queue-on-unmatched-node", MakePod().Node("foo").Obj(),
       MakeNode().Name("bar").Obj(), QueueingHint::kSkip, false},
      {"queue-on-matched-node", MakePod().Node("foo").Obj(),
       MakeNode().Name("foo").Obj(), QueueingHint::kQueue, false},
      {"queue-on-pod-without-node-name", MakePod().Obj(),
       MakeNode().Name("bar").Obj(), QueueingHint::kQueue, false},
  };
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto got = NodeName::IsSchedulableAfterNodeAdd(tc.pod, std::monostate{},
                                                   tc.new_obj);
    EXPECT_EQ(!got.ok(), tc.want_err);
    if (got.ok()) {
      EXPECT_EQ(*got, tc.expected);
    }
  }
  std::vector<ClusterEventWithHint> events = NodeName().EventsToRegister();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].event.resource, EventResource::kNode);
  EXPECT_EQ(events[0].event.action, kAdd);
}

}  // namespace
}  // namespace schedref::reference::framework::plugins::nodename
