// The optimized scheduler: the same event loop on the same virtual clock as
// the reference (docs/semantics/event-loop.md, docs/semantics/cycle.md), so
// every trace record is the same, with the work of a scheduling cycle done
// the fast way: an incremental snapshot, Filter over nodes in parallel in
// batches with the reference's early stop, Score in parallel, an O(n)
// selectHost. docs/optimized.md says why each shortcut is equivalent. The
// harness around the cycle is written again here, on purpose: it holds the
// pods as shared PodInfos that the cache, queue and plugins reuse
// (docs/semantics/event-loop.md "Two harnesses, on purpose").
#ifndef SCHEDREF_OPTIMIZED_SCHEDULER_SCHEDULER_H_
#define SCHEDREF_OPTIMIZED_SCHEDULER_SCHEDULER_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "api/extender/extender_set.h"
#include "api/scheduler.h"
#include "api/status.h"
#include "api/types/scenario.h"
#include "api/types/trace.h"
#include "optimized/backend/cache/cache.h"
#include "optimized/backend/queue/scheduling_queue.h"
#include "optimized/framework/fit_error.h"
#include "optimized/framework/framework.h"
#include "optimized/framework/registry.h"
#include "optimized/framework/string_map.h"
#include "optimized/framework/string_sort.h"

namespace schedref::optimized {

class OptimizedScheduler : public api::Scheduler {
 public:
  // The in-tree plugins plus the test plugins.
  OptimizedScheduler();
  explicit OptimizedScheduler(framework::Registry registry);

  std::string Name() const override { return "optimized"; }
  StatusOr<api::Trace> Run(const api::Scenario& scenario,
                           const api::RunOptions& options) override;

 private:
  framework::Registry registry_;
};

namespace internal {

// A copy of `info` whose pod `change` edits: a new pod object, with
// spec.nodeName = info.node_name() before the change. REQUIRES: `change`
// writes only fields no PodInfo member is derived from (spec.nodeName,
// metadata.deletionTimestamp, status.nominatedNodeName, status.conditions),
// so the copied derived members stay right.
template <typename Change>
framework::PodInfoPtr ChangedPodInfo(const framework::PodInfo& info, Change change) {
  api::Pod pod = info.pod;
  pod.node_name = info.node_name();
  change(pod);
  return std::make_shared<framework::PodInfo>(static_cast<const framework::PodInfoDerived&>(info),
                                              std::move(pod));
}

// One run of one scenario. Not reusable.
class Scheduler : public framework::Handle {
 public:
  Scheduler(const api::Scenario& scenario, const api::RunOptions& options);

  [[nodiscard]] schedref::Status Init(const framework::Registry& registry);
  [[nodiscard]] StatusOr<api::Trace> Run();

  // framework::Handle
  const framework::Snapshot& SnapshotSharedLister() const override { return snapshot_; }
  // The wall clock: the scenario's startTime plus the virtual clock.
  api::TimeMs Now() const override { return scenario_.start_time + now_; }
  const std::map<std::string, api::Labels>& NamespaceLabels() const override {
    return namespaces_;
  }
  const std::vector<api::PodDisruptionBudget>& PodDisruptionBudgets() const override {
    return pdbs_;
  }
  const api::StorageObjects& StorageListers() const override { return storage_; }
  int64_t StorageRevision() const override { return storage_revision_; }
  const api::SelectorObjects& SelectorListers() const override { return selectors_; }
  void WriteStorageObject(const api::StorageWrite& write) override;
  std::vector<framework::PodInfoPtr> NominatedPodsForNode(
      const std::string& node_name) const override;
  std::vector<std::string> NominatedNodeNames() const override {
    return queue_->NominatedNodeNames();
  }
  const framework::NominatedPodsByNode& NominatedPodsOnSnapshot() override;
  // The extender calls made so far and their wall time.
  api::ExtenderCallStats ExtenderStats() const {
    return extenders_ == nullptr
               ? api::ExtenderCallStats{}
               : api::ExtenderCallStats{extenders_->calls(), extenders_->call_nanos()};
  }
  const api::extender::ExtenderSet* Extenders() const override { return extenders_.get(); }
  [[nodiscard]] schedref::Status BindPod(const api::Pod& pod,
                                         const std::string& node_name) override;
  framework::PluginsRunner* RunnerFor(const api::Pod& pod) override;
  std::optional<api::Pod> GetPod(const std::string& pod_key) const override;
  framework::Status PreemptVictim(const api::Pod& victim, const api::Pod& preemptor) override;
  void NotePreemptionCandidates(std::vector<api::PreemptionCandidate> candidates) override {
    if (options_.full_detail) preemption_candidates_ = std::move(candidates);
  }
  void ClearNominatedNodeName(const api::Pod& pod) override;
  uint64_t NextRandom() override;
  framework::Parallelizer& Parallel() override { return parallel_; }

