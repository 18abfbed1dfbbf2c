// Rows adapted from upstream validation_pluginargs_test.go
// TestValidatePodTopologySpreadArgs, plus the v1 default and the system
// default constraints.
#include "api/config/pluginargs/podtopologyspread_args.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace schedref::api::pluginargs {
namespace {

TEST(PodTopologySpreadArgsTest, DecodeAndValidate) {
  auto d = DecodePodTopologySpreadArgs(nlohmann::json::object());
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->defaulting_type, kSystemDefaulting);
  EXPECT_TRUE(d->default_constraints.empty());

  d = DecodePodTopologySpreadArgs(nlohmann::json::parse(R"({
      "defaultingType": "List",
      "defaultConstraints": [
        {"maxSkew": 1, "topologyKey": "node", "whenUnsatisfiable": "DoNotSchedule"},
        {"maxSkew": 2, "topologyKey": "zone", "whenUnsatisfiable": "ScheduleAnyway"}]})"));
  ASSERT_TRUE(d.ok()) << d.status().message();
  ASSERT_EQ(d->default_constraints.size(), 2u);
  EXPECT_EQ(d->default_constraints[1].max_skew, 2);

  struct Case {
    std::string name;
    std::string json;
    std::string want;
  };
  std::vector<Case> cases = {
      {"maxSkew less than zero",
       R"({"defaultingType": "List", "defaultConstraints": [{"maxSkew": -1,
           "topologyKey": "node", "whenUnsatisfiable": "DoNotSchedule"}]})",
       "defaultConstraints[0].maxSkew: Invalid value: -1: not in valid range "
       "(0, inf)"},
      {"empty topology key",
       R"({"defaultingType": "List", "defaultConstraints": [{"maxSkew": 1,
           "topologyKey": "", "whenUnsatisfiable": "DoNotSchedule"}]})",
       "defaultConstraints[0].topologyKey: Required value: can not be empty"},
      {"WhenUnsatisfiable is empty",
       R"({"defaultingType": "List", "defaultConstraints": [{"maxSkew": 1,
           "topologyKey": "node", "whenUnsatisfiable": ""}]})",
       "defaultConstraints[0].whenUnsatisfiable: Required value: can not be "
       "empty"},
      {"WhenUnsatisfiable contains unsupported action",
       R"({"defaultingType": "List", "defaultConstraints": [{"maxSkew": 1,
           "topologyKey": "node", "whenUnsatisfiable": "unknown action"}]})",
       "defaultConstraints[0].whenUnsatisfiable: Unsupported value: \"unknown "
       "action\": supported values: \"DoNotSchedule\", \"ScheduleAnyway\""},
      {"duplicated constraints",
       R"({"defaultingType": "List", "defaultConstraints": [
           {"maxSkew": 1, "topologyKey": "node", "whenUnsatisfiable": "DoNotSchedule"},
           {"maxSkew": 2, "topologyKey": "node", "whenUnsatisfiable": "DoNotSchedule"}]})",
       "defaultConstraints[1]: Duplicate value: \"{node, DoNotSchedule}\""},
      {"label selector present",
       R"({"defaultingType": "List", "defaultConstraints": [{"maxSkew": 1,
           "topologyKey": "key", "whenUnsatisfiable": "DoNotSchedule",
           "labelSelector": {"matchLabels": {"a": "b"}}}]})",
       "defaultConstraints[0].labelSelector: Forbidden: constraint must not "
       "define a selector, as they deduced for each pod"},
      {"list default constraints, no constraints", R"({"defaultingType": "List"})",
       ""},
      {"system default constraints, but has constraints",
       R"({"defaultingType": "System", "defaultConstraints": [{"maxSkew": 1,
           "topologyKey": "key", "whenUnsatisfiable": "DoNotSchedule"}]})",
       "defaultingType: Invalid value: \"System\": when .defaultConstraints "
       "are not empty"},
      {"unsupported defaulting type", R"({"defaultingType": "Other"})",
       "defaultingType: Unsupported value: \"Other\": supported values: "
       "\"System\", \"List\""},
      {"two errors",
       R"({"defaultingType": "List", "defaultConstraints": [{"maxSkew": 0,
           "topologyKey": "", "whenUnsatisfiable": "DoNotSchedule"}]})",
       "[defaultConstraints[0].maxSkew: Invalid value: 0: not in valid range "
       "(0, inf), defaultConstraints[0].topologyKey: Required value: can not "
       "be empty]"},
      {"unknown field", R"({"defaultConstraint": []})",
       "strict decoding error: unknown field \"defaultConstraint\""},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    auto r = DecodePodTopologySpreadArgs(nlohmann::json::parse(c.json));
    EXPECT_EQ(r.status().message(), c.want);
  }
}

// upstream systemDefaultConstraints (podtopologyspread/plugin.go).
TEST(PodTopologySpreadArgsTest, SystemDefaultConstraints) {
  const std::vector<api::TopologySpreadConstraint> got =
      SystemDefaultConstraints();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].topology_key, "kubernetes.io/hostname");
  EXPECT_EQ(got[0].when_unsatisfiable, "ScheduleAnyway");
  EXPECT_EQ(got[0].max_skew, 3);
  EXPECT_FALSE(got[0].label_selector.has_value());
  EXPECT_EQ(got[1].topology_key, "topology.kubernetes.io/zone");
  EXPECT_EQ(got[1].when_unsatisfiable, "ScheduleAnyway");
  EXPECT_EQ(got[1].max_skew, 5);
  EXPECT_FALSE(got[1].label_selector.has_value());
}

}  // namespace
}  // namespace schedref::api::pluginargs
