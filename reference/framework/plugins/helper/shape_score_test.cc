#include "reference/framework/plugins/helper/shape_score.h"

#include <gtest/gtest.h>

namespace schedref::reference::framework::plugins::helper {
namespace {

// Upstream requested_to_capacity_ratio_test.go TestBrokenLinearFunction
// (shape {10,1},{90,9}), values checked from the formula.
TEST(BrokenLinearTest, Upstream) {
  const FunctionShape shape = {{10, 1}, {90, 9}};
  struct Case {
    int64_t p, want;
  };
  for (const Case& c : {Case{-10, 1}, Case{0, 1}, Case{9, 1}, Case{10, 1},
                        Case{15, 1}, Case{19, 1}, Case{20, 2}, Case{89, 8},
                        Case{90, 9}, Case{99, 9}, Case{100, 9}, Case{110, 9}}) {
    EXPECT_EQ(BrokenLinear(shape, c.p), c.want) << c.p;
  }
  // Decreasing scores truncate toward zero like Go.
  const FunctionShape down = {{0, 100}, {100, 0}};
  EXPECT_EQ(BrokenLinear(down, 33), 67);
  EXPECT_EQ(BrokenLinear(down, 50), 50);
}

}  // namespace
}  // namespace schedref::reference::framework::plugins::helper
