#include "api/codec/decode.h"

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <limits>
#include <string>
#include <variant>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "api/codec/encode.h"
#include "api/codec/manifest.h"
#include "api/types/objects.h"

namespace schedref::api {
namespace {

using nlohmann::json;

// Test data lives beside the test; Bazel runs tests from the runfiles root
// of the workspace, where this relative path resolves.
constexpr char kTestdata[] = "api/codec/testdata/";

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Objects MustDecodeFile(const std::string& name) {
  const std::string path = std::string(kTestdata) + name;
  StatusOr<Objects> objects = DecodeManifests(ReadFile(path), name);
  EXPECT_TRUE(objects.ok()) << objects.status().message();
  return objects.ok() ? *objects : Objects{};
}

Objects MustDecode(const std::string& text) {
  StatusOr<Objects> objects = DecodeManifests(text, "t.yaml");
  EXPECT_TRUE(objects.ok()) << objects.status().message();
  return objects.ok() ? *objects : Objects{};
}

constexpr int64_t kKi = 1024;
constexpr int64_t kMi = 1024 * kKi;
constexpr int64_t kGi = 1024 * kMi;

// --- kubectl dumps ------------------------------------------------------------

TEST(DecodeManifestsTest, KubectlJsonAndYamlDumpsDecodeAlike) {
  const Objects from_json = MustDecodeFile("cluster.json");
  const Objects from_yaml = MustDecodeFile("cluster.yaml");
  EXPECT_EQ(from_json, from_yaml);
  EXPECT_EQ(from_json.nodes.size(), 3u);
  EXPECT_EQ(from_json.pods.size(), 4u);
}

TEST(DecodeManifestsTest, KubectlDumpNodes) {
  const Objects objects = MustDecodeFile("cluster.json");
  ASSERT_EQ(objects.nodes.size(), 3u);

  const Node& cp = objects.nodes[0];
  EXPECT_EQ(cp.name, "kind-control-plane");
  EXPECT_EQ(cp.uid, "6c1f7a3e-kind-control-plane");
  EXPECT_EQ(cp.labels.at("topology.kubernetes.io/zone"), "zone-a");
  EXPECT_EQ(cp.labels.at("node-role.kubernetes.io/control-plane"), "");
  EXPECT_EQ(cp.taints, (std::vector<Taint>{
                           {"node-role.kubernetes.io/control-plane", "",
                            "NoSchedule"}}));
  EXPECT_FALSE(cp.unschedulable);
  EXPECT_EQ(cp.capacity, (ResourceList{{"cpu", 8000},
                                       {"ephemeral-storage", 101430960 * kKi},
                                       {"hugepages-1Gi", 0},
                                       {"hugepages-2Mi", 0},
                                       {"memory", 32879608 * kKi},
                                       {"pods", 110}}));
  EXPECT_EQ(cp.allocatable.at("cpu"), 7800);
  EXPECT_EQ(cp.allocatable.at("memory"), 32572408 * kKi);
  ASSERT_EQ(cp.images.size(), 2u);
  EXPECT_EQ(cp.images[0].names.size(), 2u);
  EXPECT_EQ(cp.images[0].size_bytes, 57236178);
  EXPECT_EQ(cp.annotations.at("node.alpha.kubernetes.io/ttl"), "0");
  EXPECT_EQ(cp.annotations.size(), 3u);
  // Conditions as type -> status (heartbeats, reasons and messages dropped).
  EXPECT_EQ(cp.conditions.at("MemoryPressure"), "False");
  EXPECT_EQ(cp.conditions.at("Ready"), "True");

  const Node& gpu = objects.nodes[2];
  EXPECT_EQ(gpu.name, "kind-worker2");
  EXPECT_TRUE(gpu.unschedulable);
  EXPECT_EQ(gpu.taints,
            (std::vector<Taint>{
                {"node.kubernetes.io/unschedulable", "", "NoSchedule"},
                {"dedicated", "gpu", "NoExecute"}}));
  EXPECT_EQ(gpu.allocatable.at("example.com/gpu"), 2);
  EXPECT_EQ(gpu.allocatable.at("cpu"), 15500);
  EXPECT_TRUE(gpu.images.empty());
}

TEST(DecodeManifestsTest, KubectlDumpPods) {
  const Objects objects = MustDecodeFile("cluster.json");
  ASSERT_EQ(objects.pods.size(), 4u);

  const Pod& dns = objects.pods[0];
  EXPECT_EQ(dns.Key(), "kube-system/coredns-7db6d8ff4d-4x8kz");
  EXPECT_EQ(dns.uid, "0b7d1c5e-4f3a-4e0e-9b1a-2f7f3c1d9e01");
  EXPECT_EQ(dns.creation_timestamp, 1714557625000);  // 2024-05-01T10:00:25Z
  EXPECT_EQ(dns.priority, 2000000000);
  EXPECT_EQ(dns.priority_class_name, "system-cluster-critical");
  EXPECT_EQ(dns.preemption_policy, "PreemptLowerPriority");
  EXPECT_EQ(dns.node_name, "kind-control-plane");
  EXPECT_EQ(dns.node_selector, (Labels{{"kubernetes.io/os", "linux"}}));
  ASSERT_EQ(dns.containers.size(), 1u);
  const Container& c = dns.containers[0];
  EXPECT_EQ(c.name, "coredns");
  EXPECT_EQ(c.requests,
            (ResourceList{{"cpu", 100}, {"memory", 70 * kMi}}));
  EXPECT_EQ(c.limits, (ResourceList{{"memory", 170 * kMi}}));
  EXPECT_EQ(c.ports, (std::vector<ContainerPort>{{53, 0, "UDP", ""},
                                                 {53, 0, "TCP", ""},
                                                 {9153, 0, "TCP", ""}}));
  ASSERT_EQ(dns.tolerations.size(), 4u);
  EXPECT_EQ(dns.tolerations[0],
            (Toleration{"CriticalAddonsOnly", "Exists", "", "", std::nullopt}));
  EXPECT_EQ(dns.tolerations[2].toleration_seconds, 300);
  ASSERT_TRUE(dns.affinity.has_value());
  ASSERT_TRUE(dns.affinity->pod_anti_affinity.has_value());
  EXPECT_FALSE(dns.affinity->pod_affinity.has_value());
  EXPECT_FALSE(dns.affinity->node_affinity.has_value());
  ASSERT_EQ(dns.affinity->pod_anti_affinity->preferred.size(), 1u);
  const WeightedPodAffinityTerm& anti =
      dns.affinity->pod_anti_affinity->preferred[0];
  EXPECT_EQ(anti.weight, 100);
  EXPECT_EQ(anti.term.topology_key, "kubernetes.io/hostname");
  EXPECT_EQ(anti.term.label_selector,
            (LabelSelector{{}, {{"k8s-app", "In", {"kube-dns"}}}}));
  EXPECT_EQ(dns.volumes, (std::vector<Volume>{
                             {"config-volume", {"configMap"}, std::nullopt},
                             {"kube-api-access-9xk2p", {"projected"}, std::nullopt}}));
  EXPECT_EQ(dns.start_time, 1714557640000);

  const Pod& web = objects.pods[1];
  EXPECT_EQ(web.Key(), "shop/web-0");
  EXPECT_FALSE(web.priority.has_value());
  EXPECT_EQ(web.nominated_node_name, "kind-worker");
  EXPECT_FALSE(web.start_time.has_value());
  // requests default to limits per resource; cpu "0.5" is 500m and "1G" is
  // decimal.
  EXPECT_EQ(web.containers[0].requests,
            (ResourceList{{"cpu", 500},
                          {"memory", 512 * kMi},
                          {"ephemeral-storage", 1000000000}}));
  EXPECT_EQ(web.containers[0].limits,
            (ResourceList{{"cpu", 1000}, {"memory", 1 * kGi}}));
  EXPECT_EQ(web.containers[0].ports,
            (std::vector<ContainerPort>{{80, 8080, "TCP", "0.0.0.0"}}));
  ASSERT_EQ(web.init_containers.size(), 2u);
  EXPECT_EQ(web.init_containers[0].restart_policy, "Always");
  EXPECT_EQ(web.init_containers[1].requests, (ResourceList{{"cpu", 200}}));
  EXPECT_EQ(web.overhead, (ResourceList{{"cpu", 250}, {"memory", 120 * kMi}}));
  ASSERT_TRUE(web.affinity && web.affinity->node_affinity);
  const NodeAffinity& na = *web.affinity->node_affinity;
  ASSERT_TRUE(na.required.has_value());
  EXPECT_EQ(na.required->terms,
            (std::vector<NodeSelectorTerm>{
                {{{"kubernetes.io/os", "In", {"linux"}},
                  {"node-role.kubernetes.io/control-plane", "DoesNotExist", {}}},
                 {}},
                {{}, {{"metadata.name", "In", {"kind-worker"}}}}}));
  EXPECT_EQ(na.preferred,
            (std::vector<PreferredSchedulingTerm>{
                {20, {{{"topology.kubernetes.io/zone", "In", {"zone-b"}}}, {}}}}));
  ASSERT_TRUE(web.affinity->pod_affinity.has_value());
  const PodAffinityTerm& pa = web.affinity->pod_affinity->required.at(0);
  EXPECT_EQ(pa.label_selector, (LabelSelector{{{"app", "cache"}}, {}}));
  EXPECT_EQ(pa.namespace_selector, LabelSelector{});  // {} selects all
  EXPECT_EQ(pa.match_label_keys, (std::vector<std::string>{"pod-template-hash"}));
  ASSERT_EQ(web.topology_spread_constraints.size(), 2u);
  const TopologySpreadConstraint& tsc = web.topology_spread_constraints[0];
  EXPECT_EQ(tsc.max_skew, 1);
  EXPECT_EQ(tsc.min_domains, 2);
  EXPECT_EQ(tsc.when_unsatisfiable, "DoNotSchedule");
  EXPECT_EQ(tsc.node_affinity_policy, "Honor");
  EXPECT_EQ(tsc.node_taints_policy, "Ignore");
  EXPECT_EQ(tsc.match_label_keys,
            (std::vector<std::string>{"controller-revision-hash"}));
  EXPECT_EQ(web.topology_spread_constraints[1].when_unsatisfiable,
            "ScheduleAnyway");
  EXPECT_FALSE(web.topology_spread_constraints[1].min_domains.has_value());
  EXPECT_EQ(web.volumes[0].name, "data");
  EXPECT_EQ(web.volumes[0].source.kind, "persistentVolumeClaim");
  EXPECT_EQ(web.volumes[0].source.claim_name, "data-web-0");
  EXPECT_EQ(web.volumes[1], (Volume{"scratch", {"emptyDir"}, std::nullopt}));

  const Pod& batch = objects.pods[2];
  EXPECT_EQ(batch.Key(), "batch/report-x7k2");
  EXPECT_EQ(batch.uid, "9e9e");
  EXPECT_EQ(batch.priority, 0);
  EXPECT_EQ(batch.preemption_policy, "Never");
  EXPECT_EQ(batch.scheduler_name, "batch-scheduler");
  EXPECT_EQ(batch.deletion_timestamp, 1714636830250);  // 08:00:30.250Z
  EXPECT_EQ(batch.start_time, 1714627805000);  // 07:30:05+02:00
  EXPECT_EQ(batch.containers[0].requests,
            (ResourceList{{"cpu", 2000}, {"memory", 4 * kGi},
                          {"example.com/gpu", 1}}));

  const Pod& gated = objects.pods[3];
  EXPECT_EQ(gated.Key(), "default/gated");
  EXPECT_EQ(gated.uid, "default/gated");
  EXPECT_EQ(gated.scheduler_name, "default-scheduler");
  EXPECT_EQ(gated.creation_timestamp, 0);  // creationTimestamp: null
  EXPECT_EQ(gated.scheduling_gates, (std::vector<std::string>{"example.com/quota"}));
  EXPECT_FALSE(gated.affinity.has_value());
}

// The API server labels every namespace with its name, over what the
// manifest says (SetDefaults_Namespace).
// kubectl create -f fills an absent or empty namespace with "default".
TEST(DecodeManifestsTest, MissingNamespaceIsDefault) {
  const Objects objects = MustDecode(
      "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n"
      "spec: {containers: [{name: c, image: i}]}\n---\n"
      "apiVersion: v1\nkind: Pod\nmetadata: {name: b, namespace: \"\"}\n"
      "spec: {containers: [{name: c, image: i}]}\n---\n"
      "apiVersion: v1\nkind: Pod\nmetadata: {name: c, namespace: other}\n"
      "spec: {containers: [{name: c, image: i}]}\n");
  ASSERT_EQ(objects.pods.size(), 3u);
  EXPECT_EQ(objects.pods[0].ns, "default");
  EXPECT_EQ(objects.pods[0].Key(), "default/a");
  EXPECT_EQ(objects.pods[1].ns, "default");
  EXPECT_EQ(objects.pods[2].ns, "other");
  // Its messages name it as default/<name>.
  const StatusOr<Objects> bad = DecodeManifests(
      "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec: {priority: x}\n", "t.yaml");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("Pod default/a: "), std::string::npos)
      << bad.status().message();
}

TEST(DecodeManifestsTest, NamespacesAreLabelledWithTheirName) {
  const Objects objects = MustDecode(R"(
apiVersion: v1
kind: Namespace
metadata: {name: plain}
---
apiVersion: v1
kind: Namespace
metadata:
  name: shop
  labels: {kubernetes.io/metadata.name: other, team: storefront}
)");
  EXPECT_EQ(objects.namespaces,
            (std::vector<Namespace>{
                {"plain", {{"kubernetes.io/metadata.name", "plain"}}},
                {"shop",
                 {{"kubernetes.io/metadata.name", "shop"},
                  {"team", "storefront"}}}}));
}

TEST(DecodeManifestsTest, OtherKindsInMultiDocumentYaml) {
  const Objects objects = MustDecodeFile("others.yaml");
  EXPECT_EQ(objects.namespaces,
            (std::vector<Namespace>{
                {"shop",
                 {{"kubernetes.io/metadata.name", "shop"},
                  {"team", "storefront"}}}}));
  EXPECT_EQ(objects.priority_classes,
            (std::vector<PriorityClass>{{"batch-low", -10, false, "Never"},
                                        {"shop-default", 1000, true, std::nullopt}}));
  ASSERT_EQ(objects.pdbs.size(), 1u);
  const PodDisruptionBudget& pdb = objects.pdbs[0];
  EXPECT_EQ(pdb.ns, "shop");
  EXPECT_EQ(pdb.name, "web-pdb");
  EXPECT_EQ(pdb.selector,
            (LabelSelector{{{"app", "web"}}, {{"tier", "NotIn", {"canary"}}}}));
  EXPECT_EQ(pdb.disruptions_allowed, 1);
  EXPECT_EQ(pdb.disrupted_pods, (std::vector<std::string>{"web-1", "web-2"}));
}

TEST(DecodeManifestsTest, TypedListItemsInheritKindAndApiVersion) {
  const Objects objects = MustDecodeFile("nodelist.json");
  ASSERT_EQ(objects.nodes.size(), 2u);
  EXPECT_EQ(objects.nodes[0].name, "n1");
  // No status.allocatable: the whole capacity is allocatable.
  EXPECT_EQ(objects.nodes[0].allocatable, objects.nodes[0].capacity);
  EXPECT_EQ(objects.nodes[0].allocatable,
            (ResourceList{{"cpu", 4000}, {"memory", 8 * kGi}, {"pods", 110}}));
  // Numbers are quantities too.
  EXPECT_EQ(objects.nodes[1].capacity,
            (ResourceList{{"cpu", 2000}, {"memory", 4 * kGi}, {"pods", 110}}));
  EXPECT_EQ(objects.nodes[1].allocatable,
            (ResourceList{{"cpu", 1500},
                          {"memory", 3 * kGi + 512 * kMi},
                          {"pods", 110}}));
}

TEST(DecodeManifestsTest, TestdataRoundTripsThroughEncodeList) {
  for (const char* file : {"cluster.json", "others.yaml", "nodelist.json", "storage.yaml"}) {
    const Objects objects = MustDecodeFile(file);
    const std::string text = EncodeList(objects).dump(2);
    StatusOr<Objects> again = DecodeManifests(text, "encoded.json");
    ASSERT_TRUE(again.ok()) << again.status().message();
    EXPECT_EQ(*again, objects) << file;
  }
}

// --- Storage kinds -------------------------------------------------------------------

TEST(DecodeManifestsTest, KubectlDumpStorage) {
  const Objects objects = MustDecodeFile("storage.yaml");
  ASSERT_EQ(objects.persistent_volumes.size(), 2u);
  ASSERT_EQ(objects.persistent_volume_claims.size(), 2u);
  ASSERT_EQ(objects.storage_classes.size(), 2u);
  ASSERT_EQ(objects.csi_nodes.size(), 1u);
  ASSERT_EQ(objects.csi_drivers.size(), 2u);
  ASSERT_EQ(objects.csi_storage_capacities.size(), 1u);

  PersistentVolume provisioned;
  provisioned.name = "pvc-5b1f0e6c-2a54-4f0b-9d47-1c8e0f6b7a21";
  provisioned.uid = "0c8d1b52-7d0a-4d5e-8a1f-6f2e9c3b4a10";
  provisioned.annotations = {{"pv.kubernetes.io/provisioned-by", "hostpath.csi.k8s.io"},
                             {"volume.kubernetes.io/provisioner-deletion-secret-name", ""}};
  provisioned.capacity = kGi;
  provisioned.access_modes = {kReadWriteOnce};
  provisioned.storage_class_name = "csi-hostpath-sc";
  provisioned.claim_ref =
      ClaimReference{"shop", "data-web-0", "5b1f0e6c-2a54-4f0b-9d47-1c8e0f6b7a21"};
  provisioned.node_affinity = NodeSelector{
      {NodeSelectorTerm{{{"topology.hostpath.csi/node", "In", {"kind-worker"}}}, {}}}};
  provisioned.reclaim_policy = "Delete";
  provisioned.source.kind = "csi";
  provisioned.source.driver = "hostpath.csi.k8s.io";
  provisioned.source.volume_handle = "7a1c2f0e-a71b-11ef-9a1d-0242ac120003";
  provisioned.phase = "Bound";
  EXPECT_EQ(objects.persistent_volumes[0], provisioned);

  PersistentVolume ebs;
  ebs.name = "ebs-static";
  ebs.uid = "3e4f5a6b-0000-4000-8000-000000000001";
  ebs.labels = {{"topology.kubernetes.io/zone", "us-east-1a"}};
  ebs.capacity = 500 * kMi;
  ebs.access_modes = {kReadWriteOnce, kReadOnlyMany};
  ebs.source.kind = "awsElasticBlockStore";
  ebs.source.volume_id = "aws://us-east-1a/vol-0abc123";
  ebs.phase = "Available";
  EXPECT_EQ(objects.persistent_volumes[1], ebs);  // reclaim Retain, Filesystem, no class

  PersistentVolumeClaim bound;
  bound.ns = "shop";
  bound.name = "data-web-0";
  bound.uid = "5b1f0e6c-2a54-4f0b-9d47-1c8e0f6b7a21";
  bound.labels = {{"app", "web"}};
  bound.annotations = {{kAnnBindCompleted, "yes"},
                       {kAnnBoundByController, "yes"},
                       {kAnnBetaStorageProvisioner, "hostpath.csi.k8s.io"},
                       {kAnnSelectedNode, "kind-worker"},
                       {kAnnStorageProvisioner, "hostpath.csi.k8s.io"}};
  bound.spec.access_modes = {kReadWriteOnce};
  bound.spec.storage_request = kGi;
  bound.spec.storage_class_name = "csi-hostpath-sc";
  bound.spec.volume_name = provisioned.name;
  bound.phase = "Bound";
  EXPECT_EQ(objects.persistent_volume_claims[0], bound);

  PersistentVolumeClaim ephemeral;
  ephemeral.ns = "shop";
  ephemeral.name = "web-1-scratch";
  ephemeral.uid = "77aa88bb-0000-4000-8000-000000000002";
  ephemeral.owner_references = {
      OwnerReference{"v1", "Pod", "web-1", "9d3e2c1b-1111-4222-8333-444455556666", true}};
  ephemeral.spec.access_modes = {kReadWriteOncePod};
  ephemeral.spec.storage_request = 1500 * 1000 * 1000;  // limits are not read
  EXPECT_EQ(objects.persistent_volume_claims[1], ephemeral);
  EXPECT_FALSE(ephemeral.spec.storage_class_name.has_value());  // absent, not ""

  const StorageClass& wffc = objects.storage_classes[0];
  EXPECT_EQ(wffc.name, "csi-hostpath-sc");
  EXPECT_EQ(wffc.provisioner, "hostpath.csi.k8s.io");
  EXPECT_EQ(wffc.volume_binding_mode, kVolumeBindingWaitForFirstConsumer);
  EXPECT_EQ(wffc.annotations.at("storageclass.kubernetes.io/is-default-class"), "true");
  EXPECT_TRUE(wffc.allowed_topologies.empty());
  EXPECT_EQ(objects.storage_classes[1],
            (StorageClass{"zonal",
                          {},
                          "ebs.csi.aws.com",
                          "Delete",
                          kVolumeBindingImmediate,
                          {TopologySelectorTerm{
                              {{"topology.kubernetes.io/zone", {"us-east-1a", "us-east-1b"}}}}}}));

  EXPECT_EQ(objects.csi_nodes[0],
            (CSINode{"kind-worker",
                     {{kAnnMigratedPlugins, "kubernetes.io/aws-ebs,kubernetes.io/cinder"}},
                     {CSINodeDriver{"hostpath.csi.k8s.io", "kind-worker",
                                    {"topology.hostpath.csi/node"}, 25},
                      CSINodeDriver{"ebs.csi.aws.com", "i-0123456789abcdef0", {}, std::nullopt}}}));
  EXPECT_EQ(objects.csi_drivers[0], (CSIDriver{"hostpath.csi.k8s.io", false, true}));
  EXPECT_EQ(objects.csi_drivers[1], (CSIDriver{"ebs.csi.aws.com", true, false}));  // defaults

  CSIStorageCapacity capacity;
  capacity.ns = "kube-system";
  capacity.name = "csisc-abcde";
  capacity.node_topology = LabelSelector{};
  capacity.node_topology->match_labels = {{"topology.hostpath.csi/node", "kind-worker"}};
  capacity.storage_class_name = "csi-hostpath-sc";
  capacity.capacity = 100 * kGi;
  capacity.maximum_volume_size = 10 * kGi;
  EXPECT_EQ(objects.csi_storage_capacities[0], capacity);
}

TEST(DecodeManifestsTest, StorageDefaults) {
  const Objects objects = MustDecode(R"(
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv, namespace: ignored}
spec:
  accessModes: [ReadWriteOnce]
  capacity: {storage: 1Gi}
  hostPath: {path: /data}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: c}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
  storageClassName: ""
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: sc}
provisioner: example.com/p
---
apiVersion: storage.k8s.io/v1
kind: CSIStorageCapacity
metadata: {name: cap}
storageClassName: sc
---
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c}]
  volumes:
  - name: r
    rbd: {monitors: [m1], image: img}
  - name: e
    ephemeral:
      volumeClaimTemplate:
        metadata: {labels: {a: b}}
        spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Ki}}}
)");
  ASSERT_EQ(objects.persistent_volumes.size(), 1u);
  const PersistentVolume& pv = objects.persistent_volumes[0];
  EXPECT_EQ(pv.uid, "pv");
  EXPECT_EQ(pv.phase, "Pending");
  EXPECT_EQ(pv.reclaim_policy, "Retain");
  EXPECT_EQ(pv.volume_mode, "Filesystem");
  EXPECT_EQ(pv.source.path, "/data");
  const PersistentVolumeClaim& pvc = objects.persistent_volume_claims.at(0);
  EXPECT_EQ(pvc.ns, "default");
  EXPECT_EQ(pvc.uid, "default/c");
  EXPECT_EQ(pvc.phase, "Pending");
  EXPECT_EQ(pvc.spec.volume_mode, "Filesystem");
  EXPECT_EQ(pvc.spec.storage_class_name, std::optional<std::string>(""));
  const StorageClass& sc = objects.storage_classes.at(0);
  EXPECT_EQ(sc.reclaim_policy, "Delete");
  EXPECT_EQ(sc.volume_binding_mode, kVolumeBindingImmediate);
  const CSIStorageCapacity& cap = objects.csi_storage_capacities.at(0);
  EXPECT_EQ(cap.ns, "default");
  EXPECT_FALSE(cap.node_topology.has_value());  // matches no node
  EXPECT_FALSE(cap.capacity.has_value());
  const Pod& pod = objects.pods.at(0);
  EXPECT_EQ(pod.volumes.at(0).source.pool, "rbd");
  ASSERT_TRUE(pod.volumes.at(1).ephemeral.has_value());
  EXPECT_EQ(pod.volumes.at(1).ephemeral->storage_request, kKi);
}

