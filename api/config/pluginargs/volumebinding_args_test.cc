#include "api/config/pluginargs/volumebinding_args.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace schedref::api::pluginargs {
namespace {

TEST(VolumeBindingArgs, Cases) {
  struct Case {
    const char* name;
    const char* json;
    bool ok;
    int64_t timeout;
    const char* error;
  } cases[] = {
      {"defaults", "{}", true, 600, ""},
      {"explicit", R"({"bindTimeoutSeconds": 300})", true, 300, ""},
      {"zero allowed", R"({"bindTimeoutSeconds": 0})", true, 0, ""},
      {"negative", R"({"bindTimeoutSeconds": -1})", false, 0,
       "bindTimeoutSeconds: Invalid value: -1: invalid BindTimeoutSeconds, should not be a "
       "negative value"},
      {"shape with the gate off", R"({"shape": [{"utilization": 0, "score": 0}]})", false, 0,
       "unexpected field `shape`"},
      {"unknown field", R"({"foo": 1})", false, 0, "foo"},
  };
  for (const Case& c : cases) {
    auto got = DecodeVolumeBindingArgs(nlohmann::json::parse(c.json));
    EXPECT_EQ(got.ok(), c.ok) << c.name;
    if (got.ok() && c.ok) EXPECT_EQ(got->bind_timeout_seconds, c.timeout) << c.name;
    if (!got.ok()) {
      EXPECT_NE(got.status().message().find(c.error), std::string::npos)
          << c.name << ": " << got.status().message();
    }
  }
}

}  // namespace
}  // namespace schedref::api::pluginargs
