#include "conformance/implementations.h"

#include "reference/scheduler/scheduler.h"

namespace schedref::conformance {

std::vector<std::string> ImplementationNames() { return {"reference"}; }

std::unique_ptr<api::Scheduler> MakeImplementation(const std::string& name) {
  if (name == "reference") {
    return std::make_unique<reference::ReferenceScheduler>();
  }
  return nullptr;
}

}  // namespace schedref::conformance
