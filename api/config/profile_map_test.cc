#include "api/config/profile_map.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace schedref::api {
namespace {

Profile MakeProfile(const std::string& name,
                    std::vector<PluginConfig> plugin_config = {}) {
  Profile p;
  p.scheduler_name = name;
  p.plugin_config = std::move(plugin_config);
  return p;
}

TEST(ProfileMapTest, ErrorWhere) {
  EXPECT_EQ(ProfileErrorWhere("s.yaml", 2), "s.yaml: config.profiles[2]");
  EXPECT_EQ(ProfileErrorWhere("", 0), "config.profiles[0]");
  EXPECT_EQ(CreatingProfileError("s.yaml: config.profiles[0]",
                                 MakeProfile("default-scheduler"),
                                 Status::Invalid("ScorePlugin \"Foo\" does not exist"))
                .message(),
            "s.yaml: config.profiles[0]: initializing profiles: creating profile "
            "for scheduler name default-scheduler: ScorePlugin \"Foo\" does not "
            "exist");
}

TEST(ProfileMapTest, QueueSortValidator) {
  const nlohmann::json a = {{"foo", 1}};
  const nlohmann::json b = {{"foo", 2}};
  struct Case {
    const char* name;
    std::vector<Profile> profiles;
    std::vector<std::string> sorts;
    std::string want;  // the last profile's error; empty: all Ok
  };
  const std::vector<Case> cases = {
      {"same plugin, no args", {MakeProfile("a"), MakeProfile("b")},
       {"PrioritySort", "PrioritySort"}, ""},
      {"same plugin, equal args",
       {MakeProfile("a", {{"PrioritySort", a}}), MakeProfile("b", {{"PrioritySort", a}})},
       {"PrioritySort", "PrioritySort"}, ""},
      {"args of other plugins do not count",
       {MakeProfile("a", {{"NodeAffinity", a}}), MakeProfile("b")},
       {"PrioritySort", "PrioritySort"}, ""},
      {"args only in the second",
       {MakeProfile("a"), MakeProfile("b", {{"PrioritySort", a}})},
       {"PrioritySort", "PrioritySort"},
       "w: initializing profiles: different queue sort plugin args for profile \"b\""},
      {"different args",
       {MakeProfile("a", {{"PrioritySort", a}}), MakeProfile("b", {{"PrioritySort", b}})},
       {"PrioritySort", "PrioritySort"},
       "w: initializing profiles: different queue sort plugin args for profile \"b\""},
      {"different plugins", {MakeProfile("a"), MakeProfile("b")},
       {"PrioritySort", "OtherSort"},
       "w: initializing profiles: different queue sort plugins for profile \"b\": "
       "\"OtherSort\", first: \"PrioritySort\""},
  };
  for (const Case& c : cases) {
    QueueSortValidator v;
    Status last;
    for (size_t i = 0; i < c.profiles.size(); ++i) {
      last = v.Validate("w", c.profiles[i], c.sorts[i]);
      if (i + 1 < c.profiles.size()) {
        EXPECT_TRUE(last.ok()) << c.name;
      }
    }
    if (c.want.empty()) {
      EXPECT_TRUE(last.ok()) << c.name << ": " << last.message();
    } else {
      EXPECT_EQ(last.message(), c.want) << c.name;
    }
  }
}

}  // namespace
}  // namespace schedref::api
