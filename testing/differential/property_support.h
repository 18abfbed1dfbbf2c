// What the differential RapidCheck properties share: the implementation
// under test (--candidate), configuration variations of generated
// scenarios, how a failure is reported and kept, and a main() that lets
// RC_PARAMS override each binary's default case count.
#ifndef SCHEDREF_TESTING_DIFFERENTIAL_PROPERTY_SUPPORT_H_
#define SCHEDREF_TESTING_DIFFERENTIAL_PROPERTY_SUPPORT_H_

#include <memory>
#include <optional>
#include <string>

#include "api/scheduler.h"
#include "api/types/scenario.h"

namespace schedref::testing::differential {

// The implementation under test, by its name in
// conformance/implementations.cc; "optimized" unless --candidate=NAME.
[[nodiscard]] const std::string& Candidate();

// A fresh instance of a registered implementation.
// REQUIRES: `name` is "reference" or Candidate() (PropertiesMain checks both).
[[nodiscard]] std::unique_ptr<api::Scheduler> Make(const std::string& name);

// True with probability percent/100; shrinks to false. For use inside a
// property.
[[nodiscard]] bool Chance(int percent);

// For use inside a property: `s` (as GenScenario returns it: one default
// profile) with, sometimes, a varied configuration, as DecodeScenario
// returns it: another NodeResourcesFit scoring strategy, InterPodAffinity,
// DefaultPreemption or NodeAffinity args, other score weights or a single
// score plugin, a profile percentageOfNodesToScore, other backoffs, the
// test plugins at Reserve, Permit and PreBind (with pods labelled for them),
// a second profile (with the test plugins) that some pods use while a few
// name no profile at all. Every variation shrinks away. Fails the property if the result does not decode.
[[nodiscard]] api::Scenario VaryConfiguration(api::Scenario s);

// Whether the profile of `s` differs from the default one.
[[nodiscard]] bool ConfigurationVaried(const api::Scenario& s);

// For use inside a property: nothing if `divergence` is empty; otherwise
// writes `s` as the golden file `<name>.yaml` (expectedTrace = the
// reference's trace; scenario_gen::WriteCounterexample says where) and
// fails the property with the divergence and the file's path.
void RequireNoDivergence(const std::optional<std::string>& divergence,
                         const std::string& name, const api::Scenario& s);

// The share of `cases` that this process runs: all of them, unless Bazel
// runs the test in shards (TEST_TOTAL_SHARDS, TEST_SHARD_INDEX), where each
// shard runs every property for its share of the cases (RapidCheck seeds
// each run afresh, so the shards draw different cases) and the shares add
// up to `cases`. A sharded process also tells Bazel that it shards and
// turns off gtest's own sharding, which would split by property.
[[nodiscard]] int ShardCases(int cases);

// main() of a property binary: gtest flags, then --candidate=NAME; checks
// that "reference" and the candidate are registered; unless RC_PARAMS
// already says max_success, runs ShardCases(default_cases) cases per
// property.
int PropertiesMain(int argc, char** argv, int default_cases);

}  // namespace schedref::testing::differential

#endif  // SCHEDREF_TESTING_DIFFERENTIAL_PROPERTY_SUPPORT_H_
