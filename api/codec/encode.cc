#include "api/codec/encode.h"

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

namespace schedref::api {
namespace {

using nlohmann::json;

json EncodeResources(const ResourceList& resources) {
  json out = json::object();
  for (const auto& [name, amount] : resources) {
    out[name] = name == kResourceCpu ? std::to_string(amount) + "m"
                                     : std::to_string(amount);
  }
  return out;
}

json EncodeStrings(const std::vector<std::string>& values) {
  json out = json::array();
  for (const std::string& v : values) out.push_back(v);
  return out;
}

json EncodeLabels(const Labels& labels) {
  json out = json::object();
  for (const auto& [k, v] : labels) out[k] = v;
  return out;
}

template <typename Requirement>
json EncodeRequirements(const std::vector<Requirement>& requirements) {
  json out = json::array();
  for (const Requirement& r : requirements) {
    json e = {{"key", r.key}, {"operator", r.op}};
    if (!r.values.empty()) e["values"] = EncodeStrings(r.values);
    out.push_back(std::move(e));
  }
  return out;
}

json EncodeLabelSelector(const LabelSelector& selector) {
  json out = json::object();
  if (!selector.match_labels.empty()) {
    out["matchLabels"] = EncodeLabels(selector.match_labels);
  }
  if (!selector.match_expressions.empty()) {
    out["matchExpressions"] = EncodeRequirements(selector.match_expressions);
  }
  return out;
}

json EncodeNodeSelectorTerm(const NodeSelectorTerm& term) {
  json out = json::object();
  if (!term.match_expressions.empty()) {
    out["matchExpressions"] = EncodeRequirements(term.match_expressions);
  }
  if (!term.match_fields.empty()) {
    out["matchFields"] = EncodeRequirements(term.match_fields);
  }
  return out;
}

json EncodeNodeAffinity(const NodeAffinity& na) {
  json out = json::object();
  if (na.required.has_value()) {
    json terms = json::array();
    for (const NodeSelectorTerm& t : na.required->terms) {
      terms.push_back(EncodeNodeSelectorTerm(t));
    }
    out["requiredDuringSchedulingIgnoredDuringExecution"] = {
        {"nodeSelectorTerms", std::move(terms)}};
  }
  if (!na.preferred.empty()) {
    json preferred = json::array();
    for (const PreferredSchedulingTerm& p : na.preferred) {
      preferred.push_back({{"weight", p.weight},
                           {"preference", EncodeNodeSelectorTerm(p.preference)}});
    }
    out["preferredDuringSchedulingIgnoredDuringExecution"] = std::move(preferred);
  }
  return out;
}

json EncodePodAffinityTerm(const PodAffinityTerm& term) {
  json out = {{"topologyKey", term.topology_key}};
  if (term.label_selector.has_value()) {
    out["labelSelector"] = EncodeLabelSelector(*term.label_selector);
  }
  if (!term.namespaces.empty()) out["namespaces"] = EncodeStrings(term.namespaces);
  if (term.namespace_selector.has_value()) {
    out["namespaceSelector"] = EncodeLabelSelector(*term.namespace_selector);
  }
  if (!term.match_label_keys.empty()) {
    out["matchLabelKeys"] = EncodeStrings(term.match_label_keys);
  }
  if (!term.mismatch_label_keys.empty()) {
    out["mismatchLabelKeys"] = EncodeStrings(term.mismatch_label_keys);
  }
  return out;
}

json EncodePodAffinity(const PodAffinity& pa) {
  json out = json::object();
  if (!pa.required.empty()) {
    json required = json::array();
    for (const PodAffinityTerm& t : pa.required) {
      required.push_back(EncodePodAffinityTerm(t));
    }
    out["requiredDuringSchedulingIgnoredDuringExecution"] = std::move(required);
  }
  if (!pa.preferred.empty()) {
    json preferred = json::array();
    for (const WeightedPodAffinityTerm& w : pa.preferred) {
      preferred.push_back({{"weight", w.weight},
                           {"podAffinityTerm", EncodePodAffinityTerm(w.term)}});
    }
    out["preferredDuringSchedulingIgnoredDuringExecution"] = std::move(preferred);
  }
  return out;
}

json EncodeAffinity(const Affinity& a) {
  json out = json::object();
  if (a.node_affinity) out["nodeAffinity"] = EncodeNodeAffinity(*a.node_affinity);
  if (a.pod_affinity) out["podAffinity"] = EncodePodAffinity(*a.pod_affinity);
  if (a.pod_anti_affinity) {
    out["podAntiAffinity"] = EncodePodAffinity(*a.pod_anti_affinity);
  }
  return out;
}

json EncodeContainer(const Container& c) {
  json out = {{"name", c.name}};
  if (!c.image.empty()) out["image"] = c.image;
  json resources = json::object();
  if (!c.requests.empty()) resources["requests"] = EncodeResources(c.requests);
  if (!c.limits.empty()) resources["limits"] = EncodeResources(c.limits);
  if (!resources.empty()) out["resources"] = std::move(resources);
  if (!c.ports.empty()) {
    json ports = json::array();
    for (const ContainerPort& p : c.ports) {
      json port = {{"containerPort", p.container_port}};
      if (p.host_port != 0) port["hostPort"] = p.host_port;
      if (!p.protocol.empty()) port["protocol"] = p.protocol;
      if (!p.host_ip.empty()) port["hostIP"] = p.host_ip;
      ports.push_back(std::move(port));
    }
    out["ports"] = std::move(ports);
  }
  if (!c.restart_policy.empty()) out["restartPolicy"] = c.restart_policy;
  return out;
}

json EncodeToleration(const Toleration& t) {
  json out = json::object();
  if (!t.key.empty()) out["key"] = t.key;
  if (!t.op.empty()) out["operator"] = t.op;
  if (!t.value.empty()) out["value"] = t.value;
  if (!t.effect.empty()) out["effect"] = t.effect;
  if (t.toleration_seconds) out["tolerationSeconds"] = *t.toleration_seconds;
  return out;
}

json EncodeSpreadConstraint(const TopologySpreadConstraint& c) {
  json out = {{"maxSkew", c.max_skew},
              {"topologyKey", c.topology_key},
              {"whenUnsatisfiable", c.when_unsatisfiable}};
  if (c.label_selector) out["labelSelector"] = EncodeLabelSelector(*c.label_selector);
  if (c.min_domains) out["minDomains"] = *c.min_domains;
  if (c.node_affinity_policy) out["nodeAffinityPolicy"] = *c.node_affinity_policy;
  if (c.node_taints_policy) out["nodeTaintsPolicy"] = *c.node_taints_policy;
  if (!c.match_label_keys.empty()) {
    out["matchLabelKeys"] = EncodeStrings(c.match_label_keys);
  }
  return out;
}

json EncodeClaimSpec(const PersistentVolumeClaimSpec& spec) {
  json out = {{"accessModes", EncodeStrings(spec.access_modes)},
              {"resources", {{"requests", {{"storage", std::to_string(spec.storage_request)}}}}}};
  if (spec.selector) out["selector"] = EncodeLabelSelector(*spec.selector);
  if (!spec.volume_name.empty()) out["volumeName"] = spec.volume_name;
  if (spec.storage_class_name) out["storageClassName"] = *spec.storage_class_name;
  if (spec.volume_mode != "Filesystem") out["volumeMode"] = spec.volume_mode;
  return out;
}

// The source's own object: the fields VolumeSource keeps for its kind.
json EncodeVolumeSource(const VolumeSource& s) {
  json out = json::object();
  const std::string& k = s.kind;
  if (k == "persistentVolumeClaim") out["claimName"] = s.claim_name;
  if (k == "awsElasticBlockStore") out["volumeID"] = s.volume_id;
  if (k == "gcePersistentDisk") out["pdName"] = s.pd_name;
  if (k == "azureDisk") {
    out["diskName"] = s.disk_name;
    out["diskURI"] = s.disk_uri;
  }
  if (k == "rbd") {
    out["monitors"] = EncodeStrings(s.monitors);
    out["pool"] = s.pool;
    out["image"] = s.image;
  }
  if (k == "iscsi") {
    out["targetPortal"] = s.target_portal;
    out["iqn"] = s.iqn;
    if (s.lun != 0) out["lun"] = s.lun;
  }
  if (k == "csi") {
    out["driver"] = s.driver;
    if (!s.volume_handle.empty()) out["volumeHandle"] = s.volume_handle;
  }
  if (k == "hostPath" || k == "local") out["path"] = s.path;
  if (s.read_only) out["readOnly"] = true;
  return out;
}

json EncodeVolume(const Volume& v) {
  json source = EncodeVolumeSource(v.source);
  if (v.ephemeral) source["volumeClaimTemplate"] = {{"spec", EncodeClaimSpec(*v.ephemeral)}};
  return {{"name", v.name}, {v.source.kind, std::move(source)}};
}

json EncodeOwnerReferences(const std::vector<OwnerReference>& refs) {
  json out = json::array();
  for (const OwnerReference& r : refs) {
    json ref = {{"apiVersion", r.api_version}, {"kind", r.kind}, {"name", r.name}, {"uid", r.uid}};
    if (r.controller) ref["controller"] = true;
    out.push_back(std::move(ref));
  }
  return out;
}

// metadata of a storage object: name, namespace where it has one, and the
// optional parts.
json StorageMetadata(const std::string& name, const std::string* ns, const std::string& uid,
                     const Labels& labels, const Labels& annotations,
                     const std::optional<TimeMs>& deletion) {
  json m = {{"name", name}};
  if (ns != nullptr) m["namespace"] = *ns;
  if (!uid.empty()) m["uid"] = uid;
  if (!labels.empty()) m["labels"] = EncodeLabels(labels);
  if (!annotations.empty()) m["annotations"] = EncodeLabels(annotations);
  if (deletion) m["deletionTimestamp"] = FormatRfc3339(*deletion);
  return m;
}

json EncodePersistentVolume(const PersistentVolume& pv) {
  json spec = {{"accessModes", EncodeStrings(pv.access_modes)},
               {"capacity", {{"storage", std::to_string(pv.capacity)}}},
               {"persistentVolumeReclaimPolicy", pv.reclaim_policy},
               {pv.source.kind, EncodeVolumeSource(pv.source)}};
  if (!pv.storage_class_name.empty()) spec["storageClassName"] = pv.storage_class_name;
  if (pv.volume_mode != "Filesystem") spec["volumeMode"] = pv.volume_mode;
  if (pv.claim_ref) {
    json ref = json::object();
    if (!pv.claim_ref->ns.empty()) ref["namespace"] = pv.claim_ref->ns;
    if (!pv.claim_ref->name.empty()) ref["name"] = pv.claim_ref->name;
    if (!pv.claim_ref->uid.empty()) ref["uid"] = pv.claim_ref->uid;
    spec["claimRef"] = std::move(ref);
  }
  if (pv.node_affinity) {
    json terms = json::array();
    for (const NodeSelectorTerm& t : pv.node_affinity->terms) {
      terms.push_back(EncodeNodeSelectorTerm(t));
    }
    spec["nodeAffinity"] = {{"required", {{"nodeSelectorTerms", std::move(terms)}}}};
  }
  return {{"apiVersion", "v1"},
          {"kind", "PersistentVolume"},
          {"metadata", StorageMetadata(pv.name, nullptr, pv.uid, pv.labels, pv.annotations,
                                       pv.deletion_timestamp)},
          {"spec", std::move(spec)},
          {"status", {{"phase", pv.phase}}}};
}

json EncodePersistentVolumeClaim(const PersistentVolumeClaim& pvc) {
  json metadata = StorageMetadata(pvc.name, &pvc.ns, pvc.uid, pvc.labels, pvc.annotations,
                                  pvc.deletion_timestamp);
  if (!pvc.owner_references.empty()) {
    metadata["ownerReferences"] = EncodeOwnerReferences(pvc.owner_references);
  }
  return {{"apiVersion", "v1"},
          {"kind", "PersistentVolumeClaim"},
          {"metadata", std::move(metadata)},
          {"spec", EncodeClaimSpec(pvc.spec)},
          {"status", {{"phase", pvc.phase}}}};
}

json EncodeStorageClass(const StorageClass& sc) {
  json out = {{"apiVersion", "storage.k8s.io/v1"},
              {"kind", "StorageClass"},
              {"metadata", StorageMetadata(sc.name, nullptr, "", {}, sc.annotations, std::nullopt)},
              {"provisioner", sc.provisioner},
              {"reclaimPolicy", sc.reclaim_policy},
              {"volumeBindingMode", sc.volume_binding_mode}};
  if (!sc.allowed_topologies.empty()) {
    json terms = json::array();
    for (const TopologySelectorTerm& t : sc.allowed_topologies) {
      json exprs = json::array();
      for (const TopologySelectorRequirement& r : t.match_label_expressions) {
        exprs.push_back({{"key", r.key}, {"values", EncodeStrings(r.values)}});
      }
      terms.push_back({{"matchLabelExpressions", std::move(exprs)}});
    }
    out["allowedTopologies"] = std::move(terms);
  }
  return out;
}

json EncodeCSINode(const CSINode& node) {
  json drivers = json::array();
  for (const CSINodeDriver& d : node.drivers) {
    json driver = {{"name", d.name}, {"nodeID", d.node_id}};
    if (!d.topology_keys.empty()) driver["topologyKeys"] = EncodeStrings(d.topology_keys);
    if (d.allocatable_count) driver["allocatable"] = {{"count", *d.allocatable_count}};
    drivers.push_back(std::move(driver));
  }
  return {{"apiVersion", "storage.k8s.io/v1"},
          {"kind", "CSINode"},
          {"metadata", StorageMetadata(node.name, nullptr, "", {}, node.annotations, std::nullopt)},
          {"spec", {{"drivers", std::move(drivers)}}}};
}

json EncodeCSIDriver(const CSIDriver& driver) {
  return {{"apiVersion", "storage.k8s.io/v1"},
          {"kind", "CSIDriver"},
          {"metadata", {{"name", driver.name}}},
          {"spec",
           {{"attachRequired", driver.attach_required},
            {"storageCapacity", driver.storage_capacity}}}};
}

json EncodeService(const Service& s) {
  json spec = json::object();
  if (s.selector) spec["selector"] = EncodeLabels(*s.selector);
  return {{"apiVersion", "v1"},
          {"kind", "Service"},
          {"metadata", {{"name", s.name}, {"namespace", s.ns}}},
          {"spec", std::move(spec)}};
}

json EncodeReplicationController(const ReplicationController& rc) {
  return {{"apiVersion", "v1"},
          {"kind", "ReplicationController"},
          {"metadata", {{"name", rc.name}, {"namespace", rc.ns}}},
          {"spec", {{"selector", EncodeLabels(rc.selector)}}}};
}

template <typename T>
json EncodeAppsController(const T& o, const char* kind) {
  return {{"apiVersion", "apps/v1"},
          {"kind", kind},
          {"metadata", {{"name", o.name}, {"namespace", o.ns}}},
          {"spec", {{"selector", EncodeLabelSelector(o.selector)}}}};
}

json EncodeCSIStorageCapacity(const CSIStorageCapacity& c) {
  json out = {{"apiVersion", "storage.k8s.io/v1"},
              {"kind", "CSIStorageCapacity"},
              {"metadata", {{"name", c.name}, {"namespace", c.ns}}},
              {"storageClassName", c.storage_class_name}};
  if (c.node_topology) out["nodeTopology"] = EncodeLabelSelector(*c.node_topology);
  if (c.capacity) out["capacity"] = std::to_string(*c.capacity);
  if (c.maximum_volume_size) out["maximumVolumeSize"] = std::to_string(*c.maximum_volume_size);
  return out;
}

json EncodeNode(const Node& node) {
  json metadata = {{"name", node.name}};
  if (!node.uid.empty()) metadata["uid"] = node.uid;
  if (!node.labels.empty()) metadata["labels"] = EncodeLabels(node.labels);
  if (!node.annotations.empty()) {
    metadata["annotations"] = EncodeLabels(node.annotations);
  }
  json spec = json::object();
  if (!node.taints.empty()) {
    json taints = json::array();
    for (const Taint& t : node.taints) {
      json taint = {{"key", t.key}, {"effect", t.effect}};
      if (!t.value.empty()) taint["value"] = t.value;
      taints.push_back(std::move(taint));
    }
    spec["taints"] = std::move(taints);
  }
  if (node.unschedulable) spec["unschedulable"] = true;
  json status = {{"capacity", EncodeResources(node.capacity)},
                 {"allocatable", EncodeResources(node.allocatable)}};
  if (!node.images.empty()) {
    json images = json::array();
    for (const ContainerImage& i : node.images) {
      images.push_back({{"names", EncodeStrings(i.names)},
                        {"sizeBytes", i.size_bytes}});
    }
    status["images"] = std::move(images);
  }
  if (!node.conditions.empty()) {
    json conditions = json::array();
    for (const auto& [type, value] : node.conditions) {
      conditions.push_back({{"type", type}, {"status", value}});
    }
    status["conditions"] = std::move(conditions);
  }
  return {{"apiVersion", "v1"},
          {"kind", "Node"},
          {"metadata", std::move(metadata)},
          {"spec", std::move(spec)},
          {"status", std::move(status)}};
}

json EncodePod(const Pod& pod) {
  json metadata = {{"name", pod.name}, {"namespace", pod.ns}, {"uid", pod.uid}};
  if (!pod.labels.empty()) metadata["labels"] = EncodeLabels(pod.labels);
  if (!pod.annotations.empty()) {
    metadata["annotations"] = EncodeLabels(pod.annotations);
  }
  if (pod.creation_timestamp != 0) {
    metadata["creationTimestamp"] = FormatRfc3339(pod.creation_timestamp);
  }
  if (pod.deletion_timestamp) {
    metadata["deletionTimestamp"] = FormatRfc3339(*pod.deletion_timestamp);
  }
  if (!pod.owner_references.empty()) {
    metadata["ownerReferences"] = EncodeOwnerReferences(pod.owner_references);
  }

  json spec = {{"schedulerName", pod.scheduler_name}};
  if (pod.priority) spec["priority"] = *pod.priority;
  if (!pod.priority_class_name.empty()) {
    spec["priorityClassName"] = pod.priority_class_name;
  }
  if (!pod.node_name.empty()) spec["nodeName"] = pod.node_name;
  if (!pod.scheduling_gates.empty()) {
    json gates = json::array();
    for (const std::string& g : pod.scheduling_gates) gates.push_back({{"name", g}});
    spec["schedulingGates"] = std::move(gates);
  }
  json containers = json::array();
  for (const Container& c : pod.containers) containers.push_back(EncodeContainer(c));
  spec["containers"] = std::move(containers);
  if (!pod.init_containers.empty()) {
    json init = json::array();
    for (const Container& c : pod.init_containers) init.push_back(EncodeContainer(c));
    spec["initContainers"] = std::move(init);
  }
  if (!pod.overhead.empty()) spec["overhead"] = EncodeResources(pod.overhead);
  if (!pod.node_selector.empty()) {
    spec["nodeSelector"] = EncodeLabels(pod.node_selector);
  }
  if (pod.affinity) spec["affinity"] = EncodeAffinity(*pod.affinity);
  if (!pod.tolerations.empty()) {
    json tolerations = json::array();
    for (const Toleration& t : pod.tolerations) {
      tolerations.push_back(EncodeToleration(t));
    }
    spec["tolerations"] = std::move(tolerations);
  }
  if (!pod.topology_spread_constraints.empty()) {
    json constraints = json::array();
    for (const TopologySpreadConstraint& c : pod.topology_spread_constraints) {
      constraints.push_back(EncodeSpreadConstraint(c));
    }
    spec["topologySpreadConstraints"] = std::move(constraints);
  }
  if (pod.preemption_policy) spec["preemptionPolicy"] = *pod.preemption_policy;
  if (pod.termination_grace_period_seconds) {
    spec["terminationGracePeriodSeconds"] = *pod.termination_grace_period_seconds;
  }
  if (!pod.volumes.empty()) {
    json volumes = json::array();
    for (const Volume& v : pod.volumes) volumes.push_back(EncodeVolume(v));
    spec["volumes"] = std::move(volumes);
  }

  json out = {{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"metadata", std::move(metadata)},
              {"spec", std::move(spec)}};
  json status = json::object();
  if (!pod.phase.empty()) status["phase"] = pod.phase;
  if (!pod.nominated_node_name.empty()) {
    status["nominatedNodeName"] = pod.nominated_node_name;
  }
  if (pod.start_time) status["startTime"] = FormatRfc3339(*pod.start_time);
  if (!pod.conditions.empty()) {
    json conditions = json::array();
    for (const PodCondition& c : pod.conditions) {
      json condition = {{"type", c.type}, {"status", c.status}};
      if (!c.reason.empty()) condition["reason"] = c.reason;
      conditions.push_back(std::move(condition));
    }
    status["conditions"] = std::move(conditions);
  }
  if (!status.empty()) out["status"] = std::move(status);
  return out;
}

json EncodePdb(const PodDisruptionBudget& pdb) {
  json spec = json::object();
  if (pdb.selector) spec["selector"] = EncodeLabelSelector(*pdb.selector);
  json status = {{"disruptionsAllowed", pdb.disruptions_allowed}};
  if (!pdb.disrupted_pods.empty()) {
    // The eviction times are not kept; any time reads back the same.
    json disrupted = json::object();
    for (const std::string& name : pdb.disrupted_pods) {
      disrupted[name] = FormatRfc3339(0);
    }
    status["disruptedPods"] = std::move(disrupted);
  }
  return {{"apiVersion", "policy/v1"},
          {"kind", "PodDisruptionBudget"},
          {"metadata", {{"name", pdb.name}, {"namespace", pdb.ns}}},
          {"spec", std::move(spec)},
          {"status", std::move(status)}};
}

json EncodePriorityClass(const PriorityClass& pc) {
  json out = {{"apiVersion", "scheduling.k8s.io/v1"},
              {"kind", "PriorityClass"},
              {"metadata", {{"name", pc.name}}},
              {"value", pc.value}};
  if (pc.global_default) out["globalDefault"] = true;
  if (pc.preemption_policy) out["preemptionPolicy"] = *pc.preemption_policy;
  return out;
}

json EncodeNamespace(const Namespace& ns) {
  json metadata = {{"name", ns.name}};
  if (!ns.labels.empty()) metadata["labels"] = EncodeLabels(ns.labels);
  return {{"apiVersion", "v1"},
          {"kind", "Namespace"},
          {"metadata", std::move(metadata)}};
}

// Inverse of DaysFromCivil in decode.cc (Howard Hinnant's civil_from_days).
void CivilFromDays(int64_t z, int64_t* y, int64_t* m, int64_t* d) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  *d = doy - (153 * mp + 2) / 5 + 1;
  *m = mp < 10 ? mp + 3 : mp - 9;
  *y = yoe + era * 400 + (*m <= 2 ? 1 : 0);
}

}  // namespace

