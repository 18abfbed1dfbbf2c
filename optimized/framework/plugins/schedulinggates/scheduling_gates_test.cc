#include "optimized/framework/plugins/schedulinggates/scheduling_gates.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "testing/st/wrappers.h"

namespace schedref::optimized::framework::plugins::schedulinggates {
namespace {

using st::MakePod;

// The reference's table (upstream TestPreEnqueue plus one gate).
TEST(SchedulingGatesTest, PreEnqueue) {
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
      {"one gate", MakePod().Name("p").SchedulingGates({"only"}).Obj(),
       Status(Code::kUnschedulableAndUnresolvable,
              "waiting for scheduling gates: [only]")},
      {"spec order is kept",
       MakePod().Name("p").SchedulingGates({"z", "a", "m"}).Obj(),
       Status(Code::kUnschedulableAndUnresolvable,
              "waiting for scheduling gates: [z a m]")},
  };
  SchedulingGates plugin;
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(plugin.PreEnqueue(tc.pod), tc.want);
  }
}

// Upstream Test_isSchedulableAfterUpdatePodSchedulingGatesEliminated.
TEST(SchedulingGatesTest, Hint) {
  const api::Pod p = MakePod().Name("p").UID("uid").Obj();
  const api::Pod other_old =
      MakePod().Name("p1").UID("uid1").SchedulingGates({"foo"}).Obj();
  const api::Pod other_new = MakePod().Name("p1").UID("uid1").Obj();
  const api::Pod self_old =
      MakePod().Name("p").UID("uid").SchedulingGates({"foo"}).Obj();
  const api::Pod self_new = MakePod().Name("p").UID("uid").Obj();
  struct Case {
    std::string name;
    const api::Pod* old_pod;
    const api::Pod* new_pod;
    QueueingHint expected;
  };
  const std::vector<Case> cases = {
      {"skip-queue-on-other-pod-updated", &other_old, &other_new,
       QueueingHint::kSkip},
      {"queue-on-the-unsched-pod-updated", &self_old, &self_new,
       QueueingHint::kQueue},
      {"skip-without-a-new-pod", &self_old, nullptr, QueueingHint::kSkip},
  };
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    EventObjects objects;
    objects.old_pod = tc.old_pod;
    objects.new_pod = tc.new_pod;
    StatusOr<QueueingHint> got =
        SchedulingGates::IsSchedulableAfterUpdatePodSchedulingGatesEliminated(
            p, objects);
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(*got, tc.expected);
  }
}

TEST(SchedulingGatesTest, EventsAndConstruction) {
  auto plugin = SchedulingGates::New(nlohmann::json::object(), nullptr);
  ASSERT_TRUE(plugin.ok());
  EXPECT_EQ((*plugin)->Name(), "SchedulingGates");
  const std::vector<ClusterEventWithHint> events =
      SchedulingGates().EventsToRegister();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].event.resource, EventResource::kPod);
  EXPECT_EQ(events[0].event.action, kUpdatePodSchedulingGatesEliminated);
  EXPECT_TRUE(static_cast<bool>(events[0].hint));
}

}  // namespace
}  // namespace schedref::optimized::framework::plugins::schedulinggates
