// DefaultBinder: binds the pod through the API server's pods/binding
// subresource (here Handle::BindPod). Specification: upstream
// pkg/scheduler/framework/plugins/defaultbinder/default_binder.go (v1.32).
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_DEFAULTBINDER_DEFAULT_BINDER_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_DEFAULTBINDER_DEFAULT_BINDER_H_

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "api/status.h"
#include "api/types/objects.h"
#include "reference/framework/interface.h"

namespace schedref::reference::framework::plugins::defaultbinder {

class DefaultBinder final : public BindPlugin {
 public:
  // Takes no args. REQUIRES: handle != nullptr.
  static StatusOr<std::unique_ptr<Plugin>> New(const nlohmann::json& args,
                                               Handle* handle);
  explicit DefaultBinder(Handle* handle) : handle_(handle) {}

  std::string Name() const override;

  // Success iff handle->BindPod succeeds; otherwise Error with the bind
  // error's message (upstream framework.AsStatus(err)). Never Skip.
  Status Bind(CycleState& state, const api::Pod& pod,
              const std::string& node_name) override;

 private:
  Handle* handle_;  // not owned; outlives the plugin
};

}  // namespace schedref::reference::framework::plugins::defaultbinder

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_DEFAULTBINDER_DEFAULT_BINDER_H_
