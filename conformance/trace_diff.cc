#include "conformance/trace_diff.h"

#include <set>

#include <nlohmann/json.hpp>

namespace schedref::conformance {
namespace {

using Json = nlohmann::json;

Json Parse(std::string_view line) {
  if (line.empty()) return Json();
  return Json::parse(line, nullptr, /*allow_exceptions=*/false);
}

std::string Dump(const Json& j) {
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string Value(const Json& object, const std::string& key) {
  auto it = object.find(key);
  return it == object.end() ? std::string("(absent)") : Dump(*it);
}

// A field as text for DescribeLine: strings without quotes.
std::string Field(const Json& object, const char* key) {
  auto it = object.find(key);
  if (it == object.end()) return "";
  if (it->is_string()) return it->get<std::string>();
  return Dump(*it);
}

void Compare(const Json& want, const Json& got, const std::string& prefix,
             int depth, std::vector<std::string>* out) {
  std::set<std::string> keys;
  for (auto it = want.begin(); it != want.end(); ++it) keys.insert(it.key());
  for (auto it = got.begin(); it != got.end(); ++it) keys.insert(it.key());
  for (const std::string& key : keys) {
    auto w = want.find(key);
    auto g = got.find(key);
    bool both = w != want.end() && g != got.end();
    if (both && *w == *g) continue;
    if (both && depth == 0 && w->is_object() && g->is_object()) {
      Compare(*w, *g, prefix + key + ".", depth + 1, out);
      continue;
    }
    out->push_back(prefix + key + ": expected " + Value(want, key) +
                   ", actual " + Value(got, key));
  }
}

}  // namespace

std::optional<size_t> FirstDifference(const std::vector<std::string>& expected,
                                      const std::vector<std::string>& actual) {
  size_t i = 0;
  while (i < expected.size() && i < actual.size() && expected[i] == actual[i]) {
    ++i;
  }
  if (i == expected.size() && i == actual.size()) return std::nullopt;
  return i;
}

std::string DescribeLine(std::string_view line) {
  if (line.empty()) return "the end of the trace";
  Json j = Parse(line);
  if (!j.is_object()) return "a line that is not a JSON object";
  std::string kind = Field(j, "kind");
  if (kind == "placements" || kind == "header") return kind;
  std::string s = kind;
  if (kind == "note") s += " " + Field(j, "what");
  if (j.contains("t")) s += " t=" + Field(j, "t") + "ms";
  if (j.contains("cycle")) s += " cycle " + Field(j, "cycle");
  if (j.contains("pod")) s += " pod " + Field(j, "pod");
  if (kind == "attempt" && j.contains("profile")) {
    s += " (profile " + Field(j, "profile") + ")";
  }
  return s;
}

std::vector<std::string> FieldDifferences(std::string_view expected,
                                          std::string_view actual) {
  std::vector<std::string> out;
  Json want = Parse(expected);
  Json got = Parse(actual);
  if (!want.is_object() || !got.is_object()) return out;
  Compare(want, got, "", 0, &out);
  return out;
}

}  // namespace schedref::conformance
