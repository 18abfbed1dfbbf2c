// The built-in implementations conformance can run, by name.
#ifndef SCHEDREF_CONFORMANCE_IMPLEMENTATIONS_H_
#define SCHEDREF_CONFORMANCE_IMPLEMENTATIONS_H_

#include <memory>
#include <string>
#include <vector>

#include "api/scheduler.h"

namespace schedref::conformance {

// "reference" (and "optimized" once it exists).
std::vector<std::string> ImplementationNames();
// nullptr iff the name is unknown.
std::unique_ptr<api::Scheduler> MakeImplementation(const std::string& name);

}  // namespace schedref::conformance

#endif  // SCHEDREF_CONFORMANCE_IMPLEMENTATIONS_H_
