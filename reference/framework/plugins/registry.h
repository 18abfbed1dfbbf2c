// The in-tree plugin registry: every plugin this reference implements,
// under its upstream name, plus the test plugins scenarios may enable.
// Specification: upstream pkg/scheduler/framework/plugins/registry.go
// (NewInTreeRegistry), v1.32.
//
// Each factory decodes its plugin's pluginConfig args (JSON; an empty object
// when the configuration has none) with upstream's defaulting and
// validation, and fails with the validation error (Status::Invalid) when
// they are wrong; the args themselves are api/config/pluginargs/*_args.h.
// Plugins without args ignore them.
//
// Default score weights are not here: they come from the configuration
// (api/config/default_plugins.h), as upstream keeps them in default_plugins.go.
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_REGISTRY_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_REGISTRY_H_

#include "api/status.h"
#include "reference/framework/registry.h"

namespace schedref::reference::framework::plugins {

// PrioritySort, SchedulingGates, NodeUnschedulable, NodeName,
// TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit,
// NodeResourcesBalancedAllocation, ImageLocality, DefaultBinder.
// Note: upstream also registers the volume, DRA, InterPodAffinity,
// PodTopologySpread and DefaultPreemption plugins; those are registered by
// their own packages when they exist here.
Registry NewInTreeRegistry();

// Adds TestPermit, TestReserve, TestPreBind and TestBind
// (testplugins/test_plugins.h). Fails iff a name is already registered.
[[nodiscard]] schedref::Status RegisterTestPlugins(Registry* registry);

}  // namespace schedref::reference::framework::plugins

namespace schedref::reference {
// Shorthand used by the scheduler: plugins::NewInTreeRegistry().
namespace plugins = framework::plugins;
}  // namespace schedref::reference

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_REGISTRY_H_
