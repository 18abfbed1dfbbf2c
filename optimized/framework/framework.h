// Framework: one profile's plugins and the rules for running them at each
// extension point. Specification: upstream pkg/scheduler/framework/runtime/
// framework.go (NewFramework, Run*Plugins) and waiting_pods_map.go, v1.32.
//
// Filter and Score are the hot loops: RunFilterPlugins is const and safe to
// call for many nodes at once, and RunScorePlugins scores every node in
// parallel (Handle::Parallel) into a plugin-major array before the
// single-threaded normalize / weight / sum, so totals never depend on the
// thread count. Everything else runs on the scheduler's thread.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_FRAMEWORK_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_FRAMEWORK_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "api/config/config.h"
#include "api/status.h"
#include "api/types/objects.h"
#include "optimized/framework/interface.h"
#include "optimized/framework/registry.h"

namespace schedref::optimized::framework {

// One plugin's view of one node (full-detail traces only).
struct PluginNodeScore {
  int64_t raw = 0;
  int64_t normalized = 0;
  int64_t weighted = 0;
};

struct ScoreResult {
  // totals[i] belongs to nodes[i].
  std::vector<int64_t> totals;
  // The highest of totals (INT64_MIN when there are none).
  int64_t best = INT64_MIN;
  // The positions i with totals[i] == best, ascending (selectHost's tied
  // top nodes).
  std::vector<uint32_t> ties;
  // Full detail only: per node, plugin name -> scores (skipped plugins
  // absent).
  std::vector<std::map<std::string, PluginNodeScore>> detail;
};

// A pod held at Permit (upstream waitingPod).
struct WaitingPod {
  PodInfoPtr pod;
  std::string node_name;
  // Plugin -> absolute deadline, and the timeout it asked for.
  std::map<std::string, api::TimeMs> pending;
  std::map<std::string, int64_t> timeouts_ms;
  // Set once resolved: Success, or Unschedulable with the rejection.
  std::optional<Status> result;
};

// Filter plugin -> its status for one node, in run order (full detail).
using FilterDetail = std::vector<std::pair<std::string, Status>>;

class Framework : public PluginsRunner {
 public:
  // Instantiates every plugin `effective_plugins` names (after
  // api::EffectivePlugins), expands MultiPoint, computes score weights.
  // Errors are upstream's configuration errors.
  static StatusOr<std::unique_ptr<Framework>> New(const Registry& registry,
                                                  const api::Profile& profile,
                                                  const api::Plugins& effective_plugins,
                                                  Handle* handle);

  const std::string& ProfileName() const { return profile_name_; }
  std::optional<int32_t> PercentageOfNodesToScore() const { return percentage_; }
  const QueueSortPlugin* QueueSort() const { return queue_sort_[0]; }
  const std::vector<PreEnqueuePlugin*>& PreEnqueuePlugins() const { return pre_enqueue_; }
  // Enabled plugin name -> the events it registered (plugins that can
  // reject a pod; those without EnqueueExtensions get the wildcard).
  std::map<std::string, std::vector<ClusterEventWithHint>> QueueingHints() const;
  int64_t ScoreWeight(const std::string& plugin) const;
  bool HasFilterPlugins() const { return !filter_.empty(); }
  bool HasScorePlugins() const { return !score_.empty(); }
  bool HasPostFilterPlugins() const { return !post_filter_.empty(); }

  // --- scheduling cycle -----------------------------------------------------

  // upstream RunPreFilterPlugins; `plugins_with_nodes` receives the plugins
  // that restricted the node set.
  // `verdicts`, when given, receives each plugin that ran, in run order,
  // with its result as full-detail traces write it: "Skip", "Success",
  // "Success: nodes a, b" (a PreFilterResult), "<code>: <message>".
  PreFilterOutput RunPreFilterPlugins(
      CycleState& state, const PodInfo& pod, const std::vector<NodeInfo*>& nodes,
      std::set<std::string>* plugins_with_nodes,
      std::vector<std::pair<std::string, std::string>>* verdicts = nullptr);
  Status RunPreFilterExtensionAddPod(const FilterPlan& plan, CycleState& state,
                                     const PodInfo& pod_to_schedule, const PodInfo& pod_to_add,
                                     const NodeInfo& node) override;
  Status RunPreFilterExtensionRemovePod(const FilterPlan& plan, CycleState& state,
                                        const PodInfo& pod_to_schedule,
                                        const PodInfo& pod_to_remove,
                                        const NodeInfo& node) override;