TEST(DecodeManifestsTest, StorageErrors) {
  struct Case {
    std::string name;
    std::string text;
    std::string want;
  };
  const std::string pv = "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: pv}\n";
  const std::string pv_ok_spec =
      "  accessModes: [ReadWriteOnce]\n  capacity: {storage: 1Gi}\n";
  const std::string pvc =
      "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c, namespace: ns1}\n";
  const std::string sc = "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: sc}\n";
  const std::string csinode =
      "apiVersion: storage.k8s.io/v1\nkind: CSINode\nmetadata: {name: n1}\n";
  const std::string cap =
      "apiVersion: storage.k8s.io/v1\nkind: CSIStorageCapacity\nmetadata: {name: c, namespace: "
      "ns1}\n";
  const std::string csidriver =
      "apiVersion: storage.k8s.io/v1\nkind: CSIDriver\nmetadata: {name: d}\n";
  const std::string pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  volumes:\n";
  const std::string at_pv = "s.yaml: PersistentVolume pv: ";
  const std::string at_pvc = "s.yaml: PersistentVolumeClaim ns1/c: ";
  const std::string at_pod = "s.yaml: Pod default/p: ";
  const std::vector<Case> cases = {
      // PersistentVolume.
      {"PV without accessModes", pv + "spec: {capacity: {storage: 1Gi}, hostPath: {path: /a}}\n",
       at_pv + "spec.accessModes: required value"},
      {"PV unknown access mode",
       pv + "spec: {accessModes: [ReadWriteSometimes], capacity: {storage: 1Gi}, hostPath: "
            "{path: /a}}\n",
       at_pv + "spec.accessModes: unsupported value \"ReadWriteSometimes\" (supported: "
               "\"ReadOnlyMany\", \"ReadWriteMany\", \"ReadWriteOnce\", \"ReadWriteOncePod\")"},
      {"PV ReadWriteOncePod with another mode",
       pv + "spec: {accessModes: [ReadWriteOncePod, ReadOnlyMany], capacity: {storage: 1Gi}, "
            "hostPath: {path: /a}}\n",
       at_pv + "spec.accessModes: may not use ReadWriteOncePod with other access modes"},
      {"PV capacity missing", pv + "spec:\n  accessModes: [ReadWriteOnce]\n  hostPath: {path: /a}\n",
       at_pv + "spec.capacity: required value"},
      {"PV capacity without storage",
       pv + "spec:\n  accessModes: [ReadWriteOnce]\n  capacity: {cpu: 1}\n  hostPath: {path: /a}\n",
       at_pv + "spec.capacity.storage: required value"},
      {"PV capacity with another key",
       pv + "spec:\n  accessModes: [ReadWriteOnce]\n  capacity: {storage: 1Gi, cpu: 1}\n"
            "  hostPath: {path: /a}\n",
       at_pv + "spec.capacity: unsupported value \"cpu\" (supported: \"storage\")"},
      {"PV capacity zero",
       pv + "spec:\n  accessModes: [ReadWriteOnce]\n  capacity: {storage: '0'}\n"
            "  hostPath: {path: /a}\n",
       at_pv + "spec.capacity.storage: must be greater than zero"},
      {"PV bad reclaim policy",
       pv + "spec:\n" + pv_ok_spec + "  persistentVolumeReclaimPolicy: Keep\n  hostPath: {path: /a}\n",
       at_pv + "spec.persistentVolumeReclaimPolicy: unsupported value \"Keep\" (supported: "
               "\"Delete\", \"Recycle\", \"Retain\")"},
      {"PV two sources",
       pv + "spec:\n" + pv_ok_spec + "  hostPath: {path: /a}\n  nfs: {server: s, path: /x}\n",
       at_pv + "spec.nfs: may not specify more than 1 volume type (found hostPath and nfs)"},
      {"PV no source", pv + "spec:\n" + pv_ok_spec,
       at_pv + "spec: required value: must specify a volume type"},
      {"PV pod-only source", pv + "spec:\n" + pv_ok_spec + "  emptyDir: {}\n",
       at_pv + "spec: required value: must specify a volume type"},
      {"local PV without nodeAffinity", pv + "spec:\n" + pv_ok_spec + "  local: {path: /mnt/d}\n",
       at_pv + "spec.nodeAffinity: required value: Local volume requires node affinity"},
      {"nodeAffinity without required",
       pv + "spec:\n" + pv_ok_spec + "  nodeAffinity: {}\n  hostPath: {path: /a}\n",
       at_pv + "spec.nodeAffinity.required: required value: must specify required node "
               "constraints"},
      {"nodeAffinity without terms",
       pv + "spec:\n" + pv_ok_spec +
           "  nodeAffinity: {required: {nodeSelectorTerms: []}}\n  hostPath: {path: /a}\n",
       at_pv + "spec.nodeAffinity.required.nodeSelectorTerms: required value: must have at "
               "least one node selector term"},
      {"CSI PV without volumeHandle",
       pv + "spec:\n" + pv_ok_spec + "  csi: {driver: ebs.csi.aws.com}\n",
       at_pv + "spec.csi.volumeHandle: required value"},
      {"hostPath / with Recycle",
       pv + "spec:\n" + pv_ok_spec +
           "  persistentVolumeReclaimPolicy: Recycle\n  hostPath: {path: /}\n",
       at_pv + "spec.persistentVolumeReclaimPolicy: forbidden: may not be 'recycle' for a "
               "hostPath mount of '/'"},
      {"PV bad storageClassName",
       pv + "spec:\n" + pv_ok_spec + "  storageClassName: Fast_SSD\n  hostPath: {path: /a}\n",
       at_pv + "spec.storageClassName: invalid value \"Fast_SSD\": a lowercase RFC 1123 "
               "subdomain must consist of lower case alphanumeric characters, '-' or '.', and "
               "must start and end with an alphanumeric character (e.g. 'example.com', regex "
               "used for validation is "
               "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"},
      {"PV bad volumeMode",
       pv + "spec:\n" + pv_ok_spec + "  volumeMode: Raw\n  hostPath: {path: /a}\n",
       at_pv + "spec.volumeMode: unsupported value \"Raw\" (supported: \"Block\", "
               "\"Filesystem\")"},
      {"PV bad name", "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: PV1}\n",
       "s.yaml: PersistentVolume PV1: metadata.name: invalid value \"PV1\": a lowercase RFC "
       "1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and "
       "must start and end with an alphanumeric character (e.g. 'example.com', regex used for "
       "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"},
      {"PV bad phase",
       pv + "spec:\n" + pv_ok_spec + "  hostPath: {path: /a}\nstatus: {phase: Gone}\n",
       at_pv + "status.phase: unsupported value \"Gone\" (supported: \"Pending\", "
               "\"Available\", \"Bound\", \"Released\", \"Failed\")"},
      // PersistentVolumeClaim.
      {"PVC without accessModes", pvc + "spec: {resources: {requests: {storage: 1Gi}}}\n",
       at_pvc + "spec.accessModes: required value: at least 1 access mode is required"},
      {"PVC storage request missing",
       pvc + "spec: {accessModes: [ReadWriteOnce], resources: {limits: {storage: 1Gi}}}\n",
       at_pvc + "spec.resources.requests.storage: required value"},
      {"PVC storage request zero",
       pvc + "spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 0}}}\n",
       at_pvc + "spec.resources.requests.storage: must be greater than zero"},
      {"PVC bad phase",
       pvc + "spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1}}}\n"
             "status: {phase: Available}\n",
       at_pvc + "status.phase: unsupported value \"Available\" (supported: \"Pending\", "
                "\"Bound\", \"Lost\")"},
      {"PVC two controllers",
       "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: c\n  namespace: ns1\n"
       "  ownerReferences:\n"
       "  - {apiVersion: v1, kind: Pod, name: a, uid: u1, controller: true}\n"
       "  - {apiVersion: v1, kind: Pod, name: b, uid: u2, controller: true}\n"
       "spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1}}}\n",
       at_pvc + "metadata.ownerReferences: Only one reference can have Controller set to true"},
      // StorageClass.
      {"StorageClass without provisioner", sc,
       "s.yaml: StorageClass sc: provisioner: required value"},
      {"StorageClass bad provisioner", sc + "provisioner: 'Example.com/my provisioner'\n",
       "s.yaml: StorageClass sc: provisioner: invalid value \"example.com/my provisioner\": "
       "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and "
       "end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex "
       "used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"},
      {"StorageClass bad volumeBindingMode", sc + "provisioner: p\nvolumeBindingMode: Later\n",
       "s.yaml: StorageClass sc: volumeBindingMode: unsupported value \"Later\" (supported: "
       "\"Immediate\", \"WaitForFirstConsumer\")"},
      {"StorageClass Recycle", sc + "provisioner: p\nreclaimPolicy: Recycle\n",
       "s.yaml: StorageClass sc: reclaimPolicy: unsupported value \"Recycle\" (supported: "
       "\"Delete\", \"Retain\")"},
      {"allowedTopologies without values",
       sc + "provisioner: p\nallowedTopologies: [{matchLabelExpressions: [{key: zone}]}]\n",
       "s.yaml: StorageClass sc: allowedTopologies[0].matchLabelExpressions[0].values: "
       "required value"},
      {"allowedTopologies repeated value",
       sc + "provisioner: p\nallowedTopologies: [{matchLabelExpressions: [{key: zone, values: "
            "[a, a]}]}]\n",
       "s.yaml: StorageClass sc: allowedTopologies[0].matchLabelExpressions[0].values[1]: "
       "duplicate value \"a\""},
      {"allowedTopologies repeated key",
       sc + "provisioner: p\nallowedTopologies: [{matchLabelExpressions: [{key: z, values: "
            "[a]}, {key: z, values: [b]}]}]\n",
       "s.yaml: StorageClass sc: allowedTopologies[0].matchLabelExpressions[1].key: duplicate "
       "value \"z\""},
      {"allowedTopologies repeated term",
       sc + "provisioner: p\nallowedTopologies:\n- matchLabelExpressions: [{key: z, values: [a, "
            "b]}]\n- matchLabelExpressions: [{key: z, values: [b, a]}]\n",
       "s.yaml: StorageClass sc: allowedTopologies[1].matchLabelExpressions: duplicate value "
       "\"\""},
      {"allowedTopologies empty term", sc + "provisioner: p\nallowedTopologies: [{}]\n",
       "s.yaml: StorageClass sc: allowedTopologies[0].matchLabelExpressions: duplicate value "
       "\"\""},
      // CSINode.
      {"CSINode duplicate driver",
       csinode + "spec: {drivers: [{name: d, nodeID: a}, {name: d, nodeID: b}]}\n",
       "s.yaml: CSINode n1: spec.drivers[1].name: duplicate value \"d\""},
      {"CSINode negative count",
       csinode + "spec: {drivers: [{name: d, nodeID: a, allocatable: {count: -1}}]}\n",
       "s.yaml: CSINode n1: spec.drivers[0].allocatable.count: invalid value -1: must be "
       "greater than or equal to 0"},
      {"CSINode missing nodeID", csinode + "spec: {drivers: [{name: d}]}\n",
       "s.yaml: CSINode n1: spec.drivers[0].nodeID: required value"},
      {"CSINode nodeID too long",
       csinode + "spec: {drivers: [{name: d, nodeID: " + std::string(257, 'x') + "}]}\n",
       "s.yaml: CSINode n1: spec.drivers[0].nodeID: invalid value \"" + std::string(257, 'x') +
           "\": must be 256 characters or less"},
      {"CSINode missing driver name", csinode + "spec: {drivers: [{nodeID: a}]}\n",
       "s.yaml: CSINode n1: spec.drivers[0].name: required value"},
      {"CSINode bad driver name", csinode + "spec: {drivers: [{name: a_b, nodeID: a}]}\n",
       "s.yaml: CSINode n1: spec.drivers[0].name: invalid value \"a_b\": a lowercase RFC 1123 "
       "subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "
       "start and end with an alphanumeric character (e.g. 'example.com', regex used for "
       "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"},
      {"CSINode repeated topology key",
       csinode + "spec: {drivers: [{name: d, nodeID: a, topologyKeys: [z, z]}]}\n",
       "s.yaml: CSINode n1: spec.drivers[0]: duplicate value \"z\""},
      // CSIDriver.
      {"CSIDriver bad fsGroupPolicy", csidriver + "spec: {fsGroupPolicy: Always}\n",
       "s.yaml: CSIDriver d: spec.fsGroupPolicy: unsupported value \"Always\" (supported: "
       "\"File\", \"None\", \"ReadWriteOnceWithFSType\")"},
      {"CSIDriver bad lifecycle mode", csidriver + "spec: {volumeLifecycleModes: [Inline]}\n",
       "s.yaml: CSIDriver d: spec.volumeLifecycleModes: unsupported value \"Inline\" "
       "(supported: \"Persistent\", \"Ephemeral\")"},
      // CSIStorageCapacity.
      {"CSIStorageCapacity empty storageClassName", cap,
       "s.yaml: CSIStorageCapacity ns1/c: storageClassName: invalid value \"\": a lowercase RFC "
       "1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and "
       "must start and end with an alphanumeric character (e.g. 'example.com', regex used for "
       "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"},
      {"CSIStorageCapacity negative capacity", cap + "storageClassName: sc\ncapacity: -1Gi\n",
       "s.yaml: CSIStorageCapacity ns1/c: capacity: must be greater than or equal to 0"},
      // Pod volumes.
      {"pod volume duplicate name",
       pod + "  - {name: v, emptyDir: {}}\n  - {name: v, emptyDir: {}}\n",
       at_pod + "spec.volumes[1].name: duplicate value \"v\""},
      {"pod volume bad name", pod + "  - {name: V_1, emptyDir: {}}\n",
       at_pod + "spec.volumes[0].name: invalid value \"V_1\": invalid namespace name \"V_1\": a "
                "lowercase RFC 1123 label must consist of lower case alphanumeric characters or "
                "'-', and must start and end with an alphanumeric character (at most 63 "
                "characters)"},
      {"pod volume two sources", pod + "  - {name: v, emptyDir: {}, hostPath: {path: /a}}\n",
       at_pod + "spec.volumes[0].hostPath: may not specify more than 1 volume type (found "
                "emptyDir and hostPath)"},
      {"pod volume claimName missing", pod + "  - {name: v, persistentVolumeClaim: {}}\n",
       at_pod + "spec.volumes[0].persistentVolumeClaim.claimName: required field is missing"},
      {"pod volume claimName empty",
       pod + "  - {name: v, persistentVolumeClaim: {claimName: ''}}\n",
       at_pod + "spec.volumes[0].persistentVolumeClaim.claimName: must not be empty"},
      {"ephemeral without template", pod + "  - {name: v, ephemeral: {}}\n",
       at_pod + "spec.volumes[0].ephemeral.volumeClaimTemplate: required value"},
      {"ephemeral template without accessModes",
       pod + "  - {name: v, ephemeral: {volumeClaimTemplate: {spec: {resources: {requests: "
             "{storage: 1}}}}}}\n",
       at_pod + "spec.volumes[0].ephemeral.volumeClaimTemplate.spec.accessModes: required "
                "value: at least 1 access mode is required"},
      {"ephemeral template with a name",
       pod + "  - {name: v, ephemeral: {volumeClaimTemplate: {metadata: {name: x}, spec: "
             "{accessModes: [ReadWriteOnce], resources: {requests: {storage: 1}}}}}}\n",
       at_pod + "spec.volumes[0].ephemeral.volumeClaimTemplate.metadata.name: forbidden: "
                "cannot be set"},
      {"claim naming an ephemeral volume's claim",
       pod + "  - {name: v, ephemeral: {volumeClaimTemplate: {spec: {accessModes: "
             "[ReadWriteOnce], resources: {requests: {storage: 1}}}}}}\n"
             "  - {name: w, persistentVolumeClaim: {claimName: p-v}}\n",
       at_pod + "spec.volumes[1].persistentVolumeClaim.claimName: invalid value \"p-v\": must "
                "not reference a PVC that gets created for an ephemeral volume"},
      {"csi driver too long", pod + "  - {name: v, csi: {driver: " + std::string(64, 'd') + "}}\n",
       at_pod + "spec.volumes[0].csi.driver: too long: may not be more than 63 bytes"},
      {"csi driver missing", pod + "  - {name: v, csi: {}}\n",
       at_pod + "spec.volumes[0].csi.driver: required value"},
      {"awsElasticBlockStore without volumeID", pod + "  - {name: v, awsElasticBlockStore: {}}\n",
       at_pod + "spec.volumes[0].awsElasticBlockStore.volumeID: required value"},
      {"gcePersistentDisk partition",
       pod + "  - {name: v, gcePersistentDisk: {pdName: d, partition: 256}}\n",
       at_pod + "spec.volumes[0].gcePersistentDisk.partition: invalid value 256: must be "
                "between 1 and 255, inclusive"},
      {"azureDisk without diskURI", pod + "  - {name: v, azureDisk: {diskName: d}}\n",
       at_pod + "spec.volumes[0].azureDisk.diskURI: required value"},
      {"azureDisk blob URI", pod + "  - {name: v, azureDisk: {diskName: d, diskURI: /x}}\n",
       at_pod + "spec.volumes[0].azureDisk.diskURI: unsupported value \"/x\" (supported: "
                "\"https://{account-name}.blob.core.windows.net/{container-name}/"
                "{disk-name}.vhd\")"},
      {"azureDisk managed URI",
       pod + "  - {name: v, azureDisk: {diskName: d, diskURI: 'https://a/b', kind: Managed}}\n",
       at_pod + "spec.volumes[0].azureDisk.diskURI: unsupported value \"https://a/b\" "
                "(supported: \"/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/"
                "microsoft.compute/disks/{disk-id}\")"},
      {"rbd without monitors", pod + "  - {name: v, rbd: {image: i}}\n",
       at_pod + "spec.volumes[0].rbd.monitors: required value"},
      {"iscsi bad iqn prefix",
       pod + "  - {name: v, iscsi: {targetPortal: 't:3260', iqn: abc}}\n",
       at_pod + "spec.volumes[0].iscsi.iqn: invalid value \"abc\": must be valid format "
                "starting with iqn, eui, or naa"},
      {"iscsi bad iqn", pod + "  - {name: v, iscsi: {targetPortal: 't:3260', iqn: iqn.x}}\n",
       at_pod + "spec.volumes[0].iscsi.iqn: invalid value \"iqn.x\": must be valid format"},
      {"iscsi lun", pod + "  - {name: v, iscsi: {targetPortal: t, iqn: 'iqn.2001-04.com.e:s', "
                          "lun: 256}}\n",
       at_pod + "spec.volumes[0].iscsi.lun: invalid value 256: must be between 0 and 255, "
                "inclusive"},
      {"hostPath with ..", pod + "  - {name: v, hostPath: {path: /a/../b}}\n",
       at_pod + "spec.volumes[0].hostPath.path: invalid value \"/a/../b\": must not contain "
                "'..'"},
      {"hostPath bad type", pod + "  - {name: v, hostPath: {path: /a, type: Dir}}\n",
       at_pod + "spec.volumes[0].hostPath.type: unsupported value \"Dir\" (supported: \"\", "
                "\"BlockDevice\", \"CharDevice\", \"Directory\", \"DirectoryOrCreate\", "
                "\"File\", \"FileOrCreate\", \"Socket\")"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    StatusOr<Objects> got = DecodeManifests(c.text, "s.yaml");
    ASSERT_FALSE(got.ok());
    EXPECT_TRUE(got.status().IsInvalid());
    EXPECT_EQ(got.status().message(), c.want);
  }
}

TEST(DecodeManifestsTest, StorageAccepts) {
  // What upstream accepts that a stricter reading might refuse.
  MustDecode(R"(
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv}
spec:
  accessModes: [ReadWriteOncePod]
  capacity: {storage: 1}
  claimRef: {name: ""}
  csi: {driver: Ebs.CSI.aws.com, volumeHandle: h}
---
apiVersion: storage.k8s.io/v1
kind: CSIStorageCapacity
metadata: {name: cap}
storageClassName: sc
capacity: "0"
maximumVolumeSize: -1Gi
---
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c}]
  volumes:
  - {name: a, gcePersistentDisk: {pdName: d, partition: 0}}
  - {name: b, iscsi: {targetPortal: t, iqn: eui.0123456789ABCDEF}}
  - {name: c, azureDisk: {diskName: d, diskURI: /subscriptions/s/x, kind: Managed}}
  - {name: d, hostPath: {path: /a/..b, type: ""}}
  - {name: e, hostPath: {path: '/a\..\b'}}
  - {name: f, iscsi: {targetPortal: t, iqn: 'iqnx-iqn.2001-04.com.e:s'}}
)");
}

