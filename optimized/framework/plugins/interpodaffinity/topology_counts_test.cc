// PairCounts against a plain map: the copy-on-write counts must read like
// upstream's map (zero counts absent) through any sequence of changes, and
// a copy must never see its original's later changes or vice versa.
#include "optimized/framework/plugins/interpodaffinity/topology_counts.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <random>
#include <vector>

namespace schedref::optimized::framework::plugins::interpodaffinity {
namespace {

std::map<int32_t, int64_t> AsMap(const PairCounts& c) {
  std::map<int32_t, int64_t> out;
  for (const auto& [id, v] : c.Entries()) out[id] = v;
  return out;
}

TEST(PairCountsTest, BaseAndChanges) {
  PairCounts c({2, 0, 1});
  EXPECT_EQ(c.NonZero(), 2);
  EXPECT_EQ(c.Get(0), 2);
  EXPECT_EQ(c.Get(1), 0);
  EXPECT_EQ(c.Get(-1), 0);
  EXPECT_EQ(c.Get(7), 0);
  c.Add(2, -1);  // reaches 0: "erased"
  EXPECT_EQ(c.NonZero(), 1);
  c.Add(7, -1);  // a negative count is kept, as upstream's map keeps it
  EXPECT_EQ(c.NonZero(), 2);
  EXPECT_EQ(AsMap(c), (std::map<int32_t, int64_t>{{0, 2}, {7, -1}}));
  PairCounts empty;
  EXPECT_EQ(empty.NonZero(), 0);
  EXPECT_TRUE(empty.Entries().empty());
}

TEST(PairCountsTest, RandomAgainstMapWithCopies) {
  std::mt19937 rng(12345);
  for (int round = 0; round < 50; ++round) {
    std::vector<int64_t> base(rng() % 20);
    std::map<int32_t, int64_t> model;
    for (size_t i = 0; i < base.size(); ++i) {
      base[i] = rng() % 3;
      if (base[i] != 0) model[i] = base[i];
    }
    PairCounts c(base);
    PairCounts copy = c;
    std::map<int32_t, int64_t> copy_model = model;
    // Enough changes to pass kMaxDelta and make the copy take its own base.
    for (int step = 0; step < 200; ++step) {
      const int32_t id = static_cast<int32_t>(rng() % 60);
      const int64_t change = (rng() % 2 == 0) ? 1 : -1;
      if (rng() % 2 == 0) {
        c.Add(id, change);
        if ((model[id] += change) == 0) model.erase(id);
      } else {
        copy.Add(id, change);
        if ((copy_model[id] += change) == 0) copy_model.erase(id);
      }
      ASSERT_EQ(AsMap(c), model) << "round " << round << " step " << step;
      ASSERT_EQ(AsMap(copy), copy_model) << "round " << round << " step " << step;
      ASSERT_EQ(c.NonZero(), static_cast<int64_t>(model.size()));
      ASSERT_EQ(copy.NonZero(), static_cast<int64_t>(copy_model.size()));
    }
  }
}

TEST(TopologyIndexTest, InternAndLookup) {
  auto table = std::make_shared<PairTable>();
  EXPECT_EQ(table->InternKey("rack"), 0);
  EXPECT_EQ(table->InternKey("zone"), 1);
  EXPECT_EQ(table->InternKey("host"), 2);
  EXPECT_EQ(table->InternKey("zone"), 1);
  EXPECT_EQ(table->KeyId("disk"), -1);
  EXPECT_EQ(table->InternPair(1, "a"), 0);
  EXPECT_EQ(table->InternPair(2, "a"), 1);
  EXPECT_EQ(table->InternPair(1, "a"), 0);
  EXPECT_EQ(table->InternPair(1, "b"), 2);
  EXPECT_EQ(table->FindPair(2, "b"), kNoPair);
  TopologyIndex index;
  index.table = table;
  index.num_pairs = 3;
  index.keys = {1, 2};  // zone, host
  EXPECT_EQ(index.KeyId("host"), 1);
  EXPECT_EQ(index.KeyId("rack"), -1);  // in the table, not a cycle key
  EXPECT_EQ(index.KeyName(0), "zone");
  api::Node node;
  node.labels = {{"zone", "b"}, {"host", "c"}};
  EXPECT_EQ(index.LookupPair(node, 0), 2);
  EXPECT_EQ(index.LookupPair(node, 1), kNoPair);
  // A pair interned after the cycle's PreFilter is not the cycle's.
  EXPECT_EQ(table->InternPair(2, "c"), 3);
  EXPECT_EQ(index.LookupPair(node, 1), kNoPair);
  node.labels.erase("host");
  EXPECT_EQ(index.LookupPair(node, 1), kNoKey);
}

}  // namespace
}  // namespace schedref::optimized::framework::plugins::interpodaffinity
