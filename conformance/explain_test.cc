#include "conformance/explain.h"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <algorithm>

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

// The explained attempt of the renderer's tests: b and a tie at 350 (b
// first in the feasible list), c scores 320, d is rejected; a was chosen.
// NodeAffinity's PreFilter said Skip.
api::Attempt TieAttempt() {
  api::Attempt a;
  a.at = 2000;
  a.cycle = 4;
  a.pod = "default/p";
  a.profile = "default-scheduler";
  a.outcome = api::AttemptOutcome::kScheduled;
  a.node = "a";
  a.evaluated = 4;
  a.feasible = 3;
  a.feasible_nodes = {"b", "c", "a"};
  a.pre_filter = {{"NodeAffinity", "Skip"}, {"NodeResourcesFit", "Success"}};
  auto passed = [](int64_t fit) {
    api::NodeDetail d;
    d.filter = {{"NodeUnschedulable", "Success"},
                {"NodeResourcesFit", "Success"},
                {"TaintToleration", "Success"}};
    d.scores = {{"NodeResourcesFit", {fit, fit, fit}}, {"TaintToleration", {0, 100, 300}}};
    return d;
  };
  api::NodeDetail rejected;
  rejected.filter = {{"NodeUnschedulable", "Success"},
                     {"NodeResourcesFit", "Unschedulable: Insufficient cpu"}};
  a.detail = {{"a", passed(50)}, {"b", passed(50)}, {"c", passed(20)}, {"d", rejected}};
  return a;
}

ExplainContext Context() {
  ExplainContext c;
  c.filter_plugins = {"NodeUnschedulable", "NodeAffinity", "NodeResourcesFit",
                      "TaintToleration"};
  c.score_plugins = {{"NodeResourcesFit", 1}, {"TaintToleration", 3}};
  c.seed = 7;
  return c;
}

const char kHead[] =
    "cycle 4 (t=2000ms), pod default/p, profile default-scheduler: scheduled on a; "
    "4 nodes evaluated, 3 feasible";
const char kPlugins1[] = "PreFilter: NodeAffinity Skip, NodeResourcesFit Success";
const char kPlugins2[] =
    "Filter plugins, in run order: NodeUnschedulable, NodeAffinity, NodeResourcesFit, "
    "TaintToleration";
const char kPlugins3[] = "Score plugins (weight): NodeResourcesFit 1, TaintToleration 3";
const char kPassed[] = "  filters: all passed; skipped (PreFilter Skip): NodeAffinity";
const char kScores50[] =
    "  scores: NodeResourcesFit 50 (1 x 50, raw 50), TaintToleration 300 (3 x 100, raw 0)";
const char kScores20[] =
    "  scores: NodeResourcesFit 20 (1 x 20, raw 20), TaintToleration 300 (3 x 100, raw 0)";
const char kRejectedD[] = "node d: rejected by NodeResourcesFit (Unschedulable: Insufficient cpu)";
const char kRejectedDFilters[] =
    "  filters: passed NodeUnschedulable; rejected by NodeResourcesFit (Unschedulable: "
    "Insufficient cpu); not run: TaintToleration; skipped (PreFilter Skip): NodeAffinity";

struct RenderCase {
  const char* name;
  api::Attempt attempt;
  ExplainContext context;
  std::set<std::string> always;
  size_t max_nodes;
  Lines want;
};