// --- Defaults ---------------------------------------------------------------------

TEST(DecodeManifestsTest, Defaults) {
  const Objects objects = MustDecode(R"(
apiVersion: v1
kind: Pod
metadata:
  name: p
spec:
  schedulerName: ""
  containers:
  - name: c
    ports:
    - containerPort: 80
    resources:
      limits: {cpu: 2, memory: 1Gi}
      requests: {memory: 100Mi}
)");
  ASSERT_EQ(objects.pods.size(), 1u);
  const Pod& pod = objects.pods[0];
  EXPECT_EQ(pod.ns, "default");
  EXPECT_EQ(pod.uid, "default/p");
  EXPECT_EQ(pod.scheduler_name, "default-scheduler");
  EXPECT_EQ(pod.containers[0].ports[0].protocol, "TCP");
  // Only the missing request is taken from the limit.
  EXPECT_EQ(pod.containers[0].requests,
            (ResourceList{{"cpu", 2000}, {"memory", 100 * kMi}}));
}

// The largest values kube-scheduler reads exactly are accepted.
TEST(DecodeManifestsTest, QuantityAtTheInt64Limit) {
  const Objects objects = MustDecode(R"(
apiVersion: v1
kind: Node
metadata: {name: node-1}
status:
  capacity: {cpu: 9223372036854775807m, memory: 9Ei, pods: "9223372036854775807"}
)");
  ASSERT_EQ(objects.nodes.size(), 1u);
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(objects.nodes[0].capacity,
            (ResourceList{{"cpu", kMax}, {"memory", kMax}, {"pods", kMax}}));
}

