#include "optimized/framework/plugins/queuesort/priority_sort.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

#include "testing/st/wrappers.h"

namespace schedref::optimized::framework::plugins::queuesort {
namespace {

using st::MakePod;

QueuedPodInfo Queued(const api::Pod& pod, api::TimeMs timestamp) {
  QueuedPodInfo q;
  q.pod_info = NewPodInfo(pod);
  q.timestamp = timestamp;
  return q;
}

// The reference's table (upstream priority_sort_test.go TestLess plus an
// unset priority and equal timestamps).
TEST(PrioritySortTest, Less) {
  const api::TimeMs t = 1000;
  const api::TimeMs t_plus = t + 1000;
  struct Case {
    std::string name;
    QueuedPodInfo p1, p2;
    bool expected;
  };
  const std::vector<Case> cases = {
      {"p1.priority less than p2.priority",
       Queued(MakePod().Name("t-1").Priority(10).Obj(), t),
       Queued(MakePod().Name("t-2").Priority(20).Obj(), t), false},
      {"p1.priority greater than p2.priority",
       Queued(MakePod().Name("t-1").Priority(20).Obj(), t),
       Queued(MakePod().Name("t-2").Priority(10).Obj(), t), true},
      {"equal priority. p1 is added to schedulingQ earlier than p2",
       Queued(MakePod().Name("t-1").Priority(10).Obj(), t),
       Queued(MakePod().Name("t-2").Priority(10).Obj(), t_plus), true},
      {"equal priority. p2 is added to schedulingQ earlier than p1",
       Queued(MakePod().Name("t-1").Priority(10).Obj(), t_plus),
       Queued(MakePod().Name("t-2").Priority(10).Obj(), t), false},
      {"unset priority counts as 0",
       Queued(MakePod().Name("t-1").Obj(), t),
       Queued(MakePod().Name("t-2").Priority(-1).Obj(), t), true},
      {"higher priority wins over an earlier timestamp",
       Queued(MakePod().Name("t-1").Priority(1).Obj(), t_plus),
       Queued(MakePod().Name("t-2").Priority(0).Obj(), t), true},
      {"equal priority and timestamp: neither is less",
       Queued(MakePod().Name("t-1").Priority(1).Obj(), t),
       Queued(MakePod().Name("t-2").Priority(1).Obj(), t), false},
  };
  PrioritySort plugin;
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(plugin.Less(tc.p1, tc.p2), tc.expected);
  }
}

TEST(PrioritySortTest, Construction) {
  auto plugin = PrioritySort::New(nlohmann::json::object(), nullptr);
  ASSERT_TRUE(plugin.ok());
  EXPECT_EQ((*plugin)->Name(), "PrioritySort");
  EXPECT_NE(dynamic_cast<QueueSortPlugin*>(plugin->get()), nullptr);
}

// The queue compares SortKeys in place of calling Less: they must agree on
// every pair, priorities and timestamps at their extremes included.
RC_GTEST_PROP(PrioritySortProperty, SortKeyOrdersAsLess, ()) {
  const auto priority = rc::gen::oneOf(rc::gen::inRange<int32_t>(-3, 4),
                                       rc::gen::element(INT32_MIN, INT32_MAX));
  const auto timestamp = rc::gen::oneOf(rc::gen::inRange<api::TimeMs>(0, 4),
                                        rc::gen::element(api::TimeMs{0}, INT64_MAX));
  const QueuedPodInfo a = Queued(MakePod().Name("a").Priority(*priority).Obj(), *timestamp);
  const QueuedPodInfo b = Queued(MakePod().Name("b").Priority(*priority).Obj(), *timestamp);
  PrioritySort plugin;
  const std::optional<QueueSortKey> ka = plugin.SortKey(a);
  const std::optional<QueueSortKey> kb = plugin.SortKey(b);
  RC_ASSERT(ka.has_value() && kb.has_value());
  RC_ASSERT(plugin.Less(a, b) == (*ka < *kb));
  RC_ASSERT(plugin.Less(b, a) == (*kb < *ka));
}

}  // namespace
}  // namespace schedref::optimized::framework::plugins::queuesort
