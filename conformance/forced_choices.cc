#include "conformance/forced_choices.h"

#include <map>
#include <utility>

#include "conformance/parallel_search.h"

namespace schedref::conformance {

namespace framework = reference::framework;

ForcedChoices::ForcedChoices(ForcedDecisions forced)
    : forced_(std::move(forced)) {}

void ForcedChoices::Refuse(std::string why) {
  if (!refusal_) refusal_ = std::move(why);
}

std::string ForcedChoices::Pop(const framework::PopChoice& choice) {
  auto forced = forced_.pops.find(choice.cycle);
  if (forced == forced_.pops.end()) return pinned_.Pop(choice);
  const std::string why = choice.why_not_tied(forced->second);
  if (why.empty()) return forced->second;
  Refuse("cycle " + std::to_string(choice.cycle) +
         ": queue pop not accepted: " + why);
  return pinned_.Pop(choice);
}

framework::SearchOutcome ForcedChoices::Search(
    const framework::SearchChoice& choice) {
  auto forced = forced_.searches.find(choice.cycle);
  if (forced == forced_.searches.end() || choice.nodes.empty()) {
    return pinned_.Search(choice);
  }
  const std::string what = "cycle " + std::to_string(choice.cycle) +
                           ": feasible-node search not accepted: ";
  if (!choice.has_filters) {
    Refuse(what +
           "the profile has no Filter plugins, so upstream takes the nodes "
           "from the start index without a search");
    return pinned_.Search(choice);
  }
  // Every node's verdict, in check order.
  std::vector<CheckedNode> checked;
  std::vector<framework::Status> statuses;
  std::map<std::string, size_t> position;
  for (size_t i = 0; i < choice.nodes.size(); ++i) {
    const framework::NodeInfo& node = *choice.nodes[i];
    framework::Status s = choice.filter(node);
    if (s.code() == framework::Code::kError) {
      Refuse(what + "a filter fails with an error on node " + node.Name() +
             " (" + s.Message() + ")");
      return pinned_.Search(choice);
    }
    checked.push_back({node.Name(), s.IsSuccess()});
    statuses.push_back(std::move(s));
    position[node.Name()] = i;
  }
  const ForcedSearch& want = forced->second;
  std::string why = WhyNotReachable(checked, choice.to_find, choice.parallelism,
                                    want.feasible, want.rejected);
  // The nominated node that failed just before is rejected whether or not
  // the search checked it again.
  if (!why.empty() && !choice.rejected_before.empty() &&
      want.rejected.count(choice.rejected_before) > 0) {
    std::set<std::string> searched = want.rejected;
    searched.erase(choice.rejected_before);
    if (WhyNotReachable(checked, choice.to_find, choice.parallelism,
                        want.feasible, searched)
            .empty()) {
      why.clear();
    }
  }
  if (!why.empty()) {
    Refuse(what + why);
    return pinned_.Search(choice);
  }
  framework::SearchOutcome out;
  for (const std::string& name : want.feasible) {
    out.feasible.push_back(position.at(name));
  }
  for (const std::string& name : want.rejected) {
    auto p = position.find(name);
    // Not among the searched nodes: the nominated node, rejected already.
    if (p == position.end()) continue;
    out.rejected.emplace_back(p->second, statuses[p->second]);
  }
  return out;
}

size_t ForcedChoices::SelectHost(const framework::HostChoice& choice) {
  auto forced = forced_.choices.find(choice.cycle);
  if (forced == forced_.choices.end()) return pinned_.SelectHost(choice);
  for (size_t i = 0; i < choice.tied.size(); ++i) {
    if (choice.tied[i] == forced->second) return i;
  }
  Refuse("cycle " + std::to_string(choice.cycle) + ": node " + forced->second +
         " does not tie for the highest score");
  return pinned_.SelectHost(choice);
}

framework::PreemptionPick ForcedChoices::Preemption(
    const framework::PreemptionChoice& choice) {
  auto forced = forced_.nominations.find(choice.cycle);
  if (forced == forced_.nominations.end()) return pinned_.Preemption(choice);
  const std::string& node = forced->second;
  const std::string what = "cycle " + std::to_string(choice.cycle) +
                           ": preemption nomination not accepted: ";
  if (choice.best.empty()) {
    // A dry run without candidates tried every node: no offset finds one.
    Refuse(what + "no node is a candidate, so " + node +
           " cannot be nominated");
    return pinned_.Preemption(choice);
  }
  for (int32_t offset = 0; offset < choice.num_offsets; ++offset) {
    for (const std::string& best : choice.best_from(offset)) {
      if (best == node) return {offset, node};
    }
  }
  Refuse(what + "node " + node +
         " is not one of the best candidates of the dry run from any offset");
  return pinned_.Preemption(choice);
}

StatusOr<api::Trace> RunForced(reference::ReferenceScheduler& oracle,
                               const api::Scenario& scenario,
                               const api::RunOptions& options,
                               const ForcedDecisions& forced,
                               std::optional<std::string>* refusal) {
  ForcedChoices choices(forced);
  StatusOr<api::Trace> trace = oracle.Run(scenario, options, choices);
  if (refusal != nullptr) *refusal = choices.refusal();
  return trace;
}

}  // namespace schedref::conformance
