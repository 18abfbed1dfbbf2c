#include "optimized/framework/plugins/nodename/node_name.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "optimized/framework/testing/filter_pass_check.h"
#include "optimized/framework/testing/fixtures.h"
#include "testing/st/wrappers.h"

namespace schedref::optimized::framework::plugins::nodename {
namespace {

using st::MakeNode;
using st::MakePod;
using testing::MakeNodeInfo;

// The reference's table (upstream node_name_test.go TestNodeName).
TEST(NodeNameTest, Filter) {
  struct Case {
    std::string name;
    api::Pod pod;
    api::Node node;
    Status want;
  };
  const std::vector<Case> cases = {
      {"no host specified", MakePod().Obj(), MakeNode().Name("foo").Obj(),
       Status::Success()},
      {"host matches", MakePod().Node("foo").Obj(),
       MakeNode().Name("foo").Obj(), Status::Success()},
      {"host doesn't match", MakePod().Node("bar").Obj(),
       MakeNode().Name("foo").Obj(),
       Status(Code::kUnschedulableAndUnresolvable, kErrReason)},
      {"prefix is not a match", MakePod().Node("foo").Obj(),
       MakeNode().Name("foo2").Obj(),
       Status(Code::kUnschedulableAndUnresolvable, kErrReason)},
  };
  NodeName plugin;
  const CycleState state;
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(plugin.Filter(state, *NewPodInfo(tc.pod), MakeNodeInfo(tc.node)),
              tc.want);
  }
  EXPECT_EQ(std::string(kErrReason),
            "node(s) didn't match the requested node name");
}

// FilterPass takes out exactly the nodes Filter rejects, with its status,
// for a pod without spec.nodeName (every node fits) and with one.
TEST(NodeNameTest, FilterPassMatchesFilter) {
  std::vector<NodeInfo> infos;
  for (const char* name : {"foo", "bar", "foo2", "baz"}) {
    infos.push_back(MakeNodeInfo(MakeNode().Name(name).Obj()));
  }
  std::vector<const NodeInfo*> ptrs;
  for (const NodeInfo& i : infos) ptrs.push_back(&i);
  NodeName plugin;
  const CycleState state;
  for (const api::Pod& pod : {MakePod().Obj(), MakePod().Node("foo").Obj()}) {
    EXPECT_TRUE(testing::FilterPassMatchesFilter(plugin, state, *NewPodInfo(pod), ptrs));
  }
}

// Upstream TestIsSchedulableAfterNodeAdd (v1.32), as the reference has it.
TEST(NodeNameTest, IsSchedulableAfterNodeAdd) {
  const api::Node bar = MakeNode().Name("bar").Obj();
  const api::Node foo = MakeNode().Name("foo").Obj();
  struct Case {
    std::string name;
    api::Pod pod;
    const api::Node* new_node;
    QueueingHint expected;
  };
  const std::vector<Case> cases = {
      {"skip-queue-on-unmatched-node", MakePod().Node("foo").Obj(), &bar,
       QueueingHint::kSkip},
      {"queue-on-matched-node", MakePod().Node("foo").Obj(), &foo,
       QueueingHint::kQueue},
      {"queue-on-pod-without-node-name", MakePod().Obj(), &bar,
       QueueingHint::kQueue},
      {"skip-without-a-new-node", MakePod().Obj(), nullptr,
       QueueingHint::kSkip},
  };
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    EventObjects objects;
    objects.new_node = tc.new_node;
    StatusOr<QueueingHint> got = NodeName::IsSchedulableAfterNodeAdd(tc.pod, objects);
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(*got, tc.expected);
  }
}

TEST(NodeNameTest, EventsAndConstruction) {
  auto plugin = NodeName::New(nlohmann::json::object(), nullptr);
  ASSERT_TRUE(plugin.ok());
  EXPECT_EQ((*plugin)->Name(), "NodeName");
  // Args are ignored, as upstream and the reference do.
  EXPECT_TRUE(NodeName::New(nlohmann::json{{"x", 1}}, nullptr).ok());

  const std::vector<ClusterEventWithHint> events = NodeName().EventsToRegister();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].event.resource, EventResource::kNode);
  EXPECT_EQ(events[0].event.action, kAdd);
  ASSERT_TRUE(static_cast<bool>(events[0].hint));
  EventObjects objects;
  const api::Node other = MakeNode().Name("other").Obj();
  objects.new_node = &other;
  EXPECT_EQ(*events[0].hint(MakePod().Node("foo").Obj(), objects),
            QueueingHint::kSkip);
}

}  // namespace
}  // namespace schedref::optimized::framework::plugins::nodename
