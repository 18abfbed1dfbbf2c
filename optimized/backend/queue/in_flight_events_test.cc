// The in-flight list (upstream active_queue.go; its behaviour is also
// exercised by upstream's Test_InFlightPods in scheduling_queue_test.cc).
// Ported from reference/backend/queue/in_flight_events_test.cc.
#include "optimized/backend/queue/in_flight_events.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "testing/st/wrappers.h"

namespace schedref::optimized::backend::queue {
namespace {

framework::ClusterEvent Event(const std::string& label) {
  return {framework::EventResource::kNode, framework::kAdd, label};
}

std::vector<std::string> Labels(const std::optional<std::vector<const RecordedEvent*>>& events) {
  std::vector<std::string> labels;
  for (const RecordedEvent* e : events.value()) labels.push_back(e->event.label);
  return labels;
}

framework::PodInfoPtr Pod(const std::string& name) {
  return framework::NewPodInfo(st::MakePod().Name(name).Obj());
}

TEST(InFlightEventsTest, EventsAreRecordedOnlyWhilePodsAreInFlight) {
  InFlightEvents f;
  EXPECT_FALSE(f.AddEventIfAnyInFlight(Event("before"), {}));
  EXPECT_TRUE(f.Entries().empty());
  f.AddPod(Pod("a"));
  EXPECT_TRUE(f.AddEventIfAnyInFlight(Event("e1"), {}));
  EXPECT_EQ(f.Entries().size(), 2u);
}

TEST(InFlightEventsTest, EventsForAPodAreThoseAfterItsMarker) {
  InFlightEvents f;
  framework::PodInfoPtr a = Pod("a");
  framework::PodInfoPtr b = Pod("b");
  f.AddPod(a);
  ASSERT_TRUE(f.AddEventIfAnyInFlight(Event("e1"), {}));
  f.AddPod(b);
  ASSERT_TRUE(f.AddEventIfAnyInFlight(Event("e2"), {}));
  EXPECT_EQ(Labels(f.EventsFor(a->uid())), (std::vector<std::string>{"e1", "e2"}));
  EXPECT_EQ(Labels(f.EventsFor(b->uid())), std::vector<std::string>{"e2"});
  EXPECT_FALSE(f.EventsFor("nobody").has_value());
}

TEST(InFlightEventsTest, EventsForOnePod) {
  InFlightEvents f;
  framework::PodInfoPtr a = Pod("a");
  EXPECT_FALSE(f.AddEventsIfPodInFlight(a->uid(), {Event("x")}, {}));
  f.AddPod(a);
  EXPECT_TRUE(f.AddEventsIfPodInFlight(a->uid(), {Event("x"), Event("y")}, {}));
  EXPECT_FALSE(f.AddEventsIfPodInFlight("other", {Event("z")}, {}));
  EXPECT_EQ(Labels(f.EventsFor(a->uid())), (std::vector<std::string>{"x", "y"}));
}

// upstream activeQueue.done: the marker goes, and so do the events at the
// head of the list up to the next marker.
TEST(InFlightEventsTest, DonePrunesLeadingEvents) {
  InFlightEvents f;
  framework::PodInfoPtr a = Pod("a"), b = Pod("b"), c = Pod("c");
  f.AddPod(a);
  ASSERT_TRUE(f.AddEventIfAnyInFlight(Event("e1"), {}));
  f.AddPod(b);
  ASSERT_TRUE(f.AddEventIfAnyInFlight(Event("e2"), {}));
  f.AddPod(c);
  ASSERT_TRUE(f.AddEventIfAnyInFlight(Event("e3"), {}));

  // b is in the middle: only its marker goes.
  f.Done(b->uid());
  EXPECT_EQ(f.Entries().size(), 5u);
  EXPECT_EQ(Labels(f.EventsFor(a->uid())), (std::vector<std::string>{"e1", "e2", "e3"}));
  // a is at the head: e1 and e2 go with it; c still needs e3.
  f.Done(a->uid());
  EXPECT_EQ(f.Entries().size(), 2u);
  EXPECT_EQ(Labels(f.EventsFor(c->uid())), std::vector<std::string>{"e3"});
  f.Done(c->uid());
  EXPECT_TRUE(f.Entries().empty());
  EXPECT_TRUE(f.Empty());
  f.Done(c->uid());  // no-op
}

TEST(InFlightEventsTest, PodsInPopOrder) {
  InFlightEvents f;
  f.AddPod(Pod("b"));
  f.AddPod(Pod("a"));
  std::vector<std::string> names;
  for (const framework::PodInfoPtr& p : f.Pods()) names.push_back(p->pod.name);
  EXPECT_EQ(names, (std::vector<std::string>{"b", "a"}));
  EXPECT_TRUE(f.Has("default/a"));
}

// The caller's objects live only for the call; the recorded event keeps
// copies, replayed later through Objects().
TEST(InFlightEventsTest, RecordedEventsOwnTheirObjects) {
  InFlightEvents f;
  framework::PodInfoPtr a = Pod("a");
  f.AddPod(a);
  {
    api::Pod old_pod = st::MakePod().Name("x").Label("v", "1").Obj();
    api::Pod new_pod = st::MakePod().Name("x").Label("v", "2").Obj();
    api::Node node = st::MakeNode().Name("n").Obj();
    ASSERT_TRUE(f.AddEventIfAnyInFlight(Event("pods"), {&old_pod, &new_pod, nullptr, nullptr}));
    ASSERT_TRUE(f.AddEventsIfPodInFlight(a->uid(), {Event("node")}, {nullptr, nullptr, nullptr, &node}));
    old_pod.labels["v"] = "changed";
  }
  std::optional<std::vector<const RecordedEvent*>> events = f.EventsFor(a->uid());
  ASSERT_EQ(events->size(), 2u);
  framework::EventObjects pods = (*events)[0]->Objects();
  ASSERT_NE(pods.old_pod, nullptr);
  ASSERT_NE(pods.new_pod, nullptr);
  EXPECT_EQ(pods.old_pod->labels.at("v"), "1");
  EXPECT_EQ(pods.new_pod->labels.at("v"), "2");
  EXPECT_EQ(pods.old_node, nullptr);
  EXPECT_EQ(pods.new_node, nullptr);
  framework::EventObjects node = (*events)[1]->Objects();
  EXPECT_EQ(node.old_pod, nullptr);
  ASSERT_NE(node.new_node, nullptr);
  EXPECT_EQ(node.new_node->name, "n");
}

}  // namespace
}  // namespace schedref::optimized::backend::queue
