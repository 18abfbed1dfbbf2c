#include "conformance/implementations.h"

#include "optimized/scheduler/scheduler.h"
#include "reference/scheduler/scheduler.h"

namespace schedref::conformance {

std::vector<std::string> ImplementationNames() {
  return {"reference", "optimized"};
}

std::unique_ptr<api::Scheduler> MakeImplementation(const std::string& name) {
  if (name == "reference") {
    return std::make_unique<reference::ReferenceScheduler>();
  }
  if (name == "optimized") {
    return std::make_unique<optimized::OptimizedScheduler>();
  }
  return nullptr;
}

}  // namespace schedref::conformance
