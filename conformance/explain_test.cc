#include "conformance/explain.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace schedref::conformance {
namespace {

using Lines = std::vector<std::string>;

api::NodeDetail Passed(int64_t fit, int64_t taint) {
  api::NodeDetail d;
  d.filter = {{"NodeResourcesFit", "Success"}, {"TaintToleration", "Success"}};
  d.scores = {{"NodeResourcesFit", {fit, fit, fit}},
              {"TaintToleration", {0, 100, taint}}};
  return d;
}

api::NodeDetail Rejected() {
  api::NodeDetail d;
  d.filter = {{"NodeResourcesFit", "Unschedulable: Insufficient cpu"}};
  return d;
}

// cycle 4 at t=2000: a and b tie at 350, c scores 320, d is rejected,
// e passed the filters but was not scored; a was chosen.
api::Attempt MakeAttempt() {
  api::Attempt a;
  a.at = 2000;
  a.cycle = 4;
  a.pod = "default/p";
  a.profile = "default-scheduler";
  a.outcome = api::AttemptOutcome::kScheduled;
  a.node = "a";
  a.evaluated = 5;
  a.feasible = 4;
  a.detail = {{"a", Passed(50, 300)},
              {"b", Passed(50, 300)},
              {"c", Passed(20, 300)},
              {"d", Rejected()}};
  api::NodeDetail unscored;
  unscored.filter = {{"NodeResourcesFit", "Success"}};
  a.detail["e"] = unscored;
  return a;
}

TEST(ExplainTest, TotalsAndTop) {
  api::Attempt a = MakeAttempt();
  EXPECT_EQ(TotalScores(a),
            (std::map<std::string, int64_t>{{"a", 350}, {"b", 350}, {"c", 320}}));
  EXPECT_EQ(TopScoredNodes(a), (Lines{"a", "b"}));
  EXPECT_EQ(TopScoredNodes(api::Attempt{}), Lines{});
}

TEST(ExplainTest, JudgeChoice) {
  api::Attempt a = MakeAttempt();
  EXPECT_EQ(JudgeChoice(a, "b"), "b ties for the top score 350 with a");
  EXPECT_EQ(JudgeChoice(a, "c"), "c scores 320; the top score is 350 (a, b)");
  EXPECT_EQ(JudgeChoice(a, "d"),
            "d was rejected by NodeResourcesFit (Unschedulable: Insufficient "
            "cpu)");
  EXPECT_EQ(JudgeChoice(a, "e"), "e passed the filters but was not scored");
  EXPECT_EQ(JudgeChoice(a, "z"),
            "z was not evaluated by the reference (the feasible-node search "
            "stopped before it, or the node does not exist)");
  a.detail.erase("b");
  EXPECT_EQ(JudgeChoice(a, "a"), "a ties for the top score 350 alone");
  EXPECT_EQ(JudgeChoice(api::Attempt{}, "a"),
            "the reference ran no filter on any node in this attempt");
}

TEST(ExplainTest, ExplainAttempt) {
  api::Attempt a = MakeAttempt();
  a.preemption = api::Preemption{"n9", {"default/v1", "default/v2"}};
  EXPECT_EQ(
      ExplainAttempt(a, {}),
      (Lines{
          "reference, cycle 4 (t=2000ms, pod default/p, profile "
          "default-scheduler): scheduled on a; 5 nodes evaluated, 4 feasible",
          "a: score 350 <- chosen; filters passed; weighted scores "
          "NodeResourcesFit 50, TaintToleration 300",
          "b: score 350; filters passed; weighted scores NodeResourcesFit 50, "
          "TaintToleration 300",
          "c: score 320; filters passed; weighted scores NodeResourcesFit 20, "
          "TaintToleration 300",
          "e: filters passed; not scored",
          "d: rejected by NodeResourcesFit (Unschedulable: Insufficient cpu)",
          "top score 350: a, b",
          "preemption: nominated n9, victims [default/v1, default/v2]",
      }));
}

TEST(ExplainTest, ExplainAttemptListsAtMostMaxNodesPlusTheOnesAsked) {
  api::Attempt a = MakeAttempt();
  a.message = "why not";
  EXPECT_EQ(
      ExplainAttempt(a, {"d"}, 2),
      (Lines{
          "reference, cycle 4 (t=2000ms, pod default/p, profile "
          "default-scheduler): scheduled on a; 5 nodes evaluated, 4 feasible",
          "message: why not",
          "a: score 350 <- chosen; filters passed; weighted scores "
          "NodeResourcesFit 50, TaintToleration 300",
          "b: score 350; filters passed; weighted scores NodeResourcesFit 50, "
          "TaintToleration 300",
          "d: rejected by NodeResourcesFit (Unschedulable: Insufficient cpu)",
          "2 more nodes not listed (`schedref explain` lists them all)",
          "top score 350: a, b",
      }));
}

TEST(ExplainTest, AttemptToExplain) {
  api::Trace t;
  api::Attempt first;
  first.cycle = 1;
  first.pod = "d/p";
  first.at = 0;
  api::Attempt second;
  second.cycle = 2;
  second.pod = "d/q";
  second.at = 1000;
  api::Attempt third;
  third.cycle = 3;
  third.pod = "d/p";
  third.at = 2000;
  for (const api::Attempt& a : {first, second, third}) {
    t.records.push_back(a);
  }
  auto cycle = [&](std::string_view want, std::string_view got) {
    const api::Attempt* a = AttemptToExplain(t, want, got);
    return a == nullptr ? int64_t{-1} : a->cycle;
  };
  EXPECT_EQ(cycle(R"({"kind":"attempt","cycle":2,"pod":"d/q","t":1000})", ""), 2);
  EXPECT_EQ(cycle(R"({"kind":"binding","cycle":3,"pod":"d/p","t":2000})", ""), 3);
  EXPECT_EQ(cycle("", R"({"kind":"attempt","cycle":1,"pod":"d/p","t":0})"), 1);
  EXPECT_EQ(cycle(R"({"kind":"attempt","cycle":9,"pod":"d/p","t":0})", ""), -1);
  EXPECT_EQ(cycle(R"({"kind":"note","what":"x","pod":"d/p","t":1500})", ""), 1);
  EXPECT_EQ(cycle(R"({"kind":"note","what":"x","pod":"d/p","t":2500})", ""), 3);
  EXPECT_EQ(cycle(R"({"kind":"placements","placements":{"d/p":"a","d/q":"b"}})",
                  R"({"kind":"placements","placements":{"d/p":"a","d/q":"c"}})"),
            2);
  EXPECT_EQ(cycle(R"({"kind":"placements","placements":{"d/p":"a"}})",
                  R"({"kind":"placements","placements":{"d/p":"a"}})"),
            -1);
  EXPECT_EQ(cycle(R"({"format":"schedref-trace","kind":"header","version":1})",
                  "garbage"),
            -1);
}

}  // namespace
}  // namespace schedref::conformance
