#include "optimized/framework/snapshot.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace schedref::optimized::framework {
namespace {

std::shared_ptr<const api::Node> MakeNode(const std::string& name) {
  auto node = std::make_shared<api::Node>();
  node->name = name;
  return node;
}

// A snapshot of nodes n0..n{count-1} in that order.
void Populate(Snapshot& snapshot, int count) {
  std::vector<std::string> order;
  for (int i = 0; i < count; ++i) {
    order.push_back("n" + std::to_string(i));
    snapshot.Mutable(order.back()).SetNode(MakeNode(order.back()));
  }
  snapshot.Rebuild(order, /*nodes_changed=*/true);
}

std::vector<int32_t> Changed(const Snapshot& snapshot, int64_t since, bool* known) {
  std::vector<int32_t> out;
  *known = snapshot.ChangedSince(since, &out);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

TEST(SnapshotChangeLogTest, NamesThePositionsHandedOutSinceARebuild) {
  Snapshot snapshot;
  Populate(snapshot, 5);
  const int64_t after_build = snapshot.rebuilds();
  bool known = false;
  EXPECT_TRUE(Changed(snapshot, after_build, &known).empty());
  EXPECT_TRUE(known);

  snapshot.Mutable("n3");
  snapshot.Rebuild({}, false);
  const int64_t after_first = snapshot.rebuilds();
  snapshot.Mutable("n1");
  snapshot.Mutable("n3");
  snapshot.Rebuild({}, false);
  snapshot.Rebuild({}, false);  // nothing handed out

  struct Case {
    const char* name;
    int64_t since;
    bool known;
    std::vector<int32_t> positions;
  };
  const Case cases[] = {
      {"since the build", after_build, true, {1, 3}},
      {"since the first change", after_first, true, {1, 3}},
      {"since the last rebuild", snapshot.rebuilds(), true, {}},
      {"before the node list was built", after_build - 1, false, {}},
      {"a rebuild that has not happened", snapshot.rebuilds() + 1, false, {}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<int32_t> got = Changed(snapshot, c.since, &known);
    EXPECT_EQ(known, c.known);
    if (c.known) {
      EXPECT_EQ(got, c.positions);
    }
  }
  // Only the positions after `since` are named.
  snapshot.Mutable("n4");
  snapshot.Rebuild({}, false);
  EXPECT_EQ(Changed(snapshot, after_first + 2, &known), std::vector<int32_t>{4});
}

TEST(SnapshotChangeLogTest, ANodeListRebuildForgetsThePast) {
  Snapshot snapshot;
  Populate(snapshot, 3);
  const int64_t before = snapshot.rebuilds();
  snapshot.Mutable("n0");
  snapshot.Rebuild({"n2", "n1", "n0"}, /*nodes_changed=*/true);  // positions move
  bool known = true;
  Changed(snapshot, before, &known);
  EXPECT_FALSE(known);
  EXPECT_TRUE(Changed(snapshot, snapshot.rebuilds(), &known).empty());
  EXPECT_TRUE(known);
}

TEST(SnapshotChangeLogTest, TheLogIsBounded) {
  Snapshot snapshot;
  Populate(snapshot, 2);
  const int64_t start = snapshot.rebuilds();
  // Far more changes than the log keeps: the start is out of reach, a
  // recent rebuild is not.
  for (int i = 0; i < 40000; ++i) {
    snapshot.Mutable(i % 2 == 0 ? "n0" : "n1");
    snapshot.Rebuild({}, false);
  }
  bool known = true;
  Changed(snapshot, start, &known);
  EXPECT_FALSE(known);
  EXPECT_EQ(Changed(snapshot, snapshot.rebuilds() - 1, &known), std::vector<int32_t>{1});
  EXPECT_TRUE(known);
}

TEST(SnapshotNameRanksTest, RankEachPositionByNameAndFollowListChanges) {
  Snapshot snapshot;
  // Node-tree order is not name order.
  const std::vector<std::string> order = {"n2", "n10", "a", "n1"};
  for (const std::string& name : order) snapshot.Mutable(name).SetNode(MakeNode(name));
  snapshot.Rebuild(order, /*nodes_changed=*/true);
  // a < n1 < n10 < n2
  EXPECT_EQ(snapshot.NameRanks(), (std::vector<int32_t>{3, 2, 0, 1}));
  // Pods moving keeps the list and so the ranks.
  snapshot.Mutable("n10");
  snapshot.Rebuild({}, /*nodes_changed=*/false);
  EXPECT_EQ(snapshot.NameRanks(), (std::vector<int32_t>{3, 2, 0, 1}));
  // A list change is followed.
  snapshot.Erase("a");
  snapshot.Mutable("m").SetNode(MakeNode("m"));
  snapshot.Rebuild({"m", "n2", "n10", "n1"}, /*nodes_changed=*/true);
  EXPECT_EQ(snapshot.NameRanks(), (std::vector<int32_t>{0, 3, 2, 1}));
}

// Every block's summary, recomputed from the list.
std::vector<HotSummary> Recomputed(const Snapshot& snapshot) {
  std::vector<HotSummary> out;
  const std::vector<NodeInfo*>& list = snapshot.List();
  for (size_t i = 0; i < list.size(); ++i) {
    if (i % Snapshot::kSummaryBlock == 0) out.emplace_back();
    out.back().Add(list[i]->hot());
  }
  return out;
}

std::shared_ptr<const api::Node> NodeWithCpu(const std::string& name, int64_t milli_cpu) {
  auto node = std::make_shared<api::Node>();
  node->name = name;
  node->allocatable = {{"cpu", milli_cpu}, {"memory", 1 << 30}, {"pods", 110}};
  return node;
}

PodInfoPtr PodAsking(const std::string& name, int64_t milli_cpu) {
  api::Pod pod;
  pod.name = name;
  pod.uid = name;
  pod.containers.emplace_back();
  pod.containers.back().requests = {{"cpu", milli_cpu}};
  return NewPodInfo(std::move(pod));
}

TEST(SnapshotHotSummaryTest, FollowsEveryChangeTheRebuildIsToldOf) {
  Snapshot snapshot;
  const size_t block = Snapshot::kSummaryBlock;
  const int count = static_cast<int>(2 * block + 5);  // two full blocks and a short one
  std::vector<std::string> order;
  for (int i = 0; i < count; ++i) {
    order.push_back("n" + std::to_string(i));
    snapshot.Mutable(order.back()).SetNode(NodeWithCpu(order.back(), 4000));
  }
  snapshot.Rebuild(order, /*nodes_changed=*/true);
  ASSERT_EQ(snapshot.HotSummaries().size(), 3u);
  EXPECT_EQ(snapshot.HotSummaries(), Recomputed(snapshot));
  EXPECT_EQ(snapshot.HotSummaries()[1].min_free_milli_cpu, 4000);
  EXPECT_EQ(snapshot.HotSummaries()[1].min_free_pods, 110);

  // A pod on a node of the middle block: only that block's room shrinks.
  const std::string middle = order[block + 3];
  snapshot.Mutable(middle).AddPod(PodAsking("p", 1500));
  snapshot.Rebuild({}, /*nodes_changed=*/false);
  EXPECT_EQ(snapshot.HotSummaries(), Recomputed(snapshot));
  EXPECT_EQ(snapshot.HotSummaries()[0].min_free_milli_cpu, 4000);
  EXPECT_EQ(snapshot.HotSummaries()[1].min_free_milli_cpu, 2500);
  EXPECT_EQ(snapshot.HotSummaries()[1].min_free_pods, 109);

  // An unschedulable node in the short block: its flags, nobody else's.
  auto cordoned = std::make_shared<api::Node>(*NodeWithCpu(order.back(), 4000));
  cordoned->unschedulable = true;
  snapshot.Mutable(order.back()).SetNode(cordoned);
  snapshot.Rebuild({}, /*nodes_changed=*/false);
  EXPECT_EQ(snapshot.HotSummaries(), Recomputed(snapshot));
  EXPECT_NE(snapshot.HotSummaries()[2].any_flags & NodeInfo::kUnschedulable, 0u);
  EXPECT_EQ(snapshot.HotSummaries()[2].all_flags & NodeInfo::kUnschedulable, 0u);
  EXPECT_EQ(snapshot.HotSummaries()[1].any_flags & NodeInfo::kUnschedulable, 0u);
  EXPECT_EQ(snapshot.AnyHotFlags(), NodeInfo::kHasNode | NodeInfo::kUnschedulable);

  // A node list change (an erasure) regroups every block.
  snapshot.Erase(order[0]);
  order.erase(order.begin());
  snapshot.Rebuild(order, /*nodes_changed=*/true);
  EXPECT_EQ(snapshot.HotSummaries(), Recomputed(snapshot));
  EXPECT_EQ(snapshot.HotSummaries()[1].min_free_milli_cpu, 2500);  // n35 moved to 34
}

TEST(SnapshotHotSummaryTest, NodeGivingRoomBackRaisesItsBlocksMinimum) {
  Snapshot snapshot;
  std::vector<std::string> order;
  for (int i = 0; i < 3; ++i) {
    order.push_back("n" + std::to_string(i));
    snapshot.Mutable(order.back()).SetNode(NodeWithCpu(order.back(), 4000));
  }
  snapshot.Rebuild(order, /*nodes_changed=*/true);
  snapshot.Mutable("n1").AddPod(PodAsking("p", 3000));
  snapshot.Rebuild({}, /*nodes_changed=*/false);
  EXPECT_EQ(snapshot.HotSummaries()[0].min_free_milli_cpu, 1000);
  // Lowering in place cannot follow a node that regains room.
  ASSERT_TRUE(snapshot.Mutable("n1").RemovePod("p"));
  snapshot.Rebuild({}, /*nodes_changed=*/false);
  EXPECT_EQ(snapshot.HotSummaries()[0].min_free_milli_cpu, 4000);
  // Handed out twice before one rebuild: room taken, given back, taken
  // again less; the first hand-out's line is what the summary was built from.
  snapshot.Mutable("n2").AddPod(PodAsking("q", 2000));
  snapshot.Mutable("n2").AddPod(PodAsking("r", 1000));
  ASSERT_TRUE(snapshot.Mutable("n2").RemovePod("q"));
  snapshot.Rebuild({}, /*nodes_changed=*/false);
  EXPECT_EQ(snapshot.HotSummaries(), Recomputed(snapshot));
  EXPECT_EQ(snapshot.HotSummaries()[0].min_free_milli_cpu, 3000);
}

// The union of every recomputed summary's flags.
uint32_t RecomputedAnyFlags(const Snapshot& snapshot) {
  uint32_t any = 0;
  for (const HotSummary& s : Recomputed(snapshot)) any |= s.any_flags;
  return any;
}

// Any sequence of pods added to and removed from nodes and of nodes
// cordoned and uncordoned, several hand-outs between rebuilds: every
// summary equals the one recomputed from the list, and so does the union
// of their flags.
RC_GTEST_PROP(SnapshotHotSummaryProperty, EqualsRecomputationAfterAnyPodChanges, ()) {
  Snapshot snapshot;
  const int count = *rc::gen::inRange(1, 3 * static_cast<int>(Snapshot::kSummaryBlock));
  std::vector<std::string> order;
  for (int i = 0; i < count; ++i) {
    order.push_back("n" + std::to_string(i));
    snapshot.Mutable(order.back()).SetNode(NodeWithCpu(order.back(), 4000));
  }
  snapshot.Rebuild(order, /*nodes_changed=*/true);
  std::vector<std::vector<std::string>> pods_on(order.size());
  int next_pod = 0;
  const int rebuilds = *rc::gen::inRange(1, 12);
  for (int r = 0; r < rebuilds; ++r) {
    const int changes = *rc::gen::inRange(0, 6);
    for (int c = 0; c < changes; ++c) {
      const size_t node = *rc::gen::inRange<size_t>(0, order.size());
      NodeInfo& info = snapshot.Mutable(order[node]);
      if (*rc::gen::inRange(0, 4) == 0) {
        auto changed = std::make_shared<api::Node>(*info.node());
        changed->unschedulable = !changed->unschedulable;
        info.SetNode(changed);
      } else if (!pods_on[node].empty() && *rc::gen::arbitrary<bool>()) {
        RC_ASSERT(info.RemovePod(pods_on[node].back()));
        pods_on[node].pop_back();
      } else {
        pods_on[node].push_back("p" + std::to_string(next_pod++));
        info.AddPod(PodAsking(pods_on[node].back(), *rc::gen::inRange<int64_t>(0, 1500)));
      }
    }
    snapshot.Rebuild({}, /*nodes_changed=*/false);
    RC_ASSERT(snapshot.HotSummaries() == Recomputed(snapshot));
    RC_ASSERT(snapshot.AnyHotFlags() == RecomputedAnyFlags(snapshot));
  }
}

}  // namespace
}  // namespace schedref::optimized::framework
