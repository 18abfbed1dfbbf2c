// The scheduling queue of the optimized implementation: where pending pods
// wait, in which order they are tried, and which cluster events send a pod
// that failed back for another try. Specification: upstream
// pkg/scheduler/backend/queue/scheduling_queue.go and active_queue.go
// (PriorityQueue), v1.32 plus the queue part of PR #128170; the executable
// specification is reference/backend/queue/scheduling_queue.h with
// docs/semantics/queue.md and docs/deviations.md "Scheduling queue". Every
// observable result (where each pod goes, the QueuedPodInfo it carries, pop
// order, hint calls and their order, errors) equals the reference's.
//
// Model. Every pending pod the queue knows is in exactly one place:
//   activeQ        ready to be tried; popped in QueueSort order.
//   backoffQ       failed recently; moves to activeQ when its backoff ends
//                  (FlushBackoffQCompleted, the 1 s timer).
//   unschedulable  waiting for a cluster event that may help it (or gated by
//                  a PreEnqueue plugin); FlushUnschedulablePodsLeftover (the
//                  30 s timer) sends back any that waited too long.
//   in flight      popped, being scheduled or bound, until Done.
// With QueueingHints (v1.32 default), events received while a pod is in
// flight are recorded; when the pod fails, AddUnschedulableIfNotPresent
// replays them through the rejecting plugins' hints to decide where it goes.
//
// Iteration order (pinned; upstream iterates Go maps):
//   activeQ        QueueSort Less, then pod key ("namespace/name").
//   backoffQ       backoff expiry, then QueueSort Less, then pod key.
//   unschedulable  pod key.
//   hint functions plugin name, then registration order.
//
// Structures (why they are fast): one hash map from pod key to the pod's
// entry, plus ordered sets of entry pointers: activeQ by (Less, key),
// backoffQ by (expiry, Less, key), unschedulable by key. Add, Pop, Update,
// Delete, Activate and each pod a flush moves cost O(log n); a cluster event
// costs O(unschedulable pods) hint checks, as upstream's. An entry's sort
// fields change only while it is out of its set.
//
// Time is the virtual clock, passed in as `now`. Thread-safety: none; the
// scheduler's thread owns the queue. Pop never blocks.
#ifndef SCHEDREF_OPTIMIZED_BACKEND_QUEUE_SCHEDULING_QUEUE_H_
#define SCHEDREF_OPTIMIZED_BACKEND_QUEUE_SCHEDULING_QUEUE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "api/status.h"
#include "api/types/objects.h"
#include "optimized/backend/queue/in_flight_events.h"
#include "optimized/backend/queue/nominator.h"
#include "optimized/framework/events.h"
#include "optimized/framework/interface.h"
#include "optimized/framework/string_map.h"

namespace schedref::optimized::backend::queue {

class SchedulingQueue {
 public:
  struct Options {
    int64_t pod_initial_backoff_ms = 1000;
    int64_t pod_max_backoff_ms = 10000;
    int64_t pod_max_in_unschedulable_pods_ms = 300000;
    // The SchedulerQueueingHints feature gate (on by default in v1.32). Off:
    // the legacy rules (moveRequestCycle, isPodUpdated) and no in-flight
    // tracking; kept for upstream's tests of both modes.
    bool queueing_hints_enabled = true;
    // The API server's view of pods, for the nominator's "does the pod still
    // exist and is it still unbound" check. Empty: no check.
    PodLister pod_lister;
    // Namespace name -> labels, for namespaceSelector in the legacy
    // cross-topology pre-filter. Empty: every namespace has no labels.
    std::function<api::Labels(const std::string& ns)> namespace_labels;
  };

  // Per-profile hooks, keyed by schedulerName.
  struct Profile {
    // Run in order; the first non-success keeps the pod out of activeQ.
    std::vector<framework::PreEnqueuePlugin*> pre_enqueue;
    // Plugin name -> the events it registered and their hints.
    std::map<std::string, std::vector<framework::ClusterEventWithHint>> queueing_hints;
  };

