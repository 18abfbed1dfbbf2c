#include "optimized/framework/plugins/helper/normalize_score.h"

#include <gtest/gtest.h>

#include <vector>

namespace schedref::optimized::framework::plugins::helper {
namespace {

// upstream normalize_score_test.go TestDefaultNormalizeScore (the function is
// unchanged through v1.32), plus the edge cases the reference's table has,
// so both implementations answer the same table.
TEST(DefaultNormalizeScoreTest, Table) {
  struct Case {
    bool reverse;
    std::vector<int64_t> scores;
    std::vector<int64_t> expected;
  };
  const std::vector<Case> cases = {
      {false, {1, 2, 3, 4}, {25, 50, 75, 100}},
      {true, {1, 2, 3, 4}, {75, 50, 25, 0}},
      {false, {1000, 10, 20, 30}, {100, 1, 2, 3}},
      {true, {1000, 10, 20, 30}, {0, 99, 98, 97}},
      {false, {1, 1, 1, 1}, {100, 100, 100, 100}},
      {false, {1000, 1, 1, 1}, {100, 0, 0, 0}},
      {true, {0, 1, 1, 1}, {100, 0, 0, 0}},
      {false, {0, 0}, {0, 0}},
      {true, {0, 0}, {100, 100}},
      {true, {}, {}},
      // Negative raw scores: the maximum starts at 0, so all-negative lists
      // are left alone (or all max_priority with reverse).
      {false, {-5, -1}, {-5, -1}},
      {true, {-5, -1}, {100, 100}},
      // A negative score next to a positive maximum scales toward zero.
      {false, {-3, 4}, {-75, 100}},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(i);
    std::vector<int64_t> scores = cases[i].scores;
    DefaultNormalizeScore(100, cases[i].reverse, scores);
    EXPECT_EQ(scores, cases[i].expected);
  }
}

TEST(DefaultNormalizeScoreTest, OtherMaximum) {
  std::vector<int64_t> scores = {1, 3};
  DefaultNormalizeScore(10, false, scores);
  EXPECT_EQ(scores, (std::vector<int64_t>{3, 10}));
}

}  // namespace
}  // namespace schedref::optimized::framework::plugins::helper
