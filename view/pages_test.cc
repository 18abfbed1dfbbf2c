// The pages: escaping, structure and content, on small hand-built inputs
// with hostile names; and the size bound for 5,000 nodes
// (docs/html-view.md). The browser test (view/browser_test.py) loads real
// goldens' pages in chromium.
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "conformance/explain.h"
#include "conformance/runner.h"
#include "view/check_page.h"
#include "view/explain_page.h"
#include "view/html.h"
#include "view/html_checker.h"
#include "view/run_page.h"

namespace schedref::view {
namespace {

using testing::CheckHtml;

// Names that break a page that does not escape them.
const std::string kHostileNode = "n<1>\"&'<script>alert(1)</script>";
const std::string kHostilePod = "default/<img src=x onerror=alert(2)>";
const std::string kHostileReason = "Unschedulable: </td></tr></table><b>Insufficient cpu</b> & more";

TEST(HtmlTest, Escape) {
  struct Case {
    std::string in, want;
  };
  const std::vector<Case> cases = {
      {"plain", "plain"},
      {"<a href=\"x\">&'", "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"},
      {"tab\tnew\nline\r", "tab\tnew\nline\r"},
      {std::string("nul\0bell\a", 9), "nul\xEF\xBF\xBD" "bell\xEF\xBF\xBD"},
      {"del\x7F", "del\xEF\xBF\xBD"},
      {"caf\xC3\xA9 \xE2\x9C\x93", "caf\xC3\xA9 \xE2\x9C\x93"},
      {"bad \xFF byte", "bad \xEF\xBF\xBD byte"},
      {"cut \xE2\x9C", "cut \xEF\xBF\xBD"},
      {"surrogate \xED\xA0\x80!", "surrogate \xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD!"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.in);
    const std::string got = Escape(c.in);
    // An invalid sequence becomes one or more U+FFFD; only its presence and
    // the valid text around it are pinned.
    if (c.in.find("surrogate") != std::string::npos) {
      EXPECT_EQ(got.rfind("surrogate \xEF\xBF\xBD", 0), 0u);
      EXPECT_EQ(got.back(), '!');
      continue;
    }
    EXPECT_EQ(got, c.want);
  }
  EXPECT_EQ(Breakable("NodeResourcesFit"), "Node<wbr>Resources<wbr>Fit");
  EXPECT_EQ(Breakable("a<B"), "a&lt;B");
  EXPECT_EQ(Count(1, "node"), "1 node");
  EXPECT_EQ(Count(0, "node"), "0 nodes");
}

api::NodeDetail Fits(int64_t fit) {
  api::NodeDetail d;
  d.filter = {{"NodeResourcesFit", "Success"}, {"TaintToleration", "Success"}};
  d.scores = {{"NodeResourcesFit", {fit, fit, fit}}, {"TaintToleration", {0, 100, 300}}};
  return d;
}

// kHostileNode wins over "b"; "c" is rejected with kHostileReason; the
// cluster also holds "d", which was not evaluated.
nlohmann::json Explanation() {
  api::Attempt a;
  a.at = 1500;
  a.cycle = 3;
  a.pod = kHostilePod;
  a.profile = "default-scheduler";
  a.node = kHostileNode;
  a.evaluated = 3;
  a.feasible = 2;
  a.detail[kHostileNode] = Fits(90);
  a.detail["b"] = Fits(40);
  api::NodeDetail rejected;
  rejected.filter = {{"TaintToleration", "Success"}, {"NodeResourcesFit", kHostileReason}};
  a.detail["c"] = rejected;
  conformance::ExplainContext context;
  context.filter_plugins = {"TaintToleration", "NodeResourcesFit"};
  context.score_plugins = {{"TaintToleration", 3}, {"NodeResourcesFit", 1}};
  context.cluster_nodes = {"b", "c", "d", kHostileNode};
  context.warnings = {{kHostilePod, "PodLevelResources", "spec.resources: <not modelled>"}};
  return conformance::ExplainAttemptJson(a, context);
}

// `page` is well formed, carries no raw hostile string and no element a
// hostile string would have made.
void ExpectSafe(const std::string& page) {
  testing::HtmlCheck check = CheckHtml(page);
  EXPECT_EQ(check.error, "");
  EXPECT_EQ(check.elements.count("img"), 0u);
  EXPECT_EQ(check.elements.count("b"), 0u);
  for (const std::string& raw : {kHostileNode, kHostilePod, kHostileReason}) {
    EXPECT_EQ(page.find(raw), std::string::npos) << raw;
  }
  // One script, the page's own.
  EXPECT_EQ(page.find("<script>"), page.rfind("<script>"));
  EXPECT_EQ(page.find("<script>alert"), std::string::npos);
  EXPECT_EQ(page.find("<img"), std::string::npos);
}

TEST(ExplainPageTest, MatrixAndEscaping) {
  const std::string page =
      ExplainPage({{"pod", kHostilePod}, {"attempts", {Explanation()}}}, "golden/x.yaml");
  ExpectSafe(page);
  struct Want {
    std::string what, fragment;
  };
  const std::vector<Want> wants = {
      {"the chosen row", "<tr data-name=\"" + Escape(kHostileNode) + "\" class=\"chosen\">"},
      {"the chosen verdict", "\u2605 chosen"},
      {"a total", "<td class=\"num\" data-v=\"390\"><strong>390</strong></td>"},
      {"a weighted score with its parts", "300<small>3\u00d7100 \u00b7 raw 0</small>"},
      {"the rejection reason in its cell", "\u2717 " + Escape(kHostileReason) + "</td>"},
      {"the rejected verdict", "\u2717 rejected by NodeResourcesFit"},
      {"a filter that passed", "\u2713</td>"},
      {"a node not evaluated",
       "<tr data-name=\"d\" class=\"ne\"><th scope=\"row\">d</th><td class=\"v\">\u25cb not evaluated"},
      {"the sortable total", "data-sort=\"num\">Total</th>"},
      {"the choice", "the only node with the top total 390 (next: b 340)"},
      {"the warning", Escape("spec.resources: <not modelled>")},
      {"the search", "data-search=\"node name\""},
      {"no network", "default-src 'none'"},
  };
  for (const Want& w : wants) {
    EXPECT_NE(page.find(w.fragment), std::string::npos) << w.what << ": " << w.fragment;
  }
}

TEST(ExplainPageTest, UnschedulableShowsFitErrorCountsAndPreemption) {
  api::Attempt a;
  a.cycle = 1;
  a.pod = "default/big";
  a.profile = "default-scheduler";
  a.outcome = api::AttemptOutcome::kUnschedulable;
  a.evaluated = 3;
  a.message = "0/3 nodes are available: 2 Insufficient cpu, 1 node(s) had untolerated taint.";
  for (const char* n : {"n1", "n2"}) {
    a.detail[n].filter = {{"TaintToleration", "Success"},
                          {"NodeResourcesFit", "Unschedulable: Insufficient cpu"}};
  }
  a.detail["n3"].filter = {{"TaintToleration", "UnschedulableAndUnresolvable: taint"}};
  a.preemption = api::Preemption{"n2", {"default/low"}, {{"n2", {"default/low"}, 0},
                                                         {"n1", {"default/mid"}, 1}}};
  conformance::ExplainContext context;
  context.filter_plugins = {"TaintToleration", "NodeResourcesFit"};
  const std::string page =
      ExplainPage({{"pod", a.pod}, {"attempts", {conformance::ExplainAttemptJson(a, context)}}},
                  "s.yaml");
  ExpectSafe(page);
  for (const std::string& fragment : std::vector<std::string>{
           std::string("<h3>FitError</h3><pre class=\"message\">0/3 nodes are available: 2 "
                       "Insufficient cpu, 1 node(s) had untolerated taint.</pre>"),
           std::string("Rejections by plugin and reason"),
           std::string("<th scope=\"row\">NodeResourcesFit</th><td class=\"bad\">\u2717 "
                       "Unschedulable: Insufficient cpu</td><td class=\"num\">2</td>"),
           std::string("<td class=\"nr\" title=\"NodeResourcesFit: not run (an earlier "
                       "filter rejected the node)\">\u00b7</td>"),
           std::string("Nominated node <strong>n2</strong>; victims, in deletion order: "
                       "default/low."),
           std::string("<td class=\"num\">1</td><td>candidate</td>"),
           std::string("\u2605 nominated"),
       }) {
    EXPECT_NE(page.find(fragment), std::string::npos) << fragment;
  }
}

// A Filter plugin its PreFilter skipped is skipped on every node: named
// once above the matrix instead of as a column of dashes.
TEST(ExplainPageTest, PluginsSkippedEverywhereAreNamedNotColumns) {
  api::Attempt a;
  a.cycle = 1;
  a.pod = "default/p";
  a.node = "n1";
  a.evaluated = 2;
  a.feasible = 1;
  a.pre_filter = {{"NodeAffinity", "Skip"}, {"NodePorts", "Skip"}};
  a.detail["n1"].filter = {{"NodeResourcesFit", "Success"}};
  a.detail["n2"].filter = {{"NodeResourcesFit", "Unschedulable: Insufficient cpu"}};
  conformance::ExplainContext context;
  context.filter_plugins = {"NodeAffinity", "NodeResourcesFit", "NodePorts"};
  const std::string page =
      ExplainPage({{"pod", a.pod}, {"attempts", {conformance::ExplainAttemptJson(a, context)}}},
                  "s.yaml");
  ExpectSafe(page);
  EXPECT_NE(page.find("\u2013 Skipped on every node (their PreFilter said Skip), so not shown "
                      "as columns: <span class=\"mono\">NodeAffinity</span>, <span "
                      "class=\"mono\">NodePorts</span>."),
            std::string::npos);
  EXPECT_EQ(page.find("<th scope=\"col\">Node<wbr>Affinity</th>"), std::string::npos);
  EXPECT_NE(page.find("<th scope=\"col\">Node<wbr>Resources<wbr>Fit</th>"), std::string::npos);
  EXPECT_NE(page.find("colspan=\"1\" scope=\"colgroup\">Filter plugins"), std::string::npos);
  EXPECT_EQ(page.find("PreFilter returned Skip)\">"), std::string::npos);
}

api::Scenario SmallScenario() {
  api::Scenario s;
  s.name = "hostile <run>";
  s.file = "golden/x/<y>.yaml";
  api::Node n;
  n.name = kHostileNode;
  n.allocatable = {{"cpu", 4000}, {"memory", int64_t{8} << 30}, {"pods", 110},
                   {"example.com/gpu", 2}};
  s.initial.nodes.push_back(n);
  api::Node full = n;
  full.name = "full";
  full.allocatable = {{"cpu", 1000}, {"pods", 110}};
  s.initial.nodes.push_back(full);
  api::Pod p;
  p.ns = "default";
  p.name = "<img src=x onerror=alert(2)>";
  api::Container c;
  c.requests = {{"cpu", 1500}, {"memory", int64_t{1} << 30}, {"example.com/gpu", 1}};
  p.containers.push_back(c);
  api::Event create;
  create.at = 0;
  create.op = api::Event::Op::kCreate;
  create.object = p;
  s.timeline.push_back(create);
  api::Pod old;
  old.ns = "default";
  old.name = "old";
  old.node_name = "full";
  api::Container big;
  big.requests = {{"cpu", 1200}};
  old.containers.push_back(big);
  s.initial.pods.push_back(old);
  return s;
}

TEST(RunPageTest, TimelineAndCluster) {
  api::Scenario s = SmallScenario();
  api::Trace t;
  api::Attempt first;
  first.at = 0;
  first.cycle = 1;
  first.pod = kHostilePod;
  first.outcome = api::AttemptOutcome::kUnschedulable;
  first.message = "0/2 nodes are available: " + kHostileReason;
  first.preemption = api::Preemption{kHostileNode, {"default/old"}, {}};
  t.records.push_back(first);
  api::Note note;
  note.at = 0;
  note.what = "victimDeleted";
  note.pod = "default/old";
  t.records.push_back(note);
  api::Attempt second = first;
  second.at = 4000;
  second.cycle = 2;
  second.outcome = api::AttemptOutcome::kScheduled;
  second.node = kHostileNode;
  second.message.clear();
  second.preemption.reset();
  t.records.push_back(second);
  api::Binding b;
  b.at = 4000;
  b.cycle = 2;
  b.pod = kHostilePod;
  b.node = kHostileNode;
  t.records.push_back(b);
  t.placements = {{kHostilePod, kHostileNode}};
  const std::string page = RunPage(s, t, "reference");
  ExpectSafe(page);
  for (const std::string& fragment : std::vector<std::string>{
           "t=0 ms: cycle 1 \u2717 unschedulable (0 evaluated, 0 feasible): 0/2 nodes are "
           "available: " + Escape(kHostileReason),
           "t=0 ms: \u2691 nominated " + Escape(kHostileNode) + "; victims default/old",
           "t=0 ms: victimDeleted",
           "t=4000 ms: cycle 2 \u2713 scheduled on " + Escape(kHostileNode),
           "t=4000 ms: \u2713 bound to " + Escape(kHostileNode),
           // The first retry waits the initial backoff, 1 s, then is unschedulable.
           std::string("class=\"backoff\" style=\"left:0.000%;width:23.810%\" title=\"backoff "
                       "until t=1000 ms\""),
           std::string("class=\"nominated\""),
           std::string("1 pod bound, 0 pending at the end; 2 scheduling attempts; the last "
                       "event at t=4000 ms"),
           std::string("class=\"bound\""),
           std::string("class=\"att failed\""),
           // The cluster: requested / allocatable with the share as a bar.
           std::string("1500m / 4 <small>38%</small>"),
           std::string("1Gi / 8Gi <small>13%</small>"),
           std::string("1 / 2 <small>50%</small>"),
           std::string("<th scope=\"col\" data-sort=\"num\">example.com/gpu</th>"),
           // The victim is gone: "full" holds nothing at the end.
           std::string("<td data-v=\"0.000\"><span class=\"bar\" aria-hidden=\"true\"><span "
                       "style=\"width:0.000%\"></span></span>0 / 1 <small>0%</small></td>"),
       }) {
    EXPECT_NE(page.find(fragment), std::string::npos) << fragment;
  }
  // A node over its allocatable is marked in words, not only in red.
  t.placements["default/old"] = "full";
  t.records.pop_back();
  const std::string over = RunPage(s, t, "reference");
  EXPECT_NE(over.find("1200m / 1 <small>120% \u26a0 over</small>"), std::string::npos);
}

TEST(CheckPageTest, OutcomesAndDivergence) {
  std::vector<conformance::CheckResult> results(3);
  results[0].path = "golden/a.yaml";
  results[0].engine = "optimized";
  results[0].outcome = conformance::CheckResult::Outcome::kPass;
  results[1].path = "golden/<b>.yaml";
  results[1].engine = "exec <x>";
  results[1].outcome = conformance::CheckResult::Outcome::kFail;
  results[1].message = "first difference at trace line 2: " + kHostileReason;
  auto& d = results[1].divergence.emplace();
  d.line = 2;
  d.expected = "{\"node\":\"" + kHostileNode + "\"}";
  d.actual = "{\"node\":\"b\"}";
  d.fields = {"node: \"" + kHostileNode + "\" -> \"b\""};
  d.explanation = Explanation();
  d.actual_node = "b";
  d.judgement = "b scores 340; the top score is 390";
  results[2].path = "golden/c.yaml";
  results[2].engine = "optimized";
  results[2].outcome = conformance::CheckResult::Outcome::kSkip;
  results[2].message = "needs <feature>";
  const std::string page = CheckPage(results, conformance::Mode::kStrict);
  ExpectSafe(page);
  for (const std::string& fragment : std::vector<std::string>{
           std::string("\u2713 1 passed</span>, <span class=\"fail\">\u2717 1 failed</span>, "
                       "<span class=\"skipped\">\u2013 1 skipped"),
           std::string("<td class=\"pass\">\u2713 pass</td>"),
           std::string("<td class=\"skipped\">\u2013 skip</td>"),
           std::string("<a href=\"#failure-1\">golden/&lt;b&gt;.yaml</a>"),
           std::string("<h3>First divergence: trace line 2</h3>"),
           "<td><pre>" + Escape(d.expected) + "</pre></td><td><pre>{&quot;node&quot;:&quot;b&quot;}"
           "</pre></td>",
           std::string("\u25c6 exec &lt;x&gt;&#39;s choice"),
           std::string("<strong>Why:</strong> b scores 340; the top score is 390"),
           std::string("id=\"failure-1-explain\""),
       }) {
    EXPECT_NE(page.find(fragment), std::string::npos) << fragment;
  }
}

// The documented bound (docs/html-view.md): an attempt over 5,000 nodes,
// 12 Filter and 8 Score plugins, every node scored, stays under 12 MiB;
// so does a run page with 5,000 nodes and as many pods.
TEST(SizeTest, FiveThousandNodes) {
  const std::vector<std::string> filters = {
      "NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity",
      "NodePorts", "NodeResourcesFit", "VolumeRestrictions", "NodeVolumeLimits",
      "VolumeBinding", "VolumeZone", "PodTopologySpread", "InterPodAffinity"};
  const std::vector<std::pair<std::string, int64_t>> scores = {
      {"TaintToleration", 3}, {"NodeAffinity", 2}, {"NodeResourcesFit", 1},
      {"VolumeBinding", 1}, {"PodTopologySpread", 2}, {"InterPodAffinity", 2},
      {"NodeResourcesBalancedAllocation", 1}, {"ImageLocality", 1}};
  api::Attempt a;
  a.pod = "default/p";
  a.cycle = 1;
  a.evaluated = 5000;
  a.feasible = 5000;
  api::Scenario s;
  api::Trace t;
  for (int i = 0; i < 5000; ++i) {
    const std::string name = "node-" + std::to_string(i);
    api::NodeDetail& d = a.detail[name];
    for (const std::string& f : filters) d.filter[f] = "Success";
    for (const auto& [p, w] : scores) d.scores[p] = {i % 100, i % 100, w * (i % 100)};
    api::Node n;
    n.name = name;
    n.allocatable = {{"cpu", 4000}, {"memory", int64_t{32} << 30}, {"pods", 110}};
    s.initial.nodes.push_back(n);
    api::Attempt pa;
    pa.at = i;
    pa.cycle = i + 1;
    pa.pod = "default/pod-" + std::to_string(i);
    pa.node = name;
    pa.evaluated = 250;
    pa.feasible = 250;
    t.records.push_back(pa);
    api::Binding b;
    b.at = i;
    b.cycle = i + 1;
    b.pod = pa.pod;
    b.node = name;
    t.records.push_back(b);
    t.placements[pa.pod] = name;
  }
  a.node = "node-99";
  conformance::ExplainContext context;
  context.filter_plugins = filters;
  context.score_plugins = scores;
  const std::string explain =
      ExplainPage({{"pod", "default/p"}, {"attempts", {ExplainAttemptJson(a, context)}}}, "x");
  constexpr size_t kBound = size_t{12} << 20;
  EXPECT_LT(explain.size(), kBound);
  EXPECT_EQ(CheckHtml(explain).error, "");
  const std::string run = RunPage(s, t, "optimized");
  EXPECT_LT(run.size(), kBound);
  EXPECT_EQ(CheckHtml(run).error, "");
  RecordProperty("explain_bytes", std::to_string(explain.size()));
  RecordProperty("run_bytes", std::to_string(run.size()));
}

}  // namespace
}  // namespace schedref::view
