// InterPodAffinity scoring that this implementation checks on its own;
// upstream's scoring tables run against both implementations from
// testing/upstream/framework/plugins/interpodaffinity/scoring_test.cc.
#include <gtest/gtest.h>

#include <vector>

#include "optimized/framework/plugins/interpodaffinity/interpod_affinity.h"
#include "optimized/framework/plugins/interpodaffinity/test_util.h"
#include "testing/st/wrappers.h"

namespace schedref::optimized::framework::plugins::interpodaffinity {
namespace {

using st::MakeNode;

// Score and NormalizeScore without PreScore state are errors.
TEST(InterPodAffinityScoreTest, MissingState) {
  auto env = SetupPlugin({}, {MakeNode().Name("n").Obj()});
  CycleState state;
  const PodInfoPtr pod = NewPodInfo(st::MakePod().Obj());
  ScoreOutput s = env->plugin->Score(state, *pod, env->Node("n"));
  const Status missing = Status::Error(
      "failed to read \"PreScoreInterPodAffinity\" from cycleState: not found");
  EXPECT_EQ(s.status, missing);
  std::vector<int64_t> scores = {1};
  EXPECT_EQ(env->plugin->NormalizeScore(state, *pod, {&env->Node("n")}, scores),
            missing);
}

}  // namespace
}  // namespace schedref::optimized::framework::plugins::interpodaffinity