  // Where a pending pod is (introspection).
  enum class Where { kActive, kBackoff, kUnschedulable, kInFlight, kAbsent };

  // REQUIRES: sort != nullptr, its Less is a strict weak order, and it
  // outlives the queue; so do the PreEnqueue plugins. The hint functions
  // must not call back into the queue.
  SchedulingQueue(Options options, const framework::QueueSortPlugin* sort,
                  std::map<std::string, Profile> profiles);
  ~SchedulingQueue();
  SchedulingQueue(const SchedulingQueue&) = delete;
  SchedulingQueue& operator=(const SchedulingQueue&) = delete;

  // --- informer events for unassigned pods -----------------------------------
  // REQUIRES (all): an update keeps the pod's namespace and name.

  // A new pending pod (timestamp = now, attempts = 0): through PreEnqueue to
  // activeQ (registering its status.nominatedNodeName), or to unschedulable
  // if a PreEnqueue plugin gates it. Never fails.
  schedref::Status Add(const api::Pod& pod, api::TimeMs now);
  schedref::Status Add(framework::PodInfoPtr pod, api::TimeMs now);
  // The pod changed. In flight (QueueingHints): each event of
  // PodSchedulingPropertiesChange(new_pod, old_pod) is recorded, nothing
  // else. In activeQ or backoffQ: the
  // object is replaced in place and the nomination updated. In
  // unschedulable: replaced, nomination updated, then each event of
  // PodSchedulingPropertiesChange goes through the hints and may move it
  // (legacy: any non-status change moves it). Anywhere else: added as by
  // Add. Never fails.
  schedref::Status Update(const api::Pod& old_pod, const api::Pod& new_pod,
                          api::TimeMs now);
  // The same, with new_pod's PodInfo built by the caller (shared, not
  // copied).
  schedref::Status Update(const api::Pod& old_pod, framework::PodInfoPtr new_pod,
                          api::TimeMs now);
  // The pod leaves every queue and the nominator (an in-flight pod stays in
  // flight until Done). Never fails.
  schedref::Status Delete(const api::Pod& pod);
  // The same, for a pod the caller holds as a PodInfo (its key is kept).
  schedref::Status Delete(const framework::PodInfo& pod);

  // --- informer events for assigned pods (legacy path) ----------------------

  // Requeues unschedulable pods whose cross-topology terms `pod` may
  // satisfy (cross_topology.h), with event AssignedPodAdd.
  void AssignedPodAdded(const api::Pod& pod, api::TimeMs now);
  // One call per event of PodSchedulingPropertiesChange(new_pod, old_pod).
  void AssignedPodUpdated(const api::Pod& old_pod, const api::Pod& new_pod,
                          api::TimeMs now);
  // One event: a scale-down moves every unschedulable pod
  // (AssignedPodUpdate); anything else only those with a matching
  // cross-topology term.
  void AssignedPodUpdated(const api::Pod& old_pod, const api::Pod& new_pod,
                          const framework::ClusterEvent& event, api::TimeMs now);

  // --- cluster events --------------------------------------------------------

  // If some profile registered an event matching `event` (or it is a
  // wildcard): every unschedulable pod passing `pre_check` (empty: all), in
  // key order, except pods gated by SchedulingGates, goes through the hints
  // (isPodWorthRequeuing) and, unless Skip, to activeQ (via PreEnqueue) or,
  // while backing off under AfterBackoff, to backoffQ. Then the event is
  // recorded for in-flight pods. Otherwise nothing happens at all.
  // `objects` need only live for the call.
  void MoveAllToActiveOrBackoffQueue(const framework::ClusterEvent& event,
                                     const framework::EventObjects& objects,
                                     const std::function<bool(const api::Pod&)>& pre_check,
                                     api::TimeMs now);
  // False only if MoveAllToActiveOrBackoffQueue(event, objects, ...) would
  // not read `objects` now: the event interests no plugin, or no pod is
  // unschedulable and (with queueing hints) none is in flight. A caller
  // may then pass objects it has not finished (a bound pod whose object
  // lacks its spec.nodeName).
  bool ReadsEventObjects(const framework::ClusterEvent& event) const;

