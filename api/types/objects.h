// The Kubernetes objects the scheduler reads, reduced to the fields that affect
// scheduling. Specification: k8s.io/api core/v1, policy/v1, scheduling.k8s.io/v1
// (types.go). Decoding from manifests lives in api/codec/decode.h.
//
// Everything here is plain data: no behaviour beyond comparisons, so both
// implementations and the conformance runner can share it.
#ifndef SCHEDREF_API_OBJECTS_H_
#define SCHEDREF_API_OBJECTS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace schedref::api {

// Times are milliseconds since the Unix epoch. Kubernetes timestamps have
// one-second resolution; the virtual clock uses the finer unit.
using TimeMs = int64_t;

using Labels = std::map<std::string, std::string>;

// Resource name -> amount. "cpu" is held in millicores (Quantity::MilliValue);
// every other resource (memory, ephemeral-storage, pods, hugepages-*,
// extended resources) in whole units (Quantity::Value, rounded up).
using ResourceList = std::map<std::string, int64_t>;

inline constexpr char kResourceCpu[] = "cpu";
inline constexpr char kResourceMemory[] = "memory";
inline constexpr char kResourceEphemeralStorage[] = "ephemeral-storage";
inline constexpr char kResourcePods[] = "pods";

// Well-known node labels (k8s.io/api core/v1 well_known_labels.go).
inline constexpr char kLabelHostname[] = "kubernetes.io/hostname";
inline constexpr char kLabelTopologyZone[] = "topology.kubernetes.io/zone";
// The label the API server gives every namespace: its name (core/v1
// well_known_labels.go LabelMetadataName).
inline constexpr char kLabelMetadataName[] = "kubernetes.io/metadata.name";

// TopologySpreadConstraint.whenUnsatisfiable values (core/v1 types.go).
inline constexpr char kDoNotSchedule[] = "DoNotSchedule";
inline constexpr char kScheduleAnyway[] = "ScheduleAnyway";

// --- Selectors -------------------------------------------------------------

// metav1.LabelSelectorRequirement. Operators: In, NotIn, Exists, DoesNotExist.
struct LabelSelectorRequirement {
  std::string key;
  std::string op;
  std::vector<std::string> values;
  friend bool operator==(const LabelSelectorRequirement&,
                         const LabelSelectorRequirement&) = default;
};

// metav1.LabelSelector. An empty selector matches everything; an absent one
// (std::nullopt where it is optional) matches nothing.
struct LabelSelector {
  Labels match_labels;
  std::vector<LabelSelectorRequirement> match_expressions;
  friend bool operator==(const LabelSelector&, const LabelSelector&) = default;
};

// core/v1 NodeSelectorRequirement. Operators: In, NotIn, Exists,
// DoesNotExist, Gt, Lt.
struct NodeSelectorRequirement {
  std::string key;
  std::string op;
  std::vector<std::string> values;
  friend bool operator==(const NodeSelectorRequirement&,
                         const NodeSelectorRequirement&) = default;
};

// core/v1 NodeSelectorTerm: requirements are ANDed. matchFields supports only
// the key metadata.name.
struct NodeSelectorTerm {
  std::vector<NodeSelectorRequirement> match_expressions;
  std::vector<NodeSelectorRequirement> match_fields;
  friend bool operator==(const NodeSelectorTerm&,
                         const NodeSelectorTerm&) = default;
};

// core/v1 NodeSelector: terms are ORed.
struct NodeSelector {
  std::vector<NodeSelectorTerm> terms;
  friend bool operator==(const NodeSelector&, const NodeSelector&) = default;
};

// --- Node -------------------------------------------------------------------

struct Taint {
  std::string key;
  std::string value;
  std::string effect;  // NoSchedule, PreferNoSchedule, NoExecute
  friend bool operator==(const Taint&, const Taint&) = default;
};

struct ContainerImage {
  std::vector<std::string> names;
  int64_t size_bytes = 0;
  friend bool operator==(const ContainerImage&,
                         const ContainerImage&) = default;
};

struct Node {
  std::string name;
  std::string uid;
  Labels labels;
  ResourceList capacity;
  // Note: when a manifest has no status.allocatable, the decoder copies
  // capacity here (docs/deviations.md); the scheduler reads only this field.
  ResourceList allocatable;
  std::vector<Taint> taints;
  bool unschedulable = false;
  std::vector<ContainerImage> images;
  // status.conditions as type -> status ("True", "False", "Unknown"), the
  // part upstream compares (extractNodeConditionsChange); a later entry of
  // a type replaces an earlier one, as there.
  std::map<std::string, std::string> conditions;
  // metadata.annotations: read by no plugin, but a change is an event
  // (UpdateNodeAnnotation).
  Labels annotations;
  friend bool operator==(const Node&, const Node&) = default;
};

