#include "optimized/framework/snapshot.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace schedref::optimized::framework
