// System properties of the schedulers on generated scenarios
// (scenario_gen.h): the invariants of invariants.h on every run of the
// reference and of the optimized implementation (1 and 2 threads), and of
// the reference alone: determinism and two metamorphic relations. Each
// property says why it is exactly true of the specification
// (docs/semantics/, docs/deviations.md); what is true only "usually" is not
// asserted. The invariants' scenarios have a second profile in a share of
// cases (Options::second_profile_percent).
//
// A failure prints RapidCheck's seed and the shrunk scenario (replay with
//   RC_PARAMS="reproduce=<string printed by RapidCheck>"
//   bazel-bin/testing/scenario_gen/scenario_properties_test
// ), names the implementation whose trace broke the invariant, and writes
// the scenario, with the reference's trace as its expectedTrace, as a
// golden file (counterexample.h says where), printing its path.
#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "gtest/gtest.h"
// After gtest.h: rapidcheck/gtest.h uses its macros.
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "api/codec/scenario_decode.h"
#include "api/codec/scenario_encode.h"
#include "api/codec/trace_codec.h"
#include "api/scheduler.h"
#include "api/types/objects.h"
#include "api/types/scenario.h"
#include "api/types/trace.h"
#include "conformance/implementations.h"
#include "reference/scheduler/scheduler.h"
#include "testing/scenario_gen/counterexample.h"
#include "testing/scenario_gen/invariants.h"
#include "testing/scenario_gen/scenario_gen.h"
#include "testing/scenario_gen/second_profile.h"

