#include "optimized/framework/registry.h"

namespace schedref::optimized::framework {

schedref::Status Registry::Register(const std::string& name, PluginFactory factory) {
  if (!factories_.emplace(name, std::move(factory)).second) {
    return schedref::Status::Invalid("a plugin named " + name + " already exists");
  }
  return schedref::Status::Ok();
}

const PluginFactory* Registry::Find(const std::string& name) const {
  auto it = factories_.find(name);
  return it == factories_.end() ? nullptr : &it->second;
}

}  // namespace schedref::optimized::framework