// --- Pod --------------------------------------------------------------------

struct Toleration {
  std::string key;
  std::string op;  // "Equal" (also when empty) or "Exists"
  std::string value;
  std::string effect;  // empty matches every effect
  std::optional<int64_t> toleration_seconds;
  friend bool operator==(const Toleration&, const Toleration&) = default;
};

struct ContainerPort {
  int32_t container_port = 0;
  int32_t host_port = 0;  // 0: no host port
  std::string protocol;   // TCP (default), UDP, SCTP
  std::string host_ip;
  friend bool operator==(const ContainerPort&, const ContainerPort&) = default;
};

// One of status.conditions: what preemption reads (DisruptionTarget,
// reason PreemptionByScheduler).
struct PodCondition {
  std::string type;
  std::string status;  // "True", "False", "Unknown"
  std::string reason;
  friend bool operator==(const PodCondition&, const PodCondition&) = default;
};

struct Container {
  std::string name;
  std::string image;
  ResourceList requests;
  ResourceList limits;
  std::vector<ContainerPort> ports;
  // Only meaningful for init containers: "Always" makes a sidecar.
  std::string restart_policy;
  friend bool operator==(const Container&, const Container&) = default;
};

struct PreferredSchedulingTerm {
  int32_t weight = 0;
  NodeSelectorTerm preference;
  friend bool operator==(const PreferredSchedulingTerm&,
                         const PreferredSchedulingTerm&) = default;
};

struct NodeAffinity {
  std::optional<NodeSelector> required;  // requiredDuringScheduling...
  std::vector<PreferredSchedulingTerm> preferred;
  friend bool operator==(const NodeAffinity&, const NodeAffinity&) = default;
};

struct PodAffinityTerm {
  std::optional<LabelSelector> label_selector;
  std::vector<std::string> namespaces;
  std::string topology_key;
  std::optional<LabelSelector> namespace_selector;
  std::vector<std::string> match_label_keys;
  std::vector<std::string> mismatch_label_keys;
  friend bool operator==(const PodAffinityTerm&,
                         const PodAffinityTerm&) = default;
};

struct WeightedPodAffinityTerm {
  int32_t weight = 0;
  PodAffinityTerm term;
  friend bool operator==(const WeightedPodAffinityTerm&,
                         const WeightedPodAffinityTerm&) = default;
};

// Used for both podAffinity and podAntiAffinity.
struct PodAffinity {
  std::vector<PodAffinityTerm> required;
  std::vector<WeightedPodAffinityTerm> preferred;
  friend bool operator==(const PodAffinity&, const PodAffinity&) = default;
};

struct Affinity {
  std::optional<NodeAffinity> node_affinity;
  std::optional<PodAffinity> pod_affinity;
  std::optional<PodAffinity> pod_anti_affinity;
  friend bool operator==(const Affinity&, const Affinity&) = default;
};

struct TopologySpreadConstraint {
  int32_t max_skew = 0;
  std::string topology_key;
  std::string when_unsatisfiable;  // DoNotSchedule, ScheduleAnyway
  std::optional<LabelSelector> label_selector;
  std::optional<int32_t> min_domains;
  std::optional<std::string> node_affinity_policy;  // Honor, Ignore
  std::optional<std::string> node_taints_policy;    // Honor, Ignore
  std::vector<std::string> match_label_keys;
  friend bool operator==(const TopologySpreadConstraint&,
                         const TopologySpreadConstraint&) = default;
};

// --- Storage -----------------------------------------------------------------
// What the four volume plugins (VolumeBinding, VolumeRestrictions,
// VolumeZone, NodeVolumeLimits) read. Specification: k8s.io/api core/v1
// (PersistentVolume, PersistentVolumeClaim, Volume) and storage/v1
// (StorageClass, CSINode, CSIDriver, CSIStorageCapacity), v1.32;
// docs/semantics/volumes.md says how the scheduler uses each field.

// core/v1 PersistentVolumeAccessMode values.
inline constexpr char kReadWriteOnce[] = "ReadWriteOnce";
inline constexpr char kReadOnlyMany[] = "ReadOnlyMany";
inline constexpr char kReadWriteMany[] = "ReadWriteMany";
inline constexpr char kReadWriteOncePod[] = "ReadWriteOncePod";

