#include "optimized/framework/plugins/helper/node_memo.h"

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "optimized/framework/snapshot.h"
#include "optimized/framework/types.h"

namespace schedref::optimized::framework::plugins::helper {
namespace {

// A snapshot as the cache keeps it: cache-wide generations.
struct CacheLike {
  Snapshot snapshot;
  int64_t generation = 0;

  NodeInfo& Touch(const std::string& name) {
    NodeInfo& info = snapshot.Mutable(name);
    if (info.node() == nullptr) {
      auto node = std::make_shared<api::Node>();
      node->name = name;
      info.SetNode(std::move(node));
    }
    info.generation = ++generation;
    return info;
  }
  void Publish(const std::vector<std::string>& order, bool nodes_changed) {
    snapshot.Rebuild(order, nodes_changed);
    snapshot.generation = generation;
  }
};

PodInfoPtr Pod(const std::string& name) {
  api::Pod pod;
  pod.name = name;
  pod.ns = "default";
  pod.uid = name;
  return NewPodInfo(std::move(pod));
}

TEST(NodeMemoTest, SlotsStayFreshUntilTheirNodeChanges) {
  CacheLike cache;
  cache.Touch("a");
  cache.Touch("b");
  cache.Publish({"a", "b"}, true);
  NodeMemo memo;
  memo.Begin(cache.snapshot);
  ASSERT_EQ(memo.size(), 2u);
  const std::vector<NodeInfo*>& list = cache.snapshot.List();
  EXPECT_FALSE(memo.Fresh(0, *list[0]));
  memo.Set(0, *list[0]);
  memo.Set(1, *list[1]);
  EXPECT_TRUE(memo.Fresh(0, *list[0]));

  // A pod lands on b: only b's slot goes stale.
  cache.Touch("b").AddPod(Pod("p"));
  cache.snapshot.Mutable("b").generation = cache.generation;
  cache.Publish({}, false);
  memo.Begin(cache.snapshot);
  EXPECT_TRUE(memo.Fresh(0, *list[0]));
  EXPECT_FALSE(memo.Fresh(1, *list[1]));
  // A node at another position is never fresh for this slot.
  EXPECT_FALSE(memo.Fresh(0, *list[1]));
}

TEST(NodeMemoTest, ForgetsOnAnotherSnapshotOrGoingBack) {
  struct Case {
    std::string name;
    bool other_snapshot;
    bool go_back;
  };
  for (const Case& c : std::vector<Case>{{"same snapshot", false, false},
                                         {"another snapshot", true, false},
                                         {"generation went back", false, true}}) {
    SCOPED_TRACE(c.name);
    CacheLike first, second;
    for (CacheLike* cache : {&first, &second}) {
      cache->Touch("a");
      cache->Publish({"a"}, true);
    }
    NodeMemo memo;
    memo.Begin(first.snapshot);
    memo.Set(0, *first.snapshot.List()[0]);
    if (c.other_snapshot) memo.Begin(second.snapshot);
    if (c.go_back) {
      // Seen at generation 1, then 0: everything is forgotten, even when
      // the generation comes back.
      first.snapshot.generation = 0;
      memo.Begin(first.snapshot);
      first.snapshot.generation = first.generation;
    }
    memo.Begin(first.snapshot);
    const bool expect_fresh = !c.other_snapshot && !c.go_back;
    EXPECT_EQ(memo.Fresh(0, *first.snapshot.List()[0]), expect_fresh);
  }
}

TEST(NodeMemoTest, KeepsNothingForHandBuiltSnapshots) {
  Snapshot snapshot;  // generation 0: not maintained by a cache
  auto node = std::make_shared<api::Node>();
  node->name = "a";
  snapshot.Mutable("a").SetNode(node);
  snapshot.Rebuild({"a"}, true);
  NodeMemo memo;
  memo.Begin(snapshot);
  memo.Set(0, *snapshot.List()[0]);
  EXPECT_FALSE(memo.Fresh(0, *snapshot.List()[0]));
}

TEST(NodeMemoTest, ClearForgetsEverySlot) {
  CacheLike cache;
  cache.Touch("a");
  cache.Publish({"a"}, true);
  NodeMemo memo;
  memo.Begin(cache.snapshot);
  memo.Set(0, *cache.snapshot.List()[0]);
  memo.Clear();
  EXPECT_FALSE(memo.Fresh(0, *cache.snapshot.List()[0]));
}

std::vector<size_t> Stale(NodeMemo& memo, const Snapshot& snapshot) {
  memo.Begin(snapshot);
  std::vector<size_t> out;
  memo.StalePositions(snapshot.List(), &out);
  for (size_t pos : out) memo.Set(pos, *snapshot.List()[pos]);
  return out;
}

TEST(NodeMemoTest, StalePositionsLooksOnlyWhereTheChangeLogPoints) {
  CacheLike cache;
  for (const char* name : {"a", "b", "c"}) cache.Touch(name);
  cache.Publish({"a", "b", "c"}, true);
  NodeMemo memo;
  EXPECT_EQ(Stale(memo, cache.snapshot), (std::vector<size_t>{0, 1, 2}));
  EXPECT_EQ(Stale(memo, cache.snapshot), std::vector<size_t>{});

  cache.Touch("c");
  cache.Touch("a");
  cache.Publish({}, false);
  EXPECT_EQ(Stale(memo, cache.snapshot), (std::vector<size_t>{0, 2}));

  // A change the snapshot's log does not name is not looked for (the
  // cache never changes a snapshot node that way) ...
  cache.snapshot.List()[1]->generation = ++cache.generation;
  cache.Publish({}, false);
  EXPECT_EQ(Stale(memo, cache.snapshot), std::vector<size_t>{});
  // ... until the log cannot tell: after a node list change every position
  // is looked at, b's included.
  cache.Touch("d");
  cache.Publish({"a", "b", "c", "d"}, true);
  EXPECT_EQ(Stale(memo, cache.snapshot), (std::vector<size_t>{1, 3}));

  // After Clear, every position.
  memo.Clear();
  EXPECT_EQ(Stale(memo, cache.snapshot), (std::vector<size_t>{0, 1, 2, 3}));
}

TEST(NodeMemoTest, StalePositionsOfAHandBuiltSnapshotIsEveryPosition) {
  Snapshot snapshot;  // generation 0
  for (const char* name : {"a", "b"}) {
    auto node = std::make_shared<api::Node>();
    node->name = name;
    snapshot.Mutable(name).SetNode(node);
  }
  snapshot.Rebuild({"a", "b"}, true);
  NodeMemo memo;
  EXPECT_EQ(Stale(memo, snapshot), (std::vector<size_t>{0, 1}));
  EXPECT_EQ(Stale(memo, snapshot), (std::vector<size_t>{0, 1}));
}

}  // namespace
}  // namespace schedref::optimized::framework::plugins::helper
