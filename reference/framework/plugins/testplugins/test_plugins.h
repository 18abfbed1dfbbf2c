// TEST PLUGINS: not part of kube-scheduler. Scenario files enable them by
// name to exercise the framework's Reserve, Permit, PreBind and Bind paths,
// which no in-tree plugin of a pods-and-nodes scheduler uses. Each one reads
// a pod label and does nothing for pods without it.
//
//   TestPermit  (Permit)   label schedref.test/permit:
//       "wait"   -> Wait, timeout from label schedref.test/permit-timeout
//                   (a Go duration such as "30s" or "1m30s"; absent: 10s;
//                   negative: 0; malformed: Error "TestPermit: label
//                   schedref.test/permit-timeout: time: invalid duration ...")
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
// None takes args. Registered by RegisterTestPlugins (plugins/registry.h).
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_TESTPLUGINS_TEST_PLUGINS_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_TESTPLUGINS_TEST_PLUGINS_H_

#include <cstdint>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "api/status.h"
#include "api/types/objects.h"
#include "reference/framework/interface.h"

namespace schedref::reference::framework::plugins::testplugins {

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
  PermitOutput Permit(CycleState& state, const api::Pod& pod,
                      const std::string& node_name) override;
};

class TestReserve final : public ReservePlugin {
 public:
  static StatusOr<std::unique_ptr<Plugin>> New(const nlohmann::json& args,
                                               Handle* handle);
  std::string Name() const override { return kTestReserve; }
  Status Reserve(CycleState& state, const api::Pod& pod,
                 const std::string& node_name) override;
  void Unreserve(CycleState& state, const api::Pod& pod,
                 const std::string& node_name) override;
};

class TestPreBind final : public PreBindPlugin {
 public:
  static StatusOr<std::unique_ptr<Plugin>> New(const nlohmann::json& args,
                                               Handle* handle);
  std::string Name() const override { return kTestPreBind; }
  Status PreBind(CycleState& state, const api::Pod& pod,
                 const std::string& node_name) override;
};

class TestBind final : public BindPlugin {
 public:
  // REQUIRES: handle != nullptr.
  static StatusOr<std::unique_ptr<Plugin>> New(const nlohmann::json& args,
                                               Handle* handle);
  explicit TestBind(Handle* handle) : handle_(handle) {}
  std::string Name() const override { return kTestBind; }
  Status Bind(CycleState& state, const api::Pod& pod,
              const std::string& node_name) override;

 private:
  Handle* handle_;  // not owned; outlives the plugin
};

}  // namespace schedref::reference::framework::plugins::testplugins

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_TESTPLUGINS_TEST_PLUGINS_H_
