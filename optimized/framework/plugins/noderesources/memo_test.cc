// The scorers' memo by snapshot position (ResourceAllocationScorer::
// ScoresByPosition): when it is offered, and that it always holds what
// Score says, through node changes and pod shape changes.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "optimized/framework/plugins/noderesources/balanced_allocation.h"
#include "optimized/framework/plugins/noderesources/fit.h"
#include "optimized/framework/plugins/noderesources/test_util.h"
#include "optimized/framework/testing/fixtures.h"
#include "testing/st/wrappers.h"

namespace schedref::optimized::framework::plugins::noderesources {
namespace {

using st::MakeNode;
using st::MakePod;

// A snapshot as the cache keeps it (cache-wide generations), behind a
// handle.
struct Cluster {
  testing::FakeHandle handle;
  Snapshot* snapshot = nullptr;
  int64_t generation = 0;
  std::vector<std::string> order;

  explicit Cluster(int nodes) {
    auto s = std::make_unique<Snapshot>();
    snapshot = s.get();
    handle.SetSnapshot(std::move(s));
    for (int i = 0; i < nodes; ++i) {
      order.push_back("n" + std::to_string(i));
      NodeInfo& info = snapshot->Mutable(order.back());
      info.SetNode(std::make_shared<api::Node>(
          MakeNode()
              .Name(order.back())
              .Capacity({{"cpu", std::to_string(2000 + 500 * i) + "m"}, {"memory", "8Gi"},
                         {"pods", "110"}})
              .Obj()));
      info.generation = ++generation;
    }
    Publish(true);
  }
  void Publish(bool nodes_changed) {
    snapshot->Rebuild(nodes_changed ? order : std::vector<std::string>{}, nodes_changed);
    snapshot->generation = generation;
  }
  void AddPod(const std::string& node, const api::Pod& pod) {
    NodeInfo& info = snapshot->Mutable(node);
    info.AddPod(NewPodInfo(pod));
    info.generation = ++generation;
    Publish(false);
  }
};

api::Pod Asking(const std::string& name, const std::string& cpu) {
  return MakePod().Name(name).Req({{"cpu", cpu}, {"memory", "1Gi"}}).Obj();
}

// Runs one cycle's PreScore for `pod` and returns the plugin's scores by
// position, after checking each against Score (nullptr: not offered).
template <typename Plugin>
const uint8_t* Cycle(Plugin& plugin, const Cluster& c, const api::Pod& pod) {
  PodInfoPtr info = NewPodInfo(pod);
  CycleState state;
  EXPECT_TRUE(plugin.PreScore(state, *info, {}).IsSuccess());
  const uint8_t* by_position = plugin.ScoresByPosition(state);
  if (by_position == nullptr) return nullptr;
  const std::vector<NodeInfo*>& list = c.snapshot->List();
  for (size_t pos = 0; pos < list.size(); ++pos) {
    ScoreOutput out = plugin.Score(state, *info, *list[pos]);
    EXPECT_TRUE(out.status.IsSuccess());
    EXPECT_EQ(by_position[pos], out.score) << pod.name << " at position " << pos;
  }
  return by_position;
}

template <typename Plugin>
void CheckMemo(Plugin& plugin, Cluster& c) {
  const api::Pod a = Asking("a", "500m"), b = Asking("b", "700m");
  // A pod shape seen for the first time: scored node by node.
  EXPECT_EQ(Cycle(plugin, c, a), nullptr);
  // From the second time on: every position.
  EXPECT_NE(Cycle(plugin, c, a), nullptr);
  // A node that changed is brought up to date.
  c.AddPod("n3", Asking("x", "900m"));
  EXPECT_NE(Cycle(plugin, c, a), nullptr);
  // Another shape: node by node, then by position; the first one is kept.
  EXPECT_EQ(Cycle(plugin, c, b), nullptr);
  EXPECT_NE(Cycle(plugin, c, b), nullptr);
  c.AddPod("n1", Asking("y", "300m"));
  EXPECT_NE(Cycle(plugin, c, a), nullptr);
  // Four more shapes push the first out (four are kept).
  for (const char* cpu : {"1", "2", "3", "4"}) EXPECT_EQ(Cycle(plugin, c, Asking("p", cpu)), nullptr);
  EXPECT_EQ(Cycle(plugin, c, a), nullptr);
  // A new node list: every position is looked at again.
  c.order.push_back("late");
  NodeInfo& late = c.snapshot->Mutable("late");
  late.SetNode(std::make_shared<api::Node>(
      MakeNode().Name("late").Capacity({{"cpu", "1"}, {"memory", "1Gi"}, {"pods", "110"}}).Obj()));
  late.generation = ++c.generation;
  c.Publish(true);
  EXPECT_NE(Cycle(plugin, c, a), nullptr);
}

TEST(ScoresByPositionTest, LeastAllocatedFollowsNodesAndShapes) {
  Cluster c(40);
  NodeResourcesFitArgs args;
  args.scoring_strategy = ScoringStrategy{"LeastAllocated", testutil::DefaultResources(), {}};
  Fit plugin(args, &c.handle);
  CheckMemo(plugin, c);
}

TEST(ScoresByPositionTest, BalancedAllocationFollowsNodesAndShapes) {
  Cluster c(40);
  NodeResourcesBalancedAllocationArgs args;
  args.resources = testutil::DefaultResources();
  BalancedAllocation plugin(args, &c.handle);
  CheckMemo(plugin, c);
}

TEST(ScoresByPositionTest, NotOfferedWithoutAHandle) {
  NodeResourcesFitArgs args;
  args.scoring_strategy = ScoringStrategy{"LeastAllocated", testutil::DefaultResources(), {}};
  Fit plugin(args);
  PodInfoPtr pod = NewPodInfo(Asking("a", "1"));
  for (int cycle = 0; cycle < 3; ++cycle) {
    CycleState state;
    ASSERT_TRUE(plugin.PreScore(state, *pod, {}).IsSuccess());
    EXPECT_EQ(plugin.ScoresByPosition(state), nullptr);
  }
}

}  // namespace
// PreScore's per-pod part is shared between pods of one shape: the same
// object for equal request lists, a new one when the list changes, and
// always what PodRequestList and Relevant give.
TEST(SharedRelevantTest, TheSameObjectForTheSameRequests) {
  for (ScoringKind kind : {ScoringKind::kLeastAllocated, ScoringKind::kBalancedAllocation}) {
    ResourceAllocationScorer scorer(kind, {{"cpu", 1}, {"memory", 1}, {"example.com/gpu", 2}});
    const PodInfoPtr small_a = NewPodInfo(MakePod().Name("a").Req({{"cpu", "100m"}}).Obj());
    const PodInfoPtr small_b = NewPodInfo(MakePod().Name("b").Req({{"cpu", "100m"}}).Obj());
    const PodInfoPtr gpu =
        NewPodInfo(MakePod().Name("g").Req({{"cpu", "100m"}, {"example.com/gpu", "1"}}).Obj());
    std::vector<std::shared_ptr<const std::vector<PodResource>>> got;
    for (const PodInfoPtr& pod : {small_a, small_b, gpu, small_a}) {
      EXPECT_EQ(scorer.PodRequests(*pod), scorer.PodRequestList(*pod)) << pod->key;
      got.push_back(scorer.SharedRelevant());
      EXPECT_EQ(*got.back(), scorer.Relevant(scorer.PodRequestList(*pod))) << pod->key;
    }
    EXPECT_EQ(got[0], got[1]);  // equal requests: shared
    EXPECT_NE(got[1], got[2]);  // the gpu makes another shape
    EXPECT_NE(got[2], got[3]);
    EXPECT_EQ(got[2]->size(), 3u);
    EXPECT_EQ(got[3]->size(), 2u);  // an unrequested scalar does not count
  }
}

}  // namespace schedref::optimized::framework::plugins::noderesources
