// Cluster events and QueueingHints: which changes in the cluster may make a
// pod a plugin rejected schedulable again. Specification: upstream
// pkg/scheduler/framework/types.go (ActionType, EventResource, ClusterEvent),
// interface.go (QueueingHintFn) and backend/queue/events.go, v1.32.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_EVENTS_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_EVENTS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "api/status.h"
#include "api/types/objects.h"

namespace schedref::optimized::framework {

// A bit set, bit for bit upstream's ActionType.
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
  kWildCard,
};

struct ClusterEvent {
  EventResource resource = EventResource::kWildCard;
  ActionType action = kAll;
  // "AssignedPodAdd", "NodeAdd", "UnschedulableTimeout", ...
  std::string label;

  bool IsWildCard() const {
    return resource == EventResource::kWildCard && action == kAll;
  }
  // True iff this registered event covers `incoming` (ClusterEvent.Match).
  bool Match(const ClusterEvent& incoming) const {
    return IsWildCard() ||
           ((resource == EventResource::kWildCard ||
             resource == incoming.resource) &&
            (action & incoming.action) != 0);
  }
};

enum class QueueingHint { kSkip, kQueue };

// The objects an event carries, by pointer (nullptr where there is none: the
// old object of an Add, the new object of a Delete). Exactly one of the pod
// or node or storage pairs is used, according to the event's resource.
struct EventObjects {
  const api::Pod* old_pod = nullptr;
  const api::Pod* new_pod = nullptr;
  const api::Node* old_node = nullptr;
  const api::Node* new_node = nullptr;
  const api::PersistentVolume* old_pv = nullptr;
  const api::PersistentVolume* new_pv = nullptr;
  const api::PersistentVolumeClaim* old_pvc = nullptr;
  const api::PersistentVolumeClaim* new_pvc = nullptr;
  const api::StorageClass* old_class = nullptr;
  const api::StorageClass* new_class = nullptr;
  const api::CSINode* old_csi_node = nullptr;
  const api::CSINode* new_csi_node = nullptr;
  const api::CSIDriver* old_csi_driver = nullptr;
  const api::CSIDriver* new_csi_driver = nullptr;
  const api::CSIStorageCapacity* old_capacity = nullptr;
  const api::CSIStorageCapacity* new_capacity = nullptr;
};

// Decides whether `pod`, rejected by the registering plugin, may now be
// schedulable. An error counts as Queue (upstream logs it and queues).
using QueueingHintFn = std::function<StatusOr<QueueingHint>(
    const api::Pod& pod, const EventObjects& objects)>;

struct ClusterEventWithHint {
  ClusterEvent event;
  QueueingHintFn hint;  // empty: always Queue
};

// Events the scheduler raises itself (upstream backend/queue/events.go).
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

}  // namespace schedref::optimized::framework

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_EVENTS_H_
