#include "reference/framework/plugins/testplugins/test_plugins.h"

#include <string>

#include "api/gocompat/go_duration.h"

namespace schedref::reference::framework::plugins::testplugins {
namespace {

std::string Label(const api::Pod& pod, const char* key) {
  auto it = pod.labels.find(key);
  return it == pod.labels.end() ? std::string() : it->second;
}

}  // namespace

StatusOr<std::unique_ptr<Plugin>> TestPermit::New(const nlohmann::json&,
                                                  Handle*) {
  return std::unique_ptr<Plugin>(new TestPermit());
}

PermitOutput TestPermit::Permit(CycleState& /*state*/, const api::Pod& pod,
                                const std::string& /*node_name*/) {
  const std::string action = Label(pod, kPermitLabel);
  if (action == "reject") {
    return {Status(Code::kUnschedulable, "rejected by TestPermit"), 0};
  }
  if (action != "wait") return {Status::Success(), 0};
  int64_t timeout_ms = kDefaultPermitTimeoutMs;
  if (pod.labels.contains(kPermitTimeoutLabel)) {
    StatusOr<int64_t> nanos =
        api::ParseGoDuration(pod.labels.at(kPermitTimeoutLabel));
    if (!nanos.ok()) {
      return {Status::Error(std::string("TestPermit: label ") +
                            kPermitTimeoutLabel + ": " +
                            nanos.status().message()),
              0};
    }
    timeout_ms = *nanos < 0 ? 0 : *nanos / 1'000'000;
  }
  return {Status(Code::kWait, std::vector<std::string>{}), timeout_ms};
}

StatusOr<std::unique_ptr<Plugin>> TestReserve::New(const nlohmann::json&,
                                                   Handle*) {
  return std::unique_ptr<Plugin>(new TestReserve());
}

Status TestReserve::Reserve(CycleState& /*state*/, const api::Pod& pod,
                            const std::string& /*node_name*/) {
  if (Label(pod, kReserveLabel) == "fail") {
    return Status::Error("reserve failed");
  }
  return Status::Success();
}

void TestReserve::Unreserve(CycleState& /*state*/, const api::Pod& /*pod*/,
                            const std::string& /*node_name*/) {}

StatusOr<std::unique_ptr<Plugin>> TestPreBind::New(const nlohmann::json&,
                                                   Handle*) {
  return std::unique_ptr<Plugin>(new TestPreBind());
}

Status TestPreBind::PreBind(CycleState& /*state*/, const api::Pod& pod,
                            const std::string& /*node_name*/) {
  const std::string action = Label(pod, kPreBindLabel);
  if (action == "fail") return Status::Error("prebind failed");
  if (action == "reject") {
    return Status(Code::kUnschedulable, "rejected by TestPreBind");
  }
  return Status::Success();
}

StatusOr<std::unique_ptr<Plugin>> TestBind::New(const nlohmann::json&,
                                                Handle* handle) {
  if (handle == nullptr) {
    return schedref::Status::FailedPrecondition(
        "TestBind needs a framework handle");
  }
  return std::unique_ptr<Plugin>(new TestBind(handle));
}

Status TestBind::Bind(CycleState& /*state*/, const api::Pod& pod,
                      const std::string& node_name) {
  const std::string action = Label(pod, kBindLabel);
  if (action == "fail") return Status::Error("bind failed");
  if (action == "skip") return Status::Skip();
  schedref::Status s = handle_->BindPod(pod, node_name);
  if (!s.ok()) return Status::Error(s.message());
  return Status::Success();
}

}  // namespace schedref::reference::framework::plugins::testplugins
