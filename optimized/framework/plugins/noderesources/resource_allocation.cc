#include "optimized/framework/plugins/noderesources/resource_allocation.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "api/types/resource.h"

namespace schedref::optimized::framework::plugins::noderesources {
namespace {

constexpr int64_t kMaxUtilization = 100;

// Calls f(requested, allocatable, weight) for every resource of `pod` whose
// allocatable on `node` is not 0, in args order.
template <typename F>
void ForEachAllocation(const NodeInfo& node, const std::vector<PodResource>& pod,
                       const std::vector<ResourceSpec>& resources,
                       bool use_requested, F&& f) {
  // cpu and memory from the node's first cache line (NodeInfo::Hot).
  const NodeInfo::Hot& hot = node.hot();
  const int64_t cpu_used = use_requested ? hot.requested_milli_cpu : hot.non_zero_milli_cpu;
  const int64_t mem_used = use_requested ? hot.requested_memory : hot.non_zero_memory;
  for (const PodResource& r : pod) {
    int64_t a = 0, req = 0;
    switch (r.kind) {
      case ResourceKind::kCpu:
        a = hot.allocatable_milli_cpu;
        req = cpu_used + r.request;
        break;
      case ResourceKind::kMemory:
        a = hot.allocatable_memory;
        req = mem_used + r.request;
        break;
      case ResourceKind::kEphemeralStorage:
        a = node.allocatable().ephemeral_storage;
        req = node.requested().ephemeral_storage + r.request;
        break;
      case ResourceKind::kScalar: {
        const std::string& name = resources[r.index].name;
        a = node.allocatable().Scalar(name);
        if (a != 0) req = node.requested().Scalar(name) + r.request;
        break;
      }
      case ResourceKind::kOther:
        break;
    }
    if (a == 0) continue;
    f(req, a, r.weight);
  }
}

}  // namespace

ResourceKind KindOf(std::string_view name) {
  if (name == api::kResourceCpu) return ResourceKind::kCpu;
  if (name == api::kResourceMemory) return ResourceKind::kMemory;
  if (name == api::kResourceEphemeralStorage) return ResourceKind::kEphemeralStorage;
  if (api::IsScalarResourceName(name)) return ResourceKind::kScalar;
  return ResourceKind::kOther;
}

ResourceAllocationScorer::ResourceAllocationScorer(
    ScoringKind kind, std::vector<ResourceSpec> resources,
    const std::vector<UtilizationShapePoint>& shape)
    : kind_(kind), resources_(std::move(resources)) {
  for (const ResourceSpec& r : resources_) {
    kinds_.push_back(KindOf(r.name));
    any_other_ = any_other_ || kinds_.back() == ResourceKind::kOther;
  }
  for (const UtilizationShapePoint& p : shape) {
    shape_.push_back(
        {p.utilization, p.score * (kMaxNodeScore / kMaxCustomPriorityScore)});
  }
}

std::vector<int64_t> ResourceAllocationScorer::PodRequestList(const PodInfo& pod) const {
  std::vector<int64_t> out;
  PodRequestListInto(pod, &out);
  return out;
}

const std::vector<int64_t>& ResourceAllocationScorer::PodRequests(const PodInfo& pod) {
  PodRequestListInto(pod, &requests_);
  return requests_;
}

std::shared_ptr<const std::vector<PodResource>> ResourceAllocationScorer::SharedRelevant() {
  if (last_relevant_ == nullptr || requests_ != last_requests_) {
    last_relevant_ = std::make_shared<const std::vector<PodResource>>(Relevant(requests_));
    last_requests_ = requests_;
  }
  return last_relevant_;
}

void ResourceAllocationScorer::PodRequestListInto(const PodInfo& pod,
                                                  std::vector<int64_t>* out_list) const {
  // Names that are neither cpu, memory, ephemeral-storage nor scalar never
  // score, but BalancedAllocation's best-effort test still reads the pod's
  // request for them; PodInfo::requests drops them, so ask the full list.
  api::ResourceList others;
  if (any_other_) others = api::PodRequestList(pod.pod);
  std::vector<int64_t>& out = *out_list;
  out.clear();
  out.reserve(resources_.size());
  for (size_t i = 0; i < resources_.size(); ++i) {
    switch (kinds_[i]) {
      case ResourceKind::kCpu:
        out.push_back(use_requested() ? pod.requests.milli_cpu : pod.non_zero_milli_cpu);
        break;
      case ResourceKind::kMemory:
        out.push_back(use_requested() ? pod.requests.memory : pod.non_zero_memory);
        break;
      case ResourceKind::kEphemeralStorage:
        out.push_back(pod.requests.ephemeral_storage);
        break;
      case ResourceKind::kScalar:
        out.push_back(pod.requests.Scalar(resources_[i].name));
        break;
      case ResourceKind::kOther: {
        auto it = others.find(resources_[i].name);
        out.push_back(it == others.end() ? 0 : it->second);
        break;
      }
    }
  }
}

std::vector<PodResource> ResourceAllocationScorer::Relevant(
    const std::vector<int64_t>& pod_requests) const {
  std::vector<PodResource> out;
  for (size_t i = 0; i < resources_.size(); ++i) {
    const ResourceKind kind = kinds_[i];
    if (kind == ResourceKind::kOther) continue;
    // A scalar resource the pod does not ask for does not count.
    if (kind == ResourceKind::kScalar && pod_requests[i] == 0) continue;
    out.push_back({static_cast<int32_t>(i), kind, resources_[i].weight, pod_requests[i]});
  }
  return out;
}

template <ScoringKind kKind>
int64_t ResourceAllocationScorer::ScoreAs(const NodeInfo& node,
                                          const std::vector<PodResource>& pod) const {
  const bool requested = use_requested();
  if constexpr (kKind == ScoringKind::kLeastAllocated || kKind == ScoringKind::kMostAllocated) {
    int64_t node_score = 0, weight_sum = 0;
    ForEachAllocation(node, pod, resources_, requested,
                      [&](int64_t req, int64_t alloc, int64_t weight) {
                        int64_t score;
                        if constexpr (kKind == ScoringKind::kLeastAllocated) {
                          score = req > alloc ? 0 : api::GoMul(alloc - req, kMaxNodeScore) / alloc;
                        } else {
                          // Requests may exceed allocatable: pods without
                          // requests count with the non-zero defaults.
                          score = api::GoMul(req > alloc ? alloc : req, kMaxNodeScore) / alloc;
                        }
                        node_score += score * weight;
                        weight_sum += weight;
                      });
    return weight_sum == 0 ? 0 : node_score / weight_sum;
  } else if constexpr (kKind == ScoringKind::kRequestedToCapacityRatio) {
    int64_t node_score = 0, weight_sum = 0;
    ForEachAllocation(
        node, pod, resources_, requested, [&](int64_t req, int64_t alloc, int64_t weight) {
          const int64_t utilization =
              req > alloc ? kMaxUtilization : api::GoMul(req, kMaxUtilization) / alloc;
          const int64_t score = helper::BrokenLinear(shape_, utilization);
          if (score > 0) {
            node_score += score * weight;
            weight_sum += weight;
          }
        });
    if (weight_sum == 0) return 0;
    return static_cast<int64_t>(
        std::round(static_cast<double>(node_score) / static_cast<double>(weight_sum)));
  } else {
    // Two passes, as upstream's: the mean first, then the squared
    // deviations in the same order, so the floating-point result is the
    // same bit for bit; a fraction is recomputed rather than stored.
    auto fraction = [](int64_t req, int64_t alloc) {
      const double f = static_cast<double>(req) / static_cast<double>(alloc);
      return f > 1 ? 1.0 : f;
    };
    int count = 0;
    double total = 0, first = 0, second = 0;
    ForEachAllocation(node, pod, resources_, requested,
                      [&](int64_t req, int64_t alloc, int64_t /*weight*/) {
                        const double f = fraction(req, alloc);
                        total += f;
                        if (count == 0) first = f;
                        if (count == 1) second = f;
                        ++count;
                      });
    double std = 0.0;
    if (count == 2) {
      std = std::abs((first - second) / 2);
    } else if (count > 2) {
      const double mean = total / static_cast<double>(count);
      double sum = 0;
      ForEachAllocation(node, pod, resources_, requested,
                        [&](int64_t req, int64_t alloc, int64_t /*weight*/) {
                          const double d = fraction(req, alloc) - mean;
                          sum = sum + d * d;
                        });
      std = std::sqrt(sum / static_cast<double>(count));
    }
    return static_cast<int64_t>((1 - std) * static_cast<double>(kMaxNodeScore));
  }
}

ScoreOutput ResourceAllocationScorer::Score(const NodeInfo& node,
                                            const std::vector<PodResource>& pod) const {
  int64_t score = 0;
  Status failure;
  const NodeInfo* one = &node;
  ScoreMany(&one, 1, pod, &score, &failure);
  return {score, std::move(failure)};
}

int64_t ResourceAllocationScorer::ScoreByKind(const NodeInfo& node,
                                              const std::vector<PodResource>& pod) const {
  switch (kind_) {
    case ScoringKind::kLeastAllocated:
      return ScoreAs<ScoringKind::kLeastAllocated>(node, pod);
    case ScoringKind::kMostAllocated:
      return ScoreAs<ScoringKind::kMostAllocated>(node, pod);
    case ScoringKind::kRequestedToCapacityRatio:
      return ScoreAs<ScoringKind::kRequestedToCapacityRatio>(node, pod);
    case ScoringKind::kBalancedAllocation:
      return ScoreAs<ScoringKind::kBalancedAllocation>(node, pod);
  }
  return 0;
}

const Snapshot* ResourceAllocationScorer::BeginMemo(const Handle* handle,
                                                    const std::vector<PodResource>& pod) {
  by_position_ = false;
  if (handle == nullptr) return nullptr;
  const Snapshot& snapshot = handle->SnapshotSharedLister();
  // This pod's memo to the front: found, or a new one (the least recently
  // used one's storage when all are taken).
  auto it = std::find_if(memos_.begin(), memos_.end(),
                         [&](const Memo& m) { return m.pod == pod; });
  if (it == memos_.end()) {
    if (memos_.size() < kMemoShapes) {
      memos_.emplace_back();
    } else {
      memos_.back().slots.Clear();
    }
    it = memos_.end() - 1;
    it->pod = pod;
    it->cycles = 0;
  }
  std::rotate(memos_.begin(), it, it + 1);
  Memo& memo = memos_.front();
  memo.slots.Begin(snapshot);
  memo.scores.resize(memo.slots.size());
  ++memo.cycles;
  // A pod asked for once scores only its feasible nodes (ScoreMany); from
  // the second time on, every stale slot is brought up to date here.
  if (memo.cycles >= 2 && !resources_.empty()) {
    const std::vector<NodeInfo*>& list = snapshot.List();
    stale_.clear();
    memo.slots.StalePositions(list, &stale_);
    bool in_range = true;
    for (size_t pos : stale_) {
      const int64_t score = ScoreByKind(*list[pos], memo.pod);
      if (score < kMinNodeScore || score > kMaxNodeScore) {
        in_range = false;  // not kept: met again next time
        continue;
      }
      memo.scores[pos] = static_cast<uint8_t>(score);
      memo.slots.Set(pos, *list[pos]);
    }
    // Every slot is Fresh now unless a score was out of range (which no
    // kind's arithmetic gives; ScoreMany does not keep one either): that
    // is left to the node-by-node path to report, and the memo starts over
    // (StalePositions needs every position it hands out Set).
    if (!in_range) memo.slots.Clear();
    by_position_ = in_range && list.size() == memo.scores.size();
  }
  return &snapshot;
}

const uint8_t* ResourceAllocationScorer::ScoresByPosition(
    const std::vector<PodResource>& pod) const {
  if (!by_position_ || memos_.front().pod != pod) return nullptr;
  return memos_.front().scores.data();
}

size_t ResourceAllocationScorer::ScoreMany(const NodeInfo* const* nodes, size_t n,
                                           const std::vector<PodResource>& pod,
                                           int64_t* scores, Status* failure,
                                           const Snapshot* memo) const {
  if (resources_.empty()) {
    if (n > 0) *failure = Status::Error("resources not found");
    return 0;
  }
  // Only the snapshot's own NodeInfos are memoized (a copy of one, e.g. in
  // preemption, may differ from it at the same generation).
  Memo* current = memos_.empty() ? nullptr : &memos_.front();
  const std::vector<NodeInfo*>* list = memo != nullptr && current != nullptr &&
                                               pod == current->pod &&
                                               memo->List().size() == current->slots.size()
                                           ? &memo->List()
                                           : nullptr;
  auto each = [&]<ScoringKind kKind>() {
    if (list == nullptr) {
      for (size_t i = 0; i < n; ++i) scores[i] = ScoreAs<kKind>(*nodes[i], pod);
      return n;
    }
    // The snapshot's own node at its position, with a Fresh slot, takes the
    // memo's score (NodeMemo::Lookup); the others are scored after.
    const size_t size = list->size();
    uint8_t* const memo_scores = current->scores.data();
    constexpr size_t kBlock = 64;
    for (size_t b = 0; b < n; b += kBlock) {
      const size_t len = std::min(n - b, kBlock);
      size_t missed[kBlock];
      const size_t num_missed =
          current->slots.Lookup(nodes + b, len, *list, memo_scores, scores + b, missed);
      for (size_t k = 0; k < num_missed; ++k) {
        const size_t i = b + missed[k];
        const NodeInfo& node = *nodes[i];
        const auto pos = static_cast<size_t>(node.index);
        scores[i] = ScoreAs<kKind>(node, pod);
        // (A score out of range is not kept: BeginMemo then meets it again
        // and does not offer ScoresByPosition.)
        const bool in_range = scores[i] >= kMinNodeScore && scores[i] <= kMaxNodeScore;
        if (in_range && pos < size && (*list)[pos] == &node) {
          memo_scores[pos] = static_cast<uint8_t>(scores[i]);
          current->slots.Set(pos, node);
        }
      }
    }
    return n;
  };
  switch (kind_) {
    case ScoringKind::kLeastAllocated:
      return each.template operator()<ScoringKind::kLeastAllocated>();
    case ScoringKind::kMostAllocated:
      return each.template operator()<ScoringKind::kMostAllocated>();
    case ScoringKind::kRequestedToCapacityRatio:
      return each.template operator()<ScoringKind::kRequestedToCapacityRatio>();
    case ScoringKind::kBalancedAllocation:
      return each.template operator()<ScoringKind::kBalancedAllocation>();
  }
  if (n > 0) *failure = Status::Error("unknown scoring strategy");
  return 0;
}

}  // namespace schedref::optimized::framework::plugins::noderesources
