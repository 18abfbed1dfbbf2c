#include "optimized/framework/plugins/noderesources/fit.h"

#include <cstdlib>
#include <string_view>
#include <utility>

#include "api/config/pluginargs/noderesources_args.h"
#include "api/types/resource.h"
#include "optimized/framework/plugins/names/names.h"

namespace schedref::optimized::framework::plugins::noderesources {
namespace {

struct PreFilterState final : StateData {
  FitRequest request;
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PreFilterState>(*this);
  }
};

struct PreScoreState final : StateData {
  // Relevant resources; shared with other cycles' states
  // (ResourceAllocationScorer::SharedRelevant), never changed.
  std::shared_ptr<const std::vector<PodResource>> pod;
  // The cycle's snapshot, for the scorer's memo; null without a handle.
  const Snapshot* memo = nullptr;
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PreScoreState>(*this);
  }
};

const int kPreFilterKey = CycleState::NewKey();
const int kPreScoreKey = CycleState::NewKey();

ScoringKind KindOfStrategy(const std::string& type) {
  if (type == kMostAllocated) return ScoringKind::kMostAllocated;
  if (type == kRequestedToCapacityRatio) return ScoringKind::kRequestedToCapacityRatio;
  return ScoringKind::kLeastAllocated;
}

// A pod's requests as Filter sees them (upstream computePodResourceRequest).
Resource PodRequests(const api::Pod& pod) {
  Resource r;
  r.AddList(api::PodRequestList(pod));
  return r;
}

Resource NodeAllocatable(const api::Node& node) {
  Resource r;
  r.AddList(node.allocatable);
  return r;
}

bool HaveAnyRequestedResourcesIncreased(const Resource& request,
                                        const api::Node& original,
                                        const api::Node& modified) {
  const Resource before = NodeAllocatable(original);
  const Resource after = NodeAllocatable(modified);
  if (after.allowed_pod_number > before.allowed_pod_number) return true;
  if (request.milli_cpu == 0 && request.memory == 0 &&
      request.ephemeral_storage == 0 && request.scalar.empty()) {
    return false;
  }
  if ((request.milli_cpu > 0 && after.milli_cpu > before.milli_cpu) ||
      (request.memory > 0 && after.memory > before.memory) ||
      (request.ephemeral_storage > 0 &&
       after.ephemeral_storage > before.ephemeral_storage)) {
    return true;
  }
  for (const auto& [name, quantity] : request.scalar) {
    if (quantity == 0) continue;
    if (after.Scalar(name) > before.Scalar(name)) return true;
  }
  return false;
}

}  // namespace

FitRequest MakeFitRequest(const Resource& request,
                          const std::set<std::string>& ignored_resources,
                          const std::set<std::string>& ignored_resource_groups) {
  FitRequest out;
  out.milli_cpu = request.milli_cpu;
  out.memory = request.memory;
  out.ephemeral_storage = request.ephemeral_storage;
  for (const auto& [name, quantity] : request.scalar) {
    if (quantity == 0) continue;
    if (api::IsExtendedResourceName(name)) {
      // Extended resource names always contain a "/" (API validation).
      const std::string group = name.substr(0, name.find('/'));
      if (ignored_resources.contains(name) ||
          ignored_resource_groups.contains(group)) {
        continue;
      }
    }
    out.scalars.emplace_back(name, quantity);
  }
  out.only_pod_count = out.milli_cpu == 0 && out.memory == 0 &&
                       out.ephemeral_storage == 0 && out.scalars.empty();
  return out;
}

