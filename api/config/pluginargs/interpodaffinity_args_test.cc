// Rows from upstream validation_pluginargs_test.go
// TestValidateInterPodAffinityArgs and the v1 defaults.
#include "api/config/pluginargs/interpodaffinity_args.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace schedref::api::pluginargs {
namespace {

TEST(InterPodAffinityArgsTest, DecodeDefaultsAndValidation) {
  auto d = DecodeInterPodAffinityArgs(nlohmann::json::object());
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->hard_pod_affinity_weight, 1);
  EXPECT_FALSE(d->ignore_preferred_terms_of_existing_pods);

  d = DecodeInterPodAffinityArgs(
      {{"hardPodAffinityWeight", 0}, {"ignorePreferredTermsOfExistingPods", true}});
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->hard_pod_affinity_weight, 0);
  EXPECT_TRUE(d->ignore_preferred_terms_of_existing_pods);

  d = DecodeInterPodAffinityArgs({{"hardPodAffinityWeight", -1}});
  EXPECT_EQ(d.status().message(),
            "hardPodAffinityWeight: Invalid value: -1: not in valid range "
            "[0, 100]");
  d = DecodeInterPodAffinityArgs({{"hardPodAffinityWeight", 101}});
  EXPECT_EQ(d.status().message(),
            "hardPodAffinityWeight: Invalid value: 101: not in valid range "
            "[0, 100]");
  d = DecodeInterPodAffinityArgs({{"hardPodAffinityWeigh", 1}});
  EXPECT_EQ(d.status().message(),
            "strict decoding error: unknown field \"hardPodAffinityWeigh\"");
}

}  // namespace
}  // namespace schedref::api::pluginargs
