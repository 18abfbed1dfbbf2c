#include "api/config/pluginargs/plugin_config.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace schedref::api::pluginargs {
namespace {

using nlohmann::json;

TEST(PluginConfigTest, HasArgsKind) {
  for (const char* p : {"DefaultPreemption", "InterPodAffinity", "NodeAffinity",
                        "NodeResourcesBalancedAllocation", "NodeResourcesFit",
                        "PodTopologySpread"}) {
    EXPECT_TRUE(HasArgsKind(p)) << p;
  }
  for (const char* p : {"PrioritySort", "TaintToleration", "TestPermit", ""}) {
    EXPECT_FALSE(HasArgsKind(p)) << p;
  }
}

TEST(PluginConfigTest, DecodeNestedArgs) {
  struct Case {
    const char* name;
    const char* plugin;
    json args;
    std::string want_error;  // empty: Ok
  };
  const std::vector<Case> cases = {
      {"TypeMeta of the plugin's own kind", "InterPodAffinity",
       {{"apiVersion", "kubescheduler.config.k8s.io/v1"},
        {"kind", "InterPodAffinityArgs"},
        {"hardPodAffinityWeight", 5}},
       ""},
      {"kind alone", "DefaultPreemption",
       {{"kind", "DefaultPreemptionArgs"}, {"minCandidateNodesAbsolute", 3}},
       ""},
      {"another plugin's kind", "NodeResourcesFit",
       {{"kind", "InterPodAffinityArgs"}, {"hardPodAffinityWeight", 5}},
       "args for plugin NodeResourcesFit were not of type "
       "NodeResourcesFitArgs.kubescheduler.config.k8s.io, got "
       "InterPodAffinityArgs.kubescheduler.config.k8s.io"},
      {"an unregistered kind", "NodeAffinity", {{"kind", "Foo"}},
       "decoding args for plugin NodeAffinity: no kind \"Foo\" is registered "
       "for version \"kubescheduler.config.k8s.io/v1\""},
      {"a removed version", "PodTopologySpread",
       {{"apiVersion", "kubescheduler.config.k8s.io/v1beta3"}},
       "decoding args for plugin PodTopologySpread: no kind "
       "\"PodTopologySpreadArgs\" is registered for version "
       "\"kubescheduler.config.k8s.io/v1beta3\""},
      {"an unknown field, whatever validation says", "InterPodAffinity",
       {{"hardPodAffinityWeigth", 500}},
       "decoding args for plugin InterPodAffinity: strict decoding error: "
       "unknown field \"hardPodAffinityWeigth\""},
      {"a wrong type", "NodeResourcesBalancedAllocation",
       {{"resources", "cpu"}},
       "decoding args for plugin NodeResourcesBalancedAllocation: resources: "
       "expected a list"},
      {"an integral float is an integer", "InterPodAffinity",
       {{"hardPodAffinityWeight", 2.0}}, ""},
      {"invalid but decodable: decoding passes", "InterPodAffinity",
       {{"hardPodAffinityWeight", 500}}, ""},
      {"no args kind: not decoded here", "PrioritySort", {{"foo", 1}}, ""},
  };
  for (const Case& c : cases) {
    const Status s = DecodeNestedArgs(c.plugin, c.args);
    if (c.want_error.empty()) {
      EXPECT_TRUE(s.ok()) << c.name << ": " << s.message();
    } else {
      EXPECT_EQ(s.message(), c.want_error) << c.name;
    }
  }
}

TEST(PluginConfigTest, ValidateNestedArgs) {
  const std::string at = "profiles[0].pluginConfig[1].args";
  struct Case {
    const char* name;
    const char* plugin;
    json args;
    std::vector<std::string> want;
  };
  const std::vector<Case> cases = {
      {"InterPodAffinity out of range", "InterPodAffinity",
       {{"hardPodAffinityWeight", 200}},
       {at + ".hardPodAffinityWeight: Invalid value: 200: not in valid range "
             "[0, 100]"}},
      {"DefaultPreemption: every error, one by one", "DefaultPreemption",
       {{"minCandidateNodesPercentage", 0}, {"minCandidateNodesAbsolute", 0}},
       {at + ".minCandidateNodesPercentage: Invalid value: 0: cannot be zero "
             "at the same time as minCandidateNodesAbsolute",
        at + ".minCandidateNodesAbsolute: Invalid value: 0: cannot be zero at "
             "the same time as minCandidateNodesPercentage"}},
      {"BalancedAllocation", "NodeResourcesBalancedAllocation",
       {{"resources", json::array({{{"name", "cpu"}, {"weight", 2}}})}},
       {at + ".resources[0].weight: Invalid value: 2: must be 1"}},
      {"PodTopologySpread", "PodTopologySpread",
       {{"defaultingType", "Sometimes"}},
       {at + ".defaultingType: Unsupported value: \"Sometimes\": supported "
             "values: \"System\", \"List\""}},
      {"NodeResourcesFit is not in upstream's table", "NodeResourcesFit",
       {{"scoringStrategy", {{"type", "Nope"}}}},
       {}},
      {"valid args", "InterPodAffinity", {{"hardPodAffinityWeight", 100}}, {}},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(ValidateNestedArgs(c.plugin, c.args, at), c.want) << c.name;
  }
}

}  // namespace
}  // namespace schedref::api::pluginargs