  // --- the scheduling loop ---------------------------------------------------

  // Takes the head of activeQ; nullopt iff activeQ is (or became) empty.
  // attempts + 1 and SchedulingCycle() + 1; with QueueingHints the pod is in
  // flight until Done. The returned info has no rejector plugins left. A pod
  // whose UID is already in flight is dropped and the next one popped
  // (upstream's guard, PR #127016). O(log n).
  std::optional<framework::QueuedPodInfo> Pop();
  // Room for `pods` queued pods at once (a capacity hint: growing the
  // table of entries rehashes every entry).
  void Reserve(size_t pods) { entries_.reserve(pods); }
  // The attempt for the pod with this UID is over (no-op if not in flight).
  void Done(const std::string& pod_uid);
  // Puts a pod that failed back (timestamp = now). `pod_scheduling_cycle`
  // is SchedulingCycle() at failure time. Errors iff the pod is already in
  // a queue, with upstream's message ("Pod ns/name is already present in
  // the active queue", "... in the backoff queue", "... in unschedulable
  // queue"); the pod is Done in every case.
  schedref::Status AddUnschedulableIfNotPresent(framework::QueuedPodInfo pod_info,
                                                int64_t pod_scheduling_cycle,
                                                api::TimeMs now);
  int64_t SchedulingCycle() const { return scheduling_cycle_; }
  // Moves each pod in unschedulable or backoffQ to activeQ (via PreEnqueue;
  // gated, it stays where it was with the gate recorded). A pod not
  // activated that is in flight gets a ForceActivate event aimed at it, so
  // it comes back when it fails (PR #128170).
  void Activate(const std::vector<api::Pod>& pods, api::TimeMs now);
  // The 1 s timer: every pod of backoffQ whose backoff ended (expiry <= now)
  // goes, in backoffQ order, through PreEnqueue to activeQ.
  void FlushBackoffQCompleted(api::TimeMs now);
  // The 30 s timer: unschedulable pods with now - timestamp >
  // pod_max_in_unschedulable_pods_ms are moved with event
  // UnschedulableTimeout; nothing happens (no event recorded) if none.
  void FlushUnschedulablePodsLeftover(api::TimeMs now);

  // --- nominator -------------------------------------------------------------

  // Nominator::Add with the queue's pod lister.
  void AddNominatedPod(const framework::PodInfoPtr& pod,
                       const std::optional<NominatingInfo>& info);
  void DeleteNominatedPodIfExists(const api::Pod& pod);
  // Pods nominated to `node`, in nomination order, each as the queue now
  // holds it (a pod in no queue as it was nominated; docs/deviations.md).
  // No allocation when none is nominated there.
  std::vector<framework::PodInfoPtr> NominatedPodsForNode(const std::string& node) const;
  // The nodes whose NominatedPodsForNode may have changed since the last
  // call (Nominator::TakeChanges): nominations, and queue entries of
  // nominated pods' keys.
  Nominator::Changes TakeNominationChanges() { return nominator_.TakeChanges(); }
  // Node -> nominated pod keys in nomination order (introspection).
  // Nominator::NodeNames.
  std::vector<std::string> NominatedNodeNames() const { return nominator_.NodeNames(); }
  std::map<std::string, std::vector<std::string>> NominatedPodKeysByNode() const {
    return nominator_.PodKeysByNode();
  }

  // --- introspection (tests, invariants, traces) -----------------------------

