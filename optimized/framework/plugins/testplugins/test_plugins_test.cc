#include "optimized/framework/plugins/testplugins/test_plugins.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "optimized/framework/testing/fixtures.h"
#include "testing/st/wrappers.h"

namespace schedref::optimized::framework::plugins::testplugins {
namespace {

using st::MakePod;

PodInfoPtr PodWith(const api::Labels& labels) {
  return NewPodInfo(MakePod().Name("p").Labels(labels).Obj());
}

// The reference's table, plus the error texts.
TEST(TestPermitTest, Actions) {
  struct Case {
    std::string name;
    api::Labels labels;
    Status want;
    int64_t timeout_ms;
  };
  const Status kWait(Code::kWait, std::vector<std::string>{});
  const std::vector<Case> cases = {
      {"no label", {}, Status::Success(), 0},
      {"other value", {{kPermitLabel, "yes"}}, Status::Success(), 0},
      {"reject", {{kPermitLabel, "reject"}},
       Status(Code::kUnschedulable, "rejected by TestPermit"), 0},
      {"wait default", {{kPermitLabel, "wait"}}, kWait, 10'000},
      {"wait 1m30s", {{kPermitLabel, "wait"}, {kPermitTimeoutLabel, "1m30s"}},
       kWait, 90'000},
      {"wait 1.5ms truncates",
       {{kPermitLabel, "wait"}, {kPermitTimeoutLabel, "1.5ms"}}, kWait, 1},
      {"wait 999us is 0", {{kPermitLabel, "wait"}, {kPermitTimeoutLabel, "999us"}},
       kWait, 0},
      {"wait negative is 0",
       {{kPermitLabel, "wait"}, {kPermitTimeoutLabel, "-3s"}}, kWait, 0},
      {"wait timeout without wait is ignored",
       {{kPermitTimeoutLabel, "junk"}}, Status::Success(), 0},
      {"wait missing unit",
       {{kPermitLabel, "wait"}, {kPermitTimeoutLabel, "10"}},
       Status::Error("TestPermit: label schedref.test/permit-timeout: time: "
                     "missing unit in duration \"10\""),
       0},
      {"wait unknown unit",
       {{kPermitLabel, "wait"}, {kPermitTimeoutLabel, "1d"}},
       Status::Error("TestPermit: label schedref.test/permit-timeout: time: "
                     "unknown unit \"d\" in duration \"1d\""),
       0},
      {"wait invalid",
       {{kPermitLabel, "wait"}, {kPermitTimeoutLabel, "x"}},
       Status::Error("TestPermit: label schedref.test/permit-timeout: time: "
                     "invalid duration \"x\""),
       0},
  };
  TestPermit plugin;
  CycleState state;
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    PermitOutput out = plugin.Permit(state, *PodWith(tc.labels), "n");
    EXPECT_EQ(out.status, tc.want);
    EXPECT_EQ(out.timeout_ms, tc.timeout_ms);
  }
}

TEST(TestReserveTest, Actions) {
  TestReserve plugin;
  CycleState state;
  EXPECT_TRUE(plugin.Reserve(state, *PodWith({}), "n").IsSuccess());
  EXPECT_TRUE(plugin.Reserve(state, *PodWith({{kReserveLabel, "x"}}), "n")
                  .IsSuccess());
  EXPECT_EQ(plugin.Reserve(state, *PodWith({{kReserveLabel, "fail"}}), "n"),
            Status::Error("reserve failed"));
  plugin.Unreserve(state, *PodWith({{kReserveLabel, "fail"}}), "n");
}

TEST(TestPreBindTest, Actions) {
  TestPreBind plugin;
  CycleState state;
  EXPECT_TRUE(plugin.PreBind(state, *PodWith({}), "n").IsSuccess());
  EXPECT_EQ(plugin.PreBind(state, *PodWith({{kPreBindLabel, "fail"}}), "n"),
            Status::Error("prebind failed"));
  EXPECT_EQ(plugin.PreBind(state, *PodWith({{kPreBindLabel, "reject"}}), "n"),
            Status(Code::kUnschedulable, "rejected by TestPreBind"));
}

TEST(TestBindTest, Actions) {
  testing::FakeHandle handle;
  TestBind plugin(&handle);
  CycleState state;
  auto pod = [](const std::string& name, const api::Labels& labels) {
    return NewPodInfo(MakePod().Name(name).Labels(labels).Obj());
  };
  EXPECT_EQ(plugin.Bind(state, *pod("a", {{kBindLabel, "fail"}}), "n"),
            Status::Error("bind failed"));
  EXPECT_EQ(plugin.Bind(state, *pod("b", {{kBindLabel, "skip"}}), "n"),
            Status::Skip());
  EXPECT_TRUE(plugin.Bind(state, *pod("c", {}), "n").IsSuccess());
  handle.bind_error = "binding rejected";
  EXPECT_EQ(plugin.Bind(state, *pod("d", {}), "n"),
            Status::Error("binding rejected"));
  EXPECT_EQ(handle.binds, std::vector<std::string>{"default/c -> n"});
}

TEST(TestPluginsTest, Construction) {
  testing::FakeHandle handle;
  const nlohmann::json none = nlohmann::json::object();
  struct Case {
    std::string want_name;
    StatusOr<std::unique_ptr<Plugin>> plugin;
  };
  std::vector<Case> cases;
  cases.push_back({"TestPermit", TestPermit::New(none, nullptr)});
  cases.push_back({"TestReserve", TestReserve::New(none, nullptr)});
  cases.push_back({"TestPreBind", TestPreBind::New(none, nullptr)});
  cases.push_back({"TestBind", TestBind::New(none, &handle)});
  for (const Case& tc : cases) {
    ASSERT_TRUE(tc.plugin.ok()) << tc.want_name;
    EXPECT_EQ((*tc.plugin)->Name(), tc.want_name);
  }
  EXPECT_TRUE(TestBind::New(none, nullptr).status().IsFailedPrecondition());
}

}  // namespace
}  // namespace schedref::optimized::framework::plugins::testplugins
