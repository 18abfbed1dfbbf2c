#include "reference/backend/queue/scheduling_queue.h"

#include <algorithm>
#include <set>
#include <utility>
#include <variant>

#include "api/crash.h"
#include "reference/backend/queue/backoff.h"
#include "reference/backend/queue/cross_topology.h"
#include "reference/backend/queue/pod_events.h"

namespace schedref::reference::queue {
namespace {

// klog.KObj: "namespace/name", or "name" without a namespace.
std::string KObj(const api::Pod& pod) {
  return pod.ns.empty() ? pod.name : pod.ns + "/" + pod.name;
}

std::set<std::string> Rejectors(const framework::QueuedPodInfo& info) {
  std::set<std::string> rejectors = info.unschedulable_plugins;
  rejectors.insert(info.pending_plugins.begin(), info.pending_plugins.end());
  return rejectors;
}

template <typename Less>
std::vector<std::string> KeysInOrder(
    const std::map<std::string, framework::QueuedPodInfo>& queue, Less less) {
  std::vector<const framework::QueuedPodInfo*> infos;
  for (const auto& [key, info] : queue) infos.push_back(&info);
  std::sort(infos.begin(), infos.end(),
            [&](const framework::QueuedPodInfo* a,
                const framework::QueuedPodInfo* b) { return less(*a, *b); });
  std::vector<std::string> keys;
  for (const framework::QueuedPodInfo* info : infos) {
    keys.push_back(info->pod.Key());
  }
  return keys;
}

}  // namespace

SchedulingQueue::SchedulingQueue(Options options,
                                 const framework::QueueSortPlugin* sort,
                                 std::map<std::string, Profile> profiles)
    : options_(std::move(options)),
      sort_(sort),
      profiles_(std::move(profiles)) {}

// --- ordering and backoff ---------------------------------------------------

bool SchedulingQueue::ActiveLess(const framework::QueuedPodInfo& a,
                                 const framework::QueuedPodInfo& b) const {
  if (sort_->Less(a, b)) return true;
  if (sort_->Less(b, a)) return false;
  // Note: equal under QueueSort; upstream's heap leaves the order to its
  // insertion history (docs/deviations.md).
  return a.pod.Key() < b.pod.Key();
}

bool SchedulingQueue::BackoffLess(const framework::QueuedPodInfo& a,
                                  const framework::QueuedPodInfo& b) const {
  api::TimeMs ea = BackoffExpiry(a);
  api::TimeMs eb = BackoffExpiry(b);
  if (ea != eb) return ea < eb;
  return ActiveLess(a, b);
}

api::TimeMs SchedulingQueue::BackoffExpiry(
    const framework::QueuedPodInfo& info) const {
  return queue::BackoffExpiry(info, options_.pod_initial_backoff_ms,
                              options_.pod_max_backoff_ms);
}

bool SchedulingQueue::IsBackingOff(const framework::QueuedPodInfo& info,
                                   api::TimeMs now) const {
  return IsPodBackingOff(info, now, options_.pod_initial_backoff_ms,
                         options_.pod_max_backoff_ms);
}

// --- entering activeQ -------------------------------------------------------

framework::QueuedPodInfo SchedulingQueue::NewQueuedPodInfo(
    const api::Pod& pod, api::TimeMs now) const {
  framework::QueuedPodInfo info;
  info.pod = pod;
  info.timestamp = now;
  return info;
}

bool SchedulingQueue::RunPreEnqueuePlugins(framework::QueuedPodInfo& info) {
  auto profile = profiles_.find(info.pod.scheduler_name);
  if (profile == profiles_.end()) return true;
  for (framework::PreEnqueuePlugin* plugin : profile->second.pre_enqueue) {
    framework::Status status = plugin->PreEnqueue(info.pod);
    if (status.IsSuccess()) continue;
    // Remembered so that an event for this plugin can ungate the pod.
    info.unschedulable_plugins.insert(plugin->Name());
    return false;
  }
  return true;
}

bool SchedulingQueue::MoveToActiveQ(framework::QueuedPodInfo& info, Entry entry,
                                    api::TimeMs now) {
  info.gated = !RunPreEnqueuePlugins(info);
  const std::string key = info.pod.Key();
  if (info.gated) {
    if (active_.count(key) != 0 || backoff_.count(key) != 0) return false;
    unschedulable_[key] = info;
    return false;
  }
  if (!info.initial_attempt_timestamp.has_value()) {
    info.initial_attempt_timestamp = now;
  }
  active_[key] = info;
  unschedulable_.erase(key);
  backoff_.erase(key);
  if (entry == Entry::kPodAdd || entry == Entry::kPodUpdate) {
    nominator_.Add(info.pod, std::nullopt, options_.pod_lister);
  }
  return true;
}

schedref::Status SchedulingQueue::Add(const api::Pod& pod, api::TimeMs now) {
  framework::QueuedPodInfo info = NewQueuedPodInfo(pod, now);
  MoveToActiveQ(info, Entry::kPodAdd, now);
  return schedref::Status::Ok();
}

void SchedulingQueue::Activate(const std::vector<api::Pod>& pods,
                               api::TimeMs now) {
  for (const api::Pod& pod : pods) {
    const std::string key = pod.Key();
    auto unschedulable = unschedulable_.find(key);
    if (unschedulable != unschedulable_.end()) {
      framework::QueuedPodInfo info = unschedulable->second;
      if (MoveToActiveQ(info, Entry::kOther, now)) continue;
    } else if (auto backoff = backoff_.find(key); backoff != backoff_.end()) {
      framework::QueuedPodInfo info = backoff->second;
      if (MoveToActiveQ(info, Entry::kOther, now)) continue;
      // Gated again: it stays in backoffQ with what PreEnqueue recorded.
      if (backoff_.count(key) != 0) backoff_[key] = info;
    }
    // Not (or no longer) activated. If the pod is in flight, an event aimed
    // at it brings it back when it fails (v1.32, PR #128170); the legacy
    // path gets the same from moveRequestCycle.
    in_flight_.AddEventsIfPodInFlight(
        pod.uid,
        {RecordedEvent{framework::ForceActivate(), std::monostate{}, pod}});
    move_request_cycle_ = scheduling_cycle_;
  }
}

// --- informer events --------------------------------------------------------

schedref::Status SchedulingQueue::Update(const api::Pod& old_pod,
                                         const api::Pod& new_pod,
                                         api::TimeMs now) {
  // The update's fine-grained events, for an in-flight pod and for an
  // unschedulable one alike.
  const std::vector<framework::ClusterEvent> events =
      PodSchedulingPropertiesChange(new_pod, old_pod);
  if (options_.queueing_hints_enabled && in_flight_.Has(new_pod.uid)) {
    // Being scheduled: each event is replayed when (if) the pod fails.
    std::vector<RecordedEvent> recorded;
    for (const framework::ClusterEvent& event : events) {
      recorded.push_back(RecordedEvent{event, old_pod, new_pod});
    }
    in_flight_.AddEventsIfPodInFlight(new_pod.uid, recorded);
    return schedref::Status::Ok();
  }

  const std::string old_key = old_pod.Key();
  for (auto* queue : {&active_, &backoff_}) {
    auto it = queue->find(old_key);
    if (it == queue->end()) continue;
    it->second.pod = new_pod;
    nominator_.Update(old_pod, new_pod, options_.pod_lister);
    return schedref::Status::Ok();
  }

  const std::string key = new_pod.Key();
  auto unschedulable = unschedulable_.find(key);
  if (unschedulable != unschedulable_.end()) {
    unschedulable->second.pod = new_pod;
    framework::QueuedPodInfo info = unschedulable->second;
    nominator_.Update(old_pod, info.pod, options_.pod_lister);
    if (options_.queueing_hints_enabled) {
      bool moved_out = false;
      for (const framework::ClusterEvent& event : events) {
        Strategy strategy = IsPodWorthRequeuing(info, event, old_pod, new_pod);
        // Note: upstream would put the pod back into unschedulable here
        // while it also sits in backoffQ (two entries sharing one
        // QueuedPodInfo); the reference keeps it in backoffQ only
        // (docs/deviations.md).
        if (moved_out && strategy == Strategy::kSkip) continue;
        Where where = RequeuePodViaQueueingHint(info, strategy, now);
        if (where != Where::kUnschedulable) {
          unschedulable_.erase(key);
          moved_out = true;
        }
        if (where == Where::kActive) break;
      }
      return schedref::Status::Ok();
    }
    if (IsPodUpdated(old_pod, new_pod)) {
      if (IsBackingOff(info, now)) {
        unschedulable_.erase(key);
        AddToBackoffQ(info);
        return schedref::Status::Ok();
      }
      MoveToActiveQ(info, Entry::kOther, now);
      return schedref::Status::Ok();
    }
    // Nothing that matters changed: it stays.
    return schedref::Status::Ok();
  }

  // In no queue: a new pending pod as far as the queue is concerned.
  framework::QueuedPodInfo info = NewQueuedPodInfo(new_pod, now);
  MoveToActiveQ(info, Entry::kPodUpdate, now);
  return schedref::Status::Ok();
}

schedref::Status SchedulingQueue::Delete(const api::Pod& pod) {
  nominator_.Delete(pod);
  const std::string key = pod.Key();
  if (active_.erase(key) == 0) {
    backoff_.erase(key);
    unschedulable_.erase(key);
  }
  return schedref::Status::Ok();
}

std::vector<std::string>
SchedulingQueue::UnschedulablePodsWithCrossTopologyTerm(
    const api::Pod& assigned) const {
  api::Labels ns_labels;
  if (options_.namespace_labels)
    ns_labels = options_.namespace_labels(assigned.ns);
  std::vector<std::string> keys;
  for (const auto& [key, info] : unschedulable_) {
    if (HasCrossTopologyTermMatching(info, assigned, ns_labels)) {
      keys.push_back(key);
    }
  }
  return keys;
}

void SchedulingQueue::AssignedPodAdded(const api::Pod& pod, api::TimeMs now) {
  MovePodsToActiveOrBackoffQueue(UnschedulablePodsWithCrossTopologyTerm(pod),
                                 framework::AssignedPodAdd(), std::monostate{},
                                 pod, now);
}

void SchedulingQueue::AssignedPodUpdated(const api::Pod& old_pod,
                                         const api::Pod& new_pod,
                                         api::TimeMs now) {
  for (const framework::ClusterEvent& event :
       PodSchedulingPropertiesChange(new_pod, old_pod)) {
    AssignedPodUpdated(old_pod, new_pod, event, now);
  }
}

void SchedulingQueue::AssignedPodUpdated(const api::Pod& old_pod,
                                         const api::Pod& new_pod,
                                         const framework::ClusterEvent& event,
                                         api::TimeMs now) {
  if (event.resource == framework::EventResource::kPod &&
      (event.action & framework::kUpdatePodScaleDown) != 0) {
    // Freed resources may help any pod, not only cross-topology ones.
    MoveAllToActiveOrBackoffQueue(framework::AssignedPodUpdate(), old_pod,
                                  new_pod, nullptr, now);
    return;
  }
  MovePodsToActiveOrBackoffQueue(
      UnschedulablePodsWithCrossTopologyTerm(new_pod), event, old_pod, new_pod,
      now);
}

// --- requeueing
// ---------------------------------------------------------------

bool SchedulingQueue::IsEventOfInterest(
    const framework::ClusterEvent& event) const {
  if (event.IsWildCard()) return true;
  for (const auto& [name, profile] : profiles_) {
    for (const auto& [plugin, registrations] : profile.queueing_hints) {
      for (const framework::ClusterEventWithHint& r : registrations) {
        if (r.event.Match(event)) return true;
      }
    }
  }
  return false;
}

SchedulingQueue::Strategy SchedulingQueue::IsPodWorthRequeuing(
    const framework::QueuedPodInfo& info, const framework::ClusterEvent& event,
    const framework::EventObject& old_obj,
    const framework::EventObject& new_obj) const {
  const std::set<std::string> rejectors = Rejectors(info);
  // Failed for no plugin's reason (an error): always worth another try.
  if (rejectors.empty()) return Strategy::kAfterBackoff;

  if (event.IsWildCard()) {
    // A wildcard event carrying a pod is aimed at that pod only
    // (ForceActivate of an in-flight pod, v1.32).
    if (!std::holds_alternative<std::monostate>(new_obj)) {
      const api::Pod* target = std::get_if<api::Pod>(&new_obj);
      if (target == nullptr || target->uid != info.pod.uid) {
        return Strategy::kSkip;
      }
    }
    return Strategy::kAfterBackoff;
  }

  auto profile = profiles_.find(info.pod.scheduler_name);
  // Upstream logs this as a bug and requeues.
  if (profile == profiles_.end()) return Strategy::kAfterBackoff;

  Strategy strategy = Strategy::kSkip;
  for (const auto& [plugin, registrations] : profile->second.queueing_hints) {
    if (rejectors.count(plugin) == 0) continue;
    for (const framework::ClusterEventWithHint& r : registrations) {
      if (!r.event.Match(event)) continue;
      framework::QueueingHint hint = framework::QueueingHint::kQueue;
      if (r.hint) {
        StatusOr<framework::QueueingHint> got =
            r.hint(info.pod, old_obj, new_obj);
        // An error counts as Queue, so that the pod cannot get stuck.
        if (got.ok()) hint = *got;
      }
      if (hint == framework::QueueingHint::kSkip) continue;
      // A Pending plugin's Queue skips backoff: nothing can beat that.
      if (info.pending_plugins.count(plugin) != 0) {
        return Strategy::kImmediately;
      }
      // Only a Pending plugin could raise it further.
      if (info.pending_plugins.empty()) return Strategy::kAfterBackoff;
      strategy = Strategy::kAfterBackoff;
    }
  }
  return strategy;
}

SchedulingQueue::Strategy
SchedulingQueue::DetermineSchedulingHintForInFlightPod(
    const framework::QueuedPodInfo& info) const {
  if (info.unschedulable_plugins.empty() && info.pending_plugins.empty()) {
    return Strategy::kAfterBackoff;
  }
  std::optional<std::vector<RecordedEvent>> events =
      in_flight_.EventsFor(info.pod.uid);
  // Upstream logs "in flight Pod isn't found" and requeues.
  if (!events.has_value()) return Strategy::kAfterBackoff;

  Strategy strategy = Strategy::kSkip;
  for (const RecordedEvent& e : *events) {
    switch (IsPodWorthRequeuing(info, e.event, e.old_obj, e.new_obj)) {
      case Strategy::kSkip:
        continue;
      case Strategy::kImmediately:
        return Strategy::kImmediately;
      case Strategy::kAfterBackoff:
        strategy = Strategy::kAfterBackoff;
        if (info.pending_plugins.empty()) return strategy;
        break;
    }
  }
  return strategy;
}

SchedulingQueue::Where SchedulingQueue::RequeuePodViaQueueingHint(
    framework::QueuedPodInfo& info, Strategy strategy, api::TimeMs now) {
  if (strategy == Strategy::kSkip) {
    AddToUnschedulable(info);
    return Where::kUnschedulable;
  }
  if (strategy == Strategy::kAfterBackoff && IsBackingOff(info, now)) {
    AddToBackoffQ(info);
    return Where::kBackoff;
  }
  if (MoveToActiveQ(info, Entry::kOther, now)) return Where::kActive;
  // Gated: MoveToActiveQ left it in unschedulable (or where it already was).
  if (info.gated) return Where::kUnschedulable;
  AddToUnschedulable(info);
  return Where::kUnschedulable;
}

void SchedulingQueue::MovePodsToActiveOrBackoffQueue(
    const std::vector<std::string>& keys, const framework::ClusterEvent& event,
    const framework::EventObject& old_obj,
    const framework::EventObject& new_obj, api::TimeMs now) {
  if (!IsEventOfInterest(event)) return;

  for (const std::string& key : keys) {
    auto it = unschedulable_.find(key);
    if (it == unschedulable_.end()) continue;
    framework::QueuedPodInfo info = it->second;
    // Only an update of the pod itself can lift scheduling gates; skipping
    // such pods here is upstream's hot fix for kubernetes#124384.
    if (info.gated &&
        info.unschedulable_plugins.count(kSchedulingGatesPlugin)) {
      continue;
    }
    Strategy strategy = IsPodWorthRequeuing(info, event, old_obj, new_obj);
    if (strategy == Strategy::kSkip) continue;
    unschedulable_.erase(it);
    RequeuePodViaQueueingHint(info, strategy, now);
  }

  move_request_cycle_ = scheduling_cycle_;
  if (options_.queueing_hints_enabled) {
    in_flight_.AddEventIfAnyInFlight(RecordedEvent{event, old_obj, new_obj});
  }
}

void SchedulingQueue::MoveAllToActiveOrBackoffQueue(
    const framework::ClusterEvent& event, const framework::EventObject& old_obj,
    const framework::EventObject& new_obj,
    std::function<bool(const api::Pod&)> pre_check, api::TimeMs now) {
  // Checked before pre_check runs, as upstream does.
  if (!IsEventOfInterest(event)) return;
  std::vector<std::string> keys;
  for (const auto& [key, info] : unschedulable_) {
    if (!pre_check || pre_check(info.pod)) keys.push_back(key);
  }
  MovePodsToActiveOrBackoffQueue(keys, event, old_obj, new_obj, now);
}

void SchedulingQueue::AddToBackoffQ(framework::QueuedPodInfo info) {
  std::string key = info.pod.Key();
  backoff_[key] = std::move(info);
}

void SchedulingQueue::AddToUnschedulable(framework::QueuedPodInfo info) {
  std::string key = info.pod.Key();
  unschedulable_[key] = std::move(info);
}

// --- the scheduling loop
// ------------------------------------------------------

std::optional<framework::QueuedPodInfo> SchedulingQueue::Pop() {
  framework::PinnedChoices pinned;
  return Pop(pinned);
}

std::optional<framework::QueuedPodInfo> SchedulingQueue::Pop(
    framework::Choices& choices) {
  bool first = true;
  while (!active_.empty()) {
    auto head = active_.begin();
    for (auto it = std::next(active_.begin()); it != active_.end(); ++it) {
      if (ActiveLess(it->second, head->second)) head = it;
    }
    if (first) {
      // Only the pod this cycle starts with is a choice; a duplicate
      // dropped below gives way to the head.
      first = false;
      framework::PopChoice choice;
      choice.cycle = scheduling_cycle_ + 1;
      choice.head = head->second.pod.Key();
      choice.why_not_tied = [&](const std::string& key) -> std::string {
        auto it = std::find_if(active_.begin(), active_.end(), [&](const auto& e) {
          return e.second.pod.Key() == key;
        });
        if (it == active_.end()) return "pod " + key + " is not in activeQ";
        if (sort_->Less(head->second, it->second)) {
          return "pod " + key + " does not tie with " + head->second.pod.Key() +
                 " at the head of activeQ";
        }
        return "";
      };
      const std::string chosen = choices.Pop(choice);
      if (chosen != choice.head) {
        head = std::find_if(active_.begin(), active_.end(), [&](const auto& e) {
          return e.second.pod.Key() == chosen;
        });
        if (head == active_.end()) {
          Crash("the queue's pop choice " + chosen + " is not in activeQ");
        }
      }
    }
    framework::QueuedPodInfo info = std::move(head->second);
    active_.erase(head);
    ++info.attempts;
    if (options_.queueing_hints_enabled) {
      // Already being scheduled: upstream drops the duplicate (a bug guard,
      // PR #127016) and pops the next pod.
      if (in_flight_.Has(info.pod.uid)) continue;
      in_flight_.AddPod(info.pod);
    }
    ++scheduling_cycle_;
    // The next attempt records its own rejectors.
    info.unschedulable_plugins.clear();
    info.pending_plugins.clear();
    return info;
  }
  return std::nullopt;
}

void SchedulingQueue::Done(const std::string& pod_uid) {
  if (!options_.queueing_hints_enabled) return;
  in_flight_.Done(pod_uid);
}

schedref::Status SchedulingQueue::AddUnschedulableIfNotPresent(
    framework::QueuedPodInfo pod_info, int64_t pod_scheduling_cycle,
    api::TimeMs now) {
  const std::string uid = pod_info.pod.uid;
  const std::string key = pod_info.pod.Key();
  schedref::Status result;
  if (unschedulable_.count(key) != 0) {
    result = schedref::Status::FailedPrecondition(
        "Pod " + KObj(pod_info.pod) +
        " is already present in unschedulable queue");
  } else if (active_.count(key) != 0) {
    result = schedref::Status::FailedPrecondition(
        "Pod " + KObj(pod_info.pod) +
        " is already present in the active queue");
  } else if (backoff_.count(key) != 0) {
    result = schedref::Status::FailedPrecondition(
        "Pod " + KObj(pod_info.pod) +
        " is already present in the backoff queue");
  } else if (!options_.queueing_hints_enabled) {
    // Legacy: any event of interest since this pod's cycle began, or a
    // failure no plugin explains, sends it to backoffQ.
    pod_info.timestamp = now;
    if (move_request_cycle_ >= pod_scheduling_cycle ||
        Rejectors(pod_info).empty()) {
      AddToBackoffQ(std::move(pod_info));
    } else {
      AddToUnschedulable(std::move(pod_info));
    }
  } else {
    pod_info.timestamp = now;
    Strategy strategy = DetermineSchedulingHintForInFlightPod(pod_info);
    RequeuePodViaQueueingHint(pod_info, strategy, now);
  }
  // In every case the attempt is over (upstream defers Done).
  Done(uid);
  return result;
}

void SchedulingQueue::FlushBackoffQCompleted(api::TimeMs now) {
  while (!backoff_.empty()) {
    auto head = backoff_.begin();
    for (auto it = std::next(backoff_.begin()); it != backoff_.end(); ++it) {
      if (BackoffLess(it->second, head->second)) head = it;
    }
    if (IsBackingOff(head->second, now)) break;
    framework::QueuedPodInfo info = std::move(head->second);
    backoff_.erase(head);
    MoveToActiveQ(info, Entry::kOther, now);
  }
}

void SchedulingQueue::FlushUnschedulablePodsLeftover(api::TimeMs now) {
  std::vector<std::string> keys;
  for (const auto& [key, info] : unschedulable_) {
    if (now - info.timestamp > options_.pod_max_in_unschedulable_pods_ms) {
      keys.push_back(key);
    }
  }
  if (keys.empty()) return;
  MovePodsToActiveOrBackoffQueue(keys, framework::UnschedulableTimeout(),
                                 std::monostate{}, std::monostate{}, now);
}

// --- nominator
// ------------------------------------------------------------------

void SchedulingQueue::AddNominatedPod(
    const api::Pod& pod, const std::optional<NominatingInfo>& info) {
  nominator_.Add(pod, info, options_.pod_lister);
}

void SchedulingQueue::DeleteNominatedPodIfExists(const api::Pod& pod) {
  nominator_.Delete(pod);
}

std::vector<api::Pod> SchedulingQueue::NominatedPodsForNode(
    const std::string& node) const {
  std::vector<api::Pod> pods;
  for (const api::Pod& nominated : nominator_.PodsForNode(node)) {
    const std::string key = nominated.Key();
    const api::Pod* current = &nominated;
    for (const auto* queue : {&active_, &unschedulable_, &backoff_}) {
      auto it = queue->find(key);
      if (it != queue->end()) {
        current = &it->second.pod;
        break;
      }
    }
    pods.push_back(*current);
  }
  return pods;
}

// --- introspection
// --------------------------------------------------------------

SchedulingQueue::Where SchedulingQueue::Locate(
    const std::string& pod_key) const {
  if (active_.count(pod_key) != 0) return Where::kActive;
  if (backoff_.count(pod_key) != 0) return Where::kBackoff;
  if (unschedulable_.count(pod_key) != 0) return Where::kUnschedulable;
  for (const api::Pod& pod : in_flight_.Pods()) {
    if (pod.Key() == pod_key) return Where::kInFlight;
  }
  return Where::kAbsent;
}

std::optional<framework::QueuedPodInfo> SchedulingQueue::Get(
    const std::string& pod_key) const {
  for (const auto* queue : {&active_, &backoff_, &unschedulable_}) {
    auto it = queue->find(pod_key);
    if (it != queue->end()) return it->second;
  }
  return std::nullopt;
}

std::vector<std::string> SchedulingQueue::ActivePodKeys() const {
  return KeysInOrder(active_, [this](const auto& a, const auto& b) {
    return ActiveLess(a, b);
  });
}

std::vector<std::string> SchedulingQueue::BackoffPodKeys() const {
  return KeysInOrder(backoff_, [this](const auto& a, const auto& b) {
    return BackoffLess(a, b);
  });
}

std::vector<std::string> SchedulingQueue::UnschedulablePodKeys() const {
  std::vector<std::string> keys;
  for (const auto& [key, info] : unschedulable_) keys.push_back(key);
  return keys;
}

std::vector<std::string> SchedulingQueue::InFlightPodKeys() const {
  std::vector<std::string> keys;
  for (const api::Pod& pod : in_flight_.Pods()) keys.push_back(pod.Key());
  return keys;
}

std::vector<std::string> SchedulingQueue::InFlightEntries() const {
  std::vector<std::string> entries;
  for (const InFlightEvents::Entry& e : in_flight_.Entries()) {
    entries.push_back(e.pod.has_value() ? "pod:" + e.pod->Key()
                                        : e.event->event.label);
  }
  return entries;
}

}  // namespace schedref::reference::queue