  // The filters PreFilter did not skip this cycle, in order. Computed once
  // per cycle so the per-node loop does no name lookups.
  std::vector<const FilterPlugin*> ActiveFilters(const CycleState& state) const;
  // Filters in order; the first non-success stops. Thread-safe.
  Status RunFilterPlugins(const std::vector<const FilterPlugin*>& active,
                          const CycleState& state, const PodInfo& pod,
                          const NodeInfo& node, FilterDetail* detail = nullptr) const;
  // The active filters split by what a node's Hot line tells (HotCheck):
  // a node that passes `check` passes every active filter not in `rest`
  // (which keeps the active order). Once per cycle.
  struct HotPlan {
    HotCheck check;
    std::vector<const FilterPlugin*> rest;
  };
  HotPlan PlanHotCheck(const std::vector<const FilterPlugin*>& active, const CycleState& state,
                       const PodInfo& pod) const;
  // RunFilterPlugins for each of nodes[0, n) with pass[i] set on entry,
  // filter by filter over runs of nodes (FilterPlugin::FilterPass) instead
  // of node by node: pass[i] stays 1 iff nodes[i] passes every filter, and
  // for each i it clears, statuses[i] is what RunFilterPlugins returns (the
  // others are left as they are). The same verdicts, since each node still
  // meets the filters in order and stops at its first rejection.
  // Thread-safe for disjoint runs.
  void RunFilterPluginsMany(const std::vector<const FilterPlugin*>& active,
                            const CycleState& state, const PodInfo& pod,
                            const NodeInfo* const* nodes, size_t n, uint8_t* pass,
                            Status* statuses) const;
  // Upstream's two-pass rule for nominated pods. `nominated`: the pods
  // nominated to this node, in nomination order (the caller collects them
  // once per cycle). Thread-safe: clones what it changes.
  Status RunFilterPluginsWithNominatedPods(const std::vector<const FilterPlugin*>& active,
                                           const CycleState& state, const PodInfo& pod,
                                           const NodeInfo& node,
                                           const std::vector<PodInfoPtr>& nominated,
                                           FilterDetail* detail = nullptr) const;
  // PluginsRunner (preemption's dry runs).
  FilterPlan PlanFilters(const CycleState& state) const override;
  Status RunFilterPluginsWithNominatedPods(const FilterPlan& plan, const CycleState& state,
                                           const PodInfo& pod, const NodeInfo& node,
                                           const std::vector<PodInfoPtr>& nominated) override;
  std::optional<Status> RunFilterPluginsWithoutPods(
      const FilterPlan& plan, const CycleState& state, const PodInfo& pod,
      const NodeInfo& node, const std::vector<const PodInfo*>& removed,
      const std::vector<PodInfoPtr>& nominated) const override;
  std::optional<Status> RunFilterPluginsWithoutAllPods(
      const FilterPlan& plan, const CycleState& state, const PodInfo& pod, const NodeInfo& node,
      const std::vector<PodInfoPtr>& nominated) const override;

  PostFilterOutput RunPostFilterPlugins(CycleState& state, const PodInfo& pod,
                                        const NodeToStatus& statuses);
  Status RunPreScorePlugins(CycleState& state, const PodInfo& pod,
                            const std::vector<const NodeInfo*>& nodes);
  // Score (parallel over nodes), NormalizeScore, range check, weights.
  // `positions`, when not null, has nodes.size() entries and
  // nodes[i] == SnapshotSharedLister().List()[positions[i]]: plugins with
  // ScoresByPosition are then read there.
  StatusOr<ScoreResult> RunScorePlugins(CycleState& state, const PodInfo& pod,
                                        const std::vector<const NodeInfo*>& nodes,
                                        bool with_detail, const int32_t* positions = nullptr);
  // Hands a result's totals back for the next RunScorePlugins to fill, so
  // that a cycle's scoring does not allocate.
  void RecycleScores(ScoreResult&& result) {
    spare_totals_ = std::move(result.totals);
    spare_ties_ = std::move(result.ties);
  }

  Status RunReservePluginsReserve(CycleState& state, const PodInfo& pod,
                                  const std::string& node_name);
  void RunReservePluginsUnreserve(CycleState& state, const PodInfo& pod,
                                  const std::string& node_name);
  // Wait: the pod is registered in WaitingPods().
  Status RunPermitPlugins(CycleState& state, const PodInfo& pod,
                          const std::string& node_name, api::TimeMs now);
  // From plugin *next_plugin (0 when null) on; with next_plugin set, a
  // plugin's Wait stops the run and leaves *next_plugin at that plugin, to
  // be called again later (VolumeBinding's poll for the binding).
  Status RunPreBindPlugins(CycleState& state, const PodInfo& pod,
                           const std::string& node_name, size_t* next_plugin = nullptr);
  Status RunBindPlugins(CycleState& state, const PodInfo& pod,
                        const std::string& node_name);
  void RunPostBindPlugins(CycleState& state, const PodInfo& pod,
                          const std::string& node_name);

