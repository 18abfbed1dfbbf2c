#include "api/apiserver/pod_validation.h"

#include <algorithm>
#include <set>

namespace schedref::api {
namespace {

std::string Index(const std::string& field, size_t i) {
  return field + "[" + std::to_string(i) + "]";
}

}  // namespace

std::optional<std::string> CheckNamespaceName(std::string_view name) {
  auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  const bool valid = !name.empty() && name.size() <= 63 && alnum(name.front()) &&
                     alnum(name.back()) &&
                     std::all_of(name.begin(), name.end(),
                                 [&](char c) { return alnum(c) || c == '-'; });
  if (valid) return std::nullopt;
  return "invalid namespace name \"" + std::string(name) +
         "\": a lowercase RFC 1123 label must consist of lower case alphanumeric "
         "characters or '-', and must start and end with an alphanumeric character "
         "(at most 63 characters)";
}

std::optional<FieldProblem> ValidateSpreadConstraint(
    const TopologySpreadConstraint& c, const std::vector<TopologySpreadConstraint>& earlier) {
  if (c.min_domains.has_value() && c.when_unsatisfiable != kDoNotSchedule) {
    return FieldProblem{"minDomains", "can only use minDomains if whenUnsatisfiable=" +
                                          std::string(kDoNotSchedule) + ", not " +
                                          c.when_unsatisfiable};
  }
  for (const TopologySpreadConstraint& e : earlier) {
    if (e.topology_key == c.topology_key && e.when_unsatisfiable == c.when_unsatisfiable) {
      return FieldProblem{"", "duplicate {topologyKey, whenUnsatisfiable}: {" +
                                  c.topology_key + ", " + c.when_unsatisfiable + "}"};
    }
  }
  if (c.match_label_keys.empty()) return std::nullopt;
  if (!c.label_selector.has_value()) {
    return FieldProblem{"matchLabelKeys", "must not be specified when labelSelector is not set"};
  }
  std::set<std::string> selector_keys;
  for (const auto& [key, value] : c.label_selector->match_labels) selector_keys.insert(key);
  for (const LabelSelectorRequirement& r : c.label_selector->match_expressions) {
    selector_keys.insert(r.key);
  }
  for (size_t i = 0; i < c.match_label_keys.size(); ++i) {
    const std::string& key = c.match_label_keys[i];
    if (auto p = CheckQualifiedName(key)) {
      return FieldProblem{Index("matchLabelKeys", i), "invalid label key \"" + key + "\": " + *p};
    }
    if (selector_keys.count(key) != 0) {
      return FieldProblem{Index("matchLabelKeys", i),
                          "\"" + key + "\" exists in both matchLabelKeys and labelSelector"};
    }
  }
  return std::nullopt;
}

std::optional<FieldProblem> ValidateAffinityTermLabelKeys(const PodAffinityTerm& term,
                                                          const Labels& pod_labels) {
  for (const auto& [field, keys] :
       {std::pair{std::string("matchLabelKeys"), &term.match_label_keys},
        std::pair{std::string("mismatchLabelKeys"), &term.mismatch_label_keys}}) {
    if (keys->empty()) continue;
    if (!term.label_selector.has_value()) {
      return FieldProblem{field, "must not be specified when labelSelector is not set"};
    }
    for (size_t i = 0; i < keys->size(); ++i) {
      if (auto p = CheckQualifiedName((*keys)[i])) {
        return FieldProblem{Index(field, i), "invalid label key \"" + (*keys)[i] + "\": " + *p};
      }
    }
  }
  const std::set<std::string> mismatch(term.mismatch_label_keys.begin(),
                                       term.mismatch_label_keys.end());
  for (size_t i = 0; i < term.match_label_keys.size(); ++i) {
    const std::string& key = term.match_label_keys[i];
    if (mismatch.count(key) != 0) {
      return FieldProblem{Index("matchLabelKeys", i),
                          "\"" + key + "\" exists in both matchLabelKeys and mismatchLabelKeys"};
    }
  }
  if (!term.label_selector.has_value()) return std::nullopt;
  // The merged selector's expressions: the term's own, then one per
  // matchLabelKeys key the pod has (mismatchLabelKeys' never clash).
  std::vector<std::string> expression_keys;
  for (const LabelSelectorRequirement& r : term.label_selector->match_expressions) {
    expression_keys.push_back(r.key);
  }
  for (const std::string& key : term.match_label_keys) {
    if (pod_labels.count(key) != 0) expression_keys.push_back(key);
  }
  std::set<std::string> seen;
  for (const auto& [key, value] : term.label_selector->match_labels) seen.insert(key);
  for (const std::string& key : expression_keys) {
    auto it = std::find(term.match_label_keys.begin(), term.match_label_keys.end(), key);
    if (it != term.match_label_keys.end() && seen.count(key) != 0) {
      return FieldProblem{Index("matchLabelKeys", static_cast<size_t>(
                                                      it - term.match_label_keys.begin())),
                          "\"" + key + "\" exists in both matchLabelKeys and labelSelector"};
    }
    seen.insert(key);
  }
  return std::nullopt;
}

}  // namespace schedref::api
