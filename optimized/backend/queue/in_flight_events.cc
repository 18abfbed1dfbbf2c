#include "optimized/backend/queue/in_flight_events.h"

#include <utility>

namespace schedref::optimized::backend::queue {
namespace {

template <typename T>
std::shared_ptr<const T> CopyOf(const T* object) {
  return object == nullptr ? nullptr : std::make_shared<const T>(*object);
}

}  // namespace

RecordedEvent::RecordedEvent(framework::ClusterEvent e, const framework::EventObjects& objects)
    : event(std::move(e)),
      old_pod(CopyOf(objects.old_pod)),
      new_pod(CopyOf(objects.new_pod)),
      old_node(CopyOf(objects.old_node)),
      new_node(CopyOf(objects.new_node)) {}

bool InFlightEvents::AddPod(const framework::PodInfoPtr& pod) {
  auto [it, added] = pods_.try_emplace(pod->uid());
  if (!added) return false;
  entries_.push_back(Entry{pod, std::nullopt});
  it->second = std::prev(entries_.end());
  return true;
}

bool InFlightEvents::AddEventIfAnyInFlight(const framework::ClusterEvent& event,
                                           const framework::EventObjects& objects) {
  if (pods_.empty()) return false;
  entries_.push_back(Entry{nullptr, RecordedEvent(event, objects)});
  return true;
}

bool InFlightEvents::AddEventsIfPodInFlight(const std::string& uid,
                                            const std::vector<framework::ClusterEvent>& events,
                                            const framework::EventObjects& objects) {
  if (!Has(uid)) return false;
  const RecordedEvent copies({}, objects);
  for (const framework::ClusterEvent& event : events) {
    RecordedEvent recorded = copies;  // shares the copied objects
    recorded.event = event;
    entries_.push_back(Entry{nullptr, std::move(recorded)});
  }
  return true;
}

std::optional<std::vector<const RecordedEvent*>> InFlightEvents::EventsFor(
    const std::string& uid) const {
  auto it = pods_.find(uid);
  if (it == pods_.end()) return std::nullopt;
  std::vector<const RecordedEvent*> events;
  for (auto e = std::next(it->second); e != entries_.end(); ++e) {
    // Markers of pods popped later are not events.
    if (e->event.has_value()) events.push_back(&*e->event);
  }
  return events;
}

void InFlightEvents::Done(const std::string& uid) {
  auto it = pods_.find(uid);
  if (it == pods_.end()) return;
  const std::list<Entry>::iterator marker = it->second;
  pods_.erase(it);  // first: its key views the marker's PodInfo
  entries_.erase(marker);
  while (!entries_.empty() && entries_.front().event.has_value()) entries_.pop_front();
}

std::vector<framework::PodInfoPtr> InFlightEvents::Pods() const {
  std::vector<framework::PodInfoPtr> pods;
  for (const Entry& e : entries_) {
    if (e.pod != nullptr) pods.push_back(e.pod);
  }
  return pods;
}

}  // namespace schedref::optimized::backend::queue
