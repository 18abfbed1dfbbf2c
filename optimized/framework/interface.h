// The plugin interfaces at the 12 extension points and the Handle through
// which plugins see the scheduler. Specification: upstream
// pkg/scheduler/framework/interface.go, v1.32.
//
// Differences from the reference's interfaces, all for speed:
//  - plugins receive a PodInfo (the pod plus its precomputed requests, ports
//    and affinity terms) and NodeInfos with running aggregates (types.h);
//  - Filter and Score are const and are called concurrently for different
//    nodes: they may only read the CycleState and the plugin's own
//    configuration. Everything mutable happens in PreFilter / PreScore /
//    NormalizeScore, which run on the scheduler's thread;
//  - NormalizeScore works on a plain score array parallel to the node list.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_INTERFACE_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_INTERFACE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "api/apiserver/volume_binding_controller.h"
#include "api/status.h"
#include "api/types/objects.h"
#include "api/types/trace.h"
#include "optimized/framework/cycle_state.h"
#include "optimized/framework/events.h"
#include "optimized/framework/hot_check.h"
#include "optimized/framework/parallelize.h"
#include "optimized/framework/snapshot.h"
#include "optimized/framework/status.h"
#include "optimized/framework/types.h"

namespace schedref::api::extender {
class ExtenderSet;
}  // namespace schedref::api::extender

namespace schedref::optimized::framework {

inline constexpr int64_t kMaxNodeScore = 100;
inline constexpr int64_t kMinNodeScore = 0;

// A pod waiting in the scheduling queue (upstream QueuedPodInfo).
struct QueuedPodInfo {
  PodInfoPtr pod_info;
  // When the pod was last added to the queue (refreshed on every requeue).
  api::TimeMs timestamp = 0;
  int attempts = 0;
  // When the pod was first added to activeQ; unset while gated.
  std::optional<api::TimeMs> initial_attempt_timestamp;
  // Plugins that rejected the pod in its last attempt, and those that
  // returned Pending.
  std::set<std::string> unschedulable_plugins;
  std::set<std::string> pending_plugins;
  // True iff a PreEnqueue plugin keeps the pod out of activeQ.
  bool gated = false;

  const api::Pod& pod() const { return pod_info->pod; }
};

// The status a filter gave each node; nodes not listed take
// `absent_status` (upstream NodeToStatus, v1.31+). Upstream keeps a map by
// node name; nothing reads it in name order (the FitError message counts
// reasons, preemption walks the snapshot), so this is a list in the order
// the statuses were recorded, which costs a filter loop over thousands of
// rejected nodes an append each instead of a tree insert.
struct NodeToStatus {
  struct Entry {
    std::string node;
    // NodeInfo::index of the node in the snapshot of the cycle that
    // recorded it; -1 if unknown. A hint: readers check the name, or,
    // within that same cycle, that the snapshot's NodeInfo at `index` is
    // `info`.
    int32_t index = -1;
    Status status;
    // The snapshot's NodeInfo of the node, meaningful only during the
    // scheduling cycle that recorded it (the snapshot may reuse the
    // object for another node later); nullptr if unknown. Never read
    // through: compared with the snapshot's list only.
    const NodeInfo* info = nullptr;
  };
  // Each node at most once.
  std::vector<Entry> statuses;
  Status absent_status = Status(Code::kUnschedulableAndUnresolvable,
                                std::vector<std::string>{});