std::string FormatRfc3339(TimeMs time) {
  // Floor division, so that times before the epoch come out right.
  int64_t seconds = time / 1000;
  int64_t millis = time % 1000;
  if (millis < 0) {
    millis += 1000;
    seconds -= 1;
  }
  int64_t days = seconds / 86400;
  int64_t rest = seconds % 86400;
  if (rest < 0) {
    rest += 86400;
    days -= 1;
  }
  int64_t y, m, d;
  CivilFromDays(days, &y, &m, &d);
  char buffer[160];  // room for any int64 fields: -c opt checks snprintf truncation
  if (millis == 0) {
    std::snprintf(buffer, sizeof buffer, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lldZ",
                  static_cast<long long>(y), static_cast<long long>(m),
                  static_cast<long long>(d), static_cast<long long>(rest / 3600),
                  static_cast<long long>(rest / 60 % 60),
                  static_cast<long long>(rest % 60));
  } else {
    std::snprintf(buffer, sizeof buffer,
                  "%04lld-%02lld-%02lldT%02lld:%02lld:%02lld.%03lldZ",
                  static_cast<long long>(y), static_cast<long long>(m),
                  static_cast<long long>(d), static_cast<long long>(rest / 3600),
                  static_cast<long long>(rest / 60 % 60),
                  static_cast<long long>(rest % 60),
                  static_cast<long long>(millis));
  }
  return buffer;
}