TEST(DecodeManifestsTest, QuantityRounding) {
  const Objects objects = MustDecode(R"(
apiVersion: v1
kind: Node
metadata: {name: node-1}
status:
  capacity: {cpu: 1.0001, memory: 1.5, pods: " 7 ", example.com/x: 1k, ephemeral-storage: 100m}
)");
  ASSERT_EQ(objects.nodes.size(), 1u);
  // cpu rounds up to a whole millicore, others to a whole unit.
  EXPECT_EQ(objects.nodes[0].capacity,
            (ResourceList{{"cpu", 1001},
                          {"memory", 2},
                          {"pods", 7},
                          {"example.com/x", 1000},
                          {"ephemeral-storage", 1}}));
}

// --- Errors ---------------------------------------------------------------------------

// The API server merges a matchLabelKeys key into the selector only when the
// pod has the label, so only then can the key clash with the selector's own
// (validateMatchLabelKeysAndMismatchLabelKeys runs after the merge).
TEST(DecodeManifestsTest, AffinityMatchLabelKeyInSelectorWithoutThePodsLabel) {
  const Objects objects = MustDecode(R"(
apiVersion: v1
kind: Pod
metadata: {name: p, labels: {tier: web}}
spec:
  containers: [{name: c}]
  affinity:
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - topologyKey: zone
        labelSelector: {matchLabels: {app: web}}
        matchLabelKeys: [app]
)");
  ASSERT_EQ(objects.pods.size(), 1u);
  EXPECT_EQ(objects.pods[0].affinity->pod_affinity->required[0].match_label_keys,
            std::vector<std::string>{"app"});
}

