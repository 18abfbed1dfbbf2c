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

// Decoded for volume-aware plugins; only the source kind and the claim name
// are read.
struct Volume {
  std::string name;
  std::string source;  // e.g. "persistentVolumeClaim", "emptyDir"
  std::string claim_name;
  friend bool operator==(const Volume&, const Volume&) = default;
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

// A set of decoded objects, in manifest order.
struct Objects {
  std::vector<Node> nodes;
  std::vector<Pod> pods;
  std::vector<PodDisruptionBudget> pdbs;
  std::vector<PriorityClass> priority_classes;
  std::vector<Namespace> namespaces;
  friend bool operator==(const Objects&, const Objects&) = default;
};

}  // namespace schedref::api

#endif  // SCHEDREF_API_OBJECTS_H_
