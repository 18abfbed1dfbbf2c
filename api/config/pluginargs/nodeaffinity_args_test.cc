#include "api/config/pluginargs/nodeaffinity_args.h"

#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

namespace schedref::api::pluginargs {
namespace {

// Args decoding and validation (upstream validation_pluginargs_test.go
// TestValidateNodeAffinityArgs, shapes of its cases).
TEST(NodeAffinityArgsTest, Decode) {
  auto ok = DecodeNodeAffinityArgs(nlohmann::json::parse(R"({
    "addedAffinity": {
      "requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": [{"matchExpressions":
            [{"key": "zone", "operator": "In", "values": ["a"]}]}]},
      "preferredDuringSchedulingIgnoredDuringExecution": [
        {"weight": 1, "preference": {"matchFields":
            [{"key": "metadata.name", "operator": "In", "values": ["n"]}]}}]
    }})"));
  ASSERT_TRUE(ok.ok()) << ok.status().message();
  ASSERT_TRUE(ok->added_affinity.has_value());
  EXPECT_EQ(ok->added_affinity->required->terms.size(), 1u);
  EXPECT_EQ(ok->added_affinity->preferred.size(), 1u);

  EXPECT_TRUE(DecodeNodeAffinityArgs(nlohmann::json::object()).ok());
  EXPECT_TRUE(DecodeNodeAffinityArgs(nullptr).ok());

  auto unknown = DecodeNodeAffinityArgs(nlohmann::json{{"foo", 1}});
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message(),
            "strict decoding error: unknown field \"foo\"");

  // "invalid added affinity": both a bad required and a bad preferred term.
  auto invalid = DecodeNodeAffinityArgs(nlohmann::json::parse(R"({
    "addedAffinity": {
      "requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": [{"matchExpressions":
            [{"key": "zone", "operator": "Foo", "values": ["a"]}]}]},
      "preferredDuringSchedulingIgnoredDuringExecution": [
        {"weight": 1, "preference": {"matchExpressions":
            [{"key": "disk", "operator": "Gt", "values": ["x"]}]}}]
    }})"));
  ASSERT_FALSE(invalid.ok());
  const std::string& msg = invalid.status().message();
  EXPECT_NE(msg.find("[addedAffinity.requiredDuringSchedulingIgnoredDuring"
                     "Execution.nodeSelectorTerms[0].matchExpressions[0]."
                     "operator: "),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find(", addedAffinity.preferredDuringSchedulingIgnoredDuring"
                     "Execution[0].preference.matchExpressions[0].values[0]: "),
            std::string::npos)
      << msg;
}

}  // namespace
}  // namespace schedref::api::pluginargs