  // REQUIRES: no status recorded for `node` yet; `info` is nullptr or the
  // NodeInfo at `index` in this cycle's snapshot.
  void Add(std::string node, int32_t index, Status status, const NodeInfo* info = nullptr) {
    statuses.push_back(Entry{std::move(node), index, std::move(status), info});
  }
  // The recorded status of `node`, else absent_status. O(entries).
  const Status& Of(const std::string& node) const {
    for (const Entry& e : statuses) {
      if (e.node == node) return e.status;
    }
    return absent_status;
  }
};

// PreFilter's node restriction; nullopt means all nodes.
using PreFilterResult = std::optional<std::set<std::string>>;

struct PreFilterOutput {
  PreFilterResult result;
  Status status;
};

struct PostFilterResult {
  std::optional<std::string> nominated_node_name;
};

struct PostFilterOutput {
  std::optional<PostFilterResult> result;
  Status status;
};

struct ScoreOutput {
  int64_t score = 0;
  Status status;
};

struct PermitOutput {
  Status status;
  // With Wait: how long to wait before rejecting (capped at 15 minutes).
  int64_t timeout_ms = 0;
};

class FilterPlugin;
class PreFilterPlugin;

// The filters a cycle state runs (its PreFilter skips applied), in order,
// and whether a PreFilter extension (AddPod/RemovePod) runs for it, with
// the plugins whose extensions run, in order. Fixed for a whole dry run, so
// preemption plans once per Preempt call (and a dry run that adds and
// removes thousands of pods looks up no plugin name).
struct FilterPlan {
  std::vector<const FilterPlugin*> filters;
  // False iff no extension runs: adding or removing pods then leaves the
  // cycle state as it is (a dry run need not copy it).
  bool extensions = false;
  std::vector<PreFilterPlugin*> extension_plugins;
};

// What preemption re-runs on modified copies of nodes (upstream
// framework.PluginsRunner). Implemented by Framework.
class PluginsRunner {
 public:
  virtual ~PluginsRunner() = default;
  virtual FilterPlan PlanFilters(const CycleState& state) const = 0;
  // The PreFilter extensions of `plan` (PlanFilters of the state the dry
  // run started from; `state` is a copy of it).
  virtual Status RunPreFilterExtensionAddPod(const FilterPlan& plan, CycleState& state,
                                             const PodInfo& pod_to_schedule,
                                             const PodInfo& pod_to_add,
                                             const NodeInfo& node) = 0;
  virtual Status RunPreFilterExtensionRemovePod(const FilterPlan& plan, CycleState& state,
                                                const PodInfo& pod_to_schedule,
                                                const PodInfo& pod_to_remove,
                                                const NodeInfo& node) = 0;
  // The filters with upstream's nominated-pods rule. `nominated`: what
  // Handle::NominatedPodsForNode returns for node.Name(), fetched once by a
  // caller that filters one node many times (preemption's reprieve loop; a
  // dry run does not change the queue). `plan`: PlanFilters of the state
  // the dry run started from.
  virtual Status RunFilterPluginsWithNominatedPods(
      const FilterPlan& plan, const CycleState& state, const PodInfo& pod, const NodeInfo& node,
      const std::vector<PodInfoPtr>& nominated) = 0;
  // What RunFilterPluginsWithNominatedPods would return for a copy of
  // `node` with `removed` (pods on it) taken off, one by one, by
  // NodeInfo::RemovePod and RunPreFilterExtensionRemovePod on a copy of
  // `state` -- when that is known without the copies: no PreFilter
  // extension runs (plan.extensions is false), no nominated pod counts,
  // and every planned filter answers FilterPlugin::FilterWithoutPods.
  // nullopt otherwise. Thread-safe.
  virtual std::optional<Status> RunFilterPluginsWithoutPods(
      const FilterPlan& plan, const CycleState& state, const PodInfo& pod,
      const NodeInfo& node, const std::vector<const PodInfo*>& removed,
      const std::vector<PodInfoPtr>& nominated) const = 0;
  // RunFilterPluginsWithoutPods with every pod of `node` removed, in the
  // node's order, asking FilterPlugin::FilterWithoutAllPods: a preemptor
  // above every pod of a node asks this of each node before anything else,
  // and most filters need not read the pods to answer. Thread-safe.
  virtual std::optional<Status> RunFilterPluginsWithoutAllPods(
      const FilterPlan& plan, const CycleState& state, const PodInfo& pod,
      const NodeInfo& node, const std::vector<PodInfoPtr>& nominated) const = 0;
};

// Node -> the pods nominated to it (CollectNominatedPods).
using NominatedPodsByNode = std::unordered_map<const NodeInfo*, std::vector<PodInfoPtr>>;

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
  // Changes whenever StorageListers() does (a storage object's create,
  // update or delete) and never takes a value twice; -1 when the handle
  // does not track it, and a plugin then keeps nothing it derived from
  // storage objects beyond the call.
  virtual int64_t StorageRevision() const { return -1; }
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
  virtual std::vector<PodInfoPtr> NominatedPodsForNode(
      const std::string& node_name) const = 0;
  // Every node name NominatedPodsForNode may return pods for, in no
  // particular order (it may name no node of the snapshot, or "").
  virtual std::vector<std::string> NominatedNodeNames() const = 0;
  // CollectNominatedPods(*this, SnapshotSharedLister()) as of now, valid
  // until the next call or the next change of nominations or snapshot.
  // The scheduler keeps it between cycles and recomputes only the nodes
  // whose nominations changed; the default collects afresh.
  virtual const NominatedPodsByNode& NominatedPodsOnSnapshot();
  // The API server's pods/binding call; fails when the scenario injected a
  // bind failure for this pod.
  [[nodiscard]] virtual schedref::Status BindPod(const api::Pod& pod,
                                                 const std::string& node_name) = 0;
  // The run's scheduler extenders (api/extender/extender_set.h), which
  // DefaultPreemption asks through callExtenders; nullptr when the handle
  // has none (test handles).
  virtual const api::extender::ExtenderSet* Extenders() const { return nullptr; }
  // --- preemption (DefaultPreemption) ---
  virtual PluginsRunner* RunnerFor(const api::Pod& pod) = 0;
  // The pod as the cluster holds it now; nullopt iff it no longer exists.
  virtual std::optional<api::Pod> GetPod(const std::string& pod_key) const = 0;
  // Deletes a victim at the current virtual time (a pod waiting at Permit
  // is rejected instead), recorded in the attempt's preemption result.
  // Error `pods "<name>" not found`, and nothing done, iff the victim is not
  // waiting and no longer exists (upstream v1.32's status patch fails).
  virtual Status PreemptVictim(const api::Pod& victim, const api::Pod& preemptor) = 0;
  // The preemption dry run's candidates, once per PostFilter that found
  // any (for full-detail traces); the default ignores them.
  virtual void NotePreemptionCandidates(std::vector<api::PreemptionCandidate> candidates) {
    (void)candidates;
  }
  // Clears status.nominatedNodeName of a lower-priority nominated pod.
  virtual void ClearNominatedNodeName(const api::Pod& pod) = 0;
  // The scheduler's specified RNG (docs/deviations.md "Random numbers").
  virtual uint64_t NextRandom() = 0;
  // Worker threads for data-parallel loops.
  virtual Parallelizer& Parallel() = 0;