  // A queue is reported before in-flight, for a pod in both.
  Where Locate(const std::string& pod_key) const;
  // The pod's QueuedPodInfo if it is in activeQ, backoffQ or unschedulable;
  // nullptr otherwise. Valid until the next mutation.
  const framework::QueuedPodInfo* Get(const std::string& pod_key) const;
  std::vector<std::string> ActivePodKeys() const;         // pop order
  std::vector<std::string> BackoffPodKeys() const;        // flush order
  std::vector<std::string> UnschedulablePodKeys() const;  // sorted
  std::vector<std::string> InFlightPodKeys() const;       // pop order
  bool HasPodsInFlight() const { return !in_flight_.Empty(); }
  // The in-flight list: "pod:<key>" for a marker, the event's label for an
  // event, oldest first.
  std::vector<std::string> InFlightEntries() const;
  // When a backing-off pod may leave backoffQ.
  api::TimeMs BackoffExpiry(const framework::QueuedPodInfo& info) const;
  int NumActive() const { return static_cast<int>(active_.size()); }
  int NumBackoff() const { return static_cast<int>(backoff_.size()); }
  int NumUnschedulable() const { return static_cast<int>(unschedulable_.size()); }

 private:
  // How a pod that may have become schedulable is requeued (upstream
  // queueingStrategy), weakest first.
  enum class Strategy { kSkip, kAfterBackoff, kImmediately };
  // Why a pod enters activeQ; PodAdd / PodUpdate also register its
  // nomination.
  enum class EntryReason { kPodAdd, kPodUpdate, kOther };

  // Which events the hints registered by a pod's rejector plugins listen
  // to: action bits per resource, and the bits of registrations for any
  // resource. For a pod with rejectors and a profile, IsPodWorthRequeuing
  // of a non-wildcard event that none of these matches is Skip without a
  // single hint call (each hint runs only under a matching registration).
  // `all` marks pods this cannot rule out: no rejectors, no profile, or a
  // wildcard registration.
  struct HintInterest {
    static constexpr size_t kResources =
        static_cast<size_t>(framework::EventResource::kWildCard) + 1;
    bool all = true;
    framework::ActionType any_resource = 0;
    framework::ActionType by_resource[kResources] = {};

    // False only if IsPodWorthRequeuing(pod, event, ...) is surely Skip.
    bool MayRequeue(const framework::ClusterEvent& event) const {
      return all || event.IsWildCard() ||
             ((by_resource[static_cast<size_t>(event.resource)] | any_resource) &
              event.action) != 0;
    }
  };

  // One queued pod. Owned by entries_; linked into exactly one of the three
  // ordered sets, per `where`.
  struct Entry {
    // The pod's key, which never changes for an entry: a view of this
    // entry's own copy (`key_copy` when it fits there, else `long_key`).
    // entries_ is keyed by it, and activeQ and backoffQ break ties with it
    // without reading the PodInfo and its key's heap buffer.
    std::string_view key;
    // What activeQ and backoffQ order entries by first, kept up to date by
    // Link: the QueueSort key, when the plugin has one (keyed).
    bool keyed = false;
    framework::QueueSortKey sort_key;
    // The key's first kKeyWords * 8 bytes as big-endian words, zero-padded:
    // two keys compare as their words do, unless every word is equal
    // (KeyLess). Set once with `key`.
    static constexpr size_t kKeyWords = 5;
    uint64_t key_words[kKeyWords];
    char key_copy[40];
    std::string long_key;
    framework::QueuedPodInfo info;
    Where where = Where::kAbsent;
    // BackoffExpiry(info), fixed while in backoffQ.
    api::TimeMs backoff_expiry = 0;
    // HintInterestOf(info), kept up to date while in unschedulable.
    HintInterest interest;
  };
  struct ActiveCmp {
    const SchedulingQueue* q;
    bool operator()(const Entry* a, const Entry* b) const;
  };
  struct BackoffCmp {
    const SchedulingQueue* q;
    bool operator()(const Entry* a, const Entry* b) const;
  };
  struct KeyCmp {
    bool operator()(const Entry* a, const Entry* b) const;
  };

  bool ActiveLess(const framework::QueuedPodInfo& a, const framework::QueuedPodInfo& b) const;
  // a->key < b->key, mostly from their key words.
  static bool KeyLess(const Entry* a, const Entry* b);
  // ActiveLess(a->info, b->info), from what Link kept in the entries.
  bool ActiveLess(const Entry* a, const Entry* b) const;
  bool IsBackingOff(const framework::QueuedPodInfo& info, api::TimeMs now) const;

