// The reference scheduler: upstream's Scheduler (scheduler.go, eventhandlers.go,
// schedule_one.go) as one single-threaded event loop on a virtual clock. This
// is the executable specification; docs/semantics/cycle.md describes it in
// prose and docs/deviations.md lists every rule pinned here that upstream
// leaves to goroutine timing or randomness.
//
// The loop, its instants and their order are stated once, in
// docs/semantics/event-loop.md; Run follows it step by step. The cluster
// harness around scheduleOne (the API server's store, informers, graceful
// termination, injected bind behaviour, the clock) is this implementation's
// own, on purpose: it holds the pods as plain api::Pod values, as the
// specification reads them (docs/semantics/event-loop.md "Two harnesses,
// on purpose").
#ifndef SCHEDREF_REFERENCE_SCHEDULER_SCHEDULER_H_
#define SCHEDREF_REFERENCE_SCHEDULER_SCHEDULER_H_

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
#include "reference/backend/cache/cache.h"
#include "reference/backend/queue/scheduling_queue.h"
#include "reference/framework/choices.h"
#include "reference/framework/fit_error.h"
#include "reference/framework/framework.h"
#include "reference/framework/registry.h"

namespace schedref::reference {

// The api::Scheduler every conformance run talks to.
class ReferenceScheduler : public api::Scheduler {
 public:
  // `registry`: the plugins profiles may name; defaults to the in-tree
  // plugins plus the test plugins.
  ReferenceScheduler();
  explicit ReferenceScheduler(framework::Registry registry);

  std::string Name() const override { return "reference"; }
  // Run with the pinned choices (framework::PinnedChoices).
  StatusOr<api::Trace> Run(const api::Scenario& scenario,
                           const api::RunOptions& options) override;
  // Run with `choices` answering every choice point. REQUIRES: each answer
  // is within the freedom its choice point describes (choices.h), else the
  // run crashes.
  [[nodiscard]] StatusOr<api::Trace> Run(const api::Scenario& scenario,
                                         const api::RunOptions& options,
                                         framework::Choices& choices);

  // The plugins the profile `scheduler_name` of `scenario` runs, in run
  // order at each extension point (Framework::ListPlugins: "preFilter",
  // "filter", "score", ...), and the score plugins' weights: what
  // `explain` lists. Errors: configuration errors, an unknown profile.
  struct ProfilePlugins {
    std::map<std::string, std::vector<std::string>> points;
    std::map<std::string, int64_t> score_weights;
  };
  [[nodiscard]] StatusOr<ProfilePlugins> Plugins(const api::Scenario& scenario,
                                                 const std::string& scheduler_name);

 private:
  framework::Registry registry_;
};

namespace internal {

// One run of one scenario. Not reusable.
class Scheduler : public framework::Handle {
 public:
  // REQUIRES: `choices` outlives the scheduler.
  Scheduler(const api::Scenario& scenario, const api::RunOptions& options,
            framework::Choices& choices);

  // Builds profiles and the queue. Errors: configuration errors.
  [[nodiscard]] schedref::Status Init(const framework::Registry& registry);
  // Runs the timeline to its end.
  [[nodiscard]] StatusOr<api::Trace> Run();
  // The framework of profile `scheduler_name`; nullptr if there is none.
  // REQUIRES: Init succeeded.
  const framework::Framework* Profile(const std::string& scheduler_name) const {
    auto it = profiles_.find(scheduler_name);
    return it == profiles_.end() ? nullptr : it->second.get();
  }

