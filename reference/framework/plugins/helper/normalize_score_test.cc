#include "reference/framework/plugins/helper/normalize_score.h"

#include <gtest/gtest.h>

#include <vector>

namespace schedref::reference::framework::plugins::helper {
namespace {

// Transcribed from upstream
// pkg/scheduler/framework/plugins/helper/normalize_score_test.go
// TestDefaultNormalizeScore (commit 0c3d8b97201ad9c4586c68e10de1a428fb5a133c;
// the function is unchanged through v1.32), plus our own edge cases.
TEST(DefaultNormalizeScoreTest, Upstream) {
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
      // Ours: all zero.
      {false, {0, 0}, {0, 0}},
      {true, {0, 0}, {100, 100}},
      // Ours: empty list.
      {true, {}, {}},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(i);
    NodeScoreList scores;
    for (int64_t s : cases[i].scores) scores.push_back({"", s});
    DefaultNormalizeScore(kMaxNodeScore, cases[i].reverse, scores);
    std::vector<int64_t> got;
    for (const NodePluginScore& s : scores) got.push_back(s.score);
    EXPECT_EQ(got, cases[i].expected);
  }
}

}  // namespace
}  // namespace schedref::reference::framework::plugins::helper
