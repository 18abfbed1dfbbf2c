#include "reference/framework/plugins/noderesources/resource_allocation.h"

#include <cmath>
#include <utility>

#include "api/types/resource.h"
#include "reference/framework/plugins/helper/shape_score.h"
#include "reference/framework/resource.h"

namespace schedref::reference::framework::plugins::noderesources {
namespace {

constexpr int64_t kMaxUtilization = 100;

int64_t LeastRequestedScore(int64_t requested, int64_t capacity) {
  if (capacity == 0) return 0;
  if (requested > capacity) return 0;
  return api::GoMul(capacity - requested, kMaxNodeScore) / capacity;
}

int64_t MostRequestedScore(int64_t requested, int64_t capacity) {
  if (capacity == 0) return 0;
  // Requests may exceed capacity because pods without requests count with
  // the non-zero defaults.
  if (requested > capacity) requested = capacity;
  return api::GoMul(requested, kMaxNodeScore) / capacity;
}

Scorer WeightedAverage(std::vector<ResourceSpec> resources,
                       int64_t (*per_resource)(int64_t, int64_t)) {
  return [resources = std::move(resources), per_resource](
             const std::vector<int64_t>& requested,
             const std::vector<int64_t>& allocatable) -> int64_t {
    int64_t node_score = 0, weight_sum = 0;
    for (size_t i = 0; i < requested.size(); ++i) {
      if (allocatable[i] == 0) continue;
      const int64_t weight = resources[i].weight;
      node_score += per_resource(requested[i], allocatable[i]) * weight;
      weight_sum += weight;
    }
    if (weight_sum == 0) return 0;
    return node_score / weight_sum;
  };
}

}  // namespace

Scorer LeastAllocatedScorer(std::vector<ResourceSpec> resources) {
  return WeightedAverage(std::move(resources), &LeastRequestedScore);
}

Scorer MostAllocatedScorer(std::vector<ResourceSpec> resources) {
  return WeightedAverage(std::move(resources), &MostRequestedScore);
}

Scorer RequestedToCapacityRatioScorer(
    std::vector<ResourceSpec> resources,
    const std::vector<UtilizationShapePoint>& shape) {
  helper::FunctionShape fn;
  for (const UtilizationShapePoint& p : shape) {
    fn.push_back({p.utilization,
                  p.score * (kMaxNodeScore / kMaxCustomPriorityScore)});
  }
  auto resource_score = [fn](int64_t requested, int64_t capacity) {
    if (capacity == 0 || requested > capacity) {
      return helper::BrokenLinear(fn, kMaxUtilization);
    }
    return helper::BrokenLinear(fn, api::GoMul(requested, kMaxUtilization) / capacity);
  };
  return [resources = std::move(resources), resource_score](
             const std::vector<int64_t>& requested,
             const std::vector<int64_t>& allocatable) -> int64_t {
    int64_t node_score = 0, weight_sum = 0;
    for (size_t i = 0; i < requested.size(); ++i) {
      if (allocatable[i] == 0) continue;
      const int64_t weight = resources[i].weight;
      const int64_t score = resource_score(requested[i], allocatable[i]);
      if (score > 0) {
        node_score += score * weight;
        weight_sum += weight;
      }
    }
    if (weight_sum == 0) return 0;
    return static_cast<int64_t>(std::round(static_cast<double>(node_score) /
                                           static_cast<double>(weight_sum)));
  };
}

ResourceAllocationScorer::ResourceAllocationScorer(
    std::string name, bool use_requested, std::vector<ResourceSpec> resources,
    Scorer scorer)
    : name_(std::move(name)),
      use_requested_(use_requested),
      resources_(std::move(resources)),
      scorer_(std::move(scorer)) {}

std::vector<int64_t> ResourceAllocationScorer::PodRequestList(
    const api::Pod& pod) const {
  api::PodResourcesOptions options;
  if (!use_requested_) {
    options.non_missing_container_requests = {
        {api::kResourceCpu, api::kDefaultMilliCpuRequest},
        {api::kResourceMemory, api::kDefaultMemoryRequest}};
  }
  const api::ResourceList requests = api::PodRequestList(pod, options);
  std::vector<int64_t> out;
  for (const ResourceSpec& r : resources_) {
    auto it = requests.find(r.name);
    out.push_back(it == requests.end() ? 0 : it->second);
  }
  return out;
}

ScoreOutput ResourceAllocationScorer::Score(
    const NodeInfo& node, const std::vector<int64_t>& pod_requests) const {
  if (resources_.empty()) return {0, Status::Error("resources not found")};
  const Resource allocatable = NodeAllocatable(*node.node);
  const Resource requested = NodeRequested(node);
  const Resource non_zero = NodeNonZeroRequested(node);
  const Resource& cpu_mem = use_requested_ ? requested : non_zero;

  std::vector<int64_t> req(resources_.size(), 0), alloc(resources_.size(), 0);
  for (size_t i = 0; i < resources_.size(); ++i) {
    const std::string& name = resources_[i].name;
    const int64_t pod_request = pod_requests[i];
    int64_t a = 0, r = 0;
    if (pod_request == 0 && api::IsScalarResourceName(name)) {
      // An extended resource the pod does not ask for does not count.
    } else if (name == api::kResourceCpu) {
      a = allocatable.milli_cpu;
      r = cpu_mem.milli_cpu + pod_request;
    } else if (name == api::kResourceMemory) {
      a = allocatable.memory;
      r = cpu_mem.memory + pod_request;
    } else if (name == api::kResourceEphemeralStorage) {
      a = allocatable.ephemeral_storage;
      r = requested.ephemeral_storage + pod_request;
    } else if (auto it = allocatable.scalar_resources.find(name);
               it != allocatable.scalar_resources.end()) {
      a = it->second;
      auto used = requested.scalar_resources.find(name);
      r = (used == requested.scalar_resources.end() ? 0 : used->second) +
          pod_request;
    }
    if (a == 0) continue;
    alloc[i] = a;
    req[i] = r;
  }
  return {scorer_(req, alloc), Status::Success()};
}

}  // namespace schedref::reference::framework::plugins::noderesources
