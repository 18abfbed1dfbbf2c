#include "optimized/framework/plugins/helper/shape_score.h"

#include <gtest/gtest.h>

namespace schedref::optimized::framework::plugins::helper {
namespace {

struct Case {
  int64_t p;
  int64_t want;
};

// upstream requested_to_capacity_ratio_test.go TestBrokenLinearFunction
// (shape {10,1},{90,9}), the reference's table.
TEST(BrokenLinearTest, UpstreamShape) {
  const FunctionShape shape = {{10, 1}, {90, 9}};
  for (const Case& c : {Case{-10, 1}, Case{0, 1}, Case{9, 1}, Case{10, 1},
                        Case{15, 1}, Case{19, 1}, Case{20, 2}, Case{89, 8},
                        Case{90, 9}, Case{99, 9}, Case{100, 9}, Case{110, 9}}) {
    EXPECT_EQ(BrokenLinear(shape, c.p), c.want) << c.p;
  }
}

// Decreasing segments truncate toward zero, as Go does.
TEST(BrokenLinearTest, DecreasingTruncatesTowardZero) {
  const FunctionShape down = {{0, 100}, {100, 0}};
  for (const Case& c : {Case{33, 67}, Case{50, 50}, Case{1, 99}, Case{99, 1},
                        Case{100, 0}, Case{101, 0}}) {
    EXPECT_EQ(BrokenLinear(down, c.p), c.want) << c.p;
  }
}

// Several segments: each point belongs to the segment whose upper end it
// does not exceed.
TEST(BrokenLinearTest, SeveralSegments) {
  const FunctionShape shape = {{0, 0}, {20, 100}, {50, 40}, {100, 70}};
  for (const Case& c : {Case{0, 0}, Case{10, 50}, Case{20, 100}, Case{21, 98},
                        Case{35, 70}, Case{50, 40}, Case{75, 55}, Case{100, 70},
                        Case{120, 70}}) {
    EXPECT_EQ(BrokenLinear(shape, c.p), c.want) << c.p;
  }
}

TEST(BrokenLinearTest, SinglePoint) {
  const FunctionShape one = {{40, 7}};
  EXPECT_EQ(BrokenLinear(one, 0), 7);
  EXPECT_EQ(BrokenLinear(one, 40), 7);
  EXPECT_EQ(BrokenLinear(one, 100), 7);
}

}  // namespace
}  // namespace schedref::optimized::framework::plugins::helper
