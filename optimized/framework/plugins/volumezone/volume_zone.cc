#include "optimized/framework/plugins/volumezone/volume_zone.h"

#include <string_view>
#include <utility>

#include "optimized/framework/plugins/names/names.h"

namespace schedref::optimized::framework::plugins::volumezone {
namespace {

constexpr char kBetaZone[] = "failure-domain.beta.kubernetes.io/zone";
constexpr char kBetaRegion[] = "failure-domain.beta.kubernetes.io/region";
constexpr char kZone[] = "topology.kubernetes.io/zone";
constexpr char kRegion[] = "topology.kubernetes.io/region";
constexpr const char* kTopologyLabels[] = {kBetaZone, kBetaRegion, kZone, kRegion};

// What PreFilter stores; immutable once written, so clones share it.
struct PreFilterState final : StateData {
  std::shared_ptr<const std::vector<PVTopology>> topologies;
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PreFilterState>(*this);
  }
};

const int kPreFilterKey = CycleState::NewKey();

// The GA form of a beta label, or nullptr (beta -> GA only).
const char* GALabel(const std::string& key) {
  if (key == kBetaRegion) return kRegion;
  if (key == kBetaZone) return kZone;
  return nullptr;
}

// Note: ASCII whitespace only; a label value cannot hold any whitespace
// (docs/deviations.md "VolumeZone").
std::string_view TrimSpace(std::string_view s) {
  constexpr std::string_view kSpace = " \t\n\v\f\r";
  const size_t begin = s.find_first_not_of(kSpace);
  if (begin == std::string_view::npos) return {};
  const size_t end = s.find_last_not_of(kSpace);
  return s.substr(begin, end - begin + 1);
}

bool UsesClaim(const api::Pod& pod, const std::string& claim) {
  for (const api::Volume& v : pod.volumes) {
    if (v.source.kind == "persistentVolumeClaim" && v.source.claim_name == claim) return true;
  }
  return false;
}

std::string ClaimClass(const api::PersistentVolumeClaim& pvc) {
  auto it = pvc.annotations.find(api::kAnnBetaStorageClass);
  if (it != pvc.annotations.end()) return it->second;
  return pvc.spec.storage_class_name.value_or("");
}

Status Unresolvable(std::string reason) {
  return Status(Code::kUnschedulableAndUnresolvable, std::move(reason));
}

}  // namespace

std::optional<std::set<std::string>> LabelZonesToSet(const std::string& value) {
  std::set<std::string> out;
  std::string_view rest = value;
  while (true) {
    const size_t at = rest.find("__");
    const std::string_view piece = TrimSpace(rest.substr(0, at));
    if (piece.empty()) return std::nullopt;
    out.emplace(piece);
    if (at == std::string_view::npos) break;
    rest = rest.substr(at + 2);
  }
  return out;
}

std::vector<PVTopology> GetPVTopologies(const api::PersistentVolume& pv) {
  std::vector<PVTopology> out;
  if (pv.labels.empty()) return out;
  for (const char* key : kTopologyLabels) {
    auto it = pv.labels.find(key);
    if (it == pv.labels.end()) continue;
    std::optional<std::set<std::string>> values = LabelZonesToSet(it->second);
    if (!values.has_value()) continue;
    out.push_back({pv.name, key, std::move(*values)});
  }
  return out;
}

StatusOr<std::unique_ptr<framework::Plugin>> VolumeZone::New(const nlohmann::json& /*args*/,
                                                             framework::Handle* handle) {
  return std::unique_ptr<framework::Plugin>(new VolumeZone(handle));
}

std::string VolumeZone::Name() const { return names::kVolumeZone; }

Status VolumeZone::PodPVTopologies(const api::Pod& pod, std::vector<PVTopology>* out) const {
  const api::StorageObjects& storage = handle_->StorageListers();
  for (const api::Volume& v : pod.volumes) {
    if (v.source.kind != "persistentVolumeClaim") continue;
    const std::string& claim_name = v.source.claim_name;
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
      // "" is upstream's nil mode (only code-built classes have it).
      if (sc->volume_binding_mode.empty()) {
        return Unresolvable("VolumeBindingMode not set for StorageClass \"" + class_name + "\"");
      }
      if (sc->volume_binding_mode == api::kVolumeBindingWaitForFirstConsumer) continue;
      return Unresolvable("PersistentVolume had no name");
    }
    const api::PersistentVolume* pv = storage.Volume(pv_name);
    if (pv == nullptr) return Unresolvable("persistentvolume \"" + pv_name + "\" not found");
    for (PVTopology& t : GetPVTopologies(*pv)) out->push_back(std::move(t));
  }
  return Status::Success();
}