// storage/v1 VolumeBindingMode values.
inline constexpr char kVolumeBindingImmediate[] = "Immediate";
inline constexpr char kVolumeBindingWaitForFirstConsumer[] = "WaitForFirstConsumer";

// Annotations the PV controller and the scheduler exchange
// (pkg/controller/volume/persistentvolume/util, component-helpers).
inline constexpr char kAnnBindCompleted[] = "pv.kubernetes.io/bind-completed";
inline constexpr char kAnnBoundByController[] = "pv.kubernetes.io/bound-by-controller";
inline constexpr char kAnnSelectedNode[] = "volume.kubernetes.io/selected-node";
inline constexpr char kAnnStorageProvisioner[] = "volume.kubernetes.io/storage-provisioner";
inline constexpr char kAnnBetaStorageProvisioner[] =
    "volume.beta.kubernetes.io/storage-provisioner";
inline constexpr char kAnnBetaStorageClass[] = "volume.beta.kubernetes.io/storage-class";
// CSINode: the in-tree plugins migrated to CSI on that node.
inline constexpr char kAnnMigratedPlugins[] = "storage.alpha.kubernetes.io/migrated-plugins";

// One volume source of a pod (spec.volumes[i]) or of a PersistentVolume
// (its spec). `kind` is the source's JSON field name ("persistentVolumeClaim",
// "awsElasticBlockStore", "emptyDir", ...); the fields below it are those
// of that source the scheduler reads, left empty for every other kind.
struct VolumeSource {
  std::string kind;
  // readOnly of the sources that have it (persistentVolumeClaim,
  // awsElasticBlockStore, gcePersistentDisk, azureDisk, rbd, iscsi, csi).
  bool read_only = false;
  std::string claim_name;              // persistentVolumeClaim.claimName
  // awsElasticBlockStore.volumeID, cinder.volumeID, portworxVolume.volumeID
  std::string volume_id;
  std::string pd_name;                 // gcePersistentDisk.pdName
  std::string disk_name;               // azureDisk.diskName
  std::string disk_uri;                // azureDisk.diskURI
  std::vector<std::string> monitors;   // rbd.monitors
  std::string pool;                    // rbd.pool ("rbd" when absent)
  std::string image;                   // rbd.image
  std::string target_portal;           // iscsi.targetPortal
  std::string iqn;                     // iscsi.iqn
  int32_t lun = 0;                     // iscsi.lun
  std::string driver;                  // csi.driver
  std::string volume_handle;           // csi.volumeHandle (PersistentVolume only)
  std::string path;                    // hostPath.path, local.path
  friend bool operator==(const VolumeSource&, const VolumeSource&) = default;
};

// core/v1 PersistentVolumeClaimSpec, also the spec of a generic ephemeral
// volume's claim template.
struct PersistentVolumeClaimSpec {
  std::vector<std::string> access_modes;
  std::optional<LabelSelector> selector;
  // resources.requests.storage in bytes (Quantity::Value, rounded up).
  int64_t storage_request = 0;
  std::string volume_name;
  // Absent and "" differ: absent takes the default class at admission.
  std::optional<std::string> storage_class_name;
  std::string volume_mode = "Filesystem";  // Filesystem or Block
  friend bool operator==(const PersistentVolumeClaimSpec&,
                         const PersistentVolumeClaimSpec&) = default;
};

// A pod's spec.volumes[i].
struct Volume {
  std::string name;
  VolumeSource source;
  // source.kind == "ephemeral": the claim template's spec; the claim is
  // named "<pod name>-<volume name>" and owned by the pod.
  std::optional<PersistentVolumeClaimSpec> ephemeral;
  friend bool operator==(const Volume&, const Volume&) = default;
};

// metav1.OwnerReference.
struct OwnerReference {
  std::string api_version;
  std::string kind;
  std::string name;
  std::string uid;
  bool controller = false;
  friend bool operator==(const OwnerReference&, const OwnerReference&) = default;
};

// core/v1 PersistentVolumeClaim.
struct PersistentVolumeClaim {
  std::string ns;
  std::string name;
  std::string uid;  // "<ns>/<name>" when absent
  Labels labels;
  Labels annotations;
  std::optional<TimeMs> deletion_timestamp;
  std::vector<OwnerReference> owner_references;
  PersistentVolumeClaimSpec spec;
  std::string phase = "Pending";  // status.phase: Pending, Bound, Lost
  friend bool operator==(const PersistentVolumeClaim&,
                         const PersistentVolumeClaim&) = default;
  std::string Key() const { return ns + "/" + name; }
};

