// The plugin interfaces at the 12 extension points, and the Handle through
// which plugins see the cluster. Specification: upstream
// pkg/scheduler/framework/interface.go, v1.32.
//
// A plugin is one object implementing any subset of these interfaces; the
// framework finds which by dynamic_cast, as upstream does with type
// assertions. All calls happen on the scheduler's single thread.
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_INTERFACE_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_INTERFACE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "api/apiserver/volume_binding_controller.h"
#include "api/status.h"
#include "api/types/objects.h"
#include "api/types/trace.h"
#include "reference/framework/choices.h"
#include "reference/framework/cycle_state.h"
#include "reference/framework/events.h"
#include "reference/framework/node_info.h"
#include "reference/framework/snapshot.h"
#include "reference/framework/status.h"

namespace schedref::api::extender {
class ExtenderSet;
}  // namespace schedref::api::extender

namespace schedref::reference::framework {

inline constexpr int64_t kMaxNodeScore = 100;
inline constexpr int64_t kMinNodeScore = 0;

// A pod waiting in the scheduling queue. Specification: upstream
// framework/types.go QueuedPodInfo.
struct QueuedPodInfo {
  api::Pod pod;
  // When the pod was last added to the queue (refreshed on every requeue).
  api::TimeMs timestamp = 0;
  int attempts = 0;
  // When the pod was first added to activeQ; unset while gated.
  std::optional<api::TimeMs> initial_attempt_timestamp;
  // Plugins that rejected the pod in its last attempt (Unschedulable or
  // UnschedulableAndUnresolvable), and those that returned Pending.
  std::set<std::string> unschedulable_plugins;
  std::set<std::string> pending_plugins;
  // True iff a PreEnqueue plugin keeps the pod out of activeQ.
  bool gated = false;
};

// Node name -> the status a filter gave it. Nodes absent from the map take
// `absent_status` (upstream NodeToStatus, v1.31+).
struct NodeToStatus {
  std::map<std::string, Status> statuses;
  Status absent_status = Status(Code::kUnschedulableAndUnresolvable,
                                std::vector<std::string>{});
};

// PreFilter's node restriction. Absent (std::nullopt) means all nodes.
using PreFilterResult = std::optional<std::set<std::string>>;

struct PostFilterResult {
  // Set when the plugin nominates a node (preemption).
  std::optional<std::string> nominated_node_name;
};

struct NodePluginScore {
  std::string name;
  int64_t score = 0;
};
using NodeScoreList = std::vector<NodePluginScore>;

// The part of a profile's framework that preemption re-runs on modified
// copies of the snapshot (upstream framework.Handle's PluginsRunner).
// Implemented by Framework.
class PluginsRunner {
 public:
  virtual ~PluginsRunner() = default;
  virtual Status RunPreFilterExtensionAddPod(CycleState& state,
                                             const api::Pod& pod_to_schedule,
                                             const api::Pod& pod_to_add,
                                             const NodeInfo& node) = 0;
  virtual Status RunPreFilterExtensionRemovePod(
      CycleState& state, const api::Pod& pod_to_schedule,
      const api::Pod& pod_to_remove, const NodeInfo& node) = 0;
  virtual Status RunFilterPluginsWithNominatedPods(
      CycleState& state, const api::Pod& pod, const NodeInfo& node,
      std::map<std::string, Status>* detail) = 0;
};

// What plugins may read of the scheduler. Implemented by the scheduler.
class Handle {
 public:
  virtual ~Handle() = default;
  // The snapshot of the current scheduling cycle.
  virtual const Snapshot& SnapshotSharedLister() const = 0;
  // The wall clock (upstream time.Now()), ms since the epoch: the
  // scenario's startTime plus the virtual clock, on the scale of
  // status.startTime and creationTimestamp.
  virtual api::TimeMs Now() const = 0;
  // Namespace name -> labels, for namespaceSelector.
  virtual const std::map<std::string, api::Labels>& NamespaceLabels() const = 0;
  virtual const std::vector<api::PodDisruptionBudget>& PodDisruptionBudgets()
      const = 0;
  // The PersistentVolumes, claims, StorageClasses and CSI objects the
  // scheduler's informers hold now (upstream's PV/PVC/StorageClass/CSI
  // listers).
  virtual const api::StorageObjects& StorageListers() const = 0;
  // The Services, ReplicationControllers, ReplicaSets and StatefulSets the
  // informers hold now (what helper.DefaultSelector lists).
  virtual const api::SelectorObjects& SelectorListers() const = 0;
  // The API server's update (or create) of a PersistentVolume or claim by
  // a plugin (VolumeBinding's PreBind): the stored object becomes `write`,
  // the informers raise its cluster event, and the PV controller model runs
  // the scenario's volumeBindingLatency later. The default (test handles)
  // writes nothing.
  virtual void WriteStorageObject(const api::StorageWrite& /*write*/) {}
  // Pods nominated to `node_name`, in nomination order.
  virtual std::vector<api::Pod> NominatedPodsForNode(
      const std::string& node_name) const = 0;
  // The API server's pods/binding call. Fails when the scenario injected a
  // bind failure for this pod.
  [[nodiscard]] virtual schedref::Status BindPod(
      const api::Pod& pod, const std::string& node_name) = 0;
  // The run's scheduler extenders (api/extender/extender_set.h), which
  // DefaultPreemption asks through callExtenders; nullptr when the handle
  // has none (test handles).
  virtual const api::extender::ExtenderSet* Extenders() const { return nullptr; }

