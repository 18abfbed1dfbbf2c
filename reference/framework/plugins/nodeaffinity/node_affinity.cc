#include "reference/framework/plugins/nodeaffinity/node_affinity.h"

#include <set>
#include <utility>

#include "api/config/pluginargs/json_args.h"
#include "api/types/labels.h"
#include "reference/framework/plugins/helper/event_objects.h"
#include "reference/framework/plugins/helper/normalize_score.h"
#include "reference/framework/plugins/names/names.h"

namespace schedref::reference::framework::plugins::nodeaffinity {
namespace {

using api::pluginargs::AggregateMessage;
using api::pluginargs::FieldPath;
using api::pluginargs::IndexPath;

// --- Matching ----------------------------------------------------------------------

// nodeaffinity.RequiredNodeAffinity.Match with its error: false and an error
// when no term matched and some term did not parse.
StatusOr<bool> RequiredMatch(const api::Pod& pod, const api::Node& node) {
  for (const auto& [key, value] : pod.node_selector) {
    auto it = node.labels.find(key);
    if (it == node.labels.end() || it->second != value) return false;
  }
  if (!pod.affinity || !pod.affinity->node_affinity ||
      !pod.affinity->node_affinity->required) {
    return true;
  }
  std::vector<std::string> errors;
  const api::NodeSelector& selector = *pod.affinity->node_affinity->required;
  for (size_t i = 0; i < selector.terms.size(); ++i) {
    const api::NodeSelectorTerm& term = selector.terms[i];
    if (api::IsEmptyNodeSelectorTerm(term)) continue;
    if (auto p = api::NodeSelectorTermParseError(term)) {
      errors.push_back(FieldPath(IndexPath("nodeSelectorTerms", i), p->field) +
                       ": " + p->problem);
      continue;
    }
    if (api::NodeSelectorTermMatches(term, node)) return true;
  }
  if (!errors.empty()) {
    return schedref::Status::Invalid(AggregateMessage(errors));
  }
  return false;
}

const std::vector<api::PreferredSchedulingTerm>* PodPreferredTerms(
    const api::Pod& pod) {
  if (pod.affinity && pod.affinity->node_affinity &&
      !pod.affinity->node_affinity->preferred.empty()) {
    return &pod.affinity->node_affinity->preferred;
  }
  return nullptr;
}

int64_t ScoreTerms(const std::vector<api::PreferredSchedulingTerm>& terms,
                   const api::Node& node) {
  int64_t score = 0;
  for (const api::PreferredSchedulingTerm& t : terms) {
    if (api::NodeSelectorTermMatches(t.preference, node)) score += t.weight;
  }
  return score;
}

}  // namespace

StatusOr<std::vector<api::PreferredSchedulingTerm>>
ParsePreferredSchedulingTerms(
    const std::vector<api::PreferredSchedulingTerm>& terms) {
  std::vector<api::PreferredSchedulingTerm> parsed;
  std::vector<std::string> errors;
  for (size_t i = 0; i < terms.size(); ++i) {
    const api::PreferredSchedulingTerm& t = terms[i];
    if (t.weight == 0 || api::IsEmptyNodeSelectorTerm(t.preference)) continue;
    if (auto p = api::NodeSelectorTermParseError(t.preference)) {
      errors.push_back(FieldPath(IndexPath("", i), p->field) + ": " +
                       p->problem);
      continue;
    }
    parsed.push_back(t);
  }
  if (!errors.empty()) {
    return schedref::Status::Invalid(AggregateMessage(errors));
  }
  return parsed;
}

StatusOr<std::unique_ptr<Plugin>> NodeAffinity::New(const nlohmann::json& args,
                                                    Handle* /*handle*/) {
  auto decoded = api::pluginargs::DecodeNodeAffinityArgs(args);
  if (!decoded.ok()) return decoded.status();
  return std::unique_ptr<Plugin>(new NodeAffinity(*std::move(decoded)));
}

NodeAffinity::NodeAffinity(NodeAffinityArgs args) {
  if (!args.added_affinity) return;
  added_node_selector_ = args.added_affinity->required;
  for (const api::PreferredSchedulingTerm& t :
       args.added_affinity->preferred) {
    if (t.weight == 0 || api::IsEmptyNodeSelectorTerm(t.preference)) continue;
    added_pref_terms_.push_back(t);
  }
  has_added_pref_terms_ = !args.added_affinity->preferred.empty();
}

std::string NodeAffinity::Name() const { return names::kNodeAffinity; }

bool NodeAffinity::MatchesAddedSelector(const api::Node& node) const {
  return !added_node_selector_ ||
         api::NodeSelectorMatches(*added_node_selector_, node);
}

PreFilterOutput NodeAffinity::PreFilter(
    CycleState& /*state*/, const api::Pod& pod,
    const std::vector<const NodeInfo*>& /*nodes*/) {
  const api::NodeSelector* required = nullptr;
  if (pod.affinity && pod.affinity->node_affinity &&
      pod.affinity->node_affinity->required) {
    required = &*pod.affinity->node_affinity->required;
  }
  // Note: upstream tells a nil nodeSelector map from an empty one; our
  // objects cannot, and both filter the same way (docs/deviations.md).
  if (required == nullptr && !added_node_selector_ &&
      pod.node_selector.empty()) {
    return {std::nullopt, Status::Skip()};
  }
  if (required == nullptr || required->terms.empty()) {
    return {std::nullopt, Status::Success()};
  }
  std::optional<std::set<std::string>> node_names;
  for (const api::NodeSelectorTerm& term : required->terms) {
    std::optional<std::set<std::string>> term_names;
    for (const api::NodeSelectorRequirement& r : term.match_fields) {
      if (r.key != "metadata.name" || r.op != "In") continue;
      std::set<std::string> s(r.values.begin(), r.values.end());
      if (!term_names) {
        term_names = std::move(s);
      } else {
        std::set<std::string> both;
        for (const std::string& n : *term_names) {
          if (s.contains(n)) both.insert(n);
        }
        term_names = std::move(both);
      }
    }
    // A term without a name requirement admits every node: the terms are
    // ORed.
    if (!term_names) return {std::nullopt, Status::Success()};
    if (!node_names) node_names.emplace();
    node_names->insert(term_names->begin(), term_names->end());
  }
  if (node_names && node_names->empty()) {
    return {std::nullopt, Status(Code::kUnschedulableAndUnresolvable,
                                 kErrReasonConflict)};
  }
  return {node_names, Status::Success()};
}

Status NodeAffinity::Filter(CycleState& /*state*/, const api::Pod& pod,
                            const NodeInfo& node) {
  if (!MatchesAddedSelector(*node.node)) {
    return Status(Code::kUnschedulableAndUnresolvable, kErrReasonEnforced);
  }
  // Terms that do not parse match nothing (upstream ignores the error here).
  if (!api::RequiredNodeAffinityMatches(pod, *node.node)) {
    return Status(Code::kUnschedulableAndUnresolvable, kErrReasonPod);
  }
  return Status::Success();
}

Status NodeAffinity::PreScore(CycleState& /*state*/, const api::Pod& pod,
                              const std::vector<const NodeInfo*>& /*nodes*/) {
  const auto* terms = PodPreferredTerms(pod);
  if (terms != nullptr) {
    auto parsed = ParsePreferredSchedulingTerms(*terms);
    if (!parsed.ok()) return Status::Error(parsed.status().message());
  }
  if (terms == nullptr && !has_added_pref_terms_) return Status::Skip();
  return Status::Success();
}

ScoreOutput NodeAffinity::Score(CycleState& /*state*/, const api::Pod& pod,
                                const NodeInfo& node) {
  int64_t count = ScoreTerms(added_pref_terms_, *node.node);
  if (const auto* terms = PodPreferredTerms(pod)) {
    auto parsed = ParsePreferredSchedulingTerms(*terms);
    if (!parsed.ok()) return {0, Status::Error(parsed.status().message())};
    count += ScoreTerms(*parsed, *node.node);
  }
  return {count, Status::Success()};
}

Status NodeAffinity::NormalizeScore(CycleState& /*state*/,
                                    const api::Pod& /*pod*/,
                                    NodeScoreList& scores) {
  helper::DefaultNormalizeScore(kMaxNodeScore, /*reverse=*/false, scores);
  return Status::Success();
}

std::vector<ClusterEventWithHint> NodeAffinity::EventsToRegister() const {
  return {{{EventResource::kNode, kAdd | kUpdateNodeLabel,
            "NodeAdd|UpdateNodeLabel"},
           [this](const api::Pod& pod, const EventObject& old_obj,
                  const EventObject& new_obj) {
             return IsSchedulableAfterNodeChange(pod, old_obj, new_obj);
           }}};
}

StatusOr<QueueingHint> NodeAffinity::IsSchedulableAfterNodeChange(
    const api::Pod& pod, const EventObject& old_obj,
    const EventObject& new_obj) const {
  auto objs = helper::As<api::Node>(old_obj, new_obj);
  if (!objs.ok()) return objs.status();
  if (objs->new_obj == nullptr) return QueueingHint::kSkip;
  const api::Node& modified = *objs->new_obj;
  if (!MatchesAddedSelector(modified)) return QueueingHint::kSkip;
  StatusOr<bool> is_matched = RequiredMatch(pod, modified);
  if (!is_matched.ok()) return is_matched.status();
  if (!*is_matched) return QueueingHint::kSkip;
  if (objs->old_obj == nullptr) return QueueingHint::kQueue;
  StatusOr<bool> was_matched = RequiredMatch(pod, *objs->old_obj);
  if (!was_matched.ok()) return was_matched.status();
  return *was_matched ? QueueingHint::kSkip : QueueingHint::kQueue;
}

}  // namespace schedref::reference::framework::plugins::nodeaffinity
