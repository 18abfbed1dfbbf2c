// The Fit scoring strategies: LeastAllocated, MostAllocated,
// RequestedToCapacityRatio (the reference's tables, so both implementations
// are held to the same cases).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "optimized/framework/plugins/noderesources/fit.h"
#include "optimized/framework/plugins/noderesources/test_util.h"
#include "testing/st/wrappers.h"

namespace schedref::optimized::framework::plugins::noderesources {
namespace {

using st::MakeNode;
using st::MakePod;
using testutil::kExtendedRes;

struct ScoreCase {
  std::string name;
  api::Pod pod;
  std::vector<api::Node> nodes;
  std::vector<api::Pod> existing;
  std::vector<int64_t> expected;
  std::vector<ResourceSpec> resources;
  Code want_code = Code::kSuccess;
};

void RunScoreCases(const std::string& type, const std::vector<ScoreCase>& cases,
                   const std::vector<UtilizationShapePoint>* shape = nullptr) {
  for (const ScoreCase& tc : cases) {
    SCOPED_TRACE(tc.name);
    NodeResourcesFitArgs args;
    args.scoring_strategy = ScoringStrategy{type, tc.resources, std::nullopt};
    if (shape != nullptr) args.scoring_strategy->shape = *shape;
    Fit plugin(args);
    PodInfoPtr pod = NewPodInfo(tc.pod);
    CycleState state;
    ASSERT_TRUE(plugin.PreScore(state, *pod, {}).IsSuccess());
    std::vector<int64_t> got;
    for (const api::Node& n : tc.nodes) {
      ScoreOutput out = plugin.Score(state, *pod, testutil::NodeInfoFor(n, tc.existing));
      EXPECT_EQ(out.status.code(), tc.want_code);
      got.push_back(out.score);
    }
    EXPECT_EQ(got, tc.expected);
  }
}

api::Node N(const std::string& name, st::ResourceStrings capacity) {
  return MakeNode().Name(name).Capacity(capacity).Obj();
}

const api::Pod kTwoContainers = MakePod()
                                    .Req({{"cpu", "1000"}, {"memory", "2000"}})
                                    .Req({{"cpu", "2000"}, {"memory", "3000"}})
                                    .Obj();

// upstream least_allocated_test.go TestLeastAllocatedScoringStrategy.
TEST(LeastAllocatedTest, Upstream) {
  const auto d = testutil::DefaultResources();
  const std::vector<ScoreCase> cases = {
      {"nothing scheduled, nothing requested", MakePod().Obj(),
       {N("node1", {{"cpu", "4000"}, {"memory", "10000"}}),
        N("node2", {{"cpu", "4000"}, {"memory", "10000"}})},
       {}, {100, 100}, d},
      {"nothing scheduled, resources requested, differently sized nodes",
       kTwoContainers,
       {N("node1", {{"cpu", "4000"}, {"memory", "10000"}}),
        N("node2", {{"cpu", "6000"}, {"memory", "10000"}})},
       {}, {37, 50}, d},
      {"Resources not set, pods scheduled with error", kTwoContainers,
       {N("node1", {{"cpu", "4000"}, {"memory", "10000"}}),
        N("node2", {{"cpu", "6000"}, {"memory", "10000"}})},
       {}, {0, 0}, {}, Code::kError},
      {"no resources requested, pods scheduled", MakePod().Obj(),
       {N("node1", {{"cpu", "4000"}, {"memory", "10000"}}),
        N("node2", {{"cpu", "4000"}, {"memory", "10000"}})},
       {MakePod().Node("node1").Obj(), MakePod().Node("node1").Obj(),
        MakePod().Node("node2").Obj(), MakePod().Node("node2").Obj()},
       {100, 100}, d},
      {"no resources requested, pods scheduled with resources", MakePod().Obj(),
       {N("node1", {{"cpu", "10000"}, {"memory", "20000"}}),
        N("node2", {{"cpu", "10000"}, {"memory", "20000"}})},
       {MakePod().Node("node1").Req({{"cpu", "3000"}, {"memory", "0"}}).Obj(),
        MakePod().Node("node1").Req({{"cpu", "3000"}, {"memory", "0"}}).Obj(),
        MakePod().Node("node2").Req({{"cpu", "3000"}, {"memory", "0"}}).Obj(),
        MakePod().Node("node2").Req({{"cpu", "3000"}, {"memory", "5000"}}).Obj()},
       {70, 57}, d},
      {"resources requested, pods scheduled with resources", kTwoContainers,
       {N("node1", {{"cpu", "10000"}, {"memory", "20000"}}),
        N("node2", {{"cpu", "10000"}, {"memory", "20000"}})},
       {MakePod().Node("node1").Req({{"cpu", "3000"}, {"memory", "0"}}).Obj(),
        MakePod().Node("node2").Req({{"cpu", "3000"}, {"memory", "5000"}}).Obj()},
       {57, 45}, d},
      {"resources requested, pods scheduled with resources, differently sized "
       "nodes",
       kTwoContainers,
       {N("node1", {{"cpu", "10000"}, {"memory", "20000"}}),
        N("node2", {{"cpu", "10000"}, {"memory", "50000"}})},
       {MakePod().Node("node1").Req({{"cpu", "3000"}, {"memory", "0"}}).Obj(),
        MakePod().Node("node2").Req({{"cpu", "3000"}, {"memory", "5000"}}).Obj()},
       {57, 60}, d},
      {"requested resources exceed node capacity",
       MakePod().Req({{"cpu", "3000"}, {"memory", "0"}}).Obj(),
       {N("node1", {{"cpu", "4000"}, {"memory", "10000"}}),
        N("node2", {{"cpu", "4000"}, {"memory", "10000"}})},
       {MakePod().Node("node1").Req({{"cpu", "3000"}, {"memory", "0"}}).Obj(),
        MakePod().Node("node2").Req({{"cpu", "3000"}, {"memory", "5000"}}).Obj()},
       {50, 25}, d},
      {"zero node resources, pods scheduled with resources", MakePod().Obj(),
       {MakeNode().Name("node1").Obj(), MakeNode().Name("node2").Obj()},
       {MakePod().Node("node1").Req({{"cpu", "3000"}, {"memory", "0"}}).Obj(),
        MakePod().Node("node2").Req({{"cpu", "3000"}, {"memory", "5000"}}).Obj()},
       {0, 0}, d},
      {"nothing scheduled, resources requested with different weight on CPU "
       "and memory, differently sized nodes",
       kTwoContainers,
       {N("node1", {{"cpu", "4000"}, {"memory", "10000"}}),
        N("node2", {{"cpu", "6000"}, {"memory", "10000"}})},
       {}, {41, 50}, {{"memory", 2}, {"cpu", 1}}},
      {"bypass extended resource if the pod does not request", kTwoContainers,
       {N("node1", {{"cpu", "6000"}, {"memory", "10000"}}),
        N("node2", {{"cpu", "6000"}, {"memory", "10000"}, {kExtendedRes, "4"}})},
       {}, {50, 50}, testutil::ExtendedResourceSet()},
      {"honor extended resource if the pod requests",
       MakePod().Req({{"cpu", "3000"}, {"memory", "5000"}, {kExtendedRes, "2"}}).Obj(),
       {N("node1", {{"cpu", "6000"}, {"memory", "10000"}, {kExtendedRes, "4"}}),
        N("node2", {{"cpu", "6000"}, {"memory", "10000"}, {kExtendedRes, "10"}})},
       {}, {50, 60}, testutil::ExtendedResourceSet()},
      {"if the node doesn't have a resource",
       MakePod().Req({{"cpu", "3000"}, {"memory", "4000"}}).Obj(),
       {N("node1", {{"cpu", "6000"}, {"memory", "10000"}}),
        N("node2", {{"cpu", "6000"}, {"memory", "10000"}, {kExtendedRes, "4"}})},
       {}, {55, 55}, {{kExtendedRes, 2}, {"cpu", 1}, {"memory", 1}}},
      // Ours: a configured name that is not a scored resource ("pods") and
      // ephemeral-storage (node Requested + pod request): cpu 50, eph 25.
      {"pods never scores; ephemeral-storage does",
       MakePod().Req({{"cpu", "3000"}, {"ephemeral-storage", "10"}}).Obj(),
       {N("node1", {{"cpu", "6000"}, {"ephemeral-storage", "40"}})},
       {MakePod().Node("node1").Req({{"ephemeral-storage", "20"}}).Obj()},
       {37}, {{"cpu", 1}, {"pods", 5}, {"ephemeral-storage", 1}}},
  };
  RunScoreCases(kLeastAllocated, cases);
}

// upstream most_allocated_test.go TestMostAllocatedScoringStrategy.
TEST(MostAllocatedTest, Upstream) {
  const auto d = testutil::DefaultResources();
  const std::vector<ScoreCase> cases = {
      {"nothing scheduled, nothing requested", MakePod().Obj(),
       {N("node1", {{"cpu", "4000"}, {"memory", "10000"}}),
        N("node2", {{"cpu", "4000"}, {"memory", "10000"}})},
       {}, {0, 0}, d},
      {"nothing scheduled, resources requested, differently sized nodes",
       kTwoContainers,
       {N("node1", {{"cpu", "4000"}, {"memory", "10000"}}),
        N("node2", {{"cpu", "6000"}, {"memory", "10000"}})},
       {}, {62, 50}, d},
      {"Resources not set, pods scheduled with error", kTwoContainers,
       {N("node1", {{"cpu", "4000"}, {"memory", "10000"}}),
        N("node2", {{"cpu", "6000"}, {"memory", "10000"}})},
       {}, {0, 0}, {}, Code::kError},
      {"no resources requested, pods scheduled with resources", MakePod().Obj(),
       {N("node1", {{"cpu", "10000"}, {"memory", "20000"}}),
        N("node2", {{"cpu", "10000"}, {"memory", "20000"}})},
       {MakePod().Node("node1").Req({{"cpu", "3000"}, {"memory", "0"}}).Obj(),
        MakePod().Node("node1").Req({{"cpu", "3000"}, {"memory", "0"}}).Obj(),
        MakePod().Node("node2").Req({{"cpu", "3000"}, {"memory", "0"}}).Obj(),
        MakePod().Node("node2").Req({{"cpu", "3000"}, {"memory", "5000"}}).Obj()},
       {30, 42}, d},
      {"resources requested, pods scheduled with resources", kTwoContainers,
       {N("node1", {{"cpu", "10000"}, {"memory", "20000"}}),
        N("node2", {{"cpu", "10000"}, {"memory", "20000"}})},
       {MakePod().Node("node1").Req({{"cpu", "3000"}, {"memory", "0"}}).Obj(),
        MakePod().Node("node2").Req({{"cpu", "3000"}, {"memory", "5000"}}).Obj()},
       {42, 55}, d},
      {"resources requested equal node capacity",
       MakePod()
           .Req({{"cpu", "2000"}, {"memory", "4000"}})
           .Req({{"cpu", "3000"}, {"memory", "5000"}})
           .Obj(),
       {N("node1", {{"cpu", "5000"}, {"memory", "10000"}}),
        N("node2", {{"cpu", "10000"}, {"memory", "9000"}})},
       {}, {95, 75}, d},
      {"nothing scheduled, resources requested, differently sized nodes "
       "(weighted)",
       kTwoContainers,
       {N("node1", {{"cpu", "4000"}, {"memory", "10000"}}),
        N("node2", {{"cpu", "6000"}, {"memory", "10000"}})},
       {}, {58, 50}, {{"memory", 2}, {"cpu", 1}}},
      {"no resources requested, pods scheduled, nonzero request for resource",
       MakePod().Container("container").Obj(),
       {N("node1", {{"cpu", "250m"}, {"memory", "1000Mi"}}),
        N("node2", {{"cpu", "250m"}, {"memory", "1000Mi"}})},
       {MakePod().Node("node1").Container("container").Obj(),
        MakePod().Node("node1").Container("container").Obj()},
       {80, 30}, d},
      {"bypass extended resource if the pod does not request", kTwoContainers,
       {N("node1", {{"cpu", "6000"}, {"memory", "10000"}}),
        N("node2", {{"cpu", "6000"}, {"memory", "10000"}, {kExtendedRes, "4"}})},
       {}, {50, 50}, testutil::ExtendedResourceSet()},
      {"honor extended resource if the pod request",
       MakePod().Req({{"cpu", "3000"}, {"memory", "5000"}, {kExtendedRes, "2"}}).Obj(),
       {N("node1", {{"cpu", "6000"}, {"memory", "10000"}, {kExtendedRes, "4"}}),
        N("node2", {{"cpu", "6000"}, {"memory", "10000"}, {kExtendedRes, "10"}})},
       {}, {50, 40}, testutil::ExtendedResourceSet()},
      {"if the node doesn't have a resource",
       MakePod().Req({{"cpu", "3000"}, {"memory", "4000"}}).Obj(),
       {N("node1", {{"cpu", "6000"}, {"memory", "10000"}}),
        N("node2", {{"cpu", "6000"}, {"memory", "10000"}, {kExtendedRes, "4"}})},
       {}, {45, 45}, {{kExtendedRes, 2}, {"cpu", 1}, {"memory", 1}}},
  };
  RunScoreCases(kMostAllocated, cases);
}

// RequestedToCapacityRatio, shape {0:10, 100:0} (spreading). The first two
// rows are upstream TestRequestedToCapacityRatioScoringStrategy's; the rest
// follow from the formula (resource_allocation.h).
TEST(RequestedToCapacityRatioTest, Spread) {
  const auto d = testutil::DefaultResources();
  const std::vector<UtilizationShapePoint> shape = {{0, 10}, {100, 0}};
  const std::vector<ScoreCase> cases = {
      {"nothing scheduled, nothing requested", MakePod().Obj(),
       {N("node1", {{"cpu", "4000"}, {"memory", "10000"}}),
        N("node2", {{"cpu", "4000"}, {"memory", "10000"}})},
       {}, {100, 100}, d},
      {"nothing scheduled, resources requested, differently sized nodes",
       kTwoContainers,
       {N("node1", {{"cpu", "4000"}, {"memory", "10000"}}),
        N("node2", {{"cpu", "6000"}, {"memory", "10000"}})},
       {}, {38, 50}, d},
      // cpu 100% -> 0 is left out of the average; memory 50% -> 50.
      {"a resource scoring 0 does not count",
       MakePod().Req({{"cpu", "4000"}, {"memory", "5000"}}).Obj(),
       {N("node1", {{"cpu", "4000"}, {"memory", "10000"}})},
       {}, {50}, d},
      // Over capacity counts as 100% utilisation.
      {"over capacity", MakePod().Req({{"cpu", "5000"}, {"memory", "20000"}}).Obj(),
       {N("node1", {{"cpu", "4000"}, {"memory", "10000"}})},
       {}, {0}, d},
  };
  RunScoreCases(kRequestedToCapacityRatio, cases, &shape);
}

// Bin packing shape {0:0, 100:10}, the shape of upstream's
// TestResourceBinPackingSingleExtended, with values from the formula.
TEST(RequestedToCapacityRatioTest, BinPacking) {
  const std::vector<UtilizationShapePoint> shape = {{0, 0}, {100, 10}};
  const std::vector<ScoreCase> cases = {
      {"nothing requested scores 0", MakePod().Obj(),
       {N("node1", {{"cpu", "4000"}, {"memory", "10000"}})},
       {}, {0}, testutil::DefaultResources()},
      // cpu 75 -> 75, memory 50 -> 50: round(125/2) = 63.
      {"rounding", kTwoContainers,
       {N("node1", {{"cpu", "4000"}, {"memory", "10000"}})},
       {}, {63}, testutil::DefaultResources()},
      // Extended resource only, weight 3: 2/4 -> 50.
      {"extended resource", MakePod().Req({{kExtendedRes, "2"}}).Obj(),
       {N("node1", {{kExtendedRes, "4"}})},
       {}, {50}, {{kExtendedRes, 3}}},
      // Weighted: cpu 75 (w 1), memory 50 (w 2): round(175/3) = 58.
      {"weighted rounding", kTwoContainers,
       {N("node1", {{"cpu", "4000"}, {"memory", "10000"}})},
       {}, {58}, {{"cpu", 1}, {"memory", 2}}},
  };
  RunScoreCases(kRequestedToCapacityRatio, cases, &shape);
}

// A shape with several segments (scores 0..10 scaled by 10): cpu 30% on
// {0:0, 20:10, 100:5} -> 100 + (50-100)*(30-20)/80 = 94 (truncated).
TEST(RequestedToCapacityRatioTest, ThreePointShape) {
  const std::vector<UtilizationShapePoint> shape = {{0, 0}, {20, 10}, {100, 5}};
  RunScoreCases(kRequestedToCapacityRatio,
                {{"three points", MakePod().Req({{"cpu", "3"}}).Obj(),
                  {N("node1", {{"cpu", "10"}})}, {}, {94}, {{"cpu", 1}}}},
                &shape);
}

}  // namespace
}  // namespace schedref::optimized::framework::plugins::noderesources
