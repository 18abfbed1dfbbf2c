// NodeVolumeLimits' Filter and queueing-hint tables, run against both
// implementations (impl.h). Transcribed from upstream
// pkg/scheduler/framework/plugins/nodevolumelimits/csi_test.go
// (TestCSILimits, TestCSILimitsQHint, TestCSILimitsAddedPVCQHint) in their
// v1.32 meaning: no VolumeAttachment rows (schedref models none,
// docs/deviations.md "NodeVolumeLimits"); upstream case names kept.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "testing/upstream/framework/plugins/nodevolumelimits/impl.h"

namespace SCHEDREF_NODEVOLUMELIMITS_NS {
namespace {

constexpr char kNode[] = "node-for-max-pd-test-1";
constexpr char kNs[] = "default";
constexpr char kEbs[] = "ebs.csi.aws.com";
constexpr char kGce[] = "pd.csi.storage.gke.io";
constexpr char kInTree[] = "kubernetes.io/aws-ebs";
constexpr char kHostPath[] = "kubernetes.io/hostpath";

api::Volume ClaimVolume(const std::string& claim) {
  api::Volume v;
  v.name = "vol-" + claim;
  v.source.kind = "persistentVolumeClaim";
  v.source.claim_name = claim;
  return v;
}
api::Volume EphemeralVolume(const std::string& name) {
  api::Volume v;
  v.name = name;
  v.source.kind = "ephemeral";
  v.ephemeral.emplace();
  return v;
}
api::Volume InlineEbs(const std::string& id) {
  api::Volume v;
  v.name = "aws-inline1";
  v.source.kind = "awsElasticBlockStore";
  v.source.volume_id = id;
  return v;
}
api::Volume Plain(const std::string& kind) {
  api::Volume v;
  v.name = kind;
  v.source.kind = kind;
  return v;
}

api::Pod PodWith(const std::string& name, std::vector<api::Volume> volumes,
                 const std::string& ns = kNs, const std::string& uid = "") {
  auto w = st::MakePod().Namespace(ns).Name(name).Node(kNode);
  if (!uid.empty()) w.UID(uid);
  for (api::Volume& v : volumes) w.Volume(std::move(v));
  return w.Obj();
}
api::Pod Claims(const std::string& name, const std::vector<std::string>& claims) {
  std::vector<api::Volume> volumes;
  for (const std::string& c : claims) volumes.push_back(ClaimVolume(c));
  return PodWith(name, std::move(volumes));
}

api::PersistentVolumeClaim Claim(const std::string& ns, const std::string& name,
                                 std::optional<std::string> sc, std::string volume_name) {
  api::PersistentVolumeClaim c;
  c.ns = ns;
  c.name = name;
  c.spec.storage_class_name = std::move(sc);
  c.spec.volume_name = std::move(volume_name);
  return c;
}
api::PersistentVolumeClaim Owned(api::PersistentVolumeClaim c, const std::string& uid) {
  api::OwnerReference ref;
  ref.kind = "Pod";
  ref.uid = uid;
  ref.controller = true;
  c.owner_references.push_back(ref);
  return c;
}

enum class LimitSource { kCsiNode, kCsiNodeWithNoLimit, kNone };

// upstream getFakeCSIPVLister / getFakeCSIPVCLister / getFakeCSIStorageClassLister
// / getFakeCSINodeLister.
api::StorageObjects Fixtures(const std::vector<std::string>& drivers, LimitSource source,
                             int32_t max_vols,
                             const std::vector<api::PersistentVolumeClaim>& extra_claims) {
  api::StorageObjects s;
  for (const std::string& d : drivers) {
    for (int j = 0; j < 4; ++j) {
      const std::string name = "csi-" + d + "-" + std::to_string(j);
      api::PersistentVolume pv;
      pv.name = name;
      if (d == kInTree) {
        pv.source.kind = "awsElasticBlockStore";
        pv.source.volume_id = name;
      } else if (d == kHostPath) {
        pv.source.kind = "hostPath";
        pv.source.path = "/tmp";
      } else {
        pv.source.kind = "csi";
        pv.source.driver = d;
        pv.source.volume_handle = name;
      }
      s.volumes[name] = pv;
      api::PersistentVolumeClaim c = Claim(kNs, name, std::nullopt, name);
      s.claims[c.Key()] = c;
    }
  }
  for (api::PersistentVolumeClaim c : {Claim(kNs, "csi-4", "csi-sc", ""),
                                       Claim(kNs, "csi-5", std::nullopt, ""),
                                       Claim(kNs, "csi-6", "csi-sc", "missing-in-action")}) {
    s.claims[c.Key()] = c;
  }
  for (const api::PersistentVolumeClaim& c : extra_claims) s.claims[c.Key()] = c;
  api::StorageClass sc;
  sc.name = "csi-sc";
  sc.provisioner = drivers[0];
  s.classes[sc.name] = sc;
  if (source != LimitSource::kNone) {
    api::CSINode n;
    n.name = kNode;
    n.annotations[api::kAnnMigratedPlugins] = kInTree;
    for (const std::string& d : drivers) {
      api::CSINodeDriver driver;
      driver.name = d;
      driver.node_id = "node-for-max-pd-test-1";
      if (source == LimitSource::kCsiNode) driver.allocatable_count = max_vols;
      n.drivers.push_back(driver);
    }
    s.csi_nodes[n.name] = n;
  }
  return s;
}

TEST(CSILimitsTest, UpstreamTestCSILimits) {
  const std::string ebs0 = std::string("csi-") + kEbs + "-0";
  const std::string ebs1 = std::string("csi-") + kEbs + "-1";
  const std::string ebs2 = std::string("csi-") + kEbs + "-2";
  const std::string ebs3 = std::string("csi-") + kEbs + "-3";
  const std::string gce1 = std::string("csi-") + kGce + "-1";
  const std::string gce2 = std::string("csi-") + kGce + "-2";
  const std::string it0 = std::string("csi-") + kInTree + "-0";
  const std::string it1 = std::string("csi-") + kInTree + "-1";
  const std::string it2 = std::string("csi-") + kInTree + "-2";
  const std::string hp0 = std::string("csi-") + kHostPath + "-0";

  const api::Pod one_ebs = Claims("csi-ebs.csi.aws.com-3", {ebs0});
  const api::Pod two_ebs = Claims("csi-ebs.csi.aws.com-2", {ebs1, ebs2});
  const api::Pod running = Claims("running", {ebs3});
  const api::Pod pending = Claims("pending", {"csi-4"});
  const api::Pod pending_other = Claims("pending-other", {"csi-4"});
  const api::Pod missing_pv = Claims("missing-pv", {"csi-6"});
  const api::Pod no_sc = Claims("no-sc", {"csi-5"});
  const api::Pod two_gce = Claims("two-gce", {gce1, gce2});
  const api::Pod one_it = Claims("one-it", {it0});
  const api::Pod two_it = Claims("two-it", {it1, it2});
  const api::Pod hostpath = Claims("hostpath", {hp0});
  const api::Pod inline_ebs = PodWith("inline", {InlineEbs("aws-inline1")});
  const api::Pod inline_dup = PodWith("inline-dup", {InlineEbs(ebs1)});
  const api::Pod ephemeral = PodWith("abc", {EphemeralVolume("xyz")}, "test", "12345");
  const api::Pod two_ephemeral =
      PodWith("abc", {EphemeralVolume("x"), EphemeralVolume("y")}, "test", "12345II");
  const api::Pod only_configmap = PodWith("cm", {Plain("configMap"), Plain("secret")});
  const api::Pod configmap_pvc =
      PodWith("cm-pvc", {Plain("configMap"), Plain("secret"), ClaimVolume(ebs0)});
  const api::Pod configmap_ephemeral = PodWith(
      "abc", {Plain("configMap"), Plain("secret"), EphemeralVolume("xyz")}, "test", "12345");
  const api::Pod configmap_inline =
      PodWith("cm-inline", {Plain("configMap"), Plain("secret"), InlineEbs("aws-inline1")});

  const api::PersistentVolumeClaim eph_unowned = Claim("test", "abc-xyz", "csi-sc", "");
  const api::PersistentVolumeClaim eph_owned = Owned(eph_unowned, "12345");
  const std::vector<api::PersistentVolumeClaim> two_eph_claims = {
      Owned(Claim("test", "abc-x", "csi-sc", ""), "12345II"),
      Owned(Claim("test", "abc-y", "csi-sc", ""), "12345II")};

  const Status exceed(Code::kUnschedulable, kErrReasonMaxVolumeCountExceeded);
  const Status success = Status::Success();
  // The informer's lister names the resource in the singular
  // (client-go listers/core/v1, corev1.Resource("persistentvolumeclaim")),
  // which is what the scheduler says; upstream's csi_test.go fakes the
  // lister and spells it in the plural.
  const Status eph_missing(
      Code::kUnschedulableAndUnresolvable,
      "looking up PVC test/abc-xyz: persistentvolumeclaim \"abc-xyz\" not found");
  const Status eph_not_owned =
      Status::Error("PVC test/abc-xyz was not created for pod test/abc (pod is not owner)");

  struct Case {
    std::string name;
    api::Pod pod;
    std::vector<api::Pod> existing;
    std::vector<std::string> drivers;
    LimitSource source;
    int32_t max_vols;
    std::vector<api::PersistentVolumeClaim> extra_claims;
    Status want_pre_filter;
    Status want_filter;
  };
  using LS = LimitSource;
  const std::vector<Case> cases = {
      {"fits when node volume limit >= new pods CSI volume", one_ebs, {running, two_ebs},
       {kEbs}, LS::kCsiNode, 4, {}, success, success},
      {"doesn't when node volume limit <= pods CSI volume", one_ebs, {running, two_ebs},
       {kEbs}, LS::kCsiNode, 2, {}, success, exceed},
      {"should when driver does not support volume limits", one_ebs, {running, two_ebs},
       {kEbs}, LS::kCsiNodeWithNoLimit, 0, {}, success, success},
      {"count pending PVCs towards volume limit <= pods CSI volume", one_ebs,
       {pending, two_ebs}, {kEbs}, LS::kCsiNode, 2, {}, success, exceed},
      {"count multiple pending pvcs towards volume limit >= pods CSI volume", one_ebs,
       {pending, pending_other, two_ebs}, {kEbs}, LS::kCsiNode, 4, {}, success, success},
      {"should count PVCs with invalid PV name but valid SC", one_ebs, {missing_pv, two_ebs},
       {kEbs}, LS::kCsiNode, 2, {}, success, exceed},
      {"don't count pvcs with missing SC towards volume limit", one_ebs, {running, no_sc},
       {kEbs}, LS::kCsiNode, 2, {}, success, success},
      {"count pvcs with the same type towards volume limit", one_ebs, {two_gce, two_ebs},
       {kEbs, kGce}, LS::kCsiNode, 2, {}, success, exceed},
      {"don't count pvcs with different type towards volume limit", two_gce,
       {two_ebs, running}, {kEbs, kGce}, LS::kCsiNode, 2, {}, success, success},
      {"should count in-tree volumes if migration is enabled", one_it, {two_it},
       {kInTree, kEbs}, LS::kCsiNode, 2, {}, success, exceed},
      {"nil csi node", inline_ebs, {two_it}, {kInTree, kEbs}, LS::kNone, 0, {}, success,
       success},
      {"should count unbound in-tree volumes if migration is enabled", pending, {two_it},
       {kInTree, kEbs}, LS::kCsiNode, 2, {}, success, exceed},
      {"should not limit pod if volume used does not report limits", one_it, {two_it},
       {kInTree, kEbs}, LS::kCsiNodeWithNoLimit, 0, {}, success, success},
      {"should not count non-migratable in-tree volumes", hostpath, {two_ebs},
       {kHostPath, kEbs}, LS::kCsiNode, 2, {}, success, success},
      {"should count in-tree inline volumes if migration is enabled", inline_ebs, {two_it},
       {kInTree, kEbs}, LS::kCsiNode, 2, {}, success, exceed},
      {"should count in-tree and csi volumes if migration is enabled (when scheduling "
       "in-tree volumes)",
       one_it, {two_ebs}, {kInTree, kEbs}, LS::kCsiNode, 2, {}, success, exceed},
      {"should count in-tree, inline and csi volumes if migration is enabled (when "
       "scheduling in-tree volumes)",
       inline_ebs, {two_ebs, one_it}, {kInTree, kEbs}, LS::kCsiNode, 3, {}, success, exceed},
      {"should not count in-tree, inline and csi volumes if migration is enabled (when "
       "scheduling in-tree volumes)",
       inline_dup, {two_ebs, one_it}, {kInTree, kEbs}, LS::kCsiNode, 3, {}, success,
       success},
      {"should count in-tree and csi volumes if migration is enabled (when scheduling csi "
       "volumes)",
       one_ebs, {two_it}, {kInTree, kEbs}, LS::kCsiNode, 2, {}, success, exceed},
      {"ephemeral volume missing", ephemeral, {}, {kEbs}, LS::kCsiNodeWithNoLimit, 0, {},
       success, eph_missing},
      {"ephemeral volume not owned", ephemeral, {}, {kEbs}, LS::kCsiNodeWithNoLimit, 0,
       {eph_unowned}, success, eph_not_owned},
      {"ephemeral volume unbound", ephemeral, {}, {kEbs}, LS::kCsiNodeWithNoLimit, 0,
       {eph_owned}, success, success},
      {"ephemeral doesn't when node volume limit <= pods CSI volume", ephemeral,
       {running, two_ebs}, {kEbs}, LS::kCsiNode, 2, {eph_owned}, success, exceed},
      {"ephemeral doesn't when node volume limit <= pods ephemeral CSI volume", one_ebs,
       {running, two_ephemeral}, {kEbs}, LS::kCsiNode, 2, two_eph_claims, success, exceed},
      {"persistent doesn't when node volume limit <= pods ephemeral CSI volume + "
       "persistent volume",
       one_ebs, {running, ephemeral, two_ebs}, {kEbs}, LS::kCsiNode, 3, {eph_owned}, success,
       exceed},
      {"persistent okay when node volume limit > pods ephemeral CSI volume + persistent "
       "volume",
       one_ebs, {running, ephemeral, two_ebs}, {kEbs}, LS::kCsiNode, 5, {eph_owned}, success,
       success},
      {"skip Filter when the pod only uses secrets and configmaps", only_configmap, {},
       {kEbs}, LS::kCsiNode, 2, {}, Status::Skip(), success},
      {"don't skip Filter when the pod has pvcs", configmap_pvc, {}, {kEbs}, LS::kCsiNode, 2,
       {}, success, success},
      {"don't skip Filter when the pod has ephemeral volumes", configmap_ephemeral, {},
       {kEbs}, LS::kCsiNodeWithNoLimit, 0, {}, success, eph_missing},
      {"don't skip Filter when the pod has inline migratable volumes", configmap_inline,
       {two_it}, {kInTree, kEbs}, LS::kCsiNode, 2, {}, success, exceed},
      // Ours: the same claim twice in the new pod counts once (Q3), and a
      // limit of 0 is a limit.
      {"same claim twice in the new pod counts once", Claims("twice", {ebs0, ebs0}),
       {running}, {kEbs}, LS::kCsiNode, 2, {}, success, success},
      {"a limit of zero rejects any new volume", one_ebs, {}, {kEbs}, LS::kCsiNode, 0, {},
       success, exceed},
      {"missing PVC of the new pod", Claims("missing", {"no-such-claim"}), {}, {kEbs},
       LS::kCsiNode, 2, {}, success,
       Status(Code::kUnschedulableAndUnresolvable,
              "looking up PVC default/no-such-claim: persistentvolumeclaim "
              "\"no-such-claim\" not found")},
      {"a missing PVC of a pod on the node is not counted", one_ebs,
       {Claims("gone", {"no-such-claim"}), running}, {kEbs}, LS::kCsiNode, 2, {}, success,
       success},
      {"an invalid inline EBS ID of a pod on the node is an error", one_ebs,
       {PodWith("bad", {InlineEbs("aws://zone/disk-1")})}, {kInTree, kEbs}, LS::kCsiNode, 2,
       {}, success,
       Status::Error("converting volume(aws-inline1) from inline to csi: failed to translate "
                     "Kubernetes ID to EBS Volume ID Invalid format for AWS volume "
                     "(aws://zone/disk-1)")},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const api::StorageObjects storage =
        Fixtures(c.drivers, c.source, c.max_vols, c.extra_claims);
    const FilterRun run = RunFilter(storage, c.pod, c.existing, st::MakeNode().Name(kNode).Obj());
    EXPECT_EQ(run.pre_filter, c.want_pre_filter) << run.pre_filter.Message();
    EXPECT_EQ(run.filter, c.want_filter) << run.filter.Message();
  }
}

TEST(CSILimitsTest, UpstreamTestCSILimitsQHint) {
  const api::Pod pending = Claims("pending", {"placeholder"});
  api::Pod unscheduled = Claims("deleted", {"placeholder"});
  unscheduled.node_name = "";
  struct Case {
    std::string name;
    api::Pod deleted;
    QueueingHint want;
  };
  const std::vector<Case> cases = {
      {"return a Queue when a deleted pod has a PVC", Claims("deleted", {"placeholder"}),
       QueueingHint::kQueue},
      {"return a Queue when a deleted pod has a inline migratable volume",
       PodWith("deleted", {InlineEbs("")}), QueueingHint::kQueue},
      {"return a QueueSkip when a deleted pod doesn't have any volume", PodWith("deleted", {}),
       QueueingHint::kSkip},
      {"return a QueueSkip when a deleted pod is not scheduled.", unscheduled,
       QueueingHint::kSkip},
      // Ours: volumes the plugin never counts.
      {"return a QueueSkip when a deleted pod has only a configMap",
       PodWith("deleted", {Plain("configMap")}), QueueingHint::kSkip},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    StatusOr<QueueingHint> got = PodDeletedHint(pending, c.deleted);
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(*got, c.want);
  }
}

TEST(CSILimitsTest, UpstreamTestCSILimitsAddedPVCQHint) {
  struct Case {
    std::string name;
    api::Pod pod;
    api::PersistentVolumeClaim added;
    QueueingHint want;
  };
  const std::vector<Case> cases = {
      {"a pod isn't in the same namespace as an added PVC", PodWith("pod1", {}, "ns1"),
       Claim("ns2", "pvc1", std::nullopt, ""), QueueingHint::kSkip},
      {"a pod is in the same namespace as an added PVC",
       PodWith("pod1", {ClaimVolume("pvc1")}, "ns1"), Claim("ns1", "pvc1", std::nullopt, ""),
       QueueingHint::kQueue},
      {"a pod has an ephemeral volume related to an added PVC",
       PodWith("pod1", {EphemeralVolume("ephemeral")}, "ns1"),
       Claim("ns1", "pod1-ephemeral", std::nullopt, ""), QueueingHint::kQueue},
      {"a pod doesn't have the same PVC as an added PVC",
       PodWith("pod1", {ClaimVolume("pvc1")}, "ns1"), Claim("ns1", "pvc2", std::nullopt, ""),
       QueueingHint::kSkip},
      {"a pod doesn't have any PVC attached", PodWith("pod1", {}, "ns1"),
       Claim("ns1", "pvc2", std::nullopt, ""), QueueingHint::kSkip},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    StatusOr<QueueingHint> got = PvcAddedHint(c.pod, c.added);
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(*got, c.want);
  }
}

TEST(CSILimitsTest, MigrationIsOnPerPlugin) {
  api::CSINode node;
  node.name = kNode;
  EXPECT_FALSE(IsCsiMigrationOn(nullptr, kInTree));
  EXPECT_TRUE(IsCsiMigrationOn(&node, "kubernetes.io/aws-ebs"));
  EXPECT_TRUE(IsCsiMigrationOn(&node, "kubernetes.io/gce-pd"));
  EXPECT_TRUE(IsCsiMigrationOn(&node, "kubernetes.io/azure-disk"));
  EXPECT_TRUE(IsCsiMigrationOn(&node, "kubernetes.io/cinder"));
  EXPECT_FALSE(IsCsiMigrationOn(&node, "kubernetes.io/portworx-volume"));
  EXPECT_FALSE(IsCsiMigrationOn(&node, "kubernetes.io/azure-file"));
  EXPECT_FALSE(IsCsiMigrationOn(&node, "kubernetes.io/vsphere-volume"));
  node.annotations[api::kAnnMigratedPlugins] = "kubernetes.io/aws-ebs,kubernetes.io/portworx-volume";
  EXPECT_TRUE(IsCsiMigrationOn(&node, "kubernetes.io/portworx-volume"));
  node.annotations[api::kAnnMigratedPlugins] = "kubernetes.io/aws-ebs, kubernetes.io/portworx-volume";
  EXPECT_FALSE(IsCsiMigrationOn(&node, "kubernetes.io/portworx-volume"));
}

}  // namespace
}  // namespace SCHEDREF_NODEVOLUMELIMITS_NS
