// Differential property on large generated clusters: 150 to 300
// nodes, where filtering runs in parallel batches and
// percentageOfNodesToScore's early stop decides which nodes are evaluated.
// The implementation under test (--candidate, default "optimized") must
// produce the same trace with 2 and 4 threads as with 1 (the metamorphic
// relation api/scheduler.h states), and that trace must be the reference's.
// 30 cases unless RC_PARAMS says max_success (a case runs the candidate six
// times and the reference twice on up to 300 nodes). Failures are reported
// and kept as in differential_properties_test.cc.
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <variant>

#include "gtest/gtest.h"
// After gtest.h: rapidcheck/gtest.h uses its macros.
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "api/scheduler.h"
#include "api/types/scenario.h"
#include "api/types/trace.h"
#include "testing/differential/differential.h"
#include "testing/differential/property_support.h"
#include "testing/scenario_gen/scenario_gen.h"

namespace schedref::testing::differential {
namespace {

// Whether some attempt stopped filtering early: it found at least 100
// feasible nodes (percentageOfNodesToScore never asks for fewer) without
// evaluating every node the cluster had then. The node count is replayed
// from the timeline; attempts at t come after the events at t
// (docs/semantics/event-loop.md).
bool StoppedEarly(const api::Scenario& s, const api::Trace& trace) {
  std::set<std::string> nodes;
  for (const api::Node& n : s.initial.nodes) nodes.insert(n.name);
  size_t next = 0;
  for (const api::Trace::Record& r : trace.records) {
    const api::Attempt* a = api::AsAttempt(r);
    if (a == nullptr) continue;
    for (; next < s.timeline.size() && s.timeline[next].at <= a->at;
         ++next) {
      const api::Event& e = s.timeline[next];
      if (e.op == api::Event::Op::kCreate &&
          std::holds_alternative<api::Node>(e.object)) {
        nodes.insert(e.name);
      } else if (e.op == api::Event::Op::kDelete && e.kind == "Node") {
        nodes.erase(e.name);
      }
    }
    if (a->feasible >= 100 && a->evaluated < static_cast<int64_t>(nodes.size())) {
      return true;
    }
  }
  return false;
}

// Sometimes seven nodes in eight lose their taints and cordon, so that most
// pods find 100 feasible nodes or more and the early stop happens. (Nodes
// added or updated by the timeline keep theirs.)
api::Scenario MaybeOpenUp(api::Scenario s) {
  if (!Chance(50)) return s;
  for (size_t i = 0; i < s.initial.nodes.size(); ++i) {
    if (i % 8 == 0) continue;
    s.initial.nodes[i].taints.clear();
    s.initial.nodes[i].unschedulable = false;
  }
  return s;
}

RC_GTEST_PROP(Differential, LargeClusterSameTracesAtAnyThreadCount, ()) {
  scenario_gen::Options options;
  options.min_nodes = 150;
  options.max_nodes = 300;
  options.max_pods = 30;
  options.max_events = 30;
  options.shrink_nodes = false;
  api::Scenario s = MaybeOpenUp(*scenario_gen::GenScenario(options));
  // 0: adaptive (48% or 49% at this size).
  s.config.percentage_of_nodes_to_score = *rc::gen::element(0, 10, 30, 60, 100);
  if (Chance(30)) s = VaryConfiguration(std::move(s));
  std::unique_ptr<api::Scheduler> reference = Make("reference");
  std::unique_ptr<api::Scheduler> candidate = Make(Candidate());
  for (bool full_detail : {false, true}) {
    // Threads first: the candidate at 1 thread is the baseline ...
    const Outcome base =
        RunOnce(*candidate, s,
                {.full_detail = full_detail,
                 .record_feasible_nodes = full_detail,
                 .threads = 1});
    for (int threads : DefaultThreadCounts()) {
      if (threads == 1) continue;
      RequireNoDivergence(
          Divergence(base, RunOnce(*candidate, s,
                                   {.full_detail = full_detail,
                                    .record_feasible_nodes = full_detail,
                                    .threads = threads})),
          "differential-large-cluster-threads", s);
    }
    // ... then the baseline against the reference.
    const Outcome want =
        RunOnce(*reference, s,
                {.full_detail = full_detail,
                 .record_feasible_nodes = full_detail});
    RequireNoDivergence(Divergence(want, base), "differential-large-cluster",
                        s);
    if (!full_detail && want.trace.ok()) {
      RC_CLASSIFY(StoppedEarly(s, want.trace.value()), "early stop");
    }
  }
}

}  // namespace
}  // namespace schedref::testing::differential

int main(int argc, char** argv) {
  return schedref::testing::differential::PropertiesMain(argc, argv,
                                                         /*default_cases=*/30);
}
