#include "reference/framework/plugins/queuesort/priority_sort.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "reference/framework/testing/wrappers.h"

namespace schedref::reference::framework::plugins::queuesort {
namespace {

using st::MakePod;
using st::MakeQueuedPodInfo;

// Transcribed from upstream
// pkg/scheduler/framework/plugins/queuesort/priority_sort_test.go TestLess,
// plus our own cases for an unset priority and equal timestamps.
TEST(PrioritySortTest, UpstreamLess) {
  const api::TimeMs t = 1000;
  const api::TimeMs t_plus = t + 1000;
  struct Case {
    std::string name;
    QueuedPodInfo p1, p2;
    bool expected;
  };
  const std::vector<Case> cases = {
      {"p1.priority less than p2.priority",
       MakeQueuedPodInfo(MakePod().Name("t-1").Priority(10).Obj(), t),
       MakeQueuedPodInfo(MakePod().Name("t-2").Priority(20).Obj(), t), false},
      {"p1.priority greater than p2.priority",
       MakeQueuedPodInfo(MakePod().Name("t-1").Priority(20).Obj(), t),
       MakeQueuedPodInfo(MakePod().Name("t-2").Priority(10).Obj(), t), true},
      {"equal priority. p1 is added to schedulingQ earlier than p2",
       MakeQueuedPodInfo(MakePod().Name("t-1").Priority(10).Obj(), t),
       MakeQueuedPodInfo(MakePod().Name("t-2").Priority(10).Obj(), t_plus),
       true},
      {"equal priority. p2 is added to schedulingQ earlier than p1",
       MakeQueuedPodInfo(MakePod().Name("t-1").Priority(10).Obj(), t_plus),
       MakeQueuedPodInfo(MakePod().Name("t-2").Priority(10).Obj(), t), false},
      // Ours.
      {"unset priority counts as 0",
       MakeQueuedPodInfo(MakePod().Name("t-1").Obj(), t),
       MakeQueuedPodInfo(MakePod().Name("t-2").Priority(-1).Obj(), t), true},
      {"equal priority and timestamp: neither is less",
       MakeQueuedPodInfo(MakePod().Name("t-1").Priority(1).Obj(), t),
       MakeQueuedPodInfo(MakePod().Name("t-2").Priority(1).Obj(), t), false},
  };
  PrioritySort plugin;
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(plugin.Less(tc.p1, tc.p2), tc.expected);
  }
  EXPECT_EQ(plugin.Name(), "PrioritySort");
}

}  // namespace
}  // namespace schedref::reference::framework::plugins::queuesort