namespace {

// The reasons of the fixed resources' shortages.
inline constexpr char kTooManyPods[] = "Too many pods";
inline constexpr char kInsufficientCpu[] = "Insufficient cpu";
inline constexpr char kInsufficientMemory[] = "Insufficient memory";
inline constexpr char kInsufficientEphemeralStorage[] = "Insufficient ephemeral-storage";

// upstream fitsRequest's checks, in its order: calls
// short_of(name, reason, fixed, requested, in_use, capacity) for each shortage
// until it returns true (stop). `reason` is a literal for the fixed
// resources (fixed == true) and a temporary for scalar ones. Returns true
// iff nothing is short.
template <typename ShortOf>
bool VisitShortages(const FitRequest& request, const Resource& allocatable, const Resource& used,
                    int64_t num_pods, ShortOf short_of) {
  bool fits = true;
  auto report = [&](std::string_view name, std::string_view reason, bool fixed,
                    int64_t requested, int64_t in_use, int64_t capacity) {
    fits = false;
    return short_of(name, reason, fixed, requested, in_use, capacity);
  };
  if (num_pods + 1 > allocatable.allowed_pod_number &&
      report(api::kResourcePods, kTooManyPods, true, 1, num_pods,
             allocatable.allowed_pod_number)) {
    return false;
  }
  if (request.only_pod_count) return fits;
  if (request.milli_cpu > 0 && request.milli_cpu > allocatable.milli_cpu - used.milli_cpu &&
      report(api::kResourceCpu, kInsufficientCpu, true, request.milli_cpu, used.milli_cpu,
             allocatable.milli_cpu)) {
    return false;
  }
  if (request.memory > 0 && request.memory > allocatable.memory - used.memory &&
      report(api::kResourceMemory, kInsufficientMemory, true, request.memory, used.memory,
             allocatable.memory)) {
    return false;
  }
  if (request.ephemeral_storage > 0 &&
      request.ephemeral_storage > allocatable.ephemeral_storage - used.ephemeral_storage &&
      report(api::kResourceEphemeralStorage, kInsufficientEphemeralStorage, true,
             request.ephemeral_storage, used.ephemeral_storage,
             allocatable.ephemeral_storage)) {
    return false;
  }
  for (const auto& [name, quantity] : request.scalars) {
    const int64_t capacity = allocatable.Scalar(name);
    const int64_t in_use = used.Scalar(name);
    if (quantity > capacity - in_use &&
        report(name, "Insufficient " + name, false, quantity, in_use, capacity)) {
      return false;
    }
  }
  return fits;
}

// The shared rejection for a fixed single reason.
Status SharedReason(std::string_view reason) {
  constexpr Code kCode = Code::kUnschedulable;
  if (reason == kTooManyPods) {
    return SharedRejectionOf<kCode, kTooManyPods, names::kNodeResourcesFit>();
  }
  if (reason == kInsufficientCpu) {
    return SharedRejectionOf<kCode, kInsufficientCpu, names::kNodeResourcesFit>();
  }
  if (reason == kInsufficientMemory) {
    return SharedRejectionOf<kCode, kInsufficientMemory, names::kNodeResourcesFit>();
  }
  if (reason == kInsufficientEphemeralStorage) {
    return SharedRejectionOf<kCode, kInsufficientEphemeralStorage, names::kNodeResourcesFit>();
  }
  std::abort();  // VisitShortages has no other fixed reason
}

// Filter's rejection: every shortage's reason, in FitsRequest's order. One
// fixed reason, the common case, is a shared status: no allocation.
Status Shortages(const FitRequest& request, const Resource& allocatable, const Resource& used,
                 int64_t num_pods) {
  int count = 0;
  std::string_view first;  // valid iff first_fixed
  bool first_fixed = false;
  (void)VisitShortages(request, allocatable, used, num_pods,
                       [&](std::string_view, std::string_view reason, bool fixed, int64_t,
                           int64_t, int64_t) {
                         if (count++ == 0 && fixed) {
                           first = reason;
                           first_fixed = true;
                         }
                         return false;
                       });
  if (count == 1 && first_fixed) return SharedReason(first);
  std::vector<std::string> reasons;
  (void)VisitShortages(request, allocatable, used, num_pods,
                       [&](std::string_view, std::string_view reason, bool, int64_t, int64_t,
                           int64_t) {
                         reasons.emplace_back(reason);
                         return false;
                       });
  return Status(Code::kUnschedulable, std::move(reasons));
}

// Filter's verdict for a node with `used` resources and `num_pods` pods.
Status FitVerdict(const FitRequest& request, const Resource& allocatable, const Resource& used,
                  int64_t num_pods) {
  if (FitsRequest(request, allocatable, used, num_pods, nullptr)) return Status::Success();
  return Shortages(request, allocatable, used, num_pods);
}

// Whether FitsRequest reads only the pod count, cpu and memory for this
// request (no ephemeral-storage or scalar request): what a NodeInfo's
// first cache line holds.
bool HotLineSuffices(const FitRequest& r) {
  return r.ephemeral_storage <= 0 && r.scalars.empty();
}

// FitsRequest for a request HotLineSuffices for, as a check of the node's
// first cache line: room for one more pod, and the cpu and memory asked
// for free, except where FitsRequest does not check them (<= 0, or only
// the pod count: INT64_MIN fits whatever is free, which may be negative on
// an over-committed node).
HotCheck FitsHot(const FitRequest& r) {
  HotCheck c;
  c.pod_slot = true;
  if (!r.only_pod_count && r.milli_cpu > 0) c.min_free_milli_cpu = r.milli_cpu;
  if (!r.only_pod_count && r.memory > 0) c.min_free_memory = r.memory;
  return c;
}

}  // namespace

