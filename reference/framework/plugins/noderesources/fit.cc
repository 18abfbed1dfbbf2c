#include "reference/framework/plugins/noderesources/fit.h"

#include <utility>

#include "api/types/resource.h"
#include "reference/framework/plugins/helper/event_objects.h"
#include "reference/framework/plugins/helper/typed_state.h"
#include "reference/framework/plugins/names/names.h"

namespace schedref::reference::framework::plugins::noderesources {
namespace {

const std::string kPreFilterStateKey =
    std::string("PreFilter") + names::kNodeResourcesFit;
const std::string kPreScoreStateKey =
    std::string("PreScore") + names::kNodeResourcesFit;

// What PreScore stores: the pod's request per configured resource.
struct PreScoreState {
  std::vector<int64_t> pod_requests;
};

Scorer MakeScorer(const ScoringStrategy& s) {
  if (s.type == kMostAllocated) return MostAllocatedScorer(s.resources);
  if (s.type == kRequestedToCapacityRatio) {
    return RequestedToCapacityRatioScorer(
        s.resources, s.shape.value_or(std::vector<UtilizationShapePoint>{}));
  }
  return LeastAllocatedScorer(s.resources);
}

int64_t ScalarOf(const Resource& r, const std::string& name) {
  auto it = r.scalar_resources.find(name);
  return it == r.scalar_resources.end() ? 0 : it->second;
}

bool AllZero(const Resource& r) {
  return r.milli_cpu == 0 && r.memory == 0 && r.ephemeral_storage == 0 &&
         r.scalar_resources.empty();
}

// A NodeInfo holding only `node`, as upstream's hints build one.
NodeInfo EmptyNodeInfo(const api::Node& node) {
  NodeInfo info;
  info.node = node;
  return info;
}

bool HaveAnyRequestedResourcesIncreased(const api::Pod& pod,
                                        const api::Node& original,
                                        const api::Node& modified) {
  const Resource request = PodRequests(pod);
  const Resource before = NodeAllocatable(original);
  const Resource after = NodeAllocatable(modified);
  if (after.allowed_pod_number > before.allowed_pod_number) return true;
  if (AllZero(request)) return false;
  if ((request.milli_cpu > 0 && after.milli_cpu > before.milli_cpu) ||
      (request.memory > 0 && after.memory > before.memory) ||
      (request.ephemeral_storage > 0 &&
       after.ephemeral_storage > before.ephemeral_storage)) {
    return true;
  }
  for (const auto& [name, quantity] : request.scalar_resources) {
    if (quantity == 0) continue;
    if (ScalarOf(after, name) > ScalarOf(before, name)) return true;
  }
  return false;
}

}  // namespace

std::vector<InsufficientResource> FitsRequest(
    const Resource& pod_request, const NodeInfo& node,
    const std::set<std::string>& ignored_resources,
    const std::set<std::string>& ignored_resource_groups) {
  std::vector<InsufficientResource> out;
  const Resource allocatable = NodeAllocatable(*node.node);
  const Resource requested = NodeRequested(node);
  const int64_t num_pods = static_cast<int64_t>(node.pods.size());

  if (num_pods + 1 > allocatable.allowed_pod_number) {
    out.push_back({api::kResourcePods, "Too many pods", 1, num_pods,
                   allocatable.allowed_pod_number});
  }
  if (AllZero(pod_request)) return out;

  if (pod_request.milli_cpu > 0 &&
      pod_request.milli_cpu > allocatable.milli_cpu - requested.milli_cpu) {
    out.push_back({api::kResourceCpu, "Insufficient cpu", pod_request.milli_cpu,
                   requested.milli_cpu, allocatable.milli_cpu});
  }
  if (pod_request.memory > 0 &&
      pod_request.memory > allocatable.memory - requested.memory) {
    out.push_back({api::kResourceMemory, "Insufficient memory",
                   pod_request.memory, requested.memory, allocatable.memory});
  }
  if (pod_request.ephemeral_storage > 0 &&
      pod_request.ephemeral_storage >
          allocatable.ephemeral_storage - requested.ephemeral_storage) {
    out.push_back({api::kResourceEphemeralStorage,
                   "Insufficient ephemeral-storage",
                   pod_request.ephemeral_storage, requested.ephemeral_storage,
                   allocatable.ephemeral_storage});
  }
  // Note: sorted by name (std::map), not Go map order (docs/deviations.md).
  for (const auto& [name, quantity] : pod_request.scalar_resources) {
    if (quantity == 0) continue;
    if (api::IsExtendedResourceName(name)) {
      // Extended resource names always have a "/" (API validation).
      const std::string prefix =
          ignored_resource_groups.empty() ? "" : name.substr(0, name.find('/'));
      if (ignored_resources.contains(name) ||
          ignored_resource_groups.contains(prefix)) {
        continue;
      }
    }
    const int64_t alloc = ScalarOf(allocatable, name);
    const int64_t used = ScalarOf(requested, name);
    if (quantity > alloc - used) {
      out.push_back({name, "Insufficient " + name, quantity, used, alloc});
    }
  }
  return out;
}

std::vector<InsufficientResource> Fits(const api::Pod& pod,
                                       const NodeInfo& node) {
  return FitsRequest(PodRequests(pod), node, {}, {});
}

StatusOr<std::unique_ptr<Plugin>> Fit::New(const nlohmann::json& args,
                                           Handle* /*handle*/) {
  auto decoded = api::pluginargs::DecodeNodeResourcesFitArgs(args);
  if (!decoded.ok()) return decoded.status();
  return std::unique_ptr<Plugin>(new Fit(*decoded));
}

Fit::Fit(const NodeResourcesFitArgs& args)
    : ignored_resources_(args.ignored_resources.begin(),
                         args.ignored_resources.end()),
      ignored_resource_groups_(args.ignored_resource_groups.begin(),
                               args.ignored_resource_groups.end()),
      scorer_(args.scoring_strategy->type, /*use_requested=*/false,
              args.scoring_strategy->resources,
              MakeScorer(*args.scoring_strategy)) {}

std::string Fit::Name() const { return names::kNodeResourcesFit; }

PreFilterOutput Fit::PreFilter(CycleState& state, const api::Pod& pod,
                               const std::vector<const NodeInfo*>& /*nodes*/) {
  helper::WriteState(state, kPreFilterStateKey, PodRequests(pod));
  return {std::nullopt, Status::Success()};
}

Status Fit::Filter(CycleState& state, const api::Pod& /*pod*/,
                   const NodeInfo& node) {
  const Resource* request =
      helper::ReadState<Resource>(state, kPreFilterStateKey);
  if (request == nullptr) {
    return Status::Error("error reading \"" + kPreFilterStateKey +
                         "\" from cycleState: not found");
  }
  std::vector<InsufficientResource> insufficient = FitsRequest(
      *request, node, ignored_resources_, ignored_resource_groups_);
  if (insufficient.empty()) return Status::Success();
  std::vector<std::string> reasons;
  for (const InsufficientResource& r : insufficient) reasons.push_back(r.reason);
  return Status(Code::kUnschedulable, std::move(reasons));
}

Status Fit::PreScore(CycleState& state, const api::Pod& pod,
                     const std::vector<const NodeInfo*>& /*nodes*/) {
  helper::WriteState(state, kPreScoreStateKey,
                     PreScoreState{scorer_.PodRequestList(pod)});
  return Status::Success();
}

ScoreOutput Fit::Score(CycleState& state, const api::Pod& pod,
                       const NodeInfo& node) {
  const auto* s = helper::ReadState<PreScoreState>(state, kPreScoreStateKey);
  if (s != nullptr) return scorer_.Score(node, s->pod_requests);
  return scorer_.Score(node, scorer_.PodRequestList(pod));
}

std::vector<ClusterEventWithHint> Fit::EventsToRegister() const {
  return {
      {{EventResource::kPod, kDelete, "PodDelete"},
       &Fit::IsSchedulableAfterPodEvent},
      {{EventResource::kNode, kAdd | kUpdateNodeAllocatable,
        "NodeAdd|UpdateNodeAllocatable"},
       &Fit::IsSchedulableAfterNodeChange},
  };
}

StatusOr<QueueingHint> Fit::IsSchedulableAfterPodEvent(
    const api::Pod& /*pod*/, const EventObject& old_obj,
    const EventObject& new_obj) {
  auto objs = helper::As<api::Pod>(old_obj, new_obj);
  if (!objs.ok()) return objs.status();
  if (objs->new_obj == nullptr) {
    if (objs->old_obj == nullptr || objs->old_obj->node_name.empty()) {
      return QueueingHint::kSkip;
    }
    // Any deletion of a bound pod frees resources somewhere.
    return QueueingHint::kQueue;
  }
  // A scale-down needs InPlacePodVerticalScaling, which is off in v1.32.
  return QueueingHint::kSkip;
}

StatusOr<QueueingHint> Fit::IsSchedulableAfterNodeChange(
    const api::Pod& pod, const EventObject& old_obj,
    const EventObject& new_obj) {
  auto objs = helper::As<api::Node>(old_obj, new_obj);
  if (!objs.ok()) return objs.status();
  const api::Node* modified = objs->new_obj;
  if (modified == nullptr || !Fits(pod, EmptyNodeInfo(*modified)).empty()) {
    return QueueingHint::kSkip;
  }
  if (objs->old_obj == nullptr) return QueueingHint::kQueue;
  return HaveAnyRequestedResourcesIncreased(pod, *objs->old_obj, *modified)
             ? QueueingHint::kQueue
             : QueueingHint::kSkip;
}

}  // namespace schedref::reference::framework::plugins::noderesources
