#include "conformance/explain.h"

#include <algorithm>
#include <climits>
#include <variant>

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

namespace {

std::vector<std::string> Strings(const Json& list) {
  std::vector<std::string> out;
  for (const Json& s : list) out.push_back(s.get<std::string>());
  return out;
}

// The choice and why, as selectHost made it.
Json Choice(const api::Attempt& a, const std::map<std::string, int64_t>& totals,
            const ExplainContext& context) {
  Json c = {{"node", a.node}};
  if (a.node.empty()) return Json();
  if (a.feasible <= 1) {
    c["reason"] = "onlyFeasible";
    c["text"] = a.node + ", the only feasible node: selectHost does not run";
    return c;
  }
  if (totals.empty()) {
    c["reason"] = "unscored";
    c["text"] = a.node + ": no scores were recorded for this attempt";
    return c;
  }
  std::vector<std::string> top = TopScoredNodes(a);
  const int64_t best = totals.at(top.front());
  c["topScore"] = best;
  if (top.size() == 1) {
    c["reason"] = "topScore";
    std::string next;
    int64_t second = INT64_MIN;
    for (const auto& [node, total] : totals) {
      if (node != top.front() && total > second) {
        second = total;
        next = node;
      }
    }
    std::string text = a.node + ", the only node with the top total " + std::to_string(best);
    if (!next.empty()) text += " (next: " + next + " " + std::to_string(second) + ")";
    if (a.node != top.front()) text = a.node + " although " + top.front() + " has the top total";
    c["text"] = text;
    return c;
  }
  // A tie: the reference orders the tied nodes as the feasible list does
  // (stable sort by total) and draws one index from its seeded RNG.
  std::vector<std::string> tied;
  for (const std::string& n : a.feasible_nodes) {
    auto it = totals.find(n);
    if (it != totals.end() && it->second == best) tied.push_back(n);
  }
  const bool in_order = tied.size() == top.size();
  if (!in_order) tied = top;
  c["reason"] = "tie";
  c["tied"] = tied;
  c["tiedOrder"] = in_order ? "feasibleList" : "name";
  c["seed"] = context.seed;
  std::string text = Join(tied, ", ") + " tie at the top total " + std::to_string(best) +
                     (in_order ? " (in feasible-list order)" : " (by name)") +
                     "; selectHost picks one uniformly (upstream v1.32: reservoir sampling "
                     "with math/rand); schedref draws once from its RNG seeded with " +
                     std::to_string(context.seed) + " (docs/deviations.md, \"selectHost\")";
  auto at = std::find(tied.begin(), tied.end(), a.node);
  if (at != tied.end() && in_order) {
    c["drawn"] = at - tied.begin();
    text += ": index " + std::to_string(at - tied.begin()) + " of " +
            std::to_string(tied.size()) + " -> " + a.node;
  } else {
    text += " -> " + a.node;
  }
  c["text"] = text;
  return c;
}

std::string FilterSummary(const Json& filters) {
  std::vector<std::string> passed, skipped, not_run;
  std::string rejected;
  for (const Json& f : filters) {
    const std::string plugin = f["plugin"].get<std::string>();
    const std::string status = f["status"].get<std::string>();
    if (status == kSuccess) {
      passed.push_back(plugin);
    } else if (status == "Skipped") {
      skipped.push_back(plugin);
    } else if (status == "NotRun") {
      not_run.push_back(plugin);
    } else {
      rejected += (rejected.empty() ? "" : ", ") + plugin + " (" + status + ")";
    }
  }
  std::string s;
  if (rejected.empty()) {
    s = passed.empty() ? "none ran" : "all passed";
  } else {
    s = (passed.empty() ? "" : "passed " + Join(passed, ", ") + "; ") + "rejected by " + rejected;
  }
  if (!not_run.empty()) s += "; not run: " + Join(not_run, ", ");
  if (!skipped.empty()) s += "; skipped (PreFilter Skip): " + Join(skipped, ", ");
  return s;
}

// The cluster's nodes the attempt did not evaluate, and why; null when
// there are none or the cluster's nodes are unknown.
Json NotEvaluated(const api::Attempt& a, const ExplainContext& context) {
  std::vector<std::string> missing;
  for (const std::string& n : context.cluster_nodes) {
    if (a.detail.count(n) == 0 && n != a.node) missing.push_back(n);
  }
  if (missing.empty()) return Json();
  std::vector<std::string> narrowing;
  for (const api::PreFilterVerdict& v : a.pre_filter) {
    if (v.status.rfind("Success: nodes", 0) == 0) narrowing.push_back(v.plugin);
  }
  std::string reason, text;
  if (a.evaluated == 0) {
    reason = "noFilterRan";
    text = "no Filter ran: the attempt ended before the nodes were filtered";
  } else if (!narrowing.empty()) {
    reason = "preFilterResult";
    text = "not in the PreFilter result of " + Join(narrowing, ", ");
  } else if (a.detail.empty() && !a.node.empty()) {
    reason = "nominatedNode";
    text = "the pod's nominated node was checked first and passed, so no other node was";
  } else if (static_cast<size_t>(a.evaluated) < context.cluster_nodes.size()) {
    reason = "searchStopped";
    text = "the feasible-node search stopped once it had enough feasible nodes "
           "(percentageOfNodesToScore)";
  } else {
    reason = "unrecorded";
    text = "the attempt recorded no verdicts for them";
  }
  return {{"nodes", missing}, {"reason", reason}, {"text", text}};
}

}  // namespace

