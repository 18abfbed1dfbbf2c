#include "conformance/legal_choice.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "api/codec/scenario_decode.h"
#include "api/codec/trace_codec.h"
#include "conformance/forced_choices.h"
#include "reference/scheduler/scheduler.h"

namespace schedref::conformance {
namespace {

api::Scenario Load(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  StatusOr<api::Scenario> s = api::DecodeScenario(text.str(), path);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return s.ok() ? *s : api::Scenario{};
}

class LegalChoiceTest : public ::testing::Test {
 protected:
  // The reference's trace, with `forced` choices.
  api::Trace Run(const api::Scenario& s,
                 std::map<int64_t, std::string> forced = {}) {
    ForcedDecisions decisions;
    decisions.choices = std::move(forced);
    return RunWith(s, {}, decisions);
  }

  // The reference's trace with `forced` decisions; `*refusal` gets the
  // oracle's refusal, if any.
  api::Trace RunWith(const api::Scenario& s, const api::RunOptions& options,
                     const ForcedDecisions& forced = {},
                     std::optional<std::string>* refusal = nullptr) {
    StatusOr<api::Trace> t = RunForced(reference_, s, options, forced, refusal);
    EXPECT_TRUE(t.ok()) << t.status().message();
    return t.ok() ? *t : api::Trace{};
  }

  // The trace of an implementation whose feasible-node search at cycle 1
  // ended with `feasible` and the rejections of `rejected`, as the
  // reference writes it when forced (the forced run is only a way to get
  // the trace; an illegal one would be refused, checked here).
  api::Trace WithSearch(const api::Scenario& s,
                        std::vector<std::string> feasible,
                        std::set<std::string> rejected) {
    api::RunOptions options;
    options.record_feasible_nodes = true;
    ForcedDecisions forced;
    forced.searches[1] = {std::move(feasible), std::move(rejected)};
    std::optional<std::string> refusal;
    api::Trace t = RunWith(s, options, forced, &refusal);
    EXPECT_EQ(refusal, std::nullopt);
    for (const api::Trace::Record& r : t.records) {
      EXPECT_EQ(api::AsNote(r), nullptr) << api::AsNote(r)->message;
    }
    return t;
  }

  // The trace of an implementation whose preemption at cycle 1 nominated
  // `node`.
  api::Trace Nominating(const api::Scenario& s, const std::string& node) {
    ForcedDecisions forced;
    forced.nominations[1] = node;
    return RunWith(s, {}, forced);
  }

  LegalChoiceResult Compare(const api::Scenario& s, const api::Trace& actual) {
    StatusOr<LegalChoiceResult> r = CompareLegalChoice(reference_, s, actual);
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() ? *r : LegalChoiceResult{};
  }

