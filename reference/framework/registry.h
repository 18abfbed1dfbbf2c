// Registry: plugin name -> factory. In-tree plugins are registered by
// reference/framework/plugins/registry.h; out-of-tree plugins (and the test
// plugins scenarios enable by name) are added with Register. Specification:
// upstream pkg/scheduler/framework/runtime/registry.go.
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_REGISTRY_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_REGISTRY_H_

#include <functional>
#include <map>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "api/status.h"
#include "reference/framework/interface.h"

namespace schedref::reference::framework {

// Builds a plugin from its pluginConfig args (an empty object when the
// configuration has none) and applies upstream's defaults for those args.
using PluginFactory = std::function<StatusOr<std::unique_ptr<Plugin>>(
    const nlohmann::json& args, Handle* handle)>;

class Registry {
 public:
  // Error if the name is already registered (upstream: "a plugin named %v
  // already exists").
  [[nodiscard]] schedref::Status Register(const std::string& name,
                                          PluginFactory factory);
  // nullptr iff unknown.
  const PluginFactory* Find(const std::string& name) const;

 private:
  std::map<std::string, PluginFactory> factories_;
};

}  // namespace schedref::reference::framework

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_REGISTRY_H_
