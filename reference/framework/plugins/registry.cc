#include "reference/framework/plugins/registry.h"

#include <string>
#include <utility>

#include "api/crash.h"
#include "reference/framework/plugins/defaultbinder/default_binder.h"
#include "reference/framework/plugins/defaultpreemption/default_preemption.h"
#include "reference/framework/plugins/imagelocality/image_locality.h"
#include "reference/framework/plugins/interpodaffinity/interpod_affinity.h"
#include "reference/framework/plugins/names/names.h"
#include "reference/framework/plugins/nodeaffinity/node_affinity.h"
#include "reference/framework/plugins/nodename/node_name.h"
#include "reference/framework/plugins/nodeports/node_ports.h"
#include "reference/framework/plugins/noderesources/balanced_allocation.h"
#include "reference/framework/plugins/noderesources/fit.h"
#include "reference/framework/plugins/nodeunschedulable/node_unschedulable.h"
#include "reference/framework/plugins/nodevolumelimits/csi.h"
#include "reference/framework/plugins/podtopologyspread/pod_topology_spread.h"
#include "reference/framework/plugins/queuesort/priority_sort.h"
#include "reference/framework/plugins/schedulinggates/scheduling_gates.h"
#include "reference/framework/plugins/tainttoleration/taint_toleration.h"
#include "reference/framework/plugins/volumebinding/volume_binding.h"
#include "reference/framework/plugins/testplugins/test_plugins.h"
#include "reference/framework/plugins/volumerestrictions/volume_restrictions.h"
#include "reference/framework/plugins/volumezone/volume_zone.h"

namespace schedref::reference::framework::plugins {

Registry NewInTreeRegistry() {
  const std::pair<const char*, PluginFactory> factories[] = {
      {names::kPrioritySort, &queuesort::PrioritySort::New},
      {names::kSchedulingGates, &schedulinggates::SchedulingGates::New},
      {names::kNodeUnschedulable, &nodeunschedulable::NodeUnschedulable::New},
      {names::kNodeName, &nodename::NodeName::New},
      {names::kTaintToleration, &tainttoleration::TaintToleration::New},
      {names::kNodeAffinity, &nodeaffinity::NodeAffinity::New},
      {names::kNodePorts, &nodeports::NodePorts::New},
      {names::kNodeResourcesFit, &noderesources::Fit::New},
      {names::kNodeVolumeLimits, &nodevolumelimits::CSILimits::New},
      {names::kNodeResourcesBalancedAllocation,
       &noderesources::BalancedAllocation::New},
      {names::kImageLocality, &imagelocality::ImageLocality::New},
      {names::kDefaultBinder, &defaultbinder::DefaultBinder::New},
      {names::kInterPodAffinity, &interpodaffinity::InterPodAffinity::New},
      {names::kPodTopologySpread, &podtopologyspread::PodTopologySpread::New},
      {names::kDefaultPreemption, &defaultpreemption::DefaultPreemption::New},
      {names::kVolumeRestrictions, &volumerestrictions::VolumeRestrictions::New},
      {names::kVolumeZone, &volumezone::VolumeZone::New},
      {names::kVolumeBinding, &volumebinding::VolumeBinding::New},
  };
  Registry registry;
  for (const auto& [name, factory] : factories) {
    // The names above are distinct constants.
    CheckOk(registry.Register(name, factory), "registering an in-tree plugin");
  }
  return registry;
}

schedref::Status RegisterTestPlugins(Registry* registry) {
  SCHEDREF_RETURN_IF_ERROR(
      registry->Register(testplugins::kTestPermit, &testplugins::TestPermit::New));
  SCHEDREF_RETURN_IF_ERROR(registry->Register(testplugins::kTestReserve,
                                              &testplugins::TestReserve::New));
  SCHEDREF_RETURN_IF_ERROR(registry->Register(testplugins::kTestPreBind,
                                              &testplugins::TestPreBind::New));
  SCHEDREF_RETURN_IF_ERROR(
      registry->Register(testplugins::kTestBind, &testplugins::TestBind::New));
  return schedref::Status::Ok();
}

}  // namespace schedref::reference::framework::plugins
