#include "reference/framework/plugins/testplugins/test_plugins.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "reference/framework/testing/fake_handle.h"
#include "reference/framework/testing/wrappers.h"

namespace schedref::reference::framework::plugins::testplugins {
namespace {

using st::MakePod;

TEST(TestPermitTest, Actions) {
  TestPermit plugin;
  CycleState state;
  struct Case {
    std::string name;
    api::Labels labels;
    Code code;
    int64_t timeout_ms;
  };
  const std::vector<Case> cases = {
      {"no label", {}, Code::kSuccess, 0},
      {"other value", {{kPermitLabel, "yes"}}, Code::kSuccess, 0},
      {"reject", {{kPermitLabel, "reject"}}, Code::kUnschedulable, 0},
      {"wait default", {{kPermitLabel, "wait"}}, Code::kWait, 10'000},
      {"wait 1m30s",
       {{kPermitLabel, "wait"}, {kPermitTimeoutLabel, "1m30s"}},
       Code::kWait, 90'000},
      {"wait 1.5ms truncates",
       {{kPermitLabel, "wait"}, {kPermitTimeoutLabel, "1.5ms"}},
       Code::kWait, 1},
      {"wait negative is 0",
       {{kPermitLabel, "wait"}, {kPermitTimeoutLabel, "-3s"}}, Code::kWait, 0},
      {"wait malformed",
       {{kPermitLabel, "wait"}, {kPermitTimeoutLabel, "10"}}, Code::kError, 0},
  };
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    PermitOutput out =
        plugin.Permit(state, MakePod().Name("p").Labels(tc.labels).Obj(), "n");
    EXPECT_EQ(out.status.code(), tc.code);
    EXPECT_EQ(out.timeout_ms, tc.timeout_ms);
  }
  EXPECT_EQ(plugin
                .Permit(state,
                        MakePod().Label(kPermitLabel, "reject").Obj(), "n")
                .status.Message(),
            "rejected by TestPermit");
  EXPECT_EQ(plugin
                .Permit(state,
                        MakePod()
                            .Label(kPermitLabel, "wait")
                            .Label(kPermitTimeoutLabel, "10")
                            .Obj(),
                        "n")
                .status.Message(),
            "TestPermit: label schedref.test/permit-timeout: time: missing "
            "unit in duration \"10\"");
}

TEST(TestReserveTest, Actions) {
  TestReserve plugin;
  CycleState state;
  EXPECT_TRUE(plugin.Reserve(state, MakePod().Obj(), "n").IsSuccess());
  EXPECT_EQ(plugin.Reserve(state, MakePod().Label(kReserveLabel, "fail").Obj(),
                           "n"),
            Status::Error("reserve failed"));
  plugin.Unreserve(state, MakePod().Obj(), "n");
}

TEST(TestPreBindTest, Actions) {
  TestPreBind plugin;
  CycleState state;
  EXPECT_TRUE(plugin.PreBind(state, MakePod().Obj(), "n").IsSuccess());
  EXPECT_EQ(plugin.PreBind(state, MakePod().Label(kPreBindLabel, "fail").Obj(),
                           "n"),
            Status::Error("prebind failed"));
  EXPECT_EQ(
      plugin.PreBind(state, MakePod().Label(kPreBindLabel, "reject").Obj(),
                     "n"),
      Status(Code::kUnschedulable, "rejected by TestPreBind"));
}

TEST(TestBindTest, Actions) {
  st::FakeHandle handle;
  TestBind plugin(&handle);
  CycleState state;
  EXPECT_EQ(plugin.Bind(state, MakePod().Name("a").Label(kBindLabel, "fail")
                                   .Obj(), "n"),
            Status::Error("bind failed"));
  EXPECT_EQ(plugin.Bind(state, MakePod().Name("b").Label(kBindLabel, "skip")
                                   .Obj(), "n"),
            Status::Skip());
  EXPECT_TRUE(plugin.Bind(state, MakePod().Name("c").Obj(), "n").IsSuccess());
  handle.fail_binding.insert("default/d");
  EXPECT_EQ(plugin.Bind(state, MakePod().Name("d").Obj(), "n"),
            Status::Error("binding rejected"));
  EXPECT_EQ(handle.bind_calls.size(), 2u);
  EXPECT_FALSE(TestBind::New(nlohmann::json::object(), nullptr).ok());
}

}  // namespace
}  // namespace schedref::reference::framework::plugins::testplugins
