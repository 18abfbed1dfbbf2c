#include "cmd/schedref/workloads.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <type_traits>
#include <utility>
#include <variant>

#include <nlohmann/json.hpp>

#include "api/codec/decode.h"
#include "api/codec/manifest.h"
#include "api/codec/scenario_decode.h"
#include "api/config/config_decode.h"

namespace schedref::cmd {
namespace {

// The upstream templates, compiled in by the workload_templates genrule:
// kEmbeddedTemplates[] = {{"<path below scheduler_perf/>", "<file bytes>"}}.
struct EmbeddedTemplate {
  std::string_view path;
  std::string_view text;
};
#include "cmd/schedref/workload_templates.inc"

// The measured phase starts here on the virtual clock; every init pod has
// been scheduled at t = 0 by then.
constexpr api::TimeMs kMeasuredPhaseStart = 1000;

constexpr char kPreemptLowerPriority[] = "PreemptLowerPriority";

// A decoded template and the metadata.generateName it carries.
template <typename T>
struct Template {
  T object;
  std::string generate_name;
};

// Decodes scheduler_perf/<path> through api/: the text is parsed as any
// manifest, metadata.generateName is replaced by a placeholder name (every
// copy is renamed when stamped, as the API server names generated objects),
// and the object goes through api::DecodeObject.
template <typename T>
StatusOr<Template<T>> LoadTemplate(std::string_view path) {
  const std::string file = "scheduler_perf/" + std::string(path);
  const EmbeddedTemplate* found = nullptr;
  for (const EmbeddedTemplate& t : kEmbeddedTemplates) {
    if (t.path == path) found = &t;
  }
  if (found == nullptr) {
    return Status::NotFound(file + ": no such template in the binary");
  }
  StatusOr<std::vector<nlohmann::json>> docs =
      api::ParseDocuments(found->text, file);
  if (!docs.ok()) return docs.status();
  if (docs->size() != 1 || !(*docs)[0].is_object()) {
    return Status::Invalid(file + ": expected exactly one object");
  }
  nlohmann::json doc = std::move((*docs)[0]);
  nlohmann::json& meta = doc["metadata"];
  if (!meta.is_object() || !meta.contains("generateName") ||
      !meta["generateName"].is_string()) {
    return Status::Invalid(file +
                           ": metadata.generateName: required field is "
                           "missing (a scheduler_perf template)");
  }
  Template<T> out;
  out.generate_name = meta["generateName"].get<std::string>();
  meta.erase("generateName");
  meta["name"] = out.generate_name + "template";
  StatusOr<api::AnyObject> object = api::DecodeObject(doc, file, 1);
  if (!object.ok()) return object.status();
  T* typed = std::get_if<T>(&*object);
  if (typed == nullptr) {
    return Status::Invalid(file + ": expected a " +
                           std::string(std::is_same_v<T, api::Pod> ? "Pod"
                                                                   : "Node") +
                           ", got a " + api::KindOf(*object));
  }
  if constexpr (std::is_same_v<T, api::Pod>) {
    // The generator does what api::DecodeScenario's priority admission
    // does for a pod without a class; a class would need resolving.
    if (!typed->priority_class_name.empty()) {
      return Status::Invalid(file +
                             ": spec.priorityClassName: not supported in a "
                             "bench template");
    }
  }
  out.object = std::move(*typed);
  return out;
}

// Decodes a scheduler_perf PersistentVolume or PersistentVolumeClaim
// template (which have no name: upstream's factory names each copy) under a
// placeholder name. A CSI PV template has no volumeHandle either; the
// factory sets one per copy, so a placeholder goes in here too.
template <typename T>
StatusOr<T> LoadStorageTemplate(std::string_view path) {
  const std::string file = "scheduler_perf/" + std::string(path);
  const EmbeddedTemplate* found = nullptr;
  for (const EmbeddedTemplate& t : kEmbeddedTemplates) {
    if (t.path == path) found = &t;
  }
  if (found == nullptr) return Status::NotFound(file + ": no such template in the binary");
  StatusOr<std::vector<nlohmann::json>> docs = api::ParseDocuments(found->text, file);
  if (!docs.ok()) return docs.status();
  if (docs->size() != 1 || !(*docs)[0].is_object()) {
    return Status::Invalid(file + ": expected exactly one object");
  }
  nlohmann::json doc = std::move((*docs)[0]);
  doc["metadata"]["name"] = "template";
  if (doc.contains("spec") && doc["spec"].contains("csi") &&
      !doc["spec"]["csi"].contains("volumeHandle")) {
    doc["spec"]["csi"]["volumeHandle"] = "template";
  }
  StatusOr<api::AnyObject> object = api::DecodeObject(doc, file, 1);
  if (!object.ok()) return object.status();
  T* typed = std::get_if<T>(&*object);
  if (typed == nullptr) {
    return Status::Invalid(file + ": expected a " + api::KindOf(api::AnyObject(T{})) +
                           ", got a " + api::KindOf(*object));
  }
  return std::move(*typed);
}

// A createPods operation's persistentVolumeTemplatePath and
// persistentVolumeClaimTemplatePath.
struct VolumeTemplates {
  api::PersistentVolume pv;
  api::PersistentVolumeClaim pvc;
};

// labelNodePrepareStrategy: label_key gets label_values round robin over the
// nodes of one createNodes operation.
struct NodeLabelStrategy {
  std::string label_key;
  std::vector<std::string> label_values;
};

// Builds one scenario in timeline order.
class ScenarioBuilder {
 public:
  ScenarioBuilder(const WorkloadInfo& info, std::string measured_namespace) {
    Workload& w = workload_;
    w.scenario.name = info.name;
    w.scenario.description =
        "schedref bench workload " + info.name + ", shaped like " +
        info.upstream + " (upstream threshold " +
        std::to_string(static_cast<int>(info.upstream_threshold)) +
        " pods/s); generated by cmd/schedref/workloads.cc";
    w.scenario.upstream_test =
        "test/integration/scheduler_perf/" + info.upstream;
    w.scenario.file = "<generated " + info.name + ">";
    w.scenario.start_time = api::kDefaultScenarioStartTime;
    w.scenario.config = api::DefaultConfiguration();
    w.measured_namespace = std::move(measured_namespace);
  }

