// Status and StatusOr: how api/ and both implementations report bad input and
// broken preconditions. Scheduling outcomes (Unschedulable, Wait, ...) are not
// errors and use the framework's own status type instead.
//
// Model: leveldb's Status and abseil's StatusOr. No exceptions cross a module
// boundary; every function that can fail returns one of these.
#ifndef SCHEDREF_API_STATUS_H_
#define SCHEDREF_API_STATUS_H_

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace schedref {

class [[nodiscard]] Status {
 public:
  // An ok status.
  Status() = default;

  static Status Ok() { return Status(); }
  // Bad input: the message names the file, the object and the field path.
  static Status Invalid(std::string message) {
    return Status(Code::kInvalid, std::move(message));
  }
  // A state transition the caller was not allowed to make (e.g. assuming a pod
  // twice). Upstream returns errors for these too.
  static Status FailedPrecondition(std::string message) {
    return Status(Code::kFailedPrecondition, std::move(message));
  }
  static Status NotFound(std::string message) {
    return Status(Code::kNotFound, std::move(message));
  }

  bool ok() const { return code_ == Code::kOk; }
  bool IsInvalid() const { return code_ == Code::kInvalid; }
  bool IsFailedPrecondition() const {
    return code_ == Code::kFailedPrecondition;
  }
  bool IsNotFound() const { return code_ == Code::kNotFound; }
  const std::string& message() const { return message_; }

  // Returns a copy whose message is "<prefix>: <message>". Ok stays ok.
  Status WithPrefix(const std::string& prefix) const {
    if (ok()) return *this;
    return Status(code_, prefix + ": " + message_);
  }

  friend bool operator==(const Status&, const Status&) = default;

 private:
  enum class Code { kOk, kInvalid, kFailedPrecondition, kNotFound };
  Status(Code code, std::string message)
      : code_(code), message_(std::move(message)) {}

  Code code_ = Code::kOk;
  std::string message_;
};

// Either a value or a non-ok Status.
template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(T value) : rep_(std::move(value)) {}  // NOLINT: implicit by design
  // REQUIRES: !status.ok().
  StatusOr(Status status) : rep_(std::move(status)) {  // NOLINT
    assert(!std::get<Status>(rep_).ok());
  }

  bool ok() const { return std::holds_alternative<T>(rep_); }
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<Status>(rep_);
  }
  // REQUIRES: ok().
  T& value() & { return std::get<T>(rep_); }
  const T& value() const& { return std::get<T>(rep_); }
  T&& value() && { return std::get<T>(std::move(rep_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<Status, T> rep_;
};

}  // namespace schedref

// Returns early from the enclosing function when `expr` is not ok.
#define SCHEDREF_RETURN_IF_ERROR(expr)              \
  do {                                              \
    ::schedref::Status schedref_status_ = (expr);   \
    if (!schedref_status_.ok()) return schedref_status_; \
  } while (0)

#endif  // SCHEDREF_API_STATUS_H_