// SetDefaults_Pod: a hostNetwork pod's container ports without a hostPort
// get one equal to the container port; explicit host ports stay.
TEST(DecodeManifestsTest, HostNetworkDefaultsHostPorts) {
  const Objects objects = MustDecode(R"(
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  hostNetwork: true
  initContainers:
  - {name: i, image: x, ports: [{containerPort: 9000}]}
  containers:
  - name: c
    image: x
    ports: [{containerPort: 8080}, {containerPort: 8443, hostPort: 443}]
---
apiVersion: v1
kind: Pod
metadata: {name: q}
spec:
  containers:
  - {name: c, image: x, ports: [{containerPort: 8080}]}
)");
  ASSERT_EQ(objects.pods.size(), 2u);
  const Pod& p = objects.pods[0];
  EXPECT_EQ(p.containers[0].ports[0].host_port, 8080);
  EXPECT_EQ(p.containers[0].ports[1].host_port, 443);
  EXPECT_EQ(p.init_containers[0].ports[0].host_port, 9000);
  EXPECT_EQ(objects.pods[1].containers[0].ports[0].host_port, 0);
}

// status.phase is read (the scheduler's informers skip finished pods).
TEST(DecodeManifestsTest, PodPhase) {
  const Objects objects = MustDecode(R"(
apiVersion: v1
kind: Pod
metadata: {name: done}
spec: {containers: [{name: c, image: x}]}
status: {phase: Succeeded}
---
apiVersion: v1
kind: Pod
metadata: {name: fresh}
spec: {containers: [{name: c, image: x}]}
)");
  ASSERT_EQ(objects.pods.size(), 2u);
  EXPECT_EQ(objects.pods[0].phase, "Succeeded");
  EXPECT_TRUE(objects.pods[0].Terminated());
  EXPECT_EQ(objects.pods[1].phase, "");
  EXPECT_FALSE(objects.pods[1].Terminated());
}

