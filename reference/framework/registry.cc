#include "reference/framework/registry.h"

#include <utility>

namespace schedref::reference::framework {

schedref::Status Registry::Register(const std::string& name,
                                    PluginFactory factory) {
  if (factories_.count(name) != 0) {
    return schedref::Status::Invalid("a plugin named " + name +
                                     " already exists");
  }
  factories_[name] = std::move(factory);
  return schedref::Status::Ok();
}

const PluginFactory* Registry::Find(const std::string& name) const {
  auto it = factories_.find(name);
  return it == factories_.end() ? nullptr : &it->second;
}

}  // namespace schedref::reference::framework
