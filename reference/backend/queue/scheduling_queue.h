// The scheduling queue: where pending pods wait, in which order they are
// tried, and which cluster events send a pod that failed back for another
// try. Specification: upstream pkg/scheduler/backend/queue/
// scheduling_queue.go and active_queue.go (PriorityQueue), v1.32 as read at
// sanposhiho/kubernetes@2e037b3a5348688fb9474cc3401f3fa7ec3466ac (the v1.32
// development tree after the move to backend/queue, with PR #126029), plus
// the queue part of PR #128170 (v1.32: Activate of an in-flight pod), see
// docs/deviations.md "Scheduling queue".
//
// Model. Every pending pod the queue knows is in exactly one place:
//   activeQ        ready to be tried; popped in QueueSort order.
//   backoffQ       failed recently; moves to activeQ when its backoff ends
//                  (FlushBackoffQCompleted, the 1 s timer).
//   unschedulable  waiting for a cluster event that may help it (or gated by
//                  a PreEnqueue plugin); FlushUnschedulablePodsLeftover (the
//                  30 s timer) sends back any that waited longer than
//                  pod_max_in_unschedulable_pods_ms.
//   in flight      popped, being scheduled or bound, until Done.
// With QueueingHints (v1.32 default), events received while a pod is in
// flight are recorded; when the pod fails, AddUnschedulableIfNotPresent
// replays them through the rejecting plugins' hints to decide where it goes.
//
// Time is the virtual clock, passed in as `now`. Single-threaded: Pop never
// blocks.
//
// Iteration order (upstream iterates Go maps, i.e. randomly):
//   activeQ        QueueSort Less, then pod key ("namespace/name").
//   backoffQ       backoff expiry, then QueueSort Less, then pod key.
//                  Note: v1.32's heap leaves equal expiries unordered; this
//                  is v1.33's rule (docs/deviations.md). It is observable
//                  only through BackoffPodKeys(): a flush moves every expired
//                  pod at once.
//   unschedulable  pod key, wherever upstream ranges over the map (moves,
//                  timeouts, cross-topology pre-filter).
//   hint functions profile's plugin name, then registration order.
// The queue owns no clock, no locks and no goroutines.
#ifndef SCHEDREF_REFERENCE_BACKEND_QUEUE_SCHEDULING_QUEUE_H_
#define SCHEDREF_REFERENCE_BACKEND_QUEUE_SCHEDULING_QUEUE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "api/status.h"
#include "api/types/objects.h"
#include "reference/backend/queue/in_flight_events.h"
#include "reference/backend/queue/nominator.h"
#include "reference/framework/choices.h"
#include "reference/framework/events.h"
#include "reference/framework/interface.h"

