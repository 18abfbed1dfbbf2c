// In-flight pods and the cluster events that arrived while they were being
// scheduled. Specification: upstream pkg/scheduler/backend/queue/
// active_queue.go (inFlightPods, inFlightEvents, clusterEventsForPod,
// addEventIfAnyInFlight, addEventsIfPodInFlight, done), v1.32.
//
// Model: one list in arrival order, holding two kinds of entries: a marker
// for each popped pod (added by Pop) and each cluster event received while
// at least one pod is in flight. The events that may concern a pod are those
// after its marker. When a pod is done its marker goes, and so do the events
// at the head of the list up to the next marker: every pod still in flight
// was popped after them.
#ifndef SCHEDREF_REFERENCE_BACKEND_QUEUE_IN_FLIGHT_EVENTS_H_
#define SCHEDREF_REFERENCE_BACKEND_QUEUE_IN_FLIGHT_EVENTS_H_

#include <list>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "api/types/objects.h"
#include "reference/framework/events.h"

namespace schedref::reference::queue {

// A cluster event and the objects it carried.
struct RecordedEvent {
  framework::ClusterEvent event;
  framework::EventObject old_obj;
  framework::EventObject new_obj;
};

class InFlightEvents {
 public:
  // One entry of the list: exactly one of the two is set.
  struct Entry {
    std::optional<api::Pod> pod;  // a pod's marker, the pod as popped
    std::optional<RecordedEvent> event;
  };

  bool Empty() const { return pods_.empty(); }
  bool Has(const std::string& uid) const { return pods_.count(uid) != 0; }

  // Marks `pod` in flight. REQUIRES: !Has(pod.uid).
  void AddPod(const api::Pod& pod);
  // Records the event iff some pod is in flight; returns whether it did.
  bool AddEventIfAnyInFlight(const RecordedEvent& event);
  // Records the events iff the pod with `uid` is in flight; returns whether
  // it did.
  bool AddEventsIfPodInFlight(const std::string& uid,
                              const std::vector<RecordedEvent>& events);
  // The events recorded after the pod's marker, oldest first; nullopt iff
  // the pod is not in flight.
  std::optional<std::vector<RecordedEvent>> EventsFor(
      const std::string& uid) const;
  // Drops the pod's marker and the events no remaining pod can need. No-op
  // if the pod is not in flight.
  void Done(const std::string& uid);

  // The in-flight pods, in the order they were popped.
  std::vector<api::Pod> Pods() const;
  const std::list<Entry>& Entries() const { return entries_; }

 private:
  std::list<Entry> entries_;
  // UID -> the pod's marker in entries_.
  std::map<std::string, std::list<Entry>::iterator> pods_;
};

}  // namespace schedref::reference::queue

#endif  // SCHEDREF_REFERENCE_BACKEND_QUEUE_IN_FLIGHT_EVENTS_H_
