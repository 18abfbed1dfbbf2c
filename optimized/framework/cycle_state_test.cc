#include "optimized/framework/cycle_state.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace schedref::optimized::framework {
namespace {

TEST(PluginNameSetTest, ASetOfNamesThatSurvivesACopyOfTheState) {
  const std::string fit = "NodeResourcesFit";  // outlives the sets below
  CycleState state;
  EXPECT_TRUE(state.skip_filter_plugins.empty());
  state.skip_filter_plugins.insert(fit);
  state.skip_filter_plugins.insert("NodeAffinity");
  state.skip_filter_plugins.insert(fit);  // once only
  EXPECT_EQ(state.skip_filter_plugins.size(), 2u);
  EXPECT_TRUE(state.skip_filter_plugins.contains("NodeResourcesFit"));
  EXPECT_TRUE(state.skip_filter_plugins.contains(std::string("NodeAffinity")));
  EXPECT_FALSE(state.skip_filter_plugins.contains("NodeResourcesFi"));
  EXPECT_FALSE(state.skip_score_plugins.contains("NodeResourcesFit"));
  const CycleState copy = state;  // preemption clones the state
  EXPECT_TRUE(copy.skip_filter_plugins.contains("NodeAffinity"));
  state.skip_filter_plugins.clear();
  EXPECT_TRUE(state.skip_filter_plugins.empty());
  EXPECT_FALSE(state.skip_filter_plugins.contains("NodeAffinity"));
  EXPECT_EQ(copy.skip_filter_plugins.size(), 2u);
}

}  // namespace
TEST(PluginNameSetTest, SlotsAnswerLikeTheNamesAndGiveWayToThemWhenNotAllHaveOne) {
  struct Case {
    std::string name;
    int slot;
    bool want;
  };
  PluginNameSet set;
  set.insert("PodTopologySpread", 2);
  set.insert("InterPodAffinity", 5);
  set.insert("InterPodAffinity", 5);  // once only
  EXPECT_EQ(set.size(), 2u);
  const std::vector<Case> by_slot = {
      {"PodTopologySpread", 2, true}, {"InterPodAffinity", 5, true},
      {"NodeAffinity", 0, false},     {"NodeAffinity", -1, false},
      {"NodeAffinity", 64, false},
  };
  for (const Case& c : by_slot) {
    EXPECT_EQ(set.contains(c.name, c.slot), c.want) << c.name << " " << c.slot;
    EXPECT_EQ(set.contains(c.name), c.want) << c.name;
  }
  // A name without a slot (or beyond the bitmask) makes every answer come
  // from the names: a slot of -1 no longer rules a name out.
  PluginNameSet mixed = set;
  mixed.insert("NodeAffinity");
  EXPECT_TRUE(mixed.contains("NodeAffinity", -1));
  EXPECT_TRUE(mixed.contains("PodTopologySpread", 2));
  EXPECT_FALSE(mixed.contains("TaintToleration", 3));
  PluginNameSet wide;
  wide.insert("VolumeBinding", 70);
  EXPECT_TRUE(wide.contains("VolumeBinding", 70));
  EXPECT_FALSE(wide.contains("NodePorts", 6));
  // Past the names kept in place (eight), by slot and by name.
  const std::vector<std::string> many = {"A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K"};
  PluginNameSet big;
  PluginNameSet big_by_name;
  for (size_t i = 0; i < many.size(); ++i) {
    big.insert(many[i], static_cast<int>(i));
    big_by_name.insert(many[i]);
    big_by_name.insert(many[i]);  // once only
  }
  EXPECT_EQ(big.size(), many.size());
  EXPECT_EQ(big_by_name.size(), many.size());
  for (size_t i = 0; i < many.size(); ++i) {
    EXPECT_TRUE(big.contains(many[i], static_cast<int>(i))) << many[i];
    EXPECT_TRUE(big.contains(many[i])) << many[i];
    EXPECT_TRUE(big_by_name.contains(many[i])) << many[i];
  }
  EXPECT_FALSE(big.contains("L", 11));
  EXPECT_FALSE(big_by_name.contains("L"));
  const PluginNameSet big_copy = big_by_name;
  EXPECT_TRUE(big_copy.contains("K"));
  big_by_name.clear();
  EXPECT_FALSE(big_by_name.contains("K"));
  EXPECT_TRUE(big_by_name.empty());
  // clear() forgets the slots too.
  set.clear();
  EXPECT_FALSE(set.contains("PodTopologySpread", 2));
  set.insert("NodePorts", 1);
  EXPECT_TRUE(set.contains("NodePorts", 1));
  EXPECT_FALSE(set.contains("PodTopologySpread", 2));
}

}  // namespace schedref::optimized::framework