TEST(ExplainTest, RenderedText) {
  std::vector<RenderCase> cases;
  cases.push_back({"a tie broken by the seeded draw, in feasible-list order",
                   TieAttempt(),
                   Context(),
                   {},
                   SIZE_MAX,
                   {kHead, kPlugins1, kPlugins2, kPlugins3,
                    "node a: rank 1, total 350 <- chosen", kPassed, kScores50,
                    "node b: rank 1, total 350", kPassed, kScores50,
                    "node c: rank 3, total 320", kPassed, kScores20, kRejectedD,
                    kRejectedDFilters,
                    "chosen: b, a tie at the top total 350 (in feasible-list order); "
                    "selectHost picks one uniformly (upstream v1.32: reservoir sampling "
                    "with math/rand); schedref draws once from its RNG seeded with 7 "
                    "(docs/deviations.md, \"selectHost\"): index 1 of 2 -> a"}});
  {
    api::Attempt a = TieAttempt();
    a.detail.at("b").scores.at("NodeResourcesFit") = {10, 10, 10};
    cases.push_back({"a unique top score; at most 1 node plus the ones asked for",
                     a,
                     Context(),
                     {"d"},
                     1,
                     {kHead, kPlugins1, kPlugins2, kPlugins3,
                      "node a: rank 1, total 350 <- chosen", kPassed, kScores50, kRejectedD,
                      kRejectedDFilters,
                      "2 more nodes not listed (`schedref explain` lists them all)",
                      "chosen: a, the only node with the top total 350 (next: c 320)"}});
  }
  {
    // Without the profile's plugins: the detail's, by name, weights 0.
    api::Attempt a = TieAttempt();
    a.feasible_nodes.clear();
    a.detail.erase("c");
    a.detail.erase("d");
    a.pre_filter.clear();
    const char* passed = "  filters: all passed";
    const char* scores =
        "  scores: NodeResourcesFit 50 (0 x 50, raw 50), TaintToleration 300 (0 x 100, raw 0)";
    cases.push_back({"no plugin lists, no feasible-list order",
                     a,
                     ExplainContext{},
                     {},
                     SIZE_MAX,
                     {kHead,
                      "Filter plugins, in run order: NodeResourcesFit, NodeUnschedulable, "
                      "TaintToleration",
                      "Score plugins (weight): NodeResourcesFit 0, TaintToleration 0",
                      "node a: rank 1, total 350 <- chosen", passed, scores,
                      "node b: rank 1, total 350", passed, scores,
                      "chosen: a, b tie at the top total 350 (by name); selectHost picks one "
                      "uniformly (upstream v1.32: reservoir sampling with math/rand); "
                      "schedref draws once from its RNG seeded with 0 (docs/deviations.md, "
                      "\"selectHost\") -> a"}});
  }
  {
    api::Attempt a = TieAttempt();
    a.feasible = 1;
    a.detail.erase("b");
    a.detail.erase("c");
    for (auto& [node, d] : a.detail) d.scores.clear();
    cases.push_back({"one feasible node: no scores, no selectHost",
                     a,
                     Context(),
                     {},
                     SIZE_MAX,
                     {"cycle 4 (t=2000ms), pod default/p, profile default-scheduler: "
                      "scheduled on a; 4 nodes evaluated, 1 feasible",
                      kPlugins1, kPlugins2, kPlugins3, "node a: rank 1, not scored <- chosen",
                      kPassed, kRejectedD, kRejectedDFilters,
                      "chosen: a, the only feasible node: selectHost does not run"}});
  }
  {
    // Unschedulable at PreFilter, with a warning; preemption found nothing.
    api::Attempt a;
    a.cycle = 1;
    a.pod = "default/p";
    a.profile = "default-scheduler";
    a.outcome = api::AttemptOutcome::kUnschedulable;
    a.pre_filter = {{"NodeResourcesFit", "Success"},
                    {"VolumeBinding", "UnschedulableAndUnresolvable: pod has unbound "
                                      "immediate PersistentVolumeClaims"}};
    a.message = "0/3 nodes are available: pod has unbound immediate "
                "PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 "
                "Preemption is not helpful for scheduling.";
    a.preemption = api::Preemption{};
    ExplainContext c = Context();
    c.warnings = {{"default/p", "PodLevelResources", "spec.resources: not modelled"},
                  {"default/q", "PodLevelResources", "another pod's"}};
    cases.push_back(
        {"unschedulable at PreFilter",
         a,
         c,
         {},
         SIZE_MAX,
         {"cycle 1 (t=0ms), pod default/p, profile default-scheduler: unschedulable; 0 "
          "nodes evaluated, 0 feasible",
          "warning: spec.resources: not modelled",
          "PreFilter: NodeResourcesFit Success, VolumeBinding UnschedulableAndUnresolvable: "
          "pod has unbound immediate PersistentVolumeClaims",
          kPlugins2, kPlugins3,
          "message: 0/3 nodes are available: pod has unbound immediate "
          "PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is "
          "not helpful for scheduling.",
          "preemption: no candidate node (nothing nominated, no victims)"}});
  }
  {
    api::Attempt a = TieAttempt();
    a.outcome = api::AttemptOutcome::kUnschedulable;
    a.node = "";
    a.feasible = 0;
    a.feasible_nodes.clear();
    a.detail = {{"d", a.detail.at("d")}};
    a.evaluated = 1;
    a.message = "0/1 nodes are available: 1 Insufficient cpu. preemption: ...";
    a.preemption = api::Preemption{"d",
                                   {"default/low-1", "default/low-2"},
                                   {{"d", {"default/low-1", "default/low-2"}, 0},
                                    {"e", {"default/x"}, 1}}};
    cases.push_back({"preemption nominates a node",
                     a,
                     Context(),
                     {},
                     SIZE_MAX,
                     {"cycle 4 (t=2000ms), pod default/p, profile default-scheduler: "
                      "unschedulable; 1 nodes evaluated, 0 feasible",
                      kPlugins1, kPlugins2, kPlugins3, kRejectedD, kRejectedDFilters,
                      "message: 0/1 nodes are available: 1 Insufficient cpu. preemption: ...",
                      "preemption: nominated d; victims default/low-1, default/low-2",
                      "  candidate d: victims default/low-1, default/low-2 <- nominated",
                      "  candidate e: victims default/x (1 PDB violation)"}});
  }
  for (const RenderCase& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(ExplainAttempt(c.attempt, c.context, c.always, c.max_nodes), c.want);
  }
}

