// PodTopologySpread construction, events and QueueingHints (upstream
// podtopologyspread/plugin.go).
#include <set>
#include <utility>

#include "reference/framework/plugins/helper/event_objects.h"
#include "reference/framework/plugins/names/names.h"
#include "reference/framework/plugins/podtopologyspread/pod_topology_spread.h"

namespace schedref::reference::framework::plugins::podtopologyspread {

StatusOr<std::unique_ptr<Plugin>> PodTopologySpread::New(
    const nlohmann::json& args, Handle* handle) {
  if (handle == nullptr) {
    return schedref::Status::Invalid("SnapshotSharedlister is nil");
  }
  StatusOr<PodTopologySpreadArgs> decoded =
      api::pluginargs::DecodePodTopologySpreadArgs(args);
  if (!decoded.ok()) return decoded.status();
  return std::unique_ptr<Plugin>(new PodTopologySpread(*decoded, handle));
}

PodTopologySpread::PodTopologySpread(PodTopologySpreadArgs args,
                                     Handle* handle)
    : handle_(handle), default_constraints_(std::move(args.default_constraints)) {
  if (args.defaulting_type == kSystemDefaulting) {
    default_constraints_ = api::pluginargs::SystemDefaultConstraints();
    system_defaulted_ = true;
  }
}

std::string PodTopologySpread::Name() const {
  return names::kPodTopologySpread;
}

std::vector<Constraint> PodTopologySpread::GetConstraints(
    const api::Pod& pod) const {
  if (!pod.topology_spread_constraints.empty()) {
    return FilterTopologySpreadConstraints(pod.topology_spread_constraints,
                                           pod.labels, kDoNotSchedule);
  }
  return BuildDefaultConstraints(default_constraints_, pod, kDoNotSchedule,
                                 handle_->SelectorListers());
}

std::vector<ClusterEventWithHint> PodTopologySpread::EventsToRegister() const {
  return {
      {{EventResource::kPod,
        kAdd | kUpdatePodLabel | kUpdatePodTolerations | kDelete,
        "PodAdd|UpdatePodLabel|UpdatePodTolerations|Delete"},
       [this](const api::Pod& pod, const EventObject& old_obj,
              const EventObject& new_obj) {
         return IsSchedulableAfterPodChange(pod, old_obj, new_obj);
       }},
      {{EventResource::kNode,
        kAdd | kDelete | kUpdateNodeLabel | kUpdateNodeTaint,
        "NodeAdd|Delete|UpdateNodeLabel|UpdateNodeTaint"},
       [this](const api::Pod& pod, const EventObject& old_obj,
              const EventObject& new_obj) {
         return IsSchedulableAfterNodeChange(pod, old_obj, new_obj);
       }},
  };
}

namespace {

// upstream involvedInTopologySpreading.
bool Involved(const api::Pod& incoming, const api::Pod& with_spreading) {
  return incoming.uid == with_spreading.uid ||
         (!incoming.node_name.empty() && incoming.ns == with_spreading.ns);
}

bool HasConstraintWithNodeTaintsPolicyHonor(
    const std::vector<Constraint>& constraints) {
  for (const Constraint& c : constraints) {
    if (c.node_taints_policy == kHonor) return true;
  }
  return false;
}

}  // namespace

StatusOr<QueueingHint> PodTopologySpread::IsSchedulableAfterPodChange(
    const api::Pod& pod, const EventObject& old_obj,
    const EventObject& new_obj) const {
  auto objs = helper::As<api::Pod>(old_obj, new_obj);
  if (!objs.ok()) return objs.status();
  const api::Pod* original = objs->old_obj;
  const api::Pod* modified = objs->new_obj;
  if ((modified != nullptr && !Involved(*modified, pod)) ||
      (original != nullptr && !Involved(*original, pod))) {
    return QueueingHint::kSkip;
  }
  const std::vector<Constraint> constraints = GetConstraints(pod);
  if (modified != nullptr && original != nullptr) {
    if (pod.uid == modified->uid &&
        modified->tolerations != original->tolerations &&
        HasConstraintWithNodeTaintsPolicyHonor(constraints)) {
      return QueueingHint::kQueue;
    }
    if (modified->labels == original->labels) return QueueingHint::kSkip;
    for (const Constraint& c : constraints) {
      if (SelectorMatches(c.selector, original->labels) !=
          SelectorMatches(c.selector, modified->labels)) {
        return QueueingHint::kQueue;
      }
    }
    return QueueingHint::kSkip;
  }
  const api::Pod* changed = modified != nullptr ? modified : original;
  if (changed == nullptr) return QueueingHint::kSkip;
  return PodLabelsMatchSpreadConstraints(constraints, changed->labels)
             ? QueueingHint::kQueue
             : QueueingHint::kSkip;
}

StatusOr<QueueingHint> PodTopologySpread::IsSchedulableAfterNodeChange(
    const api::Pod& pod, const EventObject& old_obj,
    const EventObject& new_obj) const {
  auto objs = helper::As<api::Node>(old_obj, new_obj);
  if (!objs.ok()) return objs.status();
  const api::Node* original = objs->old_obj;
  const api::Node* modified = objs->new_obj;
  const std::vector<Constraint> constraints = GetConstraints(pod);
  const bool original_matching =
      original != nullptr &&
      NodeLabelsMatchSpreadConstraints(original->labels, constraints);
  const bool modified_matching =
      modified != nullptr &&
      NodeLabelsMatchSpreadConstraints(modified->labels, constraints);
  if (original != nullptr && modified != nullptr) {
    if (original_matching != modified_matching) return QueueingHint::kQueue;
    if (modified_matching) {
      for (const Constraint& c : constraints) {
        auto value = [&](const api::Node& n) {
          auto it = n.labels.find(c.topology_key);
          return it == n.labels.end() ? std::string() : it->second;
        };
        if (value(*original) != value(*modified)) return QueueingHint::kQueue;
      }
      if (original->taints != modified->taints) return QueueingHint::kQueue;
    }
    return QueueingHint::kSkip;
  }
  if (modified != nullptr) {
    return modified_matching ? QueueingHint::kQueue : QueueingHint::kSkip;
  }
  return original_matching ? QueueingHint::kQueue : QueueingHint::kSkip;
}

}  // namespace schedref::reference::framework::plugins::podtopologyspread
