#include "optimized/backend/queue/queue_model_adapter.h"

#include <map>
#include <optional>
#include <string>
#include <utility>

#include "api/status.h"
#include "api/types/objects.h"
#include "optimized/backend/queue/nominator.h"
#include "optimized/backend/queue/scheduling_queue.h"
#include "optimized/framework/events.h"
#include "optimized/framework/interface.h"
#include "optimized/framework/plugins/queuesort/priority_sort.h"
#include "optimized/framework/plugins/schedulinggates/scheduling_gates.h"
#include "optimized/framework/types.h"
#include "testing/models/queue_adapter.h"

namespace schedref::optimized::backend::queue {
namespace {

namespace models = testing::models;
using framework::ClusterEvent;
using framework::EventObjects;
using framework::EventResource;
using framework::QueueingHint;

template <typename T>
const T* Ptr(const std::optional<T>& value) {
  return value.has_value() ? &*value : nullptr;
}

// The optimized implementation's side of QueueAdapter
// (testing/models/queue_adapter.h). Its API differs from the reference's in
// types only: QueuedPodInfo holds a shared PodInfo, Get returns a pointer,
// events carry their objects by pointer, the nominator takes a PodInfo.
struct Optimized {
  using Queue = SchedulingQueue;
  using QueuedPodInfo = framework::QueuedPodInfo;
  using Sort = framework::plugins::queuesort::PrioritySort;
  using Gates = framework::plugins::schedulinggates::SchedulingGates;

  // Queue / Skip, or (nullopt) an error, which counts as Queue.
  static StatusOr<QueueingHint> Hint(std::optional<bool> queue) {
    if (!queue.has_value()) {
      return schedref::Status::Invalid("unexpected event object");
    }
    return *queue ? QueueingHint::kQueue : QueueingHint::kSkip;
  }

  static std::map<std::string, Queue::Profile> Profiles(Gates* gates) {
    Queue::Profile profile;
    profile.pre_enqueue = {gates};
    profile.queueing_hints[gates->Name()] = gates->EventsToRegister();
    profile.queueing_hints[models::kFakeNodeFit] = {
        {{EventResource::kNode, framework::kAdd | framework::kUpdateNodeLabel,
          "FakeNodeFit"},
         [](const api::Pod&, const EventObjects& o) {
           return Hint(o.new_node == nullptr
                           ? std::nullopt
                           : std::optional<bool>(
                                 models::FixtureNodeFits(*o.new_node)));
         }}};
    profile.queueing_hints[models::kFakePodLabel] = {
        {{EventResource::kPod, framework::kUpdatePodLabel, "FakePodLabel"},
         [](const api::Pod& pod, const EventObjects& o) {
           return Hint(o.new_pod == nullptr
                           ? std::nullopt
                           : std::optional<bool>(
                                 models::FixturePodLabelQueues(pod, *o.new_pod)));
         }}};
    profile.queueing_hints[models::kFakePodDelete] = {
        {{EventResource::kPod, framework::kDelete, "FakePodDelete"}, nullptr},
        {{EventResource::kPod, framework::kUpdatePodTolerations,
          "FakePodDeleteTolerations"},
         [](const api::Pod&, const EventObjects&) {
           return Hint(std::nullopt);  // fails, which counts as Queue
         }}};
    profile.queueing_hints[models::kFakeNoEvents] = {};
    std::map<std::string, Queue::Profile> profiles;
    profiles[models::kProfileName] = std::move(profile);
    return profiles;
  }

  static const api::Pod& PodOf(const QueuedPodInfo& info) { return info.pod(); }
  static void SetPod(QueuedPodInfo& info, const api::Pod& pod) {
    info.pod_info = framework::NewPodInfo(pod);
  }
  static std::optional<QueuedPodInfo> Get(const Queue& q, const std::string& key) {
    const QueuedPodInfo* info = q.Get(key);
    if (info == nullptr) return std::nullopt;
    return *info;
  }

  static void MoveAll(Queue& q, const models::EventOp& op, api::TimeMs now) {
    ClusterEvent event{EventResource::kWildCard, framework::kAll,
                       "WildCardEvent"};
    switch (op.kind) {
      case models::EventKind::kNodeAdd:
        event = framework::NodeAdd();
        break;
      case models::EventKind::kNodeLabelChange:
        event = {EventResource::kNode, framework::kUpdateNodeLabel,
                 "NodeLabelChange"};
        break;
      case models::EventKind::kNodeTaintChange:
        event = {EventResource::kNode, framework::kUpdateNodeTaint,
                 "NodeTaintChange"};
        break;
      case models::EventKind::kAssignedPodDelete:
        event = framework::AssignedPodDelete();
        break;
      case models::EventKind::kWildCard:
        break;
    }
    const models::FixtureEventObjects objects = models::EventObjectsFor(op);
    EventObjects pointers;
    pointers.old_node = Ptr(objects.old_node);
    pointers.new_node = Ptr(objects.new_node);
    pointers.old_pod = Ptr(objects.old_pod);
    q.MoveAllToActiveOrBackoffQueue(event, pointers, nullptr, now);
  }

  static void Nominate(Queue& q, const api::Pod& pod,
                       const std::optional<std::string>& override_node) {
    std::optional<NominatingInfo> info;
    if (override_node.has_value()) {
      info = NominatingInfo{NominatingInfo::kOverride, *override_node};
    }
    q.AddNominatedPod(framework::NewPodInfo(pod), info);
  }
};

}  // namespace

std::unique_ptr<models::QueueUnderTest> NewQueueUnderTest(
    const models::QueueModel::Config& config) {
  return std::make_unique<models::QueueAdapter<Optimized>>(config);
}

}  // namespace schedref::optimized::backend::queue
