// In-flight pods and the cluster events that arrived while they were being
// scheduled. Specification: upstream pkg/scheduler/backend/queue/
// active_queue.go (inFlightPods, inFlightEvents, addEventIfAnyInFlight,
// addEventsIfPodInFlight, done), v1.32 (docs/semantics/queue.md).
//
// Model: one list in arrival order holding a marker for each popped pod and
// each cluster event received while at least one pod is in flight. The
// events that may concern a pod are those after its marker. When a pod is
// done its marker goes, and so do the events at the head of the list up to
// the next marker (every pod still in flight was popped after them).
//
// Recorded events own copies of their objects (the caller's EventObjects
// point at objects that do not outlive the call). Has / AddPod / Done are
// O(1) expected; EventsFor is O(entries after the marker).
#ifndef SCHEDREF_OPTIMIZED_BACKEND_QUEUE_IN_FLIGHT_EVENTS_H_
#define SCHEDREF_OPTIMIZED_BACKEND_QUEUE_IN_FLIGHT_EVENTS_H_

#include <list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/types/objects.h"
#include "optimized/framework/events.h"
#include "optimized/framework/string_map.h"
#include "optimized/framework/types.h"

namespace schedref::optimized::backend::queue {

// A cluster event and owned copies of the objects it carried.
struct RecordedEvent {
  RecordedEvent() = default;
  // Copies the objects `objects` points at.
  RecordedEvent(framework::ClusterEvent event, const framework::EventObjects& objects);

  framework::ClusterEvent event;
  std::shared_ptr<const api::Pod> old_pod;
  std::shared_ptr<const api::Pod> new_pod;
  std::shared_ptr<const api::Node> old_node;
  std::shared_ptr<const api::Node> new_node;

  // Pointers into this event's copies; valid while it lives.
  framework::EventObjects Objects() const {
    return {old_pod.get(), new_pod.get(), old_node.get(), new_node.get()};
  }
};

class InFlightEvents {
 public:
  // One entry of the list: exactly one of the two is set.
  struct Entry {
    framework::PodInfoPtr pod;  // a pod's marker: the pod as popped
    std::optional<RecordedEvent> event;
  };

  bool Empty() const { return pods_.empty(); }
  bool Has(const std::string& uid) const { return pods_.count(uid) != 0; }

  // Marks the pod in flight and returns true, or returns false (and does
  // nothing) iff a pod with its UID is in flight already.
  bool AddPod(const framework::PodInfoPtr& pod);
  // Records the event iff some pod is in flight; returns whether it did.
  bool AddEventIfAnyInFlight(const framework::ClusterEvent& event,
                             const framework::EventObjects& objects);
  // Records the events, in order and all carrying `objects` (copied once),
  // iff the pod with `uid` is in flight; returns whether it did.
  bool AddEventsIfPodInFlight(const std::string& uid,
                              const std::vector<framework::ClusterEvent>& events,
                              const framework::EventObjects& objects);
  // The events recorded after the pod's marker, oldest first (pointers into
  // the list, valid until the next mutation); nullopt iff the pod is not in
  // flight.
  std::optional<std::vector<const RecordedEvent*>> EventsFor(const std::string& uid) const;
  // Drops the pod's marker and the events no remaining pod can need. No-op
  // if the pod is not in flight.
  void Done(const std::string& uid);

  // The in-flight pods, in the order they were popped.
  std::vector<framework::PodInfoPtr> Pods() const;
  const std::list<Entry>& Entries() const { return entries_; }

 private:
  std::list<Entry> entries_;
  // UID -> the pod's marker in entries_.
  // Keyed by a view of the UID of the marker's PodInfo, which the marker
  // keeps alive: an entry is erased before its marker.
  framework::StringViewMap<std::list<Entry>::iterator> pods_;
};

}  // namespace schedref::optimized::backend::queue

#endif  // SCHEDREF_OPTIMIZED_BACKEND_QUEUE_IN_FLIGHT_EVENTS_H_
