// Rows from upstream validation_pluginargs_test.go
// TestValidateDefaultPreemptionArgs and the v1 defaults.
#include "api/config/pluginargs/defaultpreemption_args.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace schedref::api::pluginargs {
namespace {

TEST(DefaultPreemptionArgsTest, DecodeDefaultsAndValidation) {
  auto d = DecodeDefaultPreemptionArgs(nlohmann::json::object());
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->min_candidate_nodes_percentage, 10);
  EXPECT_EQ(d->min_candidate_nodes_absolute, 100);
  struct Case {
    std::string name;
    nlohmann::json args;
    std::string want;
  };
  std::vector<Case> cases = {
      {"valid args (default)", nlohmann::json::object(), ""},
      {"negative minCandidateNodesPercentage",
       {{"minCandidateNodesPercentage", -1}, {"minCandidateNodesAbsolute", 100}},
       "minCandidateNodesPercentage: Invalid value: -1: not in valid range "
       "[0, 100]"},
      {"minCandidateNodesPercentage over 100",
       {{"minCandidateNodesPercentage", 900}, {"minCandidateNodesAbsolute", 100}},
       "minCandidateNodesPercentage: Invalid value: 900: not in valid range "
       "[0, 100]"},
      {"negative minCandidateNodesAbsolute",
       {{"minCandidateNodesPercentage", 20}, {"minCandidateNodesAbsolute", -1}},
       "minCandidateNodesAbsolute: Invalid value: -1: not in valid range "
       "[0, inf)"},
      {"all zero",
       {{"minCandidateNodesPercentage", 0}, {"minCandidateNodesAbsolute", 0}},
       "[minCandidateNodesPercentage: Invalid value: 0: cannot be zero at the "
       "same time as minCandidateNodesAbsolute, minCandidateNodesAbsolute: "
       "Invalid value: 0: cannot be zero at the same time as "
       "minCandidateNodesPercentage]"},
      {"both negative",
       {{"minCandidateNodesPercentage", -1}, {"minCandidateNodesAbsolute", -1}},
       "[minCandidateNodesPercentage: Invalid value: -1: not in valid range "
       "[0, 100], minCandidateNodesAbsolute: Invalid value: -1: not in valid "
       "range [0, inf)]"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(DecodeDefaultPreemptionArgs(c.args).status().message(), c.want);
  }
}

}  // namespace
}  // namespace schedref::api::pluginargs