TEST(DecodeManifestsTest, Errors) {
  struct Case {
    std::string name;
    std::string file;
    std::string text;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"bad quantity", "nodes.yaml",
       "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
       "status: {allocatable: {cpu: abc}}\n",
       "nodes.yaml: Node n1: status.allocatable.cpu: quantity \"abc\": "
       "quantities must match the regular expression "
       "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"},
      {"bad quantity suffix", "nodes.yaml",
       "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
       "status: {allocatable: {memory: 1ki}}\n",
       "nodes.yaml: Node n1: status.allocatable.memory: quantity \"1ki\": "
       "unable to parse quantity's suffix"},
      {"29-digit cpu", "nodes.yaml",
       "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
       "status: {allocatable: {cpu: '12345678901234567890123456789'}}\n",
       "nodes.yaml: Node n1: status.allocatable.cpu: quantity "
       "\"12345678901234567890123456789\": out of range: kube-scheduler reads "
       "it as a 64-bit integer of millicores (at most 9223372036854775807), and "
       "v1.32 reads a larger value wrapped or as 0; schedref does not model "
       "such quantities"},
      {"cpu request 1e400", "pods.yaml",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
       "spec: {containers: [{name: c, resources: {requests: {cpu: 1e400}}}]}\n",
       "pods.yaml: Pod default/p: spec.containers[0].resources.requests.cpu: "
       "quantity \"1e400\": out of range: kube-scheduler reads it as a 64-bit "
       "integer of millicores (at most 9223372036854775807), and v1.32 reads a "
       "larger value wrapped or as 0; schedref does not model such quantities"},
      {"memory past int64", "nodes.yaml",
       "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
       "status: {capacity: {memory: 1e19}}\n",
       "nodes.yaml: Node n1: status.capacity.memory: quantity \"1e+19\": out of "
       "range: kube-scheduler reads it as a 64-bit integer (at most "
       "9223372036854775807), and v1.32 reads a larger value wrapped or as 0; "
       "schedref does not model such quantities"},
      {"claim storage past int64", "pvc.yaml",
       "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c}\n"
       "spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 100E}}}\n",
       "pvc.yaml: PersistentVolumeClaim default/c: spec.resources.requests.storage: "
       "quantity \"100E\": out of range: kube-scheduler reads it as a 64-bit "
       "integer (at most 9223372036854775807), and v1.32 reads a larger value "
       "wrapped or as 0; schedref does not model such quantities"},
      {"negative quantity", "nodes.yaml",
       "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
       "status: {capacity: {memory: -1Gi}}\n",
       "nodes.yaml: Node n1: status.capacity.memory: quantity \"-1Gi\": must "
       "not be negative"},
      {"quantity of wrong type", "nodes.yaml",
       "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
       "status: {capacity: {memory: [1]}}\n",
       "nodes.yaml: Node n1: status.capacity.memory: expected string or "
       "number, got array"},
      {"annotation key not a qualified name", "pods.yaml",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p, annotations: "
       "{'a b': x}}\n",
       "pods.yaml: Pod default/p: metadata.annotations.a b: name part must "
       "consist of alphanumeric characters, '-', '_' or '.', and must start "
       "and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"},
      {"node condition without a type", "nodes.yaml",
       "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
       "status: {conditions: [{status: 'True'}]}\n",
       "nodes.yaml: Node n1: status.conditions[0].type: required field is "
       "missing"},
      {"wrong type", "pods.json",
       R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
           "spec": {"priority": "high"}})",
       "pods.json: Pod default/p: spec.priority: expected integer, got string"},
      {"fractional integer", "pods.json",
       R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
           "spec": {"priority": 1.5}})",
       "pods.json: Pod default/p: spec.priority: expected integer, got number "
       "1.5"},
      {"int32 overflow", "pods.json",
       R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
           "spec": {"priority": 3000000000}})",
       "pods.json: Pod default/p: spec.priority: integer 3000000000 is out of "
       "range for int32"},
      {"object of wrong type", "pods.yaml",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: "
       "{name: c}}\n",
       "pods.yaml: Pod default/p: spec.containers: expected array, got "
       "object"},
      {"missing name", "pods.yaml",
       "kind: Node\napiVersion: v1\nmetadata: {name: a1}\n---\n"
       "kind: Node\napiVersion: v1\nmetadata: {name: b1}\n---\n"
       "apiVersion: v1\nkind: Pod\nmetadata: {namespace: x}\n",
       "pods.yaml: Pod <document #3>: metadata.name: required field is "
       "missing"},
      {"generateName", "pods.yaml",
       "apiVersion: v1\nkind: Pod\nmetadata: {generateName: p-}\n",
       "pods.yaml: Pod <document #1>: metadata.name: required field is "
       "missing (generateName is not supported: objects need fixed names)"},
      {"missing name in a list item", "pods.json",
       R"({"apiVersion": "v1", "kind": "List", "items": [
           {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "a"},
            "spec": {"containers": [{"name": "c"}]}},
           {"apiVersion": "v1", "kind": "Pod", "metadata": {}}]})",
       "pods.json: Pod <document #1 items[1]>: metadata.name: required field "
       "is missing"},
      {"pod without containers", "pods.yaml",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {priority: 1}\n",
       "pods.yaml: Pod default/p: spec.containers: Required value"},
      {"pod with only init containers", "pods.yaml",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
       "spec: {initContainers: [{name: i}], containers: []}\n",
       "pods.yaml: Pod default/p: spec.containers: Required value"},
      {"pod without a spec", "pods.json",
       R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}})",
       "pods.json: Pod default/p: spec.containers: Required value"},
      {"missing container name", "pods.yaml",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
       "spec: {containers: [{image: x}]}\n",
       "pods.yaml: Pod default/p: spec.containers[0].name: required field is "
       "missing"},
      {"bad taint effect", "nodes.yaml",
       "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
       "spec: {taints: [{key: a, effect: NoSchedule}, {key: b, effect: "
       "Never}]}\n",
       "nodes.yaml: Node n1: spec.taints[1].effect: unsupported value "
       "\"Never\" (supported: \"NoSchedule\", \"PreferNoSchedule\", "
       "\"NoExecute\")"},
      {"duplicate taint", "nodes.yaml",
       "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
       "spec: {taints: [{key: a, effect: NoSchedule}, {key: a, value: x, "
       "effect: NoSchedule}]}\n",
       "nodes.yaml: Node n1: spec.taints[1]: taints must be unique by key and "
       "effect; \"a\" with effect NoSchedule appears twice"},
      {"bad toleration operator", "pods.yaml",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ns}\n"
       "spec: {tolerations: [{key: a, operator: Equals}]}\n",
       "pods.yaml: Pod ns/p: spec.tolerations[0].operator: unsupported value "
       "\"Equals\" (supported: \"Equal\", \"Exists\")"},
      {"toleration Exists with a value", "pods.yaml",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
       "spec: {tolerations: [{key: a, operator: Exists, value: v}]}\n",
       "pods.yaml: Pod default/p: spec.tolerations[0].value: must be empty "
       "when operator is Exists"},
      {"bad label selector operator", "pods.yaml",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
       "spec:\n  affinity:\n    podAffinity:\n"
       "      requiredDuringSchedulingIgnoredDuringExecution:\n"
       "      - topologyKey: zone\n"
       "        labelSelector: {matchExpressions: [{key: a, operator: "
       "Gt, values: ['1']}]}\n",
       "pods.yaml: Pod default/p: "
       "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution"
       "[0].labelSelector.matchExpressions[0].operator: unsupported value "
       "\"Gt\" (supported: \"In\", \"NotIn\", \"Exists\", \"DoesNotExist\")"},
      {"In without values", "pods.yaml",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
       "spec:\n  topologySpreadConstraints:\n"
       "  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule,\n"
       "     labelSelector: {matchExpressions: [{key: a, operator: In}]}}\n",
       "pods.yaml: Pod default/p: "
       "spec.topologySpreadConstraints[0].labelSelector.matchExpressions[0]."
       "values: must be non-empty when operator is In"},
      {"Exists with values", "pods.yaml",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
       "spec:\n  affinity:\n    nodeAffinity:\n"
       "      requiredDuringSchedulingIgnoredDuringExecution:\n"
       "        nodeSelectorTerms:\n"
       "        - matchExpressions: [{key: a, operator: Exists, values: [x]}]\n",
       "pods.yaml: Pod default/p: "
       "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"
       ".nodeSelectorTerms[0].matchExpressions[0].values: must be empty when "
       "operator is Exists"},
      {"no node selector terms", "pods.yaml",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
       "spec:\n  affinity:\n    nodeAffinity:\n"
       "      requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: "
       "[]}\n",
       "pods.yaml: Pod default/p: "
       "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"
       ".nodeSelectorTerms: must have at least one node selector term"},
      {"bad whenUnsatisfiable", "pods.yaml",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
       "spec:\n  topologySpreadConstraints:\n"
       "  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: Sometimes}\n",
       "pods.yaml: Pod default/p: "
       "spec.topologySpreadConstraints[0].whenUnsatisfiable: unsupported "
       "value \"Sometimes\" (supported: \"DoNotSchedule\", \"ScheduleAnyway\")"},
      {"missing whenUnsatisfiable", "pods.yaml",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
       "spec:\n  topologySpreadConstraints:\n"
       "  - {maxSkew: 1, topologyKey: zone}\n",
       "pods.yaml: Pod default/p: "
       "spec.topologySpreadConstraints[0].whenUnsatisfiable: required field "
       "is missing"},
      // The API server's validation of spread constraints and of pod
      // affinity label keys (pkg/apis/core/validation).
      {"minDomains without DoNotSchedule", "pods.yaml",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
       "spec:\n  topologySpreadConstraints:\n"
       "  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway, "
       "minDomains: 2}\n",
       "pods.yaml: Pod default/p: spec.topologySpreadConstraints[0].minDomains: "
       "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not "
       "ScheduleAnyway"},
      {"repeated spread constraint", "pods.yaml",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
       "spec:\n  topologySpreadConstraints:\n"
       "  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, "
       "labelSelector: {matchLabels: {app: a}}}\n"
       "  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway}\n"
       "  - {maxSkew: 2, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, "
       "labelSelector: {matchLabels: {app: b}}}\n",
       "pods.yaml: Pod default/p: spec.topologySpreadConstraints[2]: duplicate "
       "{topologyKey, whenUnsatisfiable}: {zone, DoNotSchedule}"},
      {"spread matchLabelKeys without selector", "pods.yaml",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
       "spec:\n  topologySpreadConstraints:\n"
       "  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, "
       "matchLabelKeys: [app]}\n",
       "pods.yaml: Pod default/p: "
       "spec.topologySpreadConstraints[0].matchLabelKeys: must not be "
       "specified when labelSelector is not set"},
      {"spread matchLabelKeys key in selector", "pods.yaml",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
       "spec:\n  topologySpreadConstraints:\n"
       "  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, "
       "labelSelector: {matchExpressions: [{key: tier, operator: Exists}]}, "
       "matchLabelKeys: [app, tier]}\n",
       "pods.yaml: Pod default/p: "
       "spec.topologySpreadConstraints[0].matchLabelKeys[1]: \"tier\" exists "
       "in both matchLabelKeys and labelSelector"},
      {"affinity matchLabelKeys without selector", "pods.yaml",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
       "spec:\n  affinity:\n    podAffinity:\n"
       "      requiredDuringSchedulingIgnoredDuringExecution:\n"
       "      - {topologyKey: zone, mismatchLabelKeys: [app]}\n",
       "pods.yaml: Pod default/p: spec.affinity.podAffinity."
       "requiredDuringSchedulingIgnoredDuringExecution[0].mismatchLabelKeys: "
       "must not be specified when labelSelector is not set"},
      {"affinity key in matchLabelKeys and mismatchLabelKeys", "pods.yaml",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
       "spec:\n  affinity:\n    podAntiAffinity:\n"
       "      requiredDuringSchedulingIgnoredDuringExecution:\n"
       "      - {topologyKey: zone, labelSelector: {}, matchLabelKeys: [a, b], "
       "mismatchLabelKeys: [b]}\n",
       "pods.yaml: Pod default/p: spec.affinity.podAntiAffinity."
       "requiredDuringSchedulingIgnoredDuringExecution[0].matchLabelKeys[1]: "
       "\"b\" exists in both matchLabelKeys and mismatchLabelKeys"},
      {"affinity matchLabelKeys key the merge adds to the selector", "pods.yaml",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: {app: web}}\n"
       "spec:\n  affinity:\n    podAffinity:\n"
       "      preferredDuringSchedulingIgnoredDuringExecution:\n"
       "      - weight: 1\n"
       "        podAffinityTerm: {topologyKey: zone, labelSelector: "
       "{matchLabels: {app: web}}, matchLabelKeys: [app]}\n",
       "pods.yaml: Pod default/p: spec.affinity.podAffinity."
       "preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm."
       "matchLabelKeys[0]: \"app\" exists in both matchLabelKeys and "
       "labelSelector"},
      {"namespace name not a DNS label", "ns.yaml",
       "apiVersion: v1\nkind: Namespace\nmetadata: {name: \"team,a\"}\n",
       "ns.yaml: Namespace team,a: metadata.name: invalid namespace name "
       "\"team,a\": a lowercase RFC 1123 label must consist of lower case "
       "alphanumeric characters or '-', and must start and end with an "
       "alphanumeric character (at most 63 characters)"},
      {"bad phase", "pods.yaml",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nstatus: {phase: Done}\n",
       "pods.yaml: Pod default/p: status.phase: unsupported value \"Done\" "
       "(supported: \"Pending\", \"Running\", \"Succeeded\", \"Failed\", "
       "\"Unknown\")"},
      {"bad preemptionPolicy", "pcs.yaml",
       "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
       "metadata: {name: high}\nvalue: 10\npreemptionPolicy: Always\n",
       "pcs.yaml: PriorityClass high: preemptionPolicy: unsupported value "
       "\"Always\" (supported: \"PreemptLowerPriority\", \"Never\")"},
      {"bad protocol", "pods.yaml",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
       "spec: {containers: [{name: c, ports: [{containerPort: 1, protocol: "
       "tcp}]}]}\n",
       "pods.yaml: Pod default/p: spec.containers[0].ports[0].protocol: "
       "unsupported value \"tcp\" (supported: \"TCP\", \"UDP\", \"SCTP\")"},
      {"restartPolicy on a regular container", "pods.yaml",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
       "spec: {containers: [{name: c, restartPolicy: Always}]}\n",
       "pods.yaml: Pod default/p: spec.containers[0].restartPolicy: may only "
       "be set for init containers"},
      {"bad init container restartPolicy", "pods.yaml",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
       "spec: {initContainers: [{name: c, restartPolicy: Never}]}\n",
       "pods.yaml: Pod default/p: spec.initContainers[0].restartPolicy: "
       "unsupported value \"Never\" (supported: \"Always\")"},
      {"bad label", "nodes.yaml",
       "apiVersion: v1\nkind: Node\nmetadata: {name: n1, labels: {\"a b\": "
       "x}}\n",
       "nodes.yaml: Node n1: metadata.labels.a b: invalid label key \"a b\": "
       "name part must consist of alphanumeric characters, '-', '_' or '.', "
       "and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"},
      {"bad time", "pods.yaml",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p, creationTimestamp: "
       "yesterday}\n",
       "pods.yaml: Pod default/p: metadata.creationTimestamp: invalid RFC "
       "3339 time \"yesterday\""},
      {"YAML 1.1 boolean where a string belongs", "nodes.yaml",
       "apiVersion: v1\nkind: Node\nmetadata: {name: n}\n",
       "nodes.yaml: Node <document #1>: metadata.name: expected string, got "
       "boolean"},
      {"malformed time", "pods.yaml",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p, creationTimestamp: "
       "\"2024-13-01T00:00:00Z\"}\n",
       "pods.yaml: Pod default/p: metadata.creationTimestamp: invalid RFC 3339 "
       "time \"2024-13-01T00:00:00Z\""},
      {"unsupported kind", "all.yaml",
       "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: s}\n",
       "all.yaml: <document #1>: kind: unsupported kind \"ConfigMap\" "
       "(supported: Node, Pod, Namespace, PodDisruptionBudget, PriorityClass, "
       "PersistentVolume, PersistentVolumeClaim, StorageClass, CSINode, CSIDriver, "
       "CSIStorageCapacity, Service, ReplicationController, ReplicaSet, StatefulSet, "
       "and List or <Kind>List of them)"},
      {"unsupported list kind", "all.yaml",
       "apiVersion: apps/v1\nkind: DeploymentList\nitems: []\n",
       "all.yaml: <document #1>: kind: unsupported kind \"DeploymentList\" "
       "(supported: Node, Pod, Namespace, PodDisruptionBudget, PriorityClass, "
       "PersistentVolume, PersistentVolumeClaim, StorageClass, CSINode, CSIDriver, "
       "CSIStorageCapacity, Service, ReplicationController, ReplicaSet, StatefulSet, "
       "and List or <Kind>List of them)"},
      {"kind in a list", "all.json",
       R"({"apiVersion": "v1", "kind": "List", "items": [
           {"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "d"}}]})",
       "all.json: <document #1 items[0]>: kind: unsupported kind "
       "\"Deployment\" (supported: Node, Pod, Namespace, PodDisruptionBudget, "
       "PriorityClass, PersistentVolume, PersistentVolumeClaim, StorageClass, CSINode, "
       "CSIDriver, CSIStorageCapacity, Service, ReplicationController, ReplicaSet, StatefulSet, "
       "and List or <Kind>List of them)"},
      {"missing kind", "all.yaml", "apiVersion: v1\nmetadata: {name: x}\n",
       "all.yaml: <document #1>: kind: required field is missing"},
      {"wrong apiVersion", "pdb.yaml",
       "apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\n"
       "metadata: {name: b, namespace: ns1}\n",
       "pdb.yaml: PodDisruptionBudget ns1/b: apiVersion: unsupported apiVersion "
       "\"policy/v1beta1\" for kind PodDisruptionBudget (expected "
       "\"policy/v1\")"},
      {"document is not an object", "all.yaml", "- a\n- b\n",
       "all.yaml: <document #1>: expected object, got array"},
      {"duplicate", "nodes.yaml",
       "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n---\n"
       "apiVersion: v1\nkind: Pod\nmetadata: {name: n1}\n"
       "spec: {containers: [{name: c}]}\n---\n"
       "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n",
       "nodes.yaml: Node n1: defined twice (document #1 and document #3)"},
      {"duplicate in lists", "pods.json",
       R"({"apiVersion": "v1", "kind": "PodList", "items": [
           {"metadata": {"name": "a"}, "spec": {"containers": [{"name": "c"}]}},
           {"metadata": {"name": "b"}, "spec": {"containers": [{"name": "c"}]}}]}
          {"apiVersion": "v1", "kind": "Pod",
           "metadata": {"name": "b", "namespace": "default"},
           "spec": {"containers": [{"name": "c"}]}})",
       "pods.json: Pod default/b: defined twice (document #1 items[1] and "
       "document #2)"},
      {"malformed YAML", "bad.yaml",
       "apiVersion: v1\nkind: Node\nmetadata:\n  name: [n1\n",
       "bad.yaml:5:1: end of sequence flow not found"},
      {"malformed JSON", "bad.json",
       "{\"apiVersion\": \"v1\",\n \"kind\": \"Node\",,}",
       "bad.json:2:17: syntax error while parsing object key - unexpected "
       "','; expected string literal"},
      {"volume without source", "pods.yaml",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
       "spec: {volumes: [{name: v}]}\n",
       "pods.yaml: Pod default/p: spec.volumes[0]: required value: must "
       "specify a volume type"},
      {"node name the API server refuses", "nodes.yaml",
       "apiVersion: v1\nkind: Node\nmetadata: {name: Node_ONE}\n",
       "nodes.yaml: Node Node_ONE: metadata.name: invalid value \"Node_ONE\": a "
       "lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, "
       "'-' or '.', and must start and end with an alphanumeric character (e.g. "
       "'example.com', regex used for validation is "
       "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"},
      {"budget over 100%", "pdb.yaml",
       "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: b}\n"
       "spec: {minAvailable: 150%}\n",
       "pdb.yaml: PodDisruptionBudget default/b: spec.minAvailable: invalid value "
       "\"150%\": must not be greater than 100%"},
      {"budget not a percentage", "pdb.yaml",
       "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: b}\n"
       "spec: {maxUnavailable: half}\n",
       "pdb.yaml: PodDisruptionBudget default/b: spec.maxUnavailable: invalid value "
       "\"half\": must be an integer or percentage (e.g '5%')"},
      {"budget with both bounds", "pdb.yaml",
       "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: b}\n"
       "spec: {minAvailable: 1, maxUnavailable: 1}\n",
       "pdb.yaml: PodDisruptionBudget default/b: spec.maxUnavailable: minAvailable and "
       "maxUnavailable cannot be both set"},
      {"budget negative", "pdb.yaml",
       "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: b}\n"
       "spec: {minAvailable: -1}\n",
       "pdb.yaml: PodDisruptionBudget default/b: spec.minAvailable: invalid value -1: "
       "must be greater than or equal to 0"},
      {"weight out of range", "pods.yaml",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
       "spec:\n  affinity:\n    nodeAffinity:\n"
       "      preferredDuringSchedulingIgnoredDuringExecution:\n"
       "      - weight: 0\n        preference: {matchExpressions: [{key: a, "
       "operator: Exists}]}\n",
       "pods.yaml: Pod default/p: "
       "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution"
       "[0].weight: must be in the range 1-100"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    StatusOr<Objects> got = DecodeManifests(c.text, c.file);
    ASSERT_FALSE(got.ok());
    EXPECT_TRUE(got.status().IsInvalid());
    EXPECT_EQ(got.status().message(), c.want);
  }
}

