#include "conformance/explain.h"

#include <algorithm>
#include <climits>

#include <nlohmann/json.hpp>

#include "api/codec/trace_codec.h"

namespace schedref::conformance {
namespace {

using Json = nlohmann::json;

constexpr char kSuccess[] = "Success";

std::string Join(const std::vector<std::string>& items,
                 const std::string& sep) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += sep;
    out += items[i];
  }
  return out;
}

// "Plugin (verdict)" for every filter that did not return Success.
std::vector<std::string> Rejections(const api::NodeDetail& detail) {
  std::vector<std::string> out;
  for (const auto& [plugin, verdict] : detail.filter) {
    if (verdict != kSuccess) out.push_back(plugin + " (" + verdict + ")");
  }
  return out;
}

std::string NodeLine(const api::Attempt& a, const std::string& node,
                     const std::map<std::string, int64_t>& totals) {
  const api::NodeDetail& d = a.detail.at(node);
  std::string chosen = node == a.node ? " <- chosen" : "";
  std::vector<std::string> rejected = Rejections(d);
  if (!rejected.empty()) return node + ": rejected by " + Join(rejected, ", ");
  std::string s = node + ":";
  auto total = totals.find(node);
  if (total == totals.end()) {
    return s + " filters passed; not scored" + chosen;
  }
  s += " score " + std::to_string(total->second) + chosen +
       "; filters passed; weighted scores ";
  std::vector<std::string> parts;
  for (const auto& [plugin, score] : d.scores) {
    parts.push_back(plugin + " " + std::to_string(score.weighted));
  }
  return s + Join(parts, ", ");
}

Json Parse(std::string_view line) {
  if (line.empty()) return Json();
  return Json::parse(line, nullptr, /*allow_exceptions=*/false);
}

const api::Attempt* LastAttemptOf(const api::Trace& trace,
                                  const std::string& pod, int64_t until) {
  const api::Attempt* found = nullptr;
  for (const api::Trace::Record& r : trace.records) {
    const api::Attempt* a = api::AsAttempt(r);
    if (a != nullptr && a->pod == pod && a->at <= until) found = a;
  }
  return found;
}

}  // namespace

std::map<std::string, int64_t> TotalScores(const api::Attempt& attempt) {
  std::map<std::string, int64_t> totals;
  for (const auto& [node, detail] : attempt.detail) {
    if (detail.scores.empty()) continue;
    int64_t sum = 0;
    for (const auto& [plugin, score] : detail.scores) sum += score.weighted;
    totals[node] = sum;
  }
  return totals;
}

std::vector<std::string> TopScoredNodes(const api::Attempt& attempt) {
  std::map<std::string, int64_t> totals = TotalScores(attempt);
  int64_t best = INT64_MIN;
  for (const auto& [node, total] : totals) best = std::max(best, total);
  std::vector<std::string> top;
  for (const auto& [node, total] : totals) {
    if (total == best) top.push_back(node);
  }
  return top;
}

std::string JudgeChoice(const api::Attempt& attempt, const std::string& node) {
  std::map<std::string, int64_t> totals = TotalScores(attempt);
  std::vector<std::string> top = TopScoredNodes(attempt);
  auto it = totals.find(node);
  if (it != totals.end()) {
    int64_t best = totals.at(top.front());
    if (it->second == best) {
      std::vector<std::string> others;
      for (const std::string& n : top) {
        if (n != node) others.push_back(n);
      }
      return node + " ties for the top score " + std::to_string(best) +
             (others.empty() ? " alone" : " with " + Join(others, ", "));
    }
    return node + " scores " + std::to_string(it->second) +
           "; the top score is " + std::to_string(best) + " (" +
           Join(top, ", ") + ")";
  }
  auto d = attempt.detail.find(node);
  if (d != attempt.detail.end()) {
    std::vector<std::string> rejected = Rejections(d->second);
    if (!rejected.empty()) {
      return node + " was rejected by " + Join(rejected, ", ");
    }
    return node + " passed the filters but was not scored";
  }
  if (attempt.detail.empty()) {
    return "the reference ran no filter on any node in this attempt";
  }
  return node +
         " was not evaluated by the reference (the feasible-node search "
         "stopped before it, or the node does not exist)";
}

