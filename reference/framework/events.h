// Cluster events and QueueingHints: how a plugin says which changes in the
// cluster may make a pod it rejected schedulable. Specification: upstream
// pkg/scheduler/framework/types.go (ActionType, EventResource, ClusterEvent)
// and interface.go (QueueingHint, QueueingHintFn), v1.32.
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_EVENTS_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_EVENTS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <variant>

#include "api/status.h"
#include "api/types/objects.h"

namespace schedref::reference::framework {

// Bit set, as upstream.
using ActionType = uint32_t;
inline constexpr ActionType kAdd = 1u << 0;
inline constexpr ActionType kDelete = 1u << 1;
inline constexpr ActionType kUpdateNodeAllocatable = 1u << 2;
inline constexpr ActionType kUpdateNodeLabel = 1u << 3;
inline constexpr ActionType kUpdateNodeTaint = 1u << 4;
inline constexpr ActionType kUpdateNodeCondition = 1u << 5;
inline constexpr ActionType kUpdateNodeAnnotation = 1u << 6;
inline constexpr ActionType kUpdatePodLabel = 1u << 7;
inline constexpr ActionType kUpdatePodScaleDown = 1u << 8;
inline constexpr ActionType kUpdatePodTolerations = 1u << 9;
inline constexpr ActionType kUpdatePodSchedulingGatesEliminated = 1u << 10;
inline constexpr ActionType kUpdatePodOther = 1u << 11;
inline constexpr ActionType kAll = (1u << 12) - 1;
inline constexpr ActionType kUpdate = kAll & ~(kAdd | kDelete);

enum class EventResource {
  kPod,
  kNode,
  kNamespace,
  kPodDisruptionBudget,
  kPriorityClass,
  kPersistentVolume,
  kPersistentVolumeClaim,
  kStorageClass,
  kCSINode,
  kCSIDriver,
  kCSIStorageCapacity,
  kWildCard,  // matches every resource
};

struct ClusterEvent {
  EventResource resource = EventResource::kWildCard;
  ActionType action = kAll;
  // For logs and traces, e.g. "AssignedPodAdd", "UnschedulableTimeout".
  std::string label;

  bool IsWildCard() const {
    return resource == EventResource::kWildCard && action == kAll;
  }
  // True iff this registered event covers `incoming` (upstream
  // ClusterEvent.Match).
  bool Match(const ClusterEvent& incoming) const {
    return IsWildCard() ||
           ((resource == EventResource::kWildCard ||
             resource == incoming.resource) &&
            (action & incoming.action) != 0);
  }
};

enum class QueueingHint { kSkip, kQueue };

// The objects an event carries; monostate when there is none (old object of
// an Add, new object of a Delete).
using EventObject =
    std::variant<std::monostate, api::Pod, api::Node, api::PersistentVolume,
                 api::PersistentVolumeClaim, api::StorageClass, api::CSINode,
                 api::CSIDriver, api::CSIStorageCapacity>;

// Decides whether `pod`, rejected by the registering plugin, may now be
// schedulable. An error is treated as Queue (upstream logs it).
using QueueingHintFn = std::function<StatusOr<QueueingHint>(
    const api::Pod& pod, const EventObject& old_obj,
    const EventObject& new_obj)>;

struct ClusterEventWithHint {
  ClusterEvent event;
  // Empty: always Queue.
  QueueingHintFn hint;
};

// Events the scheduler itself raises (upstream internal/queue/events.go).
ClusterEvent AssignedPodAdd();
ClusterEvent AssignedPodUpdate();
ClusterEvent AssignedPodDelete();
ClusterEvent NodeAdd();
ClusterEvent NodeDelete();
ClusterEvent UnschedulableTimeout();
ClusterEvent ForceActivate();
ClusterEvent EventUnscheduledPodUpdate();

// The resource of a storage object's events, and the event an informer
// raises for an add, update or delete of one (upstream's handlers built by
// buildEvtResHandler; label "<resource><Add|Update|Delete>").
template <typename T>
constexpr EventResource StorageEventResource() {
  if constexpr (std::is_same_v<T, api::PersistentVolume>) return EventResource::kPersistentVolume;
  if constexpr (std::is_same_v<T, api::PersistentVolumeClaim>) {
    return EventResource::kPersistentVolumeClaim;
  }
  if constexpr (std::is_same_v<T, api::StorageClass>) return EventResource::kStorageClass;
  if constexpr (std::is_same_v<T, api::CSINode>) return EventResource::kCSINode;
  if constexpr (std::is_same_v<T, api::CSIDriver>) return EventResource::kCSIDriver;
  if constexpr (std::is_same_v<T, api::CSIStorageCapacity>) {
    return EventResource::kCSIStorageCapacity;
  }
}
// REQUIRES: `action` is kAdd, kUpdate or kDelete.
ClusterEvent StorageEvent(EventResource resource, ActionType action);

}  // namespace schedref::reference::framework

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_EVENTS_H_
