#include "reference/framework/plugins/volumezone/volume_zone.h"

#include <string_view>
#include <utility>

#include "reference/framework/plugins/helper/event_objects.h"
#include "reference/framework/plugins/helper/typed_state.h"
#include "reference/framework/plugins/names/names.h"

namespace schedref::reference::framework::plugins::volumezone {
namespace {

const std::string kPreFilterStateKey = std::string("PreFilter") + names::kVolumeZone;

constexpr char kBetaZone[] = "failure-domain.beta.kubernetes.io/zone";
constexpr char kBetaRegion[] = "failure-domain.beta.kubernetes.io/region";
constexpr char kZone[] = "topology.kubernetes.io/zone";
constexpr char kRegion[] = "topology.kubernetes.io/region";

// The GA form of a beta label; any other key as it is (beta -> GA only).
std::string TranslateToGALabel(const std::string& key) {
  if (key == kBetaRegion) return kRegion;
  if (key == kBetaZone) return kZone;
  return key;
}

// Note: Go's strings.TrimSpace also trims non-ASCII Unicode spaces; a label
// value cannot hold any whitespace (label value syntax), so trimming ASCII
// whitespace decides the same (docs/deviations.md "VolumeZone").
std::string_view TrimSpace(std::string_view s) {
  constexpr std::string_view kSpace = " \t\n\v\f\r";
  const size_t begin = s.find_first_not_of(kSpace);
  if (begin == std::string_view::npos) return {};
  const size_t end = s.find_last_not_of(kSpace);
  return s.substr(begin, end - begin + 1);
}

// The persistentVolumeClaim volumes' claim names, in volume order
// (duplicates and empty names kept).
std::vector<std::string> ClaimNames(const api::Pod& pod) {
  std::vector<std::string> out;
  for (const api::Volume& v : pod.volumes) {
    if (v.source.kind == "persistentVolumeClaim") out.push_back(v.source.claim_name);
  }
  return out;
}

// component-helpers GetPersistentVolumeClaimClass: the beta annotation if
// present (even ""), else spec.storageClassName, else "".
std::string ClaimClass(const api::PersistentVolumeClaim& pvc) {
  auto it = pvc.annotations.find(api::kAnnBetaStorageClass);
  if (it != pvc.annotations.end()) return it->second;
  return pvc.spec.storage_class_name.value_or("");
}

Status Unresolvable(std::string reason) {
  return Status(Code::kUnschedulableAndUnresolvable, std::move(reason));
}

}  // namespace

const std::vector<std::string>& TopologyLabels() {
  static const std::vector<std::string>* const labels =
      new std::vector<std::string>{kBetaZone, kBetaRegion, kZone, kRegion};
  return *labels;
}

std::optional<std::set<std::string>> LabelZonesToSet(const std::string& value) {
  std::set<std::string> out;
  std::string_view rest = value;
  while (true) {
    const size_t at = rest.find("__");
    const std::string_view piece = TrimSpace(rest.substr(0, at));
    if (piece.empty()) return std::nullopt;
    out.insert(std::string(piece));
    if (at == std::string_view::npos) break;
    rest = rest.substr(at + 2);
  }
  return out;
}

std::vector<PVTopology> GetPVTopologies(const api::PersistentVolume& pv) {
  std::vector<PVTopology> out;
  for (const std::string& key : TopologyLabels()) {
    auto it = pv.labels.find(key);
    if (it == pv.labels.end()) continue;
    std::optional<std::set<std::string>> values = LabelZonesToSet(it->second);
    if (!values.has_value()) continue;  // upstream logs and ignores the label
    out.push_back({pv.name, key, std::move(*values)});
  }
  return out;
}

StatusOr<std::unique_ptr<Plugin>> VolumeZone::New(const nlohmann::json& /*args*/,
                                                  Handle* handle) {
  return std::unique_ptr<Plugin>(new VolumeZone(handle));
}

std::string VolumeZone::Name() const { return names::kVolumeZone; }

Status VolumeZone::PodPVTopologies(const api::Pod& pod,
                                   std::vector<PVTopology>* out) const {
  const api::StorageObjects& storage = handle_->StorageListers();
  for (const std::string& claim_name : ClaimNames(pod)) {
    if (claim_name.empty()) return Unresolvable("PersistentVolumeClaim had no name");
    const api::PersistentVolumeClaim* pvc = storage.Claim(pod.ns, claim_name);
    if (pvc == nullptr) {
      return Unresolvable("persistentvolumeclaim \"" + claim_name + "\" not found");
    }
    const std::string& pv_name = pvc->spec.volume_name;
    if (pv_name.empty()) {
      const std::string class_name = ClaimClass(*pvc);
      if (class_name.empty()) {
        return Unresolvable("PersistentVolumeClaim had no pv name and storageClass name");
      }
      const api::StorageClass* sc = storage.Class(class_name);
      if (sc == nullptr) {
        return Unresolvable("storageclass.storage.k8s.io \"" + class_name + "\" not found");
      }
      // "" is upstream's nil mode; the decoder defaults it to Immediate as
      // the API server does, so only code-built classes have it.
      if (sc->volume_binding_mode.empty()) {
        return Unresolvable("VolumeBindingMode not set for StorageClass \"" + class_name + "\"");
      }
      if (sc->volume_binding_mode == api::kVolumeBindingWaitForFirstConsumer) continue;
      return Unresolvable("PersistentVolume had no name");
    }
    const api::PersistentVolume* pv = storage.Volume(pv_name);
    if (pv == nullptr) {
      return Unresolvable("persistentvolume \"" + pv_name + "\" not found");
    }
    for (PVTopology& t : GetPVTopologies(*pv)) out->push_back(std::move(t));
  }
  return Status::Success();
}

PreFilterOutput VolumeZone::PreFilter(CycleState& state, const api::Pod& pod,
                                      const std::vector<const NodeInfo*>& /*nodes*/) {
  std::vector<PVTopology> topologies;
  Status s = PodPVTopologies(pod, &topologies);
  if (!s.IsSuccess()) return {std::nullopt, s};
  if (topologies.empty()) return {std::nullopt, Status::Skip()};
  helper::WriteState(state, kPreFilterStateKey, std::move(topologies));
  return {std::nullopt, Status::Success()};
}

Status VolumeZone::Filter(CycleState& state, const api::Pod& pod, const NodeInfo& node) {
  if (pod.volumes.empty()) return Status::Success();
  std::vector<PVTopology> computed;
  const std::vector<PVTopology>* topologies =
      helper::ReadState<std::vector<PVTopology>>(state, kPreFilterStateKey);
  if (topologies == nullptr) {
    // Only when PreFilter did not run (unit tests), as upstream.
    Status s = PodPVTopologies(pod, &computed);
    if (!s.IsSuccess()) return s;
    topologies = &computed;
  }
  const api::Labels& labels = node.node->labels;
  bool zoned = false;
  for (const std::string& key : TopologyLabels()) zoned = zoned || labels.contains(key);
  // A node without any topology label takes every pod (single-zone clusters).
  if (!zoned) return Status::Success();
  for (const PVTopology& t : *topologies) {
    auto it = labels.find(t.key);
    if (it == labels.end()) it = labels.find(TranslateToGALabel(t.key));
    if (it == labels.end() || !t.values.contains(it->second)) {
      return Unresolvable(kErrReasonConflict);
    }
  }
  return Status::Success();
}

std::vector<ClusterEventWithHint> VolumeZone::EventsToRegister() const {
  return {
      // volumeBindingMode is immutable, so class updates cannot matter.
      {{EventResource::kStorageClass, kAdd, "StorageClassAdd"},
       &VolumeZone::IsSchedulableAfterStorageClassAdded},
      // No hint. With SchedulerQueueingHints on, taint updates are left out.
      {{EventResource::kNode, kAdd | kUpdateNodeLabel, "NodeAdd|UpdateNodeLabel"}, nullptr},
      {{EventResource::kPersistentVolumeClaim, kAdd | kUpdate, "PersistentVolumeClaimAdd|Update"},
       &VolumeZone::IsSchedulableAfterPersistentVolumeClaimChange},
      {{EventResource::kPersistentVolume, kAdd | kUpdate, "PersistentVolumeAdd|Update"},
       &VolumeZone::IsSchedulableAfterPersistentVolumeChange},
  };
}

StatusOr<QueueingHint> VolumeZone::IsSchedulableAfterStorageClassAdded(
    const api::Pod& /*pod*/, const EventObject& old_obj, const EventObject& new_obj) {
  auto objs = helper::As<api::StorageClass>(old_obj, new_obj);
  if (!objs.ok()) return objs.status();
  const api::StorageClass* sc = objs->new_obj;
  if (sc == nullptr || sc->volume_binding_mode != api::kVolumeBindingWaitForFirstConsumer) {
    return QueueingHint::kSkip;
  }
  return QueueingHint::kQueue;
}

StatusOr<QueueingHint> VolumeZone::IsSchedulableAfterPersistentVolumeClaimChange(
    const api::Pod& pod, const EventObject& old_obj, const EventObject& new_obj) {
  auto objs = helper::As<api::PersistentVolumeClaim>(old_obj, new_obj);
  if (!objs.ok()) return objs.status();
  const api::PersistentVolumeClaim* pvc = objs->new_obj;
  if (pvc == nullptr || pvc->ns != pod.ns) return QueueingHint::kSkip;
  for (const std::string& name : ClaimNames(pod)) {
    if (name == pvc->name) return QueueingHint::kQueue;
  }
  return QueueingHint::kSkip;
}

StatusOr<QueueingHint> VolumeZone::IsSchedulableAfterPersistentVolumeChange(
    const api::Pod& /*pod*/, const EventObject& old_obj, const EventObject& new_obj) {
  auto objs = helper::As<api::PersistentVolume>(old_obj, new_obj);
  if (!objs.ok()) return objs.status();
  if (objs->old_obj == nullptr) return QueueingHint::kQueue;
  if (objs->new_obj == nullptr) return QueueingHint::kSkip;
  if (GetPVTopologies(*objs->old_obj) != GetPVTopologies(*objs->new_obj)) {
    return QueueingHint::kQueue;
  }
  return QueueingHint::kSkip;
}

}  // namespace schedref::reference::framework::plugins::volumezone
