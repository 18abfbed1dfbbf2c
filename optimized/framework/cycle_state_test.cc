#include "optimized/framework/cycle_state.h"

#include <string>

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
}  // namespace schedref::optimized::framework