  // The entry for `key`, or nullptr.
  Entry* Find(const std::string& key) const;
  // Stores a copy of `info` in the given place, unlinking the pod's entry
  // from wherever it was (the invariant that a key is in one place).
  void Put(const framework::QueuedPodInfo& info, Where where);
  void Put(framework::QueuedPodInfo&& info, Where where);
  void Link(Entry* e, Where where);
  void Unlink(Entry* e);
  // Removes the pod's entry from its place and from entries_.
  void Erase(const std::string& key);
  // Erases `e`, already unlinked and with its info moved out, from entries_.
  void Drop(Entry* e);

  const Profile* ProfileFor(const api::Pod& pod) const;
  framework::QueuedPodInfo NewQueuedPodInfo(framework::PodInfoPtr pod, api::TimeMs now) const;
  // Runs the profile's PreEnqueue plugins; on the first failure adds the
  // plugin to unschedulable_plugins and returns false.
  bool RunPreEnqueuePlugins(framework::QueuedPodInfo& info) const;
  // Upstream moveToActiveQ: PreEnqueue, then activeQ (leaving unschedulable
  // / backoffQ) or, if gated, unschedulable (unless already in activeQ or
  // backoffQ). Returns true iff it entered activeQ, and then `info` has
  // been moved into the queue (no caller reads it after that); otherwise
  // `info` keeps what PreEnqueue wrote.
  bool MoveToActiveQ(framework::QueuedPodInfo& info, EntryReason reason, api::TimeMs now);
  bool IsEventOfInterest(const framework::ClusterEvent& event) const;
  HintInterest HintInterestOf(const framework::QueuedPodInfo& info) const;
  Strategy IsPodWorthRequeuing(const framework::QueuedPodInfo& info,
                               const framework::ClusterEvent& event,
                               const framework::EventObjects& objects) const;
  Strategy DetermineSchedulingHintForInFlightPod(const framework::QueuedPodInfo& info) const;
  // Upstream requeuePodViaQueueingHint; returns where the pod went.
  Where RequeuePodViaQueueingHint(framework::QueuedPodInfo& info, Strategy strategy,
                                  api::TimeMs now);
  // Upstream movePodsToActiveOrBackoffQueue over the unschedulable pods
  // that pass `select` (all if empty), in key order.
  void MovePodsToActiveOrBackoffQueue(
      const std::function<bool(const framework::QueuedPodInfo&)>& select,
      const framework::ClusterEvent& event, const framework::EventObjects& objects,
      api::TimeMs now);
  // Selects unschedulable pods with a cross-topology term matching `assigned`.
  std::function<bool(const framework::QueuedPodInfo&)> CrossTopologySelector(
      const api::Pod& assigned) const;

  // --- constant after construction ---
  const Options options_;
  const framework::QueueSortPlugin* const sort_;
  const std::map<std::string, Profile> profiles_;

  // --- state ---
  // Pod key -> its entry (activeQ, backoffQ or unschedulable).
  // Keyed by each entry's own `key`.
  framework::StringViewMap<std::unique_ptr<Entry>> entries_;
  std::set<Entry*, ActiveCmp> active_;
  std::set<Entry*, BackoffCmp> backoff_;
  std::set<Entry*, KeyCmp> unschedulable_;
  InFlightEvents in_flight_;
  Nominator nominator_;
  int64_t scheduling_cycle_ = 0;
  // The scheduling cycle at the last event of interest (legacy path only).
  int64_t move_request_cycle_ = -1;
  // (resource, action) -> IsEventOfInterest, filled on first use.
  mutable std::unordered_map<uint64_t, bool> interest_cache_;
  // MovePodsToActiveOrBackoffQueue's list of selected pods, kept so that an
  // event does not allocate.
  std::vector<Entry*> chosen_;
};

}  // namespace schedref::optimized::backend::queue

#endif  // SCHEDREF_OPTIMIZED_BACKEND_QUEUE_SCHEDULING_QUEUE_H_
