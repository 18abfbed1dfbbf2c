// The framework's Status: a plugin's verdict with upstream's codes
// (pkg/scheduler/framework/interface.go Code/Status, v1.32). A Success status
// holds no heap memory, so the hot Filter/Score loops never allocate on the
// path where nodes fit.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_STATUS_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_STATUS_H_

#include <memory>
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

// A Success (or a reason-less Skip/Wait) is one word and a null pointer: no
// allocation and a trivial destructor check, which matters because every
// Filter and Score call on every node returns one.
class [[nodiscard]] Status {
 public:
  Status() = default;  // Success
  Status(Code code, std::vector<std::string> reasons) : code_(code) {
    if (!reasons.empty()) rep_ = std::make_unique<Rep>(Rep{std::move(reasons), {}});
  }
  Status(Code code, std::string reason) : code_(code) {
    rep_ = std::make_unique<Rep>();
    rep_->reasons.push_back(std::move(reason));
  }
  Status(const Status& other)
      : code_(other.code_), rep_(other.rep_ ? std::make_unique<Rep>(*other.rep_) : nullptr) {}
  Status& operator=(const Status& other) {
    if (this != &other) {
      code_ = other.code_;
      rep_ = other.rep_ ? std::make_unique<Rep>(*other.rep_) : nullptr;
    }
    return *this;
  }
  Status(Status&&) noexcept = default;
  Status& operator=(Status&&) noexcept = default;

  static Status Success() { return Status(); }
  static Status Error(std::string message) {
    return Status(Code::kError, std::move(message));
  }
  static Status Skip() { return Status(Code::kSkip, std::vector<std::string>{}); }

  Code code() const { return code_; }
  const std::vector<std::string>& reasons() const {
    return rep_ ? rep_->reasons : EmptyReasons();
  }
  // The plugin that produced a non-success status (set by the framework).
  const std::string& plugin() const { return rep_ ? rep_->plugin : EmptyPlugin(); }
  Status& WithPlugin(std::string plugin) {
    if (!rep_) rep_ = std::make_unique<Rep>();
    rep_->plugin = std::move(plugin);
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

  friend bool operator==(const Status& a, const Status& b) {
    return a.code_ == b.code_ && a.reasons() == b.reasons() && a.plugin() == b.plugin();
  }

 private:
  struct Rep {
    std::vector<std::string> reasons;
    std::string plugin;
  };
  static const std::vector<std::string>& EmptyReasons();
  static const std::string& EmptyPlugin();

  Code code_ = Code::kSuccess;
  std::unique_ptr<Rep> rep_;  // null: no reasons and no plugin
};

}  // namespace schedref::optimized::framework

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_STATUS_H_
