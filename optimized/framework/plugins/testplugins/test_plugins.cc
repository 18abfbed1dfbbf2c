#include "optimized/framework/plugins/testplugins/test_plugins.h"

#include <string>
#include <string_view>

#include "api/gocompat/go_duration.h"

namespace schedref::optimized::framework::plugins::testplugins {
namespace {

constexpr int64_t kNanosPerMs = 1'000'000;

// The label's value, or "" when absent.
std::string_view Label(const PodInfo& pod, const char* key) {
  auto it = pod.pod.labels.find(key);
  return it == pod.pod.labels.end() ? std::string_view()
                                    : std::string_view(it->second);
}

}  // namespace

StatusOr<std::unique_ptr<Plugin>> TestPermit::New(const nlohmann::json& /*args*/,
                                                  Handle* /*handle*/) {
  return std::unique_ptr<Plugin>(new TestPermit());
}

PermitOutput TestPermit::Permit(CycleState& /*state*/, const PodInfo& pod,
                                const std::string& /*node_name*/) {
  const std::string_view action = Label(pod, kPermitLabel);
  if (action == "reject") {
    return {Status(Code::kUnschedulable, "rejected by TestPermit"), 0};
  }
  if (action != "wait") return {Status::Success(), 0};
  int64_t timeout_ms = kDefaultPermitTimeoutMs;
  auto it = pod.pod.labels.find(kPermitTimeoutLabel);
  if (it != pod.pod.labels.end()) {
    const StatusOr<int64_t> nanos = api::ParseGoDuration(it->second);
    if (!nanos.ok()) {
      return {Status::Error(std::string("TestPermit: label ") +
                            kPermitTimeoutLabel + ": " +
                            nanos.status().message()),
              0};
    }
    timeout_ms = *nanos < 0 ? 0 : *nanos / kNanosPerMs;
  }
  return {Status(Code::kWait, std::vector<std::string>{}), timeout_ms};
}

StatusOr<std::unique_ptr<Plugin>> TestReserve::New(
    const nlohmann::json& /*args*/, Handle* /*handle*/) {
  return std::unique_ptr<Plugin>(new TestReserve());
}

Status TestReserve::Reserve(CycleState& /*state*/, const PodInfo& pod,
                            const std::string& /*node_name*/) {
  if (Label(pod, kReserveLabel) == "fail") {
    return Status::Error("reserve failed");
  }
  return Status::Success();
}

void TestReserve::Unreserve(CycleState& /*state*/, const PodInfo& /*pod*/,
                            const std::string& /*node_name*/) {}

StatusOr<std::unique_ptr<Plugin>> TestPreBind::New(
    const nlohmann::json& /*args*/, Handle* /*handle*/) {
  return std::unique_ptr<Plugin>(new TestPreBind());
}

Status TestPreBind::PreBind(CycleState& /*state*/, const PodInfo& pod,
                            const std::string& /*node_name*/) {
  const std::string_view action = Label(pod, kPreBindLabel);
  if (action == "fail") return Status::Error("prebind failed");
  if (action == "reject") {
    return Status(Code::kUnschedulable, "rejected by TestPreBind");
  }
  return Status::Success();
}

StatusOr<std::unique_ptr<Plugin>> TestBind::New(const nlohmann::json& /*args*/,
                                                Handle* handle) {
  if (handle == nullptr) {
    return schedref::Status::FailedPrecondition(
        "TestBind needs a framework handle");
  }
  return std::unique_ptr<Plugin>(new TestBind(handle));
}

Status TestBind::Bind(CycleState& /*state*/, const PodInfo& pod,
                      const std::string& node_name) {
  const std::string_view action = Label(pod, kBindLabel);
  if (action == "fail") return Status::Error("bind failed");
  if (action == "skip") return Status::Skip();
  const schedref::Status s = handle_->BindPod(pod.pod, node_name);
  if (!s.ok()) return Status::Error(s.message());
  return Status::Success();
}

}  // namespace schedref::optimized::framework::plugins::testplugins
