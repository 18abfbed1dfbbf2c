#include "reference/backend/queue/queue_model_adapter.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "api/status.h"
#include "api/types/objects.h"
#include "reference/backend/queue/nominator.h"
#include "reference/backend/queue/scheduling_queue.h"
#include "reference/framework/events.h"
#include "reference/framework/interface.h"
#include "reference/framework/plugins/queuesort/priority_sort.h"
#include "reference/framework/plugins/schedulinggates/scheduling_gates.h"
#include "testing/models/queue_adapter.h"

namespace schedref::reference::queue {
namespace {

namespace models = testing::models;
using framework::ClusterEvent;
using framework::EventObject;
using framework::EventResource;
using framework::QueueingHint;

// The reference's side of QueueAdapter (testing/models/queue_adapter.h).
struct Reference {
  using Queue = SchedulingQueue;
  using QueuedPodInfo = framework::QueuedPodInfo;
  using Sort = framework::plugins::queuesort::PrioritySort;
  using Gates = framework::plugins::schedulinggates::SchedulingGates;

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
         [](const api::Pod&, const EventObject&, const EventObject& new_obj) {
           const api::Node* node = std::get_if<api::Node>(&new_obj);
           return Hint(node == nullptr ? std::nullopt
                                       : std::optional<bool>(
                                             models::FixtureNodeFits(*node)));
         }}};
    profile.queueing_hints[models::kFakePodLabel] = {
        {{EventResource::kPod, framework::kUpdatePodLabel, "FakePodLabel"},
         [](const api::Pod& pod, const EventObject&, const EventObject& new_obj) {
           const api::Pod* updated = std::get_if<api::Pod>(&new_obj);
           return Hint(updated == nullptr
                           ? std::nullopt
                           : std::optional<bool>(
                                 models::FixturePodLabelQueues(pod, *updated)));
         }}};
    profile.queueing_hints[models::kFakePodDelete] = {
        {{EventResource::kPod, framework::kDelete, "FakePodDelete"}, nullptr},
        {{EventResource::kPod, framework::kUpdatePodTolerations,
          "FakePodDeleteTolerations"},
         [](const api::Pod&, const EventObject&, const EventObject&) {
           return Hint(std::nullopt);  // fails, which counts as Queue
         }}};
    profile.queueing_hints[models::kFakeNoEvents] = {};
    std::map<std::string, Queue::Profile> profiles;
    profiles[models::kProfileName] = std::move(profile);
    return profiles;
  }

  static const api::Pod& PodOf(const QueuedPodInfo& info) { return info.pod; }
  static void SetPod(QueuedPodInfo& info, const api::Pod& pod) { info.pod = pod; }
  static std::optional<QueuedPodInfo> Get(const Queue& q, const std::string& key) {
    return q.Get(key);
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
    EventObject old_obj;
    EventObject new_obj;
    if (objects.old_node.has_value()) old_obj = *objects.old_node;
    if (objects.old_pod.has_value()) old_obj = *objects.old_pod;
    if (objects.new_node.has_value()) new_obj = *objects.new_node;
    q.MoveAllToActiveOrBackoffQueue(event, old_obj, new_obj, nullptr, now);
  }

  static void Nominate(Queue& q, const api::Pod& pod,
                       const std::optional<std::string>& override_node) {
    std::optional<NominatingInfo> info;
    if (override_node.has_value()) {
      info = NominatingInfo{NominatingInfo::kOverride, *override_node};
    }
    q.AddNominatedPod(pod, info);
  }
};

}  // namespace

std::unique_ptr<models::QueueUnderTest> NewQueueUnderTest(
    const models::QueueModel::Config& config) {
  return std::make_unique<models::QueueAdapter<Reference>>(config);
}

}  // namespace schedref::reference::queue