// core/v1 ObjectReference as a PersistentVolume's claimRef uses it.
struct ClaimReference {
  std::string ns;
  std::string name;
  std::string uid;
  friend bool operator==(const ClaimReference&, const ClaimReference&) = default;
};

// core/v1 PersistentVolume (cluster-scoped).
struct PersistentVolume {
  std::string name;
  std::string uid;
  Labels labels;
  Labels annotations;
  std::optional<TimeMs> deletion_timestamp;
  int64_t capacity = 0;  // spec.capacity.storage in bytes
  std::vector<std::string> access_modes;
  std::string storage_class_name;
  std::optional<ClaimReference> claim_ref;
  std::optional<NodeSelector> node_affinity;  // spec.nodeAffinity.required
  std::string volume_mode = "Filesystem";
  std::string reclaim_policy = "Retain";
  VolumeSource source;
  std::string phase = "Pending";  // status.phase: Pending, Available, Bound, Released, Failed
  friend bool operator==(const PersistentVolume&, const PersistentVolume&) = default;
};

// core/v1 TopologySelectorTerm: requirements are ANDed, each an "In".
struct TopologySelectorRequirement {
  std::string key;
  std::vector<std::string> values;
  friend bool operator==(const TopologySelectorRequirement&,
                         const TopologySelectorRequirement&) = default;
};
struct TopologySelectorTerm {
  std::vector<TopologySelectorRequirement> match_label_expressions;
  friend bool operator==(const TopologySelectorTerm&,
                         const TopologySelectorTerm&) = default;
};

// storage/v1 StorageClass (cluster-scoped).
struct StorageClass {
  std::string name;
  Labels annotations;
  std::string provisioner;
  std::string reclaim_policy = "Delete";
  std::string volume_binding_mode = kVolumeBindingImmediate;
  std::vector<TopologySelectorTerm> allowed_topologies;  // empty: every node
  friend bool operator==(const StorageClass&, const StorageClass&) = default;
};

// storage/v1 CSINodeDriver.
struct CSINodeDriver {
  std::string name;
  std::string node_id;
  std::vector<std::string> topology_keys;
  std::optional<int32_t> allocatable_count;  // absent: no limit
  friend bool operator==(const CSINodeDriver&, const CSINodeDriver&) = default;
};

// storage/v1 CSINode (cluster-scoped, named after its node).
struct CSINode {
  std::string name;
  Labels annotations;
  std::vector<CSINodeDriver> drivers;
  friend bool operator==(const CSINode&, const CSINode&) = default;
};

// storage/v1 CSIDriver (cluster-scoped): the spec fields the scheduler reads.
struct CSIDriver {
  std::string name;
  bool attach_required = true;
  bool storage_capacity = false;
  friend bool operator==(const CSIDriver&, const CSIDriver&) = default;
};

// storage/v1 CSIStorageCapacity (namespaced; the scheduler reads every
// namespace's).
struct CSIStorageCapacity {
  std::string ns;
  std::string name;
  std::optional<LabelSelector> node_topology;  // absent matches no node
  std::string storage_class_name;
  std::optional<int64_t> capacity;             // bytes
  std::optional<int64_t> maximum_volume_size;  // bytes
  friend bool operator==(const CSIStorageCapacity&,
                         const CSIStorageCapacity&) = default;
  std::string Key() const { return ns + "/" + name; }
};

// --- Pod (continued) ----------------------------------------------------------

// How long a pod runs once bound and how it ends: schedref's stand-in for
// the kubelet running the pod's containers to completion. Read from the
// pod's annotations kRunForAnnotation (a Go duration, > 0) and
// kEndPhaseAnnotation (Succeeded, the default, or Failed);
// docs/scenario-format.md, "Pod lifetimes". Not an upstream field: the
// annotations keep it inside the manifest, so that it survives encoding,
// cluster dumps and pod templates.
inline constexpr char kRunForAnnotation[] = "schedref.io/run-for";
inline constexpr char kEndPhaseAnnotation[] = "schedref.io/end-phase";
struct PodLifetime {
  int64_t run_for_ms = 0;
  std::string end_phase = "Succeeded";  // Succeeded or Failed
  friend bool operator==(const PodLifetime&, const PodLifetime&) = default;
};

