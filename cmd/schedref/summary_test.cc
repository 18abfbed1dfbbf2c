// Summaries (summary.h) of real runs, and `compare` (compare_command.h) on
// a generated-arrival scenario with lifetimes under two configurations.
#include "cmd/schedref/summary.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cmd/schedref/compare_command.h"
#include "cmd/schedref/summarize_command.h"
#include "cmd/schedref/summary_page.h"
#include "view/html_checker.h"

namespace schedref::cmd {
namespace {

const PodSummary& Pod(const Summary& s, const std::string& key) {
  for (const PodSummary& p : s.pods) {
    if (p.pod == key) return p;
  }
  ADD_FAILURE() << "no pod " << key;
  static const PodSummary none;
  return none;
}

TEST(PercentilesOf, NearestRank) {
  struct Case {
    std::vector<int64_t> values;
    int64_t p50, p90, p99, max;
    double mean;
  };
  const std::vector<Case> cases = {
      {{}, 0, 0, 0, 0, 0},
      {{7}, 7, 7, 7, 7, 7},
      {{4, 1, 3, 2}, 2, 4, 4, 4, 2.5},
      {{10, 20, 30, 40, 50, 60, 70, 80, 90, 100}, 50, 90, 100, 100, 55},
  };
  for (const Case& c : cases) {
    Percentiles p = PercentilesOf(c.values);
    EXPECT_EQ(p.count, static_cast<int64_t>(c.values.size()));
    EXPECT_EQ(p.p50, c.p50);
    EXPECT_EQ(p.p90, c.p90);
    EXPECT_EQ(p.p99, c.p99);
    EXPECT_EQ(p.max, c.max);
    EXPECT_DOUBLE_EQ(p.mean, c.mean);
  }
}

// golden/lifetimes/finish-frees-room.yaml, worked by hand: "short" waits
// its 2s bind latency; "failing" (bound in objects) frees n2 at 20s for
// "waiting-1" (created at 1s); "short" finishes at 32s (bound at 2s, 30s)
// and frees n1 for "waiting-2".
TEST(Summarize, LifetimesFreeRoomForWaitingPods) {
  for (const char* impl : {"reference", "optimized"}) {
    StatusOr<api::Scenario> s = LoadScenario("golden/lifetimes/finish-frees-room.yaml", "");
    ASSERT_TRUE(s.ok()) << s.status().message();
    StatusOr<Summary> summary = SummarizeRun(*s, impl, 10000);
    ASSERT_TRUE(summary.ok()) << summary.status().message();
    const Summary& sum = *summary;
    EXPECT_EQ(Pod(sum, "default/short").WaitMs(), 2000) << impl;
    EXPECT_EQ(Pod(sum, "default/short").state, "finished");
    EXPECT_EQ(Pod(sum, "default/short").ended, 32000);
    EXPECT_EQ(Pod(sum, "default/failing").state, "finished");
    EXPECT_EQ(Pod(sum, "default/failing").ended, 20000);
    EXPECT_FALSE(Pod(sum, "default/failing").bound.has_value());  // not the scheduler's
    EXPECT_EQ(Pod(sum, "default/waiting-1").WaitMs(), 19000);
    EXPECT_EQ(Pod(sum, "default/waiting-1").node, "n2");
    EXPECT_EQ(Pod(sum, "default/waiting-2").WaitMs(), 31000);
    EXPECT_EQ(Pod(sum, "default/waiting-2").node, "n1");
    EXPECT_EQ(sum.pods_bound, 3);
    EXPECT_EQ(sum.pods_finished, 2);
    EXPECT_EQ(sum.wait_ms.max, 31000);
    // Samples at 0s, 10s, ..., 40s.
    ASSERT_EQ(sum.cluster.size(), 5u);
    // At 10s: both nodes full, two pods waiting on nodes with no free cpu.
    EXPECT_EQ(sum.cluster[1].pending, 2);
    EXPECT_EQ(sum.cluster[1].running, 2);
    EXPECT_EQ(sum.cluster[1].requested_cpu, 2000);
    EXPECT_EQ(sum.cluster[1].allocatable_cpu, 2000);
    EXPECT_EQ(sum.cluster[1].nodes_in_use, 2);
    // At 40s: everyone placed, nothing pending.
    EXPECT_EQ(sum.cluster[4].pending, 0);
    EXPECT_EQ(sum.cluster[4].running, 2);
    EXPECT_EQ(sum.nodes.size(), 10u);  // 2 nodes x 5 samples
  }
}

// The HTML page of the same run: the samples' table holds the values
// above, and the charts are drawn from them (the cpu chart's "requested"
// line reaches the top, 2 cores, at 10s; the pods chart's "pending" line
// stands at 2 of its maximum 2 there too).
TEST(SummaryPage, ChartsAndTableOfTheClusterOverTime) {
  for (const char* impl : {"reference", "optimized"}) {
    StatusOr<api::Scenario> s = LoadScenario("golden/lifetimes/finish-frees-room.yaml", "");
    ASSERT_TRUE(s.ok()) << s.status().message();
    StatusOr<Summary> summary = SummarizeRun(*s, impl, 10000);
    ASSERT_TRUE(summary.ok()) << summary.status().message();
    const std::string page = SummaryPage(*summary, impl);
    const view::testing::HtmlCheck check = view::testing::CheckHtml(page);
    EXPECT_EQ(check.error, "") << impl;
    for (const char* element : {"svg", "polyline", "title", "figcaption", "table"}) {
      EXPECT_EQ(check.elements.count(element), 1u) << element;
    }
    // The sample at 10s: 2 pending, 2 running, 2 nodes, both in use, 2000m
    // of 2000m cpu, 0 of 16Gi memory, all free cpu stranded (there is none:
    // 0%), all free memory stranded (no pending pod fits: no free cpu).
    EXPECT_NE(page.find("<tr data-name=\"10000\"><th scope=\"row\" class=\"num\" "
                        "data-v=\"10000\">10000</th><td class=\"num\" data-v=\"2\">2</td>"
                        "<td class=\"num\" data-v=\"2\">2</td><td class=\"num\" "
                        "data-v=\"2\">2</td><td class=\"num\" data-v=\"2\">2</td>"
                        "<td class=\"num\" data-v=\"2000\">2000</td><td class=\"num\" "
                        "data-v=\"2000\">2000</td><td class=\"num\" data-v=\"0\">0</td>"
                        "<td class=\"num\" data-v=\"17179869184\">17179869184</td>"
                        "<td class=\"num\" data-v=\"0\">0%</td><td class=\"num\" "
                        "data-v=\"1\">100%</td></tr>"),
              std::string::npos)
        << impl;
    // One row per sample.
    size_t rows = 0;
    for (size_t at = page.find("<tr data-name="); at != std::string::npos;
         at = page.find("<tr data-name=", at + 1)) {
      ++rows;
    }
    EXPECT_EQ(rows, summary->cluster.size() + summary->pods.size());
    // The charts: four, with the axes' units; the cpu chart's requested
    // line goes through (x of 10s, the top of the plot).
    for (const char* id : {"chart-cpu", "chart-memory", "chart-pods", "chart-stranded"}) {
      EXPECT_NE(page.find("<svg id=\"" + std::string(id) + "\""), std::string::npos) << id;
    }
    for (const char* unit : {">cores</text>", ">GiB</text>", ">count</text>",
                             ">% of free</text>", ">virtual time (s)</text>"}) {
      EXPECT_NE(page.find(unit), std::string::npos) << unit;
    }
    char x[32];
    std::snprintf(x, sizeof x, "%.1f", 70.0 + 554.0 * 10000.0 / summary->end);
    std::string want_x = x;
    if (want_x.size() > 2 && want_x.substr(want_x.size() - 2) == ".0") {
      want_x.resize(want_x.size() - 2);
    }
    const size_t cpu = page.find("<svg id=\"chart-cpu\"");
    const size_t requested = page.find("data-series=\"requested\"", cpu);
    const size_t points = page.find("points=\"", requested);
    const std::string line = page.substr(points, page.find("\"", points + 8) - points);
    EXPECT_NE(line.find(" " + want_x + ",14 "), std::string::npos) << line;
    // At t=0 only "failing" (bound in objects) runs: 1 of 2 cores, half way
    // up the 152-pixel plot below its top at 14.
    EXPECT_EQ(line.rfind("points=\"70,90 ", 0), 0u) << line;
  }
}

// Fragmentation: a 2-CPU pod waits while 1 CPU is free on each of two
// nodes: all the free cpu is stranded.
TEST(Summarize, StrandedCapacity) {
  api::Scenario s;
  s.name = "stranded";
  for (const char* name : {"n1", "n2"}) {
    api::Node n;
    n.name = name;
    n.allocatable = {{"cpu", 2000}, {"memory", 1 << 30}, {"pods", 10}};
    s.initial.nodes.push_back(n);
  }
  auto pod = [](const std::string& name, int64_t cpu, const std::string& node) {
    api::Pod p;
    p.ns = "default";
    p.name = name;
    p.node_name = node;
    api::Container c;
    c.name = "c";
    c.requests = {{"cpu", cpu}};
    p.containers.push_back(c);
    return p;
  };
  s.initial.pods = {pod("a", 1000, "n1"), pod("b", 1000, "n2"), pod("big", 2000, "")};
  api::Trace trace;
  Summary sum = Summarize(s, trace, 1000);
  ASSERT_EQ(sum.cluster.size(), 1u);
  EXPECT_EQ(sum.cluster[0].pending, 1);
  EXPECT_DOUBLE_EQ(sum.cluster[0].stranded_cpu, 1.0);
  // A 1-CPU pending pod would fit either node: nothing stranded.
  s.initial.pods[2] = pod("small", 1000, "");
  sum = Summarize(s, trace, 1000);
  EXPECT_DOUBLE_EQ(sum.cluster[0].stranded_cpu, 0.0);
}

TEST(Summarize, JsonAndCsv) {
  StatusOr<api::Scenario> s = LoadScenario("golden/lifetimes/generated-arrivals.yaml", "");
  ASSERT_TRUE(s.ok()) << s.status().message();
  StatusOr<Summary> sum = SummarizeRun(*s, "optimized", 30000);
  ASSERT_TRUE(sum.ok());
  nlohmann::json doc = nlohmann::json::parse(SummaryJson(*sum));
  EXPECT_EQ(doc["format"], "schedref-summary");
  EXPECT_EQ(doc["totals"]["pods"], 30);
  EXPECT_EQ(doc["pods"].size(), 30u);
  EXPECT_EQ(doc["nodes"].size(), 3u);
  EXPECT_EQ(doc["cluster"].size(), sum->cluster.size());
  const std::string pods = SummaryCsv(*sum, "pods");
  EXPECT_EQ(pods.substr(0, pods.find('\n')),
            "pod,created,bound,wait_ms,node,attempts,preemptions,ended,state");
  EXPECT_EQ(std::count(pods.begin(), pods.end(), '\n'), 31);
  const std::string cluster = SummaryCsv(*sum, "cluster");
  EXPECT_EQ(std::count(cluster.begin(), cluster.end(), '\n'),
            static_cast<long>(sum->cluster.size()) + 1);
}

// The acceptance test: one generated-arrival scenario with
// lifetimes through `compare` under LeastAllocated and MostAllocated.
TEST(Compare, GeneratedArrivalsWithLifetimesUnderTwoConfigurations) {
  const std::string dir = "cmd/schedref/testdata/research/";
  CompareOptions options;
  options.scenario = dir + "arrivals-lifetimes.yaml";
  options.configs = {dir + "least-allocated.yaml", dir + "most-allocated.yaml"};
  std::ostringstream out, err;
  ASSERT_EQ(RunCompare(options, out, err), 0) << err.str();
  const std::string table = out.str();
  // The header names both configurations, and every metric has a row.
  std::istringstream lines(table);
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line, "scenario: " + options.scenario);
  std::getline(lines, line);
  EXPECT_NE(line.find(options.configs[0]), std::string::npos) << line;
  EXPECT_NE(line.find(options.configs[1]), std::string::npos) << line;
  // The rows' values agree with each configuration's own summary.
  std::vector<Summary> summaries;
  for (const std::string& config : options.configs) {
    StatusOr<api::Scenario> s = LoadScenario(options.scenario, config);
    ASSERT_TRUE(s.ok()) << s.status().message();
    StatusOr<Summary> sum = SummarizeRun(*s, "reference", 10000);
    ASSERT_TRUE(sum.ok());
    summaries.push_back(*sum);
  }
  EXPECT_EQ(table, "scenario: " + options.scenario + "\n" +
                       CompareTable(options.configs, summaries));
  // Rows by their metric: "pods" 80 80 (60 web and 20 batch pods each).
  std::map<std::string, std::vector<std::string>> rows;
  while (std::getline(lines, line) && !line.empty()) {
    const size_t values = line.find("  ");
    std::istringstream cells(line.substr(values));
    std::string cell;
    while (cells >> cell) rows[line.substr(0, values)].push_back(cell);
  }
  EXPECT_EQ(rows["pods"], (std::vector<std::string>{"80", "80"})) << table;
  EXPECT_EQ(rows.size(), 18u) << table;
  EXPECT_EQ(rows["finished"], (std::vector<std::string>{
                                  std::to_string(summaries[0].pods_finished),
                                  std::to_string(summaries[1].pods_finished)}));
  EXPECT_GT(summaries[0].pods_finished, 0);
  // Packing (MostAllocated) leaves less of the free cpu stranded where the
  // 3-CPU batch pods cannot go than spreading (LeastAllocated) does.
  EXPECT_LT(summaries[1].mean_stranded_cpu, summaries[0].mean_stranded_cpu) << table;
  // Spreading and packing place pods differently, and the table lists them.
  const size_t diff = table.find("pods placed differently: ");
  ASSERT_NE(diff, std::string::npos);
  EXPECT_NE(table.substr(diff, 30), "pods placed differently: 0\n") << table;
  EXPECT_NE(table.find("  default/web-1: "), std::string::npos) << table;

  // Fewer than two configurations is a usage error.
  options.configs.pop_back();
  std::ostringstream out2, err2;
  EXPECT_EQ(RunCompare(options, out2, err2), 2);
  EXPECT_EQ(err2.str(), "error: --config: give at least two configurations to compare\n");
}

}  // namespace
}  // namespace schedref::cmd
