// The in-flight list (upstream active_queue.go; its behaviour is exercised by
// upstream's Test_InFlightPods, transcribed in scheduling_queue_test.cc).
#include "reference/backend/queue/in_flight_events.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "reference/framework/testing/wrappers.h"

namespace schedref::reference::queue {
namespace {

namespace st = framework::st;

RecordedEvent Event(const std::string& label) {
  return {{framework::EventResource::kNode, framework::kAdd, label},
          std::monostate{},
          std::monostate{}};
}

std::vector<std::string> Labels(const std::vector<RecordedEvent>& events) {
  std::vector<std::string> labels;
  for (const RecordedEvent& e : events) labels.push_back(e.event.label);
  return labels;
}

TEST(InFlightEventsTest, EventsAreRecordedOnlyWhilePodsAreInFlight) {
  InFlightEvents f;
  EXPECT_FALSE(f.AddEventIfAnyInFlight(Event("before")));
  EXPECT_TRUE(f.Entries().empty());
  f.AddPod(st::MakePod().Name("a").Obj());
  EXPECT_TRUE(f.AddEventIfAnyInFlight(Event("e1")));
  EXPECT_EQ(f.Entries().size(), 2u);
}

TEST(InFlightEventsTest, EventsForAPodAreThoseAfterItsMarker) {
  InFlightEvents f;
  api::Pod a = st::MakePod().Name("a").Obj();
  api::Pod b = st::MakePod().Name("b").Obj();
  f.AddPod(a);
  ASSERT_TRUE(f.AddEventIfAnyInFlight(Event("e1")));
  f.AddPod(b);
  ASSERT_TRUE(f.AddEventIfAnyInFlight(Event("e2")));
  EXPECT_EQ(Labels(*f.EventsFor(a.uid)),
            (std::vector<std::string>{"e1", "e2"}));
  EXPECT_EQ(Labels(*f.EventsFor(b.uid)), std::vector<std::string>{"e2"});
  EXPECT_FALSE(f.EventsFor("nobody").has_value());
}

TEST(InFlightEventsTest, EventsForOnePod) {
  InFlightEvents f;
  api::Pod a = st::MakePod().Name("a").Obj();
  EXPECT_FALSE(f.AddEventsIfPodInFlight(a.uid, {Event("x")}));
  f.AddPod(a);
  EXPECT_TRUE(f.AddEventsIfPodInFlight(a.uid, {Event("x"), Event("y")}));
  EXPECT_FALSE(f.AddEventsIfPodInFlight("other", {Event("z")}));
  EXPECT_EQ(Labels(*f.EventsFor(a.uid)), (std::vector<std::string>{"x", "y"}));
}

// upstream activeQueue.done: the marker goes, and so do the events at the
// head of the list up to the next marker.
TEST(InFlightEventsTest, DonePrunesLeadingEvents) {
  InFlightEvents f;
  api::Pod a = st::MakePod().Name("a").Obj();
  api::Pod b = st::MakePod().Name("b").Obj();
  api::Pod c = st::MakePod().Name("c").Obj();
  f.AddPod(a);
  ASSERT_TRUE(f.AddEventIfAnyInFlight(Event("e1")));
  f.AddPod(b);
  ASSERT_TRUE(f.AddEventIfAnyInFlight(Event("e2")));
  f.AddPod(c);
  ASSERT_TRUE(f.AddEventIfAnyInFlight(Event("e3")));

  // b is in the middle: only its marker goes.
  f.Done(b.uid);
  EXPECT_EQ(f.Entries().size(), 5u);
  EXPECT_EQ(Labels(*f.EventsFor(a.uid)),
            (std::vector<std::string>{"e1", "e2", "e3"}));
  // a is at the head: e1 and e2 go with it; c still needs e3.
  f.Done(a.uid);
  EXPECT_EQ(f.Entries().size(), 2u);
  EXPECT_EQ(Labels(*f.EventsFor(c.uid)), std::vector<std::string>{"e3"});
  f.Done(c.uid);
  EXPECT_TRUE(f.Entries().empty());
  EXPECT_TRUE(f.Empty());
  f.Done(c.uid);  // no-op
}

TEST(InFlightEventsTest, PodsInPopOrder) {
  InFlightEvents f;
  f.AddPod(st::MakePod().Name("b").Obj());
  f.AddPod(st::MakePod().Name("a").Obj());
  std::vector<std::string> names;
  for (const api::Pod& p : f.Pods()) names.push_back(p.name);
  EXPECT_EQ(names, (std::vector<std::string>{"b", "a"}));
  EXPECT_TRUE(f.Has("default/a"));
}

}  // namespace
}  // namespace schedref::reference::queue