std::vector<std::string> NodesAt(const api::Scenario& scenario, api::TimeMs at) {
  std::set<std::string> nodes;
  for (const api::Node& n : scenario.initial.nodes) nodes.insert(n.name);
  for (const api::Event& e : scenario.timeline) {
    if (e.at > at) continue;
    if (const auto* n = std::get_if<api::Node>(&e.object);
        n != nullptr && e.op == api::Event::Op::kCreate) {
      nodes.insert(n->name);
    }
    if (e.op == api::Event::Op::kDelete && e.kind == "Node") nodes.erase(e.name);
  }
  return {nodes.begin(), nodes.end()};
}

Json ExplainAttemptJson(const api::Attempt& a, const ExplainContext& context) {
  Json out = {{"cycle", a.cycle},
              {"t", a.at},
              {"pod", a.pod},
              {"profile", a.profile},
              {"outcome", std::string(api::OutcomeName(a.outcome))},
              {"node", a.node},
              {"evaluated", a.evaluated},
              {"feasible", a.feasible},
              {"message", a.message}};
  Json warnings = Json::array();
  for (const api::Warning& w : context.warnings) {
    if (w.pod == a.pod) warnings.push_back({{"feature", w.feature}, {"message", w.message}});
  }
  out["warnings"] = warnings;

  // The plugins, in run order.
  std::set<std::string> skipped_by_pre_filter;
  Json pre_filter = Json::array();
  for (const api::PreFilterVerdict& v : a.pre_filter) {
    pre_filter.push_back({{"plugin", v.plugin}, {"status", v.status}});
    if (v.status == "Skip") skipped_by_pre_filter.insert(v.plugin);
  }
  std::vector<std::string> filter_plugins = context.filter_plugins;
  std::vector<std::pair<std::string, int64_t>> score_plugins = context.score_plugins;
  std::set<std::string> extender_names;
  for (const api::Extender& x : context.extenders) extender_names.insert(x.url_prefix);
  if (filter_plugins.empty() && score_plugins.empty()) {
    std::set<std::string> filters, scores;
    for (const auto& [node, d] : a.detail) {
      for (const auto& [plugin, verdict] : d.filter) {
        if (extender_names.count(plugin) == 0) filters.insert(plugin);
      }
      for (const auto& [plugin, score] : d.scores) {
        if (extender_names.count(plugin) == 0) scores.insert(plugin);
      }
    }
    filter_plugins.assign(filters.begin(), filters.end());
    for (const std::string& p : scores) score_plugins.emplace_back(p, 0);
  }
  Json score_list = Json::array();
  for (const auto& [plugin, weight] : score_plugins) {
    score_list.push_back({{"plugin", plugin}, {"weight", weight}});
  }
  // Extenders run after the Filter plugins and add their scaled scores to
  // the totals.
  Json extender_list = Json::array();
  for (const api::Extender& x : context.extenders) {
    extender_list.push_back({{"name", x.url_prefix},
                             {"filter", !x.filter_verb.empty()},
                             {"prioritize", !x.prioritize_verb.empty()},
                             {"weight", x.weight},
                             {"bind", !x.bind_verb.empty()},
                             {"preempt", !x.preempt_verb.empty()},
                             {"ignorable", x.ignorable},
                             {"nodeCacheCapable", x.node_cache_capable}});
  }
  out["plugins"] = {{"preFilter", pre_filter},
                    {"filter", filter_plugins},
                    {"score", score_list},
                    {"extenders", extender_list}};

  // The nodes: feasible by total, highest first, then rejected by name.
  const std::map<std::string, int64_t> totals = TotalScores(a);
  std::vector<std::string> passed, rejected;
  for (const auto& [node, detail] : a.detail) {
    (Rejections(detail).empty() ? passed : rejected).push_back(node);
  }
  auto total_of = [&](const std::string& n) {
    auto it = totals.find(n);
    return it == totals.end() ? INT64_MIN : it->second;
  };
  std::stable_sort(passed.begin(), passed.end(), [&](const std::string& x, const std::string& y) {
    return total_of(x) > total_of(y);
  });
  Json nodes = Json::array();
  size_t rank = 0;
  for (size_t i = 0; i < passed.size() + rejected.size(); ++i) {
    const bool feasible = i < passed.size();
    const std::string& name = feasible ? passed[i] : rejected[i - passed.size()];
    const api::NodeDetail& d = a.detail.at(name);
    Json n = {{"node", name}, {"feasible", feasible}, {"chosen", name == a.node}};
    if (feasible) {
      // Competition ranking: nodes with equal totals share a rank (the
      // list is sorted by total, so a rank changes only where it does).
      if (i == 0 || total_of(passed[i - 1]) != total_of(name)) rank = i + 1;
      n["rank"] = rank;
      if (totals.count(name) > 0) n["total"] = totals.at(name);
    }
    Json filters = Json::array();
    for (const std::string& plugin : filter_plugins) {
      std::string status;
      if (auto it = d.filter.find(plugin); it != d.filter.end()) {
        status = it->second;
      } else if (skipped_by_pre_filter.count(plugin) > 0) {
        status = "Skipped";
      } else {
        status = "NotRun";
      }
      filters.push_back({{"plugin", plugin}, {"status", status}});
    }
    n["filter"] = filters;
    Json scores = Json::array();
    for (const auto& [plugin, weight] : score_plugins) {
      auto it = d.scores.find(plugin);
      if (it == d.scores.end()) continue;
      scores.push_back({{"plugin", plugin},
                        {"weight", weight},
                        {"raw", it->second.raw},
                        {"normalized", it->second.normalized},
                        {"weighted", it->second.weighted}});
    }
    n["scores"] = scores;
    Json extenders = Json::array();
    for (const api::Extender& x : context.extenders) {
      Json e = {{"name", x.url_prefix}};
      if (auto it = d.filter.find(x.url_prefix); it != d.filter.end()) {
        e["filter"] = it->second;
      }
      if (auto it = d.scores.find(x.url_prefix); it != d.scores.end()) {
        e["score"] = it->second.raw;
        e["weighted"] = it->second.weighted;
      }
      if (e.size() > 1) extenders.push_back(std::move(e));
    }
    n["extenders"] = extenders;
    nodes.push_back(std::move(n));
  }
  out["nodes"] = nodes;
  if (Json ne = NotEvaluated(a, context); !ne.is_null()) out["notEvaluated"] = ne;
  if (Json c = Choice(a, totals, context); !c.is_null()) out["choice"] = c;
  if (a.preemption) {
    Json candidates = Json::array();
    for (const api::PreemptionCandidate& c : a.preemption->candidates) {
      candidates.push_back(
          {{"node", c.node}, {"victims", c.victims}, {"pdbViolations", c.pdb_violations}});
    }
    out["preemption"] = {{"nominatedNode", a.preemption->nominated_node},
                         {"victims", a.preemption->victims},
                         {"candidates", candidates}};
  }
  return out;
}