  // framework::Handle
  const framework::Snapshot& SnapshotSharedLister() const override {
    return snapshot_;
  }
  // The wall clock: the scenario's startTime plus the virtual clock.
  api::TimeMs Now() const override { return scenario_.start_time + now_; }
  const std::map<std::string, api::Labels>& NamespaceLabels() const override {
    return namespaces_;
  }
  const std::vector<api::PodDisruptionBudget>& PodDisruptionBudgets()
      const override {
    return pdbs_;
  }
  const api::StorageObjects& StorageListers() const override { return storage_; }
  const api::SelectorObjects& SelectorListers() const override { return selectors_; }
  void WriteStorageObject(const api::StorageWrite& write) override;
  std::vector<api::Pod> NominatedPodsForNode(
      const std::string& node_name) const override;
  [[nodiscard]] schedref::Status BindPod(const api::Pod& pod,
                                         const std::string& node_name) override;
  // The extender calls made so far and their wall time.
  api::ExtenderCallStats ExtenderStats() const {
    return extenders_ == nullptr
               ? api::ExtenderCallStats{}
               : api::ExtenderCallStats{extenders_->calls(), extenders_->call_nanos()};
  }
  const api::extender::ExtenderSet* Extenders() const override {
    return extenders_.get();
  }
  framework::PluginsRunner* RunnerFor(const api::Pod& pod) override;
  std::optional<api::Pod> GetPod(const std::string& pod_key) const override;
  framework::Status PreemptVictim(const api::Pod& victim,
                     const api::Pod& preemptor) override;
  void NotePreemptionCandidates(std::vector<api::PreemptionCandidate> candidates) override {
    if (options_.full_detail) preemption_candidates_ = std::move(candidates);
  }
  void ClearNominatedNodeName(const api::Pod& pod) override;
  // The specified RNG (docs/deviations.md "Random numbers").
  uint64_t NextRandom() override;
  framework::PreemptionPick ChoosePreemption(
      const framework::PreemptionChoice& choice) override;

 private:
  // A pod between its scheduling cycle and the end of its binding cycle.
  struct InFlightBinding {
    framework::QueuedPodInfo assumed;  // assumed.pod.node_name = node
    framework::CycleState state;
    framework::Framework* fwk = nullptr;
    std::string node;
    int64_t cycle = 0;
    // Set while the Bind call is outstanding (bind latency).
    std::optional<api::TimeMs> bind_completes_at;
    // Set while a PreBind plugin waits (VolumeBinding's poll): when it and
    // the plugins after it run again.
    std::optional<api::TimeMs> pre_bind_retry_at;
    size_t pre_bind_next = 0;
  };

  // --- event handlers (upstream eventhandlers.go) ---
  schedref::Status ApplyEvent(const api::Event& event, size_t index);
  // A storage object changes at the API server: store, cluster event.
  void ApplyStorageWrite(const api::StorageWrite& write);
  // The PV controller model (api::CompleteVolumeBindings) at the current
  // instant, its writes applied in order.
  void RunVolumeController();
  void AddNode(const api::Node& node);
  void UpdateNode(const api::Node& old_node, const api::Node& new_node);
  void DeleteNode(const api::Node& node);
  // A pod the API server created: to the informers (AddPod) unless it is
  // in a terminal phase, which they never see.
  void CreatePod(const api::Pod& pod);
  void AddPod(const api::Pod& pod);
  void UpdatePod(const api::Pod& old_pod, const api::Pod& new_pod);
  void DeletePod(const api::Pod& pod);
  // What the unscheduled-pod informer does when `pod` leaves it (deleted,
  // or bound by anyone; upstream deletePodFromSchedulingQueue): out of the
  // queue, and a pod waiting at Permit is rejected ("removed") with an
  // AssignedPodDelete move. REQUIRES: ResponsibleForPod(pod).
  void RemoveUnscheduledPod(const api::Pod& pod);
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
  bool ResponsibleForPod(const api::Pod& pod) const;