 private:
  struct InFlightBinding {
    framework::QueuedPodInfo assumed;  // pod with spec.nodeName = node
    // The PodInfo the attempt popped, `assumed`'s without spec.nodeName.
    framework::PodInfoPtr popped;
    framework::CycleState state;
    framework::Framework* fwk = nullptr;
    std::string node;
    int64_t cycle = 0;
    std::optional<api::TimeMs> bind_completes_at;
    // A waiting PreBind plugin (VolumeBinding's poll): when it and the
    // plugins after it run again.
    std::optional<api::TimeMs> pre_bind_retry_at;
    size_t pre_bind_next = 0;
  };
  struct ScheduleResult {
    std::string suggested_host;
    // The snapshot's NodeInfo of suggested_host (a hint for the cache).
    const framework::NodeInfo* suggested_node = nullptr;
    std::vector<api::NodeScore> top_scores;
  };
  struct CycleOutcome {
    ScheduleResult result;
    framework::Status status;
    std::optional<framework::FitError> fit_error;
    std::optional<backend::queue::NominatingInfo> nominating_info;
  };

  // --- event handlers (upstream eventhandlers.go) ---
  // Pods travel as PodInfoPtrs: the object pods_ holds is the one the queue
  // and the cache get, so a pod is copied only where it changes.
  schedref::Status ApplyEvent(const api::Event& event, size_t index);
  // A storage object changes at the API server: store, cluster event.
  void ApplyStorageWrite(const api::StorageWrite& write);
  // The PV controller model (api::CompleteVolumeBindings) now, its writes
  // applied in order.
  void RunVolumeController();
  void AddNode(const api::Node& node);
  void UpdateNode(const api::Node& old_node, const api::Node& new_node);
  void DeleteNode(const api::Node& node);
  // A pod the API server created: to the informers (AddPod) unless it is
  // in a terminal phase, which they never see. `pod` outlives the run.
  void CreatePod(const api::Pod& pod);
  void AddPod(const api::Pod& pod);
  // The informers' reaction to a pod just stored in pods_.
  void PodAdded(const framework::PodInfoPtr& stored);
  // Replaces pods_'s entry `stored` (the pod's current object) with
  // `new_pod` and tells the informers.
  void UpdatePod(framework::PodInfoPtr& stored, framework::PodInfoPtr new_pod);
  void DeletePod(framework::PodInfoPtr pod);
  // A pod that left the unscheduled-pod informer (deleted, or bound by
  // anyone; upstream deletePodFromSchedulingQueue) and waits at Permit is
  // rejected ("removed"), with an AssignedPodDelete move.
  void RejectWaitingPod(const api::Pod& pod);
  bool ResponsibleForPod(const api::Pod& pod) const;
  // The stored pod with `pod`'s key; nullptr iff none. Uses the PodInfo's
  // key when `pod` is the pod of the binding in progress.
  framework::PodInfoPtr* FindPod(const api::Pod& pod);

