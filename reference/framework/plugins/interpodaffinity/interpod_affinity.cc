#include "reference/framework/plugins/interpodaffinity/interpod_affinity.h"

#include <optional>
#include <string>
#include <utility>

#include "reference/framework/plugins/helper/event_objects.h"
#include "reference/framework/plugins/names/names.h"

namespace schedref::reference::framework::plugins::interpodaffinity {

StatusOr<std::unique_ptr<Plugin>> InterPodAffinity::New(
    const nlohmann::json& args, Handle* handle) {
  if (handle == nullptr) {
    return schedref::Status::Invalid("SnapshotSharedlister is nil");
  }
  StatusOr<InterPodAffinityArgs> decoded =
      api::pluginargs::DecodeInterPodAffinityArgs(args);
  if (!decoded.ok()) return decoded.status();
  return std::unique_ptr<Plugin>(new InterPodAffinity(*decoded, handle));
}

InterPodAffinity::InterPodAffinity(InterPodAffinityArgs args, Handle* handle)
    : args_(args), handle_(handle) {}

std::string InterPodAffinity::Name() const { return names::kInterPodAffinity; }

std::vector<ClusterEventWithHint> InterPodAffinity::EventsToRegister() const {
  return {
      {{EventResource::kPod, kAdd | kUpdatePodLabel | kDelete,
        "PodAdd|UpdatePodLabel|Delete"},
       &InterPodAffinity::IsSchedulableAfterPodChange},
      {{EventResource::kNode, kAdd | kUpdateNodeLabel,
        "NodeAdd|UpdateNodeLabel"},
       &InterPodAffinity::IsSchedulableAfterNodeChange},
  };
}

StatusOr<QueueingHint> InterPodAffinity::IsSchedulableAfterPodChange(
    const api::Pod& pod, const EventObject& old_obj,
    const EventObject& new_obj) {
  auto objs = helper::As<api::Pod>(old_obj, new_obj);
  if (!objs.ok()) return objs.status();
  const api::Pod* original = objs->old_obj;
  const api::Pod* modified = objs->new_obj;
  if ((modified != nullptr && modified->node_name.empty()) ||
      (original != nullptr && original->node_name.empty())) {
    return QueueingHint::kSkip;
  }
  // Upstream builds these terms without merging namespaceSelectors, so a
  // selector is matched against empty namespace labels here.
  const std::vector<AffinityTerm> terms = RequiredAffinityTerms(pod);
  const std::vector<AffinityTerm> anti_terms = RequiredAntiAffinityTerms(pod);
  if (modified != nullptr && original != nullptr) {
    if (!PodMatchesAllAffinityTerms(terms, *original) &&
        PodMatchesAllAffinityTerms(terms, *modified)) {
      return QueueingHint::kQueue;
    }
    if (PodMatchesAllAffinityTerms(anti_terms, *original) &&
        !PodMatchesAllAffinityTerms(anti_terms, *modified)) {
      return QueueingHint::kQueue;
    }
    return QueueingHint::kSkip;
  }
  if (modified != nullptr) {
    return PodMatchesAllAffinityTerms(terms, *modified) ? QueueingHint::kQueue
                                                        : QueueingHint::kSkip;
  }
  if (original == nullptr) return QueueingHint::kSkip;
  return PodMatchesAllAffinityTerms(anti_terms, *original)
             ? QueueingHint::kQueue
             : QueueingHint::kSkip;
}

StatusOr<QueueingHint> InterPodAffinity::IsSchedulableAfterNodeChange(
    const api::Pod& pod, const EventObject& old_obj,
    const EventObject& new_obj) {
  auto objs = helper::As<api::Node>(old_obj, new_obj);
  if (!objs.ok()) return objs.status();
  const api::Node* original = objs->old_obj;
  const api::Node* modified = objs->new_obj;
  if (modified == nullptr) return QueueingHint::kSkip;
  auto value_of = [](const api::Node& node, const std::string& key)
      -> std::optional<std::string> {
    auto it = node.labels.find(key);
    if (it == node.labels.end()) return std::nullopt;
    return it->second;
  };
  // Affinity: a new node with the key; an updated node that gained the key
  // or changed its value.
  for (const AffinityTerm& t : RequiredAffinityTerms(pod)) {
    std::optional<std::string> now = value_of(*modified, t.topology_key);
    if (original == nullptr) {
      if (now) return QueueingHint::kQueue;
      continue;
    }
    std::optional<std::string> before = value_of(*original, t.topology_key);
    if (!before && now) return QueueingHint::kQueue;
    if (before && now && *before != *now) return QueueingHint::kQueue;
  }
  // Anti-affinity: any new node; an updated node that lost the key or
  // changed its value.
  for (const AffinityTerm& t : RequiredAntiAffinityTerms(pod)) {
    if (original == nullptr) return QueueingHint::kQueue;
    std::optional<std::string> before = value_of(*original, t.topology_key);
    std::optional<std::string> now = value_of(*modified, t.topology_key);
    if (before && !now) return QueueingHint::kQueue;
    if (before && now && *before != *now) return QueueingHint::kQueue;
  }
  return QueueingHint::kSkip;
}

}  // namespace schedref::reference::framework::plugins::interpodaffinity
