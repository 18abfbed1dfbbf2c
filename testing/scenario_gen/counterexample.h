// A failing generated scenario kept as a golden file (golden/README.md,
// docs/scenario-format.md): what the properties of testing/scenario_gen and
// testing/differential write when they fail, so that the shrunk case can be
// replayed with `schedref check` and, once reviewed, committed to golden/
// as it is. While RapidCheck shrinks, each failing candidate overwrites the
// file of the same name, so the last one written is the smallest.
//
// The expectedTrace is the trace of the scheduler the caller names as the
// reference: the writer depends on no implementation.
#ifndef SCHEDREF_TESTING_SCENARIO_GEN_COUNTEREXAMPLE_H_
#define SCHEDREF_TESTING_SCENARIO_GEN_COUNTEREXAMPLE_H_

#include <string>

#include "api/scheduler.h"
#include "api/types/scenario.h"

namespace schedref::testing::scenario_gen {

// What the golden file says about itself (golden/metadata_test.cc checks
// the same fields of every committed golden).
struct Counterexample {
  // The golden's name and file name (<name>.yaml): kebab case, as golden/
  // names are.
  std::string name;
  // What failed and what found it: the golden's description.
  std::string description;
  // The upstream code the scenario concerns: the golden's upstream.
  std::string upstream;
};

// The upstream of a generated scenario: no upstream test wrote it, and
// upstream's scheduling loop is what its trace pins.
inline constexpr char kGeneratedUpstream[] =
    "pkg/scheduler/schedule_one.go ScheduleOne (a generated scenario; no "
    "upstream test)";

// Where counterexamples are written: $TEST_UNDECLARED_OUTPUTS_DIR if it is
// set and not empty (under `bazel test`, kept as
// bazel-testlogs/<package>/<target>/test.outputs/), otherwise /tmp.
[[nodiscard]] std::string CounterexampleDir();

// Writes `scenario` as the golden file CounterexampleDir()/<name>.yaml with
// the name, description and upstream of `what`, and as expectedTrace the
// trace `reference` produces for it, so that the file passes
// `schedref check --impl reference` in strict mode. Returns the line a
// failing property prints about it, which names the file:
//   "scenario written to <path>"
//   "scenario written to <path> without expectedTrace: <reference's error>"
//   "scenario not written: cannot write <path>"
// REQUIRES: `scenario` is as DecodeScenario returns it (as GenScenario's
// are), so that the file decodes back to it.
[[nodiscard]] std::string WriteCounterexample(const Counterexample& what,
                                              const api::Scenario& scenario,
                                              api::Scheduler& reference);

}  // namespace schedref::testing::scenario_gen

#endif  // SCHEDREF_TESTING_SCENARIO_GEN_COUNTEREXAMPLE_H_