  void AddNamespace(const std::string& name) {
    api::Namespace ns;
    ns.name = name;
    ns.labels[api::kLabelMetadataName] = name;  // as the API server sets it
    workload_.scenario.initial.namespaces.push_back(std::move(ns));
  }

  // createNodes: `count` copies of the template, named <prefix><index>
  // (upstream: generateName plus a random suffix), each labelled
  // kubernetes.io/hostname=<name> as upstream's node preparer does, then
  // given the strategy's label.
  void AddNodes(const api::Node& node_template, const std::string& prefix,
                int count, const std::optional<NodeLabelStrategy>& strategy) {
    for (int i = 0; i < count; ++i) {
      api::Node node = node_template;
      node.name = prefix + std::to_string(i);
      node.labels[api::kLabelHostname] = node.name;
      if (strategy.has_value()) {
        node.labels[strategy->label_key] =
            strategy->label_values[i % strategy->label_values.size()];
      }
      workload_.scenario.initial.nodes.push_back(std::move(node));
    }
  }

  // One pod of a createPods or churn operation, created at `at`.
  std::string CreatePod(api::TimeMs at, const Template<api::Pod>& tmpl,
                        const std::string& ns, int index) {
    api::Pod pod = tmpl.object;
    pod.ns = ns;
    pod.name = tmpl.generate_name + std::to_string(index);
    pod.uid = pod.ns + "/" + pod.name;
    pod.creation_timestamp = workload_.scenario.start_time + at;
    // What api::DecodeScenario's priority admission does for a pod that
    // names no PriorityClass when there is no globalDefault class.
    if (!pod.priority.has_value()) pod.priority = 0;
    if (!pod.preemption_policy.has_value()) {
      pod.preemption_policy = kPreemptLowerPriority;
    }
    const std::string key = pod.Key();
    api::Event e;
    e.at = at;
    e.op = api::Event::Op::kCreate;
    e.kind = "Pod";
    e.name = key;
    e.object = std::move(pod);
    workload_.scenario.timeline.push_back(std::move(e));
    ++workload_.pods_created;
    return key;
  }

  // One pod of a createPods operation with volume templates (upstream's
  // CreatePodWithPersistentVolume with bindVolume): the PV
  // "<ns>-vol-<index>" (an in-tree EBS volumeID "vol-<index>"; a CSI
  // volumeHandle the PV's name), pre-bound to the claim "pvc-<index>" and
  // Bound; the claim bound to it; then the pod, whose volumes are replaced
  // by that one claim. All three are created at `at`, in that order.
  std::string CreatePodWithVolume(api::TimeMs at, const Template<api::Pod>& tmpl,
                                  const VolumeTemplates& volumes, const std::string& ns,
                                  int index) {
    const std::string suffix = std::to_string(index);
    api::PersistentVolume pv = volumes.pv;
    pv.name = ns + "-vol-" + suffix;
    pv.uid = pv.name;
    if (pv.source.kind == "awsElasticBlockStore") pv.source.volume_id = "vol-" + suffix;
    if (pv.source.kind == "csi") pv.source.volume_handle = pv.name;
    pv.claim_ref = api::ClaimReference{ns, "pvc-" + suffix, ""};
    pv.phase = "Bound";
    api::PersistentVolumeClaim pvc = volumes.pvc;
    pvc.ns = ns;
    pvc.name = "pvc-" + suffix;
    pvc.uid = pvc.Key();
    pvc.spec.volume_name = pv.name;
    pvc.phase = "Bound";
    api::Event pv_create;
    pv_create.at = at;
    pv_create.op = api::Event::Op::kCreate;
    pv_create.kind = "PersistentVolume";
    pv_create.name = pv.name;
    pv_create.object = std::move(pv);
    workload_.scenario.timeline.push_back(std::move(pv_create));
    api::Event pvc_create;
    pvc_create.at = at;
    pvc_create.op = api::Event::Op::kCreate;
    pvc_create.kind = "PersistentVolumeClaim";
    pvc_create.name = pvc.Key();
    pvc_create.object = pvc;
    workload_.scenario.timeline.push_back(std::move(pvc_create));
    Template<api::Pod> with_volume = tmpl;
    api::Volume volume;
    volume.name = "vol";
    volume.source.kind = "persistentVolumeClaim";
    volume.source.claim_name = pvc.name;
    with_volume.object.volumes = {volume};
    return CreatePod(at, with_volume, ns, index);
  }

