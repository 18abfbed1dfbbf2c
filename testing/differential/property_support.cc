#include "testing/differential/property_support.h"

#include <rapidcheck.h>
#include <stdlib.h>

#include <cstdio>
#include <cstdlib>
#include <set>
#include <iostream>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include "api/codec/scenario_decode.h"
#include "conformance/implementations.h"
#include "gtest/gtest.h"
#include "testing/scenario_gen/counterexample.h"
#include "testing/scenario_gen/scenario_gen.h"
#include "testing/scenario_gen/second_profile.h"

namespace schedref::testing::differential {
namespace {

namespace gen = rc::gen;
using Json = nlohmann::json;

std::string& MutableCandidate() {
  static std::string name = "optimized";
  return name;
}

// NodeResourcesFit's scoring strategy: the other two types, or its own
// default type with other weights.
Json GenScoringStrategy() {
  Json strategy;
  const std::string type = *gen::element<std::string>(
      "MostAllocated", "RequestedToCapacityRatio", "LeastAllocated");
  strategy["type"] = type;
  strategy["resources"] =
      Json::array({{{"name", "cpu"}, {"weight", *gen::element(1, 3)}},
                   {{"name", "memory"}, {"weight", 1}}});
  if (type == "RequestedToCapacityRatio") {
    strategy["requestedToCapacityRatio"]["shape"] = *gen::element(
        Json::array({{{"utilization", 0}, {"score", 10}},
                     {{"utilization", 100}, {"score", 0}}}),
        Json::array({{{"utilization", 0}, {"score", 0}},
                     {{"utilization", 50}, {"score", 7}},
                     {{"utilization", 100}, {"score", 10}}}));
  }
  return strategy;
}

// A preferred added affinity for two of the generator's zones.
Json GenAddedAffinity() {
  const Json requirement = {{"key", scenario_gen::kZoneKey},
                            {"operator", "In"},
                            {"values", Json::array({"z1", "z2"})}};
  const Json term = {{"weight", *gen::element(3, 100)},
                     {"preference",
                      {{"matchExpressions", Json::array({requirement})}}}};
  return {{"preferredDuringSchedulingIgnoredDuringExecution",
           Json::array({term})}};
}

api::Profile VaryProfile(api::Profile profile) {
  if (Chance(25)) {
    profile.plugin_config.push_back(
        {"NodeResourcesFit", {{"scoringStrategy", GenScoringStrategy()}}});
  }
  if (Chance(15)) {
    profile.plugin_config.push_back(
        {"InterPodAffinity",
         {{"hardPodAffinityWeight", *gen::element(0, 5, 100)},
          {"ignorePreferredTermsOfExistingPods", *gen::arbitrary<bool>()}}});
  }
  if (Chance(15)) {
    // Few candidates, so that the random offset into the potential nodes
    // decides which ones the dry run finds.
    profile.plugin_config.push_back(
        {"DefaultPreemption",
         {{"minCandidateNodesPercentage", *gen::element(0, 10, 50)},
          {"minCandidateNodesAbsolute", *gen::element(1, 2)}}});
  }
  if (Chance(15)) {
    profile.plugin_config.push_back(
        {"NodeAffinity", {{"addedAffinity", GenAddedAffinity()}}});
  }
  if (Chance(15)) {
    api::Plugins plugins;
    if (Chance(50)) {
      // One score plugin alone.
      plugins.score.disabled.push_back({"*", 0});
      plugins.score.enabled.push_back(
          {*gen::element<std::string>("NodeResourcesFit", "ImageLocality",
                                      "PodTopologySpread", "InterPodAffinity",
                                      "TaintToleration", "NodeAffinity",
                                      "NodeResourcesBalancedAllocation"),
           *gen::element(1, 2)});
    } else {
      // Other weights for two of the defaults (0: upstream's default).
      plugins.score.enabled.push_back(
          {"NodeResourcesBalancedAllocation", *gen::element(0, 3, 5)});
      plugins.score.enabled.push_back(
          {"TaintToleration", *gen::element(1, 7)});
    }
    profile.plugins = plugins;
  }
  if (Chance(10)) {
    profile.percentage_of_nodes_to_score = *gen::element(1, 50, 100);
  }
  return profile;
}

// The test plugins at Reserve, Permit and PreBind (reference/framework/
// plugins/testplugins): they have no EnqueueExtensions, so every event,
// the pod's own condition patch included, requeues a pod they rejected.
void AddTestPlugins(api::Profile& profile) {
  if (!profile.plugins) profile.plugins = api::Plugins{};
  profile.plugins->reserve.enabled.push_back({"TestReserve", 0});
  profile.plugins->permit.enabled.push_back({"TestPermit", 0});
  profile.plugins->pre_bind.enabled.push_back({"TestPreBind", 0});
}

// The labels the test plugins act on, sometimes, for a pod of a profile
// in `with_test_plugins`.
scenario_gen::PodLabeller TestPluginLabels(std::set<std::string> with_test_plugins) {
  return [with_test_plugins = std::move(with_test_plugins)](
             const std::string& scheduler, api::Labels& labels) {
    if (!with_test_plugins.contains(scheduler)) return;
    if (Chance(40)) {
      const std::string permit = *gen::element<std::string>("reject", "reject", "wait");
      labels["schedref.test/permit"] = permit;
      if (permit == "wait") {
        labels["schedref.test/permit-timeout"] = *gen::element<std::string>("1s", "3s", "0s");
      }
    }
    if (Chance(10)) labels["schedref.test/reserve"] = "fail";
    if (Chance(10)) {
      labels["schedref.test/prebind"] = *gen::element<std::string>("reject", "fail");
    }
  };
}

}  // namespace

const std::string& Candidate() { return MutableCandidate(); }

std::unique_ptr<api::Scheduler> Make(const std::string& name) {
  std::unique_ptr<api::Scheduler> s = conformance::MakeImplementation(name);
  if (s == nullptr) {
    std::cerr << "implementation \"" << name << "\" is not registered\n";
    std::abort();
  }
  return s;
}

bool Chance(int percent) {
  return *gen::resize(100, gen::inRange(0, 100)) >= 100 - percent;
}

api::Scenario VaryConfiguration(api::Scenario s) {
  s.config.profiles.front() = VaryProfile(s.config.profiles.front());
  // Sometimes the test plugins, and sometimes a second profile (upstream
  // runs several in one scheduler: one queue, each pod filtered, scored and
  // requeued by its own profile's plugins and queueing hints), varied like
  // the first and always with the test plugins.
  std::set<std::string> with_test_plugins;
  if (Chance(20)) {
    AddTestPlugins(s.config.profiles.front());
    with_test_plugins.insert(s.config.profiles.front().scheduler_name);
  }
  if (Chance(35)) {
    api::Profile profile = VaryProfile(api::Profile{});
    AddTestPlugins(profile);
    with_test_plugins.insert(scenario_gen::kSecondScheduler);
    scenario_gen::AddSecondProfile(s, std::move(profile),
                                   TestPluginLabels(std::move(with_test_plugins)));
  } else if (!with_test_plugins.empty()) {
    scenario_gen::AssignPods(s, /*spread=*/false,
                             TestPluginLabels(std::move(with_test_plugins)));
  }
  if (Chance(10)) {
    s.config.pod_initial_backoff_seconds = *gen::element<int64_t>(2, 1);
    s.config.pod_max_backoff_seconds = *gen::element<int64_t>(2, 4);
  }
  const scenario_gen::Canonical canonical = scenario_gen::Canonicalize(s);
  if (!canonical.ok) {
    RC_FAIL("a varied configuration does not decode: " + canonical.error);
  }
  return canonical.scenario;
}

bool ConfigurationVaried(const api::Scenario& s) {
  api::SchedulerConfiguration plain;
  plain.profiles.push_back(api::Profile{});
  return !(s.config == plain);
}

void RequireNoDivergence(const std::optional<std::string>& divergence,
                         const std::string& name, const api::Scenario& s) {
  if (!divergence) return;
  const scenario_gen::Counterexample what{
      name, "Found by testing/differential (" + Candidate() + "):\n" + *divergence + "\n",
      scenario_gen::kGeneratedUpstream};
  RC_FAIL(*divergence + "\n" + scenario_gen::WriteCounterexample(what, s, *Make("reference")));
}

int ShardCases(int cases) {
  const char* total_env = std::getenv("TEST_TOTAL_SHARDS");
  const char* index_env = std::getenv("TEST_SHARD_INDEX");
  if (total_env == nullptr || index_env == nullptr) return cases;
  const int total = std::atoi(total_env);
  const int index = std::atoi(index_env);
  if (total <= 1 || index < 0 || index >= total) return cases;
  // Bazel asks a sharded test to say that it shards by touching this file;
  // gtest would, but gtest's sharding would give a binary's single property
  // to one shard and nothing to the others, so it is turned off here.
  if (const char* status = std::getenv("TEST_SHARD_STATUS_FILE")) {
    std::FILE* f = std::fopen(status, "w");
    if (f != nullptr) std::fclose(f);
  }
  unsetenv("GTEST_TOTAL_SHARDS");
  unsetenv("GTEST_SHARD_INDEX");
  // Every shard runs every property; the first `cases % total` shards run
  // one case more, so the shards together run `cases`.
  return cases / total + (index < cases % total ? 1 : 0);
}

int PropertiesMain(int argc, char** argv, int default_cases) {
  ::testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.substr(0, 12) == "--candidate=") {
      MutableCandidate() = std::string(arg.substr(12));
    } else {
      std::cerr << "unknown argument " << arg
                << " (expected gtest flags and --candidate=NAME)\n";
      return 2;
    }
  }
  for (const std::string& name : {std::string("reference"), Candidate()}) {
    if (conformance::MakeImplementation(name) == nullptr) {
      std::cerr << "implementation \"" << name
                << "\" is not registered in conformance/implementations.cc\n";
      return 1;
    }
  }
  // RapidCheck reads RC_PARAMS when the first property runs.
  const char* env = std::getenv("RC_PARAMS");
  std::string params = env == nullptr ? "" : env;
  if (params.find("max_success") == std::string::npos) {
    params += (params.empty() ? "" : " ") + std::string("max_success=") +
              std::to_string(ShardCases(default_cases));
    setenv("RC_PARAMS", params.c_str(), /*overwrite=*/1);
  }
  return RUN_ALL_TESTS();
}

}  // namespace schedref::testing::differential
