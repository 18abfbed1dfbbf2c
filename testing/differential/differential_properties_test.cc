// Differential property: the implementation under test (by
// default "optimized", as registered in conformance/implementations.cc)
// makes exactly the reference's decisions on small generated scenarios
// (testing/scenario_gen), for 1, 2 and 4 threads, with and without full
// detail, under the default or a varied configuration. 100 cases unless
// RC_PARAMS says max_success. The large clusters are in
// large_cluster_properties_test.cc.
//
// A failure prints RapidCheck's seed, the shrunk scenario (as a scenario
// file) and the first differing trace record of the two runs with the fields
// that differ. The scenario is also written, with the reference's trace as
// its expectedTrace, under $TEST_UNDECLARED_OUTPUTS_DIR (or /tmp), ready for
// `schedref check`. Replay the shrunk case with
//   RC_PARAMS="reproduce=<string RapidCheck printed>"
//   bazel-bin/testing/differential/differential_properties_test
// and compare another registered implementation with --candidate=NAME
// (--candidate=reference checks the harness end to end: the reference must
// agree with itself).
#include <memory>
#include <utility>

#include "gtest/gtest.h"
// After gtest.h: rapidcheck/gtest.h uses its macros.
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "api/scheduler.h"
#include "api/types/scenario.h"
#include "testing/differential/differential.h"
#include "testing/differential/property_support.h"
#include "testing/scenario_gen/scenario_gen.h"

namespace schedref::testing::differential {
namespace {

// The candidate's trace equals the reference's, record for record, with 1,
// 2 and 4 threads, with and without full detail (per-node filter verdicts
// and scores), on generated scenarios of up to 8 nodes and 15 pods.
RC_GTEST_PROP(Differential, SameTracesAsTheReference, ()) {
  scenario_gen::Options options;
  // Claims, PVs and CSI limits in a share of the cases (the volume plugins),
  // created, deleted and changed in the timeline.
  options.storage_percent = 30;
  options.storage_changes = true;
  // Pod lifetimes in a share of the cases: pods finish and free their room.
  options.lifetime_percent = 40;
  // A declared scheduler extender (filter, prioritize, bind, preempt, its
  // errors and timeouts) in a share of the cases.
  options.extender_percent = 20;
  api::Scenario s = *scenario_gen::GenScenario(options);
  if (Chance(60)) s = VaryConfiguration(std::move(s));
  RC_CLASSIFY(ConfigurationVaried(s), "varied configuration");
  RC_CLASSIFY(!s.extenders.empty(), "declared extender");
  std::unique_ptr<api::Scheduler> reference = Make("reference");
  std::unique_ptr<api::Scheduler> candidate = Make(Candidate());
  RequireNoDivergence(
      FirstDivergence(s, *reference, *candidate, DefaultThreadCounts()),
      "differential-same-traces", s);
}

}  // namespace
}  // namespace schedref::testing::differential

int main(int argc, char** argv) {
  return schedref::testing::differential::PropertiesMain(argc, argv,
                                                         /*default_cases=*/100);
}
