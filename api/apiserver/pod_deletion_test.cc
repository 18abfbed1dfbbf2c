#include "api/apiserver/pod_deletion.h"

#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace schedref::api {
namespace {

TEST(DeleteGracePeriodSecondsTest, CheckGracefulDeleteRules) {
  struct Case {
    const char* name;
    std::string node;
    std::optional<int64_t> grace;
    int64_t want;
  };
  const std::vector<Case> cases = {
      {"bound, default", "n1", std::nullopt, 30},
      {"bound, own period", "n1", 5, 5},
      {"bound, zero", "n1", 0, 0},
      {"bound, negative deletes as 1", "n1", -7, 1},
      {"not bound: at once", "", 30, 0},
      {"not bound, negative: at once", "", -7, 0},
  };
  Pod failed;
  failed.node_name = "n1";
  failed.phase = "Failed";
  EXPECT_EQ(DeleteGracePeriodSeconds(failed, failed.node_name), 0) << "terminal phase: at once";
  for (const Case& c : cases) {
    Pod pod;
    pod.node_name = c.node;
    pod.termination_grace_period_seconds = c.grace;
    EXPECT_EQ(DeleteGracePeriodSeconds(pod, c.node), c.want) << c.name;
  }
}

TEST(AddSecondsSaturatingTest, Saturates) {
  constexpr TimeMs kMax = std::numeric_limits<TimeMs>::max();
  EXPECT_EQ(AddSecondsSaturating(1500, 30), 31500);
  EXPECT_EQ(AddSecondsSaturating(1500, 0), 1500);
  EXPECT_EQ(AddSecondsSaturating(1500, std::numeric_limits<int64_t>::max()), kMax);
  EXPECT_EQ(AddSecondsSaturating(kMax - 999, 1), kMax);
  EXPECT_EQ(AddSecondsSaturating(kMax - 1000, 1), kMax);
  EXPECT_EQ(AddSecondsSaturating(kMax - 1001, 1), kMax - 1);
}

TEST(UpdatePodConditionTest, ReplacesFirstOfTypeOrAppends) {
  const PodCondition target = PreemptionByScheduler();
  struct Case {
    const char* name;
    std::vector<PodCondition> before;
    bool want_changed;
    std::vector<PodCondition> want;
  };
  const std::vector<Case> cases = {
      {"none: appended", {{"Ready", "True", ""}}, true,
       {{"Ready", "True", ""}, target}},
      {"equal: no patch", {target}, false, {target}},
      {"another reason: replaced in place",
       {{"DisruptionTarget", "True", "DeletionByTaintManager"}, {"Ready", "True", ""}},
       true, {target, {"Ready", "True", ""}}},
      {"only the first of a type",
       {{"DisruptionTarget", "False", ""}, {"DisruptionTarget", "False", ""}}, true,
       {target, {"DisruptionTarget", "False", ""}}},
  };
  for (const Case& c : cases) {
    std::vector<PodCondition> conditions = c.before;
    EXPECT_EQ(UpdatePodCondition(conditions, target), c.want_changed) << c.name;
    EXPECT_EQ(conditions, c.want) << c.name;
  }
}

}  // namespace
}  // namespace schedref::api