namespace schedref::testing::scenario_gen {
namespace {

using api::Scenario;
using api::Trace;

// --- Running the schedulers
// ---------------------------------------------------

struct RunResult {
  Trace trace;
  std::string text;  // EncodeTrace(trace)
};

RunResult RunReference(const Scenario& scenario,
                       const api::RunOptions& options = {}) {
  reference::ReferenceScheduler scheduler;
  StatusOr<Trace> trace = scheduler.Run(scenario, options);
  if (!trace.ok()) {
    RC_FAIL("the reference rejected a generated scenario: " +
            trace.status().message());
  }
  return {*trace, api::EncodeTrace(*trace)};
}

// A built-in implementation (conformance::MakeImplementation's name) the
// invariants are checked on, at a thread count (RunOptions::threads;
// api/scheduler.h: the trace must not depend on it).
struct Implementation {
  std::string name;
  int threads = 0;
};

// The reference, and the optimized implementation at 1 and 2 threads. The
// invariants hold of every engine's trace (invariants.h); on the optimized
// implementation's own traces they name the rule a wrong decision breaks,
// where the differential properties report only the first record that
// differs from the reference's.
const Implementation kImplementations[] = {
    {"reference", 0}, {"optimized", 1}, {"optimized", 2}};

// A generated scenario. ScenarioGen.GeneratesDecodedScenarios checks that
// it is exactly what DecodeScenario returns for its own encoding (what
// Scheduler::Run requires), so properties run it as it is, without the
// slower round trip through YAML.
Scenario Generate(Options options = {}) { return *GenScenario(options); }

// What the invariants run on: a second profile in about a third of the
// cases, so that pods of two profiles (and a few of no profile) share the
// queue and the cluster.
Options InvariantOptions() {
  Options options;
  options.second_profile_percent = 35;
  // Claims, PVs, StorageClasses and CSI limits in a share of the cases, so
  // that the storage invariants (and every other) see the volume plugins.
  options.storage_percent = 40;
  return options;
}

// --- Counterexamples
// ------------------------------------------------------------

// Writes `scenario` with the reference's trace as a golden file for
// `property` (`suffix` tells the scenarios of one relation apart) and
// returns the line that names it.
std::string WriteGolden(const std::string& property, const std::string& suffix,
                        const Scenario& scenario, const std::string& why) {
  // Golden names are kebab case: NoNodeOvercommitted -> no-node-overcommitted.
  std::string name = "gen";
  for (char c : property) {
    if (c >= 'A' && c <= 'Z') {
      name += '-';
      c = static_cast<char>(c - 'A' + 'a');
    }
    name += c;
  }
  name += suffix;
  reference::ReferenceScheduler reference;
  return WriteCounterexample(
      {name,
       "Found by the property " + property +
           " of testing/scenario_gen/scenario_properties_test.cc:\n" + why + "\n",
       kGeneratedUpstream},
      scenario, reference);
}

// Fails the property unless `ok`: logs `why`, writes the scenarios as golden
// files and prints their paths.
void Require(
    bool ok, const std::string& property,
    const std::vector<std::pair<std::string, const Scenario*>>& scenarios,
    const std::string& why) {
  if (ok) return;
  std::string message = why;
  for (const auto& [suffix, scenario] : scenarios) {
    message += "\n" + WriteGolden(property, suffix, *scenario, why);
  }
  RC_FAIL(message);
}

void Require(bool ok, const std::string& property, const Scenario& scenario,
             const std::string& why) {
  Require(ok, property, {{"", &scenario}}, why);
}

using Invariant = std::optional<std::string> (*)(const Scenario&, const Trace&);

// Runs `s` through every entry of kImplementations and fails the
// property, naming the implementation, at the first trace that breaks
// `invariant` (or the first run that fails).
void RequireOfEveryImplementation(Invariant invariant, const std::string& property,
                                  const Scenario& s) {
  for (const Implementation& impl : kImplementations) {
    // As failures name it: "reference", "optimized (2 threads)".
    const std::string name =
        impl.threads == 0 ? impl.name
                          : impl.name + " (" + std::to_string(impl.threads) +
                                (impl.threads == 1 ? " thread)" : " threads)");
    api::RunOptions options;
    options.threads = impl.threads;
    StatusOr<Trace> trace = conformance::MakeImplementation(impl.name)->Run(s, options);
    Require(trace.ok(), property, s,
            name + " rejected a generated scenario: " + trace.status().message());
    const std::optional<std::string> violation = invariant(s, *trace);
    Require(!violation, property, s, name + ": " + violation.value_or(""));
  }
}

// --- The generator
// ----------------------------------------------------------------

// What GenScenario produces is exactly what the decoder produces for its
// encoding (the generator writes admitted objects and the defaulted
// configuration), and the scenario read back from its encoding, as a golden
// file holds it, runs to the same trace byte for byte.
RC_GTEST_PROP(ScenarioGen, GeneratesDecodedScenarios, ()) {
  Options options = InvariantOptions();
  options.node_tree_changes = *rc::gen::arbitrary<bool>();
  const Scenario generated = *GenScenario(options);
  const Canonical canonical = Canonicalize(generated);
  if (!canonical.ok) {
    RC_FAIL("a generated scenario does not decode: " + canonical.error);
  }
  if (!(canonical.scenario == generated)) {
    RC_FAIL("decoding changed the generated scenario:\n--- generated\n" +
            api::EncodeScenario(generated) + "--- decoded\n" +
            api::EncodeScenario(canonical.scenario));
  }
  Require(RunReference(canonical.scenario).text == RunReference(generated).text,
          "GeneratesDecodedScenarios", generated,
          "the scenario read back from its encoding gives another trace");
}

// With storage always on, generated scenarios still decode to themselves
// and the reference runs them (the volume plugins or not).
RC_GTEST_PROP(ScenarioGen, GeneratesDecodedStorageScenarios, ()) {
  Options options = InvariantOptions();
  options.storage_percent = 100;
  const Scenario generated = *GenScenario(options);
  RC_ASSERT(!generated.initial.storage_classes.empty());
  const Canonical canonical = Canonicalize(generated);
  if (!canonical.ok) {
    RC_FAIL("a generated scenario does not decode: " + canonical.error);
  }
  if (!(canonical.scenario == generated)) {
    RC_FAIL("decoding changed the generated scenario:\n--- generated\n" +
            api::EncodeScenario(generated) + "--- decoded\n" +
            api::EncodeScenario(canonical.scenario));
  }
  reference::ReferenceScheduler reference;
  StatusOr<Trace> trace = reference.Run(generated, {});
  RC_ASSERT(trace.ok());
}

// InvariantOptions() gives two profiles in about its share of the cases,
// and those cases are what the invariants need them to be: pods of no
// profile occur, and at some instant pods of both profiles with different
// priorities are attempted, so that HigherPriorityPodsAreTriedFirst
// compares pods across profiles (a fixed sample: rc::Random seeds 1..200,
// sizes 0..99).
TEST(ScenarioGen, TwoProfileScenariosMixProfilesInTheQueue) {
  constexpr int kSamples = 200;
  int two_profiles = 0, with_foreign = 0, mixed = 0;
  for (int i = 0; i < kSamples; ++i) {
    const Scenario s = GenScenario(InvariantOptions())(rc::Random(i + 1), i % 100).value();
    if (s.config.profiles.size() != 2) continue;
    ++two_profiles;
    std::map<std::string, api::Pod> pods;
    for (const api::Pod& p : s.initial.pods) pods.emplace(p.Key(), p);
    for (const api::Event& e : s.timeline) {
      if (const auto* p = std::get_if<api::Pod>(&e.object)) pods.emplace(p->Key(), *p);
    }
    with_foreign += std::any_of(pods.begin(), pods.end(), [](const auto& kv) {
      return kv.second.scheduler_name == kForeignScheduler;
    });
    reference::ReferenceScheduler reference;
    StatusOr<Trace> trace = reference.Run(s, {});
    ASSERT_TRUE(trace.ok()) << trace.status().message();
    // t -> profile -> priorities attempted at t.
    std::map<api::TimeMs, std::map<std::string, std::set<int32_t>>> attempted;
    for (const Trace::Record& r : trace->records) {
      const api::Attempt* a = api::AsAttempt(r);
      if (a == nullptr) continue;
      attempted[a->at][a->profile].insert(pods.at(a->pod).priority.value_or(0));
    }
    mixed += std::any_of(attempted.begin(), attempted.end(), [](const auto& at) {
      const auto& by_profile = at.second;
      if (by_profile.size() != 2) return false;
      const std::set<int32_t>& a = by_profile.begin()->second;
      const std::set<int32_t>& b = std::next(by_profile.begin())->second;
      return a != b || a.size() > 1;
    });
  }
  EXPECT_GE(two_profiles, kSamples / 5);
  EXPECT_LE(two_profiles, kSamples / 2);
  // AssignPods draws with gen::inRange, which small sizes narrow towards
  // the default profile, so foreign pods are rare (2 in this sample).
  EXPECT_GE(with_foreign, 1);
  EXPECT_GE(mixed, 5) << "of " << two_profiles;
}

// --- Invariants of one run (invariants.h says why each is exactly true)
// ----------

RC_GTEST_PROP(ScenarioProperties, TraceHasTheLoopsShape, ()) {
  const Scenario s = Generate(InvariantOptions());
  RC_CLASSIFY(s.config.profiles.size() == 2, "two profiles");
  RequireOfEveryImplementation(&CheckTraceShape, "TraceHasTheLoopsShape", s);
}

RC_GTEST_PROP(ScenarioProperties, NoNodeOvercommitted, ()) {
  const Scenario s = Generate(InvariantOptions());
  RC_CLASSIFY(s.config.profiles.size() == 2, "two profiles");
  RequireOfEveryImplementation(&CheckNoNodeOvercommitted, "NoNodeOvercommitted", s);
}

RC_GTEST_PROP(ScenarioProperties, DecisionsPassedFiltersThen, ()) {
  const Scenario s = Generate(InvariantOptions());
  RC_CLASSIFY(s.config.profiles.size() == 2, "two profiles");
  RequireOfEveryImplementation(&CheckDecisionsPassedFilters, "DecisionsPassedFiltersThen", s);
}

RC_GTEST_PROP(ScenarioProperties, RejectionsAreTruthful, ()) {
  const Scenario s = Generate(InvariantOptions());
  RC_CLASSIFY(s.config.profiles.size() == 2, "two profiles");
  RequireOfEveryImplementation(&CheckRejectionsAreTruthful, "RejectionsAreTruthful", s);
}

RC_GTEST_PROP(ScenarioProperties, BindingsAgreeWithPlacements, ()) {
  const Scenario s = Generate(InvariantOptions());
  RC_CLASSIFY(s.config.profiles.size() == 2, "two profiles");
  RequireOfEveryImplementation(&CheckBindingsAgreeWithPlacements, "BindingsAgreeWithPlacements", s);
}

// The storage invariants: vacuous while InvariantOptions() generates no
// storage (see there).
RC_GTEST_PROP(ScenarioProperties, ReadWriteOncePodClaimsAreExclusive, ()) {
  const Scenario s = Generate(InvariantOptions());
  RequireOfEveryImplementation(&CheckReadWriteOncePodExclusive, "ReadWriteOncePodClaimsAreExclusive", s);
}

RC_GTEST_PROP(ScenarioProperties, CsiAttachLimitsHold, ()) {
  const Scenario s = Generate(InvariantOptions());
  RequireOfEveryImplementation(&CheckCsiAttachLimits, "CsiAttachLimitsHold", s);
}

RC_GTEST_PROP(ScenarioProperties, BoundVolumeNodeAffinityHolds, ()) {
  const Scenario s = Generate(InvariantOptions());
  RequireOfEveryImplementation(&CheckBoundVolumeNodeAffinity, "BoundVolumeNodeAffinityHolds", s);
}

RC_GTEST_PROP(ScenarioProperties, HigherPriorityPodsAreTriedFirst, ()) {
  const Scenario s = Generate(InvariantOptions());
  RC_CLASSIFY(s.config.profiles.size() == 2, "two profiles");
  RequireOfEveryImplementation(&CheckHigherPriorityTriedFirst, "HigherPriorityPodsAreTriedFirst", s);
}

// Runs are deterministic and depend on nothing but the scenario: runs on a
// fresh scheduler and twice on one reused scheduler (the second with
// RunOptions.threads = 2, which api/scheduler.h says the trace must not
// depend on) give byte-identical traces, and a full-detail run differs only
// by its `detail` maps. (The encoding round trip is checked by
// ScenarioGen.GeneratesDecodedScenarios.)
RC_GTEST_PROP(ScenarioProperties, RunsAreDeterministic, ()) {
  const Scenario s = Generate(InvariantOptions());
  const RunResult first = RunReference(s);
  reference::ReferenceScheduler reused;
  api::RunOptions threads;
  threads.threads = 2;
  StatusOr<Trace> again = reused.Run(s, {});
  StatusOr<Trace> threaded = reused.Run(s, threads);
  RC_ASSERT(again.ok() && threaded.ok());
  Require(api::EncodeTrace(*again) == first.text, "RunsAreDeterministic", s,
          "a second run of the same scenario differs");
  Require(api::EncodeTrace(*threaded) == first.text, "RunsAreDeterministic", s,
          "a reused scheduler with threads = 2 gives another trace");
  api::RunOptions detail;
  detail.full_detail = true;
  Trace detailed = RunReference(s, detail).trace;
  for (Trace::Record& r : detailed.records) {
    if (api::Attempt* a = api::AsAttempt(r)) api::ClearFullDetail(*a);
  }
  Require(api::EncodeTrace(detailed) == first.text, "RunsAreDeterministic", s,
          "a full-detail run differs in more than its detail");
}

// --- Metamorphic relations
// -----------------------------------------------------------

// Applies `f` to every node and every pod the scenario defines.
template <typename NodeFn, typename PodFn>
Scenario Transform(Scenario s, NodeFn node_fn, PodFn pod_fn) {
  for (api::Node& n : s.initial.nodes) node_fn(n);
  for (api::Pod& p : s.initial.pods) pod_fn(p);
  for (api::Event& e : s.timeline) {
    if (auto* n = std::get_if<api::Node>(&e.object)) node_fn(*n);
    if (auto* p = std::get_if<api::Pod>(&e.object)) pod_fn(*p);
  }
  return s;
}

// The first record where two traces differ, both sides encoded, or "" if
// `same(a, b)` holds for every pair and the placements are equal.
template <typename Same>
std::string FirstDifference(const Trace& a, const Trace& b, Same same) {
  const std::vector<std::string> la = api::EncodeTraceLines(a);
  const std::vector<std::string> lb = api::EncodeTraceLines(b);
  const size_t n = std::min(a.records.size(), b.records.size());
  for (size_t i = 0; i < n; ++i) {
    if (!same(a.records[i], b.records[i])) {
      return "record " + std::to_string(i + 1) + ":\n  base:    " + la[i + 1] +
             "\n  variant: " + lb[i + 1];
    }
  }
  if (a.records.size() != b.records.size()) {
    return "base has " + std::to_string(a.records.size()) +
           " records, variant " + std::to_string(b.records.size());
  }
  if (a.placements != b.placements) {
    return "placements:\n  base:    " + la.back() + "\n  variant: " + lb.back();
  }
  return "";
}

// (a) Adding a node that every pod rejects at Filter changes no decision.
//
// The extra node X: a region no other node has, no other label (no zone,
// no hostname), allocatable large enough for anything, a NoSchedule taint
// no toleration matches (GenScenario's guarantee), cordoned or not, added
// at a random position of the initial nodes. Compared: every attempt except
// `evaluated`, `rejections` and `message` (X is filtered and rejected, and
// FitError counts it), every binding and note, and the placements.
//
// Why this is exactly true, under the preconditions below:
//  - Filtering: with fewer than 100 nodes every cycle filters every node
//    (numFeasibleNodesToFind), so the round-robin start index advances by
//    the node count and stays 0; no PreFilterResult (the generator's
//    metadata.name matchFields are dropped first). X is
//    never feasible, so the feasible list is the base run's, in the same
//    order: the node tree lists zones round-robin, X sits alone in its own
//    zone (region-only zone key), so the other nodes keep their relative
//    order; the snapshot re-lists at the same moments (X is never added or
//    removed after the start). Without node deletions or zone changes
//    (Options.node_tree_changes = false) no zone is ever dropped.
//  - Filters of other nodes: PodTopologySpread counts only nodes with every
//    constraint's key (X has none of hostname, zone, tier, rack; region is
//    never a spread key); InterPodAffinity looks only at nodes with pods.
//  - Scores are computed for feasible nodes only; PodTopologySpread's
//    normalizing weights count feasible nodes; ImageLocality, the one score
//    that counts all nodes, is neutralised by removing every image from
//    the scenario (in both runs). Same scores, same order: same tie sets,
//    same RNG draws, same choice.
//  - Preemption considers only nodes rejected as Unschedulable; X is
//    rejected UnschedulableAndUnresolvable (by NodeUnschedulable or
//    TaintToleration), so the candidates and the RNG offset are the same.
//  - The queue: a failed pod's rejector plugins gain X's rejector, which
//    could let a node event requeue it where the base run would not. So
//    the relation is asserted only if every unschedulable attempt of the
//    base run already names X's rejector for that pod among its rejections
//    (and has rejections at all: an attempt with zero nodes would have had
//    X). The test tries both a cordoned and an uncordoned X and asserts the
//    relation with one that qualifies; RC_TAG reports how often neither did.
RC_GTEST_PROP(ScenarioProperties, ExtraRejectedNodeChangesNoDecision, ()) {
  Options options;
  options.node_tree_changes = false;
  // No PreFilterResult: a metadata.name matchFields (the generator's pin)
  // is dropped, and a term left empty with it.
  const Scenario base = Transform(
      Generate(options), [](api::Node& n) { n.images.clear(); },
      [](api::Pod& p) {
        if (!p.affinity || !p.affinity->node_affinity ||
            !p.affinity->node_affinity->required) {
          return;
        }
        std::vector<api::NodeSelectorTerm>& terms = p.affinity->node_affinity->required->terms;
        std::vector<api::NodeSelectorTerm> kept;
        for (api::NodeSelectorTerm& t : terms) {
          if (t.match_fields.empty()) {
            kept.push_back(std::move(t));
            continue;
          }
          t.match_fields.clear();
          if (!t.match_expressions.empty()) kept.push_back(std::move(t));
        }
        terms = std::move(kept);
        if (terms.empty()) p.affinity->node_affinity->required.reset();
      });
  const RunResult b = RunReference(base);

  api::Node x;
  x.name = "extra";
  x.labels[kRegionKey] = "extra-region";
  x.allocatable = {{api::kResourceCpu, 64000},
                   {api::kResourceMemory, int64_t{256} << 30},
                   {api::kResourcePods, 110}};
  x.capacity = x.allocatable;
  x.taints = {{"schedref.test/extra", "", "NoSchedule"}};
  std::map<std::string, api::Pod> all;
  Transform(
      base, [](api::Node&) {},
      [&all](api::Pod& p) { all.emplace(p.Key(), p); });
  // X's rejecting plugin for `pod` (the first filter that fails), if any.
  auto rejector = [&x](const api::Pod& pod) -> std::string {
    if (!NodeUnschedulableAdmits(pod, x)) return "NodeUnschedulable";
    if (!TaintsTolerated(pod, x)) return "TaintToleration";
    return "";
  };
  auto qualifies = [&]() {
    for (const auto& [key, pod] : all) RC_ASSERT(!rejector(pod).empty());
    for (const Trace::Record& r : b.trace.records) {
      const api::Attempt* a = api::AsAttempt(r);
      if (a == nullptr || a->outcome != api::AttemptOutcome::kUnschedulable) continue;
      const std::string want = rejector(all.at(a->pod));
      bool named = false;
      for (const auto& [node, rejection] : a->rejections) {
        named = named || rejection.plugin() == want;
      }
      if (!named) return false;
    }
    return true;
  };
  std::vector<bool> cordons;
  for (bool cordon : {false, true}) {
    x.unschedulable = cordon;
    if (qualifies()) cordons.push_back(cordon);
  }
  if (cordons.empty()) {
    RC_TAG("not applicable: a failure lacks the extra node's rejector");
    return;
  }
  RC_TAG("extra node added");
  x.unschedulable = *rc::gen::elementOf(cordons);
  Scenario variant = base;
  const size_t at = static_cast<size_t>(*rc::gen::inRange<int>(
      0, static_cast<int>(variant.initial.nodes.size()) + 1));
  variant.initial.nodes.insert(
      variant.initial.nodes.begin() + static_cast<long>(at), x);
  const RunResult v = RunReference(variant);

  const std::string diff = FirstDifference(
      b.trace, v.trace, [](const Trace::Record& p, const Trace::Record& q) {
        if (p.index() != q.index()) return false;
        if (api::AsAttempt(p) == nullptr) return p == q;
        api::Attempt pa = *api::AsAttempt(p), qa = *api::AsAttempt(q);
        for (api::Attempt* a : {&pa, &qa}) {
          a->evaluated = 0;
          a->rejections.clear();
          a->message.clear();
        }
        return pa == qa;
      });
  Require(diff.empty(), "ExtraRejectedNodeChangesNoDecision",
          {{"-base", &base}, {"-variant", &variant}},
          "adding node extra (rejected by every pod) changed a decision at " +
              diff);
}

// (b) Multiplying every cpu and memory amount (requests, overhead,
// allocatable, capacity) by the same k changes nothing in the trace.
//
// The scenario is first made explicit: a container without a cpu or memory
// request gets an explicit 0. (Upstream scores a missing request as the
// non-zero default 100m / 200Mi, a constant that does not scale; an
// explicit 0 stays 0.) Then, with every amount scaled:
//  - NodeResourcesFit filters compare sums, a <= b iff k*a <= k*b; the pod
//    count is not scaled;
//  - LeastAllocated: (c - r) * 100 / c in integers, and
//    floor(k*x / (k*y)) = floor(x / y);
//  - BalancedAllocation: r / c in double; k*r and k*c are exact (below
//    2^53) and IEEE division is correctly rounded, so the quotient is the
//    same double;
//  - queueing hints of NodeResourcesFit compare the same sums; nothing else
//    reads cpu or memory, and no trace field prints an amount.
// So every score, tie, RNG draw and decision is the same, and so is the
// trace, byte for byte.
RC_GTEST_PROP(ScenarioProperties, ScalingResourcesChangesNothing, ()) {
  auto explicit_requests = [](api::Pod& pod) {
    for (auto* list : {&pod.containers, &pod.init_containers}) {
      for (api::Container& c : *list) {
        c.requests.emplace(api::kResourceCpu, 0);
        c.requests.emplace(api::kResourceMemory, 0);
      }
    }
  };
  const Scenario base = Transform(
      Generate(), [](api::Node&) {}, explicit_requests);
  const int64_t k = *rc::gen::element<int64_t>(2, 3, 10);
  auto scale = [k](api::ResourceList& list) {
    for (const char* r : {api::kResourceCpu, api::kResourceMemory}) {
      auto it = list.find(r);
      if (it != list.end()) it->second *= k;
    }
  };
  const Scenario scaled = Transform(
      base,
      [&](api::Node& n) {
        scale(n.allocatable);
        scale(n.capacity);
      },
      [&](api::Pod& p) {
        for (auto* list : {&p.containers, &p.init_containers}) {
          for (api::Container& c : *list) {
            scale(c.requests);
            scale(c.limits);
          }
        }
        scale(p.overhead);
      });
  const RunResult b = RunReference(base);
  const RunResult v = RunReference(scaled);
  const std::string diff = FirstDifference(
      b.trace, v.trace,
      [](const Trace::Record& p, const Trace::Record& q) { return p == q; });
  Require(
      diff.empty(), "ScalingResourcesChangesNothing",
      {{"-base", &base}, {"-variant", &scaled}},
      "scaling cpu and memory by " + std::to_string(k) + " changed " + diff);
}

}  // namespace
}  // namespace schedref::testing::scenario_gen