std::vector<std::string> RenderExplanation(const Json& e, const std::set<std::string>& always,
                                           size_t max_nodes) {
  std::vector<std::string> lines;
  std::string head = "cycle " + std::to_string(e["cycle"].get<int64_t>()) + " (t=" +
                     std::to_string(e["t"].get<int64_t>()) + "ms), pod " +
                     e["pod"].get<std::string>() + ", profile " +
                     e["profile"].get<std::string>() + ": " + e["outcome"].get<std::string>();
  if (!e["node"].get<std::string>().empty()) head += " on " + e["node"].get<std::string>();
  head += "; " + std::to_string(e["evaluated"].get<int64_t>()) + " nodes evaluated, " +
          std::to_string(e["feasible"].get<int64_t>()) + " feasible";
  lines.push_back(head);
  for (const Json& w : e["warnings"]) {
    lines.push_back("warning: " + w["message"].get<std::string>());
  }
  const Json& plugins = e["plugins"];
  if (!plugins["preFilter"].empty()) {
    std::vector<std::string> parts;
    for (const Json& v : plugins["preFilter"]) {
      parts.push_back(v["plugin"].get<std::string>() + " " + v["status"].get<std::string>());
    }
    lines.push_back("PreFilter: " + Join(parts, ", "));
  }
  if (!plugins["filter"].empty()) {
    lines.push_back("Filter plugins, in run order: " + Join(Strings(plugins["filter"]), ", "));
  }
  if (!plugins["score"].empty()) {
    std::vector<std::string> parts;
    for (const Json& s : plugins["score"]) {
      parts.push_back(s["plugin"].get<std::string>() + " " +
                      std::to_string(s["weight"].get<int64_t>()));
    }
    lines.push_back("Score plugins (weight): " + Join(parts, ", "));
  }
  for (const Json& x : plugins["extenders"]) {
    std::vector<std::string> verbs;
    if (x.value("filter", false)) verbs.push_back("filter");
    if (x.value("prioritize", false)) {
      verbs.push_back("prioritize weight " + std::to_string(x.value("weight", int64_t{0})));
    }
    if (x.value("bind", false)) verbs.push_back("bind");
    if (x.value("preempt", false)) verbs.push_back("preempt");
    if (x.value("ignorable", false)) verbs.push_back("ignorable");
    if (x.value("nodeCacheCapable", false)) verbs.push_back("nodeCacheCapable");
    lines.push_back("extender " + x.value("name", std::string()) + ": " +
                    (verbs.empty() ? std::string("no verbs") : Join(verbs, ", ")));
  }
  size_t listed = 0, left_out = 0;
  for (const Json& n : e["nodes"]) {
    const std::string name = n["node"].get<std::string>();
    if (listed >= max_nodes && always.count(name) == 0) {
      ++left_out;
      continue;
    }
    ++listed;
    std::string line = "node " + name + ": ";
    if (n["feasible"].get<bool>()) {
      line += "rank " + std::to_string(n["rank"].get<int64_t>());
      line += n.contains("total") ? ", total " + std::to_string(n["total"].get<int64_t>())
                                  : ", not scored";
    } else {
      std::vector<std::string> by;
      for (const Json& f : n["filter"]) {
        const std::string status = f["status"].get<std::string>();
        if (status != kSuccess && status != "Skipped" && status != "NotRun") {
          by.push_back(f["plugin"].get<std::string>() + " (" + status + ")");
        }
      }
      for (const Json& x : n["extenders"]) {
        const std::string status = x.value("filter", std::string(kSuccess));
        if (status != kSuccess) {
          by.push_back("extender " + x["name"].get<std::string>() + " (" + status + ")");
        }
      }
      line += "rejected by " + Join(by, ", ");
    }
    if (n["chosen"].get<bool>()) line += " <- chosen";
    lines.push_back(line);
    lines.push_back("  filters: " + FilterSummary(n["filter"]));
    if (!n["scores"].empty()) {
      std::vector<std::string> parts;
      for (const Json& s : n["scores"]) {
        parts.push_back(s["plugin"].get<std::string>() + " " +
                        std::to_string(s["weighted"].get<int64_t>()) + " (" +
                        std::to_string(s["weight"].get<int64_t>()) + " x " +
                        std::to_string(s["normalized"].get<int64_t>()) + ", raw " +
                        std::to_string(s["raw"].get<int64_t>()) + ")");
      }
      lines.push_back("  scores: " + Join(parts, ", "));
    }
    for (const Json& x : n["extenders"]) {
      std::vector<std::string> parts;
      if (x.contains("filter")) parts.push_back("filter " + x["filter"].get<std::string>());
      if (x.contains("score")) {
        parts.push_back("score " + std::to_string(x["weighted"].get<int64_t>()) + " (raw " +
                        std::to_string(x["score"].get<int64_t>()) + ")");
      }
      lines.push_back("  extender " + x.value("name", std::string()) + ": " + Join(parts, ", "));
    }
  }
  if (left_out > 0) {
    lines.push_back(std::to_string(left_out) +
                    " more nodes not listed (`schedref explain` lists them all)");
  }
  if (e.contains("notEvaluated")) {
    const std::vector<std::string> names = Strings(e["notEvaluated"]["nodes"]);
    constexpr size_t kNamed = 10;
    std::string line = "not evaluated: " + std::to_string(names.size()) + " node" +
                       (names.size() == 1 ? "" : "s") + " (" +
                       e["notEvaluated"]["text"].get<std::string>() + "): ";
    for (size_t i = 0; i < names.size() && i < kNamed; ++i) {
      line += (i > 0 ? ", " : "") + names[i];
    }
    if (names.size() > kNamed) line += " and " + std::to_string(names.size() - kNamed) + " more";
    lines.push_back(line);
  }
  if (e.contains("choice")) lines.push_back("chosen: " + e["choice"]["text"].get<std::string>());
  if (!e["message"].get<std::string>().empty()) {
    lines.push_back("message: " + e["message"].get<std::string>());
  }
  if (e.contains("preemption")) {
    const Json& p = e["preemption"];
    const std::string nominated = p["nominatedNode"].get<std::string>();
    std::string line = "preemption: ";
    if (nominated.empty()) {
      line += "no candidate node (nothing nominated, no victims)";
    } else {
      const std::vector<std::string> victims = Strings(p["victims"]);
      line += "nominated " + nominated + "; victims " +
              (victims.empty() ? std::string("none") : Join(victims, ", "));
    }
    lines.push_back(line);
    for (const Json& c : p["candidates"]) {
      const std::vector<std::string> victims = Strings(c["victims"]);
      std::string l = "  candidate " + c["node"].get<std::string>() + ": victims " +
                      Join(victims, ", ");
      if (const int64_t v = c["pdbViolations"].get<int64_t>(); v > 0) {
        l += " (" + std::to_string(v) + " PDB violation" + (v > 1 ? "s" : "") + ")";
      }
      if (c["node"] == p["nominatedNode"]) l += " <- nominated";
      lines.push_back(l);
    }
  }
  return lines;
}