// The JSON is what the text is rendered from; a few of its fields, as
// docs/explain.md describes them.
TEST(ExplainTest, Json) {
  const nlohmann::json j = ExplainAttemptJson(TieAttempt(), Context());
  EXPECT_EQ(j["pod"], "default/p");
  EXPECT_EQ(j["plugins"]["preFilter"][0],
            (nlohmann::json{{"plugin", "NodeAffinity"}, {"status", "Skip"}}));
  EXPECT_EQ(j["plugins"]["extenders"], nlohmann::json::array());
  EXPECT_EQ(j["nodes"][0]["node"], "a");
  EXPECT_EQ(j["nodes"][0]["rank"], 1);
  EXPECT_EQ(j["nodes"][0]["total"], 350);
  EXPECT_EQ(j["nodes"][0]["filter"][1],
            (nlohmann::json{{"plugin", "NodeAffinity"}, {"status", "Skipped"}}));
  EXPECT_EQ(j["nodes"][0]["scores"][1],
            (nlohmann::json{{"plugin", "TaintToleration"},
                            {"weight", 3},
                            {"raw", 0},
                            {"normalized", 100},
                            {"weighted", 300}}));
  EXPECT_EQ(j["nodes"][3]["filter"][3],
            (nlohmann::json{{"plugin", "TaintToleration"}, {"status", "NotRun"}}));
  EXPECT_EQ(j["choice"]["reason"], "tie");
  EXPECT_EQ(j["choice"]["tied"], (nlohmann::json{"b", "a"}));
  EXPECT_EQ(j["choice"]["drawn"], 1);
  EXPECT_EQ(j["choice"]["seed"], 7);
  EXPECT_FALSE(j.contains("preemption"));
  EXPECT_EQ(RenderExplanation(j), ExplainAttempt(TieAttempt(), Context()));
}

// The cluster's nodes that the attempt did not evaluate, with the reason
// the attempt itself shows.
TEST(ExplainTest, NotEvaluated) {
  struct Case {
    std::string name;
    api::Attempt attempt;
    std::vector<std::string> cluster;
    std::string reason;  // "": no notEvaluated key
    Lines nodes;
    std::string line;    // the text's line, "" when none
  };
  std::vector<Case> cases;
  const Lines cluster = {"a", "b", "c", "d", "e", "f", "g"};
  cases.push_back({"search stopped", MakeAttempt(), cluster, "searchStopped", {"f", "g"},
                   "not evaluated: 2 nodes (the feasible-node search stopped once it had "
                   "enough feasible nodes (percentageOfNodesToScore)): f, g"});
  cases.push_back({"cluster unknown", MakeAttempt(), {}, "", {}, ""});
  cases.push_back({"every node evaluated", MakeAttempt(), {"a", "b", "c", "d", "e"}, "", {}, ""});
  {
    api::Attempt a = MakeAttempt();
    a.pre_filter = {{"NodeAffinity", "Success: nodes a, b, c, d, e"}};
    cases.push_back({"PreFilter result", a, cluster, "preFilterResult", {"f", "g"},
                     "not evaluated: 2 nodes (not in the PreFilter result of NodeAffinity): f, g"});
  }
  {
    api::Attempt a = MakeAttempt();
    a.detail.clear();
    a.evaluated = 1;
    a.feasible = 1;
    a.node = "c";
    cases.push_back({"nominated node", a, {"a", "c"}, "nominatedNode", {"a"},
                     "not evaluated: 1 node (the pod's nominated node was checked first and "
                     "passed, so no other node was): a"});
  }
  {
    api::Attempt a = MakeAttempt();
    a.detail.clear();
    a.evaluated = 0;
    a.feasible = 0;
    a.node = "";
    cases.push_back({"no filter ran", a, {"a"}, "noFilterRan", {"a"},
                     "not evaluated: 1 node (no Filter ran: the attempt ended before the "
                     "nodes were filtered): a"});
  }
  {
    Lines many;
    for (int i = 0; i < 15; ++i) many.push_back("z" + std::to_string(100 + i));
    Lines all = many;
    all.insert(all.begin(), {"a", "b", "c", "d", "e"});
    cases.push_back({"long list cut", MakeAttempt(), all, "searchStopped", many,
                     "not evaluated: 15 nodes (the feasible-node search stopped once it had "
                     "enough feasible nodes (percentageOfNodesToScore)): z100, z101, z102, "
                     "z103, z104, z105, z106, z107, z108, z109 and 5 more"});
  }
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    ExplainContext context;
    context.cluster_nodes = c.cluster;
    const nlohmann::json j = ExplainAttemptJson(c.attempt, context);
    if (c.reason.empty()) {
      EXPECT_FALSE(j.contains("notEvaluated"));
    } else {
      EXPECT_EQ(j["notEvaluated"]["reason"], c.reason);
      EXPECT_EQ(j["notEvaluated"]["nodes"], nlohmann::json(c.nodes));
    }
    Lines text = RenderExplanation(j);
    std::string found;
    for (const std::string& l : text) {
      if (l.rfind("not evaluated:", 0) == 0) found = l;
    }
    EXPECT_EQ(found, c.line);
  }
}