struct Pod {
  std::string ns;  // metadata.namespace; "default" when absent
  std::string name;
  std::string uid;  // metadata.uid; "<ns>/<name>" when absent
  Labels labels;
  TimeMs creation_timestamp = 0;
  std::optional<TimeMs> deletion_timestamp;
  std::optional<int32_t> priority;
  std::string priority_class_name;
  std::string scheduler_name;  // "default-scheduler" when absent
  std::string node_name;
  std::vector<std::string> scheduling_gates;
  std::vector<Container> containers;
  std::vector<Container> init_containers;
  ResourceList overhead;
  Labels node_selector;
  std::optional<Affinity> affinity;
  std::vector<Toleration> tolerations;
  std::vector<TopologySpreadConstraint> topology_spread_constraints;
  std::optional<std::string> preemption_policy;  // PreemptLowerPriority, Never
  std::vector<Volume> volumes;
  std::vector<OwnerReference> owner_references;
  // spec.terminationGracePeriodSeconds as written; TerminationGracePeriod()
  // is the defaulted value.
  std::optional<int64_t> termination_grace_period_seconds;
  // status
  std::string phase;  // Pending, Running, Succeeded, Failed, Unknown; "" unset
  std::string nominated_node_name;
  std::optional<TimeMs> start_time;
  // metadata.annotations: read by no plugin; an update that changes only
  // these is still an update (UpdatePodOther).
  Labels annotations;
  // status.conditions, in order (type, status and reason only).
  std::vector<PodCondition> conditions;
  // Fields the v1.32 scheduler reads that schedref does not model, as the
  // decoder found them (non-empty), by field path: "spec.resourceClaims",
  // "spec.containers[0].resources.claims", "spec.resources". Decoded only
  // far enough to know they are there; api/types/unmodelled.h turns them
  // into the trace's warnings. No plugin reads them.
  std::vector<std::string> unmodelled_fields;
  // From the lifetime annotations (above); nullopt: the pod runs until it
  // is deleted. The annotations are the source: SetPodLifetime keeps both.
  std::optional<PodLifetime> lifetime;
  friend bool operator==(const Pod&, const Pod&) = default;

  // "namespace/name", the queue's and the trace's key.
  std::string Key() const { return ns + "/" + name; }
  // True iff the pod has finished (phase Succeeded or Failed). The
  // scheduler's informers never see such a pod: upstream's pod informer
  // selects status.phase!=Succeeded,status.phase!=Failed.
  bool Terminated() const { return phase == "Succeeded" || phase == "Failed"; }
  // spec.terminationGracePeriodSeconds, 30 when absent (SetDefaults_PodSpec).
  // Upstream accepts a negative value with a warning; a delete treats it
  // as 1 (CheckGracefulDelete).
  int64_t TerminationGracePeriodSeconds() const {
    return termination_grace_period_seconds.value_or(30);
  }
};

// --- Other kinds --------------------------------------------------------------

// policy/v1 PodDisruptionBudget: what preemption reads.
struct PodDisruptionBudget {
  std::string ns;
  std::string name;
  std::optional<LabelSelector> selector;
  int32_t disruptions_allowed = 0;          // status.disruptionsAllowed
  std::vector<std::string> disrupted_pods;  // keys of status.disruptedPods
  friend bool operator==(const PodDisruptionBudget&,
                         const PodDisruptionBudget&) = default;
};

// scheduling.k8s.io/v1 PriorityClass.
struct PriorityClass {
  std::string name;
  int32_t value = 0;
  bool global_default = false;
  std::optional<std::string> preemption_policy;
  friend bool operator==(const PriorityClass&, const PriorityClass&) = default;
};

// core/v1 Namespace: only labels matter (namespaceSelector).
struct Namespace {
  std::string name;
  Labels labels;
  friend bool operator==(const Namespace&, const Namespace&) = default;
};

// --- Owners and Services ------------------------------------------------------
// What PodTopologySpread's default constraints read of the objects that
// select a pod (upstream helper.DefaultSelector): their selectors.

// core/v1 Service: spec.selector. Absent (a Service without a selector,
// e.g. for external endpoints) selects no pod; an empty one selects every
// pod of its namespace.
struct Service {
  std::string ns;
  std::string name;
  std::optional<Labels> selector;
  friend bool operator==(const Service&, const Service&) = default;
  std::string Key() const { return ns + "/" + name; }
};

// core/v1 ReplicationController: spec.selector (defaulted from the pod
// template's labels when absent, as the API server does).
struct ReplicationController {
  std::string ns;
  std::string name;
  Labels selector;
  friend bool operator==(const ReplicationController&, const ReplicationController&) = default;
  std::string Key() const { return ns + "/" + name; }
};

