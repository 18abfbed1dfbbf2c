#include "view/explain_page.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "view/html.h"

namespace schedref::view {
namespace {

using Json = nlohmann::json;

std::string Str(const Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

int64_t Int(const Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_number_integer() ? it->get<int64_t>() : 0;
}

bool IsRejection(const std::string& status) {
  return status != "Success" && status != "Skipped" && status != "NotRun";
}

std::string JoinEscaped(const Json& list) {
  std::string out;
  for (const Json& s : list) {
    if (!out.empty()) out += ", ";
    out += Escape(s.is_string() ? s.get<std::string>() : s.dump());
  }
  return out;
}

std::string FilterCell(const std::string& plugin, const std::string& status) {
  if (status == "Success") {
    return "<td class=\"ok\" title=\"" + Escape(plugin) + ": Success\">\u2713</td>";
  }
  if (status == "Skipped") {
    return "<td class=\"skip\" title=\"" + Escape(plugin) +
           ": skipped (its PreFilter returned Skip)\">\u2013</td>";
  }
  if (status == "NotRun") {
    return "<td class=\"nr\" title=\"" + Escape(plugin) +
           ": not run (an earlier filter rejected the node)\">\u00b7</td>";
  }
  return "<td class=\"bad\" title=\"" + Escape(plugin + ": " + status) + "\">\u2717 " +
         Escape(status) + "</td>";
}

// The matrix of nodes x plugins.
std::string Matrix(const Json& e, std::string_view id,
                   const std::map<std::string, std::string>& marks) {
  const Json& plugins = e["plugins"];
  // A Filter plugin whose PreFilter said Skip is skipped on every node: its
  // column would say nothing per node, so it is named once above the table.
  std::vector<std::string> columns, skipped;
  for (const Json& p : plugins["filter"]) {
    const std::string plugin = p.get<std::string>();
    bool everywhere = !e["nodes"].empty();
    for (const Json& n : e["nodes"]) {
      for (const Json& f : n["filter"]) {
        if (Str(f, "plugin") == plugin && Str(f, "status") != "Skipped") everywhere = false;
      }
    }
    (everywhere ? skipped : columns).push_back(plugin);
  }
  const size_t filters = columns.size();
  const size_t scores = plugins["score"].size();
  std::string out;
  if (!skipped.empty()) {
    out += "<p>\u2013 Skipped on every node (their PreFilter said Skip), so not shown as "
           "columns: ";
    for (size_t i = 0; i < skipped.size(); ++i) {
      out += (i > 0 ? ", " : "") + std::string("<span class=\"mono\">") + Escape(skipped[i]) +
             "</span>";
    }
    out += ".</p>";
  }
  out += TableOpen({std::string(id) + "-matrix",
                               "Nodes \u00d7 plugins: the chosen node first, then the feasible "
                               "ones by total, the rejected ones by name, those not evaluated",
                               "node name", "matrix"});
  out += "<thead><tr><th colspan=\"4\" scope=\"colgroup\">Node</th>";
  if (filters > 0) {
    out += "<th colspan=\"" + std::to_string(filters) +
           "\" scope=\"colgroup\">Filter plugins, in run order</th>";
  }
  if (scores > 0) {
    out += "<th colspan=\"" + std::to_string(scores) +
           "\" scope=\"colgroup\">Score plugins: weighted score (weight \u00d7 normalized, "
           "raw)</th>";
  }
  out += "</tr><tr><th scope=\"col\" data-sort=\"text\">Name</th>"
         "<th scope=\"col\">Verdict</th>"
         "<th scope=\"col\" class=\"num\" data-sort=\"num\">Rank</th>"
         "<th scope=\"col\" class=\"num\" data-sort=\"num\">Total</th>";
  for (const std::string& p : columns) out += "<th scope=\"col\">" + Breakable(p) + "</th>";
  for (const Json& p : plugins["score"]) {
    out += "<th scope=\"col\" class=\"num\" data-sort=\"num\">" +
           Breakable(Str(p, "plugin")) + " <small>\u00d7" + std::to_string(Int(p, "weight")) +
           "</small></th>";
  }
  out += "</tr></thead><tbody>";
  // The chosen node first: it is what a reader looks for, and with many
  // ties it would be anywhere on the first pages.
  std::vector<const Json*> order;
  for (const Json& n : e["nodes"]) {
    if (n.value("chosen", false)) order.push_back(&n);
  }
  for (const Json& n : e["nodes"]) {
    if (!n.value("chosen", false)) order.push_back(&n);
  }
  for (const Json* row : order) {
    const Json& n = *row;
    const std::string name = Str(n, "node");
    const bool chosen = n.value("chosen", false);
    const bool feasible = n.value("feasible", false);
    out += "<tr data-name=\"" + Escape(name) + "\"" + (chosen ? " class=\"chosen\"" : "") +
           "><th scope=\"row\">" + Escape(name) + "</th>";
    std::string verdict;
    if (chosen) {
      verdict = "\u2605 chosen";
    } else if (feasible) {
      verdict = "\u2713 feasible";
    } else {
      std::vector<std::string> by;
      for (const Json& f : n["filter"]) {
        if (IsRejection(Str(f, "status"))) by.push_back(Str(f, "plugin"));
      }
      verdict = "\u2717 rejected";
      for (size_t i = 0; i < by.size(); ++i) verdict += (i == 0 ? " by " : ", ") + by[i];
    }
    verdict = Escape(verdict);
    if (auto m = marks.find(name); m != marks.end()) {
      verdict += "<br>\u25c6 " + Escape(m->second);
    }
    out += "<td class=\"v" + std::string(feasible ? "" : " bad") + "\">" + verdict + "</td>";
    if (n.contains("rank")) {
      out += "<td class=\"num\" data-v=\"" + std::to_string(Int(n, "rank")) + "\">" +
             std::to_string(Int(n, "rank")) + "</td>";
    } else {
      out += "<td class=\"num nr\">\u2014</td>";
    }
    if (n.contains("total")) {
      const std::string t = std::to_string(Int(n, "total"));
      out += "<td class=\"num\" data-v=\"" + t + "\"><strong>" + t + "</strong></td>";
    } else {
      out += "<td class=\"num nr\" title=\"not scored\">\u2014</td>";
    }
    for (const Json& f : n["filter"]) {
      const std::string plugin = Str(f, "plugin");
      if (std::find(columns.begin(), columns.end(), plugin) != columns.end()) {
        out += FilterCell(plugin, Str(f, "status"));
      }
    }
    for (const Json& p : plugins["score"]) {
      const std::string plugin = Str(p, "plugin");
      const Json* found = nullptr;
      for (const Json& s : n["scores"]) {
        if (Str(s, "plugin") == plugin) found = &s;
      }
      if (found == nullptr) {
        out += "<td class=\"num nr\" title=\"" + Escape(plugin) + ": no score\">\u2014</td>";
        continue;
      }
      const std::string w = std::to_string(Int(*found, "weighted"));
      out += "<td class=\"num\" data-v=\"" + w + "\">" + w + "<small>" +
             std::to_string(Int(*found, "weight")) + "\u00d7" +
             std::to_string(Int(*found, "normalized")) + " \u00b7 raw " +
             std::to_string(Int(*found, "raw")) + "</small></td>";
    }
    out += "</tr>";
  }
  if (e.contains("notEvaluated")) {
    const std::string why = Escape(Str(e["notEvaluated"], "text"));
    const std::string span = std::to_string(2 + filters + scores);
    for (const Json& n : e["notEvaluated"]["nodes"]) {
      const std::string name = n.get<std::string>();
      out += "<tr data-name=\"" + Escape(name) + "\" class=\"ne\"><th scope=\"row\">" +
             Escape(name) + "</th><td class=\"v\">\u25cb not evaluated</td><td class=\"ne\" colspan=\"" +
             span + "\">" + why + "</td></tr>";
    }
  }
  out += TableClose();
  return out;
}

// Rejections counted by plugin and verdict, most frequent first.
std::string RejectionCounts(const Json& e, std::string_view id) {
  std::map<std::pair<std::string, std::string>, int64_t> counts;
  std::map<std::string, int64_t> per_plugin;
  for (const Json& n : e["nodes"]) {
    for (const Json& f : n["filter"]) {
      const std::string status = Str(f, "status");
      if (!IsRejection(status)) continue;
      ++counts[{Str(f, "plugin"), status}];
      ++per_plugin[Str(f, "plugin")];
    }
  }
  if (counts.empty()) return "";
  std::vector<std::pair<std::pair<std::string, std::string>, int64_t>> rows(counts.begin(),
                                                                            counts.end());
  std::stable_sort(rows.begin(), rows.end(),
                   [](const auto& x, const auto& y) { return x.second > y.second; });
  std::string out = TableOpen({std::string(id) + "-rejections",
                               "Rejections by plugin and reason", ""});
  out += "<thead><tr><th scope=\"col\">Plugin</th><th scope=\"col\">Verdict</th>"
         "<th scope=\"col\" class=\"num\">Nodes</th><th scope=\"col\" class=\"num\">"
         "All nodes this plugin rejected</th></tr></thead><tbody>";
  for (const auto& [key, count] : rows) {
    out += "<tr data-name=\"" + Escape(key.first) + "\"><th scope=\"row\">" +
           Escape(key.first) + "</th><td class=\"bad\">\u2717 " + Escape(key.second) +
           "</td><td class=\"num\">" + std::to_string(count) + "</td><td class=\"num\">" +
           std::to_string(per_plugin[key.first]) + "</td></tr>";
  }
  return out + TableClose();
}

std::string Preemption(const Json& e, std::string_view id, const std::string& h) {
  if (!e.contains("preemption")) return "";
  const Json& p = e["preemption"];
  const std::string nominated = Str(p, "nominatedNode");
  std::string out = "<" + h + ">Preemption (PostFilter)</" + h + "><p>";
  if (nominated.empty()) {
    out += "\u2717 No candidate node: nothing was nominated and no pod was evicted.";
  } else {
    out += "\u2691 Nominated node <strong>" + Escape(nominated) + "</strong>; victims, in "
           "deletion order: " +
           (p["victims"].empty() ? std::string("none") : JoinEscaped(p["victims"])) + ".";
  }
  out += "</p>";
  if (!p["candidates"].empty()) {
    out += TableOpen({std::string(id) + "-candidates",
                      "The dry run's candidates (no PDB violation first)", "node name"});
    out += "<thead><tr><th scope=\"col\">Node</th><th scope=\"col\">Victims (most "
           "important first)</th><th scope=\"col\" class=\"num\">PDB violations</th>"
           "<th scope=\"col\">Outcome</th></tr></thead><tbody>";
    for (const Json& c : p["candidates"]) {
      const std::string node = Str(c, "node");
      const bool picked = node == nominated;
      out += "<tr data-name=\"" + Escape(node) + "\"" + (picked ? " class=\"chosen\"" : "") +
             "><th scope=\"row\">" + Escape(node) + "</th><td>" + JoinEscaped(c["victims"]) +
             "</td><td class=\"num\">" + std::to_string(Int(c, "pdbViolations")) + "</td><td>" +
             (picked ? "\u2605 nominated" : "candidate") + "</td></tr>";
    }
    out += TableClose();
  }
  return out;
}

}  // namespace

std::string AttemptSection(const Json& e, std::string_view id,
                           const std::map<std::string, std::string>& marks, int level) {
  const std::string h = "h" + std::to_string(level), sub = "h" + std::to_string(level + 1);
  const std::string node = Str(e, "node");
  const std::string outcome = Str(e, "outcome");
  std::string out = "<section id=\"" + Escape(id) + "\">\n<" + h + ">Cycle " +
                    std::to_string(Int(e, "cycle")) + " at t=" + std::to_string(Int(e, "t")) +
                    " ms: " + Escape(outcome) + (node.empty() ? "" : " on " + Escape(node)) +
                    "</" + h + ">\n<dl class=\"facts\">";
  out += "<dt>Pod</dt><dd>" + Escape(Str(e, "pod")) + "</dd>";
  out += "<dt>Profile</dt><dd>" + Escape(Str(e, "profile")) + "</dd>";
  out += "<dt>Outcome</dt><dd>" +
         std::string(outcome == "scheduled" ? "\u2713 " : "\u2717 ") + Escape(outcome) +
         (node.empty() ? "" : " on <strong>" + Escape(node) + "</strong>") + "</dd>";
  std::string nodes = Count(Int(e, "evaluated"), "node") + " evaluated, " +
                      std::to_string(Int(e, "feasible")) + " feasible";
  if (e.contains("notEvaluated")) {
    nodes += ", " + std::to_string(e["notEvaluated"]["nodes"].size()) + " not evaluated";
  }
  out += "<dt>Nodes</dt><dd>" + Escape(nodes) + "</dd>";
  if (e.contains("choice")) {
    out += "<dt>Chosen</dt><dd>\u2605 " + Escape(Str(e["choice"], "text")) + "</dd>";
  }
  if (e.contains("notEvaluated")) {
    out += "<dt>Not evaluated</dt><dd>\u25cb " + Escape(Str(e["notEvaluated"], "text")) +
           "</dd>";
  }
  for (const Json& w : e["warnings"]) {
    out += "<dt>\u26a0 Warning</dt><dd>" + Escape(Str(w, "message")) + "</dd>";
  }
  out += "</dl>\n";
  const std::string message = Str(e, "message");
  if (!message.empty()) {
    out += "<" + sub + ">" + (outcome == "unschedulable" ? "FitError" : "Message") + "</" +
           sub + "><pre class=\"message\">" + Escape(message) + "</pre>\n";
  }
  const Json& plugins = e["plugins"];
  if (!plugins["preFilter"].empty()) {
    out += "<" + sub + ">PreFilter</" + sub + "><p>";
    bool first = true;
    for (const Json& v : plugins["preFilter"]) {
      const std::string status = Str(v, "status");
      const std::string mark = status == "Skip"                   ? "\u2013 "
                               : status.rfind("Success", 0) == 0 ? "\u2713 "
                                                                 : "\u2717 ";
      out += (first ? "" : "; ") + std::string("<span class=\"mono\">") +
             Escape(Str(v, "plugin")) + "</span> " + mark + Escape(status);
      first = false;
    }
    out += "</p>\n";
  }
  if (!e["nodes"].empty() || e.contains("notEvaluated")) {
    out += "<p class=\"legend\"><span>\u2713 passed</span><span>\u2717 rejected (the reason "
           "in the cell)</span><span>\u2013 skipped: its PreFilter said Skip</span><span>\u00b7 "
           "not run: an earlier filter rejected</span><span>\u2014 no score</span><span>\u2605 "
           "chosen</span><span>\u25cb not evaluated</span></p>";
    out += Matrix(e, id, marks);
  }
  if (node.empty()) out += RejectionCounts(e, id);
  out += Preemption(e, id, sub);
  out += "</section>\n";
  return out;
}

std::string ExplainPage(const Json& document, std::string_view source) {
  const std::string pod = Str(document, "pod");
  std::string body = "<header><h1>Why pod " + Escape(pod) + " went where it went</h1>";
  body += "<p class=\"mute\">schedref explain of <span class=\"mono\">" + Escape(source) +
          "</span>: the reference scheduler's view of every scheduling attempt of the pod, "
          "on the virtual clock.</p>";
  const Json& attempts = document["attempts"];
  if (attempts.size() > 1) {
    body += "<nav aria-label=\"attempts\"><ol>";
    for (size_t i = 0; i < attempts.size(); ++i) {
      const Json& a = attempts[i];
      body += "<li><a href=\"#attempt-" + std::to_string(i + 1) + "\">cycle " +
              std::to_string(Int(a, "cycle")) + ", t=" + std::to_string(Int(a, "t")) +
              " ms: " + Escape(Str(a, "outcome")) +
              (Str(a, "node").empty() ? "" : " on " + Escape(Str(a, "node"))) + "</a></li>";
    }
    body += "</ol></nav>";
  }
  body += "</header>\n<main>\n";
  for (size_t i = 0; i < attempts.size(); ++i) {
    body += AttemptSection(attempts[i], "attempt-" + std::to_string(i + 1));
  }
  body += "</main>\n";
  return Page("schedref explain: " + pod, body);
}

}  // namespace schedref::view
