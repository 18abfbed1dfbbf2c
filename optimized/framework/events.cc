#include "optimized/framework/events.h"

namespace schedref::optimized::framework {

ClusterEvent AssignedPodAdd() { return {EventResource::kPod, kAdd, "AssignedPodAdd"}; }
ClusterEvent AssignedPodUpdate() {
  return {EventResource::kPod, kUpdate, "AssignedPodUpdate"};
}
ClusterEvent AssignedPodDelete() {
  return {EventResource::kPod, kDelete, "AssignedPodDelete"};
}
ClusterEvent NodeAdd() { return {EventResource::kNode, kAdd, "NodeAdd"}; }
ClusterEvent NodeDelete() { return {EventResource::kNode, kDelete, "NodeDelete"}; }
ClusterEvent UnschedulableTimeout() {
  return {EventResource::kWildCard, kAll, "UnschedulableTimeout"};
}
ClusterEvent ForceActivate() { return {EventResource::kWildCard, kAll, "ForceActivate"}; }
ClusterEvent EventUnscheduledPodUpdate() {
  return {EventResource::kPod, kUpdate, "UnschedulablePodUpdate"};
}

ClusterEvent StorageEvent(EventResource resource, ActionType action) {
  const char* name = "";
  switch (resource) {
    case EventResource::kPersistentVolume: name = "PersistentVolume"; break;
    case EventResource::kPersistentVolumeClaim: name = "PersistentVolumeClaim"; break;
    case EventResource::kStorageClass: name = "storage.k8s.io/StorageClass"; break;
    case EventResource::kCSINode: name = "storage.k8s.io/CSINode"; break;
    case EventResource::kCSIDriver: name = "storage.k8s.io/CSIDriver"; break;
    case EventResource::kCSIStorageCapacity: name = "storage.k8s.io/CSIStorageCapacity"; break;
    default: break;
  }
  const char* verb = action == kAdd ? "Add" : action == kDelete ? "Delete" : "Update";
  return {resource, action, std::string(name) + verb};
}

}  // namespace schedref::optimized::framework
