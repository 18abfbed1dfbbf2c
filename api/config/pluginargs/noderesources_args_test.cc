#include "api/config/pluginargs/noderesources_args.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace schedref::api::pluginargs {
namespace {

using nlohmann::json;

// Defaulting: upstream pkg/scheduler/apis/config/v1/defaults_test.go
// (NodeResourcesFitArgs / NodeResourcesBalancedAllocationArgs rows).
TEST(ArgsTest, FitDefaults) {
  auto empty = DecodeNodeResourcesFitArgs(json::object());
  ASSERT_TRUE(empty.ok()) << empty.status().message();
  EXPECT_EQ(empty->scoring_strategy,
            (ScoringStrategy{kLeastAllocated, DefaultResourceSpec(),
                             std::nullopt}));

  auto most = DecodeNodeResourcesFitArgs(
      json::parse(R"({"scoringStrategy": {"type": "MostAllocated"}})"));
  ASSERT_TRUE(most.ok()) << most.status().message();
  EXPECT_EQ(most->scoring_strategy->resources, DefaultResourceSpec());

  auto zero_weight = DecodeNodeResourcesFitArgs(json::parse(
      R"({"scoringStrategy": {"type": "LeastAllocated",
          "resources": [{"name": "cpu"}, {"name": "example.com/x", "weight": 3}]}})"));
  ASSERT_TRUE(zero_weight.ok()) << zero_weight.status().message();
  EXPECT_EQ(zero_weight->scoring_strategy->resources,
            (std::vector<ResourceSpec>{{"cpu", 1}, {"example.com/x", 3}}));

  auto balanced = DecodeNodeResourcesBalancedAllocationArgs(json::object());
  ASSERT_TRUE(balanced.ok());
  EXPECT_EQ(balanced->resources, DefaultResourceSpec());
}

struct ErrorCase {
  std::string name;
  std::string args;
  std::string want;  // the full message
};

