#include "reference/framework/plugins/schedulinggates/scheduling_gates.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "reference/framework/testing/wrappers.h"

namespace schedref::reference::framework::plugins::schedulinggates {
namespace {

using st::MakePod;

// Transcribed from upstream
// pkg/scheduler/framework/plugins/schedulinggates/scheduling_gates_test.go
// TestPreEnqueue (v1.32), plus an edge case of ours.
TEST(SchedulingGatesTest, UpstreamPreEnqueue) {
  struct Case {
    std::string name;
    api::Pod pod;
    Status want;
  };
  const std::vector<Case> cases = {
      {"pod does not carry scheduling gates", MakePod().Name("p").Obj(),
       Status::Success()},
      {"pod carries scheduling gates",
       MakePod().Name("p").SchedulingGates({"foo", "bar"}).Obj(),
       Status(Code::kUnschedulableAndUnresolvable,
              "waiting for scheduling gates: [foo bar]")},
      // Ours: one gate.
      {"one gate", MakePod().Name("p").SchedulingGates({"only"}).Obj(),
       Status(Code::kUnschedulableAndUnresolvable,
              "waiting for scheduling gates: [only]")},
  };
  SchedulingGates plugin;
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(plugin.PreEnqueue(tc.pod), tc.want);
  }
}

// Upstream Test_isSchedulableAfterUpdatePodSchedulingGatesEliminated.
TEST(SchedulingGatesTest, UpstreamHint) {
  struct Case {
    std::string name;
    api::Pod pod;
    EventObject old_obj, new_obj;
    QueueingHint expected;
    bool want_err;
  };
  const api::Pod p = MakePod().Name("p").UID("uid").Obj();
  const api::Node not_a_pod = st::MakeNode().Name("n").Obj();
  const std::vector<Case> cases = {
      {"backoff-wrong-old-object", p, not_a_pod, p, QueueingHint::kQueue,
       true},
      {"backoff-wrong-new-object", p, p, not_a_pod, QueueingHint::kQueue,
       true},
      {"skip-queue-on-other-pod-updated", p,
       MakePod().Name("p1").UID("uid1").SchedulingGates({"foo"}).Obj(),
       MakePod().Name("p1").UID("uid1").Obj(), QueueingHint::kSkip, false},
      {"queue-on-the-unsched-pod-updated", p,
       MakePod().Name("p").UID("uid").SchedulingGates({"foo"}).Obj(),
       MakePod().Name("p").UID("uid").Obj(), QueueingHint::kQueue, false},
  };
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto got =
        SchedulingGates::IsSchedulableAfterUpdatePodSchedulingGatesEliminated(
            tc.pod, tc.old_obj, tc.new_obj);
    EXPECT_EQ(!got.ok(), tc.want_err);
    if (got.ok()) {
      EXPECT_EQ(*got, tc.expected);
    }
  }
}

TEST(SchedulingGatesTest, EventsToRegister) {
  SchedulingGates plugin;
  std::vector<ClusterEventWithHint> events = plugin.EventsToRegister();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].event.resource, EventResource::kPod);
  EXPECT_EQ(events[0].event.action, kUpdatePodSchedulingGatesEliminated);
  EXPECT_TRUE(static_cast<bool>(events[0].hint));
}

}  // namespace
}  // namespace schedref::reference::framework::plugins::schedulinggates
