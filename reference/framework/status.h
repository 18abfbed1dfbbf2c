// The framework's Status: a plugin's verdict with upstream's codes, and what
// each code means for the queue. Specification: upstream
// pkg/scheduler/framework/interface.go (Code, Status) at v1.32.
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_STATUS_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_STATUS_H_

#include <string>
#include <utility>
#include <vector>

namespace schedref::reference::framework {

enum class Code {
  // The plugin ran and had no objection.
  kSuccess = 0,
  // An internal error: the pod goes to backoff (with no rejector plugins),
  // the attempt is reported as "error".
  kError = 1,
  // The pod does not fit this node, but preemption may help.
  kUnschedulable = 2,
  // The pod does not fit this node and preemption cannot help.
  kUnschedulableAndUnresolvable = 3,
  // Permit only: hold the pod in the waiting state.
  kWait = 4,
  // PreFilter/PreScore: the coupled Filter/Score is not needed this cycle.
  // Bind: this plugin does not bind this pod.
  kSkip = 5,
  // The pod waits for something outside the scheduler; requeued without a
  // backoff penalty when a registered event arrives.
  kPending = 6,
};

// "Success", "Unschedulable", ... as upstream's Code.String().
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

}  // namespace schedref::reference::framework

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_STATUS_H_