// Validation: upstream validation_pluginargs_test.go
// TestValidateFitArgs and the weight rows of least/most_allocated_test.go.
TEST(ArgsTest, FitValidation) {
  const std::vector<ErrorCase> cases = {
      {"resource with negative weight",
       R"({"scoringStrategy": {"type": "LeastAllocated", "resources":
           [{"name": "memory", "weight": -1}, {"name": "cpu", "weight": 1}]}})",
       "scoringStrategy.resources[0].weight: Invalid value: -1: resource "
       "weight of memory not in valid range (0, 100]"},
      {"resource weight larger than MaxNodeScore",
       R"({"scoringStrategy": {"type": "MostAllocated", "resources":
           [{"name": "memory", "weight": 101}]}})",
       "scoringStrategy.resources[0].weight: Invalid value: 101: resource "
       "weight of memory not in valid range (0, 100]"},
      {"unsupported strategy type",
       R"({"scoringStrategy": {"type": "Foo"}})",
       "scoringStrategy.type: Unsupported value: \"Foo\": supported values: "
       "\"LeastAllocated\", \"MostAllocated\", \"RequestedToCapacityRatio\""},
      {"IgnoredResourceGroups: contains '/'",
       R"({"ignoredResourceGroups": ["example.com/aaa"]})",
       "ignoredResourceGroups[0]: Invalid value: \"example.com/aaa\": "
       "resource group name can't contain '/'"},
      {"shape: empty",
       R"({"scoringStrategy": {"type": "RequestedToCapacityRatio",
           "requestedToCapacityRatio": {"shape": []}}})",
       "scoringStrategy.shape: Required value: at least one point must be "
       "specified"},
      {"shape: not increasing and out of range",
       R"({"scoringStrategy": {"type": "RequestedToCapacityRatio",
           "requestedToCapacityRatio": {"shape": [
             {"utilization": 50, "score": 11}, {"utilization": 10, "score": 2},
             {"utilization": 101, "score": -1}]}}})",
       "[scoringStrategy.shape[1].utilization: Invalid value: 10: utilization "
       "values must be sorted in increasing order, "
       "scoringStrategy.shape[0].score: Invalid value: 11: not in valid range "
       "[0, 10], scoringStrategy.shape[2].utilization: Invalid value: 101: not "
       "in valid range [0, 100], scoringStrategy.shape[2].score: Invalid "
       "value: -1: not in valid range [0, 10]]"},
      {"RequestedToCapacityRatio without requestedToCapacityRatio (pinned)",
       R"({"scoringStrategy": {"type": "RequestedToCapacityRatio"}})",
       "scoringStrategy.shape: Required value: at least one point must be "
       "specified"},
      {"unknown field", R"({"ignoredResource": []})",
       "strict decoding error: unknown field \"ignoredResource\""},
      {"unknown nested field",
       R"({"scoringStrategy": {"type": "LeastAllocated", "shape": []}})",
       "strict decoding error: unknown field \"scoringStrategy.shape\""},
      {"wrong type", R"({"scoringStrategy": {"type": 3}})",
       "scoringStrategy.type: expected a string"},
  };
  for (const ErrorCase& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto got = DecodeNodeResourcesFitArgs(json::parse(tc.args));
    ASSERT_FALSE(got.ok());
    EXPECT_EQ(got.status().message(), tc.want);
  }
  // IgnoredResources: one error per problem (metav1validation
  // ValidateLabelName), so an empty name has two.
  auto bad = DecodeNodeResourcesFitArgs(
      json::parse(R"({"ignoredResources": ["-bad", ""], "ignoredResourceGroups": ["a/b"]})"));
  ASSERT_FALSE(bad.ok());
  const std::string regex =
      " (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
      "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
  const std::string chars =
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must "
      "start and end with an alphanumeric character" + regex;
  EXPECT_EQ(bad.status().message(),
            "[ignoredResources[0]: Invalid value: \"-bad\": " + chars +
                ", ignoredResources[1]: Invalid value: \"\": name part must be non-empty"
                ", ignoredResources[1]: Invalid value: \"\": " + chars +
                ", ignoredResourceGroups[0]: Invalid value: \"a/b\": resource group name "
                "can't contain '/']");

  // Valid: everything set.
  auto ok = DecodeNodeResourcesFitArgs(json::parse(R"({
    "apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "NodeResourcesFitArgs",
    "ignoredResources": ["example.com/foo"],
    "ignoredResourceGroups": ["example.com"],
    "scoringStrategy": {"type": "RequestedToCapacityRatio",
      "resources": [{"name": "cpu", "weight": 100}],
      "requestedToCapacityRatio": {"shape": [
        {"utilization": 0, "score": 0}, {"utilization": 100, "score": 10}]}}})"));
  ASSERT_TRUE(ok.ok()) << ok.status().message();
}

// upstream TestValidateNodeResourcesBalancedAllocationArgs.
TEST(ArgsTest, BalancedValidation) {
  const std::vector<ErrorCase> cases = {
      {"invalid weight",
       R"({"resources": [{"name": "cpu", "weight": 2}, {"name": "memory", "weight": 1}]})",
       "resources[0].weight: Invalid value: 2: must be 1"},
      {"duplicated resources",
       R"({"resources": [{"name": "cpu", "weight": 1}, {"name": "cpu", "weight": 1}]})",
       "resources[1].name: Duplicate value: \"cpu\""},
  };
  for (const ErrorCase& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto got = DecodeNodeResourcesBalancedAllocationArgs(json::parse(tc.args));
    ASSERT_FALSE(got.ok());
    EXPECT_EQ(got.status().message(), tc.want);
  }
  EXPECT_TRUE(DecodeNodeResourcesBalancedAllocationArgs(json::parse(
                  R"({"resources": [{"name": "cpu"}, {"name": "memory"},
                      {"name": "example.com/gpu", "weight": 1}]})"))
                  .ok());
}

}  // namespace
}  // namespace schedref::api::pluginargs