  reference::ReferenceScheduler reference_;
  const api::Scenario tie_ = Load("conformance/testdata/tie.yaml");
  const api::Scenario distinct_ = Load("conformance/testdata/distinct.yaml");
  const api::Scenario early_stop_ =
      Load("conformance/testdata/early-stop.yaml");
  const api::Scenario preemption_tie_ =
      Load("conformance/testdata/preemption-tie.yaml");
  const api::Scenario early_stop_nominated_ =
      Load("conformance/testdata/early-stop-nominated.yaml");
  // One preemption with two victims, deleted at once (two victimDeleted
  // notes).
  const api::Scenario two_victims_ = Load("golden/preemption/latest-start-time.yaml");
  // Pods of equal priority created at one instant: they tie in activeQ.
  const api::Scenario same_instant_ =
      Load("golden/nodeunschedulable/toleration-variants.yaml");
};

TEST_F(LegalChoiceTest, TheReferenceConformsWithoutChoices) {
  LegalChoiceResult r = Compare(tie_, Run(tie_));
  EXPECT_EQ(r.difference, std::nullopt);
  EXPECT_TRUE(r.accepted.empty());
  EXPECT_TRUE(r.forced.empty());
  EXPECT_EQ(r.refused, std::nullopt);
  EXPECT_EQ(r.refused, std::nullopt);
}

TEST_F(LegalChoiceTest, AcceptsAnotherMemberOfATiedTopScoreSet) {
  // The seeded RNG picks a; b and c tie with it.
  ASSERT_EQ(Run(tie_).placements.at("default/p1"), "a");
  for (const std::string node : {"b", "c"}) {
    api::Trace actual = Run(tie_, {{1, node}});
    ASSERT_EQ(actual.placements.at("default/p1"), node);
    LegalChoiceResult r = Compare(tie_, actual);
    EXPECT_EQ(r.difference, std::nullopt) << node;
    EXPECT_EQ(r.accepted, (std::vector<Choice>{{1, "default/p1", node, "a"}}));
    EXPECT_EQ(r.forced.choices, (std::map<int64_t, std::string>{{1, node}}));
    EXPECT_EQ(r.oracle_lines, api::EncodeTraceLines(actual));
    EXPECT_EQ(r.refused, std::nullopt);
  }
}

// The reference's trace with the pod placed on `node` instead: what an
// implementation that ignores the scores would write.
api::Trace Misplaced(api::Trace t, const std::string& node) {
  for (api::Trace::Record& r : t.records) {
    if (api::Attempt* a = api::AsAttempt(r)) a->node = node;
    if (api::Binding* b = api::AsBinding(r)) b->node = node;
  }
  t.placements["default/p1"] = node;
  return t;
}

TEST_F(LegalChoiceTest, RefusesALowerScoredNode) {
  api::Trace reference = Run(distinct_);
  ASSERT_EQ(reference.placements.at("default/p1"), "big");
  LegalChoiceResult r = Compare(distinct_, Misplaced(reference, "small"));
  EXPECT_EQ(r.difference, 1u);
  EXPECT_EQ(r.refused, (Choice{1, "default/p1", "small", "big"}));
  EXPECT_TRUE(r.accepted.empty());
  EXPECT_EQ(r.oracle_lines, api::EncodeTraceLines(reference));
}

TEST_F(LegalChoiceTest, RefusesAnInfeasibleNode) {
  LegalChoiceResult r = Compare(distinct_, Misplaced(Run(distinct_), "tiny"));
  EXPECT_EQ(r.difference, 1u);
  EXPECT_EQ(r.refused, (Choice{1, "default/p1", "tiny", "big"}));
}

TEST_F(LegalChoiceTest, ADifferenceThatIsNotAChoiceEndsTheWalk) {
  // Accept the tie at cycle 1, then disagree about the final placement.
  api::Trace actual = Run(tie_, {{1, "b"}});
  actual.placements["default/p1"] = "";
  LegalChoiceResult r = Compare(tie_, actual);
  EXPECT_EQ(r.difference, 3u);  // header, attempt, binding, placements
  EXPECT_EQ(r.accepted, (std::vector<Choice>{{1, "default/p1", "b", "a"}}));
  EXPECT_EQ(r.refused, std::nullopt);
}

TEST_F(LegalChoiceTest, AcceptsAnEarlyStopSearchUpstreamsWorkersCanProduce) {
  // The reference keeps n0, the first node from the start index.
  ASSERT_EQ(Run(early_stop_).placements.at("default/p1"), "n0");
  struct Case {
    std::vector<std::string> feasible;
    std::set<std::string> rejected;
  };
  for (const Case& c : std::vector<Case>{{{"n2"}, {"n1"}},  // n1 checked too
                                         {{"n2"}, {}},
                                         {{"n3"}, {}}}) {
    const api::Trace actual =
        WithSearch(early_stop_, c.feasible, c.rejected);
    ASSERT_EQ(actual.placements.at("default/p1"), c.feasible[0]);
    LegalChoiceResult r = Compare(early_stop_, actual);
    EXPECT_EQ(r.difference, std::nullopt) << c.feasible[0];
    EXPECT_EQ(r.refused, std::nullopt);
    EXPECT_EQ(r.forced.searches.at(1).feasible, c.feasible);
    EXPECT_EQ(r.forced.searches.at(1).rejected, c.rejected);
    ASSERT_FALSE(r.accepted.empty());
    EXPECT_EQ(r.accepted[0], (Choice{1, "default/p1", c.feasible[0], "n0",
                                     "feasible nodes"}));
  }
}

TEST_F(LegalChoiceTest, ANominatedNodesEarlierRejectionNeedNotBeSearched) {
  // n5's rejection comes from evaluateNominatedNode: the search that kept
  // n2 never reached n5's chunk (reaching it would have checked n4, which
  // passes, too).
  const api::Trace actual =
      WithSearch(early_stop_nominated_, {"n2"}, {"n5"});
  ASSERT_EQ(actual.placements.at("default/p"), "n2");
  LegalChoiceResult r = Compare(early_stop_nominated_, actual);
  EXPECT_EQ(r.difference, std::nullopt);
  EXPECT_EQ(r.refused, std::nullopt) << r.refusal;
  // The search and, with it, the node chosen from its one feasible node.
  ASSERT_EQ(r.accepted.size(), 2u);
  EXPECT_EQ(r.accepted[0].decision, "feasible nodes");
  EXPECT_EQ(r.accepted[1], (Choice{1, "default/p", "n2", "n0", "node"}));
}

TEST_F(LegalChoiceTest, RefusesASearchOneWorkerCannotProduce) {
  // With parallelism 1 the single worker checks n0 first and keeps it.
  const api::Trace actual = WithSearch(early_stop_, {"n2"}, {"n1"});
  api::Scenario sequential = early_stop_;
  sequential.config.parallelism = 1;
  LegalChoiceResult r = Compare(sequential, actual);
  EXPECT_EQ(r.difference, 1u);
  ASSERT_TRUE(r.refused.has_value());
  EXPECT_EQ(r.refused->decision, "feasible nodes");
  EXPECT_EQ(r.refused->node, "n2");
  EXPECT_NE(r.refusal.find("feasible-node search not accepted"),
            std::string::npos)
      << r.refusal;
  EXPECT_TRUE(r.accepted.empty());
}

TEST_F(LegalChoiceTest, RefusesASearchThatSkipsACheckedNode) {
  // n1 comes before n3 in its chunk only if chunks are bigger than one
  // node; here a node the trace says was kept does not pass at all.
  api::Trace actual = WithSearch(early_stop_, {"n2"}, {});
  for (api::Trace::Record& rec : actual.records) {
    if (api::Attempt* a = api::AsAttempt(rec)) a->feasible_nodes = {"n1"};
  }
  LegalChoiceResult r = Compare(early_stop_, actual);
  ASSERT_TRUE(r.refused.has_value());
  EXPECT_NE(r.refusal.find("feasible node n1 does not pass the filters"),
            std::string::npos)
      << r.refusal;
}

TEST_F(LegalChoiceTest, WithoutFeasibleNodesADifferentSearchIsADivergence) {
  // An implementation that does not list its feasible nodes cannot use the
  // freedom: the oracle does not guess them.
  api::Trace actual = WithSearch(early_stop_, {"n2"}, {"n1"});
  for (api::Trace::Record& rec : actual.records) {
    if (api::Attempt* a = api::AsAttempt(rec)) a->feasible_nodes.clear();
  }
  LegalChoiceResult r = Compare(early_stop_, actual);
  EXPECT_EQ(r.difference, 1u);
  EXPECT_EQ(r.refused, std::nullopt);
  EXPECT_TRUE(r.forced.searches.empty());
}

const api::Attempt& FirstAttempt(const api::Trace& t) {
  for (const api::Trace::Record& r : t.records) {
    if (const api::Attempt* a = api::AsAttempt(r)) return *a;
  }
  ADD_FAILURE() << "no attempt";
  static const api::Attempt kNone;
  return kNone;
}

TEST_F(LegalChoiceTest, AcceptsEitherOfTwoEquallyGoodPreemptionCandidates) {
  const std::string own =
      FirstAttempt(Run(preemption_tie_)).preemption->nominated_node;
  ASSERT_TRUE(own == "node1" || own == "node2") << own;
  const std::string other = own == "node1" ? "node2" : "node1";
  const api::Trace actual = Nominating(preemption_tie_, other);
  ASSERT_EQ(FirstAttempt(actual).preemption->nominated_node, other);
  LegalChoiceResult r = Compare(preemption_tie_, actual);
  EXPECT_EQ(r.difference, std::nullopt);
  EXPECT_EQ(r.accepted, (std::vector<Choice>{
                            {1, "default/high", other, own, "nomination"}}));
  EXPECT_EQ(r.forced.nominations,
            (std::map<int64_t, std::string>{{1, other}}));
}

TEST_F(LegalChoiceTest, RefusesANominationNoDryRunCanMake) {
  api::Trace actual = Run(preemption_tie_);
  for (api::Trace::Record& rec : actual.records) {
    if (api::Attempt* a = api::AsAttempt(rec); a != nullptr && a->preemption) {
      a->preemption->nominated_node = "tiny";
    }
  }
  LegalChoiceResult r = Compare(preemption_tie_, actual);
  ASSERT_TRUE(r.refused.has_value());
  EXPECT_EQ(r.refused->decision, "nomination");
  EXPECT_EQ(r.refused->node, "tiny");
  EXPECT_NE(r.refusal.find("node tiny is not one of the best candidates"),
            std::string::npos)
      << r.refusal;
}

// Upstream preempts a candidate's victims in parallel: any order of the
// attempt's victims and of their notes is accepted; other victims are not.
TEST_F(LegalChoiceTest, AcceptsVictimsInAnyOrderButNotOtherVictims) {
  api::Trace actual = Run(two_victims_);
  size_t first_note = 0;
  std::vector<std::string>* victims = nullptr;
  for (size_t i = 0; i < actual.records.size(); ++i) {
    api::Trace::Record& rec = actual.records[i];
    api::Attempt* a = api::AsAttempt(rec);
    if (a != nullptr && a->preemption && !a->preemption->victims.empty()) {
      victims = &a->preemption->victims;
      first_note = i + 1;
      break;
    }
  }
  ASSERT_NE(victims, nullptr);
  ASSERT_EQ(victims->size(), 2u);
  ASSERT_LT(first_note + 1, actual.records.size());
  ASSERT_NE(api::AsNote(actual.records[first_note]), nullptr);
  ASSERT_EQ(api::AsNote(actual.records[first_note])->what, "victimDeleted");
  ASSERT_EQ(api::AsNote(actual.records[first_note + 1])->what, "victimDeleted");

  api::Trace reordered = actual;
  for (api::Trace::Record& rec : reordered.records) {
    if (api::Attempt* a = api::AsAttempt(rec); a != nullptr && a->preemption) {
      std::reverse(a->preemption->victims.begin(), a->preemption->victims.end());
    }
  }
  std::swap(reordered.records[first_note], reordered.records[first_note + 1]);
  ASSERT_NE(api::EncodeTraceLines(reordered), api::EncodeTraceLines(actual));
  LegalChoiceResult r = Compare(two_victims_, reordered);
  EXPECT_EQ(r.difference, std::nullopt);
  EXPECT_TRUE(r.accepted.empty());

  api::Trace other = actual;
  api::AsNote(other.records[first_note])->pod = "default/someone-else";
  r = Compare(two_victims_, other);
  EXPECT_TRUE(r.difference.has_value());
  EXPECT_EQ(r.refused, std::nullopt);
}

// Pods tying at the head of activeQ may leave it in any order (upstream's
// heap insertion history, or a real clock's creation order); a pod that is
// not at the head's level, or not queued, is refused.
TEST_F(LegalChoiceTest, AcceptsAnotherPodTyingAtTheHeadOfActiveQ) {
  const api::Trace own = Run(same_instant_);
  const api::Attempt first = FirstAttempt(own);
  ASSERT_EQ(first.cycle, 1);
  std::string other;
  for (const api::Trace::Record& rec : own.records) {
    const api::Attempt* a = api::AsAttempt(rec);
    if (a != nullptr && a->cycle == 2) other = a->pod;
  }
  ASSERT_FALSE(other.empty());
  ASSERT_NE(other, first.pod);
  ForcedDecisions forced;
  forced.pops[1] = other;
  std::optional<std::string> refusal;
  const api::Trace actual = RunWith(same_instant_, {}, forced, &refusal);
  ASSERT_EQ(refusal, std::nullopt) << *refusal;
  ASSERT_EQ(FirstAttempt(actual).pod, other);
  LegalChoiceResult r = Compare(same_instant_, actual);
  EXPECT_EQ(r.difference, std::nullopt);
  ASSERT_FALSE(r.accepted.empty());
  EXPECT_EQ(r.accepted.front(), (Choice{1, other, other, first.pod, "pod"}));

  api::Trace ghost = own;
  for (api::Trace::Record& rec : ghost.records) {
    api::Attempt* a = api::AsAttempt(rec);
    if (a != nullptr && a->cycle == 1) a->pod = "default/ghost";
  }
  r = Compare(same_instant_, ghost);
  ASSERT_TRUE(r.refused.has_value());
  EXPECT_EQ(r.refused->decision, "pod");
  EXPECT_NE(r.refusal.find("pod default/ghost is not in activeQ"), std::string::npos)
      << r.refusal;
}

}  // namespace
}  // namespace schedref::conformance
