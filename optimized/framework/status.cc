#include "optimized/framework/status.h"

namespace schedref::optimized::framework {

const char* CodeName(Code code) {
  switch (code) {
    case Code::kSuccess: return "Success";
    case Code::kError: return "Error";
    case Code::kUnschedulable: return "Unschedulable";
    case Code::kUnschedulableAndUnresolvable: return "UnschedulableAndUnresolvable";
    case Code::kWait: return "Wait";
    case Code::kSkip: return "Skip";
    case Code::kPending: return "Pending";
  }
  return "Unknown";
}

std::string Status::Message() const {
  std::string out;
  for (size_t i = 0; i < reasons_.size(); ++i) {
    if (i > 0) out += ", ";
    out += reasons_[i];
  }
  return out;
}

}  // namespace schedref::optimized::framework
