// DefaultPreemption: the PostFilter plugin that evicts lower-priority pods
// to make room. Specification: upstream plugins/defaultpreemption/
// default_preemption.go and framework/preemption/preemption.go (v1.32,
// async preemption off), with the reference's pinned choices
// (docs/semantics/preemption.md, docs/deviations.md "Preemption").
//
// The evaluator lives here rather than in a framework/preemption package:
// DefaultPreemption is its only user in this implementation.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_DEFAULTPREEMPTION_DEFAULT_PREEMPTION_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_DEFAULTPREEMPTION_DEFAULT_PREEMPTION_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/config/pluginargs/defaultpreemption_args.h"
#include "api/status.h"
#include "optimized/framework/interface.h"

namespace schedref::optimized::framework::plugins::defaultpreemption {

inline constexpr char kPreemptionNotHelpful[] = "Preemption is not helpful for scheduling";
inline constexpr char kNoVictims[] = "No preemption victims found for incoming pod";
inline constexpr char kNotEligibleNever[] =
    "not eligible due to preemptionPolicy=Never.";
inline constexpr char kNotEligibleTerminating[] =
    "not eligible due to a terminating pod on the nominated node.";

// A node on which the preemptor fits once `victims` are gone.
struct Candidate {
  std::string node;
  std::vector<PodInfoPtr> victims;  // most important first
  int64_t num_pdb_violations = 0;
};

// Splits `pods` (importance order) into (PDB-violating, non-violating)
// with upstream filterPodsWithPDBViolation's budget rule.
std::pair<std::vector<PodInfoPtr>, std::vector<PodInfoPtr>> FilterPodsWithPDBViolation(
    const std::vector<PodInfoPtr>& pods, const std::vector<api::PodDisruptionBudget>& pdbs);

// upstream pickOneNodeForPreemption with the default criteria; the last tie
// goes to the first candidate. REQUIRES: !candidates.empty().
size_t PickOneNodeForPreemption(const std::vector<Candidate>& candidates, api::TimeMs now);

class DefaultPreemption final : public PostFilterPlugin, public PreEnqueuePlugin,
                                public EnqueueExtensions {
 public:
  static StatusOr<std::unique_ptr<Plugin>> New(const nlohmann::json& args, Handle* handle);
  DefaultPreemption(api::pluginargs::DefaultPreemptionArgs args, Handle* handle)
      : args_(args), handle_(handle) {}

  std::string Name() const override;
  PostFilterOutput PostFilter(CycleState& state, const PodInfo& pod,
                              const NodeToStatus& statuses) override;
  Status PreEnqueue(const api::Pod& pod) override;
  std::vector<ClusterEventWithHint> EventsToRegister() const override { return {}; }

  // upstream calculateNumCandidates.
  int32_t NumCandidates(int32_t num_nodes) const;

 private:
  // What every node's dry run of one Preempt call shares (default_preemption.cc).
  struct DryRun;
  // Where one node's dry run works: a copy of the node and of the cycle
  // state, reused from node to node so that each copy reuses the buffers of
  // the previous one.
  struct Scratch {
    NodeInfo node;
    CycleState state;
    // The node's lower-priority pods, as pointers for the copy-free first
    // question and as owners for the copying path.
    std::vector<const PodInfo*> lower;
    std::vector<PodInfoPtr> potential;
  };

  PostFilterOutput Preempt(CycleState& state, const PodInfo& pod, const NodeToStatus& statuses);
  // upstream SelectVictimsOnNode for `node` on copies in `scratch`: the
  // victims, or a failure status when the node cannot be a candidate.
  // Leaves `node` and the dry run's state unchanged. Called concurrently
  // for distinct scratches (batches, with more than one thread): it writes
  // only `scratch` and `out`, and the runner's calls only read the snapshot,
  // the plugins and the Handle's nominated pods, which nothing changes while
  // the scheduler's thread waits in PostFilter.
  // callExtenders: each interested extender that supports preemption
  // narrows `candidates` (ProcessPreemption); they come back by node name.
  // Error iff a non-ignorable extender failed or left a node without
  // victims.
  Status CallExtenders(const api::extender::ExtenderSet& set, const api::Pod& pod,
                       std::vector<Candidate>* candidates) const;
  Status SelectVictimsOnNode(const DryRun& run, const NodeInfo& node, Scratch& scratch,
                             Candidate* out) const;
  bool EligibleToPreemptOthers(const api::Pod& pod, const Status& nominated_status,
                               std::string* reason) const;

  // Constant after construction.
  const api::pluginargs::DefaultPreemptionArgs args_;
  Handle* const handle_;
  // The dry run's buffers, kept between PostFilter calls (which run on the
  // scheduler's thread only): one scratch per batch position, and each
  // position's result.
  std::vector<Scratch> scratch_;
  std::vector<std::pair<Status, Candidate>> slots_;
};

}  // namespace schedref::optimized::framework::plugins::defaultpreemption

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_DEFAULTPREEMPTION_DEFAULT_PREEMPTION_H_