ExplainContext ExplainContextFor(reference::ReferenceScheduler& reference,
                                 const api::Scenario& scenario, const api::Trace& trace,
                                 const api::Attempt& attempt) {
  ExplainContext context;
  context.seed = scenario.seed;
  context.cluster_nodes = NodesAt(scenario, attempt.at);
  for (bool ignorable : {false, true}) {
    for (const api::Extender& x : scenario.config.extenders) {
      if (x.ignorable == ignorable) context.extenders.push_back(x);
    }
  }
  for (const api::Warning& w : trace.warnings) {
    if (w.pod == attempt.pod) context.warnings.push_back(w);
  }
  StatusOr<reference::ReferenceScheduler::ProfilePlugins> plugins =
      reference.Plugins(scenario, attempt.profile);
  if (plugins.ok()) {
    context.filter_plugins = plugins->points["filter"];
    for (const std::string& p : plugins->points["score"]) {
      context.score_plugins.emplace_back(p, plugins->score_weights[p]);
    }
  }
  return context;
}

std::vector<std::string> ExplainAttempt(const api::Attempt& attempt,
                                        const ExplainContext& context,
                                        const std::set<std::string>& always,
                                        size_t max_nodes) {
  return RenderExplanation(ExplainAttemptJson(attempt, context), always, max_nodes);
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