  // nodeAllocatableStrategy: for every node so far, node allocatable
  // `resource` = `count` and a CSINode of the node's name with one driver
  // (nodeID the node's name, allocatable.count `count`) and the
  // migrated-plugins annotation (written even when empty, as upstream's
  // strategy does).
  void AddCsiNodes(const std::string& driver, const std::string& resource, int32_t count,
                   const std::string& migrated_plugins) {
    for (api::Node& node : workload_.scenario.initial.nodes) {
      node.allocatable[resource] = count;
      api::CSINode csi;
      csi.name = node.name;
      csi.annotations[api::kAnnMigratedPlugins] = migrated_plugins;
      csi.drivers.push_back(api::CSINodeDriver{driver, node.name, {}, count});
      workload_.scenario.initial.csi_nodes.push_back(std::move(csi));
    }
  }

  std::string CreateNode(api::TimeMs at, const Template<api::Node>& tmpl,
                         int index) {
    api::Node node = tmpl.object;
    node.name = tmpl.generate_name + std::to_string(index);
    const std::string name = node.name;
    api::Event e;
    e.at = at;
    e.op = api::Event::Op::kCreate;
    e.kind = "Node";
    e.name = name;
    e.object = std::move(node);
    workload_.scenario.timeline.push_back(std::move(e));
    return name;
  }

  void Delete(api::TimeMs at, const std::string& kind,
              const std::string& name) {
    api::Event e;
    e.at = at;
    e.op = api::Event::Op::kDelete;
    e.kind = kind;
    e.name = name;
    workload_.scenario.timeline.push_back(std::move(e));
  }

  void Advance(api::TimeMs at) {
    api::Event e;
    e.at = at;
    e.op = api::Event::Op::kAdvance;
    workload_.scenario.timeline.push_back(std::move(e));
  }

  Workload Finish() && { return std::move(workload_); }

