// The framework's Status: a plugin's verdict with upstream's codes
// (pkg/scheduler/framework/interface.go Code/Status, v1.32). A Success status
// holds no heap memory, so the hot Filter/Score loops never allocate on the
// path where nodes fit.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_STATUS_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_STATUS_H_

#include <string>
#include <utility>
#include <vector>

namespace schedref::optimized::framework {

enum class Code {
  kSuccess = 0,
  kError = 1,
  kUnschedulable = 2,
  kUnschedulableAndUnresolvable = 3,
  kWait = 4,
  kSkip = 5,
  kPending = 6,
};

// "Success", "Error", "Unschedulable", ... (upstream Code.String()).
const char* CodeName(Code code);

class [[nodiscard]] Status {
 public:
  Status() = default;  // Success
  Status(Code code, std::vector<std::string> reasons)
      : code_(code), reasons_(std::move(reasons)) {}
  Status(Code code, std::string reason) : code_(code) {
    reasons_.push_back(std::move(reason));
  }

  static Status Success() { return Status(); }
  static Status Error(std::string message) {
    return Status(Code::kError, std::move(message));
  }
  static Status Skip() { return Status(Code::kSkip, std::vector<std::string>{}); }

  Code code() const { return code_; }
  const std::vector<std::string>& reasons() const { return reasons_; }
  // The plugin that produced a non-success status (set by the framework).
  const std::string& plugin() const { return plugin_; }
  Status& WithPlugin(std::string plugin) {
    plugin_ = std::move(plugin);
    return *this;
  }

  bool IsSuccess() const { return code_ == Code::kSuccess; }
  bool IsSkip() const { return code_ == Code::kSkip; }
  bool IsWait() const { return code_ == Code::kWait; }
  // Unschedulable, UnschedulableAndUnresolvable or Pending.
  bool IsRejected() const {
    return code_ == Code::kUnschedulable ||
           code_ == Code::kUnschedulableAndUnresolvable ||
           code_ == Code::kPending;
  }
  // Reasons joined by ", ".
  std::string Message() const;

  friend bool operator==(const Status&, const Status&) = default;

 private:
  Code code_ = Code::kSuccess;
  std::vector<std::string> reasons_;
  std::string plugin_;
};

}  // namespace schedref::optimized::framework

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_STATUS_H_