json EncodeObject(const AnyObject& object) {
  return std::visit(
      [](const auto& o) -> json {
        using T = std::decay_t<decltype(o)>;
        if constexpr (std::is_same_v<T, Node>) {
          return EncodeNode(o);
        } else if constexpr (std::is_same_v<T, Pod>) {
          return EncodePod(o);
        } else if constexpr (std::is_same_v<T, PodDisruptionBudget>) {
          return EncodePdb(o);
        } else if constexpr (std::is_same_v<T, PriorityClass>) {
          return EncodePriorityClass(o);
        } else if constexpr (std::is_same_v<T, PersistentVolume>) {
          return EncodePersistentVolume(o);
        } else if constexpr (std::is_same_v<T, PersistentVolumeClaim>) {
          return EncodePersistentVolumeClaim(o);
        } else if constexpr (std::is_same_v<T, StorageClass>) {
          return EncodeStorageClass(o);
        } else if constexpr (std::is_same_v<T, CSINode>) {
          return EncodeCSINode(o);
        } else if constexpr (std::is_same_v<T, CSIDriver>) {
          return EncodeCSIDriver(o);
        } else if constexpr (std::is_same_v<T, CSIStorageCapacity>) {
          return EncodeCSIStorageCapacity(o);
        } else if constexpr (std::is_same_v<T, Service>) {
          return EncodeService(o);
        } else if constexpr (std::is_same_v<T, ReplicationController>) {
          return EncodeReplicationController(o);
        } else if constexpr (std::is_same_v<T, ReplicaSet>) {
          return EncodeAppsController(o, "ReplicaSet");
        } else if constexpr (std::is_same_v<T, StatefulSet>) {
          return EncodeAppsController(o, "StatefulSet");
        } else {
          return EncodeNamespace(o);
        }
      },
      object);
}

