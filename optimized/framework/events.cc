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

}  // namespace schedref::optimized::framework