// The nodes at an instant: events at that instant have happened.
TEST(ExplainTest, NodesAt) {
  api::Scenario s;
  s.initial.nodes.resize(2);
  s.initial.nodes[0].name = "n2";
  s.initial.nodes[1].name = "n1";
  api::Event add;
  add.at = 1000;
  add.op = api::Event::Op::kCreate;
  api::Node n3;
  n3.name = "n3";
  add.object = n3;
  api::Event del;
  del.at = 2000;
  del.op = api::Event::Op::kDelete;
  del.kind = "Node";
  del.name = "n1";
  api::Event pod_del = del;
  pod_del.kind = "Pod";
  pod_del.name = "n2";
  s.timeline = {add, del, pod_del};
  EXPECT_EQ(NodesAt(s, 0), (Lines{"n1", "n2"}));
  EXPECT_EQ(NodesAt(s, 999), (Lines{"n1", "n2"}));
  EXPECT_EQ(NodesAt(s, 1000), (Lines{"n1", "n2", "n3"}));
  EXPECT_EQ(NodesAt(s, 2000), (Lines{"n2", "n3"}));
}

// Extenders: listed in call order, their verdicts and scores per node
// beside the plugins', named by urlPrefix; an extender's rejection rejects
// the node, and its weighted score counts in the total.
TEST(ExplainTest, Extenders) {
  api::Attempt a = TieAttempt();
  a.detail["a"].filter["http://x"] = "Success";
  a.detail["a"].scores["http://x"] = {3, 3, 60};
  a.detail["b"].filter["http://x"] = "Unschedulable: no gpu";
  ExplainContext context = Context();
  api::Extender x;
  x.url_prefix = "http://x";
  x.filter_verb = "filter";
  x.prioritize_verb = "prioritize";
  x.weight = 2;
  context.extenders = {x};
  const nlohmann::json j = ExplainAttemptJson(a, context);
  EXPECT_EQ(j["plugins"]["extenders"][0]["name"], "http://x");
  EXPECT_EQ(j["plugins"]["extenders"][0]["weight"], 2);
  EXPECT_EQ(j["plugins"]["extenders"][0]["filter"], true);
  EXPECT_EQ(j["plugins"]["extenders"][0]["bind"], false);
  EXPECT_EQ(j["nodes"][0]["node"], "a");
  EXPECT_EQ(j["nodes"][0]["total"], 410);
  EXPECT_EQ(j["nodes"][0]["extenders"][0],
            (nlohmann::json{{"name", "http://x"}, {"filter", "Success"}, {"score", 3},
                            {"weighted", 60}}));
  // The plugins' lists do not show the extender.
  for (const nlohmann::json& s : j["nodes"][0]["scores"]) EXPECT_NE(s["plugin"], "http://x");
  const std::vector<std::string> text = ExplainAttempt(a, context);
  EXPECT_NE(std::find(text.begin(), text.end(),
                      "extender http://x: filter, prioritize weight 2"),
            text.end());
  EXPECT_NE(std::find(text.begin(), text.end(), "  extender http://x: filter Success, score 60 (raw 3)"),
            text.end());
  bool b_rejected = false;
  for (const std::string& line : text) {
    if (line == "node b: rejected by extender http://x (Unschedulable: no gpu)") b_rejected = true;
  }
  EXPECT_TRUE(b_rejected);
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
