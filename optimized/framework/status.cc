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
  const std::vector<std::string>& r = reasons();
  for (size_t i = 0; i < r.size(); ++i) {
    if (i > 0) out += ", ";
    out += r[i];
  }
  return out;
}

const std::vector<std::string>& Status::EmptyReasons() {
  static const std::vector<std::string> kEmpty;
  return kEmpty;
}

const std::string& Status::EmptyPlugin() {
  static const std::string kEmpty;
  return kEmpty;
}

}  // namespace schedref::optimized::framework