 private:
  // The default NominatedPodsOnSnapshot's answer.
  NominatedPodsByNode collected_;
};

// The pods nominated to each node of `snapshot` that has any, by the
// snapshot's NodeInfo: Handle::NominatedNodeNames, then NominatedPodsForNode
// of each. Names of no snapshot node are left out; their pods never apply,
// among them those filed under "" (a nomination cleared by a failed
// preemption: no node is named ""). Nominations do not change within a
// scheduling cycle, so a cycle collects them once.
inline NominatedPodsByNode CollectNominatedPods(const Handle& handle, const Snapshot& snapshot) {
  NominatedPodsByNode out;
  for (const std::string& name : handle.NominatedNodeNames()) {
    const NodeInfo* node = name.empty() ? nullptr : snapshot.Get(name);
    if (node == nullptr) continue;
    std::vector<PodInfoPtr> pods = handle.NominatedPodsForNode(name);
    if (!pods.empty()) out[node] = std::move(pods);
  }
  return out;
}

inline const NominatedPodsByNode& Handle::NominatedPodsOnSnapshot() {
  collected_ = CollectNominatedPods(*this, SnapshotSharedLister());
  return collected_;
}

class Plugin {
 public:
  virtual ~Plugin() = default;
  virtual std::string Name() const = 0;
};

