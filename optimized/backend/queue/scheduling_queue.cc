#include "optimized/backend/queue/scheduling_queue.h"

#include <algorithm>
#include <utility>

#include "optimized/backend/queue/backoff.h"
#include "optimized/backend/queue/cross_topology.h"
#include "optimized/backend/queue/pod_events.h"
#include "optimized/framework/string_sort.h"

namespace schedref::optimized::backend::queue {
namespace {

// klog.KObj: "namespace/name", or "name" without a namespace.
std::string KObj(const api::Pod& pod) {
  return pod.ns.empty() ? pod.name : pod.ns + "/" + pod.name;
}

bool HasRejectors(const framework::QueuedPodInfo& info) {
  return !info.unschedulable_plugins.empty() || !info.pending_plugins.empty();
}

}  // namespace

SchedulingQueue::SchedulingQueue(Options options, const framework::QueueSortPlugin* sort,
                                 std::map<std::string, Profile> profiles)
    : options_(std::move(options)),
      sort_(sort),
      profiles_(std::move(profiles)),
      active_(ActiveCmp{this}),
      backoff_(BackoffCmp{this}) {}

SchedulingQueue::~SchedulingQueue() = default;

// --- ordering and backoff -------------------------------------------------------

bool SchedulingQueue::ActiveLess(const framework::QueuedPodInfo& a,
                                 const framework::QueuedPodInfo& b) const {
  if (sort_->Less(a, b)) return true;
  if (sort_->Less(b, a)) return false;
  // Note: equal under QueueSort; upstream's heap leaves the order to its
  // insertion history (docs/deviations.md "Scheduling queue").
  return a.pod_info->key < b.pod_info->key;
}

inline bool SchedulingQueue::KeyLess(const Entry* a, const Entry* b) {
  // Zero padding orders a key before every longer key it begins, as the
  // string order does; a NUL byte inside a key can make two different keys'
  // words equal, so equal words are settled by the strings.
  for (size_t w = 0; w < Entry::kKeyWords; ++w) {
    if (a->key_words[w] != b->key_words[w]) return a->key_words[w] < b->key_words[w];
  }
  return a->key < b->key;
}

// Inlined into the set operations below: most of a queue operation is its
// comparisons. The plugin's Less is called out of line, only for entries
// without a sort key.
inline bool SchedulingQueue::ActiveLess(const Entry* a, const Entry* b) const {
  if (a->keyed && b->keyed) [[likely]] {
    // QueueSortPlugin::SortKey: the key order is Less's.
    if (a->sort_key != b->sort_key) return a->sort_key < b->sort_key;
    return KeyLess(a, b);
  }
  return ActiveLess(a->info, b->info);
}

bool SchedulingQueue::ActiveCmp::operator()(const Entry* a, const Entry* b) const {
  return q->ActiveLess(a, b);
}

bool SchedulingQueue::BackoffCmp::operator()(const Entry* a, const Entry* b) const {
  // Note: v1.32's heap leaves equal expiries unordered; this is v1.33's
  // rule (docs/deviations.md "Scheduling queue").
  if (a->backoff_expiry != b->backoff_expiry) return a->backoff_expiry < b->backoff_expiry;
  return q->ActiveLess(a, b);
}

bool SchedulingQueue::KeyCmp::operator()(const Entry* a, const Entry* b) const {
  return KeyLess(a, b);
}

api::TimeMs SchedulingQueue::BackoffExpiry(const framework::QueuedPodInfo& info) const {
  return queue::BackoffExpiry(info, options_.pod_initial_backoff_ms,
                              options_.pod_max_backoff_ms);
}

bool SchedulingQueue::IsBackingOff(const framework::QueuedPodInfo& info,
                                   api::TimeMs now) const {
  return BackoffExpiry(info) > now;
}

// --- entries ----------------------------------------------------------------------

SchedulingQueue::Entry* SchedulingQueue::Find(const std::string& key) const {
  auto it = entries_.find(key);
  return it == entries_.end() ? nullptr : it->second.get();
}

void SchedulingQueue::Link(Entry* e, Where where) {
  e->where = where;
  // Before any insertion: activeQ's and backoffQ's order reads them.
  const std::optional<framework::QueueSortKey> sort_key = sort_->SortKey(e->info);
  e->keyed = sort_key.has_value();
  if (e->keyed) e->sort_key = *sort_key;
  switch (where) {
    // Hinted at the end: pods usually enter in order (same priority, later
    // timestamps), and then the insertion compares with the last entry only
    // instead of walking down from the root.
    case Where::kActive:
      active_.insert(active_.end(), e);
      break;
    case Where::kBackoff:
      e->backoff_expiry = BackoffExpiry(e->info);
      backoff_.insert(backoff_.end(), e);
      break;
    case Where::kUnschedulable:
      e->interest = HintInterestOf(e->info);
      unschedulable_.insert(e);
      break;
    case Where::kInFlight:
    case Where::kAbsent:
      break;
  }
}

void SchedulingQueue::Unlink(Entry* e) {
  switch (e->where) {
    case Where::kActive:
      active_.erase(e);
      break;
    case Where::kBackoff:
      backoff_.erase(e);
      break;
    case Where::kUnschedulable:
      unschedulable_.erase(e);
      break;
    case Where::kInFlight:
    case Where::kAbsent:
      break;
  }
  e->where = Where::kAbsent;
}

void SchedulingQueue::Put(const framework::QueuedPodInfo& info, Where where) {
  framework::QueuedPodInfo copy = info;
  Put(std::move(copy), where);
}

void SchedulingQueue::Put(framework::QueuedPodInfo&& info, Where where) {
  const std::string& key = info.pod_info->key;
  bool inserted = false;
  // One lookup: the entry (keyed by its own copy of the key) is made only
  // if there is none.
  auto it = entries_.lazy_emplace(key, [&](const auto& construct) {
    auto entry = std::make_unique<Entry>();
    if (key.size() <= sizeof(entry->key_copy)) {
      std::copy(key.begin(), key.end(), entry->key_copy);
      entry->key = std::string_view(entry->key_copy, key.size());
    } else {
      entry->long_key = key;
      entry->key = entry->long_key;
    }
    for (size_t w = 0; w < Entry::kKeyWords; ++w) {
      entry->key_words[w] = framework::KeyWordAt(key, w * 8);
    }
    const std::string_view entry_key = entry->key;
    construct(entry_key, std::move(entry));
    inserted = true;
  });
  Entry* e = it->second.get();
  if (!inserted) Unlink(e);
  e->info = std::move(info);
  Link(e, where);
  nominator_.NoteQueueEntryChanged(e->key);
}

void SchedulingQueue::Drop(Entry* e) {
  // By the entry's own copy of the key, which is in cache where the
  // PodInfo's may not be; found before the erase frees the entry.
  auto it = entries_.find(e->key);
  // By the entry's key: the caller may have moved its info out.
  nominator_.NoteQueueEntryChanged(e->key);
  entries_.erase(it);
}

void SchedulingQueue::Erase(const std::string& key) {
  auto it = entries_.find(key);
  if (it == entries_.end()) return;
  Unlink(it->second.get());
  nominator_.NoteQueueEntryChanged(key);
  entries_.erase(it);
}

// --- entering activeQ -----------------------------------------------------------

const SchedulingQueue::Profile* SchedulingQueue::ProfileFor(const api::Pod& pod) const {
  auto it = profiles_.find(pod.scheduler_name);
  return it == profiles_.end() ? nullptr : &it->second;
}

framework::QueuedPodInfo SchedulingQueue::NewQueuedPodInfo(framework::PodInfoPtr pod,
                                                           api::TimeMs now) const {
  framework::QueuedPodInfo info;
  info.pod_info = std::move(pod);
  info.timestamp = now;
  return info;
}

bool SchedulingQueue::RunPreEnqueuePlugins(framework::QueuedPodInfo& info) const {
  const Profile* profile = ProfileFor(info.pod());
  if (profile == nullptr) return true;
  for (framework::PreEnqueuePlugin* plugin : profile->pre_enqueue) {
    framework::Status status = plugin->PreEnqueue(info.pod());
    if (status.IsSuccess()) continue;
    // Remembered so that an event for this plugin can ungate the pod.
    info.unschedulable_plugins.insert(plugin->Name());
    return false;
  }
  return true;
}

bool SchedulingQueue::MoveToActiveQ(framework::QueuedPodInfo& info, EntryReason reason,
                                    api::TimeMs now) {
  info.gated = !RunPreEnqueuePlugins(info);
  if (info.gated) {
    const Entry* e = Find(info.pod_info->key);
    if (e != nullptr && (e->where == Where::kActive || e->where == Where::kBackoff)) {
      return false;
    }
    Put(info, Where::kUnschedulable);
    return false;
  }
  if (!info.initial_attempt_timestamp.has_value()) info.initial_attempt_timestamp = now;
  // The nominator keeps its own map: adding before the entry changes
  // nothing, and the entry then takes `info` without a copy.
  if (reason != EntryReason::kOther) {
    nominator_.Add(info.pod_info, std::nullopt, options_.pod_lister);
  }
  Put(std::move(info), Where::kActive);
  return true;
}

schedref::Status SchedulingQueue::Add(const api::Pod& pod, api::TimeMs now) {
  return Add(framework::NewPodInfo(pod), now);
}

schedref::Status SchedulingQueue::Add(framework::PodInfoPtr pod, api::TimeMs now) {
  framework::QueuedPodInfo info = NewQueuedPodInfo(std::move(pod), now);
  MoveToActiveQ(info, EntryReason::kPodAdd, now);
  return schedref::Status::Ok();
}

void SchedulingQueue::Activate(const std::vector<api::Pod>& pods, api::TimeMs now) {
  for (const api::Pod& pod : pods) {
    const std::string key = pod.Key();
    Entry* e = Find(key);
    if (e != nullptr && e->where == Where::kUnschedulable) {
      framework::QueuedPodInfo info = e->info;
      if (MoveToActiveQ(info, EntryReason::kOther, now)) continue;
    } else if (e != nullptr && e->where == Where::kBackoff) {
      framework::QueuedPodInfo info = e->info;
      if (MoveToActiveQ(info, EntryReason::kOther, now)) continue;
      // Gated again: it stays in backoffQ with what PreEnqueue recorded.
      const Entry* still = Find(key);
      if (still != nullptr && still->where == Where::kBackoff) Put(info, Where::kBackoff);
    }
    // Not (or no longer) activated. If the pod is in flight, an event aimed
    // at it brings it back when it fails (v1.32, PR #128170); the legacy
    // path gets the same from moveRequestCycle.
    in_flight_.AddEventsIfPodInFlight(pod.uid, {framework::ForceActivate()},
                                      framework::EventObjects{nullptr, &pod, nullptr, nullptr});
    move_request_cycle_ = scheduling_cycle_;
  }
}

// --- informer events --------------------------------------------------------------

schedref::Status SchedulingQueue::Update(const api::Pod& old_pod, const api::Pod& new_pod,
                                         api::TimeMs now) {
  return Update(old_pod, framework::NewPodInfo(new_pod), now);
}

schedref::Status SchedulingQueue::Update(const api::Pod& old_pod,
                                         framework::PodInfoPtr new_info, api::TimeMs now) {
  const api::Pod& new_pod = new_info->pod;
  const framework::EventObjects objects{&old_pod, &new_pod, nullptr, nullptr};
  if (options_.queueing_hints_enabled) {
    // Being scheduled: each fine-grained event of the update is replayed
    // when (if) the pod fails.
    if (in_flight_.Has(new_pod.uid)) {
      in_flight_.AddEventsIfPodInFlight(
          new_pod.uid, PodSchedulingPropertiesChange(new_pod, old_pod), objects);
      return schedref::Status::Ok();
    }
  }

  if (Entry* e = Find(old_pod.Key());
      e != nullptr && (e->where == Where::kActive || e->where == Where::kBackoff)) {
    // Replaced in place; relinked because the sort may read the pod.
    const Where where = e->where;
    Unlink(e);
    e->info.pod_info = new_info;
    nominator_.NoteQueueEntryChanged(new_info->key);
    Link(e, where);
    nominator_.Update(old_pod, e->info.pod_info, options_.pod_lister);
    return schedref::Status::Ok();
  }

  if (Entry* e = Find(new_info->key); e != nullptr && e->where == Where::kUnschedulable) {
    // Same key, so its place in unschedulable does not move.
    e->info.pod_info = new_info;
    nominator_.NoteQueueEntryChanged(new_info->key);
    e->interest = HintInterestOf(e->info);  // the profile is the pod's
    framework::QueuedPodInfo info = e->info;
    nominator_.Update(old_pod, info.pod_info, options_.pod_lister);
    if (options_.queueing_hints_enabled) {
      bool moved_out = false;
      for (const framework::ClusterEvent& event :
           PodSchedulingPropertiesChange(new_pod, old_pod)) {
        Strategy strategy = IsPodWorthRequeuing(info, event, objects);
        // Note: upstream would put the pod back into unschedulable here
        // while it also sits in backoffQ; the reference keeps it in
        // backoffQ only (docs/deviations.md "Scheduling queue").
        if (moved_out && strategy == Strategy::kSkip) continue;
        // A pod requeued elsewhere has left unschedulable with it (one
        // entry per key).
        Where where = RequeuePodViaQueueingHint(info, strategy, now);
        if (where != Where::kUnschedulable) moved_out = true;
        if (where == Where::kActive) break;
      }
      return schedref::Status::Ok();
    }
    if (IsPodUpdated(old_pod, new_pod)) {
      if (IsBackingOff(info, now)) {
        Put(std::move(info), Where::kBackoff);
        return schedref::Status::Ok();
      }
      MoveToActiveQ(info, EntryReason::kOther, now);
    }
    // Otherwise nothing that matters changed: it stays.
    return schedref::Status::Ok();
  }

  // In no queue: a new pending pod as far as the queue is concerned.
  framework::QueuedPodInfo info = NewQueuedPodInfo(std::move(new_info), now);
  MoveToActiveQ(info, EntryReason::kPodUpdate, now);
  return schedref::Status::Ok();
}

schedref::Status SchedulingQueue::Delete(const api::Pod& pod) {
  nominator_.Delete(pod);
  Erase(pod.Key());
  return schedref::Status::Ok();
}

schedref::Status SchedulingQueue::Delete(const framework::PodInfo& pod) {
  nominator_.Delete(pod.pod);
  Erase(pod.key);
  return schedref::Status::Ok();
}

std::function<bool(const framework::QueuedPodInfo&)> SchedulingQueue::CrossTopologySelector(
    const api::Pod& assigned) const {
  api::Labels ns_labels;
  if (options_.namespace_labels) ns_labels = options_.namespace_labels(assigned.ns);
  return [&assigned, ns_labels = std::move(ns_labels)](const framework::QueuedPodInfo& info) {
    return HasCrossTopologyTermMatching(info, assigned, ns_labels);
  };
}

void SchedulingQueue::AssignedPodAdded(const api::Pod& pod, api::TimeMs now) {
  MovePodsToActiveOrBackoffQueue(CrossTopologySelector(pod), framework::AssignedPodAdd(),
                                 framework::EventObjects{nullptr, &pod, nullptr, nullptr}, now);
}

void SchedulingQueue::AssignedPodUpdated(const api::Pod& old_pod, const api::Pod& new_pod,
                                         api::TimeMs now) {
  for (const framework::ClusterEvent& event : PodSchedulingPropertiesChange(new_pod, old_pod)) {
    AssignedPodUpdated(old_pod, new_pod, event, now);
  }
}

void SchedulingQueue::AssignedPodUpdated(const api::Pod& old_pod, const api::Pod& new_pod,
                                         const framework::ClusterEvent& event,
                                         api::TimeMs now) {
  const framework::EventObjects objects{&old_pod, &new_pod, nullptr, nullptr};
  if (event.resource == framework::EventResource::kPod &&
      (event.action & framework::kUpdatePodScaleDown) != 0) {
    // Freed resources may help any pod, not only cross-topology ones.
    MoveAllToActiveOrBackoffQueue(framework::AssignedPodUpdate(), objects, nullptr, now);
    return;
  }
  MovePodsToActiveOrBackoffQueue(CrossTopologySelector(new_pod), event, objects, now);
}

// --- requeueing -------------------------------------------------------------------

bool SchedulingQueue::IsEventOfInterest(const framework::ClusterEvent& event) const {
  if (event.IsWildCard()) return true;
  // Match reads only the resource and the action bits of both events.
  const uint64_t cache_key =
      (static_cast<uint64_t>(event.resource) << 32) | static_cast<uint64_t>(event.action);
  auto cached = interest_cache_.find(cache_key);
  if (cached != interest_cache_.end()) return cached->second;
  bool interest = false;
  for (const auto& [name, profile] : profiles_) {
    for (const auto& [plugin, registrations] : profile.queueing_hints) {
      for (const framework::ClusterEventWithHint& r : registrations) {
        if (r.event.Match(event)) interest = true;
      }
    }
  }
  interest_cache_.emplace(cache_key, interest);
  return interest;
}

SchedulingQueue::HintInterest SchedulingQueue::HintInterestOf(
    const framework::QueuedPodInfo& info) const {
  HintInterest interest;  // all: IsPodWorthRequeuing requeues without hints
  if (!HasRejectors(info)) return interest;
  const Profile* profile = ProfileFor(info.pod());
  if (profile == nullptr) return interest;
  interest.all = false;
  auto add = [&](const std::set<std::string>& plugins) {
    for (const std::string& plugin : plugins) {
      auto hints = profile->queueing_hints.find(plugin);
      if (hints == profile->queueing_hints.end()) continue;
      for (const framework::ClusterEventWithHint& r : hints->second) {
        if (r.event.IsWildCard()) {
          interest.all = true;
        } else if (r.event.resource == framework::EventResource::kWildCard) {
          interest.any_resource |= r.event.action;
        } else {
          interest.by_resource[static_cast<size_t>(r.event.resource)] |= r.event.action;
        }
      }
    }
  };
  add(info.unschedulable_plugins);
  add(info.pending_plugins);
  return interest;
}

SchedulingQueue::Strategy SchedulingQueue::IsPodWorthRequeuing(
    const framework::QueuedPodInfo& info, const framework::ClusterEvent& event,
    const framework::EventObjects& objects) const {
  // Failed for no plugin's reason (an error): always worth another try.
  if (!HasRejectors(info)) return Strategy::kAfterBackoff;

  if (event.IsWildCard()) {
    // A wildcard event carrying an object is aimed at that pod only
    // (ForceActivate of an in-flight pod, v1.32).
    if (objects.new_pod != nullptr || objects.new_node != nullptr) {
      if (objects.new_pod == nullptr || objects.new_pod->uid != info.pod().uid) {
        return Strategy::kSkip;
      }
    }
    return Strategy::kAfterBackoff;
  }

  const Profile* profile = ProfileFor(info.pod());
  // Upstream logs this as a bug and requeues.
  if (profile == nullptr) return Strategy::kAfterBackoff;

  // The rejectors (unschedulable ∪ pending) in name order, which is the
  // order of the profile's hint map: the hints run in plugin-name order.
  const std::set<std::string>& unsched = info.unschedulable_plugins;
  const std::set<std::string>& pending = info.pending_plugins;
  auto u = unsched.begin();
  auto p = pending.begin();
  Strategy strategy = Strategy::kSkip;
  while (u != unsched.end() || p != pending.end()) {
    const std::string* plugin;
    bool is_pending;
    if (p == pending.end() || (u != unsched.end() && *u < *p)) {
      plugin = &*u++;
      is_pending = false;
    } else if (u == unsched.end() || *p < *u) {
      plugin = &*p++;
      is_pending = true;
    } else {  // in both
      plugin = &*p++;
      ++u;
      is_pending = true;
    }
    auto hints = profile->queueing_hints.find(*plugin);
    if (hints == profile->queueing_hints.end()) continue;
    for (const framework::ClusterEventWithHint& r : hints->second) {
      if (!r.event.Match(event)) continue;
      framework::QueueingHint hint = framework::QueueingHint::kQueue;
      if (r.hint) {
        StatusOr<framework::QueueingHint> got = r.hint(info.pod(), objects);
        // An error counts as Queue, so that the pod cannot get stuck.
        if (got.ok()) hint = *got;
      }
      if (hint == framework::QueueingHint::kSkip) continue;
      // A Pending plugin's Queue skips backoff: nothing can beat that.
      if (is_pending) return Strategy::kImmediately;
      // Only a Pending plugin could raise it further.
      if (pending.empty()) return Strategy::kAfterBackoff;
      strategy = Strategy::kAfterBackoff;
    }
  }
  return strategy;
}

SchedulingQueue::Strategy SchedulingQueue::DetermineSchedulingHintForInFlightPod(
    const framework::QueuedPodInfo& info) const {
  if (!HasRejectors(info)) return Strategy::kAfterBackoff;
  std::optional<std::vector<const RecordedEvent*>> events =
      in_flight_.EventsFor(info.pod().uid);
  // Upstream logs "in flight Pod isn't found" and requeues.
  if (!events.has_value()) return Strategy::kAfterBackoff;

  Strategy strategy = Strategy::kSkip;
  for (const RecordedEvent* e : *events) {
    switch (IsPodWorthRequeuing(info, e->event, e->Objects())) {
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
    Put(info, Where::kUnschedulable);
    return Where::kUnschedulable;
  }
  if (strategy == Strategy::kAfterBackoff && IsBackingOff(info, now)) {
    Put(info, Where::kBackoff);
    return Where::kBackoff;
  }
  if (MoveToActiveQ(info, EntryReason::kOther, now)) return Where::kActive;
  // Gated: MoveToActiveQ left it in unschedulable (or where it already was).
  return Where::kUnschedulable;
}

void SchedulingQueue::MovePodsToActiveOrBackoffQueue(
    const std::function<bool(const framework::QueuedPodInfo&)>& select,
    const framework::ClusterEvent& event, const framework::EventObjects& objects,
    api::TimeMs now) {
  if (!IsEventOfInterest(event)) return;

  // Selected first, as upstream lists the pods before moving any; moving
  // one pod never touches another's entry. Pods whose rejectors registered
  // nothing the event matches are Skip (HintInterest) and not even listed:
  // select has no side effects, so not asking it changes nothing.
  std::vector<Entry*> chosen = std::move(chosen_);
  chosen.clear();
  for (Entry* e : unschedulable_) {
    if (!e->interest.MayRequeue(event)) continue;
    if (!select || select(e->info)) chosen.push_back(e);
  }
  for (Entry* e : chosen) {
    // Only an update of the pod itself can lift scheduling gates; skipping
    // such pods here is upstream's hot fix for kubernetes#124384.
    if (e->info.gated && e->info.unschedulable_plugins.count(kSchedulingGatesPlugin) != 0) {
      continue;
    }
    Strategy strategy = IsPodWorthRequeuing(e->info, event, objects);
    if (strategy == Strategy::kSkip) continue;
    Unlink(e);
    framework::QueuedPodInfo info = std::move(e->info);
    Drop(e);
    RequeuePodViaQueueingHint(info, strategy, now);
  }
  chosen_ = std::move(chosen);

  move_request_cycle_ = scheduling_cycle_;
  if (options_.queueing_hints_enabled) in_flight_.AddEventIfAnyInFlight(event, objects);
}

void SchedulingQueue::MoveAllToActiveOrBackoffQueue(
    const framework::ClusterEvent& event, const framework::EventObjects& objects,
    const std::function<bool(const api::Pod&)>& pre_check, api::TimeMs now) {
  // Checked before pre_check runs, as upstream does.
  if (!IsEventOfInterest(event)) return;
  if (!pre_check) {
    MovePodsToActiveOrBackoffQueue(nullptr, event, objects, now);
    return;
  }
  MovePodsToActiveOrBackoffQueue(
      [&pre_check](const framework::QueuedPodInfo& info) { return pre_check(info.pod()); },
      event, objects, now);
}

bool SchedulingQueue::ReadsEventObjects(const framework::ClusterEvent& event) const {
  if (!IsEventOfInterest(event)) return false;
  return !unschedulable_.empty() || (options_.queueing_hints_enabled && !in_flight_.Empty());
}

// --- the scheduling loop -------------------------------------------------------------

std::optional<framework::QueuedPodInfo> SchedulingQueue::Pop() {
  while (!active_.empty()) {
    Entry* head = *active_.begin();
    active_.erase(active_.begin());
    framework::QueuedPodInfo info = std::move(head->info);
    Drop(head);
    ++info.attempts;
    if (options_.queueing_hints_enabled) {
      // Already being scheduled: upstream drops the duplicate (a bug guard,
      // PR #127016) and pops the next pod.
      if (!in_flight_.AddPod(info.pod_info)) continue;
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
    framework::QueuedPodInfo pod_info, int64_t pod_scheduling_cycle, api::TimeMs now) {
  const std::string uid = pod_info.pod().uid;
  schedref::Status result;
  if (const Entry* e = Find(pod_info.pod_info->key); e != nullptr) {
    const char* queue = e->where == Where::kUnschedulable ? "unschedulable queue"
                        : e->where == Where::kActive       ? "the active queue"
                                                           : "the backoff queue";
    result = schedref::Status::FailedPrecondition("Pod " + KObj(pod_info.pod()) +
                                                  " is already present in " + queue);
  } else if (!options_.queueing_hints_enabled) {
    // Legacy: any event of interest since this pod's cycle began, or a
    // failure no plugin explains, sends it to backoffQ.
    pod_info.timestamp = now;
    const bool backoff =
        move_request_cycle_ >= pod_scheduling_cycle || !HasRejectors(pod_info);
    Put(std::move(pod_info), backoff ? Where::kBackoff : Where::kUnschedulable);
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
    Entry* head = *backoff_.begin();
    if (head->backoff_expiry > now) break;  // still backing off
    backoff_.erase(backoff_.begin());
    framework::QueuedPodInfo info = std::move(head->info);
    Drop(head);
    MoveToActiveQ(info, EntryReason::kOther, now);
  }
}

void SchedulingQueue::FlushUnschedulablePodsLeftover(api::TimeMs now) {
  const int64_t max = options_.pod_max_in_unschedulable_pods_ms;
  auto timed_out = [now, max](const framework::QueuedPodInfo& info) {
    return now - info.timestamp > max;
  };
  bool any = false;
  for (const Entry* e : unschedulable_) {
    if (timed_out(e->info)) {
      any = true;
      break;
    }
  }
  if (!any) return;
  MovePodsToActiveOrBackoffQueue(timed_out, framework::UnschedulableTimeout(),
                                 framework::EventObjects{}, now);
}

// --- nominator ----------------------------------------------------------------------

void SchedulingQueue::AddNominatedPod(const framework::PodInfoPtr& pod,
                                      const std::optional<NominatingInfo>& info) {
  nominator_.Add(pod, info, options_.pod_lister);
}

void SchedulingQueue::DeleteNominatedPodIfExists(const api::Pod& pod) {
  nominator_.Delete(pod);
}

std::vector<framework::PodInfoPtr> SchedulingQueue::NominatedPodsForNode(
    const std::string& node) const {
  std::vector<framework::PodInfoPtr> pods;
  const std::vector<framework::PodInfoPtr>* nominated = nominator_.PodsForNode(node);
  if (nominated == nullptr) return pods;
  pods.reserve(nominated->size());
  for (const framework::PodInfoPtr& p : *nominated) {
    // As the queue holds it now (one entry per key); else as nominated.
    // Note: upstream returns a stub for a pod in no queue
    // (docs/deviations.md "Scheduling queue").
    const Entry* e = Find(p->key);
    pods.push_back(e != nullptr ? e->info.pod_info : p);
  }
  return pods;
}

// --- introspection --------------------------------------------------------------------

SchedulingQueue::Where SchedulingQueue::Locate(const std::string& pod_key) const {
  if (const Entry* e = Find(pod_key); e != nullptr) return e->where;
  for (const InFlightEvents::Entry& e : in_flight_.Entries()) {
    if (e.pod != nullptr && e.pod->key == pod_key) return Where::kInFlight;
  }
  return Where::kAbsent;
}

const framework::QueuedPodInfo* SchedulingQueue::Get(const std::string& pod_key) const {
  const Entry* e = Find(pod_key);
  return e == nullptr ? nullptr : &e->info;
}

std::vector<std::string> SchedulingQueue::ActivePodKeys() const {
  std::vector<std::string> keys;
  for (const Entry* e : active_) keys.push_back(e->info.pod_info->key);
  return keys;
}

std::vector<std::string> SchedulingQueue::BackoffPodKeys() const {
  std::vector<std::string> keys;
  for (const Entry* e : backoff_) keys.push_back(e->info.pod_info->key);
  return keys;
}

std::vector<std::string> SchedulingQueue::UnschedulablePodKeys() const {
  std::vector<std::string> keys;
  for (const Entry* e : unschedulable_) keys.push_back(e->info.pod_info->key);
  return keys;
}

std::vector<std::string> SchedulingQueue::InFlightPodKeys() const {
  std::vector<std::string> keys;
  for (const framework::PodInfoPtr& p : in_flight_.Pods()) keys.push_back(p->key);
  return keys;
}

std::vector<std::string> SchedulingQueue::InFlightEntries() const {
  std::vector<std::string> entries;
  for (const InFlightEvents::Entry& e : in_flight_.Entries()) {
    entries.push_back(e.pod != nullptr ? "pod:" + e.pod->key : e.event->event.label);
  }
  return entries;
}

}  // namespace schedref::optimized::backend::queue
