#include "api/apiserver/pod_update.h"

#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace schedref::api {
namespace {

TEST(ApplyPodUpdateTest, KeepsWhatTheApiServerKeeps) {
  Pod current;
  current.name = "p";
  current.node_name = "n1";
  current.deletion_timestamp = 5000;
  current.conditions = {{"DisruptionTarget", "True", "PreemptionByScheduler"}};
  current.labels = {{"a", "1"}};

  Pod update;  // a label change, nothing else written
  update.name = "p";
  update.labels = {{"a", "2"}};
  Pod got = ApplyPodUpdate(current, update);
  EXPECT_EQ(got.labels, update.labels);
  EXPECT_EQ(got.node_name, "n1");
  EXPECT_EQ(got.deletion_timestamp, std::optional<TimeMs>(5000));
  EXPECT_EQ(got.conditions, current.conditions);

  // Another deletionTimestamp does not replace the first; written
  // conditions and a node name stand.
  update.deletion_timestamp = 9000;
  update.conditions = {{"Ready", "True", ""}};
  update.node_name = "n2";
  got = ApplyPodUpdate(current, update);
  EXPECT_EQ(got.deletion_timestamp, std::optional<TimeMs>(5000));
  EXPECT_EQ(got.conditions, update.conditions);
  EXPECT_EQ(got.node_name, "n2");

  // An update may start a graceful deletion.
  current.deletion_timestamp.reset();
  update.deletion_timestamp = 9000;
  got = ApplyPodUpdate(current, update);
  EXPECT_EQ(got.deletion_timestamp, std::optional<TimeMs>(9000));
}

}  // namespace
}  // namespace schedref::api
