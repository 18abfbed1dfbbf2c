#include "api/config/default_plugins.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace schedref::api {
namespace {

PluginSet Set(std::vector<PluginRef> enabled,
              std::vector<PluginRef> disabled = {}) {
  return PluginSet{std::move(enabled), std::move(disabled)};
}

Plugins FilterOnly(PluginSet s) {
  Plugins p;
  p.filter = std::move(s);
  return p;
}
Plugins MultiPointOnly(PluginSet s) {
  Plugins p;
  p.multi_point = std::move(s);
  return p;
}

TEST(DefaultPlugins, UpstreamV132ListWithoutTheOmittedPlugins) {
  const std::vector<PluginRef> want = {
      {"SchedulingGates", 0},   {"PrioritySort", 0},
      {"NodeUnschedulable", 0}, {"NodeName", 0},
      {"TaintToleration", 3},   {"NodeAffinity", 2},
      {"NodePorts", 0},         {"NodeResourcesFit", 1},
      {"VolumeRestrictions", 0}, {"NodeVolumeLimits", 0},
      {"VolumeBinding", 0},     {"VolumeZone", 0},
      {"PodTopologySpread", 2}, {"InterPodAffinity", 2},
      {"DefaultPreemption", 0}, {"NodeResourcesBalancedAllocation", 1},
      {"ImageLocality", 1},     {"DefaultBinder", 0},
  };
  EXPECT_EQ(DefaultPlugins(), MultiPointOnly(Set(want)));
  for (std::string_view omitted : kOmittedDefaultPlugins) {
    const auto& enabled = DefaultPlugins().multi_point.enabled;
    EXPECT_TRUE(
        std::none_of(enabled.begin(), enabled.end(),
                     [&](const PluginRef& p) { return p.name == omitted; }))
        << omitted;
  }
}

// Transcribed from upstream's TestMergePlugins
// (pkg/scheduler/apis/config/v1/default_plugins_test.go); each case keeps
// upstream's name.
struct MergeCase {
  const char* name;
  std::optional<Plugins> custom;
  Plugins defaults;
  Plugins want;
};

TEST(MergePlugins, UpstreamTestMergePlugins) {
  Plugins score_disabled_custom2 = MultiPointOnly(Set(
      {{"CustomPlugin", 0}, {"CustomPlugin2", 0}}, {{"DefaultPlugin2", 0}}));
  score_disabled_custom2.score = Set({}, {{"CustomPlugin2", 0}});
  Plugins score_disabled_custom2_want = MultiPointOnly(
      Set({{"DefaultPlugin1", 0}, {"CustomPlugin", 0}, {"CustomPlugin2", 0}},
          {{"DefaultPlugin2", 0}}));
  score_disabled_custom2_want.score = Set({}, {{"CustomPlugin2", 0}});

  Plugins default_score_disabled = MultiPointOnly(Set({{"DefaultPlugin", 0}}));
  default_score_disabled.score = Set({}, {{"DefaultPlugin2", 0}});
  Plugins default_score_disabled_want =
      MultiPointOnly(Set({{"DefaultPlugin", 0}, {"CustomPlugin", 0}}));
  default_score_disabled_want.score = Set({}, {{"DefaultPlugin2", 0}});

  const std::vector<MergeCase> cases = {
      {"AppendCustomPlugin", FilterOnly(Set({{"CustomPlugin", 0}})),
       FilterOnly(Set({{"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}})),
       FilterOnly(Set({{"DefaultPlugin1", 0},
                       {"DefaultPlugin2", 0},
                       {"CustomPlugin", 0}}))},
      {"InsertAfterDefaultPlugins2",
       FilterOnly(Set({{"CustomPlugin", 0}, {"DefaultPlugin2", 0}},
                      {{"DefaultPlugin2", 0}})),
       FilterOnly(Set({{"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}})),
       FilterOnly(Set(
           {{"DefaultPlugin1", 0}, {"CustomPlugin", 0}, {"DefaultPlugin2", 0}},
           {{"DefaultPlugin2", 0}}))},
      {"InsertBeforeAllPlugins",
       FilterOnly(Set(
           {{"CustomPlugin", 0}, {"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}},
           {{"*", 0}})),
       FilterOnly(Set({{"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}})),
       FilterOnly(Set(
           {{"CustomPlugin", 0}, {"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}},
           {{"*", 0}}))},
      {"ReorderDefaultPlugins",
       FilterOnly(
           Set({{"DefaultPlugin2", 0}, {"DefaultPlugin1", 0}}, {{"*", 0}})),
       FilterOnly(Set({{"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}})),
       FilterOnly(
           Set({{"DefaultPlugin2", 0}, {"DefaultPlugin1", 0}}, {{"*", 0}}))},
      {"ApplyNilCustomPlugin", std::nullopt,
       FilterOnly(Set({{"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}})),
       FilterOnly(Set({{"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}}))},
      {"CustomPluginOverrideDefaultPlugin",
       FilterOnly(Set({{"Plugin1", 2}, {"Plugin3", 3}})),
       FilterOnly(Set({{"Plugin1", 0}, {"Plugin2", 0}, {"Plugin3", 0}})),
       FilterOnly(Set({{"Plugin1", 2}, {"Plugin2", 0}, {"Plugin3", 3}}))},
      {"OrderPreserveAfterOverride",
       FilterOnly(Set({{"Plugin2", 2}, {"Plugin1", 1}})),
       FilterOnly(Set({{"Plugin1", 0}, {"Plugin2", 0}, {"Plugin3", 0}})),
       FilterOnly(Set({{"Plugin1", 1}, {"Plugin2", 2}, {"Plugin3", 0}}))},
      {"RepeatedCustomPlugin",
       FilterOnly(Set(
           {{"Plugin1", 0}, {"Plugin2", 2}, {"Plugin3", 0}, {"Plugin2", 4}})),
       FilterOnly(Set({{"Plugin1", 0}, {"Plugin2", 0}, {"Plugin3", 0}})),
       FilterOnly(Set(
           {{"Plugin1", 0}, {"Plugin2", 4}, {"Plugin3", 0}, {"Plugin2", 2}}))},
      {"Append custom MultiPoint plugin",
       MultiPointOnly(Set({{"CustomPlugin", 0}})),
       MultiPointOnly(Set({{"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}})),
       MultiPointOnly(Set({{"DefaultPlugin1", 0},
                           {"DefaultPlugin2", 0},
                           {"CustomPlugin", 0}}))},
      {"Append disabled Multipoint plugins", score_disabled_custom2,
       MultiPointOnly(Set({{"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}})),
       score_disabled_custom2_want},
      {"override default MultiPoint plugins with custom value",
       MultiPointOnly(Set({{"DefaultPlugin", 5}})),
       MultiPointOnly(Set({{"DefaultPlugin", 0}})),
       MultiPointOnly(Set({{"DefaultPlugin", 5}}))},
      {"disabled MultiPoint plugin in default set",
       MultiPointOnly(Set({{"CustomPlugin", 0}})),
       MultiPointOnly(Set({{"DefaultPlugin", 0}}, {{"DefaultPlugin2", 0}})),
       MultiPointOnly(Set({{"DefaultPlugin", 0}, {"CustomPlugin", 0}},
                          {{"DefaultPlugin2", 0}}))},
      {"disabled MultiPoint plugin in default set for specific extension "
       "point",
       MultiPointOnly(Set({{"CustomPlugin", 0}})), default_score_disabled,
       default_score_disabled_want},
      {"multipoint with only disabled gets merged",
       MultiPointOnly(Set({}, {{"DefaultPlugin", 0}})),
       MultiPointOnly(Set({{"DefaultPlugin", 0}})),
       MultiPointOnly(Set({}, {{"DefaultPlugin", 0}}))},
  };
  for (const MergeCase& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(MergePlugins(c.defaults, c.custom), c.want);
  }
}

// Not upstream's: disabled entries keep only their names.
TEST(MergePlugins, DisabledWeightsAreDropped) {
  EXPECT_EQ(MergePlugins(Plugins{}, FilterOnly(Set({}, {{"P", 7}}))),
            FilterOnly(Set({}, {{"P", 0}})));
}

TEST(EffectivePlugins, NoPluginsMeansTheDefaults) {
  Profile profile;
  EXPECT_EQ(EffectivePlugins(profile), DefaultPlugins());
}

TEST(EffectivePlugins, ProfileReweightsAndDisablesMultiPointDefaults) {
  Profile profile;
  Plugins custom;
  custom.multi_point =
      Set({{"ImageLocality", 5}, {"TestPermit", 0}}, {{"TaintToleration", 0}});
  custom.score = Set({}, {{"*", 0}});
  profile.plugins = custom;

  const Plugins got = EffectivePlugins(profile);
  std::vector<PluginRef> want = DefaultPlugins().multi_point.enabled;
  want.erase(std::find_if(want.begin(), want.end(), [](const PluginRef& p) {
    return p.name == "TaintToleration";
  }));
  for (PluginRef& p : want) {
    if (p.name == "ImageLocality") p.weight = 5;
  }
  want.push_back({"TestPermit", 0});
  EXPECT_EQ(got.multi_point.enabled, want);
  EXPECT_EQ(got.multi_point.disabled,
            (std::vector<PluginRef>{{"TaintToleration", 0}}));
  EXPECT_EQ(got.score, Set({}, {{"*", 0}}));
  EXPECT_EQ(got.filter, PluginSet{});
}

}  // namespace
}  // namespace schedref::api
