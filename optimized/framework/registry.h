// Registry: plugin name -> factory (upstream framework/runtime/registry.go).
// In-tree plugins are registered by optimized/framework/plugins/registry.h.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_REGISTRY_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_REGISTRY_H_

#include <functional>
#include <map>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "api/status.h"
#include "optimized/framework/interface.h"

namespace schedref::optimized::framework {

// Builds a plugin from its pluginConfig args (an empty object when the
// configuration has none), applying upstream's defaults and validation for
// them (api/config/pluginargs/).
using PluginFactory = std::function<StatusOr<std::unique_ptr<Plugin>>(
    const nlohmann::json& args, Handle* handle)>;

class Registry {
 public:
  // Error if the name is taken ("a plugin named X already exists").
  [[nodiscard]] schedref::Status Register(const std::string& name,
                                          PluginFactory factory);
  // nullptr iff unknown.
  const PluginFactory* Find(const std::string& name) const;

 private:
  std::map<std::string, PluginFactory> factories_;
};

}  // namespace schedref::optimized::framework

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_REGISTRY_H_
