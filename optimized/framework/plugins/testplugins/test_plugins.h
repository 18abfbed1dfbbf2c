// TEST PLUGINS: not part of kube-scheduler. Scenario files enable them by
// name to exercise the framework's Reserve, Permit, PreBind and Bind paths.
// Each one reads a pod label and does nothing for pods without it. The
// behaviour is the reference's (docs/semantics/plugins.md "Test plugins"):
//
//   TestPermit  (Permit)   label schedref.test/permit:
//       "wait"   -> Wait, timeout from label schedref.test/permit-timeout
//                   (a Go duration such as "30s" or "1m30s", truncated to
//                   whole milliseconds; absent: 10s; negative: 0; malformed:
//                   Error "TestPermit: label schedref.test/permit-timeout:
//                   <Go's ParseDuration error>")
//       "reject" -> Unschedulable "rejected by TestPermit"
//       other    -> Success
//   TestReserve (Reserve)  label schedref.test/reserve:
//       "fail"   -> Error "reserve failed"; Unreserve does nothing.
//   TestPreBind (PreBind)  label schedref.test/prebind:
//       "fail"   -> Error "prebind failed"
//       "reject" -> Unschedulable "rejected by TestPreBind"
//   TestBind    (Bind)     label schedref.test/bind:
//       "fail"   -> Error "bind failed"
//       "skip"   -> Skip (the next Bind plugin decides)
//       other    -> Handle::BindPod; its error -> Error with its message.
//
// None takes args (any given are ignored). The lead's registry registers
// them only on request, never in the default profile.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_TESTPLUGINS_TEST_PLUGINS_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_TESTPLUGINS_TEST_PLUGINS_H_

#include <cstdint>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "api/status.h"
#include "optimized/framework/interface.h"

namespace schedref::optimized::framework::plugins::testplugins {

inline constexpr char kTestPermit[] = "TestPermit";
inline constexpr char kTestReserve[] = "TestReserve";
inline constexpr char kTestPreBind[] = "TestPreBind";
inline constexpr char kTestBind[] = "TestBind";

inline constexpr char kPermitLabel[] = "schedref.test/permit";
inline constexpr char kPermitTimeoutLabel[] = "schedref.test/permit-timeout";
inline constexpr char kReserveLabel[] = "schedref.test/reserve";
inline constexpr char kPreBindLabel[] = "schedref.test/prebind";
inline constexpr char kBindLabel[] = "schedref.test/bind";

inline constexpr int64_t kDefaultPermitTimeoutMs = 10'000;

class TestPermit final : public PermitPlugin {
 public:
  static StatusOr<std::unique_ptr<Plugin>> New(const nlohmann::json& args,
                                               Handle* handle);
  std::string Name() const override { return kTestPermit; }
  PermitOutput Permit(CycleState& state, const PodInfo& pod,
                      const std::string& node_name) override;
};

class TestReserve final : public ReservePlugin {
 public:
  static StatusOr<std::unique_ptr<Plugin>> New(const nlohmann::json& args,
                                               Handle* handle);
  std::string Name() const override { return kTestReserve; }
  Status Reserve(CycleState& state, const PodInfo& pod,
                 const std::string& node_name) override;
  void Unreserve(CycleState& state, const PodInfo& pod,
                 const std::string& node_name) override;
};

class TestPreBind final : public PreBindPlugin {
 public:
  static StatusOr<std::unique_ptr<Plugin>> New(const nlohmann::json& args,
                                               Handle* handle);
  std::string Name() const override { return kTestPreBind; }
  Status PreBind(CycleState& state, const PodInfo& pod,
                 const std::string& node_name) override;
};

class TestBind final : public BindPlugin {
 public:
  // FailedPrecondition without a handle.
  static StatusOr<std::unique_ptr<Plugin>> New(const nlohmann::json& args,
                                               Handle* handle);
  // REQUIRES: handle != nullptr.
  explicit TestBind(Handle* handle) : handle_(handle) {}
  std::string Name() const override { return kTestBind; }
  Status Bind(CycleState& state, const PodInfo& pod,
              const std::string& node_name) override;

 private:
  Handle* handle_;  // not owned; outlives the plugin
};

}  // namespace schedref::optimized::framework::plugins::testplugins

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_TESTPLUGINS_TEST_PLUGINS_H_