  // --- scheduling (upstream schedule_one.go) ---
  void ScheduleOne(framework::QueuedPodInfo pod_info);
  struct ScheduleResult {
    std::string suggested_host;
    int64_t evaluated_nodes = 0;
    int64_t feasible_nodes = 0;
    std::vector<api::NodeScore> top_scores;
  };
  // Either a result or a failure: `status` non-success with an optional
  // FitError and the nominating info to apply.
  struct CycleOutcome {
    ScheduleResult result;
    framework::Status status;
    std::optional<framework::FitError> fit_error;
    std::optional<queue::NominatingInfo> nominating_info;
  };
  CycleOutcome SchedulingCycle(framework::Framework& fwk,
                               framework::CycleState& state,
                               framework::QueuedPodInfo& pod_info,
                               api::Attempt& attempt);
  // schedulePod: the result, or a FitError / error.
  CycleOutcome SchedulePod(framework::Framework& fwk,
                           framework::CycleState& state, const api::Pod& pod,
                           api::Attempt& attempt);
  // Each searched node's filter verdicts by plugin (RunOptions::full_detail).
  using FilterDetail =
      std::map<std::string, std::map<std::string, framework::Status>>;
  // What findNodesThatFitPod finds: the feasible nodes and the diagnosis,
  // or `error` (then no feasible nodes).
  struct Fit {
    std::vector<const framework::NodeInfo*> feasible;
    framework::Diagnosis diagnosis;
    framework::Status error;
  };
  // `detail`: nullptr, or where the search's verdicts go; `pre_filter`:
  // nullptr, or where the PreFilter verdicts go (both for full-detail
  // traces).
  Fit FindNodesThatFitPod(
      framework::Framework& fwk, framework::CycleState& state, const api::Pod& pod,
      FilterDetail* detail,
      std::vector<std::pair<std::string, std::string>>* pre_filter = nullptr);
  // The nominated node iff it passes the filters; a rejection lands in
  // `diagnosis`.
  std::vector<const framework::NodeInfo*> EvaluateNominatedNode(
      framework::Framework& fwk, framework::CycleState& state,
      const api::Pod& pod, framework::Diagnosis& diagnosis);
  // The feasible nodes among `nodes`, searched from the round-robin start
  // as `choices` answers framework::SearchChoice; rejections land in
  // `diagnosis`, a filter Error in `*error`. `detail` keeps the verdicts of
  // the outcome's nodes only.
  std::vector<const framework::NodeInfo*> FindNodesThatPassFilters(
      framework::Framework& fwk, framework::CycleState& state,
      const api::Pod& pod, framework::Diagnosis& diagnosis,
      const std::vector<const framework::NodeInfo*>& nodes,
      framework::Choices& choices, FilterDetail* detail,
      framework::Status* error);
  // findNodesThatPassExtenders: each interested filter extender in turn
  // narrows `feasible`; its failed nodes land in `statuses`. Returns an
  // Error status iff a non-ignorable extender failed. `detail`: nullptr, or
  // where each extender's verdict on each node it was sent goes.
  framework::Status FindNodesThatPassExtenders(
      const api::Pod& pod, std::vector<const framework::NodeInfo*>& feasible,
      framework::NodeToStatus& statuses, FilterDetail* detail);
  // prioritizeNodes: PreScore and Score over the feasible nodes.
  StatusOr<std::vector<framework::NodeScoreResult>> PrioritizeNodes(
      framework::Framework& fwk, framework::CycleState& state,
      const api::Pod& pod, const std::vector<const framework::NodeInfo*>& nodes);
  // selectHost: a node with the highest score, as the choice point answers
  // among the tied ones; `top` gets the report (the chosen node first).
  std::string SelectHost(const std::vector<framework::NodeScoreResult>& scores,
                         std::vector<api::NodeScore>* top);
  // How many feasible nodes the search looks for among `num_all_nodes`.
  int64_t NodesToFind(framework::Framework& fwk, int64_t num_all_nodes) const;
  int64_t NumFeasibleNodesToFind(std::optional<int32_t> percentage,
                                 int64_t num_all_nodes) const;
  // The trace's view of a cycle, kept out of the decisions above.
  void RecordFilterDetail(const FilterDetail& detail,
                          api::Attempt& attempt) const;
  void RecordFit(const Fit& fit, api::Attempt& attempt) const;
  void RecordScores(const std::vector<framework::NodeScoreResult>& scores,
                    api::Attempt& attempt) const;
  // Continues a binding cycle as far as it can go now. Returns true iff the
  // binding is finished (bound or failed) and can be dropped.
  bool AdvanceBinding(InFlightBinding& binding);
  // The binding cycle from PreBind (at plugin binding.pre_bind_next) on;
  // returns as AdvanceBinding does.
  bool ContinuePreBind(InFlightBinding& binding);
  // bind: a binder extender (extendersBinding), else the Bind plugins.
  framework::Status Bind(InFlightBinding& binding);
  void FinishBind(InFlightBinding& binding, const framework::Status& status);
  void HandleBindingCycleError(InFlightBinding& binding,
                               const framework::Status& status);
  // `rejected`: the failure is a rejection (condition reason
  // Unschedulable), not an error (SchedulerError); `message`: its text.
  void HandleSchedulingFailure(framework::QueuedPodInfo& pod_info,
                               const std::optional<framework::FitError>& fit,
                               const std::optional<queue::NominatingInfo>& ni,
                               bool rejected, const std::string& message);
  void Activate(const std::set<std::string>& pod_keys);