json EncodeList(const Objects& objects) {
  json items = json::array();
  for (const Namespace& o : objects.namespaces) items.push_back(EncodeObject(o));
  for (const PriorityClass& o : objects.priority_classes) {
    items.push_back(EncodeObject(o));
  }
  for (const Node& o : objects.nodes) items.push_back(EncodeObject(o));
  for (const Pod& o : objects.pods) items.push_back(EncodeObject(o));
  for (const PodDisruptionBudget& o : objects.pdbs) items.push_back(EncodeObject(o));
  for (const StorageClass& o : objects.storage_classes) items.push_back(EncodeObject(o));
  for (const CSIDriver& o : objects.csi_drivers) items.push_back(EncodeObject(o));
  for (const CSINode& o : objects.csi_nodes) items.push_back(EncodeObject(o));
  for (const PersistentVolume& o : objects.persistent_volumes) items.push_back(EncodeObject(o));
  for (const PersistentVolumeClaim& o : objects.persistent_volume_claims) {
    items.push_back(EncodeObject(o));
  }
  for (const CSIStorageCapacity& o : objects.csi_storage_capacities) {
    items.push_back(EncodeObject(o));
  }
  for (const Service& o : objects.services) items.push_back(EncodeObject(o));
  for (const ReplicationController& o : objects.replication_controllers) {
    items.push_back(EncodeObject(o));
  }
  for (const ReplicaSet& o : objects.replica_sets) items.push_back(EncodeObject(o));
  for (const StatefulSet& o : objects.stateful_sets) items.push_back(EncodeObject(o));
  return {{"apiVersion", "v1"}, {"kind", "List"}, {"items", std::move(items)}};
}

}  // namespace schedref::api