class PreEnqueuePlugin : public virtual Plugin {
 public:
  virtual Status PreEnqueue(const api::Pod& pod) = 0;
};

// A QueueSort order as a pair compared lexicographically (SortKey).
struct QueueSortKey {
  int64_t major = 0;
  int64_t minor = 0;
  friend auto operator<=>(const QueueSortKey&, const QueueSortKey&) = default;
};

class QueueSortPlugin : public virtual Plugin {
 public:
  // True iff a should be popped before b.
  virtual bool Less(const QueuedPodInfo& a, const QueuedPodInfo& b) const = 0;
  // A key with Less's order, for a plugin that has one: for all a and b,
  // Less(a, b) iff SortKey(a) < SortKey(b). The queue then keeps each
  // pod's key beside it and compares keys instead of calling Less (which
  // reads the pods). nullopt, the default: no such key, Less is called.
  virtual std::optional<QueueSortKey> SortKey(const QueuedPodInfo& /*info*/) const {
    return std::nullopt;
  }
};

class EnqueueExtensions : public virtual Plugin {
 public:
  virtual std::vector<ClusterEventWithHint> EventsToRegister() const = 0;
};

class PreFilterPlugin : public virtual Plugin {
 public:
  // `nodes`: every node of the snapshot, in List() order.
  virtual PreFilterOutput PreFilter(CycleState& state, const PodInfo& pod,
                                    const std::vector<NodeInfo*>& nodes) = 0;
  virtual bool HasPreFilterExtensions() const { return false; }
  // Update the plugin's cycle state as if `pod_to_add` ran on `node`.
  virtual Status AddPod(CycleState& /*state*/, const PodInfo& /*pod_to_schedule*/,
                        const PodInfo& /*pod_to_add*/, const NodeInfo& /*node*/) {
    return Status::Success();
  }
  virtual Status RemovePod(CycleState& /*state*/, const PodInfo& /*pod_to_schedule*/,
                           const PodInfo& /*pod_to_remove*/,
                           const NodeInfo& /*node*/) {
    return Status::Success();
  }
};