  // --- constant after construction ---
  const api::Scenario& scenario_;
  const api::RunOptions options_;
  framework::Choices& choices_;

  // --- the cluster as the API server holds it ---
  std::map<std::string, api::Node> nodes_;  // by name
  // Pods the informers deliver: every pod not in a terminal phase.
  std::map<std::string, api::Pod> pods_;  // by namespace/name
  // Pods in phase Succeeded or Failed: they exist, but upstream's pod
  // informer selects status.phase!=Succeeded,status.phase!=Failed, so the
  // scheduler never sees them (a pod that enters such a phase is a delete
  // to it).
  std::map<std::string, api::Pod> terminated_pods_;  // by namespace/name
  std::map<std::string, api::Labels> namespaces_;
  std::vector<api::PodDisruptionBudget> pdbs_;
  api::StorageObjects storage_;
  api::SelectorObjects selectors_;
  // Each pod's PodScheduled=False condition (reason, message) as the
  // scheduler last wrote it, by UID (api::Pod has no status.conditions).
  std::map<std::string, std::pair<std::string, std::string>> pod_scheduled_;

  // --- scheduler state ---
  cache::Cache cache_;
  std::unique_ptr<queue::SchedulingQueue> queue_;
  std::map<std::string, std::unique_ptr<framework::Framework>> profiles_;
  // The configured extenders, and the declared ones' servers (Init).
  std::unique_ptr<api::extender::ExtenderSet> extenders_;
  framework::Snapshot snapshot_;
  int64_t next_start_node_index_ = 0;
  uint64_t rng_state_ = 0;
  api::TimeMs now_ = 0;
  std::vector<InFlightBinding> bindings_;  // in start order
  // When the PV controller model runs next (volumeBindingLatency after a
  // write to a PV or claim), ascending.
  std::set<api::TimeMs> volume_controller_runs_;
  // Graceful deletions of preemption victims, in start order: at `at` the
  // kubelet has stopped the pod and deletes it (docs/semantics/preemption.md).
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
  // Victims deleted by preemption during the current attempt.
  std::vector<std::string> preemption_victims_;
  // The last preemption dry run's candidates (full-detail traces only).
  std::vector<api::PreemptionCandidate> preemption_candidates_;

  // --- injected behaviour ---
  std::map<std::string, int32_t> bind_failures_;   // pod key -> remaining
  std::map<std::string, int64_t> bind_latency_ms_;  // pod key -> latency
  int64_t default_bind_latency_ms_ = 0;

  api::Trace trace_;
};

}  // namespace internal
}  // namespace schedref::reference

#endif  // SCHEDREF_REFERENCE_SCHEDULER_SCHEDULER_H_
