#include "view/check_page.h"

#include <cmath>
#include <cstdio>
#include <map>

#include <nlohmann/json.hpp>

#include "view/explain_page.h"
#include "view/html.h"

namespace schedref::view {
namespace {

using Outcome = conformance::CheckResult::Outcome;

std::string Seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", s);
  return buf;
}

// The outcome as a symbol and a word, with its class.
std::string OutcomeCell(Outcome o) {
  switch (o) {
    case Outcome::kPass:
      return "<td class=\"pass\">\u2713 pass</td>";
    case Outcome::kFail:
      return "<td class=\"fail\">\u2717 fail</td>";
    case Outcome::kSkip:
      return "<td class=\"skipped\">\u2013 skip</td>";
  }
  return "<td class=\"fail\">\u2717 fail</td>";
}

std::string Failure(const conformance::CheckResult& r, size_t index, conformance::Mode mode) {
  const std::string id = "failure-" + std::to_string(index);
  std::string out = "<section id=\"" + id + "\"><h2>\u2717 " + Escape(r.path) + " [" +
                    Escape(r.engine) + "]</h2>";
  out += "<p>" + Escape(r.message) + "</p>";
  if (!r.divergence) {
    if (!r.details.empty()) {
      out += "<pre>";
      for (const std::string& line : r.details) out += Escape(line) + "\n";
      out += "</pre>";
    }
    return out + "</section>\n";
  }
  const conformance::CheckResult::Divergence& d = *r.divergence;
  out += "<h3>First divergence: trace line " + std::to_string(d.line) + "</h3>";
  out += "<table class=\"side\" id=\"" + id + "-lines\"><caption>The expected and the actual "
         "record</caption><thead><tr><th scope=\"col\">Expected (the golden, or the reference "
         "as oracle)</th><th scope=\"col\">Actual (" + Escape(r.engine) +
         ")</th></tr></thead><tbody><tr>";
  for (const std::string* line : {&d.expected, &d.actual}) {
    out += "<td><pre>" + (line->empty() ? std::string("(end of trace)") : Escape(*line)) +
           "</pre></td>";
  }
  out += "</tr></tbody></table>";
  if (!d.fields.empty()) {
    out += "<h3>Fields that differ</h3><ul>";
    for (const std::string& f : d.fields) out += "<li class=\"mono\">" + Escape(f) + "</li>";
    out += "</ul>";
  }
  if (!d.judgement.empty()) out += "<p><strong>Why:</strong> " + Escape(d.judgement) + "</p>";
  if (d.explanation.is_object()) {
    out += "<h3>The reference's view of this attempt</h3>";
    std::map<std::string, std::string> marks;
    const nlohmann::json want = nlohmann::json::parse(d.expected, nullptr, false);
    if (want.is_object() && want.value("kind", "") == "attempt" && want.contains("node") &&
        want["node"].is_string()) {
      marks[want["node"].get<std::string>()] = mode == conformance::Mode::kStrict
                                                   ? "expected by the golden"
                                                   : "the oracle's choice";
    }
    if (!d.actual_node.empty()) {
      std::string& m = marks[d.actual_node];
      m += (m.empty() ? "" : "; ") + r.engine + "'s choice";
    }
    out += AttemptSection(d.explanation, id + "-explain", marks, /*level=*/4);
  } else {
    out += "<p class=\"mute\">No attempt of the reference explains this record.</p>";
  }
  return out + "</section>\n";
}

}  // namespace

std::string CheckPage(const std::vector<conformance::CheckResult>& results,
                      conformance::Mode mode) {
  int passed = 0, failed = 0, skipped = 0;
  for (const conformance::CheckResult& r : results) {
    passed += r.outcome == Outcome::kPass;
    failed += r.outcome == Outcome::kFail;
    skipped += r.outcome == Outcome::kSkip;
  }
  std::string body = "<header><h1>schedref check (" + Escape(conformance::ModeName(mode)) +
                     ")</h1><p><span class=\"pass\">\u2713 " + std::to_string(passed) +
                     " passed</span>, <span class=\"fail\">\u2717 " + std::to_string(failed) +
                     " failed</span>, <span class=\"skipped\">\u2013 " +
                     std::to_string(skipped) + " skipped</span></p>";
  if (failed > 0) {
    body += "<nav aria-label=\"failures\"><h2>Failures</h2><ol>";
    size_t k = 0;
    for (const conformance::CheckResult& r : results) {
      if (r.outcome != Outcome::kFail) continue;
      body += "<li><a href=\"#failure-" + std::to_string(++k) + "\">" + Escape(r.path) + " [" +
              Escape(r.engine) + "]</a></li>";
    }
    body += "</ol></nav>";
  }
  body += "</header>\n<main>\n<section id=\"results\"><h2>Scenarios</h2>";
  body += TableOpen({"results", "One row per scenario and implementation", "file name"});
  body += "<thead><tr><th scope=\"col\" data-sort=\"text\">Outcome</th>"
          "<th scope=\"col\" data-sort=\"text\">Implementation</th>"
          "<th scope=\"col\" data-sort=\"text\">File</th><th scope=\"col\">Scenario</th>"
          "<th scope=\"col\" class=\"num\" data-sort=\"num\">Seconds</th>"
          "<th scope=\"col\">Message</th></tr></thead><tbody>";
  size_t k = 0;
  for (const conformance::CheckResult& r : results) {
    std::string file = Escape(r.path);
    if (r.outcome == Outcome::kFail) {
      file = "<a href=\"#failure-" + std::to_string(++k) + "\">" + file + "</a>";
    }
    body += "<tr data-name=\"" + Escape(r.path) + "\">" + OutcomeCell(r.outcome) + "<td>" +
            Escape(r.engine) + "</td><th scope=\"row\">" + file + "</th><td>" +
            Escape(r.scenario) + "</td><td class=\"num\" data-v=\"" + Seconds(r.seconds) +
            "\">" + Seconds(r.seconds) + "</td><td>" + Escape(r.message) + "</td></tr>";
  }
  body += TableClose();
  body += "</section>\n";
  k = 0;
  for (const conformance::CheckResult& r : results) {
    if (r.outcome == Outcome::kFail) body += Failure(r, ++k, mode);
  }
  body += "</main>\n";
  return Page("schedref check: " + std::to_string(passed) + " passed, " +
                  std::to_string(failed) + " failed, " + std::to_string(skipped) + " skipped",
              body);
}

}  // namespace schedref::view