  // --- scheduling (upstream schedule_one.go) ---
  void ScheduleOne(framework::QueuedPodInfo pod_info);
  CycleOutcome SchedulingCycle(framework::Framework& fwk, framework::CycleState& state,
                               framework::QueuedPodInfo& pod_info, api::Attempt& attempt);
  CycleOutcome SchedulePod(framework::Framework& fwk, framework::CycleState& state,
                           const framework::PodInfo& pod, api::Attempt& attempt);
  // Filters `nodes` from the round-robin start until `to_find` pass; fills
  // the diagnosis with the rejections met before the stop. Parallel in
  // batches; the result equals checking one node at a time.
  std::vector<const framework::NodeInfo*> FindNodesThatPassFilters(
      framework::Framework& fwk, const framework::CycleState& state,
      const framework::PodInfo& pod, framework::Diagnosis& diagnosis,
      const std::vector<const framework::NodeInfo*>& nodes, int64_t start,
      api::Attempt* attempt, framework::Status* error);
  // findNodesThatPassExtenders: each interested filter extender in turn
  // narrows `feasible`; its failed nodes land in `statuses` (replacing a
  // node's earlier entry). Returns an Error status iff a non-ignorable
  // extender failed. `attempt`: nullptr, or where the verdicts go (full
  // detail).
  framework::Status FindNodesThatPassExtenders(
      const api::Pod& pod, std::vector<const framework::NodeInfo*>& feasible,
      framework::NodeToStatus& statuses, api::Attempt* attempt);
  // prioritizeNodes' extender part: adds each interested extender's scaled
  // scores to `scores` (totals, best, ties, and detail when it has it).
  void AddExtenderScores(const api::Pod& pod,
                         const std::vector<const framework::NodeInfo*>& nodes,
                         framework::ScoreResult& scores);
  // Puts the cycle's per-node statuses into the attempt's rejections.
  // Fast when each entry is a node of snapshot_ at its index; any other
  // entry only costs a map search.
  void RecordRejections(const framework::NodeToStatus& statuses, api::Attempt& attempt) const;
  int64_t NumFeasibleNodesToFind(std::optional<int32_t> percentage,
                                 int64_t num_all_nodes) const;
  // The chosen node; fills `top` with the report.
  // REQUIRES: `scores` are `nodes`' (RunScorePlugins), which is not empty.
  const framework::NodeInfo* SelectHost(const std::vector<const framework::NodeInfo*>& nodes,
                                        const framework::ScoreResult& scores,
                                        std::vector<api::NodeScore>* top);
  bool AdvanceBinding(InFlightBinding& binding);
  // The binding cycle from PreBind (at binding.pre_bind_next) on.
  bool ContinuePreBind(InFlightBinding& binding);
  // BindPod for a pod the informers do not deliver: a finished one (which
  // the API server binds without anyone hearing of it) or none.
  schedref::Status BindFinishedPod(const api::Pod& pod, const std::string& node_name);
  // The refusal a failBind event injected for the pod `key`, if one is left
  // (and then one fewer).
  std::optional<schedref::Status> InjectedBindFailure(const std::string& key);
  // The kubelet's final delete of every pod whose graceful deletion (by
  // preemption) ends now, in the order the deletions started.
  void FinishTerminations();
  // A bound pod with a lifetime (api::PodLifetime) starts running: it
  // finishes run_for_ms from now unless it is gone or being deleted by then.
  void StartLifetime(const api::Pod& pod);
  // Every pod whose lifetime ends now, in the order they started: the
  // kubelet's status update to the end phase, which the informers see as a
  // delete; then the pod's garbage collection (docs/scenario-format.md,
  // "Pod lifetimes").
  void FinishLifetimes();
  // The Bind plugins, with binding_in_progress_ = &binding meanwhile.
  framework::Status RunBindPlugins(InFlightBinding& binding);
  void FinishBind(InFlightBinding& binding, const framework::Status& status);
  void HandleBindingCycleError(InFlightBinding& binding, const framework::Status& status);
  // Consumes pod_info (moved into the queue when requeued). `rejected`: the
  // failure is a rejection (condition reason Unschedulable), not an error
  // (SchedulerError); `message`: its text.
  void HandleSchedulingFailure(framework::QueuedPodInfo& pod_info,
                               const std::optional<framework::FitError>& fit,
                               const std::optional<backend::queue::NominatingInfo>& ni,
                               bool rejected, const std::string& message);
  void Activate(const std::set<std::string>& pod_keys);
  void Note(const std::string& what, const std::string& pod, const std::string& message);

  // --- constant after construction ---
  const api::Scenario& scenario_;
  const api::RunOptions options_;