// apps/v1 ReplicaSet and StatefulSet: spec.selector (required).
struct ReplicaSet {
  std::string ns;
  std::string name;
  LabelSelector selector;
  friend bool operator==(const ReplicaSet&, const ReplicaSet&) = default;
  std::string Key() const { return ns + "/" + name; }
};
struct StatefulSet {
  std::string ns;
  std::string name;
  LabelSelector selector;
  friend bool operator==(const StatefulSet&, const StatefulSet&) = default;
  std::string Key() const { return ns + "/" + name; }
};

// A set of decoded objects, in manifest order.
struct Objects {
  std::vector<Node> nodes;
  std::vector<Pod> pods;
  std::vector<PodDisruptionBudget> pdbs;
  std::vector<PriorityClass> priority_classes;
  std::vector<Namespace> namespaces;
  std::vector<PersistentVolume> persistent_volumes;
  std::vector<PersistentVolumeClaim> persistent_volume_claims;
  std::vector<StorageClass> storage_classes;
  std::vector<CSINode> csi_nodes;
  std::vector<CSIDriver> csi_drivers;
  std::vector<CSIStorageCapacity> csi_storage_capacities;
  std::vector<Service> services;
  std::vector<ReplicationController> replication_controllers;
  std::vector<ReplicaSet> replica_sets;
  std::vector<StatefulSet> stateful_sets;
  friend bool operator==(const Objects&, const Objects&) = default;
};

// Services and pod controllers as the scheduler's informers hold them,
// keyed "namespace/name", in key order.
struct SelectorObjects {
  std::map<std::string, Service> services;
  std::map<std::string, ReplicationController> replication_controllers;
  std::map<std::string, ReplicaSet> replica_sets;
  std::map<std::string, StatefulSet> stateful_sets;
  friend bool operator==(const SelectorObjects&, const SelectorObjects&) = default;

  static SelectorObjects From(const Objects& objects) {
    SelectorObjects out;
    for (const auto& o : objects.services) out.services[o.Key()] = o;
    for (const auto& o : objects.replication_controllers) out.replication_controllers[o.Key()] = o;
    for (const auto& o : objects.replica_sets) out.replica_sets[o.Key()] = o;
    for (const auto& o : objects.stateful_sets) out.stateful_sets[o.Key()] = o;
    return out;
  }
};

// The storage objects as the scheduler's informers hold them, keyed as the
// API server keys them ("namespace/name" for the namespaced kinds, the name
// otherwise), in key order. What every volume plugin lists and gets.
struct StorageObjects {
  std::map<std::string, PersistentVolumeClaim> claims;
  std::map<std::string, PersistentVolume> volumes;
  std::map<std::string, StorageClass> classes;
  std::map<std::string, CSINode> csi_nodes;
  std::map<std::string, CSIDriver> csi_drivers;
  std::map<std::string, CSIStorageCapacity> capacities;
  friend bool operator==(const StorageObjects&, const StorageObjects&) = default;

  // nullptr iff absent.
  const PersistentVolumeClaim* Claim(const std::string& ns, const std::string& name) const {
    return Find(claims, ns + "/" + name);
  }
  const PersistentVolume* Volume(const std::string& name) const { return Find(volumes, name); }
  const StorageClass* Class(const std::string& name) const { return Find(classes, name); }
  const CSINode* CsiNode(const std::string& name) const { return Find(csi_nodes, name); }
  const CSIDriver* CsiDriver(const std::string& name) const { return Find(csi_drivers, name); }

  // The storage objects of `objects`, keyed.
  static StorageObjects From(const Objects& objects) {
    StorageObjects out;
    for (const auto& c : objects.persistent_volume_claims) out.claims[c.Key()] = c;
    for (const auto& v : objects.persistent_volumes) out.volumes[v.name] = v;
    for (const auto& c : objects.storage_classes) out.classes[c.name] = c;
    for (const auto& n : objects.csi_nodes) out.csi_nodes[n.name] = n;
    for (const auto& d : objects.csi_drivers) out.csi_drivers[d.name] = d;
    for (const auto& c : objects.csi_storage_capacities) out.capacities[c.Key()] = c;
    return out;
  }

 private:
  template <typename T>
  static const T* Find(const std::map<std::string, T>& m, const std::string& key) {
    auto it = m.find(key);
    return it == m.end() ? nullptr : &it->second;
  }
};

}  // namespace schedref::api

#endif  // SCHEDREF_API_OBJECTS_H_
