#include "api/gocompat/go_duration.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <string>
#include <vector>

namespace schedref::api {
namespace {

constexpr int64_t kUs = 1000;
constexpr int64_t kMs = 1000 * kUs;
constexpr int64_t kS = 1000 * kMs;
constexpr int64_t kM = 60 * kS;
constexpr int64_t kH = 60 * kM;

// The valid inputs of Go's time_test.go parseDurationTests (go1.22).
TEST(ParseGoDurationTest, GoValidCases) {
  struct Case {
    std::string in;
    int64_t want;
  };
  const std::vector<Case> cases = {
      {"0", 0},
      {"5s", 5 * kS},
      {"30s", 30 * kS},
      {"1478s", 1478 * kS},
      {"-5s", -5 * kS},
      {"+5s", 5 * kS},
      {"-0", 0},
      {"+0", 0},
      {"5.0s", 5 * kS},
      {"5.6s", 5 * kS + 600 * kMs},
      {"5.s", 5 * kS},
      {".5s", 500 * kMs},
      {"1.0s", kS},
      {"1.00s", kS},
      {"1.004s", kS + 4 * kMs},
      {"1.0040s", kS + 4 * kMs},
      {"100.00100s", 100 * kS + kMs},
      {"10ns", 10},
      {"11us", 11 * kUs},
      {"12\xC2\xB5s", 12 * kUs},  // U+00B5
      {"12\xCE\xBCs", 12 * kUs},  // U+03BC
      {"13ms", 13 * kMs},
      {"14s", 14 * kS},
      {"15m", 15 * kM},
      {"16h", 16 * kH},
      {"3h30m", 3 * kH + 30 * kM},
      {"10.5s4m", 4 * kM + 10 * kS + 500 * kMs},
      {"-2m3.4s", -(2 * kM + 3 * kS + 400 * kMs)},
      {"1h2m3s4ms5us6ns", kH + 2 * kM + 3 * kS + 4 * kMs + 5 * kUs + 6},
      {"39h9m14.425s", 39 * kH + 9 * kM + 14 * kS + 425 * kMs},
      {"52763797000ns", 52763797000},
      {"0.3333333333333333333h", 20 * kM},
      {"9007199254740993ns", (int64_t{1} << 53) + 1},
      {"9223372036854775807ns", std::numeric_limits<int64_t>::max()},
      {"9223372036854775.807us", std::numeric_limits<int64_t>::max()},
      {"9223372036s854ms775us807ns", std::numeric_limits<int64_t>::max()},
      {"-9223372036854775808ns", std::numeric_limits<int64_t>::min()},
      {"-9223372036854775.808us", std::numeric_limits<int64_t>::min()},
      {"-9223372036s854ms775us808ns", std::numeric_limits<int64_t>::min()},
      {"-2562047h47m16.854775808s", std::numeric_limits<int64_t>::min()},
      {"0.100000000000000000000h", 6 * kM},
      {"0.830103483285477580700h", 49 * kM + 48 * kS + 372539827},
      // Ours: a fraction of a nanosecond truncates.
      {"1.5ns", 1},
  };
  for (const Case& c : cases) {
    StatusOr<int64_t> got = ParseGoDuration(c.in);
    ASSERT_TRUE(got.ok()) << c.in << ": " << got.status().message();
    EXPECT_EQ(*got, c.want) << c.in;
  }
}

// The invalid inputs of Go's parseDurationErrorTests, with Go's messages.
TEST(ParseGoDurationTest, GoErrorCases) {
  struct Case {
    std::string in;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"", "time: invalid duration \"\""},
      {"3", "time: missing unit in duration \"3\""},
      {"-", "time: invalid duration \"-\""},
      {"s", "time: invalid duration \"s\""},
      {".", "time: invalid duration \".\""},
      {"-.", "time: invalid duration \"-.\""},
      {".s", "time: invalid duration \".s\""},
      {"+.s", "time: invalid duration \"+.s\""},
      {"1d", "time: unknown unit \"d\" in duration \"1d\""},
      {"\x85\x85", "time: invalid duration \"\\x85\\x85\""},
      {"\xff\xff", "time: invalid duration \"\\xff\\xff\""},
      {"hello \xff\xff world",
       "time: invalid duration \"hello \\xff\\xff world\""},
      {"\xef\xbf\xbd", "time: invalid duration \"\\xef\\xbf\\xbd\""},
      {"\xef\xbf\xbd hello \xef\xbf\xbd world",
       "time: invalid duration \"\\xef\\xbf\\xbd hello \\xef\\xbf\\xbd "
       "world\""},
      {"9223372036854775810ns",
       "time: invalid duration \"9223372036854775810ns\""},
      {"9223372036854775808ns",
       "time: invalid duration \"9223372036854775808ns\""},
      {"-9223372036854775809ns",
       "time: invalid duration \"-9223372036854775809ns\""},
      {"9223372036854776us", "time: invalid duration \"9223372036854776us\""},
      {"3000000h", "time: invalid duration \"3000000h\""},
      {"9223372036854775.808us",
       "time: invalid duration \"9223372036854775.808us\""},
      {"9223372036854ms775us808ns",
       "time: invalid duration \"9223372036854ms775us808ns\""},
      // Ours: a missing unit after a first component, quotes escaped.
      {"1h5", "time: missing unit in duration \"1h5\""},
      {"1\"s", "time: unknown unit \"\\\"s\" in duration \"1\\\"s\""},
  };
  for (const Case& c : cases) {
    StatusOr<int64_t> got = ParseGoDuration(c.in);
    ASSERT_FALSE(got.ok()) << c.in << " parsed as " << *got;
    EXPECT_TRUE(got.status().IsInvalid()) << c.in;
    EXPECT_EQ(got.status().message(), c.want) << c.in;
  }
}

// Go's time.Duration.String(), cases from Go's time_test.go durationTests.
TEST(FormatGoDurationTest, GoStrings) {
  struct Case {
    int64_t ns;
    const char* want;
  };
  const Case cases[] = {
      {0, "0s"},
      {1, "1ns"},
      {1100, "1.1\u00b5s"},
      {2200000, "2.2ms"},
      {3300000000, "3.3s"},
      {4 * 60000000000LL + 5000000000LL, "4m5s"},
      {4 * 60000000000LL + 5001000000LL, "4m5.001s"},
      {5 * 3600000000000LL + 6 * 60000000000LL + 7001000000LL, "5h6m7.001s"},
      {8 * 60000000000LL + 1, "8m0.000000001s"},
      {3600000000000LL, "1h0m0s"},
      {15000000000LL, "15s"},
      {-10000000000LL, "-10s"},
      {INT64_MAX, "2562047h47m16.854775807s"},
      {INT64_MIN, "-2562047h47m16.854775808s"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(FormatGoDuration(c.ns), c.want) << c.ns;
  }
  // Parsing what it prints gives the value back.
  for (const Case& c : cases) {
    StatusOr<int64_t> back = ParseGoDuration(FormatGoDuration(c.ns));
    ASSERT_TRUE(back.ok()) << c.want;
    EXPECT_EQ(*back, c.ns) << c.want;
  }
}

// Go's time.ParseDuration, cases from Go's time_test.go parseDurationTests.
TEST(ParseGoDurationTest, GoParseDurationTestsTable) {
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


// --- Durations
// ---------------------------------------------------------------------

TEST(ParseDurationMs, GoSyntax) {
  const std::vector<std::pair<std::string, std::optional<int64_t>>> cases = {
      {"0", 0},
      {"0s", 0},
      {"1s", 1000},
      {"1.5s", 1500},
      {"500ms", 500},
      {"2m", 120000},
      {"1h2m3s", 3723000},
      {"1h2m3.004s", 3723004},
      {".5s", 500},
      {"1.s", 1000},
      {"+3s", 3000},
      {"-1m", -60000},
      {"2000us", 2},
      {"2000\xc2\xb5s", 2},
      {"3000\xce\xbcs", 3},
      {"2000000ns", 2},
      {"1us", std::nullopt},     // not a whole millisecond
      {"1500us", std::nullopt},  // nor is this
      {"", std::nullopt},
      {"s", std::nullopt},
      {"1", std::nullopt},
      {"1x", std::nullopt},
      {"1.5.s", std::nullopt},
      {".s", std::nullopt},
      {"9999999999h", std::nullopt},  // out of range
  };
  for (const auto& [text, want] : cases) {
    EXPECT_EQ(ParseDurationMs(text), want) << text;
  }
}

TEST(FormatDurationMs, GoDurationString) {
  const std::vector<std::pair<int64_t, std::string>> cases = {
      {0, "0s"},           {1, "1ms"},
      {999, "999ms"},      {1000, "1s"},
      {1500, "1.5s"},      {1050, "1.05s"},
      {60000, "1m0s"},     {90000, "1m30s"},
      {3600000, "1h0m0s"}, {3723004, "1h2m3.004s"},
      {-1500, "-1.5s"},    {-5, "-5ms"},
  };
  for (const auto& [ms, want] : cases) EXPECT_EQ(FormatDurationMs(ms), want);
}

RC_GTEST_PROP(FormatDurationMs, ParsesBack, ()) {
  // Go's range is |d| < 2^63 ns.
  const int64_t ms =
      *rc::gen::inRange<int64_t>(-9223372036854LL, 9223372036855LL);
  RC_ASSERT(ParseDurationMs(FormatDurationMs(ms)) == std::optional(ms));
}

}  // namespace
}  // namespace schedref::api