bool FitsRequest(const FitRequest& request, const Resource& allocatable,
                 const Resource& used, int64_t num_pods,
                 std::vector<InsufficientResource>* out) {
  return VisitShortages(request, allocatable, used, num_pods,
                        [out](std::string_view name, std::string_view reason, bool /*fixed*/,
                              int64_t requested, int64_t in_use, int64_t capacity) {
                          if (out == nullptr) return true;  // the first is enough
                          out->push_back({std::string(name), std::string(reason), requested,
                                          in_use, capacity});
                          return false;
                        });
}

StatusOr<std::unique_ptr<framework::Plugin>> Fit::New(const nlohmann::json& args,
                                                      framework::Handle* handle) {
  auto decoded = api::pluginargs::DecodeNodeResourcesFitArgs(args);
  if (!decoded.ok()) return decoded.status();
  return std::unique_ptr<framework::Plugin>(new Fit(*decoded, handle));
}

Fit::Fit(const NodeResourcesFitArgs& args, Handle* handle)
    : handle_(handle),
      ignored_resources_(args.ignored_resources.begin(), args.ignored_resources.end()),
      ignored_resource_groups_(args.ignored_resource_groups.begin(),
                               args.ignored_resource_groups.end()),
      scorer_(KindOfStrategy(args.scoring_strategy->type),
              args.scoring_strategy->resources,
              args.scoring_strategy->shape.value_or(
                  std::vector<UtilizationShapePoint>{})) {}

std::string Fit::Name() const { return names::kNodeResourcesFit; }

PreFilterOutput Fit::PreFilter(CycleState& state, const PodInfo& pod,
                               const std::vector<NodeInfo*>& /*nodes*/) {
  auto s = std::make_unique<PreFilterState>();
  s->request = MakeFitRequest(pod.requests, ignored_resources_, ignored_resource_groups_);
  state.Write(kPreFilterKey, std::move(s));
  return {std::nullopt, Status::Success()};
}

Status Fit::Filter(const CycleState& state, const PodInfo& /*pod*/,
                   const NodeInfo& node) const {
  const auto* s = state.ReadAs<PreFilterState>(kPreFilterKey);
  if (s == nullptr) {
    return Status::Error(std::string("error reading \"PreFilter") +
                         names::kNodeResourcesFit + "\" from cycleState: not found");
  }
  return FilterWith(s->request, node);
}

Status Fit::FilterWith(const FitRequest& request, const NodeInfo& node) {
  // The reasons, when the node does not fit, come from the full NodeInfo.
  const NodeInfo::Hot& h = node.hot();
  const int64_t num_pods = h.num_pods;  // pods().size()
  if (HotLineSuffices(request)) {
    if (FitsHot(request).Passes(h)) return Status::Success();
    return Shortages(request, node.allocatable(), node.requested(), num_pods);
  }
  return FitVerdict(request, node.allocatable(), node.requested(), num_pods);
}

std::optional<Status> Fit::FilterWithoutPods(const CycleState& state, const PodInfo& pod,
                                             const NodeInfo& node,
                                             const std::vector<const PodInfo*>& removed) const {
  const auto* s = state.ReadAs<PreFilterState>(kPreFilterKey);
  if (s == nullptr) return Filter(state, pod, node);
  // requested() is the sum of the pods' requests, so with every pod
  // removed nothing is used; the pods themselves are then not read.
  Resource used;
  if (removed.size() != node.pods().size()) {
    used = node.requested();
    for (const PodInfo* p : removed) used.Sub(p->requests);
  }
  const int64_t num_pods =
      static_cast<int64_t>(node.pods().size()) - static_cast<int64_t>(removed.size());
  return FitVerdict(s->request, node.allocatable(), used, num_pods);
}

std::optional<Status> Fit::FilterWithoutAllPods(const CycleState& state, const PodInfo& pod,
                                                const NodeInfo& node) const {
  const auto* s = state.ReadAs<PreFilterState>(kPreFilterKey);
  if (s == nullptr) return Filter(state, pod, node);
  return FitVerdict(s->request, node.allocatable(), Resource(), 0);
}

std::optional<Status> Fit::FilterWithPods(const CycleState& state, const PodInfo& pod,
                                          const NodeInfo& node,
                                          const std::vector<const PodInfo*>& added) const {
  const auto* s = state.ReadAs<PreFilterState>(kPreFilterKey);
  if (s == nullptr) return Filter(state, pod, node);
  Resource used = node.requested();
  for (const PodInfo* p : added) used.Add(p->requests);
  const int64_t num_pods =
      static_cast<int64_t>(node.pods().size()) + static_cast<int64_t>(added.size());
  return FitVerdict(s->request, node.allocatable(), used, num_pods);
}

