// Differential fuzz target: any bytes that decode to a scenario
// (api/codec/scenario_decode.h) run through the reference and through the
// optimized implementation with 1 and 4 threads, without and with full
// detail, and the traces must be equal record for record; when a run fails,
// the other must fail with the same Status (code and message). A divergence
// is printed as testing/differential/differential.h explains it (the first
// differing trace record and its differing fields) and aborts.
//
// Scenarios beyond fuzz/differential_bounds.h are skipped, not run (long
// virtual timelines and big clusters only slow the fuzzer down). So are
// inputs that do not decode; //fuzz:golden_seeds_test checks that the
// golden seeds of the corpus do decode and are within the bounds.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>

#include "api/codec/scenario_decode.h"
#include "api/scheduler.h"
#include "api/types/scenario.h"
#include "conformance/implementations.h"
#include "fuzz/differential_bounds.h"
#include "testing/differential/differential.h"

namespace {

using schedref::api::Scenario;

std::unique_ptr<schedref::api::Scheduler> Make(const char* name) {
  std::unique_ptr<schedref::api::Scheduler> s =
      schedref::conformance::MakeImplementation(name);
  if (s == nullptr) {
    std::fprintf(stderr,
                 "differential_fuzz: implementation \"%s\" is not registered "
                 "in conformance/implementations.cc\n",
                 name);
    std::abort();
  }
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  schedref::StatusOr<Scenario> scenario =
      schedref::api::DecodeScenario(text, "fuzz.yaml");
  if (!scenario.ok() || !schedref::fuzz::WithinDifferentialBounds(*scenario)) {
    return 0;
  }
  // Fresh instances for every input, so that a crash file replays alone.
  const std::unique_ptr<schedref::api::Scheduler> reference = Make("reference");
  const std::unique_ptr<schedref::api::Scheduler> optimized = Make("optimized");
  const std::optional<std::string> divergence =
      schedref::testing::differential::FirstDivergence(
          *scenario, *reference, *optimized, /*threads=*/{1, 4});
  if (divergence) {
    std::fprintf(stderr, "differential_fuzz: %s\n", divergence->c_str());
    std::abort();
  }
  return 0;
}