  // --- the cluster as the API server holds it ---
  framework::StringMap<api::Node> nodes_;
  // The pods the informers deliver (none in a terminal phase), by key.
  // PodInfos are immutable: an update stores a new one.
  framework::StringMap<framework::PodInfoPtr> pods_;
  // Pods in phase Succeeded or Failed, by key: they exist, but upstream's
  // pod informer selects status.phase!=Succeeded,status.phase!=Failed.
  std::map<std::string, api::Pod> terminated_pods_;
  std::map<std::string, api::Labels> namespaces_;
  std::vector<api::PodDisruptionBudget> pdbs_;
  api::StorageObjects storage_;
  int64_t storage_revision_ = 0;  // bumped on every change of storage_
  api::SelectorObjects selectors_;
  // When the PV controller model runs next, ascending.
  std::set<api::TimeMs> volume_controller_runs_;
  // Each pod's PodScheduled=False condition (reason, message) as the
  // scheduler last wrote it, by UID (api::Pod has no status.conditions).
  std::map<std::string, std::pair<std::string, std::string>> pod_scheduled_;

  // --- scheduler state ---
  framework::Parallelizer parallel_;
  backend::cache::Cache cache_;
  std::unique_ptr<backend::queue::SchedulingQueue> queue_;
  std::map<std::string, std::unique_ptr<framework::Framework>> profiles_;
  // The configured extenders, and the declared ones' servers (Init).
  std::unique_ptr<api::extender::ExtenderSet> extenders_;
  framework::Snapshot snapshot_;
  int64_t next_start_node_index_ = 0;
  uint64_t rng_state_ = 0;
  api::TimeMs now_ = 0;
  std::vector<InFlightBinding> bindings_;
  // Graceful deletions of preemption victims, in start order: at `at` the
  // kubelet has stopped the pod and deletes it.
  struct Termination {
    api::TimeMs at = 0;
    std::string key;
    std::string uid;
    int64_t grace_seconds = 0;
  };
  std::vector<Termination> terminations_;
  // Running pods with a lifetime, by (when they finish, start order).
  struct Completion {
    std::string key;
    std::string uid;
    api::PodLifetime lifetime;
  };
  std::map<std::pair<api::TimeMs, uint64_t>, Completion> completions_;
  uint64_t completions_started_ = 0;
  // The binding whose Bind plugins are running (BindPod reads it); null
  // otherwise.
  const InFlightBinding* binding_in_progress_ = nullptr;
  std::vector<std::string> preemption_victims_;
  // The last preemption dry run's candidates (full-detail traces only).
  std::vector<api::PreemptionCandidate> preemption_candidates_;
  // Reused across cycles so the filter loop does not allocate.
  std::vector<framework::Status> filter_statuses_;
  std::vector<uint8_t> filter_pass_;  // 1 iff the position passed every filter
  std::vector<const framework::NodeInfo*> filter_batch_;
  // A scored cycle's feasible list, handed back for the next
  // FindNodesThatPassFilters to fill (its contents are stale).
  std::vector<const framework::NodeInfo*> spare_feasible_;
  // NominatedPodsOnSnapshot's view, kept between cycles: valid for the
  // snapshot state `nominated_stamp_` and `nominated_rebuilds_` name, plus
  // the queue's nomination changes since (docs/optimized.md "Nominated
  // pods"). Preemption cycles with many nominated pods would otherwise
  // collect every nomination twice per cycle.
  framework::NominatedPodsByNode nominated_;
  framework::Snapshot::SlotStamp nominated_stamp_;
  int64_t nominated_rebuilds_ = -1;
  std::vector<int32_t> nominated_scratch_;
  // The last FindNodesThatPassFilters' feasible nodes' positions in the
  // snapshot's List(), when it scanned that list (else empty).
  std::vector<int32_t> feasible_positions_;
  std::vector<framework::FilterDetail> filter_details_;
  // The filter batch's positions whose node fails the cycle's HotCheck (or
  // has nominated pods), and those nodes' verdicts.
  std::vector<int64_t> filter_slow_at_;
  std::vector<const framework::NodeInfo*> filter_slow_nodes_;
  std::vector<uint8_t> filter_slow_pass_;
  std::vector<framework::Status> filter_slow_statuses_;

  // --- injected behaviour ---
  std::map<std::string, int32_t> bind_failures_;
  std::map<std::string, int64_t> bind_latency_ms_;
  int64_t default_bind_latency_ms_ = 0;

  api::Trace trace_;
};

}  // namespace internal
}  // namespace schedref::optimized

#endif  // SCHEDREF_OPTIMIZED_SCHEDULER_SCHEDULER_H_
