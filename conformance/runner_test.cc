// CheckScenario in both modes, with in-process engines that are the
// reference with a twist (a forced tie-break, a misplaced pod, an error),
// on the scenarios of conformance/testdata.
#include "conformance/runner.h"

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "conformance/engine.h"
#include "conformance/forced_choices.h"
#include "reference/scheduler/scheduler.h"

namespace schedref::conformance {
namespace {

using Outcome = CheckResult::Outcome;
using Lines = std::vector<std::string>;

const std::string kTie = "conformance/testdata/tie.yaml";
const std::string kDistinct = "conformance/testdata/distinct.yaml";
const std::string kStale = "conformance/testdata/stale.yaml";
const std::string kLatency = "conformance/testdata/latency.yaml";
const std::string kTampered = "conformance/testdata/tampered.yaml";

// The reference, run with `forced` choices, its trace then passed through
// `twist`.
class FakeEngine : public Engine {
 public:
  using Twist = std::function<StatusOr<api::Trace>(api::Trace)>;
  explicit FakeEngine(Twist twist = nullptr,
                      std::map<int64_t, std::string> forced = {},
                      std::set<std::string> unsupported = {})
      : twist_(std::move(twist)),
        forced_(std::move(forced)),
        unsupported_(std::move(unsupported)) {}

  std::string Name() const override { return "fake"; }
  std::set<std::string> Unsupported() const override { return unsupported_; }
  StatusOr<api::Trace> Run(const ScenarioInput& input) override {
    EXPECT_EQ(input.text.find("\nexpectedTrace:"), std::string::npos);
    api::RunOptions options;
    options.record_feasible_nodes = input.feasible_nodes;
    ForcedDecisions forced;
    forced.choices = forced_;
    StatusOr<api::Trace> t =
        RunForced(reference_, *input.scenario, options, forced);
    if (!t.ok() || !twist_) return t;
    return twist_(std::move(*t));
  }

