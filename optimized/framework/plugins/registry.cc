#include "optimized/framework/plugins/registry.h"

#include "api/crash.h"
#include "optimized/framework/plugins/defaultbinder/default_binder.h"
#include "optimized/framework/plugins/defaultpreemption/default_preemption.h"
#include "optimized/framework/plugins/imagelocality/image_locality.h"
#include "optimized/framework/plugins/interpodaffinity/interpod_affinity.h"
#include "optimized/framework/plugins/names/names.h"
#include "optimized/framework/plugins/nodeaffinity/node_affinity.h"
#include "optimized/framework/plugins/nodename/node_name.h"
#include "optimized/framework/plugins/nodeports/node_ports.h"
#include "optimized/framework/plugins/noderesources/balanced_allocation.h"
#include "optimized/framework/plugins/noderesources/fit.h"
#include "optimized/framework/plugins/nodeunschedulable/node_unschedulable.h"
#include "optimized/framework/plugins/nodevolumelimits/csi.h"
#include "optimized/framework/plugins/podtopologyspread/pod_topology_spread.h"
#include "optimized/framework/plugins/queuesort/priority_sort.h"
#include "optimized/framework/plugins/schedulinggates/scheduling_gates.h"
#include "optimized/framework/plugins/tainttoleration/taint_toleration.h"
#include "optimized/framework/plugins/volumebinding/volume_binding.h"
#include "optimized/framework/plugins/testplugins/test_plugins.h"
#include "optimized/framework/plugins/volumerestrictions/volume_restrictions.h"
#include "optimized/framework/plugins/volumezone/volume_zone.h"

namespace schedref::optimized::framework::plugins {

Registry NewInTreeRegistry() {
  Registry r;
  const std::pair<const char*, PluginFactory> in_tree[] = {
      {names::kSchedulingGates, schedulinggates::SchedulingGates::New},
      {names::kPrioritySort, queuesort::PrioritySort::New},
      {names::kNodeUnschedulable, nodeunschedulable::NodeUnschedulable::New},
      {names::kNodeName, nodename::NodeName::New},
      {names::kTaintToleration, tainttoleration::TaintToleration::New},
      {names::kNodeAffinity, nodeaffinity::NodeAffinity::New},
      {names::kNodePorts, nodeports::NodePorts::New},
      {names::kNodeResourcesFit, noderesources::Fit::New},
      {names::kNodeVolumeLimits, nodevolumelimits::CSILimits::New},
      {names::kPodTopologySpread, podtopologyspread::PodTopologySpread::New},
      {names::kInterPodAffinity, interpodaffinity::InterPodAffinity::New},
      {names::kDefaultPreemption, defaultpreemption::DefaultPreemption::New},
      {names::kVolumeBinding, volumebinding::VolumeBinding::New},
      {names::kNodeResourcesBalancedAllocation, noderesources::BalancedAllocation::New},
      {names::kImageLocality, imagelocality::ImageLocality::New},
      {names::kDefaultBinder, defaultbinder::DefaultBinder::New},
      {names::kVolumeRestrictions, volumerestrictions::VolumeRestrictions::New},
      {names::kVolumeZone, volumezone::VolumeZone::New},
  };
  for (const auto& [name, factory] : in_tree) {
    CheckOk(r.Register(name, factory), "registering an in-tree plugin");
  }
  return r;
}

schedref::Status RegisterTestPlugins(Registry* registry) {
  SCHEDREF_RETURN_IF_ERROR(registry->Register(testplugins::kTestPermit, testplugins::TestPermit::New));
  SCHEDREF_RETURN_IF_ERROR(registry->Register(testplugins::kTestReserve, testplugins::TestReserve::New));
  SCHEDREF_RETURN_IF_ERROR(registry->Register(testplugins::kTestPreBind, testplugins::TestPreBind::New));
  return registry->Register(testplugins::kTestBind, testplugins::TestBind::New);
}

}  // namespace schedref::optimized::framework::plugins
