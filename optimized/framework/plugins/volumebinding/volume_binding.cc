#include "optimized/framework/plugins/volumebinding/volume_binding.h"

#include <map>
#include <memory>
#include <optional>
#include <utility>

#include "api/config/pluginargs/volumebinding_args.h"
#include "optimized/framework/plugins/names/names.h"

namespace schedref::optimized::framework::plugins::volumebinding {
namespace {

// PreFilter's claims, and what Reserve decided (upstream's stateData, whose
// Clone shares it; Filter writes nothing here).
struct SharedState {
  bool all_bound = false;
  bool skipped = false;  // PreFilter returned Skip
  PodVolumeClaims claims;
  // The node Reserve assumed for, and what it assumed.
  std::optional<std::string> reserved_node;
  PodVolumes reserved;
  // PreBind: set once the API updates are written; the wait ends at
  // `bind_deadline` (wall clock, ms).
  bool api_updated = false;
  api::TimeMs bind_deadline = 0;
};
class State final : public StateData {
 public:
  explicit State(std::shared_ptr<SharedState> data) : data(std::move(data)) {}
  std::unique_ptr<StateData> Clone() const override { return std::make_unique<State>(data); }
  std::shared_ptr<SharedState> data;
};

const int kStateKey = CycleState::NewKey();

SharedState* ReadStateData(const CycleState& state) {
  auto* s = state.ReadAs<State>(kStateKey);
  return s == nullptr ? nullptr : s->data.get();
}

Status NotFound() {
  return Status::Error(std::string("reading \"") + names::kVolumeBinding +
                       "\" from cycleState: not found");
}

}  // namespace

StatusOr<std::unique_ptr<framework::Plugin>> VolumeBinding::New(const nlohmann::json& args,
                                                                framework::Handle* handle) {
  auto decoded = api::pluginargs::DecodeVolumeBindingArgs(args);
  if (!decoded.ok()) return decoded.status();
  return std::unique_ptr<framework::Plugin>(new VolumeBinding(handle, decoded->bind_timeout_seconds));
}

std::string VolumeBinding::Name() const { return names::kVolumeBinding; }

PreFilterOutput VolumeBinding::PreFilter(CycleState& state, const PodInfo& pod_info,
                                         const std::vector<NodeInfo*>& /*nodes*/) {
  const api::Pod& pod = pod_info.pod;
  const api::StorageObjects& listers = handle_->StorageListers();
  bool has_pvc = false;
  for (const api::Volume& vol : pod.volumes) {
    const std::optional<std::string> name = PodVolumeClaimName(pod, vol);
    if (!name.has_value()) continue;
    const bool ephemeral = vol.source.kind == "ephemeral";
    has_pvc = true;
    const api::PersistentVolumeClaim* pvc = listers.Claim(pod.ns, *name);
    std::optional<std::string> err;
    if (pvc == nullptr) {
      err = ephemeral ? "waiting for ephemeral volume controller to create the "
                        "persistentvolumeclaim \"" + *name + "\""
                      : "persistentvolumeclaim \"" + *name + "\" not found";
    } else if (pvc->phase == "Lost") {
      err = "persistentvolumeclaim \"" + pvc->name + "\" bound to non-existent persistentvolume \"" +
            pvc->spec.volume_name + "\"";
    } else if (pvc->deletion_timestamp.has_value()) {
      err = "persistentvolumeclaim \"" + pvc->name + "\" is being deleted";
    } else if (ephemeral && !ClaimIsForPod(pod, *pvc)) {
      err = NotOwnerMessage(pod, *pvc);
    }
    if (err.has_value()) {
      return {std::nullopt, Status(Code::kUnschedulableAndUnresolvable, *err)};
    }
  }
  if (!has_pvc) {
    auto data = std::make_shared<SharedState>();
    data->skipped = true;
    state.Write(kStateKey, std::make_unique<State>(std::move(data)));
    return {std::nullopt, Status::Skip()};
  }
  StatusOr<PodVolumeClaims> claims = GetPodVolumeClaims(pod, listers, assumed_);
  if (!claims.ok()) return {std::nullopt, Status::Error(claims.status().message())};
  if (!claims->unbound_immediate.empty()) {
    return {std::nullopt, Status(Code::kUnschedulableAndUnresolvable, kErrUnboundImmediate)};
  }
  auto data = std::make_shared<SharedState>();
  data->claims = std::move(*claims);
  data->claims.unbound_immediate.clear();
  state.Write(kStateKey, std::make_unique<State>(std::move(data)));
  return {std::nullopt, Status::Success()};
}

Status VolumeBinding::Filter(const CycleState& state, const PodInfo& pod,
                             const NodeInfo& node) const {
  const SharedState* data = ReadStateData(state);
  if (data == nullptr) return NotFound();
  StatusOr<FindResult> found =
      FindPodVolumes(pod.pod, data->claims, *node.node(), handle_->StorageListers());
  if (!found.ok()) return Status::Error(found.status().message());
  if (!found->reasons.empty()) {
    return Status(Code::kUnschedulableAndUnresolvable, found->reasons);
  }
  return Status::Success();
}

Status VolumeBinding::PreScore(CycleState& /*state*/, const PodInfo& /*pod*/,
                               const std::vector<const NodeInfo*>& /*nodes*/) {
  return Status::Skip();
}

ScoreOutput VolumeBinding::Score(const CycleState& /*state*/, const PodInfo& /*pod*/,
                                 const NodeInfo& /*node*/) const {
  return {0, Status::Success()};
}

Status VolumeBinding::Reserve(CycleState& state, const PodInfo& pod,
                              const std::string& node_name) {
  SharedState* data = ReadStateData(state);
  if (data == nullptr) return NotFound();
  const NodeInfo* node =
      data->skipped ? nullptr : handle_->SnapshotSharedLister().Get(node_name);
  if (node == nullptr || node->node() == nullptr) {
    data->all_bound = true;
    return Status::Success();
  }
  // What Filter found on this node (see the header).
  StatusOr<FindResult> found =
      FindPodVolumes(pod.pod, data->claims, *node->node(), handle_->StorageListers());
  if (!found.ok() || !found->reasons.empty()) {
    data->all_bound = true;
    return Status::Success();
  }
  PodVolumes volumes = std::move(found->volumes);
  StatusOr<bool> all_bound =
      AssumePodVolumes(pod.pod, node_name, volumes, handle_->StorageListers(), assumed_);
  if (!all_bound.ok()) return Status::Error(all_bound.status().message());
  data->all_bound = *all_bound;
  data->reserved_node = node_name;
  data->reserved = std::move(volumes);
  return Status::Success();
}

void VolumeBinding::Unreserve(CycleState& state, const PodInfo& /*pod*/,
                              const std::string& node_name) {
  SharedState* data = ReadStateData(state);
  if (data == nullptr || data->reserved_node != node_name) return;
  RevertAssumedPodVolumes(data->reserved, assumed_);
}

Status VolumeBinding::PreBind(CycleState& state, const PodInfo& pod,
                              const std::string& node_name) {
  SharedState* data = ReadStateData(state);
  if (data == nullptr) return NotFound();
  if (data->all_bound) return Status::Success();
  if (data->reserved_node != node_name) {
    return Status::Error("no pod volumes found for node \"" + node_name + "\"");
  }
  const PodVolumes& volumes = data->reserved;
  if (!data->api_updated) {
    // bindAPIUpdate: the assumed PVs, then the assumed claims (always
    // succeeding, docs/deviations.md, VolumeBinding).
    for (const BindingInfo& b : volumes.static_bindings) handle_->WriteStorageObject(b.pv);
    for (const api::PersistentVolumeClaim& c : volumes.dynamic_provisions) {
      handle_->WriteStorageObject(c);
    }
    data->api_updated = true;
    data->bind_deadline = handle_->Now() + bind_timeout_seconds_ * 1000;
    if (bind_timeout_seconds_ == 0) {
      return Status::Error("binding volumes: context deadline exceeded");
    }
    return Status(Code::kWait, "waiting for the volume binding");
  }
  // The deadline wins over a check due at the same instant.
  if (handle_->Now() >= data->bind_deadline) {
    return Status::Error("binding volumes: context deadline exceeded");
  }
  api::Pod bound = pod.pod;
  bound.node_name = node_name;
  StatusOr<bool> done = CheckBindings(bound, volumes);
  if (!done.ok()) return Status::Error("binding volumes: " + done.status().message());
  if (*done) return Status::Success();
  return Status(Code::kWait, "waiting for the volume binding");
}

StatusOr<bool> VolumeBinding::CheckBindings(const api::Pod& pod,
                                            const PodVolumes& volumes) const {
  const api::StorageObjects& listers = handle_->StorageListers();
  const NodeInfo* info = handle_->SnapshotSharedLister().Get(pod.node_name);
  if (info == nullptr || info->node() == nullptr) {
    return schedref::Status::Invalid("failed to get node \"" + pod.node_name + "\": node \"" +
                                     pod.node_name + "\" not found");
  }
  const api::Node& node = *info->node();
  if (!handle_->GetPod(pod.Key()).has_value()) {
    return schedref::Status::Invalid("pod does not exist any more: pod \"" + pod.name +
                                     "\" not found");
  }
  auto affinity_error = [&](const api::PersistentVolume& pv) {
    return schedref::Status::Invalid("pv \"" + pv.name + "\" node affinity doesn't match node \"" +
                                     node.name + "\": no matching NodeSelectorTerms");
  };
  for (const BindingInfo& b : volumes.static_bindings) {
    const api::PersistentVolume* pv = listers.Volume(b.pv.name);
    if (pv == nullptr) {
      return schedref::Status::Invalid(
          "failed to check binding: could not find v1.PersistentVolume \"" + b.pv.name + "\"");
    }
    const api::PersistentVolumeClaim* pvc = listers.Claim(b.pvc.ns, b.pvc.name);
    if (pvc == nullptr) {
      return schedref::Status::Invalid(
          "failed to check binding: could not find v1.PersistentVolumeClaim \"" + b.pvc.Key() +
          "\"");
    }
    if (!VolumeNodeAffinityMatches(*pv, node.labels)) return affinity_error(*pv);
    if (!pv->claim_ref.has_value() || pv->claim_ref->uid.empty()) {
      return schedref::Status::Invalid("ClaimRef got reset for pv \"" + pv->name + "\"");
    }
    if (!ClaimFullyBound(*pvc)) return false;
  }
  for (const api::PersistentVolumeClaim& c : volumes.dynamic_provisions) {
    const api::PersistentVolumeClaim* pvc = listers.Claim(c.ns, c.name);
    if (pvc == nullptr) {
      return schedref::Status::Invalid(
          "failed to check provisioning pvc: could not find v1.PersistentVolumeClaim \"" +
          c.Key() + "\"");
    }
    // Note: an empty annotations map stands for upstream's nil map.
    auto selected = pvc->annotations.find(api::kAnnSelectedNode);
    if (pvc->annotations.empty()) {
      return schedref::Status::Invalid("selectedNode annotation reset for PVC \"" + pvc->name +
                                       "\"");
    }
    if (selected == pvc->annotations.end() || selected->second != pod.node_name) {
      return schedref::Status::Invalid("provisioning failed for PVC \"" + pvc->name + "\"");
    }
    if (!pvc->spec.volume_name.empty()) {
      const api::PersistentVolume* pv = listers.Volume(pvc->spec.volume_name);
      if (pv == nullptr) return false;
      if (!VolumeNodeAffinityMatches(*pv, node.labels)) return affinity_error(*pv);
    }
    if (!ClaimFullyBound(*pvc)) return false;
  }
  return true;
}

std::vector<ClusterEventWithHint> VolumeBinding::EventsToRegister() const {
  return {
      {{EventResource::kStorageClass, kAdd | kUpdate, "StorageClassAdd|Update"},
       &VolumeBinding::IsSchedulableAfterStorageClassChange},
      {{EventResource::kPersistentVolumeClaim, kAdd | kUpdate,
        "PersistentVolumeClaimAdd|Update"},
       &VolumeBinding::IsSchedulableAfterPersistentVolumeClaimChange},
      {{EventResource::kPersistentVolume, kAdd | kUpdate, "PersistentVolumeAdd|Update"},
       nullptr},
      {{EventResource::kNode, kAdd | kUpdateNodeLabel, "NodeAdd|UpdateNodeLabel"}, nullptr},
      {{EventResource::kCSINode, kAdd | kUpdate, "CSINodeAdd|Update"},
       &VolumeBinding::IsSchedulableAfterCSINodeChange},
      {{EventResource::kCSIDriver, kUpdate, "CSIDriverUpdate"},
       &VolumeBinding::IsSchedulableAfterCSIDriverChange},
      {{EventResource::kCSIStorageCapacity, kAdd | kUpdate, "CSIStorageCapacityAdd|Update"},
       &VolumeBinding::IsSchedulableAfterCSIStorageCapacityChange},
  };
}

StatusOr<QueueingHint> VolumeBinding::IsSchedulableAfterStorageClassChange(
    const api::Pod& /*pod*/, const EventObjects& objects) {
  if (objects.new_class == nullptr) return QueueingHint::kSkip;
  if (objects.old_class == nullptr) return QueueingHint::kQueue;
  return objects.old_class->allowed_topologies != objects.new_class->allowed_topologies
             ? QueueingHint::kQueue
             : QueueingHint::kSkip;
}

StatusOr<QueueingHint> VolumeBinding::IsSchedulableAfterPersistentVolumeClaimChange(
    const api::Pod& pod, const EventObjects& objects) {
  const api::PersistentVolumeClaim* pvc = objects.new_pvc;
  if (pvc == nullptr || pvc->ns != pod.ns) return QueueingHint::kSkip;
  for (const api::Volume& vol : pod.volumes) {
    const std::optional<std::string> name = PodVolumeClaimName(pod, vol);
    if (name.has_value() && *name == pvc->name) return QueueingHint::kQueue;
  }
  return QueueingHint::kSkip;
}

StatusOr<QueueingHint> VolumeBinding::IsSchedulableAfterCSINodeChange(
    const api::Pod& /*pod*/, const EventObjects& objects) {
  if (objects.new_csi_node == nullptr) return QueueingHint::kSkip;
  if (objects.old_csi_node == nullptr) return QueueingHint::kQueue;
  auto migrated = [](const api::CSINode& n) {
    auto it = n.annotations.find(api::kAnnMigratedPlugins);
    return it == n.annotations.end() ? std::string() : it->second;
  };
  return migrated(*objects.old_csi_node) != migrated(*objects.new_csi_node)
             ? QueueingHint::kQueue
             : QueueingHint::kSkip;
}

StatusOr<QueueingHint> VolumeBinding::IsSchedulableAfterCSIDriverChange(
    const api::Pod& pod, const EventObjects& objects) {
  const api::CSIDriver* old_driver = objects.old_csi_driver;
  const api::CSIDriver* new_driver = objects.new_csi_driver;
  if (new_driver == nullptr || old_driver == nullptr) return QueueingHint::kSkip;
  for (const api::Volume& vol : pod.volumes) {
    if (vol.source.kind != "csi" || vol.source.driver != new_driver->name) continue;
    if (old_driver->storage_capacity && !new_driver->storage_capacity) {
      return QueueingHint::kQueue;
    }
  }
  return QueueingHint::kSkip;
}

StatusOr<QueueingHint> VolumeBinding::IsSchedulableAfterCSIStorageCapacityChange(
    const api::Pod& /*pod*/, const EventObjects& objects) {
  if (objects.new_capacity == nullptr) return QueueingHint::kSkip;
  if (objects.old_capacity == nullptr) return QueueingHint::kQueue;
  auto limit = [](const api::CSIStorageCapacity& c) {
    return c.maximum_volume_size.has_value() ? c.maximum_volume_size : c.capacity;
  };
  const std::optional<int64_t> old_limit = limit(*objects.old_capacity);
  const std::optional<int64_t> new_limit = limit(*objects.new_capacity);
  if (new_limit.has_value() && (!old_limit.has_value() || *new_limit > *old_limit)) {
    return QueueingHint::kQueue;
  }
  return QueueingHint::kSkip;
}

}  // namespace schedref::optimized::framework::plugins::volumebinding
