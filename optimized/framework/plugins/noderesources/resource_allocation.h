// The scoring shared by NodeResourcesFit's strategies (LeastAllocated,
// MostAllocated, RequestedToCapacityRatio) and
// NodeResourcesBalancedAllocation. Specification: upstream
// pkg/scheduler/framework/plugins/noderesources/resource_allocation.go,
// least_allocated.go, most_allocated.go, requested_to_capacity_ratio.go and
// balanced_allocation.go (v1.32, without the DRA and pod-level-resources
// paths, which are off); docs/semantics/plugins.md.
//
// For each configured resource r (in args order), with the pod's request p_r
// (PodRequestList):
//   - a scalar resource (extended, hugepages-*, ...) with p_r == 0 is
//     skipped, as is any name that is not cpu, memory, ephemeral-storage or a
//     scalar resource (e.g. "pods");
//   - cpu/memory: requested = the node's non-zero requests (its actual
//     Requested for BalancedAllocation) + p_r; ephemeral-storage and scalars:
//     the node's Requested + p_r; allocatable from the node's allocatable;
//   - a resource whose allocatable is 0 is skipped.
// The strategies then combine the remaining (requested, allocatable, weight)
// triples; see ScoringKind.
//
// Speed: the per-pod part (which resources can count and the pod's request
// for each) is computed once, in PreScore (Relevant); the per-node part reads
// NodeInfo's running aggregates (requested(), non_zero_milli_cpu(), ...) and
// folds the triples straight into the strategy's sums, without allocating.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_NODERESOURCES_RESOURCE_ALLOCATION_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_NODERESOURCES_RESOURCE_ALLOCATION_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <memory>
#include <vector>

#include "api/config/pluginargs/noderesources_args.h"
#include "optimized/framework/interface.h"
#include "optimized/framework/plugins/helper/node_memo.h"
#include "optimized/framework/plugins/helper/shape_score.h"

namespace schedref::optimized::framework::plugins::noderesources {

// The args vocabulary of both plugins, defined with its decoding, defaults
// and validation in api/config/pluginargs/noderesources_args.h.
using api::pluginargs::kLeastAllocated;
using api::pluginargs::kMaxCustomPriorityScore;
using api::pluginargs::kMostAllocated;
using api::pluginargs::kRequestedToCapacityRatio;
using api::pluginargs::NodeResourcesBalancedAllocationArgs;
using api::pluginargs::NodeResourcesFitArgs;
using api::pluginargs::ResourceSpec;
using api::pluginargs::ScoringStrategy;
using api::pluginargs::UtilizationShapePoint;

enum class ScoringKind {
  // Per resource ((alloc - req) * 100) / alloc, 0 when req > alloc; then
  // Σ(score·w)/Σw (integer division; 0 when no resource counts).
  kLeastAllocated,
  // Per resource (min(req, alloc) * 100) / alloc; the same weighted average.
  kMostAllocated,
  // Per resource the shape (scores ×10) at utilisation req*100/alloc (100
  // when req > alloc); only resources scoring > 0 enter the weighted
  // average, which is rounded half away from zero instead of truncated.
  kRequestedToCapacityRatio,
  // fraction_i = min(1, req/alloc); std = |f1-f2|/2 for two fractions, the
  // population standard deviation for more, 0 for fewer;
  // score = int((1 - std) * 100). Weights are not used. Uses the node's and
  // the pod's actual requests (no 100m / 200Mi defaults).
  kBalancedAllocation,
};

// How a configured resource name is read from a Resource.
enum class ResourceKind : uint8_t { kCpu, kMemory, kEphemeralStorage, kScalar, kOther };
ResourceKind KindOf(std::string_view name);

// A configured resource that can count for the pod being scored.
struct PodResource {
  int32_t index = 0;  // into the configured resources
  ResourceKind kind = ResourceKind::kOther;
  int64_t weight = 0;
  int64_t request = 0;  // the pod's
  friend bool operator==(const PodResource&, const PodResource&) = default;
};

class ResourceAllocationScorer {
 public:
  // REQUIRES: for kRequestedToCapacityRatio a shape that passes args
  // validation (non-empty, utilisation strictly increasing).
  ResourceAllocationScorer(ScoringKind kind, std::vector<ResourceSpec> resources,
                           const std::vector<UtilizationShapePoint>& shape = {});

