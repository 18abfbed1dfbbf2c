// Differential fuzz target (issue 6): any bytes that decode to a scenario
// (api/scenario_decode.h) run through the reference and through the
// optimized implementation with 1 and 4 threads, without and with full
// detail, and the traces must be equal record for record; when a run fails,
// the other must fail with the same Status (code and message). A divergence
// is printed as testing/differential/differential.h explains it (the first
// differing trace record and its differing fields) and aborts.
//
// Scenarios beyond the bounds below are skipped, not run: the virtual clock
// stops at every second up to the last event (docs/semantics/event-loop.md),
// so a timeline reaching far into the future is a long run, not a bug, and
// big clusters only slow the fuzzer down (large clusters are the job of
// //testing/differential:large_cluster_properties_test).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "api/scenario.h"
#include "api/scenario_decode.h"
#include "api/scheduler.h"
#include "conformance/implementations.h"
#include "testing/differential/differential.h"

namespace {

using schedref::api::Scenario;

constexpr int64_t kMaxEndMs = 3600 * 1000;  // one hour of virtual time
constexpr size_t kMaxNodes = 64;
constexpr size_t kMaxPods = 64;
constexpr size_t kMaxEvents = 256;

bool WithinBounds(const Scenario& s) {
  if (s.timeline.size() > kMaxEvents) return false;
  if (!s.timeline.empty() && s.timeline.back().at > kMaxEndMs) return false;
  size_t nodes = s.initial.nodes.size();
  size_t pods = s.initial.pods.size();
  for (const schedref::api::Event& e : s.timeline) {
    if (e.op != schedref::api::Event::Op::kCreate) continue;
    if (std::holds_alternative<schedref::api::Node>(e.object)) ++nodes;
    if (std::holds_alternative<schedref::api::Pod>(e.object)) ++pods;
  }
  return nodes <= kMaxNodes && pods <= kMaxPods;
}

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
  if (!scenario.ok() || !WithinBounds(*scenario)) return 0;
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
