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

// A non-success status's reasons and the plugin that produced it.
struct StatusRep {
  std::vector<std::string> reasons;
  std::string plugin;
  // For a shared rep without a plugin: its twin with the plugin set, which
  // WithPlugin of that plugin switches to instead of copying. Static too.
  const StatusRep* attributed = nullptr;
};

// A Success (or a reason-less Skip/Wait) is one word and a null pointer: no
// allocation and a trivial destructor check, which matters because every
// Filter and Score call on every node returns one. A rejection that many
// nodes share word for word (the same plugin, the same reasons) can point
// at one StatusRep that outlives it (Status::Shared): copies then point at
// it too, and WithPlugin can switch to its attributed twin, so rejecting a
// node allocates nothing either.
class [[nodiscard]] Status {
 public:
  Status() = default;  // Success
  Status(Code code, std::vector<std::string> reasons) : code_(code) {
    if (!reasons.empty()) Own(new StatusRep{std::move(reasons), {}});
  }
  Status(Code code, std::string reason) : code_(code) {
    Own(new StatusRep{{std::move(reason)}, {}});
  }
  Status(const Status& other) : code_(other.code_), rep_(other.rep_), owned_(other.owned_) {
    if (owned_) rep_ = new StatusRep(*other.rep_);
  }
  Status& operator=(const Status& other) {
    if (this != &other) *this = Status(other);
    return *this;
  }
  Status(Status&& other) noexcept
      : code_(other.code_), rep_(std::exchange(other.rep_, nullptr)),
        owned_(std::exchange(other.owned_, false)) {}
  Status& operator=(Status&& other) noexcept {
    if (this != &other) {
      Release();
      code_ = other.code_;
      rep_ = std::exchange(other.rep_, nullptr);
      owned_ = std::exchange(other.owned_, false);
    }
    return *this;
  }
  ~Status() { Release(); }

  static Status Success() { return Status(); }
  static Status Error(std::string message) {
    return Status(Code::kError, std::move(message));
  }
  static Status Skip() { return Status(Code::kSkip, std::vector<std::string>{}); }
  // A status whose reasons and plugin are `rep`'s, without a copy.
  // REQUIRES: `rep` outlives the status and every copy of it (a static).
  static Status Shared(Code code, const StatusRep& rep) {
    Status s;
    s.code_ = code;
    s.rep_ = const_cast<StatusRep*>(&rep);  // never written through: not owned
    return s;
  }

  Code code() const { return code_; }
  const std::vector<std::string>& reasons() const {
    return rep_ ? rep_->reasons : EmptyReasons();
  }
  // The plugin that produced a non-success status (set by the framework).
  const std::string& plugin() const { return rep_ ? rep_->plugin : EmptyPlugin(); }
  // Sets the plugin; a no-op (no copy of a shared rep) when it is already
  // `plugin`.
  Status& WithPlugin(const std::string& plugin) {
    if (rep_ != nullptr && rep_->plugin == plugin) return *this;
    if (!owned_ && rep_ != nullptr && rep_->attributed != nullptr &&
        rep_->attributed->plugin == plugin) {
      rep_ = const_cast<StatusRep*>(rep_->attributed);  // shared, read only
      return *this;
    }
    if (!owned_) Own(rep_ != nullptr ? new StatusRep(*rep_) : new StatusRep());
    rep_->plugin = plugin;
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
  static const std::vector<std::string>& EmptyReasons();
  static const std::string& EmptyPlugin();
  // REQUIRES: !owned_ (a shared or null rep, which is not freed).
  void Own(StatusRep* rep) {
    rep_ = rep;
    owned_ = true;
  }
  void Release() {
    if (owned_) delete rep_;
    rep_ = nullptr;
    owned_ = false;
  }

  Code code_ = Code::kSuccess;
  // null: no reasons and no plugin. Freed by the destructor iff owned_;
  // otherwise a Shared rep, read only.
  StatusRep* rep_ = nullptr;
  bool owned_ = false;
};

// A one-reason rejection that many nodes share, with its twin attributed
// to the plugin that returns it: Get() allocates nothing, nor does the
// framework's attribution. Made once per reason, in static storage, and
// never destroyed (the statuses point at it):
//   static const SharedRejection* const kNo = new SharedRejection(...);
class SharedRejection {
 public:
  SharedRejection(Code code, std::string reason, std::string plugin)
      : code_(code),
        attributed_{{reason}, std::move(plugin), nullptr},
        plain_{{std::move(reason)}, std::string(), &attributed_} {}
  SharedRejection(const SharedRejection&) = delete;
  SharedRejection& operator=(const SharedRejection&) = delete;

  // Equal to Status(code, reason); WithPlugin(plugin) keeps it shared.
  Status Get() const { return Status::Shared(code_, plain_); }

 private:
  Code code_;
  StatusRep attributed_;
  StatusRep plain_;  // points at attributed_
};

// The SharedRejection of a plugin's fixed reason (a constant with static
// storage, as plugins declare them), made on first use:
//   return SharedRejectionOf<Code::kUnschedulable, kErrReason, names::kX>();
template <Code kCode, const char* kReason, const char* kPlugin>
Status SharedRejectionOf() {
  static const SharedRejection* const shared = new SharedRejection(kCode, kReason, kPlugin);
  return shared->Get();
}

}  // namespace schedref::optimized::framework

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_STATUS_H_
