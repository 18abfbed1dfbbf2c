// The HTML view of the explainer (conformance/explain.h): one scheduling
// attempt as a nodes x plugins matrix, rendered from ExplainAttemptJson's
// model and nothing else, and the page of `schedref explain --html`.
// What a reader sees: docs/html-view.md.
#ifndef SCHEDREF_VIEW_EXPLAIN_PAGE_H_
#define SCHEDREF_VIEW_EXPLAIN_PAGE_H_

#include <map>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace schedref::view {

// One attempt (an explanation of docs/explain.md) as a <section> with id
// `id`: the facts (pod, profile, outcome, nodes evaluated and feasible, the
// choice and why, warnings), the PreFilter results, the matrix (one row per
// evaluated node: verdict, rank, total, each Filter plugin's verdict with
// its reason, each Score plugin's weighted score with weight x normalized
// and raw; the chosen node first, then the explanation's order; then the
// nodes not evaluated, with the reason), and for an
// attempt that chose no node the FitError text, the rejections counted per
// plugin and reason, and the preemption outcome with its candidates.
// `marks` adds a label to nodes' verdicts (check's "actual choice");
// the section's heading is an <h`level`>, its parts' one level below.
[[nodiscard]] std::string AttemptSection(const nlohmann::json& explanation, std::string_view id,
                                         const std::map<std::string, std::string>& marks = {},
                                         int level = 2);

// The page of `schedref explain --html`: `document` is explain's JSON
// output ({"pod", "attempts"}), `source` the scenario it came from.
[[nodiscard]] std::string ExplainPage(const nlohmann::json& document, std::string_view source);

}  // namespace schedref::view

#endif  // SCHEDREF_VIEW_EXPLAIN_PAGE_H_
