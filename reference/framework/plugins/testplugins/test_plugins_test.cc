#include "reference/framework/plugins/testplugins/test_plugins.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "reference/framework/plugins/testplugins/go_duration.h"
#include "reference/framework/testing/fake_handle.h"
#include "reference/framework/testing/wrappers.h"

namespace schedref::reference::framework::plugins::testplugins {
namespace {

using st::MakePod;

// Go's time.ParseDuration, cases from Go's time_test.go parseDurationTests.
TEST(GoDurationTest, GoParseDurationTests) {
  struct Case {
    std::string in;
    int64_t want;
  };
  const int64_t ms = 1'000'000, s = 1000 * ms, m = 60 * s, h = 60 * m;
  for (const Case& c : std::vector<Case>{
           {"0", 0}, {"5s", 5 * s}, {"30s", 30 * s}, {"1478s", 1478 * s},
           {"-5s", -5 * s}, {"+5s", 5 * s}, {"-0", 0}, {"+0", 0},
           {"5.0s", 5 * s}, {"5.6s", 5 * s + 600 * ms},
           {"5.s", 5 * s}, {".5s", 500 * ms}, {"1.0s", s}, {"1.00s", s},
           {"1.004s", s + 4 * ms}, {"1.0040s", s + 4 * ms},
           {"100.00100s", 100 * s + 1 * ms}, {"10ns", 10}, {"11us", 11'000},
           {"12\xC2\xB5s", 12'000}, {"12\xCE\xBCs", 12'000}, {"13ms", 13 * ms},
           {"14s", 14 * s}, {"15m", 15 * m}, {"16h", 16 * h},
           {"3h30m", 3 * h + 30 * m}, {"10.5s4m", 4 * m + 10 * s + 500 * ms},
           {"-2m3.4s", -(2 * m + 3 * s + 400 * ms)},
           {"1h2m3s4ms5us6ns", h + 2 * m + 3 * s + 4 * ms + 5'000 + 6},
           {"39h9m14.425s", 39 * h + 9 * m + 14 * s + 425 * ms},
           {"52763797000ns", 52763797000}, {"0.3333333333333333333h", 20 * m},
           {"9007199254740993ns", 9007199254740993},
           {"9223372036854775807ns", INT64_MAX},
           {"-9223372036854775808ns", INT64_MIN},
       }) {
    auto got = ParseGoDuration(c.in);
    ASSERT_TRUE(got.ok()) << c.in << ": " << got.status().message();
    EXPECT_EQ(*got, c.want) << c.in;
  }
  for (const std::string bad :
       {"", "3", "-", "s", ".", "-.", ".s", "+.s", "1d", "\x85\x85",
        "\xff" "ff", "9223372036854775808ns", "-9223372036854775809ns",
        "9223372036854775.808us", "3000000h"}) {
    EXPECT_FALSE(ParseGoDuration(bad).ok()) << bad;
  }
  EXPECT_EQ(ParseGoDuration("3").status().message(),
            "time: missing unit in duration \"3\"");
  EXPECT_EQ(ParseGoDuration("1d").status().message(),
            "time: unknown unit \"d\" in duration \"1d\"");
  EXPECT_EQ(ParseGoDuration("x").status().message(),
            "time: invalid duration \"x\"");
}

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
