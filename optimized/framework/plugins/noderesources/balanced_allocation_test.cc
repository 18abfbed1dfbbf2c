#include "optimized/framework/plugins/noderesources/balanced_allocation.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "optimized/framework/plugins/noderesources/test_util.h"
#include "optimized/framework/testing/fixtures.h"
#include "testing/st/wrappers.h"

namespace schedref::optimized::framework::plugins::noderesources {
namespace {

using st::MakeNode;
using st::MakePod;

api::Node MakeNodeCpuMem(const std::string& name, const std::string& milli_cpu,
                         const std::string& memory) {
  return MakeNode().Name(name).Capacity({{"cpu", milli_cpu + "m"}, {"memory", memory}}).Obj();
}

NodeResourcesBalancedAllocationArgs Args(std::vector<ResourceSpec> resources = {}) {
  NodeResourcesBalancedAllocationArgs args;
  args.resources = std::move(resources);
  api::pluginargs::SetDefaults(args);
  return args;
}

// Scores of `pod` on each node (holding its pods of `pods`), after PreScore.
std::vector<int64_t> Scores(const NodeResourcesBalancedAllocationArgs& args,
                            const api::Pod& pod, const std::vector<api::Node>& nodes,
                            const std::vector<api::Pod>& pods = {},
                            bool run_pre_score = true) {
  BalancedAllocation plugin(args);
  PodInfoPtr info = NewPodInfo(pod);
  CycleState state;
  if (run_pre_score) {
    EXPECT_TRUE(plugin.PreScore(state, *info, {}).IsSuccess());
  }
  std::vector<int64_t> got;
  for (const api::Node& n : nodes) {
    ScoreOutput out = plugin.Score(state, *info, testutil::NodeInfoFor(n, pods));
    EXPECT_TRUE(out.status.IsSuccess());
    got.push_back(out.score);
  }
  return got;
}

// The cases of upstream balanced_allocation_test.go
// TestNodeResourcesBalancedAllocation that request resources, with v1.32's
// formula (the reference's table).
TEST(BalancedAllocationTest, UpstreamScores) {
  const api::Pod cpu_and_memory = MakePod()
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
      // Ours: actual requests, not the non-zero defaults: an existing pod
      // without requests adds nothing (cpu 1/4, memory 0/10 -> 87).
      {"pods without requests count as zero",
       MakePod().Req({{"cpu", "1000m"}}).Obj(),
       {on(MakePod().Container("img").Obj(), "machine1")},
       {MakeNodeCpuMem("machine1", "4000", "10000")},
       {87}},
  };
  for (const Case& tc : cases) {
    for (bool run_pre_score : {true, false}) {
      SCOPED_TRACE(tc.name + (run_pre_score ? "" : " without PreScore"));
      EXPECT_EQ(Scores(Args(), tc.pod, tc.nodes, tc.pods, run_pre_score), tc.expected);
    }
  }
}

// v1.32: a pod requesting none of the resources is not scored (Skip), and
// the non-zero defaults are not used (a container without requests counts
// as 0).
// v1.32 scores pods that request nothing of the configured resources
// (v1.33's PR #130260 skips them).
TEST(BalancedAllocationTest, BestEffortPodsAreScored) {
  BalancedAllocation plugin(Args());
  for (const api::Pod& pod :
       {MakePod().Obj(), MakePod().Container("img").Obj(),
        MakePod().Req({{"cpu", "1m"}}).Obj(),
        MakePod().Req({{"ephemeral-storage", "1"}}).Obj()}) {
    CycleState state;
    EXPECT_TRUE(plugin.PreScore(state, *NewPodInfo(pod), {}).IsSuccess());
  }
  // A best-effort pod is scored by the node's own balance: empty -> 100.
  EXPECT_EQ(Scores(Args(), MakePod().Obj(), {MakeNodeCpuMem("n", "4000", "10")}),
            std::vector<int64_t>{100});
}

// A configured name that never scores ("storage" is neither native-scored
// nor scalar) still makes a pod requesting it not best effort, as upstream
// reads the pod's full request list.
TEST(BalancedAllocationTest, UnscoredNameCountsForBestEffort) {
  const auto args = Args({{"cpu", 1}, {"storage", 1}});
  BalancedAllocation plugin(args);
  CycleState state;
  EXPECT_TRUE(plugin.PreScore(state, *NewPodInfo(MakePod().Req({{"storage", "1"}}).Obj()), {})
                  .IsSuccess());
  EXPECT_TRUE(plugin.PreScore(state, *NewPodInfo(MakePod().Req({{"memory", "1"}}).Obj()), {})
                  .IsSuccess());
  // Only cpu scores: one fraction -> std 0 -> 100.
  EXPECT_EQ(Scores(args, MakePod().Req({{"storage", "1"}}).Obj(),
                   {MakeNodeCpuMem("n", "4000", "10")}),
            std::vector<int64_t>{100});
}

// Three resources use the population standard deviation; fewer than two
// fractions give 100 (the reference's BalancedResourceScore rows, through
// nodes).
TEST(BalancedAllocationTest, FractionCounts) {
  const auto three = Args({{"cpu", 1}, {"memory", 1}, {"ephemeral-storage", 1}});
  // 1/4, 2/4, 3/4 -> std sqrt(1/24) -> int(79.58) = 79.
  EXPECT_EQ(Scores(three,
                   MakePod().Req({{"cpu", "1m"}, {"memory", "2"}, {"ephemeral-storage", "3"}})
                       .Obj(),
                   {MakeNode().Name("n").Capacity({{"cpu", "4m"}, {"memory", "4"},
                                                   {"ephemeral-storage", "4"}})
                        .Obj()}),
            std::vector<int64_t>{79});
  // Equal fractions.
  EXPECT_EQ(Scores(Args(), MakePod().Req({{"cpu", "1m"}, {"memory", "1"}}).Obj(),
                   {MakeNode().Name("n").Capacity({{"cpu", "2m"}, {"memory", "2"}}).Obj()}),
            std::vector<int64_t>{100});
  // One resource configured.
  EXPECT_EQ(Scores(Args({{"cpu", 1}}), MakePod().Req({{"cpu", "1m"}}).Obj(),
                   {MakeNode().Name("n").Capacity({{"cpu", "2m"}}).Obj()}),
            std::vector<int64_t>{100});
  // A resource with allocatable 0 is left out: one fraction remains.
  EXPECT_EQ(Scores(Args(), MakePod().Req({{"cpu", "1m"}, {"memory", "5"}}).Obj(),
                   {MakeNode().Name("n").Capacity({{"memory", "10"}}).Obj()}),
            std::vector<int64_t>{100});
  // Over capacity clamps the fraction to 1: cpu 1, memory 0.5 -> 75.
  EXPECT_EQ(Scores(Args(), MakePod().Req({{"cpu", "8m"}, {"memory", "5"}}).Obj(),
                   {MakeNode().Name("n").Capacity({{"cpu", "4m"}, {"memory", "10"}}).Obj()}),
            std::vector<int64_t>{75});
  // An extended resource the pod asks for joins the fractions: cpu 1/4,
  // memory 1/4, gpu 2/2 -> mean 0.5, std sqrt(0.125) -> 64.
  EXPECT_EQ(Scores(Args({{"cpu", 1}, {"memory", 1}, {"example.com/gpu", 1}}),
                   MakePod().Req({{"cpu", "1m"}, {"memory", "1"}, {"example.com/gpu", "2"}})
                       .Obj(),
                   {MakeNode().Name("n").Capacity({{"cpu", "4m"}, {"memory", "4"},
                                                   {"example.com/gpu", "2"}})
                        .Obj()}),
            std::vector<int64_t>{64});
}

TEST(BalancedAllocationTest, NewDecodesArgs) {
  auto plugin = BalancedAllocation::New(nlohmann::json::object(), nullptr);
  ASSERT_TRUE(plugin.ok());
  EXPECT_EQ((*plugin)->Name(), "NodeResourcesBalancedAllocation");
  // Weights must be 1.
  auto bad = BalancedAllocation::New(
      nlohmann::json::parse(R"({"resources": [{"name": "cpu", "weight": 2}]})"), nullptr);
  EXPECT_FALSE(bad.ok());
}

}  // namespace
}  // namespace schedref::optimized::framework::plugins::noderesources