class FilterPlugin : public virtual Plugin {
 public:
  // Called concurrently for different nodes; read-only.
  virtual Status Filter(const CycleState& state, const PodInfo& pod,
                        const NodeInfo& node) const = 0;
  // Filter over a run of nodes, for those still in the running: for every
  // i in [0, n) with pass[i] set whose node Filter would not pass, clears
  // pass[i] and sets statuses[i] to Filter's status; every other entry is
  // left as it is. Returns how many entries it cleared (the framework
  // then skips its per-node bookkeeping for a pass that rejected nothing,
  // the usual case). Most nodes pass, and a pass needs no Status: a node
  // that passes the plugin's HotCheck (NarrowHotCheck) is not given to
  // Filter. An override must mean exactly what this default does. Called
  // concurrently for disjoint runs; read-only.
  virtual size_t FilterPass(const CycleState& state, const PodInfo& pod,
                            const NodeInfo* const* nodes, size_t n, uint8_t* pass,
                            Status* statuses) const {
    HotCheck check;
    if (NarrowHotCheck(state, pod, &check)) {
      return FilterPassExcept(state, pod, nodes, n, pass, statuses,
                              [check](const NodeInfo& node) { return check.Passes(node.hot()); });
    }
    return FilterPassExcept(state, pod, nodes, n, pass, statuses,
                            [](const NodeInfo&) { return false; });
  }
  // Narrows *check by a condition on a node's Hot line under which Filter
  // passes the node, for this cycle's state and pod, and returns true;
  // returns false, leaving *check as it is, iff the plugin cannot tell
  // from the Hot line. A node failing the check is not rejected by it: the
  // framework then calls Filter (HotCheck). Called once a cycle, before
  // any node is filtered; read-only.
  virtual bool NarrowHotCheck(const CycleState& /*state*/, const PodInfo& /*pod*/,
                              HotCheck* /*check*/) const {
    return false;
  }
  // What Filter would say of a copy of `node` with `removed` (pods on it)
  // taken off by NodeInfo::RemovePod, with `state` as the PreFilter
  // extensions' RemovePod would leave it; nullopt iff the plugin cannot
  // tell without that copy. Preemption's dry run asks this before copying
  // anything (PluginsRunner::RunFilterPluginsWithoutPods). A plugin that
  // reads nothing of a node's pods and has no PreFilter extensions answers
  // Filter(state, pod, node). Called concurrently; read-only.
  virtual std::optional<Status> FilterWithoutPods(const CycleState& /*state*/,
                                                  const PodInfo& /*pod*/,
                                                  const NodeInfo& /*node*/,
                                                  const std::vector<const PodInfo*>& /*removed*/) const {
    return std::nullopt;
  }
  // FilterWithoutPods with `removed` every pod of `node`, in the node's
  // order. Overrides answer without reading the pods where they can.
  // Called concurrently; read-only.
  virtual std::optional<Status> FilterWithoutAllPods(const CycleState& state, const PodInfo& pod,
                                                     const NodeInfo& node) const {
    std::vector<const PodInfo*> all;
    all.reserve(node.pods().size());
    for (const PodInfoPtr& p : node.pods()) all.push_back(p.get());
    return FilterWithoutPods(state, pod, node, all);
  }
  // The converse: what Filter would say of a copy of `node` with `added`
  // (pods not on it) added by NodeInfo::AddPod, with `state` as the
  // PreFilter extensions' AddPod would leave it; nullopt iff the plugin
  // cannot tell without that copy. Filtering with nominated pods asks this
  // before copying (Framework::RunFilterPluginsWithNominatedPods). Called
  // concurrently; read-only.
  virtual std::optional<Status> FilterWithPods(const CycleState& /*state*/,
                                               const PodInfo& /*pod*/, const NodeInfo& /*node*/,
                                               const std::vector<const PodInfo*>& /*added*/) const {
    return std::nullopt;
  }

 protected:
  // The default FilterPass, except that a node for which
  // `surely_passes(node)` is true stays in the running without a Filter
  // call: overrides pass the check Filter would pass the node on, read
  // from its Hot line.
  template <typename SurelyPasses>
  size_t FilterPassExcept(const CycleState& state, const PodInfo& pod,
                          const NodeInfo* const* nodes, size_t n, uint8_t* pass,
                          Status* statuses, SurelyPasses surely_passes) const {
    size_t cleared = 0;
    for (size_t i = 0; i < n; ++i) {
      if (pass[i] == 0 || surely_passes(*nodes[i])) continue;
      Status s = Filter(state, pod, *nodes[i]);
      if (s.IsSuccess()) continue;
      pass[i] = 0;
      statuses[i] = std::move(s);
      ++cleared;
    }
    return cleared;
  }
};

// A filter that reads nothing of a node's pods and has no PreFilter
// extensions (the node object and the pod only): taking pods off a node,
// or adding some, leaves its verdict as it is.
class NodeObjectFilterPlugin : public FilterPlugin {
 public:
  std::optional<Status> FilterWithoutPods(const CycleState& state, const PodInfo& pod,
                                          const NodeInfo& node,
                                          const std::vector<const PodInfo*>& /*removed*/) const final {
    return Filter(state, pod, node);
  }
  std::optional<Status> FilterWithoutAllPods(const CycleState& state, const PodInfo& pod,
                                             const NodeInfo& node) const final {
    return Filter(state, pod, node);
  }
  std::optional<Status> FilterWithPods(const CycleState& state, const PodInfo& pod,
                                       const NodeInfo& node,
                                       const std::vector<const PodInfo*>& /*added*/) const final {
    return Filter(state, pod, node);
  }
};

class PostFilterPlugin : public virtual Plugin {
 public:
  virtual PostFilterOutput PostFilter(CycleState& state, const PodInfo& pod,
                                      const NodeToStatus& statuses) = 0;
};