// --- DecodeObject -------------------------------------------------------------------

TEST(DecodeObjectTest, SingleObjectsAndPlacement) {
  const json pod = json::parse(R"({"apiVersion": "v1", "kind": "Pod",
      "metadata": {"name": "p", "namespace": "n"},
      "spec": {"priority": 5, "containers": [{"name": "c"}]}})");
  StatusOr<AnyObject> got = DecodeObject(pod, "s.yaml", 4);
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_EQ(KindOf(*got), "Pod");
  EXPECT_EQ(KeyOf(*got), "n/p");
  EXPECT_EQ(std::get<Pod>(*got).priority, 5);

  const json list = json::parse(R"({"apiVersion": "v1", "kind": "List", "items": []})");
  EXPECT_EQ(DecodeObject(list, "s.yaml", 2).status().message(),
            "s.yaml: <document #2>: kind: a list (kind \"List\") is not "
            "accepted here (supported: Node, Pod, Namespace, "
            "PodDisruptionBudget, PriorityClass, "
       "PersistentVolume, PersistentVolumeClaim, StorageClass, CSINode, CSIDriver, "
       "CSIStorageCapacity, Service, ReplicationController, ReplicaSet, StatefulSet, "
       "and List or <Kind>List of "
            "them)");

  // Embedded in a scenario: paths start at the enclosing document.
  const json scenario = json::parse(R"({"events": [{"object":
      {"apiVersion": "v1", "kind": "Pod", "metadata": {"namespace": "n"}}},
      {"object": {"apiVersion": "v1", "kind": "Node",
                  "metadata": {"name": "n1"}, "spec": {"unschedulable": 1}}}]})");
  const FieldReader root(scenario, "scenario.yaml", "");
  StatusOr<std::vector<FieldReader>> events = root.Array("events");
  ASSERT_TRUE(events.ok());
  StatusOr<FieldReader> first = (*events)[0].Object("object");
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(DecodeObjectAt(*first).status().message(),
            "scenario.yaml: Pod <events[0].object>: "
            "events[0].object.metadata.name: required field is missing");
  StatusOr<FieldReader> second = (*events)[1].Object("object");
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(DecodeObjectAt(*second).status().message(),
            "scenario.yaml: Node n1: events[1].object.spec.unschedulable: "
            "expected boolean, got integer");
}

