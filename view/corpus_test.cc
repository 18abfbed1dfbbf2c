// The three pages for every golden: the run page (the reference's trace),
// the explain page of every pod the scheduler attempted (the reference's
// full-detail attempts, as `schedref explain --html` writes them) and the
// check page of the golden checked against the reference, plus one with a
// divergence (its first record dropped), each well formed (view/html_checker.h) and holding what the
// trace says: every pod with its final place, every attempt's chosen node
// marked, every rejection's verdict. One test per golden, sharded.
#include <cctype>
#include <cstdint>
#include <memory>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "api/codec/scenario_decode.h"
#include "conformance/engine.h"
#include "conformance/explain.h"
#include "conformance/implementations.h"
#include "conformance/runner.h"
#include "reference/scheduler/scheduler.h"
#include "view/check_page.h"
#include "view/explain_page.h"
#include "view/html.h"
#include "view/html_checker.h"
#include "view/run_page.h"

namespace schedref::view {
namespace {

std::vector<std::string> Goldens() { return conformance::YamlFilesUnder("golden"); }

bool Contains(const std::string& page, const std::string& fragment) {
  return page.find(fragment) != std::string::npos;
}

class PagesCorpus : public ::testing::TestWithParam<std::string> {};

TEST_P(PagesCorpus, ThreePages) {
  const std::string path = GetParam();
  StatusOr<std::string> text = conformance::ReadFile(path);
  ASSERT_TRUE(text.ok()) << text.status().message();
  StatusOr<api::Scenario> scenario = api::DecodeScenario(*text, path);
  ASSERT_TRUE(scenario.ok()) << scenario.status().message();
  reference::ReferenceScheduler reference;
  api::RunOptions options;
  options.full_detail = true;
  options.record_feasible_nodes = true;
  StatusOr<api::Trace> trace = reference.Run(*scenario, options);
  ASSERT_TRUE(trace.ok()) << trace.status().message();

  // The run page.
  const std::string run = RunPage(*scenario, *trace, "reference");
  EXPECT_EQ(testing::CheckHtml(run).error, "") << "run page";
  for (const auto& [pod, node] : trace->placements) {
    const std::string where = node.empty() ? "\u25cb pending" : "\u2713 on " + node;
    EXPECT_TRUE(Contains(run, "<tr data-name=\"" + Escape(pod) + "\"><th scope=\"row\">" +
                                  Escape(pod) + "</th>"))
        << pod;
    EXPECT_TRUE(Contains(run, "<td>" + Escape(where) + "</td></tr>")) << pod << " " << where;
  }
  for (const std::string& n : conformance::NodesAt(*scenario, INT64_MAX)) {
    EXPECT_TRUE(Contains(run, "<tr data-name=\"" + Escape(n) + "\"><th scope=\"row\">" +
                                  Escape(n)))
        << n;
  }

  // The explain page of every attempted pod.
  std::map<std::string, nlohmann::json> per_pod;
  for (const api::Trace::Record& r : trace->records) {
    const api::Attempt* a = api::AsAttempt(r);
    if (a == nullptr) continue;
    nlohmann::json e = conformance::ExplainAttemptJson(
        *a, conformance::ExplainContextFor(reference, *scenario, *trace, *a));
    per_pod[a->pod].push_back(e);
  }
  for (const auto& [pod, attempts] : per_pod) {
    const std::string page = ExplainPage({{"pod", pod}, {"attempts", attempts}}, path);
    EXPECT_EQ(testing::CheckHtml(page).error, "") << "explain page of " << pod;
    for (const nlohmann::json& e : attempts) {
      for (const nlohmann::json& n : e["nodes"]) {
        const std::string row = "<tr data-name=\"" + Escape(n["node"].get<std::string>()) + "\"";
        EXPECT_TRUE(Contains(page, row + (n["chosen"].get<bool>() ? " class=\"chosen\">" : ">")))
            << pod << " cycle " << e["cycle"] << " node " << n["node"];
        for (const nlohmann::json& f : n["filter"]) {
          const std::string status = f["status"].get<std::string>();
          if (status == "Success" || status == "Skipped" || status == "NotRun") continue;
          EXPECT_TRUE(Contains(page, "\u2717 " + Escape(status) + "</td>")) << status;
        }
      }
      if (e.contains("message") && !e["message"].get<std::string>().empty()) {
        EXPECT_TRUE(Contains(page, Escape(e["message"].get<std::string>())));
      }
    }
  }

  // The check page: the golden against the reference, and a divergence.
  conformance::CheckOptions check;
  check.reference = &reference;
  std::unique_ptr<conformance::Engine> engine =
      conformance::MakeBuiltinEngine(conformance::MakeImplementation("reference"));
  std::vector<conformance::CheckResult> results = {conformance::CheckScenario(*engine, path, check)};
  EXPECT_EQ(results[0].outcome, conformance::CheckResult::Outcome::kPass) << results[0].message;
  // The same golden without its expected trace's first record: the
  // divergence is at line 2.
  if (scenario->expected_trace.size() > 2) {
    std::vector<std::string> cut = scenario->expected_trace;
    cut.erase(cut.begin() + 1);
    results.push_back(conformance::CheckScenarioText(
        *engine, path + " (cut)", conformance::WithExpectedTrace(*text, cut), check));
    EXPECT_EQ(results[1].outcome, conformance::CheckResult::Outcome::kFail);
    EXPECT_TRUE(results[1].divergence.has_value());
  }
  const std::string report = CheckPage(results, conformance::Mode::kStrict);
  EXPECT_EQ(testing::CheckHtml(report).error, "") << "check page";
  EXPECT_TRUE(Contains(report, "<td class=\"pass\">\u2713 pass</td>"));
  if (results.size() > 1) {
    EXPECT_TRUE(Contains(report, "<h3>First divergence: trace line 2</h3>"));
  }
}

INSTANTIATE_TEST_SUITE_P(
    Goldens, PagesCorpus, ::testing::ValuesIn(Goldens()),
    [](const ::testing::TestParamInfo<std::string>& info) {
      std::string name = info.param;
      for (char& c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      }
      return name;
    });

TEST(PagesCorpusSize, EveryGoldenIsThere) { EXPECT_GT(Goldens().size(), 120u); }

}  // namespace
}  // namespace schedref::view
