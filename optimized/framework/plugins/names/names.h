// Canonical in-tree plugin names of the optimized implementation, one place
// for all of them. Specification: upstream
// pkg/scheduler/framework/plugins/names/names.go (v1.32).
//
// Only the plugins the optimized implementation provides are listed; a
// configuration naming any other plugin is rejected by the registry.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_NAMES_NAMES_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_NAMES_NAMES_H_

namespace schedref::optimized::framework::plugins::names {

inline constexpr char kSchedulingGates[] = "SchedulingGates";
inline constexpr char kPrioritySort[] = "PrioritySort";
inline constexpr char kNodeUnschedulable[] = "NodeUnschedulable";
inline constexpr char kNodeName[] = "NodeName";
inline constexpr char kTaintToleration[] = "TaintToleration";
inline constexpr char kNodeAffinity[] = "NodeAffinity";
inline constexpr char kNodePorts[] = "NodePorts";
inline constexpr char kNodeResourcesFit[] = "NodeResourcesFit";
inline constexpr char kNodeVolumeLimits[] = "NodeVolumeLimits";
inline constexpr char kVolumeBinding[] = "VolumeBinding";
inline constexpr char kPodTopologySpread[] = "PodTopologySpread";
inline constexpr char kInterPodAffinity[] = "InterPodAffinity";
inline constexpr char kDefaultPreemption[] = "DefaultPreemption";
inline constexpr char kNodeResourcesBalancedAllocation[] =
    "NodeResourcesBalancedAllocation";
inline constexpr char kImageLocality[] = "ImageLocality";
inline constexpr char kDefaultBinder[] = "DefaultBinder";
inline constexpr char kVolumeRestrictions[] = "VolumeRestrictions";
inline constexpr char kVolumeZone[] = "VolumeZone";

}  // namespace schedref::optimized::framework::plugins::names

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_NAMES_NAMES_H_
