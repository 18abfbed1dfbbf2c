// Cases adapted from upstream pkg/scheduler/framework/runtime/
// framework_test.go (TestNewFrameworkMultiPointExpansion and the
// NewFramework configuration errors), over a fake plugin lookup.
#include "api/config/plugin_expansion.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "api/config/config.h"

namespace schedref::api {
namespace {

using EP = ExtensionPoint;

// Sort and Sort2: QueueSort; Bind: Bind; A, B, C: PreFilter, Filter, Score.
std::optional<ExtensionPointSet> Lookup(const std::string& name) {
  if (name == "Sort" || name == "Sort2") {
    return ExtensionPointSet{EP::kQueueSort};
  }
  if (name == "Bind") return ExtensionPointSet{EP::kBind};
  if (name == "A" || name == "B" || name == "C") {
    return ExtensionPointSet{EP::kPreFilter, EP::kFilter, EP::kScore};
  }
  return std::nullopt;
}

PluginSet Enabled(std::vector<PluginRef> refs) {
  PluginSet s;
  s.enabled = std::move(refs);
  return s;
}

Plugins Base() {
  Plugins p;
  p.queue_sort = Enabled({{"Sort", 0}});
  p.bind = Enabled({{"Bind", 0}});
  return p;
}

TEST(ExpandPluginsTest, PlacementExpansionAndErrors) {
  struct Case {
    std::string name;
    Plugins plugins;
    std::vector<std::string> want_pre_filter;
    std::vector<std::string> want_filter;
    std::vector<std::string> want_score;
    std::map<std::string, int64_t> want_weights;
    std::string want_error;
  };
  std::vector<Case> cases;
  {
    Plugins p = Base();
    p.filter = Enabled({{"B", 0}, {"A", 0}});
    p.score = Enabled({{"A", 4}});
    cases.push_back({"explicit lists keep their order", p, {}, {"B", "A"},
                     {"A"}, {{"A", 4}}, ""});
  }
  {
    // "plugin reconfigured in specific extension point" upstream case:
    // explicit entries first, then MultiPoint, then the rest.
    Plugins p = Base();
    p.multi_point = Enabled({{"A", 1}, {"B", 2}, {"C", 3}});
    p.filter = Enabled({{"C", 0}});
    p.score = Enabled({{"B", 5}});
    cases.push_back({"override order and weight", p, {"A", "B", "C"},
                     {"C", "A", "B"}, {"B", "A", "C"},
                     {{"A", 1}, {"B", 5}, {"C", 3}}, ""});
  }
  {
    Plugins p = Base();
    p.multi_point = Enabled({{"A", 0}, {"B", 0}});
    p.filter = Enabled({{"C", 0}});
    cases.push_back({"explicit plugins not in multiPoint come last", p,
                     {"A", "B"}, {"A", "B", "C"}, {"A", "B"},
                     {{"A", 1}, {"B", 1}}, ""});
  }
  {
    Plugins p = Base();
    p.multi_point = Enabled({{"A", 0}, {"B", 0}});
    p.filter.disabled = {{"A", 0}};
    cases.push_back({"disabled at one point", p, {"A", "B"}, {"B"},
                     {"A", "B"}, {{"A", 1}, {"B", 1}}, ""});
  }
  {
    // A Score plugin disabled at score keeps its weight (upstream weighs
    // every Score plugin score or multiPoint enables).
    Plugins p = Base();
    p.multi_point = Enabled({{"A", 0}, {"B", 0}});
    p.score.disabled = {{"*", 0}};
    cases.push_back({"star disables expansion at that point only", p,
                     {"A", "B"}, {"A", "B"}, {}, {{"A", 1}, {"B", 1}}, ""});
  }
  {
    Plugins p = Base();
    p.multi_point = Enabled({{"A", 0}, {"A", 0}});
    cases.push_back({"double registration in multiPoint", p, {}, {}, {}, {},
                     "plugin \"A\" already registered as \"PreFilterPlugin\""});
  }
  {
    Plugins p = Base();
    p.filter = Enabled({{"A", 0}, {"A", 0}});
    cases.push_back({"double registration in a list", p, {}, {}, {}, {},
                     "plugin \"A\" already registered as \"FilterPlugin\""});
  }
  {
    Plugins p = Base();
    p.filter = Enabled({{"Nope", 0}});
    cases.push_back({"unknown plugin", p, {}, {}, {}, {},
                     "FilterPlugin \"Nope\" does not exist"});
  }
  {
    Plugins p = Base();
    p.queue_sort = Enabled({{"Nope1", 0}});
    p.post_bind = Enabled({{"Nope2", 0}});
    cases.push_back({"getExtensionPoints order decides the first error", p,
                     {}, {}, {}, {},
                     "PostBindPlugin \"Nope2\" does not exist"});
  }
  {
    Plugins p = Base();
    p.multi_point = Enabled({{"Nope", 0}});
    cases.push_back({"unknown plugin in multiPoint", p, {}, {}, {}, {},
                     "PreFilterPlugin \"Nope\" does not exist"});
  }
  {
    Plugins p = Base();
    p.filter = Enabled({{"Bind", 0}});
    cases.push_back({"wrong extension point", p, {}, {}, {}, {},
                     "plugin \"Bind\" does not extend FilterPlugin plugin"});
  }
  {
    Plugins p = Base();
    p.queue_sort = PluginSet{};
    cases.push_back({"no queue sort", p, {}, {}, {}, {},
                     "only one queue sort plugin required for profile with "
                     "scheduler name \"my-scheduler\", but got 0"});
  }
  {
    Plugins p = Base();
    p.multi_point = Enabled({{"Sort2", 0}});
    cases.push_back({"two queue sorts", p, {}, {}, {}, {},
                     "only one queue sort plugin required for profile with "
                     "scheduler name \"my-scheduler\", but got 2"});
  }
  {
    Plugins p = Base();
    p.bind = PluginSet{};
    cases.push_back({"no bind", p, {}, {}, {}, {},
                     "at least one bind plugin is needed for profile with "
                     "scheduler name \"my-scheduler\""});
  }
  {
    Plugins p = Base();
    p.score = Enabled({{"A", 1}, {"B", std::numeric_limits<int32_t>::max()}});
    // Two large weights still fit in int64 (x100); overflow needs more.
    cases.push_back({"large weights fit", p, {}, {}, {"A", "B"},
                     {{"A", 1}, {"B", std::numeric_limits<int32_t>::max()}},
                     ""});
  }
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    StatusOr<ExpandedPlugins> got = ExpandPlugins(c.plugins, "my-scheduler",
                                                  Lookup);
    if (!c.want_error.empty()) {
      ASSERT_FALSE(got.ok());
      EXPECT_EQ(got.status().message(), c.want_error);
      continue;
    }
    ASSERT_TRUE(got.ok()) << got.status().message();
    EXPECT_EQ(got->at(EP::kPreFilter), c.want_pre_filter);
    EXPECT_EQ(got->at(EP::kFilter), c.want_filter);
    EXPECT_EQ(got->at(EP::kScore), c.want_score);
    EXPECT_EQ(got->at(EP::kQueueSort), std::vector<std::string>{"Sort"});
    EXPECT_EQ(got->at(EP::kBind), std::vector<std::string>{"Bind"});
    for (EP p : {EP::kPreEnqueue, EP::kPostFilter, EP::kPreScore,
                 EP::kReserve, EP::kPermit, EP::kPreBind, EP::kPostBind}) {
      EXPECT_TRUE(got->at(p).empty()) << ExtensionPointTypeName(p);
    }
    EXPECT_EQ(got->score_weights, c.want_weights);
  }
}

TEST(ExpandPluginsTest, MultiPointPlacesEveryPlugin) {
  Plugins p;
  p.multi_point = Enabled({{"Sort", 0}, {"Bind", 0}, {"A", 7}});
  StatusOr<ExpandedPlugins> got = ExpandPlugins(p, "s", Lookup);
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_EQ(got->at(EP::kQueueSort), std::vector<std::string>{"Sort"});
  EXPECT_EQ(got->at(EP::kBind), std::vector<std::string>{"Bind"});
  EXPECT_EQ(got->at(EP::kPreFilter), std::vector<std::string>{"A"});
  EXPECT_EQ(got->at(EP::kScore), std::vector<std::string>{"A"});
  EXPECT_EQ(got->score_weights, (std::map<std::string, int64_t>{{"A", 7}}));
}

TEST(ExtensionPointTest, TypeNamesAndSets) {
  const std::vector<std::pair<EP, std::string>> names = {
      {EP::kPreEnqueue, "PreEnqueuePlugin"}, {EP::kQueueSort, "QueueSortPlugin"},
      {EP::kPreFilter, "PreFilterPlugin"},   {EP::kFilter, "FilterPlugin"},
      {EP::kPostFilter, "PostFilterPlugin"}, {EP::kPreScore, "PreScorePlugin"},
      {EP::kScore, "ScorePlugin"},           {EP::kReserve, "ReservePlugin"},
      {EP::kPermit, "PermitPlugin"},         {EP::kPreBind, "PreBindPlugin"},
      {EP::kBind, "BindPlugin"},             {EP::kPostBind, "PostBindPlugin"},
  };
  ASSERT_EQ(names.size(), static_cast<size_t>(kNumExtensionPoints));
  for (const auto& [point, name] : names) {
    EXPECT_EQ(ExtensionPointTypeName(point), name);
    ExtensionPointSet one{point};
    EXPECT_TRUE(one.Has(point));
    for (const auto& [other, unused] : names) {
      if (other != point) {
        EXPECT_FALSE(one.Has(other)) << name;
      }
    }
  }
  EXPECT_EQ(ExtensionPointSet{}.Add(EP::kBind), ExtensionPointSet{EP::kBind});
}

}  // namespace
}  // namespace schedref::api
