#include "conformance/report.h"

#include <cmath>
#include <cstdio>
#include <map>

#include <nlohmann/json.hpp>

namespace schedref::conformance {
namespace {

using Outcome = CheckResult::Outcome;

const char* OutcomeName(Outcome o) {
  switch (o) {
    case Outcome::kPass:
      return "pass";
    case Outcome::kFail:
      return "fail";
    case Outcome::kSkip:
      return "skip";
  }
  return "fail";
}

std::string Seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", s);
  return buf;
}

// XML 1.0 text (or, with `attribute`, an attribute value, where newlines
// must be escaped to survive): the five escapes; control characters XML
// cannot carry (all below 0x20 but tab, newline, carriage return) become
// '?'. Bytes >= 0x80 pass through (the text is UTF-8).
std::string Xml(const std::string& s, bool attribute = true) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      case '\n':
        out += attribute ? "&#10;" : "\n";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\r') {
          out += '?';
        } else {
          out += c;
        }
    }
  }
  return out;
}

struct Counts {
  int passed = 0, failed = 0, skipped = 0;
  double seconds = 0;
  void Add(const CheckResult& r) {
    seconds += r.seconds;
    if (r.outcome == Outcome::kPass) ++passed;
    if (r.outcome == Outcome::kFail) ++failed;
    if (r.outcome == Outcome::kSkip) ++skipped;
  }
  int total() const { return passed + failed + skipped; }
};

}  // namespace

std::string FullMessage(const CheckResult& r) {
  std::string s = r.message;
  for (const std::string& line : r.details) s += "\n" + line;
  return s;
}

std::string JsonReport(const std::vector<CheckResult>& results, Mode mode) {
  Counts all;
  nlohmann::json list = nlohmann::json::array();
  for (const CheckResult& r : results) {
    all.Add(r);
    list.push_back({{"implementation", r.engine},
                    {"file", r.path},
                    {"scenario", r.scenario},
                    {"outcome", OutcomeName(r.outcome)},
                    {"seconds", std::round(r.seconds * 1000) / 1000},
                    {"message", FullMessage(r)}});
  }
  nlohmann::json report = {
      {"format", "schedref-check-report"},
      {"version", 1},
      {"mode", ModeName(mode)},
      {"summary",
       {{"passed", all.passed}, {"failed", all.failed}, {"skipped", all.skipped}}},
      {"results", list}};
  return report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
         "\n";
}

std::string JunitReport(const std::vector<CheckResult>& results, Mode mode) {
  Counts all;
  std::vector<std::string> engines;
  std::map<std::string, Counts> per_engine;
  for (const CheckResult& r : results) {
    all.Add(r);
    if (per_engine.count(r.engine) == 0) engines.push_back(r.engine);
    per_engine[r.engine].Add(r);
  }
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<testsuites name=\"schedref check (" + ModeName(mode) +
         ")\" tests=\"" + std::to_string(all.total()) + "\" failures=\"" +
         std::to_string(all.failed) + "\" skipped=\"" +
         std::to_string(all.skipped) + "\" time=\"" + Seconds(all.seconds) +
         "\">\n";
  for (const std::string& engine : engines) {
    const Counts& c = per_engine[engine];
    out += "  <testsuite name=\"" + Xml(engine) + "\" tests=\"" +
           std::to_string(c.total()) + "\" failures=\"" +
           std::to_string(c.failed) + "\" errors=\"0\" skipped=\"" +
           std::to_string(c.skipped) + "\" time=\"" + Seconds(c.seconds) +
           "\">\n";
    for (const CheckResult& r : results) {
      if (r.engine != engine) continue;
      size_t slash = r.path.rfind('/');
      std::string dir = slash == std::string::npos ? "" : r.path.substr(0, slash);
      std::string name =
          slash == std::string::npos ? r.path : r.path.substr(slash + 1);
      for (char& ch : dir) {
        if (ch == '/') ch = '.';
      }
      out += "    <testcase classname=\"" + Xml(dir) + "\" name=\"" +
             Xml(name) + "\" file=\"" + Xml(r.path) + "\" time=\"" +
             Seconds(r.seconds) + "\"";
      if (r.outcome == Outcome::kPass) {
        out += "/>\n";
        continue;
      }
      out += ">\n";
      if (r.outcome == Outcome::kFail) {
        out += "      <failure message=\"" + Xml(r.message) + "\">" +
               Xml(FullMessage(r), /*attribute=*/false) + "</failure>\n";
      } else {
        out += "      <skipped message=\"" + Xml(r.message) + "\"/>\n";
      }
      out += "    </testcase>\n";
    }
    out += "  </testsuite>\n";
  }
  out += "</testsuites>\n";
  return out;
}

}  // namespace schedref::conformance