size_t Fit::FilterPass(const CycleState& state, const PodInfo& pod, const NodeInfo* const* nodes,
                       size_t n, uint8_t* pass, Status* statuses) const {
  const auto* s = state.ReadAs<PreFilterState>(kPreFilterKey);
  if (s == nullptr) return FilterPlugin::FilterPass(state, pod, nodes, n, pass, statuses);
  size_t cleared = 0;
  for (size_t i = 0; i < n; ++i) {
    if (pass[i] == 0) continue;
    Status st = FilterWith(s->request, *nodes[i]);
    if (st.IsSuccess()) continue;
    pass[i] = 0;
    statuses[i] = std::move(st);
    ++cleared;
  }
  return cleared;
}

bool Fit::NarrowHotCheck(const CycleState& state, const PodInfo& /*pod*/,
                         HotCheck* check) const {
  const auto* s = state.ReadAs<PreFilterState>(kPreFilterKey);
  if (s == nullptr || !HotLineSuffices(s->request)) return false;
  check->And(FitsHot(s->request));
  return true;
}

Status Fit::PreScore(CycleState& state, const PodInfo& pod,
                     const std::vector<const NodeInfo*>& /*nodes*/) {
  auto s = std::make_unique<PreScoreState>();
  (void)scorer_.PodRequests(pod);
  s->pod = scorer_.SharedRelevant();
  s->memo = scorer_.BeginMemo(handle_, *s->pod);
  state.Write(kPreScoreKey, std::move(s));
  return Status::Success();
}

ScoreOutput Fit::Score(const CycleState& state, const PodInfo& pod,
                       const NodeInfo& node) const {
  if (const auto* s = state.ReadAs<PreScoreState>(kPreScoreKey)) {
    return scorer_.Score(node, *s->pod);
  }
  return scorer_.Score(node, scorer_.Relevant(scorer_.PodRequestList(pod)));
}

const uint8_t* Fit::ScoresByPosition(const CycleState& state) const {
  const auto* s = state.ReadAs<PreScoreState>(kPreScoreKey);
  return s == nullptr ? nullptr : scorer_.ScoresByPosition(*s->pod);
}

size_t Fit::ScoreMany(const CycleState& state, const PodInfo& pod, const NodeInfo* const* nodes,
                      size_t n, int64_t* scores, Status* failure) const {
  const auto* s = state.ReadAs<PreScoreState>(kPreScoreKey);
  if (s == nullptr) return ScorePlugin::ScoreMany(state, pod, nodes, n, scores, failure);
  return scorer_.ScoreMany(nodes, n, *s->pod, scores, failure, s->memo);
}

std::vector<ClusterEventWithHint> Fit::EventsToRegister() const {
  return {
      {{EventResource::kPod, kDelete, "PodDelete"}, &Fit::IsSchedulableAfterPodEvent},
      // With queueing hints on, upstream needs no node label/taint updates.
      {{EventResource::kNode, kAdd | kUpdateNodeAllocatable,
        "NodeAdd|UpdateNodeAllocatable"},
       &Fit::IsSchedulableAfterNodeChange},
  };
}

StatusOr<QueueingHint> Fit::IsSchedulableAfterPodEvent(const api::Pod& /*pod*/,
                                                       const EventObjects& objects) {
  if (objects.new_pod == nullptr) {
    // Any deletion of a bound pod frees resources somewhere.
    if (objects.old_pod != nullptr && !objects.old_pod->node_name.empty()) {
      return QueueingHint::kQueue;
    }
    return QueueingHint::kSkip;
  }
  // A scale-down needs InPlacePodVerticalScaling, which is off in v1.32.
  return QueueingHint::kSkip;
}

StatusOr<QueueingHint> Fit::IsSchedulableAfterNodeChange(const api::Pod& pod,
                                                         const EventObjects& objects) {
  const api::Node* modified = objects.new_node;
  if (modified == nullptr) return QueueingHint::kSkip;
  const Resource request = PodRequests(pod);
  // Upstream's isFit: the empty node, no ignored resources.
  if (!FitsRequest(MakeFitRequest(request, {}, {}), NodeAllocatable(*modified),
                   Resource(), 0, nullptr)) {
    return QueueingHint::kSkip;
  }
  if (objects.old_node == nullptr) return QueueingHint::kQueue;
  return HaveAnyRequestedResourcesIncreased(request, *objects.old_node, *modified)
             ? QueueingHint::kQueue
             : QueueingHint::kSkip;
}

}  // namespace schedref::optimized::framework::plugins::noderesources