  // Waiting pods by UID.
  std::map<std::string, WaitingPod>& WaitingPods() { return waiting_pods_; }
  // Return false iff the pod is not waiting on that plugin.
  bool Allow(const std::string& uid, const std::string& plugin);
  bool Reject(const std::string& uid, const std::string& plugin,
              const std::string& message);
  // Rejects every waiting plugin whose deadline is <= now.
  void ExpireWaitingPods(api::TimeMs now);

 private:
  Framework() = default;
  // The two passes, once some nominated pod counts; `extensions`: the
  // PreFilter plugins whose AddPod runs for `state` (ExtensionPlugins).
  Status RunFilterPluginsWithCountedNominatedPods(const std::vector<const FilterPlugin*>& active,
                                                  const std::vector<PreFilterPlugin*>& extensions,
                                                  const CycleState& state, const PodInfo& pod,
                                                  const NodeInfo& node,
                                                  const std::vector<PodInfoPtr>& nominated,
                                                  FilterDetail* detail) const;

  // --- constant after New ---
  std::string profile_name_;
  std::optional<int32_t> percentage_;
  Handle* handle_ = nullptr;
  std::map<std::string, std::unique_ptr<Plugin>> plugins_;
  std::vector<PreEnqueuePlugin*> pre_enqueue_;
  std::vector<QueueSortPlugin*> queue_sort_;
  std::vector<PreFilterPlugin*> pre_filter_;
  std::vector<FilterPlugin*> filter_;
  // Name() of each plugin of pre_filter_, filter_, pre_score_ and score_,
  // in its order: the per-cycle skip sets and attributing a rejection to
  // its filter then build no string.
  std::vector<std::string> pre_filter_names_;
  std::vector<std::string> filter_names_;
  std::vector<std::string> pre_score_names_;
  std::vector<std::string> score_names_;
  // For filter_[k] (score_[k]): the index of the plugin of the same name
  // in pre_filter_ (pre_score_), -1 if none; the slot its name has in the
  // cycle's skip set (PluginNameSet::contains(name, slot)).
  std::vector<int> filter_skip_slot_;
  std::vector<int> score_skip_slot_;
  std::vector<PostFilterPlugin*> post_filter_;
  std::vector<PreScorePlugin*> pre_score_;
  std::vector<ScorePlugin*> score_;
  std::vector<int64_t> score_weight_;  // parallel to score_
  std::vector<ReservePlugin*> reserve_;
  std::vector<PermitPlugin*> permit_;
  std::vector<PreBindPlugin*> pre_bind_;
  std::vector<BindPlugin*> bind_;
  std::vector<PostBindPlugin*> post_bind_;
  std::map<std::string, int64_t> score_weights_;

  // filter_names_ of pl. REQUIRES: pl is one of filter_.
  const std::string& FilterName(const FilterPlugin* pl) const;
  // A filter's non-success status as the framework reports it: an error
  // unless a rejection, attributed to the filter.
  void AttributeFilterStatus(const FilterPlugin* pl, Status& s) const;
  // The PreFilter plugins whose AddPod/RemovePod run for `state`, in order.
  std::vector<PreFilterPlugin*> ExtensionPlugins(const CycleState& state) const;
  // AddPod of each of `extensions` (plugins of this framework), in order.
  static Status RunAddPodExtensions(const std::vector<PreFilterPlugin*>& extensions,
                                    CycleState& state, const PodInfo& pod_to_schedule,
                                    const PodInfo& pod_to_add, const NodeInfo& node);
  // What the filters say of a node changed by adding or removing pods, asked
  // without the copy: `ask(pl)` is pl's FilterWithPods or FilterWithoutPods.
  // The first rejection (attributed) or success, in filter order; nullopt
  // iff a filter before any rejection cannot tell. Defined in
  // framework_run.cc, its only user.
  template <typename Ask>
  std::optional<Status> VerdictWithoutCopies(const std::vector<const FilterPlugin*>& filters,
                                             Ask ask) const;

  // --- mutable ---
  std::map<std::string, WaitingPod> waiting_pods_;
  // RunScorePlugins' buffers, kept between cycles so scoring does not
  // allocate (the scheduler's thread owns them; workers write disjoint
  // slots).
  std::vector<int64_t> raw_scores_;
  std::vector<int64_t> plugin_scores_;
  std::vector<int64_t> spare_totals_;  // RecycleScores
  std::vector<uint32_t> spare_ties_;   // RecycleScores
};

}  // namespace schedref::optimized::framework

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_FRAMEWORK_H_
