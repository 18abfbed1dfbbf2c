#include "conformance/legal_choice.h"

#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "api/scenario_decode.h"
#include "api/trace_codec.h"
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
    api::RunOptions options;
    options.forced_choices = std::move(forced);
    StatusOr<api::Trace> t = reference_.Run(s, options);
    EXPECT_TRUE(t.ok()) << t.status().message();
    return t.ok() ? *t : api::Trace{};
  }

  LegalChoiceResult Compare(const api::Scenario& s, const api::Trace& actual) {
    StatusOr<LegalChoiceResult> r = CompareLegalChoice(reference_, s, actual);
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() ? *r : LegalChoiceResult{};
  }

  reference::ReferenceScheduler reference_;
  const api::Scenario tie_ = Load("conformance/testdata/tie.yaml");
  const api::Scenario distinct_ = Load("conformance/testdata/distinct.yaml");
};

TEST_F(LegalChoiceTest, TheReferenceConformsWithoutChoices) {
  LegalChoiceResult r = Compare(tie_, Run(tie_));
  EXPECT_EQ(r.difference, std::nullopt);
  EXPECT_TRUE(r.accepted.empty());
  EXPECT_TRUE(r.forced.empty());
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
    EXPECT_EQ(r.forced, (std::map<int64_t, std::string>{{1, node}}));
    EXPECT_EQ(r.oracle_lines, api::EncodeTraceLines(actual));
    EXPECT_EQ(r.refused, std::nullopt);
  }
}

// The reference's trace with the pod placed on `node` instead: what an
// implementation that ignores the scores would write.
api::Trace Misplaced(api::Trace t, const std::string& node) {
  for (api::Trace::Record& r : t.records) {
    if (r.attempt) r.attempt->node = node;
    if (r.binding) r.binding->node = node;
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

}  // namespace
}  // namespace schedref::conformance
