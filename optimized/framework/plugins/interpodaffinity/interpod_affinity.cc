// InterPodAffinity construction, events and QueueingHints (upstream
// interpodaffinity/plugin.go, v1.32 with the node hint of PR #127470).
#include "optimized/framework/plugins/interpodaffinity/interpod_affinity.h"

#include <optional>
#include <string>
#include <utility>

#include "optimized/framework/plugins/interpodaffinity/affinity_match.h"
#include "optimized/framework/plugins/names/names.h"

namespace schedref::optimized::framework::plugins::interpodaffinity {

StatusOr<std::unique_ptr<Plugin>> InterPodAffinity::New(const nlohmann::json& args,
                                                        Handle* handle) {
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
      {{EventResource::kNode, kAdd | kUpdateNodeLabel, "NodeAdd|UpdateNodeLabel"},
       &InterPodAffinity::IsSchedulableAfterNodeChange},
  };
}

namespace {

// The pod's required terms of one kind, as PodInfo would hold them.
// Upstream's hints build them without merging namespaceSelectors, so a
// selector is matched against empty namespace labels.
std::vector<AffinityTerm> RequiredTerms(const api::Pod& pod, bool anti) {
  std::vector<AffinityTerm> out;
  if (!pod.affinity) return out;
  const std::optional<api::PodAffinity>& a =
      anti ? pod.affinity->pod_anti_affinity : pod.affinity->pod_affinity;
  if (!a) return out;
  for (const api::PodAffinityTerm& t : a->required) {
    out.push_back(MakeAffinityTerm(pod, t));
  }
  return out;
}

std::optional<std::string> LabelValue(const api::Node& node, const std::string& key) {
  auto it = node.labels.find(key);
  if (it == node.labels.end()) return std::nullopt;
  return it->second;
}

}  // namespace

StatusOr<QueueingHint> InterPodAffinity::IsSchedulableAfterPodChange(
    const api::Pod& pod, const EventObjects& objects) {
  const api::Pod* original = objects.old_pod;
  const api::Pod* modified = objects.new_pod;
  if ((modified != nullptr && modified->node_name.empty()) ||
      (original != nullptr && original->node_name.empty())) {
    return QueueingHint::kSkip;
  }
  const std::vector<AffinityTerm> terms = RequiredTerms(pod, /*anti=*/false);
  const std::vector<AffinityTerm> anti_terms = RequiredTerms(pod, /*anti=*/true);
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
  return PodMatchesAllAffinityTerms(anti_terms, *original) ? QueueingHint::kQueue
                                                           : QueueingHint::kSkip;
}

StatusOr<QueueingHint> InterPodAffinity::IsSchedulableAfterNodeChange(
    const api::Pod& pod, const EventObjects& objects) {
  const api::Node* original = objects.old_node;
  const api::Node* modified = objects.new_node;
  if (modified == nullptr) return QueueingHint::kSkip;
  // Affinity: a new node with the key; an updated node that gained the key
  // or changed its value.
  for (const AffinityTerm& t : RequiredTerms(pod, /*anti=*/false)) {
    const std::optional<std::string> now = LabelValue(*modified, t.topology_key);
    if (original == nullptr) {
      if (now) return QueueingHint::kQueue;
      continue;
    }
    const std::optional<std::string> before = LabelValue(*original, t.topology_key);
    if (!before && now) return QueueingHint::kQueue;
    if (before && now && *before != *now) return QueueingHint::kQueue;
  }
  // Anti-affinity: any new node; an updated node that lost the key or
  // changed its value.
  for (const AffinityTerm& t : RequiredTerms(pod, /*anti=*/true)) {
    if (original == nullptr) return QueueingHint::kQueue;
    const std::optional<std::string> before = LabelValue(*original, t.topology_key);
    const std::optional<std::string> now = LabelValue(*modified, t.topology_key);
    if (before && !now) return QueueingHint::kQueue;
    if (before && now && *before != *now) return QueueingHint::kQueue;
  }
  return QueueingHint::kSkip;
}

}  // namespace schedref::optimized::framework::plugins::interpodaffinity