// --- RFC 3339 ---------------------------------------------------------------------

TEST(ParseRfc3339Test, Table) {
  struct Case {
    std::string text;
    std::optional<TimeMs> want;
  };
  const std::vector<Case> cases = {
      {"1970-01-01T00:00:00Z", 0},
      {"2024-05-01T10:00:25Z", 1714557625000},
      {"2024-05-01T10:00:25.5Z", 1714557625500},
      {"2024-05-01T10:00:25.123456789Z", 1714557625123},
      {"2024-05-01T12:00:25+02:00", 1714557625000},
      {"2024-05-01T05:30:25-04:30", 1714557625000},
      {"1969-12-31T23:59:59Z", -1000},
      {"2024-02-29T00:00:00Z", 1709164800000},
      {"2023-02-29T00:00:00Z", std::nullopt},
      {"2024-05-01 10:00:25Z", std::nullopt},
      {"2024-05-01T10:00:25", std::nullopt},
      {"2024-05-01T10:00:25z", std::nullopt},
      {"2024-05-01T24:00:00Z", std::nullopt},
      {"2024-05-01T10:00:25.Z", std::nullopt},
      {"2024-5-01T10:00:25Z", std::nullopt},
      {"", std::nullopt},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(ParseRfc3339(c.text), c.want) << c.text;
  }
}

TEST(FormatRfc3339Test, InvertsParse) {
  for (TimeMs t : {TimeMs{0}, TimeMs{-1}, TimeMs{1714557625000},
                   TimeMs{1714557625123}, TimeMs{-62167219200000},
                   TimeMs{253402300799999}}) {
    const std::string text = FormatRfc3339(t);
    EXPECT_EQ(ParseRfc3339(text), t) << text;
  }
  EXPECT_EQ(FormatRfc3339(1714557625000), "2024-05-01T10:00:25Z");
  EXPECT_EQ(FormatRfc3339(1714557625007), "2024-05-01T10:00:25.007Z");
  EXPECT_EQ(FormatRfc3339(-1), "1969-12-31T23:59:59.999Z");
}

// --- scheduler_perf templates ---------------------------------------------------------

// The pod and node templates of upstream's scheduler_perf
// (test/integration/scheduler_perf/templates), copied to
// api/codec/testdata/scheduler_perf. They carry generateName instead of a name;
// the test names each object after its generateName, as the API server
// would, before decoding.
Objects DecodeTemplate(const std::string& file) {
  const std::string path = std::string(kTestdata) + "scheduler_perf/" + file;
  StatusOr<std::vector<json>> docs = ParseDocuments(ReadFile(path), file);
  EXPECT_TRUE(docs.ok()) << docs.status().message();
  Objects objects;
  if (!docs.ok()) return objects;
  for (size_t i = 0; i < docs->size(); ++i) {
    json doc = (*docs)[i];
    json& meta = doc["metadata"];
    if (!meta.contains("name")) {
      meta["name"] = meta.value("generateName", std::string("template-")) + "0";
    }
    StatusOr<AnyObject> object = DecodeObject(doc, file, static_cast<int>(i + 1));
    EXPECT_TRUE(object.ok()) << object.status().message();
    if (!object.ok()) continue;
    if (auto* n = std::get_if<Node>(&*object)) objects.nodes.push_back(*n);
    if (auto* p = std::get_if<Pod>(&*object)) objects.pods.push_back(*p);
    if (auto* n = std::get_if<Namespace>(&*object)) objects.namespaces.push_back(*n);
  }
  return objects;
}

TEST(SchedulerPerfTemplatesTest, EveryTemplateDecodes) {
  size_t count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(
           std::string(kTestdata) + "scheduler_perf")) {
    const std::string file = entry.path().filename().string();
    SCOPED_TRACE(file);
    const Objects objects = DecodeTemplate(file);
    EXPECT_EQ(objects.nodes.size() + objects.pods.size() +
                  objects.namespaces.size(),
              1u);
    ++count;
  }
  EXPECT_EQ(count, 29u);
}

TEST(SchedulerPerfTemplatesTest, KeyFields) {
  {
    const Objects o = DecodeTemplate("node-default.yaml");
    ASSERT_EQ(o.nodes.size(), 1u);
    EXPECT_EQ(o.nodes[0].name, "scheduler-perf-0");
    EXPECT_EQ(o.nodes[0].allocatable,
              (ResourceList{{"cpu", 4000}, {"memory", 32 * kGi}, {"pods", 110}}));
  }
  {
    const Objects o = DecodeTemplate("node-with-taint.yaml");
    ASSERT_EQ(o.nodes.size(), 1u);
    EXPECT_EQ(o.nodes[0].taints, (std::vector<Taint>{{"foo", "", "NoSchedule"}}));
  }
  {
    const Objects o = DecodeTemplate("node-with-name.yaml");
    ASSERT_EQ(o.nodes.size(), 1u);
    EXPECT_EQ(o.nodes[0].name, "scheduler-perf-node");
    EXPECT_EQ(o.nodes[0].allocatable.at("pods"), 90000);
  }
  {
    const Objects o = DecodeTemplate("namespace-with-labels.yaml");
    ASSERT_EQ(o.namespaces.size(), 1u);
    EXPECT_EQ(o.namespaces[0].labels,
              (Labels{{"kubernetes.io/metadata.name", "template-0"}, {"team", "devops"}}));
  }
  {
    const Objects o = DecodeTemplate("pod-default.yaml");
    ASSERT_EQ(o.pods.size(), 1u);
    EXPECT_EQ(o.pods[0].Key(), "default/pod-0");
    EXPECT_EQ(o.pods[0].containers[0].requests,
              (ResourceList{{"cpu", 100}, {"memory", 500 * kMi}}));
    EXPECT_EQ(o.pods[0].containers[0].ports,
              (std::vector<ContainerPort>{{80, 0, "TCP", ""}}));
  }
  {
    const Objects o = DecodeTemplate("pod-high-priority-large-cpu.yaml");
    ASSERT_EQ(o.pods.size(), 1u);
    EXPECT_EQ(o.pods[0].priority, 10);
    EXPECT_EQ(o.pods[0].containers[0].requests.at("cpu"), 9000);  // cpu: 9
  }
  {
    const Objects o = DecodeTemplate("pod-hostport-80.yaml");
    ASSERT_EQ(o.pods.size(), 1u);
    EXPECT_EQ(o.pods[0].containers[0].ports,
              (std::vector<ContainerPort>{{80, 80, "TCP", ""}}));
  }
  {
    const Objects o = DecodeTemplate("gated-pod.yaml");
    ASSERT_EQ(o.pods.size(), 1u);
    EXPECT_EQ(o.pods[0].scheduling_gates,
              (std::vector<std::string>{"test.k8s.io/hold"}));
  }
  {
    const Objects o = DecodeTemplate("daemonset-pod.yaml");
    ASSERT_EQ(o.pods.size(), 1u);
    EXPECT_EQ(o.pods[0].affinity->node_affinity->required->terms,
              (std::vector<NodeSelectorTerm>{
                  {{}, {{"metadata.name", "In", {"scheduler-perf-node"}}}}}));
  }
  {
    const Objects o = DecodeTemplate("pod-affinity-ns-selector.yaml");
    ASSERT_EQ(o.pods.size(), 1u);
    const PodAffinityTerm& t = o.pods[0].affinity->pod_affinity->required.at(0);
    EXPECT_EQ(t.topology_key, "topology.kubernetes.io/zone");
    EXPECT_EQ(t.label_selector, (LabelSelector{{{"color", "blue"}}, {}}));
    EXPECT_EQ(t.namespace_selector, (LabelSelector{{{"team", "devops"}}, {}}));
  }
  {
    const Objects o = DecodeTemplate("pod-with-preferred-pod-anti-affinity.yaml");
    ASSERT_EQ(o.pods.size(), 1u);
    const WeightedPodAffinityTerm& w =
        o.pods[0].affinity->pod_anti_affinity->preferred.at(0);
    EXPECT_EQ(w.weight, 1);
    EXPECT_EQ(w.term.namespaces, (std::vector<std::string>{"sched-1", "sched-0"}));
  }
  {
    const Objects o = DecodeTemplate("pod-with-topology-spreading.yaml");
    ASSERT_EQ(o.pods.size(), 1u);
    EXPECT_EQ(o.pods[0].topology_spread_constraints,
              (std::vector<TopologySpreadConstraint>{
                  {5, "topology.kubernetes.io/zone", "DoNotSchedule",
                   LabelSelector{{{"color", "blue"}}, {}}, std::nullopt,
                   std::nullopt, std::nullopt, {}}}));
  }
  {
    // The template spells the policies "NodeAffinityPolicy" and
    // "NodeTaintsPolicy". Field names are case-sensitive in the API
    // server's decoder (sigs.k8s.io/json), so upstream ignores them too.
    const Objects o = DecodeTemplate("pod-with-node-inclusion-policy.yaml");
    ASSERT_EQ(o.pods.size(), 1u);
    EXPECT_FALSE(o.pods[0].topology_spread_constraints[0].node_affinity_policy);
    EXPECT_FALSE(o.pods[0].topology_spread_constraints[0].node_taints_policy);
  }
  {
    const Objects o = DecodeTemplate("unschedulable-pod-taint-toleration.yaml");
    ASSERT_EQ(o.pods.size(), 1u);
    EXPECT_EQ(o.pods[0].tolerations,
              (std::vector<Toleration>{
                  {"non-existing-taint", "Exists", "", "NoSchedule", {}}}));
  }
  {
    // Pod-level spec.resources (PodLevelResources) is not in the model: the
    // pod decodes with no requests at all.
    const Objects o = DecodeTemplate("unschedulable-pod-node-resourcesfit.yaml");
    ASSERT_EQ(o.pods.size(), 1u);
    EXPECT_TRUE(o.pods[0].containers[0].requests.empty());
  }
}

}  // namespace
}  // namespace schedref::api
