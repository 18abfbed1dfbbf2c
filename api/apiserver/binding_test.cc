#include "api/apiserver/binding.h"

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
    std::vector<std::string> gates = {};
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
      {"gated", std::nullopt, "",
       "Operation cannot be fulfilled on pods/binding \"p\": pod p has "
       "non-empty .spec.schedulingGates",
       {"example.com/hold"}},
  };
  for (const Case& c : cases) {
    Pod pod;
    pod.ns = "default";
    pod.name = "p";
    pod.uid = "uid-1";
    pod.deletion_timestamp = c.deletion;
    pod.scheduling_gates = c.gates;
    EXPECT_EQ(BindingConflict(pod, c.node, "uid-1"), c.want) << c.name;
  }
}

// The UID precondition comes first, even before a deletion.
TEST(BindingConflictTest, UidPreconditionAsStorageConflict) {
  Pod pod;
  pod.ns = "team-a";
  pod.name = "p";
  pod.uid = "uid-2";
  pod.deletion_timestamp = TimeMs{5};
  EXPECT_EQ(BindingConflict(pod, "n1", "uid-1"),
            "Operation cannot be fulfilled on pods \"p\": StorageError: invalid "
            "object, Code: 4, Key: /registry/pods/team-a/p, ResourceVersion: 0, "
            "AdditionalErrorMsg: Precondition failed: UID in precondition: "
            "uid-1, UID in object meta: uid-2");
}

}  // namespace
}  // namespace schedref::api
