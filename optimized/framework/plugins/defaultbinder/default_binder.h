// DefaultBinder: binds the pod through the API server's pods/binding
// subresource (here Handle::BindPod). Specification: upstream
// pkg/scheduler/framework/plugins/defaultbinder/default_binder.go (v1.32);
// docs/semantics/plugins.md.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_DEFAULTBINDER_DEFAULT_BINDER_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_DEFAULTBINDER_DEFAULT_BINDER_H_

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "api/status.h"
#include "optimized/framework/interface.h"

namespace schedref::optimized::framework::plugins::defaultbinder {

class DefaultBinder final : public BindPlugin {
 public:
  // Takes no args (ignored, as upstream and the reference do).
  // FailedPrecondition without a handle.
  static StatusOr<std::unique_ptr<Plugin>> New(const nlohmann::json& args,
                                               Handle* handle);
  // REQUIRES: handle != nullptr.
  explicit DefaultBinder(Handle* handle) : handle_(handle) {}

  std::string Name() const override;

  // Success iff handle->BindPod succeeds; otherwise Error with the bind
  // error's message (upstream framework.AsStatus(err)). Never Skip.
  Status Bind(CycleState& state, const PodInfo& pod,
              const std::string& node_name) override;

 private:
  Handle* handle_;  // not owned; outlives the plugin
};

}  // namespace schedref::optimized::framework::plugins::defaultbinder

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_DEFAULTBINDER_DEFAULT_BINDER_H_
