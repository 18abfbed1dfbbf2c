#include "conformance/trace_diff.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace schedref::conformance {
namespace {

using Lines = std::vector<std::string>;

TEST(TraceDiffTest, FirstDifference) {
  EXPECT_EQ(FirstDifference({"a", "b"}, {"a", "b"}), std::nullopt);
  EXPECT_EQ(FirstDifference({}, {}), std::nullopt);
  EXPECT_EQ(FirstDifference({"a", "b"}, {"a", "c"}), 1u);
  EXPECT_EQ(FirstDifference({"a", "b"}, {"a"}), 1u);
  EXPECT_EQ(FirstDifference({"a"}, {"a", "b"}), 1u);
  EXPECT_EQ(FirstDifference({"x"}, {"a", "b"}), 0u);
}

TEST(TraceDiffTest, DescribeLine) {
  struct Case {
    std::string line, want;
  };
  const Case cases[] = {
      {R"({"cycle":2,"evaluated":3,"feasible":3,"kind":"attempt","node":"c","outcome":"scheduled","pod":"default/p2","profile":"default-scheduler","t":1000})",
       "attempt t=1000ms cycle 2 pod default/p2 (profile default-scheduler)"},
      {R"({"cycle":2,"kind":"binding","node":"c","outcome":"bound","pod":"default/p2","t":1000})",
       "binding t=1000ms cycle 2 pod default/p2"},
      {R"({"kind":"note","message":"m","pod":"default/v","t":5,"what":"victimDeleted"})",
       "note victimDeleted t=5ms pod default/v"},
      {R"({"kind":"placements","placements":{}})", "placements"},
      {R"({"format":"schedref-trace","kind":"header","version":1})", "header"},
      {"", "the end of the trace"},
      {"garbage", "a line that is not a JSON object"},
  };
  for (const Case& c : cases) EXPECT_EQ(DescribeLine(c.line), c.want);
}

TEST(TraceDiffTest, FieldDifferences) {
  EXPECT_EQ(
      FieldDifferences(
          R"({"kind":"attempt","node":"a","rejections":{"n1":{"code":"Unschedulable"},"n2":{"code":"x"}},"topScores":[{"node":"a","score":3}]})",
          R"({"kind":"attempt","node":"b","rejections":{"n2":{"code":"x"},"n3":{"code":"y"}},"message":"m"})"),
      (Lines{
          R"(message: expected (absent), actual "m")",
          R"(node: expected "a", actual "b")",
          R"(rejections.n1: expected {"code":"Unschedulable"}, actual (absent))",
          R"(rejections.n3: expected (absent), actual {"code":"y"})",
          R"(topScores: expected [{"node":"a","score":3}], actual (absent))",
      }));
  EXPECT_EQ(FieldDifferences(R"({"kind":"placements","placements":{"d/p":"a"}})",
                             R"({"kind":"placements","placements":{"d/p":""}})"),
            (Lines{R"(placements.d/p: expected "a", actual "")"}));
  EXPECT_EQ(FieldDifferences(R"({"kind":"attempt"})", R"({"kind":"binding"})"),
            (Lines{R"(kind: expected "attempt", actual "binding")"}));
  EXPECT_EQ(FieldDifferences(R"({"kind":"attempt"})", ""), Lines{});
  EXPECT_EQ(FieldDifferences(R"({"a":1})", R"({"a":1})"), Lines{});
}

}  // namespace
}  // namespace schedref::conformance
