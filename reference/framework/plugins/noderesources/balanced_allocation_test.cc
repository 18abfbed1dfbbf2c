#include "reference/framework/plugins/noderesources/balanced_allocation.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "reference/framework/plugins/noderesources/test_util.h"
#include "reference/framework/testing/wrappers.h"

namespace schedref::reference::framework::plugins::noderesources {
namespace {

using st::MakeNode;
using st::MakePod;

api::Node MakeNodeCpuMem(const std::string& name, const std::string& milli_cpu,
                         const std::string& memory) {
  return MakeNode().Name(name).Capacity({{"cpu", milli_cpu + "m"},
                                         {"memory", memory}})
      .Obj();
}

NodeResourcesBalancedAllocationArgs DefaultArgs() {
  NodeResourcesBalancedAllocationArgs args;
  SetDefaults(args);
  return args;
}

// The cases of upstream balanced_allocation_test.go
// TestNodeResourcesBalancedAllocation that request resources (read at
// f0032816cae31e46af116d0e13e6151cac8eb638, an old version scoring
// 100*(1 - |f1 - f2|)); the expectations are recomputed with v1.32's
// formula, std = |f1 - f2| / 2, as v1.32's own table does.
TEST(BalancedAllocationTest, UpstreamScores) {
  const api::Pod cpu_and_memory =
      MakePod()
          .Req({{"cpu", "1000m"}, {"memory", "2000"}})
          .Req({{"cpu", "2000m"}, {"memory", "3000"}})
          .Obj();
  const api::Pod cpu_only = MakePod()
                                .Req({{"cpu", "1000m"}, {"memory", "0"}})
                                .Req({{"cpu", "2000m"}, {"memory", "0"}})
                                .Obj();
  auto on = [](api::Pod p, const std::string& node) {
    p.node_name = node;
    return p;
  };
  struct Case {
    std::string name;
    api::Pod pod;
    std::vector<api::Pod> pods;
    std::vector<api::Node> nodes;
    std::vector<int64_t> expected;
  };
  const std::vector<Case> cases = {
      {"nothing scheduled, resources requested, differently sized machines",
       cpu_and_memory,
       {},
       {MakeNodeCpuMem("machine1", "4000", "10000"),
        MakeNodeCpuMem("machine2", "6000", "10000")},
       {87, 100}},
      {"resources requested, pods scheduled with resources", cpu_and_memory,
       {on(cpu_only, "machine1"), on(cpu_and_memory, "machine2")},
       {MakeNodeCpuMem("machine1", "10000", "20000"),
        MakeNodeCpuMem("machine2", "10000", "20000")},
       {82, 95}},
      {"resources requested, pods scheduled with resources, differently sized "
       "machines",
       cpu_and_memory,
       {on(cpu_only, "machine1"), on(cpu_and_memory, "machine2")},
       {MakeNodeCpuMem("machine1", "10000", "20000"),
        MakeNodeCpuMem("machine2", "10000", "50000")},
       {82, 80}},
      {"requested resources exceed node capacity", cpu_only,
       {on(cpu_only, "machine1"), on(cpu_and_memory, "machine2")},
       {MakeNodeCpuMem("machine1", "4000", "10000"),
        MakeNodeCpuMem("machine2", "4000", "10000")},
       {50, 75}},
  };
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    BalancedAllocation plugin(DefaultArgs());
    CycleState state;
    ASSERT_TRUE(plugin.PreScore(state, tc.pod, {}).IsSuccess());
    std::vector<int64_t> got;
    for (const api::Node& n : tc.nodes) {
      ScoreOutput out =
          plugin.Score(state, tc.pod, testutil::NodeInfoFor(n, tc.pods));
      ASSERT_TRUE(out.status.IsSuccess());
      got.push_back(out.score);
    }
    EXPECT_EQ(got, tc.expected);
  }
}

// v1.32: a pod requesting none of the resources is not scored (Skip), and
// the non-zero defaults are not used (a container without requests counts
// as 0).
// v1.32 scores pods that request nothing (v1.33's PR #130260 skips them).
TEST(BalancedAllocationTest, BestEffortPodsAreScored) {
  BalancedAllocation plugin(DefaultArgs());
  for (const api::Pod& pod :
       {MakePod().Obj(), MakePod().Container("img").Obj(),
        MakePod().Req({{"cpu", "1m"}}).Obj()}) {
    CycleState state;
    EXPECT_TRUE(plugin.PreScore(state, pod, {}).IsSuccess());
  }
}

// Ours: three resources use the population standard deviation.
TEST(BalancedAllocationTest, ThreeResources) {
  EXPECT_EQ(BalancedResourceScore({1, 2, 3}, {4, 4, 4}), 79);
  EXPECT_EQ(BalancedResourceScore({1, 1}, {2, 2}), 100);
  EXPECT_EQ(BalancedResourceScore({1}, {2}), 100);
  EXPECT_EQ(BalancedResourceScore({1, 5}, {0, 10}), 100);
}

}  // namespace
}  // namespace schedref::reference::framework::plugins::noderesources