class PreScorePlugin : public virtual Plugin {
 public:
  // `nodes`: the feasible nodes, in the order Score will see them.
  virtual Status PreScore(CycleState& state, const PodInfo& pod,
                          const std::vector<const NodeInfo*>& nodes) = 0;
};

class ScorePlugin : public virtual Plugin {
 public:
  // Called concurrently for different nodes; read-only.
  virtual ScoreOutput Score(const CycleState& state, const PodInfo& pod,
                            const NodeInfo& node) const = 0;
  // Score over a run of nodes: scores[i] = Score(state, pod, *nodes[i]) for
  // i = 0, 1, ... up to the first failure, whose index it returns, with its
  // status in *failure; n if none failed. The same contract as FilterPass
  // for overrides.
  virtual size_t ScoreMany(const CycleState& state, const PodInfo& pod,
                           const NodeInfo* const* nodes, size_t n, int64_t* scores,
                           Status* failure) const {
    for (size_t i = 0; i < n; ++i) {
      ScoreOutput out = Score(state, pod, *nodes[i]);
      if (!out.status.IsSuccess()) {
        *failure = std::move(out.status);
        return i;
      }
      scores[i] = out.score;
    }
    return n;
  }
  // When the plugin can tell, without scoring them, that every node of a
  // cycle's list gets the same final score (after NormalizeScore): that
  // score; std::nullopt otherwise. `flags` is the union of the nodes' Hot
  // flags (HotFlagsOf). The framework then calls neither ScoreMany nor
  // NormalizeScore for the list (docs/optimized.md "Uniform scores").
  virtual std::optional<int64_t> UniformScore(const CycleState& /*state*/,
                                              const PodInfo& /*pod*/,
                                              uint32_t /*flags*/) const {
    return std::nullopt;
  }
  // When the plugin has, for this cycle, the final score (no
  // NormalizeScore, in [0, 100]) of every node of the snapshot
  // (SnapshotSharedLister), an array of them by List() position; nullptr
  // otherwise. The framework then reads a node's score there instead of
  // calling ScoreMany, when it knows the nodes' positions (RunScorePlugins).
  // A byte per score: the framework reads a few hundred of them a cycle,
  // and a byte array of every node stays in the core's first-level cache
  // from one cycle to the next where an int64_t one would not.
  virtual const uint8_t* ScoresByPosition(const CycleState& /*state*/) const { return nullptr; }
  virtual bool HasScoreExtensions() const { return false; }
  // scores[i] belongs to nodes[i].
  virtual Status NormalizeScore(const CycleState& /*state*/, const PodInfo& /*pod*/,
                                const std::vector<const NodeInfo*>& /*nodes*/,
                                std::vector<int64_t>& /*scores*/) {
    return Status::Success();
  }
};

class ReservePlugin : public virtual Plugin {
 public:
  virtual Status Reserve(CycleState& state, const PodInfo& pod,
                         const std::string& node_name) = 0;
  // Idempotent; must not fail.
  virtual void Unreserve(CycleState& state, const PodInfo& pod,
                         const std::string& node_name) = 0;
};

class PermitPlugin : public virtual Plugin {
 public:
  virtual PermitOutput Permit(CycleState& state, const PodInfo& pod,
                              const std::string& node_name) = 0;
};

class PreBindPlugin : public virtual Plugin {
 public:
  virtual Status PreBind(CycleState& state, const PodInfo& pod,
                         const std::string& node_name) = 0;
};

class BindPlugin : public virtual Plugin {
 public:
  // Skip: let the next Bind plugin decide.
  virtual Status Bind(CycleState& state, const PodInfo& pod,
                      const std::string& node_name) = 0;
};

class PostBindPlugin : public virtual Plugin {
 public:
  virtual void PostBind(CycleState& state, const PodInfo& pod,
                        const std::string& node_name) = 0;
};

}  // namespace schedref::optimized::framework

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_INTERFACE_H_
