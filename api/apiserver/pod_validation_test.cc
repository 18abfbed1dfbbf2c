#include "api/apiserver/pod_validation.h"

#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace schedref::api {
namespace {

TEST(CheckNamespaceNameTest, Table) {
  for (const std::string& name : std::vector<std::string>{"a", "team-a", "ns1", std::string(63, 'x')}) {
    EXPECT_EQ(CheckNamespaceName(name), std::nullopt) << name;
  }
  for (const std::string& name :
       std::vector<std::string>{"", "Team", "team,a", "-a", "a-", "a.b", std::string(64, 'x')}) {
    EXPECT_NE(CheckNamespaceName(name), std::nullopt) << name;
  }
}

TopologySpreadConstraint Spread(std::string key, std::string when) {
  TopologySpreadConstraint c;
  c.max_skew = 1;
  c.topology_key = std::move(key);
  c.when_unsatisfiable = std::move(when);
  return c;
}

TEST(ValidateSpreadConstraintTest, Table) {
  const TopologySpreadConstraint zone = Spread("zone", "DoNotSchedule");
  TopologySpreadConstraint anyway = Spread("zone", "ScheduleAnyway");
  anyway.min_domains = 2;
  TopologySpreadConstraint keys = Spread("host", "DoNotSchedule");
  keys.match_label_keys = {"app"};
  TopologySpreadConstraint keys_in_selector = keys;
  keys_in_selector.label_selector = LabelSelector{{}, {{"app", "Exists", {}}}};
  TopologySpreadConstraint keys_ok = keys;
  keys_ok.label_selector = LabelSelector{{{"tier", "web"}}, {}};
  struct Case {
    std::string name;
    TopologySpreadConstraint c;
    std::vector<TopologySpreadConstraint> earlier;
    std::optional<std::string> want_field;  // nullopt: valid
  };
  const std::vector<Case> cases = {
      {"plain", zone, {}, std::nullopt},
      {"same key, other whenUnsatisfiable", Spread("zone", "ScheduleAnyway"), {zone}, std::nullopt},
      {"repeated", zone, {Spread("host", "DoNotSchedule"), zone}, ""},
      {"minDomains with ScheduleAnyway", anyway, {}, "minDomains"},
      {"matchLabelKeys without selector", keys, {}, "matchLabelKeys"},
      {"matchLabelKeys key in selector", keys_in_selector, {}, "matchLabelKeys[0]"},
      {"matchLabelKeys beside the selector's keys", keys_ok, {}, std::nullopt},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::optional<FieldProblem> p = ValidateSpreadConstraint(c.c, c.earlier);
    ASSERT_EQ(p.has_value(), c.want_field.has_value()) << (p ? p->problem : "");
    if (p) {
      EXPECT_EQ(p->field, *c.want_field);
    }
  }
}

// The merge adds `key In (value)` only for keys the pod has, so only then
// can a matchLabelKeys key clash with the selector's own.
TEST(ValidateAffinityTermLabelKeysTest, Table) {
  PodAffinityTerm term;
  term.topology_key = "zone";
  term.label_selector = LabelSelector{{{"app", "web"}}, {}};
  term.match_label_keys = {"app"};
  struct Case {
    std::string name;
    PodAffinityTerm term;
    Labels pod_labels;
    std::optional<std::string> want_field;
  };
  PodAffinityTerm no_selector = term;
  no_selector.label_selector.reset();
  PodAffinityTerm both = term;
  both.match_label_keys = {"tier", "version"};
  both.mismatch_label_keys = {"version"};
  PodAffinityTerm expression = term;
  expression.label_selector = LabelSelector{{}, {{"app", "In", {"web"}}}};
  PodAffinityTerm bad_key = term;
  bad_key.mismatch_label_keys = {"bad key"};
  const std::vector<Case> cases = {
      {"key in the selector, pod without the label", term, {{"tier", "x"}}, std::nullopt},
      {"key in the selector, pod with the label", term, {{"app", "web"}}, "matchLabelKeys[0]"},
      {"key in an expression, pod with the label", expression, {{"app", "web"}},
       "matchLabelKeys[0]"},
      {"no selector", no_selector, {}, "matchLabelKeys"},
      {"matched and mismatched", both, {}, "matchLabelKeys[1]"},
      {"invalid key", bad_key, {}, "mismatchLabelKeys[0]"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::optional<FieldProblem> p = ValidateAffinityTermLabelKeys(c.term, c.pod_labels);
    ASSERT_EQ(p.has_value(), c.want_field.has_value()) << (p ? p->problem : "");
    if (p) {
      EXPECT_EQ(p->field, *c.want_field);
    }
  }
}

}  // namespace
}  // namespace schedref::api
