// Canonical plugin names, one place for all of them. Specification: upstream
// pkg/scheduler/framework/plugins/names/names.go (v1.32).
//
// Names of plugins this reference does not implement (the volume and DRA
// plugins) are listed too, so configuration code can recognise them.
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_NAMES_NAMES_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_NAMES_NAMES_H_

namespace schedref::reference::framework::plugins::names {

inline constexpr char kPrioritySort[] = "PrioritySort";
inline constexpr char kDefaultBinder[] = "DefaultBinder";
inline constexpr char kDefaultPreemption[] = "DefaultPreemption";
inline constexpr char kDynamicResources[] = "DynamicResources";
inline constexpr char kImageLocality[] = "ImageLocality";
inline constexpr char kInterPodAffinity[] = "InterPodAffinity";
inline constexpr char kNodeAffinity[] = "NodeAffinity";
inline constexpr char kNodeName[] = "NodeName";
inline constexpr char kNodePorts[] = "NodePorts";
inline constexpr char kNodeResourcesBalancedAllocation[] =
    "NodeResourcesBalancedAllocation";
inline constexpr char kNodeResourcesFit[] = "NodeResourcesFit";
inline constexpr char kNodeUnschedulable[] = "NodeUnschedulable";
inline constexpr char kNodeVolumeLimits[] = "NodeVolumeLimits";
inline constexpr char kAzureDiskLimits[] = "AzureDiskLimits";
inline constexpr char kCinderLimits[] = "CinderLimits";
inline constexpr char kEBSLimits[] = "EBSLimits";
inline constexpr char kGCEPDLimits[] = "GCEPDLimits";
inline constexpr char kPodTopologySpread[] = "PodTopologySpread";
inline constexpr char kSchedulingGates[] = "SchedulingGates";
inline constexpr char kTaintToleration[] = "TaintToleration";
inline constexpr char kVolumeBinding[] = "VolumeBinding";
inline constexpr char kVolumeRestrictions[] = "VolumeRestrictions";
inline constexpr char kVolumeZone[] = "VolumeZone";

}  // namespace schedref::reference::framework::plugins::names

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_NAMES_NAMES_H_
