// InterPodAffinity scoring that this implementation checks on its own;
// upstream's scoring tables run against both implementations from
// testing/upstream/framework/plugins/interpodaffinity/scoring_test.cc.
#include <gtest/gtest.h>

#include <vector>

#include "reference/framework/plugins/interpodaffinity/interpod_affinity.h"
#include "reference/framework/plugins/interpodaffinity/test_util.h"
#include "reference/framework/testing/wrappers.h"

namespace schedref::reference::framework::plugins::interpodaffinity {
namespace {

namespace st = framework::st;
using st::MakeNode;

// Score and NormalizeScore without PreScore state are errors.
TEST(InterPodAffinityScoreTest, MissingState) {
  auto env = SetupPlugin({}, {MakeNode().Name("n").Obj()});
  CycleState state;
  ScoreOutput s = env->plugin->Score(state, st::MakePod().Obj(),
                                     *env->handle.snapshot.Get("n"));
  EXPECT_EQ(s.status, Status::Error("failed to read \"PreScoreInterPodAffinity\""
                                    " from cycleState: not found"));
}

}  // namespace
}  // namespace schedref::reference::framework::plugins::interpodaffinity
