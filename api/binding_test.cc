#include "api/binding.h"

#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace schedref::api {
namespace {

TEST(BindingConflictTest, UpstreamOrderAndText) {
  struct Case {
    const char* name;
    std::optional<TimeMs> deletion;
    std::string node;
    std::optional<std::string> want;
  };
  const std::vector<Case> cases = {
      {"accepted", std::nullopt, "", std::nullopt},
      {"being deleted", TimeMs{5}, "",
       "Operation cannot be fulfilled on pods/binding \"p\": pod p is being "
       "deleted, cannot be assigned to a host"},
      {"already assigned", std::nullopt, "n2",
       "Operation cannot be fulfilled on pods/binding \"p\": pod p is already "
       "assigned to node \"n2\""},
      {"both: deletion is checked first", TimeMs{5}, "n2",
       "Operation cannot be fulfilled on pods/binding \"p\": pod p is being "
       "deleted, cannot be assigned to a host"},
  };
  for (const Case& c : cases) {
    Pod pod;
    pod.ns = "default";
    pod.name = "p";
    pod.deletion_timestamp = c.deletion;
    pod.node_name = c.node;
    EXPECT_EQ(BindingConflict(pod), c.want) << c.name;
  }
}

}  // namespace
}  // namespace schedref::api