 private:
  reference::ReferenceScheduler reference_;
  const Twist twist_;
  const std::map<int64_t, std::string> forced_;
  const std::set<std::string> unsupported_;
};

// Puts default/p1 on `node` everywhere in the trace.
FakeEngine::Twist Misplace(const std::string& node) {
  return [node](api::Trace t) -> StatusOr<api::Trace> {
    for (api::Trace::Record& r : t.records) {
      if (api::Attempt* a = api::AsAttempt(r)) a->node = node;
      if (api::Binding* b = api::AsBinding(r)) b->node = node;
    }
    t.placements["default/p1"] = node;
    return t;
  };
}

class RunnerTest : public ::testing::Test {
 protected:
  CheckResult Check(Engine& engine, const std::string& path, Mode mode) {
    CheckOptions options;
    options.mode = mode;
    options.reference = &reference_;
    CheckResult r = CheckScenario(engine, path, options);
    EXPECT_EQ(r.path, path);
    EXPECT_EQ(r.engine, "fake");
    EXPECT_GE(r.seconds, 0);
    return r;
  }
  reference::ReferenceScheduler reference_;
};

TEST_F(RunnerTest, StrictPass) {
  FakeEngine engine;
  CheckResult r = Check(engine, kTie, Mode::kStrict);
  EXPECT_EQ(r.outcome, Outcome::kPass);
  EXPECT_EQ(r.scenario, "conformance-tie");
  EXPECT_EQ(r.message, "");
  EXPECT_EQ(r.details, Lines{});
}

TEST_F(RunnerTest, StrictFailureNamesTheFirstDivergenceAndExplainsIt) {
  FakeEngine engine(Misplace("small"));
  CheckResult r = Check(engine, kDistinct, Mode::kStrict);
  EXPECT_EQ(r.outcome, Outcome::kFail);
  EXPECT_EQ(r.message,
            "first difference at trace line 2: attempt t=0ms cycle 1 pod "
            "default/p1 (profile default-scheduler); differing fields: node");
  EXPECT_EQ(
      r.details,
      (Lines{
          R"(  expected: {"cycle":1,"evaluated":3,"feasible":2,"kind":"attempt","node":"big","outcome":"scheduled","pod":"default/p1","profile":"default-scheduler","rejections":{"tiny":{"code":"Unschedulable","plugin":"NodeResourcesFit","reasons":["Insufficient cpu"]}},"t":0,"topScores":[{"node":"big","score":485},{"node":"small","score":448}]})",
          R"(  actual:   {"cycle":1,"evaluated":3,"feasible":2,"kind":"attempt","node":"small","outcome":"scheduled","pod":"default/p1","profile":"default-scheduler","rejections":{"tiny":{"code":"Unschedulable","plugin":"NodeResourcesFit","reasons":["Insufficient cpu"]}},"t":0,"topScores":[{"node":"big","score":485},{"node":"small","score":448}]})",
          "  fields that differ:",
          R"(    node: expected "big", actual "small")",
          "  reference, cycle 1 (t=0ms), pod default/p1, profile default-scheduler: scheduled on big; 3 nodes evaluated, 2 feasible",
          "    PreFilter: NodeAffinity Skip, NodePorts Skip, NodeResourcesFit Success, VolumeRestrictions Skip, NodeVolumeLimits Skip, VolumeBinding Skip, VolumeZone Skip, PodTopologySpread Skip, InterPodAffinity Skip",
          "    Filter plugins, in run order: NodeUnschedulable, NodeName, TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit, VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone, PodTopologySpread, InterPodAffinity",
          "    Score plugins (weight): TaintToleration 3, NodeAffinity 2, NodeResourcesFit 1, VolumeBinding 1, PodTopologySpread 2, InterPodAffinity 2, NodeResourcesBalancedAllocation 1, ImageLocality 1",
          "    node big: rank 1, total 485 <- chosen",
          "      filters: all passed; skipped (PreFilter Skip): NodeAffinity, NodePorts, VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone, PodTopologySpread, InterPodAffinity",
          "      scores: TaintToleration 300 (3 x 100, raw 0), NodeResourcesFit 92 (1 x 92, raw 92), NodeResourcesBalancedAllocation 93 (1 x 93, raw 93), ImageLocality 0 (1 x 0, raw 0)",
          "    node small: rank 2, total 448",
          "      filters: all passed; skipped (PreFilter Skip): NodeAffinity, NodePorts, VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone, PodTopologySpread, InterPodAffinity",
          "      scores: TaintToleration 300 (3 x 100, raw 0), NodeResourcesFit 73 (1 x 73, raw 73), NodeResourcesBalancedAllocation 75 (1 x 75, raw 75), ImageLocality 0 (1 x 0, raw 0)",
          "    node tiny: rejected by NodeResourcesFit (Unschedulable: Insufficient cpu)",
          "      filters: passed NodeUnschedulable, NodeName, TaintToleration; rejected by NodeResourcesFit (Unschedulable: Insufficient cpu); skipped (PreFilter Skip): NodeAffinity, NodePorts, VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone, PodTopologySpread, InterPodAffinity",
          "    chosen: big, the only node with the top total 485 (next: small 448)",
          "  why: small scores 448; the top score is 485 (big)",
      }));
}

TEST_F(RunnerTest, StrictRejectsAnotherTieBreakAndSaysLegalChoiceWouldNot) {
  FakeEngine engine(nullptr, {{1, "b"}});
  CheckResult r = Check(engine, kTie, Mode::kStrict);
  EXPECT_EQ(r.outcome, Outcome::kFail);
  EXPECT_EQ(r.message,
            "first difference at trace line 2: attempt t=0ms cycle 1 pod "
            "default/p1 (profile default-scheduler); differing fields: node, "
            "topScores");
  ASSERT_GE(r.details.size(), 2u);
  EXPECT_EQ(r.details[r.details.size() - 2],
            "  why: b ties for the top score 497 with a, c");
  EXPECT_EQ(r.details.back(),
            "  (a tie: --mode=legal-choice accepts this choice)");
}

TEST_F(RunnerTest, LegalChoiceAcceptsAnotherTieBreak) {
  FakeEngine engine(nullptr, {{1, "c"}});
  CheckResult r = Check(engine, kTie, Mode::kLegalChoice);
  EXPECT_EQ(r.outcome, Outcome::kPass);
  EXPECT_EQ(r.message,
            "legal choices accepted: cycle 1 default/p1 on c (reference: a)");
  EXPECT_EQ(r.details, Lines{});
}

TEST_F(RunnerTest, LegalChoiceRefusesALowerScoredNode) {
  FakeEngine engine(Misplace("small"));
  CheckResult r = Check(engine, kDistinct, Mode::kLegalChoice);
  EXPECT_EQ(r.outcome, Outcome::kFail);
  EXPECT_EQ(r.message,
            "cycle 1 pod default/p1: the implementation chose small, not a "
            "legal choice (small scores 448; the top score is 485 (big))");
  ASSERT_FALSE(r.details.empty());
  EXPECT_EQ(r.details.back(),
            "  why: small scores 448; the top score is 485 (big)");
}

TEST_F(RunnerTest, LegalChoiceReportsADivergenceAfterAcceptedChoices) {
  FakeEngine engine(
      [](api::Trace t) -> StatusOr<api::Trace> {
        t.placements["default/p1"] = "";
        return t;
      },
      {{1, "b"}});
  CheckResult r = Check(engine, kTie, Mode::kLegalChoice);
  EXPECT_EQ(r.outcome, Outcome::kFail);
  EXPECT_EQ(r.message,
            "first difference at trace line 4: placements; differing fields: "
            "placements");
  EXPECT_EQ(
      r.details,
      (Lines{
          "  legal choices accepted before it: cycle 1 default/p1 on b "
          "(reference: a)",
          R"(  expected: {"kind":"placements","placements":{"default/p1":"b"}})",
          R"(  actual:   {"kind":"placements","placements":{"default/p1":""}})",
          "  fields that differ:",
          R"(    placements.default/p1: expected "b", actual "")",
          "  reference, cycle 1 (t=0ms), pod default/p1, profile default-scheduler: scheduled on b; 3 nodes evaluated, 3 feasible",
          "    PreFilter: NodeAffinity Skip, NodePorts Skip, NodeResourcesFit Success, VolumeRestrictions Skip, NodeVolumeLimits Skip, VolumeBinding Skip, VolumeZone Skip, PodTopologySpread Skip, InterPodAffinity Skip",
          "    Filter plugins, in run order: NodeUnschedulable, NodeName, TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit, VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone, PodTopologySpread, InterPodAffinity",
          "    Score plugins (weight): TaintToleration 3, NodeAffinity 2, NodeResourcesFit 1, VolumeBinding 1, PodTopologySpread 2, InterPodAffinity 2, NodeResourcesBalancedAllocation 1, ImageLocality 1",
          "    node a: rank 1, total 497",
          "      filters: all passed; skipped (PreFilter Skip): NodeAffinity, NodePorts, VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone, PodTopologySpread, InterPodAffinity",
          "      scores: TaintToleration 300 (3 x 100, raw 0), NodeResourcesFit 97 (1 x 97, raw 97), NodeResourcesBalancedAllocation 100 (1 x 100, raw 100), ImageLocality 0 (1 x 0, raw 0)",
          "    node b: rank 1, total 497 <- chosen",
          "      filters: all passed; skipped (PreFilter Skip): NodeAffinity, NodePorts, VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone, PodTopologySpread, InterPodAffinity",
          "      scores: TaintToleration 300 (3 x 100, raw 0), NodeResourcesFit 97 (1 x 97, raw 97), NodeResourcesBalancedAllocation 100 (1 x 100, raw 100), ImageLocality 0 (1 x 0, raw 0)",
          "    node c: rank 1, total 497",
          "      filters: all passed; skipped (PreFilter Skip): NodeAffinity, NodePorts, VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone, PodTopologySpread, InterPodAffinity",
          "      scores: TaintToleration 300 (3 x 100, raw 0), NodeResourcesFit 97 (1 x 97, raw 97), NodeResourcesBalancedAllocation 100 (1 x 100, raw 100), ImageLocality 0 (1 x 0, raw 0)",
          "    chosen: a, b, c tie at the top total 497 (in feasible-list order); selectHost picks one uniformly (upstream v1.32: reservoir sampling with math/rand); schedref draws once from its RNG seeded with 7 (docs/deviations.md, \"selectHost\"): index 1 of 3 -> b",
      }));
}

TEST_F(RunnerTest, AStaleGoldenIsSkippedInStrictModeOnly) {
  FakeEngine engine;
  CheckResult strict = Check(engine, kStale, Mode::kStrict);
  EXPECT_EQ(strict.outcome, Outcome::kSkip);
  EXPECT_TRUE(strict.stale);
  EXPECT_EQ(strict.message,
            "no expectedTrace (a stale golden: run schedref check --update)");
  CheckResult legal = Check(engine, kStale, Mode::kLegalChoice);
  EXPECT_EQ(legal.outcome, Outcome::kPass);
  EXPECT_FALSE(legal.stale);
}

TEST_F(RunnerTest, TheExplanationNoticesAGoldenTheReferenceDisagreesWith) {
  FakeEngine engine;
  CheckResult r = Check(engine, kTampered, Mode::kStrict);
  EXPECT_EQ(r.outcome, Outcome::kFail);
  ASSERT_FALSE(r.details.empty());
  EXPECT_EQ(r.details.back(),
            "  note: the reference's own trace differs from expectedTrace at "
            "line 2: the golden may be stale (schedref check --update)");
}

TEST_F(RunnerTest, UnsupportedFeaturesSkip) {
  FakeEngine engine(nullptr, {}, {"bind-latency", "preemption"});
  for (Mode mode : {Mode::kStrict, Mode::kLegalChoice}) {
    CheckResult r = Check(engine, kLatency, mode);
    EXPECT_EQ(r.outcome, Outcome::kSkip);
    EXPECT_EQ(r.message, "needs unsupported feature bind-latency");
    EXPECT_EQ(Check(engine, kTie, mode).outcome, Outcome::kPass);
  }
}

TEST_F(RunnerTest, EngineErrorsAndBadFilesFail) {
  FakeEngine engine([](api::Trace) -> StatusOr<api::Trace> {
    return Status::Invalid("implementation error: out of cheese");
  });
  for (Mode mode : {Mode::kStrict, Mode::kLegalChoice}) {
    CheckResult r = Check(engine, kTie, mode);
    EXPECT_EQ(r.outcome, Outcome::kFail);
    EXPECT_EQ(r.message, "implementation error: out of cheese");
    CheckResult missing = Check(engine, "conformance/testdata/none.yaml", mode);
    EXPECT_EQ(missing.outcome, Outcome::kFail);
    EXPECT_EQ(missing.message,
              "conformance/testdata/none.yaml: cannot open file");
  }
}

// Scenario files under a folder, sorted; a dangling symlink is listed (its
// read then fails) rather than silently left out.
TEST(RunnerFilesTest, YamlFilesUnderListsDanglingSymlinks) {
  const std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) / "yaml-files-under";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "sub");
  std::ofstream(dir / "b.yaml") << "x";
  std::ofstream(dir / "sub" / "a.yaml") << "x";
  std::ofstream(dir / "notes.txt") << "x";
  std::filesystem::create_symlink(dir / "missing.yaml", dir / "dangling.yaml");
  const std::string root = dir.generic_string();
  EXPECT_EQ(YamlFilesUnder(root),
            (std::vector<std::string>{root + "/b.yaml", root + "/dangling.yaml",
                                      root + "/sub/a.yaml"}));
}

TEST(RunnerTextTest, ExpectedTraceEditing) {
  const std::string text = "schedref: scenario/v1\nname: x\nexpectedTrace: |\n  {}\n";
  EXPECT_EQ(WithoutExpectedTrace(text), "schedref: scenario/v1\nname: x\n");
  EXPECT_EQ(WithoutExpectedTrace("name: x"), "name: x");
  EXPECT_EQ(WithExpectedTrace(text, {"a", "b"}),
            "schedref: scenario/v1\nname: x\nexpectedTrace: |\n  a\n  b\n");
  EXPECT_EQ(WithExpectedTrace("name: x", {"a"}),
            "name: x\nexpectedTrace: |\n  a\n");
}

}  // namespace
}  // namespace schedref::conformance