namespace schedref::reference::queue {

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
    // cross-topology pre-filter (AssignedPodAdded / AssignedPodUpdated).
    // Empty: every namespace has no labels.
    std::function<api::Labels(const std::string& ns)> namespace_labels;
  };

  // Per-profile hooks, keyed by schedulerName.
  struct Profile {
    // Run in order; the first non-success keeps the pod out of activeQ.
    std::vector<framework::PreEnqueuePlugin*> pre_enqueue;
    // Plugin name -> the events it registered and their hints.
    std::map<std::string /*plugin*/,
             std::vector<framework::ClusterEventWithHint>>
        queueing_hints;
  };

  // Where a pending pod is (introspection).
  enum class Where { kActive, kBackoff, kUnschedulable, kInFlight, kAbsent };

  // REQUIRES: sort != nullptr and outlives the queue; so do the PreEnqueue
  // plugins.
  SchedulingQueue(Options options, const framework::QueueSortPlugin* sort,
                  std::map<std::string, Profile> profiles);

  // --- informer events for unassigned pods ---

  // A new pending pod: to activeQ, or to unschedulable if a PreEnqueue
  // plugin gates it. Never fails.
  schedref::Status Add(const api::Pod& pod, api::TimeMs now);
  // The pod changed. In flight (QueueingHints): each event of
  // PodSchedulingPropertiesChange(new_pod, old_pod) is recorded, nothing
  // else. In activeQ or backoffQ: updated in place. In unschedulable: the
  // same events are run through the hints (legacy: any change other than
  // status moves it). Anywhere else: added like Add. Never fails.
  schedref::Status Update(const api::Pod& old_pod, const api::Pod& new_pod,
                          api::TimeMs now);
  // The pod is gone from every queue and from the nominator. Never fails.
  schedref::Status Delete(const api::Pod& pod);

  // --- informer events for assigned pods (legacy path; with QueueingHints
  // --- upstream's handlers call MoveAllToActiveOrBackoffQueue instead) ---

  // Requeues unschedulable pods whose cross-topology terms `pod` may
  // satisfy, with event AssignedPodAdd.
  void AssignedPodAdded(const api::Pod& pod, api::TimeMs now);
  // Upstream's caller splits an update into PodSchedulingPropertiesChange
  // events and calls once per event; this does the same.
  void AssignedPodUpdated(const api::Pod& old_pod, const api::Pod& new_pod,
                          api::TimeMs now);
  // One event: a scale-down moves every unschedulable pod (AssignedPodUpdate);
  // anything else only those with a matching cross-topology term.
  void AssignedPodUpdated(const api::Pod& old_pod, const api::Pod& new_pod,
                          const framework::ClusterEvent& event,
                          api::TimeMs now);

  // --- cluster events ---

  // If some profile registered an event matching `event` (or it is a
  // wildcard), runs every unschedulable pod passing `pre_check` (empty: all)
  // through the hints and moves those worth it to activeQ or backoffQ. Pods
  // gated by SchedulingGates are skipped. Then the event is recorded for
  // in-flight pods.
  void MoveAllToActiveOrBackoffQueue(
      const framework::ClusterEvent& event,
      const framework::EventObject& old_obj,
      const framework::EventObject& new_obj,
      std::function<bool(const api::Pod&)> pre_check, api::TimeMs now);

  // --- the scheduling loop ---

  // Takes the head of activeQ; nullopt iff activeQ is (or became) empty.
  // Attempts++ and SchedulingCycle()++; with QueueingHints the pod is in
  // flight until Done. The returned info has no rejector plugins left.
  // A pod whose UID is already in flight is dropped and the next one popped
  // (upstream's guard against double scheduling).
  std::optional<framework::QueuedPodInfo> Pop();
  // Pop, where `choices` says which of the pods tying with the head under
  // QueueSort leaves activeQ (framework::PopChoice). Pop() is
  // Pop(PinnedChoices).
  std::optional<framework::QueuedPodInfo> Pop(framework::Choices& choices);
  // The attempt for the pod with this UID is over (no-op if not in flight).
  void Done(const std::string& pod_uid);
  // Puts a pod that failed back. `pod_scheduling_cycle` is SchedulingCycle()
  // at failure time. Errors iff the pod is already in a queue; the pod is
  // Done in every case. Returns FailedPrecondition with upstream's message
  // ("Pod ns/name is already present in the active queue", ...).
  schedref::Status AddUnschedulableIfNotPresent(
      framework::QueuedPodInfo pod_info, int64_t pod_scheduling_cycle,
      api::TimeMs now);
  int64_t SchedulingCycle() const { return scheduling_cycle_; }
  // Moves each pod in unschedulable or backoffQ to activeQ (via PreEnqueue).
  // A pod found in neither but in flight gets a ForceActivate event aimed at
  // it, so it comes back to activeQ/backoffQ when it fails.
  void Activate(const std::vector<api::Pod>& pods, api::TimeMs now);
  // The 1 s timer: every pod whose backoff has ended goes to activeQ (via
  // PreEnqueue).
  void FlushBackoffQCompleted(api::TimeMs now);
  // The 30 s timer: pods in unschedulable for longer than
  // pod_max_in_unschedulable_pods_ms (strictly) are moved with event
  // UnschedulableTimeout.
  void FlushUnschedulablePodsLeftover(api::TimeMs now);

  // --- nominator ---

  // See Nominator::Add.
  void AddNominatedPod(const api::Pod& pod,
                       const std::optional<NominatingInfo>& info);
  void DeleteNominatedPodIfExists(const api::Pod& pod);
  // Pods nominated to `node`, in nomination order, each as the queue now
  // holds it (activeQ, then unschedulable, then backoffQ; upstream's
  // lookup order). Note: a nominated pod in no queue is returned as it was
  // nominated; upstream returns a stub with only name, namespace and UID
  // (docs/deviations.md).
  std::vector<api::Pod> NominatedPodsForNode(const std::string& node) const;
  // Node -> nominated pod keys in nomination order (introspection).
  std::map<std::string, std::vector<std::string>> NominatedPodKeysByNode()
      const {
    return nominator_.PodKeysByNode();
  }

  // --- introspection (tests, invariants, traces) ---

  // A queue is reported before in-flight, for a pod in both.
  Where Locate(const std::string& pod_key) const;
  // The pod's QueuedPodInfo if it is in activeQ, backoffQ or unschedulable.
  std::optional<framework::QueuedPodInfo> Get(const std::string& pod_key) const;
  std::vector<std::string> ActivePodKeys() const;         // pop order
  std::vector<std::string> BackoffPodKeys() const;        // flush order
  std::vector<std::string> UnschedulablePodKeys() const;  // sorted
  std::vector<std::string> InFlightPodKeys() const;       // pop order
  bool HasPodsInFlight() const { return !in_flight_.Empty(); }
  // The in-flight list: "pod:<key>" for a marker, the event's label for an
  // event, oldest first (upstream listInFlightEvents).
  std::vector<std::string> InFlightEntries() const;
  // When a backing-off pod may leave backoffQ.
  api::TimeMs BackoffExpiry(const framework::QueuedPodInfo& info) const;

 private:
  // How a pod that may have become schedulable is requeued (upstream
  // queueingStrategy), weakest first.
  enum class Strategy { kSkip, kAfterBackoff, kImmediately };
  // Why a pod enters activeQ; PodAdd / PodUpdate also register its
  // nomination.
  enum class Entry { kPodAdd, kPodUpdate, kOther };

  bool ActiveLess(const framework::QueuedPodInfo& a,
                  const framework::QueuedPodInfo& b) const;
  bool BackoffLess(const framework::QueuedPodInfo& a,
                   const framework::QueuedPodInfo& b) const;
  bool IsBackingOff(const framework::QueuedPodInfo& info,
                    api::TimeMs now) const;

  framework::QueuedPodInfo NewQueuedPodInfo(const api::Pod& pod,
                                            api::TimeMs now) const;
  // Runs the profile's PreEnqueue plugins; on the first failure adds the
  // plugin to UnschedulablePlugins and returns false.
  bool RunPreEnqueuePlugins(framework::QueuedPodInfo& info);
  // Upstream moveToActiveQ: PreEnqueue, then activeQ (dropping any copy in
  // unschedulable / backoffQ) or, if gated, unschedulable (unless already in
  // activeQ or backoffQ). Returns true iff it entered activeQ. `info` keeps
  // what PreEnqueue wrote (gated, the rejecting plugin), as upstream's
  // shared pointer does.
  bool MoveToActiveQ(framework::QueuedPodInfo& info, Entry entry,
                     api::TimeMs now);
  bool IsEventOfInterest(const framework::ClusterEvent& event) const;
  Strategy IsPodWorthRequeuing(const framework::QueuedPodInfo& info,
                               const framework::ClusterEvent& event,
                               const framework::EventObject& old_obj,
                               const framework::EventObject& new_obj) const;
  Strategy DetermineSchedulingHintForInFlightPod(
      const framework::QueuedPodInfo& info) const;
  // Upstream requeuePodViaQueueingHint. Returns where the pod went; `info`
  // keeps what PreEnqueue wrote.
  Where RequeuePodViaQueueingHint(framework::QueuedPodInfo& info,
                                  Strategy strategy, api::TimeMs now);
  // Upstream movePodsToActiveOrBackoffQueue over `keys` (unschedulable pods).
  void MovePodsToActiveOrBackoffQueue(const std::vector<std::string>& keys,
                                      const framework::ClusterEvent& event,
                                      const framework::EventObject& old_obj,
                                      const framework::EventObject& new_obj,
                                      api::TimeMs now);
  std::vector<std::string> UnschedulablePodsWithCrossTopologyTerm(
      const api::Pod& assigned) const;
  void AddToBackoffQ(framework::QueuedPodInfo info);
  void AddToUnschedulable(framework::QueuedPodInfo info);

  // --- constant after construction ---
  const Options options_;
  const framework::QueueSortPlugin* const sort_;
  const std::map<std::string, Profile> profiles_;

  // --- state ---
  // Pod key -> QueuedPodInfo. A key is in at most one of the three.
  std::map<std::string, framework::QueuedPodInfo> active_;
  std::map<std::string, framework::QueuedPodInfo> backoff_;
  std::map<std::string, framework::QueuedPodInfo> unschedulable_;
  InFlightEvents in_flight_;
  Nominator nominator_;
  int64_t scheduling_cycle_ = 0;
  // The scheduling cycle at the last event of interest (legacy path only).
  int64_t move_request_cycle_ = -1;
};

}  // namespace schedref::reference::queue

#endif  // SCHEDREF_REFERENCE_BACKEND_QUEUE_SCHEDULING_QUEUE_H_
