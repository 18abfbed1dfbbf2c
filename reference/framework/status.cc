#include "reference/framework/status.h"

namespace schedref::reference::framework {

const char* CodeName(Code code) {
  switch (code) {
    case Code::kSuccess: return "Success";
    case Code::kError: return "Error";
    case Code::kUnschedulable: return "Unschedulable";
    case Code::kUnschedulableAndUnresolvable:
      return "UnschedulableAndUnresolvable";
    case Code::kWait: return "Wait";
    case Code::kSkip: return "Skip";
    case Code::kPending: return "Pending";
  }
  return "Unknown";
}

std::string Status::Message() const {
  std::string out;
  for (const std::string& reason : reasons_) {
    if (!out.empty()) out += ", ";
    out += reason;
  }
  return out;
}

}  // namespace schedref::reference::framework