std::vector<std::string> ExplainAttempt(const api::Attempt& a,
                                        const std::set<std::string>& always,
                                        size_t max_nodes) {
  std::vector<std::string> lines;
  std::string head = "reference, cycle " + std::to_string(a.cycle) + " (t=" +
                     std::to_string(a.at) + "ms, pod " + a.pod + ", profile " +
                     a.profile + "): " + std::string(api::OutcomeName(a.outcome));
  if (!a.node.empty()) head += " on " + a.node;
  head += "; " + std::to_string(a.evaluated) + " nodes evaluated, " +
          std::to_string(a.feasible) + " feasible";
  lines.push_back(head);
  if (!a.message.empty()) lines.push_back("message: " + a.message);

  std::map<std::string, int64_t> totals = TotalScores(a);
  std::vector<std::string> passed, rejected;
  for (const auto& [node, detail] : a.detail) {
    (Rejections(detail).empty() ? passed : rejected).push_back(node);
  }
  auto score = [&](const std::string& n) {
    auto it = totals.find(n);
    return it == totals.end() ? INT64_MIN : it->second;
  };
  std::stable_sort(passed.begin(), passed.end(),
                   [&](const std::string& x, const std::string& y) {
                     return score(x) > score(y);
                   });
  std::vector<std::string> order = passed;
  order.insert(order.end(), rejected.begin(), rejected.end());
  size_t listed = 0, left_out = 0;
  for (const std::string& node : order) {
    if (listed < max_nodes || always.count(node) > 0) {
      lines.push_back(NodeLine(a, node, totals));
      ++listed;
    } else {
      ++left_out;
    }
  }
  if (left_out > 0) {
    lines.push_back(std::to_string(left_out) +
                    " more nodes not listed (`schedref explain` lists them "
                    "all)");
  }
  std::vector<std::string> top = TopScoredNodes(a);
  if (!top.empty()) {
    lines.push_back("top score " + std::to_string(totals.at(top.front())) +
                    ": " + Join(top, ", "));
  }
  if (a.preemption) {
    std::string p = "preemption: ";
    if (a.preemption->nominated_node.empty()) {
      p += "no candidate";
    } else {
      p += "nominated " + a.preemption->nominated_node + ", victims [" +
           Join(a.preemption->victims, ", ") + "]";
    }
    lines.push_back(p);
  }
  return lines;
}

const api::Attempt* AttemptToExplain(const api::Trace& reference,
                                     std::string_view expected_line,
                                     std::string_view actual_line) {
  Json want = Parse(expected_line);
  Json got = Parse(actual_line);
  const Json& j = want.is_object() ? want : got;
  if (!j.is_object()) return nullptr;
  if (auto cycle = j.find("cycle"); cycle != j.end() && cycle->is_number_integer()) {
    for (const api::Trace::Record& r : reference.records) {
      const api::Attempt* a = api::AsAttempt(r);
      if (a != nullptr && a->cycle == cycle->get<int64_t>()) return a;
    }
    return nullptr;
  }
  if (auto pod = j.find("pod"); pod != j.end() && pod->is_string()) {
    int64_t until = INT64_MAX;
    if (auto t = j.find("t"); t != j.end() && t->is_number_integer()) {
      until = t->get<int64_t>();
    }
    return LastAttemptOf(reference, pod->get<std::string>(), until);
  }
  if (j.value("kind", "") == "placements" && want.is_object() &&
      got.is_object()) {
    Json w = want.value("placements", Json::object());
    Json g = got.value("placements", Json::object());
    if (!w.is_object() || !g.is_object()) return nullptr;
    std::set<std::string> pods;
    for (auto it = w.begin(); it != w.end(); ++it) pods.insert(it.key());
    for (auto it = g.begin(); it != g.end(); ++it) pods.insert(it.key());
    for (const std::string& pod : pods) {
      if (w.value(pod, Json()) != g.value(pod, Json())) {
        return LastAttemptOf(reference, pod, INT64_MAX);
      }
    }
  }
  return nullptr;
}

}  // namespace schedref::conformance
