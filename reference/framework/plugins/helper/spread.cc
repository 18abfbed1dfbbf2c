#include "reference/framework/plugins/helper/spread.h"

#include <string>

namespace schedref::reference::framework::plugins::helper {
namespace {

// A Service's selector as labels.Set(...).Matches: every pair present.
bool SetMatches(const api::Labels& selector, const api::Labels& labels) {
  for (const auto& [k, v] : selector) {
    auto it = labels.find(k);
    if (it == labels.end() || it->second != v) return false;
  }
  return true;
}

}  // namespace

std::optional<api::LabelSelector> DefaultSelector(const api::Pod& pod,
                                                  const api::SelectorObjects& listers) {
  api::LabelSelector selector;
  const std::string prefix = pod.ns + "/";
  for (auto it = listers.services.lower_bound(prefix);
       it != listers.services.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it) {
    const api::Service& service = it->second;
    // A Service without a selector selects nothing, not everything.
    if (!service.selector.has_value() || !SetMatches(*service.selector, pod.labels)) continue;
    for (const auto& [k, v] : *service.selector) selector.match_labels[k] = v;
  }
  const api::OwnerReference* owner = nullptr;
  for (const api::OwnerReference& ref : pod.owner_references) {
    if (ref.controller) {
      owner = &ref;
      break;
    }
  }
  if (owner != nullptr) {
    const std::string key = prefix + owner->name;
    if (owner->api_version == "v1" && owner->kind == "ReplicationController") {
      auto rc = listers.replication_controllers.find(key);
      if (rc != listers.replication_controllers.end()) {
        for (const auto& [k, v] : rc->second.selector) selector.match_labels[k] = v;
      }
    } else if (owner->api_version == "apps/v1" &&
               (owner->kind == "ReplicaSet" || owner->kind == "StatefulSet")) {
      const api::LabelSelector* controller = nullptr;
      if (owner->kind == "ReplicaSet") {
        auto rs = listers.replica_sets.find(key);
        if (rs != listers.replica_sets.end()) controller = &rs->second.selector;
      } else {
        auto ss = listers.stateful_sets.find(key);
        if (ss != listers.stateful_sets.end()) controller = &ss->second.selector;
      }
      if (controller != nullptr) {
        // Its requirements are added to the Services' (a key both name
        // must then have both values), so its matchLabels become In
        // requirements beside the merged set.
        for (const auto& [k, v] : controller->match_labels) {
          selector.match_expressions.push_back({k, "In", {v}});
        }
        for (const api::LabelSelectorRequirement& r : controller->match_expressions) {
          selector.match_expressions.push_back(r);
        }
      }
    }
  }
  if (selector.match_labels.empty() && selector.match_expressions.empty()) return std::nullopt;
  return selector;
}

}  // namespace schedref::reference::framework::plugins::helper