PreFilterOutput VolumeZone::PreFilter(CycleState& state, const PodInfo& pod,
                                      const std::vector<NodeInfo*>& /*nodes*/) {
  if (pod.pod.volumes.empty()) return {std::nullopt, Status::Skip()};
  auto topologies = std::make_shared<std::vector<PVTopology>>();
  Status s = PodPVTopologies(pod.pod, topologies.get());
  if (!s.IsSuccess()) return {std::nullopt, s};
  if (topologies->empty()) return {std::nullopt, Status::Skip()};
  auto data = std::make_unique<PreFilterState>();
  data->topologies = std::move(topologies);
  state.Write(kPreFilterKey, std::move(data));
  return {std::nullopt, Status::Success()};
}

Status VolumeZone::Filter(const CycleState& state, const PodInfo& pod,
                          const NodeInfo& node) const {
  if (pod.pod.volumes.empty()) return Status::Success();
  std::vector<PVTopology> computed;
  const std::vector<PVTopology>* topologies = nullptr;
  if (const auto* s = state.ReadAs<PreFilterState>(kPreFilterKey)) {
    topologies = s->topologies.get();
  } else {
    // Only when PreFilter did not run (unit tests), as upstream.
    Status st = PodPVTopologies(pod.pod, &computed);
    if (!st.IsSuccess()) return st;
    topologies = &computed;
  }
  const api::Labels& labels = node.node()->labels;
  bool zoned = false;
  for (const char* key : kTopologyLabels) zoned = zoned || labels.contains(key);
  if (!zoned) return Status::Success();
  for (const PVTopology& t : *topologies) {
    auto it = labels.find(t.key);
    if (it == labels.end()) {
      if (const char* ga = GALabel(t.key)) it = labels.find(ga);
    }
    if (it == labels.end() || !t.values.contains(it->second)) {
      return SharedRejectionOf<Code::kUnschedulableAndUnresolvable, kErrReasonConflict,
                               names::kVolumeZone>();
    }
  }
  return Status::Success();
}

std::vector<ClusterEventWithHint> VolumeZone::EventsToRegister() const {
  return {
      {{EventResource::kStorageClass, kAdd, "StorageClassAdd"},
       &VolumeZone::IsSchedulableAfterStorageClassAdded},
      {{EventResource::kNode, kAdd | kUpdateNodeLabel, "NodeAdd|UpdateNodeLabel"}, nullptr},
      {{EventResource::kPersistentVolumeClaim, kAdd | kUpdate, "PersistentVolumeClaimAdd|Update"},
       &VolumeZone::IsSchedulableAfterPersistentVolumeClaimChange},
      {{EventResource::kPersistentVolume, kAdd | kUpdate, "PersistentVolumeAdd|Update"},
       &VolumeZone::IsSchedulableAfterPersistentVolumeChange},
  };
}

StatusOr<QueueingHint> VolumeZone::IsSchedulableAfterStorageClassAdded(
    const api::Pod& /*pod*/, const EventObjects& objects) {
  const api::StorageClass* sc = objects.new_class;
  if (sc == nullptr || sc->volume_binding_mode != api::kVolumeBindingWaitForFirstConsumer) {
    return QueueingHint::kSkip;
  }
  return QueueingHint::kQueue;
}

StatusOr<QueueingHint> VolumeZone::IsSchedulableAfterPersistentVolumeClaimChange(
    const api::Pod& pod, const EventObjects& objects) {
  const api::PersistentVolumeClaim* pvc = objects.new_pvc;
  if (pvc == nullptr || pvc->ns != pod.ns) return QueueingHint::kSkip;
  return UsesClaim(pod, pvc->name) ? QueueingHint::kQueue : QueueingHint::kSkip;
}

StatusOr<QueueingHint> VolumeZone::IsSchedulableAfterPersistentVolumeChange(
    const api::Pod& /*pod*/, const EventObjects& objects) {
  if (objects.old_pv == nullptr) return QueueingHint::kQueue;
  if (objects.new_pv == nullptr) return QueueingHint::kSkip;
  if (GetPVTopologies(*objects.old_pv) != GetPVTopologies(*objects.new_pv)) {
    return QueueingHint::kQueue;
  }
  return QueueingHint::kSkip;
}

}  // namespace schedref::optimized::framework::plugins::volumezone
