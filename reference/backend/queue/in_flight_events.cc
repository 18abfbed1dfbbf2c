#include "reference/backend/queue/in_flight_events.h"

#include <cassert>

namespace schedref::reference::queue {

void InFlightEvents::AddPod(const api::Pod& pod) {
  assert(!Has(pod.uid));
  entries_.push_back(Entry{pod, std::nullopt});
  pods_[pod.uid] = std::prev(entries_.end());
}

bool InFlightEvents::AddEventIfAnyInFlight(const RecordedEvent& event) {
  if (pods_.empty()) return false;
  entries_.push_back(Entry{std::nullopt, event});
  return true;
}

bool InFlightEvents::AddEventsIfPodInFlight(
    const std::string& uid, const std::vector<RecordedEvent>& events) {
  if (!Has(uid)) return false;
  for (const RecordedEvent& e : events) {
    entries_.push_back(Entry{std::nullopt, e});
  }
  return true;
}

std::optional<std::vector<RecordedEvent>> InFlightEvents::EventsFor(
    const std::string& uid) const {
  auto it = pods_.find(uid);
  if (it == pods_.end()) return std::nullopt;
  std::vector<RecordedEvent> events;
  for (auto e = std::next(it->second); e != entries_.end(); ++e) {
    // Markers of pods popped later are not events.
    if (e->event.has_value()) events.push_back(*e->event);
  }
  return events;
}

void InFlightEvents::Done(const std::string& uid) {
  auto it = pods_.find(uid);
  if (it == pods_.end()) return;
  entries_.erase(it->second);
  pods_.erase(it);
  while (!entries_.empty() && entries_.front().event.has_value()) {
    entries_.pop_front();
  }
}

std::vector<api::Pod> InFlightEvents::Pods() const {
  std::vector<api::Pod> pods;
  for (const Entry& e : entries_) {
    if (e.pod.has_value()) pods.push_back(*e.pod);
  }
  return pods;
}

}  // namespace schedref::reference::queue