 private:
  Workload workload_;
};

// A workload's shape, filled in from its performance-config.yaml entry.
struct Shape {
  WorkloadInfo info;
  std::function<StatusOr<Workload>(const WorkloadInfo&, const WorkloadSize&)>
      make;
};

// upstream's createNodes without nodeTemplatePath uses makeBaseNode, whose
// status (capacity and allocatable: pods 110, cpu 4, memory 32Gi) is the
// node-default.yaml template's once allocatable defaults to capacity; its
// generateName is "node-<operation index>-".
StatusOr<api::Node> BaseNode() {
  StatusOr<Template<api::Node>> t =
      LoadTemplate<api::Node>("node-default.yaml");
  if (!t.ok()) return t.status();
  return t->object;
}

// The createPods operations of upstream put a pod without an explicit
// namespace in "namespace-<operation index>".
std::string OpNamespace(int op_index) {
  return "namespace-" + std::to_string(op_index);
}

// The common case: createNodes (op 0), init createPods, measured createPods
// at kMeasuredPhaseStart, and `settle_ms` more virtual time after it.
struct PlainSpec {
  std::string node_template;  // empty: makeBaseNode
  std::optional<NodeLabelStrategy> node_labels;
  // createNamespaces before the pods (prefix-0 .. prefix-<count-1>).
  std::string namespaces_prefix;
  int namespaces_count = 0;
  std::string init_template, init_namespace;
  std::string measured_template, measured_namespace;
  api::TimeMs settle_ms = 0;
  // persistentVolumeTemplatePath / persistentVolumeClaimTemplatePath of the
  // init and the measured createPods; empty: pods without volumes.
  std::string init_pv_template, measured_pv_template, pvc_template;
  // nodeAllocatableStrategy: one CSI driver's limit on every node, and the
  // CSINode's migrated-plugins annotation; empty driver: no strategy.
  std::string csi_driver;
  int32_t csi_limit = 0;
  std::string migrated_plugins;
};

StatusOr<Workload> MakePlain(const WorkloadInfo& info,
                             const WorkloadSize& size,
                             const PlainSpec& spec) {
  ScenarioBuilder b(info, spec.measured_namespace);
  for (int i = 0; i < spec.namespaces_count; ++i) {
    b.AddNamespace(spec.namespaces_prefix + "-" + std::to_string(i));
  }
  if (spec.namespaces_count == 0) {
    b.AddNamespace(spec.init_namespace);
    b.AddNamespace(spec.measured_namespace);
  }
  if (spec.node_template.empty()) {
    StatusOr<api::Node> base = BaseNode();
    if (!base.ok()) return base.status();
    b.AddNodes(*base, "node-0-", size.nodes, spec.node_labels);
  } else {
    StatusOr<Template<api::Node>> t =
        LoadTemplate<api::Node>(spec.node_template);
    if (!t.ok()) return t.status();
    b.AddNodes(t->object, t->generate_name, size.nodes, spec.node_labels);
  }
  if (!spec.csi_driver.empty()) {
    b.AddCsiNodes(spec.csi_driver, "attachable-volumes-csi-" + spec.csi_driver, spec.csi_limit,
                  spec.migrated_plugins);
  }
  StatusOr<Template<api::Pod>> init =
      LoadTemplate<api::Pod>(spec.init_template);
  if (!init.ok()) return init.status();
  StatusOr<Template<api::Pod>> measured =
      LoadTemplate<api::Pod>(spec.measured_template);
  if (!measured.ok()) return measured.status();
  // The volume templates of one createPods operation; nullopt: none.
  auto volumes = [&](const std::string& pv_template)
      -> StatusOr<std::optional<VolumeTemplates>> {
    if (pv_template.empty()) return std::optional<VolumeTemplates>();
    StatusOr<api::PersistentVolume> pv = LoadStorageTemplate<api::PersistentVolume>(pv_template);
    if (!pv.ok()) return pv.status();
    StatusOr<api::PersistentVolumeClaim> pvc =
        LoadStorageTemplate<api::PersistentVolumeClaim>(spec.pvc_template);
    if (!pvc.ok()) return pvc.status();
    return std::optional<VolumeTemplates>(VolumeTemplates{*pv, *pvc});
  };
  StatusOr<std::optional<VolumeTemplates>> init_volumes = volumes(spec.init_pv_template);
  if (!init_volumes.ok()) return init_volumes.status();
  StatusOr<std::optional<VolumeTemplates>> measured_volumes = volumes(spec.measured_pv_template);
  if (!measured_volumes.ok()) return measured_volumes.status();
  auto create = [&](api::TimeMs at, const Template<api::Pod>& tmpl,
                    const std::optional<VolumeTemplates>& vols, const std::string& ns, int i) {
    if (vols.has_value()) {
      b.CreatePodWithVolume(at, tmpl, *vols, ns, i);
    } else {
      b.CreatePod(at, tmpl, ns, i);
    }
  };
  for (int i = 0; i < size.init_pods; ++i) {
    create(0, *init, *init_volumes, spec.init_namespace, i);
  }
  for (int i = 0; i < size.measured_pods; ++i) {
    create(kMeasuredPhaseStart, *measured, *measured_volumes, spec.measured_namespace, i);
  }
  if (size.measured_pods > 0 && spec.settle_ms > 0) {
    b.Advance(kMeasuredPhaseStart + spec.settle_ms);
  }
  return std::move(b).Finish();
}

// The churn workloads. Upstream's churn operation runs on a wall-clock
// ticker beside the measured createPods; on the virtual clock scheduling
// takes no time, so the measured pods are released in batches at the
// workload's upstream threshold rate instead (batch = threshold x interval),
// one batch per tick: a churn tick then falls between the same number of
// measured pods as in an upstream run going exactly at its threshold.
// Tick k (k >= 1) happens at kMeasuredPhaseStart + k x interval, before that
// instant's batch, and ticks stop with the last batch.
struct ChurnSpec {
  std::string init_namespace;
  int churn_op = 0;
  int measured_op = 0;
  api::TimeMs interval_ms = 0;
  // Mode create: one pod of churn_pod per tick. Mode recreate (number 1):
  // odd ticks create one of each template, even ticks delete them.
  bool recreate = false;
  std::string churn_pod;
  std::string churn_node;  // recreate only; empty: none
};

StatusOr<Workload> MakeChurn(const WorkloadInfo& info, const WorkloadSize& size,
                             const ChurnSpec& spec) {
  const std::string measured_ns = OpNamespace(spec.measured_op);
  const std::string churn_ns = OpNamespace(spec.churn_op);
  ScenarioBuilder b(info, measured_ns);
  if (size.init_pods > 0) b.AddNamespace(spec.init_namespace);
  b.AddNamespace(churn_ns);
  b.AddNamespace(measured_ns);
  StatusOr<api::Node> base = BaseNode();
  if (!base.ok()) return base.status();
  b.AddNodes(*base, "node-0-", size.nodes, std::nullopt);

  // upstream: makeBasePod (testutils.MakePodSpec), the same pause container
  // with 100m / 500Mi and port 80 as pod-default.yaml, generateName "pod-".
  StatusOr<Template<api::Pod>> plain =
      LoadTemplate<api::Pod>("pod-default.yaml");
  if (!plain.ok()) return plain.status();
  StatusOr<Template<api::Pod>> churn_pod =
      LoadTemplate<api::Pod>(spec.churn_pod);
  if (!churn_pod.ok()) return churn_pod.status();
  std::optional<Template<api::Node>> churn_node;
  if (!spec.churn_node.empty()) {
    StatusOr<Template<api::Node>> t =
        LoadTemplate<api::Node>(spec.churn_node);
    if (!t.ok()) return t.status();
    churn_node = std::move(*t);
  }

  for (int i = 0; i < size.init_pods; ++i) {
    b.CreatePod(0, *plain, spec.init_namespace, i);
  }
  const int batch = std::max(
      1, static_cast<int>(info.upstream_threshold * spec.interval_ms / 1000));
  int created = 0;
  int churned = 0;
  std::string live_pod, live_node;
  for (int tick = 0; created < size.measured_pods; ++tick) {
    const api::TimeMs at = kMeasuredPhaseStart + tick * spec.interval_ms;
    if (tick >= 1) {
      if (!spec.recreate) {
        b.CreatePod(at, *churn_pod, churn_ns, churned++);
      } else if (live_pod.empty()) {
        if (churn_node.has_value()) {
          live_node = b.CreateNode(at, *churn_node, churned);
        }
        live_pod = b.CreatePod(at, *churn_pod, churn_ns, churned++);
      } else {
        if (!live_node.empty()) b.Delete(at, "Node", live_node);
        b.Delete(at, "Pod", live_pod);
        live_node.clear();
        live_pod.clear();
      }
    }
    for (int i = 0; i < batch && created < size.measured_pods; ++i) {
      b.CreatePod(at, *plain, measured_ns, created++);
    }
  }
  return std::move(b).Finish();
}

const std::vector<Shape>& Shapes() {
  static const std::vector<Shape>* const kShapes = new std::vector<Shape>{
      // misc/performance-config.yaml SchedulingBasic, entry
      // 5000Nodes_10000Pods_QueueingHintsEnabled: threshold 270 pods/s. createNodes (makeBaseNode),
      // createPods $initPods and $measurePods of pod-default.yaml.
      {{"SchedulingBasic",
        "misc/performance-config.yaml "
        "SchedulingBasic/5000Nodes_10000Pods_QueueingHintsEnabled",
        5000, 1000, 10000, 270},
       [](const WorkloadInfo& info, const WorkloadSize& size) {
         PlainSpec spec;
         spec.init_template = spec.measured_template = "pod-default.yaml";
         spec.init_namespace = OpNamespace(1);
         spec.measured_namespace = OpNamespace(2);
         return MakePlain(info, size, spec);
       }},
      // affinity/performance-config.yaml SchedulingNodeAffinity, entry
      // 5000Nodes_10000Pods_QueueingHintsEnabled: threshold 220 pods/s. node-default.yaml nodes
      // labelled topology.kubernetes.io/zone=zone1; init and measured pods
      // of pod-with-node-affinity.yaml (zone In [zone1, zone2]).
      {{"SchedulingNodeAffinity",
        "affinity/performance-config.yaml "
        "SchedulingNodeAffinity/5000Nodes_10000Pods_QueueingHintsEnabled",
        5000, 5000, 10000, 220},
       [](const WorkloadInfo& info, const WorkloadSize& size) {
         PlainSpec spec;
         spec.node_template = "node-default.yaml";
         spec.node_labels = NodeLabelStrategy{api::kLabelTopologyZone, {"zone1"}};
         spec.init_template = spec.measured_template =
             "pod-with-node-affinity.yaml";
         spec.init_namespace = OpNamespace(1);
         spec.measured_namespace = OpNamespace(2);
         return MakePlain(info, size, spec);
       }},
      // affinity/performance-config.yaml SchedulingPodAntiAffinity, entry
      // 5000Nodes_2000Pods_QueueingHintsEnabled: threshold 60 pods/s. createNodes (makeBaseNode),
      // createNamespaces sched-0 and sched-1, init pods in sched-0 and
      // measured pods in sched-1, all of pod-with-pod-anti-affinity.yaml
      // (color=green, required anti-affinity per hostname over both
      // namespaces).
      {{"SchedulingPodAntiAffinity",
        "affinity/performance-config.yaml "
        "SchedulingPodAntiAffinity/5000Nodes_2000Pods_QueueingHintsEnabled",
        5000, 1000, 2000, 60},
       [](const WorkloadInfo& info, const WorkloadSize& size) {
         PlainSpec spec;
         spec.namespaces_prefix = "sched";
         spec.namespaces_count = 2;
         spec.init_template = spec.measured_template =
             "pod-with-pod-anti-affinity.yaml";
         spec.init_namespace = "sched-0";
         spec.measured_namespace = "sched-1";
         return MakePlain(info, size, spec);
       }},
      // topology_spreading/performance-config.yaml TopologySpreading, entry
      // 5000Nodes_5000Pods_QueueingHintsEnabled: threshold 85 pods/s. node-default.yaml nodes
      // labelled topology.kubernetes.io/zone moon-1, moon-2, moon-3 round
      // robin; init pods of pod-default.yaml, measured pods of
      // pod-with-topology-spreading.yaml (maxSkew 5 per zone, DoNotSchedule).
      {{"TopologySpreading",
        "topology_spreading/performance-config.yaml "
        "TopologySpreading/5000Nodes_5000Pods_QueueingHintsEnabled",
        5000, 5000, 5000, 85},
       [](const WorkloadInfo& info, const WorkloadSize& size) {
         PlainSpec spec;
         spec.node_template = "node-default.yaml";
         spec.node_labels =
             NodeLabelStrategy{api::kLabelTopologyZone, {"moon-1", "moon-2", "moon-3"}};
         spec.init_template = "pod-default.yaml";
         spec.measured_template = "pod-with-topology-spreading.yaml";
         spec.init_namespace = OpNamespace(1);
         spec.measured_namespace = OpNamespace(2);
         return MakePlain(info, size, spec);
       }},
      // misc/performance-config.yaml PreemptionBasic, entry 500Nodes_QueueingHintsEnabled:
      // threshold 18 pods/s. createNodes (makeBaseNode); init pods of
      // pod-low-priority.yaml (900m, four fill a node); measured pods of
      // pod-high-priority.yaml (priority 10, 3000m: each preempts three).
      // A preemptor binds on a later attempt, after its victims are gone and
      // its backoff has expired, so the run goes on for 10 s (the maximum
      // backoff) after the measured pods are created.
      {{"PreemptionBasic",
        "misc/performance-config.yaml PreemptionBasic/500Nodes_QueueingHintsEnabled",
        500, 2000, 500, 18},
       [](const WorkloadInfo& info, const WorkloadSize& size) {
         PlainSpec spec;
         spec.init_template = "pod-low-priority.yaml";
         spec.measured_template = "pod-high-priority.yaml";
         spec.init_namespace = OpNamespace(1);
         spec.measured_namespace = OpNamespace(2);
         spec.settle_ms = 10000;
         return MakePlain(info, size, spec);
       }},
      // volumes/performance-config.yaml SchedulingSecrets, entry
      // 5000Nodes_10000Pods_QueueingHintsEnabled: threshold 260 pods/s.
      // createNodes (makeBaseNode), init and measured pods of
      // pod-with-secret-volume.yaml (a secret volume, which no volume
      // plugin reads).
      {{"SchedulingSecrets",
        "volumes/performance-config.yaml SchedulingSecrets/5000Nodes_10000Pods_QueueingHintsEnabled",
        5000, 1000, 10000, 260},
       [](const WorkloadInfo& info, const WorkloadSize& size) {
         PlainSpec spec;
         spec.init_template = "pod-with-secret-volume.yaml";
         spec.measured_template = "pod-with-secret-volume.yaml";
         spec.init_namespace = OpNamespace(1);
         spec.measured_namespace = OpNamespace(2);
         return MakePlain(info, size, spec);
       }},
      // volumes/performance-config.yaml SchedulingInTreePVs, entry
      // 5000Nodes_2000Pods_QueueingHintsEnabled: threshold 90 pods/s.
      // createNodes (makeBaseNode, no CSINode); init and measured pods of
      // makeBasePod, each with its own bound in-tree EBS PV (pv-aws.yaml)
      // and claim (pvc.yaml).
      {{"SchedulingInTreePVs",
        "volumes/performance-config.yaml SchedulingInTreePVs/5000Nodes_2000Pods_QueueingHintsEnabled",
        5000, 1000, 2000, 90},
       [](const WorkloadInfo& info, const WorkloadSize& size) {
         PlainSpec spec;
         spec.init_template = spec.measured_template = "pod-default.yaml";
         spec.init_pv_template = spec.measured_pv_template = "pv-aws.yaml";
         spec.pvc_template = "pvc.yaml";
         spec.init_namespace = OpNamespace(1);
         spec.measured_namespace = OpNamespace(2);
         return MakePlain(info, size, spec);
       }},
      // volumes/performance-config.yaml SchedulingMigratedInTreePVs, entry
      // 5000Nodes_5000Pods_QueueingHintsEnabled: threshold 35 pods/s. As
      // SchedulingInTreePVs, on node-default.yaml nodes whose CSINode
      // allows 39 ebs.csi.aws.com volumes with kubernetes.io/aws-ebs
      // migrated.
      {{"SchedulingMigratedInTreePVs",
        "volumes/performance-config.yaml "
        "SchedulingMigratedInTreePVs/5000Nodes_5000Pods_QueueingHintsEnabled",
        5000, 5000, 5000, 35},
       [](const WorkloadInfo& info, const WorkloadSize& size) {
         PlainSpec spec;
         spec.node_template = "node-default.yaml";
         spec.init_template = spec.measured_template = "pod-default.yaml";
         spec.init_pv_template = spec.measured_pv_template = "pv-aws.yaml";
         spec.pvc_template = "pvc.yaml";
         spec.csi_driver = "ebs.csi.aws.com";
         spec.csi_limit = 39;
         spec.migrated_plugins = "kubernetes.io/aws-ebs";
         spec.init_namespace = OpNamespace(1);
         spec.measured_namespace = OpNamespace(2);
         return MakePlain(info, size, spec);
       }},
      // volumes/performance-config.yaml SchedulingCSIPVs, entry
      // 5000Nodes_5000Pods_QueueingHintsEnabled: threshold 48 pods/s. As
      // SchedulingMigratedInTreePVs with CSI PVs (pv-csi.yaml) and no
      // migrated plugins.
      {{"SchedulingCSIPVs",
        "volumes/performance-config.yaml SchedulingCSIPVs/5000Nodes_5000Pods_QueueingHintsEnabled",
        5000, 5000, 5000, 48},
       [](const WorkloadInfo& info, const WorkloadSize& size) {
         PlainSpec spec;
         spec.node_template = "node-default.yaml";
         spec.init_template = spec.measured_template = "pod-default.yaml";
         spec.init_pv_template = spec.measured_pv_template = "pv-csi.yaml";
         spec.pvc_template = "pvc.yaml";
         spec.csi_driver = "ebs.csi.aws.com";
         spec.csi_limit = 39;
         spec.init_namespace = OpNamespace(1);
         spec.measured_namespace = OpNamespace(2);
         return MakePlain(info, size, spec);
       }},
      // volumes/performance-config.yaml PreemptionPVs, entry
      // 1000Nodes_QueueingHintsEnabled, which has no threshold: schedref
      // holds it to PreemptionBasic's 18 pods/s. Init pods of
      // pod-low-priority.yaml fill the nodes; measured pods of
      // pod-high-priority.yaml each with a bound in-tree EBS PV preempt
      // them; 10 s more for the preemptors' backoff, as PreemptionBasic.
      {{"PreemptionPVs",
        "volumes/performance-config.yaml PreemptionPVs/1000Nodes_QueueingHintsEnabled",
        1000, 4000, 1000, 18},
       [](const WorkloadInfo& info, const WorkloadSize& size) {
         PlainSpec spec;
         spec.init_template = "pod-low-priority.yaml";
         spec.measured_template = "pod-high-priority.yaml";
         spec.measured_pv_template = "pv-aws.yaml";
         spec.pvc_template = "pvc.yaml";
         spec.init_namespace = OpNamespace(1);
         spec.measured_namespace = OpNamespace(2);
         spec.settle_ms = 10000;
         return MakePlain(info, size, spec);
       }},
      // misc/performance-config.yaml Unschedulable, entry
      // 5kNodes/100Init/10kPods_QueueingHintsEnabled: threshold 170 pods/s
      // (the entry with QueueingHints off, which schedref does not model,
      // has 140). createNodes
      // (makeBaseNode), init createPods (makeBasePod), churn mode create of
      // pod-high-priority-large-cpu.yaml (priority 10, cpu 9: fits no node,
      // and preemption cannot help) every 200 ms, measured pods of
      // pod-default.yaml.
      {{"Unschedulable",
        "misc/performance-config.yaml "
        "Unschedulable/5kNodes/100Init/10kPods_QueueingHintsEnabled",
        5000, 100, 10000, 170},
       [](const WorkloadInfo& info, const WorkloadSize& size) {
         ChurnSpec spec;
         spec.init_namespace = OpNamespace(1);
         spec.churn_op = 2;
         spec.measured_op = 3;
         spec.interval_ms = 200;
         spec.churn_pod = "pod-high-priority-large-cpu.yaml";
         return MakeChurn(info, size, spec);
       }},
      // misc/performance-config.yaml SchedulingWithMixedChurn, entry
      // 5000Nodes_10000Pods_QueueingHintsEnabled: threshold 265 pods/s. createNodes
      // (makeBaseNode), no init pods, churn mode recreate (number 1) every
      // 1000 ms of churn/node-default.yaml (a node with room for no pod)
      // and pod-high-priority-large-cpu.yaml: created on one tick, deleted
      // on the next. The reference's run for the decision check has 600
      // measured pods: the first 265 go at t = 0, so 200 would compare no
      // churn at all. Upstream's third churn template,
      // churn/service-default.yaml, is left out: schedref does not model
      // Services, and its selector (app: foo) matches none of these pods.
      {{"MixedChurn",
        "misc/performance-config.yaml "
        "SchedulingWithMixedChurn/5000Nodes_10000Pods_QueueingHintsEnabled",
        5000, 0, 10000, 265, /*default_reference_measured_pods=*/600},
       [](const WorkloadInfo& info, const WorkloadSize& size) {
         ChurnSpec spec;
         // Upstream's entry has no init pods; --init-pods adds some, in a
         // namespace of their own.
         spec.init_namespace = "namespace-init";
         spec.churn_op = 1;
         spec.measured_op = 2;
         spec.interval_ms = 1000;
         spec.recreate = true;
         spec.churn_pod = "pod-high-priority-large-cpu.yaml";
         spec.churn_node = "churn/node-default.yaml";
         return MakeChurn(info, size, spec);
       }},
      // Not upstream's: SchedulingBasic with one declared extender that
      // filters and prioritizes (served over HTTP on 127.0.0.1 for the
      // run), to price the extender round trips. Nodes carry a tier label
      // (gold, silver, silver, silver, bronze, ...); the extender rejects
      // bronze nodes and scores gold 10, silver 4, with weight 1. Upstream's
      // threshold is SchedulingBasic's.
      {{"SchedulingBasicExtender",
        "misc/performance-config.yaml "
        "SchedulingBasic/5000Nodes_10000Pods_QueueingHintsEnabled, with a "
        "filtering and prioritizing extender",
        5000, 1000, 10000, 270},
       [](const WorkloadInfo& info, const WorkloadSize& size) -> StatusOr<Workload> {
         PlainSpec spec;
         spec.init_template = spec.measured_template = "pod-default.yaml";
         spec.init_namespace = OpNamespace(1);
         spec.measured_namespace = OpNamespace(2);
         spec.node_labels =
             NodeLabelStrategy{"example.com/tier", {"gold", "silver", "silver", "silver", "bronze"}};
         StatusOr<Workload> w = MakePlain(info, size, spec);
         if (!w.ok()) return w;
         constexpr char kUrl[] = "http://tier.extender/scheduler";
         api::Extender config;
         config.url_prefix = kUrl;
         config.filter_verb = "filter";
         config.prioritize_verb = "prioritize";
         config.weight = 1;
         w->scenario.config.extenders.push_back(config);
         auto tier = [](const std::string& value) {
           api::LabelSelector selector;
           selector.match_labels["example.com/tier"] = value;
           return api::DeclaredNodes{{}, selector};
         };
         api::DeclaredExtender declared;
         declared.url_prefix = kUrl;
         declared.filter = api::DeclaredFilter{};
         declared.filter->reject.push_back(api::DeclaredReject{tier("bronze"), "bronze tier", false});
         declared.prioritize = api::DeclaredPrioritize{};
         declared.prioritize->scores.push_back(api::DeclaredScore{tier("gold"), 10});
         declared.prioritize->scores.push_back(api::DeclaredScore{tier("silver"), 4});
         w->scenario.extenders.push_back(std::move(declared));
         return w;
       }},
  };
  return *kShapes;
}

}  // namespace

const std::vector<WorkloadInfo>& Workloads() {
  static const std::vector<WorkloadInfo>* const kInfos = [] {
    auto* infos = new std::vector<WorkloadInfo>;
    for (const Shape& s : Shapes()) infos->push_back(s.info);
    return infos;
  }();
  return *kInfos;
}

std::vector<std::string> WorkloadNames() {
  std::vector<std::string> names;
  for (const WorkloadInfo& w : Workloads()) names.push_back(w.name);
  return names;
}

const WorkloadInfo* FindWorkload(std::string_view name) {
  for (const WorkloadInfo& w : Workloads()) {
    if (w.name == name) return &w;
  }
  return nullptr;
}

StatusOr<Workload> MakeWorkload(std::string_view name,
                                const WorkloadSize& size) {
  const Shape* shape = nullptr;
  for (const Shape& s : Shapes()) {
    if (s.info.name == name) shape = &s;
  }
  if (shape == nullptr) {
    std::string known;
    for (const std::string& n : WorkloadNames()) {
      known += (known.empty() ? "" : ", ") + n;
    }
    return Status::Invalid("unknown workload \"" + std::string(name) +
                           "\" (known: " + known + ")");
  }
  if (size.nodes < 1 || size.nodes > kMaxWorkloadNodes) {
    return Status::Invalid(shape->info.name + ": nodes must be in [1, " +
                           std::to_string(kMaxWorkloadNodes) + "], got " +
                           std::to_string(size.nodes));
  }
  if (size.init_pods < 0 || size.init_pods > kMaxWorkloadPods) {
    return Status::Invalid(shape->info.name + ": init pods must be in [0, " +
                           std::to_string(kMaxWorkloadPods) + "], got " +
                           std::to_string(size.init_pods));
  }
  if (size.measured_pods < 0 || size.measured_pods > kMaxWorkloadPods) {
    return Status::Invalid(shape->info.name +
                           ": measured pods must be in [0, " +
                           std::to_string(kMaxWorkloadPods) + "], got " +
                           std::to_string(size.measured_pods));
  }
  return shape->make(shape->info, size);
}

StatusOr<Workload> BindInitPods(
    const Workload& workload,
    const std::vector<std::pair<std::string, std::string>>& bound) {
  std::map<std::string, size_t> position;
  for (size_t i = 0; i < bound.size(); ++i) {
    if (!position.emplace(bound[i].first, i).second) {
      return Status::Invalid(workload.scenario.name + ": pod " +
                             bound[i].first + " is listed twice");
    }
  }
  Workload out = workload;
  std::vector<std::optional<api::Pod>> pods(bound.size());
  std::vector<api::Event> timeline;
  for (api::Event& e : out.scenario.timeline) {
    const auto it = e.op == api::Event::Op::kCreate && e.at == 0
                        ? position.find(e.name)
                        : position.end();
    if (it == position.end() || !std::holds_alternative<api::Pod>(e.object)) {
      timeline.push_back(std::move(e));
      continue;
    }
    api::Pod pod = std::get<api::Pod>(std::move(e.object));
    pod.node_name = bound[it->second].second;
    pods[it->second] = std::move(pod);
  }
  for (size_t i = 0; i < pods.size(); ++i) {
    if (!pods[i].has_value()) {
      return Status::Invalid(workload.scenario.name + ": pod " +
                             bound[i].first +
                             " is not created at t = 0 by the timeline");
    }
    out.scenario.initial.pods.push_back(std::move(*pods[i]));
  }
  out.scenario.timeline = std::move(timeline);
  return out;
}

}  // namespace schedref::cmd