  // The pod's request for each configured resource, in args order (upstream
  // calculatePodResourceRequestList): with the 100m / 200Mi non-zero
  // defaults for cpu and memory except for kBalancedAllocation.
  std::vector<int64_t> PodRequestList(const PodInfo& pod) const;
  // The configured resources that can count for a pod with these requests
  // (drops the ones the file comment says are always skipped), in args
  // order.
  std::vector<PodResource> Relevant(const std::vector<int64_t>& pod_requests) const;
  // PreScore's per-pod part without allocating for pods of one shape,
  // which follow one another; call from PreScore (one thread).
  // PodRequests: PodRequestList(pod), in a buffer reused by the next call.
  // SharedRelevant: Relevant(the last PodRequests), the same object as
  // last time when that request list equals the one it was last made for.
  const std::vector<int64_t>& PodRequests(const PodInfo& pod);
  std::shared_ptr<const std::vector<PodResource>> SharedRelevant();

  // The node's score for a pod whose Relevant resources are `pod`. Error
  // "resources not found" iff no resource is configured. Thread-safe; does
  // not allocate on success.
  ScoreOutput Score(const NodeInfo& node, const std::vector<PodResource>& pod) const;
  // Score for nodes[0, n) into scores[0, n) (ScorePlugin::ScoreMany's
  // contract: the index of the first failure, with *failure, else n). With
  // `memo`, the snapshot BeginMemo was last called with in this cycle, the
  // scores of that snapshot's nodes come from (and go to) the memo.
  size_t ScoreMany(const NodeInfo* const* nodes, size_t n, const std::vector<PodResource>& pod,
                   int64_t* scores, Status* failure, const Snapshot* memo = nullptr) const;

  // Keeps the scores ScoreMany computes for the nodes of `snapshot` from
  // one cycle to the next, for as long as the pod's relevant requests are
  // `pod`: a score is a function of those and of the node's allocatable and
  // requested resources, which a cache-maintained snapshot NodeInfo changes
  // only together with its generation (helper::NodeMemo;
  // docs/optimized.md "Per-node memos"). Call from PreScore (one thread)
  // with the plugin's handle; returns the handle's snapshot, to pass to
  // ScoreMany in the same cycle, or nullptr (no memo) without a handle.
  //
  // The memo keeps the last kMemoShapes different `pod`s (least recently
  // used out). From the second cycle a `pod` is asked for on, BeginMemo
  // also brings every slot up to date (the snapshot's change log names the
  // few positions that can be stale), and ScoresByPosition then has the
  // score of every node of the snapshot by List() position.
  const Snapshot* BeginMemo(const Handle* handle, const std::vector<PodResource>& pod);
  // The memo's scores by snapshot position, each in [0, 100], for the
  // cycle BeginMemo(_, pod) last started; nullptr when it has not got every
  // node's (the first cycle with this `pod`, no handle, no resources) or
  // `pod` is not the last BeginMemo's.
  const uint8_t* ScoresByPosition(const std::vector<PodResource>& pod) const;

  bool use_requested() const { return kind_ == ScoringKind::kBalancedAllocation; }
  const std::vector<ResourceSpec>& resources() const { return resources_; }

 private:
  template <ScoringKind kKind>
  int64_t ScoreAs(const NodeInfo& node, const std::vector<PodResource>& pod) const;

  int64_t ScoreByKind(const NodeInfo& node, const std::vector<PodResource>& pod) const;

  // The memo (BeginMemo): one per `pod`, the current one (last begun)
  // first. Concurrent ScoreMany calls score disjoint nodes and so read and
  // write disjoint slots of the current one.
  static constexpr size_t kMemoShapes = 4;
  struct Memo {
    std::vector<PodResource> pod;
    helper::NodeMemo slots;
    std::vector<uint8_t> scores;  // by position, valid where slots are Fresh
    int64_t cycles = 0;           // how many BeginMemo calls asked for `pod`
  };
  mutable std::vector<Memo> memos_;
  bool by_position_ = false;  // memos_[0] has every position's score
  std::vector<size_t> stale_;             // BeginMemo's scratch
  std::vector<int64_t> requests_;  // the last PodRequests
  // SharedRelevant's last result and the request list it was made for.
  std::shared_ptr<const std::vector<PodResource>> last_relevant_;
  std::vector<int64_t> last_requests_;

  // PodRequestList(pod) into *out (its storage reused).
  void PodRequestListInto(const PodInfo& pod, std::vector<int64_t>* out) const;

  // Constant after construction.
  ScoringKind kind_;
  std::vector<ResourceSpec> resources_;
  std::vector<ResourceKind> kinds_;  // parallel to resources_
  bool any_other_ = false;           // some configured name is kOther
  helper::FunctionShape shape_;      // kRequestedToCapacityRatio, scores ×10
};

}  // namespace schedref::optimized::framework::plugins::noderesources

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_NODERESOURCES_RESOURCE_ALLOCATION_H_