  // --- What preemption (DefaultPreemption) needs ---
  // The framework of `pod`'s profile.
  virtual PluginsRunner* RunnerFor(const api::Pod& pod) = 0;
  // The pod as the cluster holds it now (upstream re-reads the preemptor
  // from the lister); nullopt iff it no longer exists.
  virtual std::optional<api::Pod> GetPod(const std::string& pod_key) const = 0;
  // Deletes a preemption victim through the API server at the current
  // virtual time (a pod waiting at Permit is rejected instead, as upstream's
  // prepareCandidate does), recorded in the attempt's preemption result.
  // Error `pods "<name>" not found`, and nothing done, iff the victim is not
  // waiting and no longer exists (upstream's DisruptionTarget status patch
  // fails; only a later release tolerates NotFound there).
  virtual Status PreemptVictim(const api::Pod& victim,
                               const api::Pod& preemptor) = 0;
  // The preemption dry run's candidates, once per PostFilter that found
  // any (for full-detail traces); the default ignores them.
  virtual void NotePreemptionCandidates(std::vector<api::PreemptionCandidate> candidates) {
    (void)candidates;
  }
  // Clears status.nominatedNodeName of a lower-priority pod nominated to the
  // node a preemptor was nominated to (a status patch).
  virtual void ClearNominatedNodeName(const api::Pod& pod) = 0;
  // The scheduler's specified RNG (docs/deviations.md "Random numbers");
  // preemption's candidate offset draws from it.
  virtual uint64_t NextRandom() = 0;

