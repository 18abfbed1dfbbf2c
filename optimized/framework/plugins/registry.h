// The in-tree plugin registry of the optimized implementation (upstream
// pkg/scheduler/framework/plugins/registry.go NewInTreeRegistry) and the
// test plugins scenarios may enable by name.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_REGISTRY_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_REGISTRY_H_

#include "api/status.h"
#include "optimized/framework/registry.h"

namespace schedref::optimized::framework::plugins {

// Every in-tree plugin this project implements, under its canonical name.
[[nodiscard]] Registry NewInTreeRegistry();

// Adds TestPermit, TestReserve, TestPreBind and TestBind. Errors iff one
// of the names is already registered.
[[nodiscard]] schedref::Status RegisterTestPlugins(Registry* registry);

}  // namespace schedref::optimized::framework::plugins

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_REGISTRY_H_