  // DefaultPreemption's choice point (choices.h): the run's Choices
  // answers, with the cycle filled in.
  virtual PreemptionPick ChoosePreemption(const PreemptionChoice& choice) {
    return PinnedChoices().Preemption(choice);
  }
};

class Plugin {
 public:
  virtual ~Plugin() = default;
  virtual std::string Name() const = 0;
};

class PreEnqueuePlugin : public virtual Plugin {
 public:
  // Non-success keeps the pod out of activeQ (gated).
  virtual Status PreEnqueue(const api::Pod& pod) = 0;
};

class QueueSortPlugin : public virtual Plugin {
 public:
  // True iff a should be popped before b.
  virtual bool Less(const QueuedPodInfo& a, const QueuedPodInfo& b) const = 0;
};

// Plugins that reject pods implement this to say which events may make them
// schedulable again.
class EnqueueExtensions : public virtual Plugin {
 public:
  virtual std::vector<ClusterEventWithHint> EventsToRegister() const = 0;
};

struct PreFilterOutput {
  PreFilterResult result;
  Status status;
};

class PreFilterPlugin : public virtual Plugin {
 public:
  virtual PreFilterOutput PreFilter(CycleState& state, const api::Pod& pod,
                                    const std::vector<const NodeInfo*>& nodes) = 0;
  // Whether AddPod/RemovePod below are meaningful (upstream
  // PreFilterExtensions() != nil).
  virtual bool HasPreFilterExtensions() const { return false; }
  // Update the plugin's cycle state as if `pod_to_add` ran on `node`.
  virtual Status AddPod(CycleState& /*state*/,
                        const api::Pod& /*pod_to_schedule*/,
                        const api::Pod& /*pod_to_add*/,
                        const NodeInfo& /*node*/) {
    return Status::Success();
  }
  virtual Status RemovePod(CycleState& /*state*/,
                           const api::Pod& /*pod_to_schedule*/,
                           const api::Pod& /*pod_to_remove*/,
                           const NodeInfo& /*node*/) {
    return Status::Success();
  }
};

class FilterPlugin : public virtual Plugin {
 public:
  virtual Status Filter(CycleState& state, const api::Pod& pod,
                        const NodeInfo& node) = 0;
};

struct PostFilterOutput {
  std::optional<PostFilterResult> result;
  Status status;
};

class PostFilterPlugin : public virtual Plugin {
 public:
  virtual PostFilterOutput PostFilter(CycleState& state, const api::Pod& pod,
                                      const NodeToStatus& statuses) = 0;
};

class PreScorePlugin : public virtual Plugin {
 public:
  virtual Status PreScore(CycleState& state, const api::Pod& pod,
                          const std::vector<const NodeInfo*>& nodes) = 0;
};

struct ScoreOutput {
  int64_t score = 0;
  Status status;
};

class ScorePlugin : public virtual Plugin {
 public:
  virtual ScoreOutput Score(CycleState& state, const api::Pod& pod,
                            const NodeInfo& node) = 0;
  // Whether NormalizeScore is meaningful (upstream ScoreExtensions() != nil).
  virtual bool HasScoreExtensions() const { return false; }
  virtual Status NormalizeScore(CycleState& /*state*/,
                                const api::Pod& /*pod*/,
                                NodeScoreList& /*scores*/) {
    return Status::Success();
  }
};

class ReservePlugin : public virtual Plugin {
 public:
  virtual Status Reserve(CycleState& state, const api::Pod& pod,
                         const std::string& node_name) = 0;
  // Must be idempotent and must not fail (upstream contract).
  virtual void Unreserve(CycleState& state, const api::Pod& pod,
                         const std::string& node_name) = 0;
};

struct PermitOutput {
  Status status;
  // With Wait: how long to wait before rejecting (capped at 15 minutes).
  int64_t timeout_ms = 0;
};

class PermitPlugin : public virtual Plugin {
 public:
  virtual PermitOutput Permit(CycleState& state, const api::Pod& pod,
                              const std::string& node_name) = 0;
};

class PreBindPlugin : public virtual Plugin {
 public:
  virtual Status PreBind(CycleState& state, const api::Pod& pod,
                         const std::string& node_name) = 0;
};

class BindPlugin : public virtual Plugin {
 public:
  // Skip: let the next Bind plugin decide.
  virtual Status Bind(CycleState& state, const api::Pod& pod,
                      const std::string& node_name) = 0;
};

class PostBindPlugin : public virtual Plugin {
 public:
  virtual void PostBind(CycleState& state, const api::Pod& pod,
                        const std::string& node_name) = 0;
};

}  // namespace schedref::reference::framework

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_INTERFACE_H_
