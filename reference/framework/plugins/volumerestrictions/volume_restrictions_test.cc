#include "reference/framework/plugins/volumerestrictions/volume_restrictions.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "reference/framework/snapshot.h"
#include "reference/framework/testing/fake_handle.h"
#include "reference/framework/testing/wrappers.h"

namespace schedref::reference::framework::plugins::volumerestrictions {
namespace {

using st::MakeNode;
using st::MakePod;

api::Volume Vol(api::VolumeSource source) {
  api::Volume v;
  v.name = "v";
  v.source = std::move(source);
  return v;
}
api::Volume Gce(const std::string& pd, bool ro = false) {
  api::VolumeSource s;
  s.kind = "gcePersistentDisk";
  s.pd_name = pd;
  s.read_only = ro;
  return Vol(s);
}
api::Volume Ebs(const std::string& id, bool ro = false) {
  api::VolumeSource s;
  s.kind = "awsElasticBlockStore";
  s.volume_id = id;
  s.read_only = ro;
  return Vol(s);
}
api::Volume Rbd(std::vector<std::string> monitors, bool ro = false) {
  api::VolumeSource s;
  s.kind = "rbd";
  s.monitors = std::move(monitors);
  s.pool = "foo";
  s.image = "bar";
  s.read_only = ro;
  return Vol(s);
}
api::Volume Iscsi(const std::string& iqn, int32_t lun = 0, bool ro = false) {
  api::VolumeSource s;
  s.kind = "iscsi";
  s.target_portal = "127.0.0.1:3260";
  s.iqn = iqn;
  s.lun = lun;
  s.read_only = ro;
  return Vol(s);
}
api::Volume Claim(const std::string& name) {
  api::VolumeSource s;
  s.kind = "persistentVolumeClaim";
  s.claim_name = name;
  return Vol(s);
}
api::Pod PodWith(std::vector<api::Volume> volumes, const std::string& ns = "",
                 const std::string& name = "p", const std::string& node = "") {
  api::Pod p = MakePod().Name(name).Namespace(ns).Node(node).Obj();
  p.uid = ns + "/" + name;
  p.volumes = std::move(volumes);
  return p;
}
api::PersistentVolumeClaim Pvc(const std::string& name, const std::string& mode,
                               const std::string& ns = "default") {
  api::PersistentVolumeClaim c;
  c.ns = ns;
  c.name = name;
  c.spec.access_modes = {mode};
  return c;
}

const Status kDisk(Code::kUnschedulable, kErrReasonDiskConflict);
const Status kRwop(Code::kUnschedulable, kErrReasonReadWriteOncePodConflict);

struct DiskCase {
  std::string name;
  api::Pod pod;
  std::vector<api::Pod> existing;
  Status want_pre_filter;
  Status want_filter;
};

void RunDiskCases(const std::vector<DiskCase>& cases) {
  for (const DiskCase& tc : cases) {
    SCOPED_TRACE(tc.name);
    st::FakeHandle handle;
    VolumeRestrictions plugin(&handle);
    CycleState state;
    PreFilterOutput pre = plugin.PreFilter(state, tc.pod, {});
    EXPECT_EQ(pre.status, tc.want_pre_filter);
    if (!pre.status.IsSuccess()) continue;
    NodeInfo info = st::MakeNodeInfo(MakeNode().Name("n").Obj(), tc.existing);
    EXPECT_EQ(plugin.Filter(state, tc.pod, info), tc.want_filter);
  }
}

// Upstream TestGCEDiskConflicts, TestAWSDiskConflicts, TestRBDDiskConflicts,
// TestISCSIDiskConflicts.
TEST(VolumeRestrictionsTest, UpstreamDiskConflicts) {
  RunDiskCases({
      {"gce nothing", PodWith({}), {}, Status::Skip(), {}},
      {"gce one state", PodWith({}), {PodWith({Gce("foo")})}, Status::Skip(), {}},
      {"gce same state", PodWith({Gce("foo")}), {PodWith({Gce("foo")})}, {}, kDisk},
      {"gce different state", PodWith({Gce("bar")}), {PodWith({Gce("foo")})}, {}, {}},
      {"pod with a volume that doesn't have restrictions", PodWith({Vol({})}), {},
       Status::Skip(), {}},
      {"aws same state", PodWith({Ebs("foo")}), {PodWith({Ebs("foo")})}, {}, kDisk},
      {"aws different state", PodWith({Ebs("bar")}), {PodWith({Ebs("foo")})}, {}, {}},
      {"aws one state", PodWith({}), {PodWith({Ebs("foo")})}, Status::Skip(), {}},
      {"rbd same state", PodWith({Rbd({"a", "b"})}), {PodWith({Rbd({"a", "b"})})}, {}, kDisk},
      {"rbd different state", PodWith({Rbd({"c", "d"})}), {PodWith({Rbd({"a", "b"})})}, {}, {}},
      {"iscsi same state", PodWith({Iscsi("iqn.2016-12.server:storage.target01")}),
       {PodWith({Iscsi("iqn.2016-12.server:storage.target01")})}, {}, kDisk},
      {"iscsi different state", PodWith({Iscsi("iqn.2017-12.server:storage.target01")}),
       {PodWith({Iscsi("iqn.2016-12.server:storage.target01")})}, {}, {}},
  });
}

// Not upstream rows: the read-only rules.
TEST(VolumeRestrictionsTest, ReadOnlyRules) {
  RunDiskCases({
      {"gce both read-only", PodWith({Gce("foo", true)}), {PodWith({Gce("foo", true)})}, {}, {}},
      {"gce one read-only", PodWith({Gce("foo", true)}), {PodWith({Gce("foo")})}, {}, kDisk},
      {"ebs both read-only", PodWith({Ebs("foo", true)}), {PodWith({Ebs("foo", true)})}, {},
       kDisk},
      {"iscsi both read-only", PodWith({Iscsi("iqn", 0, true)}),
       {PodWith({Iscsi("iqn", 0, true)})}, {}, {}},
      {"iscsi other lun", PodWith({Iscsi("iqn", 1)}), {PodWith({Iscsi("iqn", 2)})}, {}, kDisk},
      {"rbd partial monitor overlap", PodWith({Rbd({"a", "x"})}), {PodWith({Rbd({"x"})})}, {},
       kDisk},
      {"rbd both read-only", PodWith({Rbd({"a"}, true)}), {PodWith({Rbd({"a"}, true)})}, {}, {}},
      {"gce vs ebs", PodWith({Gce("foo")}), {PodWith({Ebs("foo")})}, {}, {}},
  });
}

// Upstream TestAccessModeConflicts.
TEST(VolumeRestrictionsTest, UpstreamAccessModeConflicts) {
  const api::Pod one = PodWith({Claim("claim-with-rwop-1")}, "default", "pod-1", "node-1");
  const api::Pod two = PodWith({Claim("claim-with-rwop-1"), Claim("claim-with-rwop-2")},
                               "default", "pod-2", "node-1");
  const api::Pod one_conflict =
      PodWith({Claim("claim-with-rwop-1")}, "default", "pod-3", "node-1");
  const api::Pod two_conflicts =
      PodWith({Claim("claim-with-rwop-1"), Claim("claim-with-rwop-2")}, "default", "pod-4",
              "node-1");
  const api::Pod rwx = PodWith({Claim("claim-with-rwx")}, "default", "pod-5", "node-1");
  const auto rwop1 = Pvc("claim-with-rwop-1", api::kReadWriteOncePod);
  const auto rwop2 = Pvc("claim-with-rwop-2", api::kReadWriteOncePod);
  const auto rwx_claim = Pvc("claim-with-rwx", api::kReadWriteMany);
  struct Case {
    std::string name;
    api::Pod pod;
    std::vector<api::Pod> existing;
    std::vector<api::PersistentVolumeClaim> pvcs;
    Status want_pre_filter;
    Status want_filter;
  };
  const std::vector<Case> cases = {
      {"nothing", PodWith({}, "default"), {}, {}, Status::Skip(), {}},
      {"failed to get PVC", one, {}, {},
       Status(Code::kUnschedulableAndUnresolvable,
              "persistentvolumeclaim \"claim-with-rwop-1\" not found"),
       {}},
      {"no access mode conflict", one, {rwx}, {rwop1, rwx_claim}, Status::Skip(), {}},
      {"access mode conflict, unschedulable", one_conflict, {one, rwx}, {rwop1, rwx_claim}, {},
       kRwop},
      {"two conflicts, unschedulable", two_conflicts, {two, rwx}, {rwop1, rwop2, rwx_claim}, {},
       kRwop},
  };
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    NodeInfo node = st::MakeNodeInfo(MakeNode().Name("node-1").Obj(), tc.existing);
    st::FakeHandle handle(Snapshot({node}));
    api::Objects objects;
    objects.persistent_volume_claims = tc.pvcs;
    handle.storage = api::StorageObjects::From(objects);
    VolumeRestrictions plugin(&handle);
    CycleState state;
    PreFilterOutput pre = plugin.PreFilter(state, tc.pod, {});
    EXPECT_EQ(pre.status, tc.want_pre_filter);
    if (!pre.status.IsSuccess()) continue;
    EXPECT_EQ(plugin.Filter(state, tc.pod, node), tc.want_filter);
  }
}

// The preemption dry run: removing the holder brings the count to 0 on
// its node; adding it back (or a nominated pod using the claim name, in
// any namespace) raises it again. Counting is by volume.
TEST(VolumeRestrictionsTest, AddPodRemovePod) {
  const api::Pod holder = PodWith({Claim("c")}, "default", "holder", "n1");
  const api::Pod pod = PodWith({Claim("c")}, "default", "pod");
  NodeInfo n1 = st::MakeNodeInfo(MakeNode().Name("n1").Obj(), {holder});
  st::FakeHandle handle(Snapshot({n1}));
  api::Objects objects;
  objects.persistent_volume_claims = {Pvc("c", api::kReadWriteOncePod)};
  handle.storage = api::StorageObjects::From(objects);
  VolumeRestrictions plugin(&handle);
  CycleState state;
  ASSERT_TRUE(plugin.PreFilter(state, pod, {}).status.IsSuccess());
  EXPECT_EQ(plugin.Filter(state, pod, n1), kRwop);
  auto copy = std::make_unique<CycleState>(state);
  NodeInfo without = st::MakeNodeInfo(MakeNode().Name("n1").Obj());
  ASSERT_TRUE(plugin.RemovePod(*copy, pod, holder, without).IsSuccess());
  EXPECT_EQ(plugin.Filter(*copy, pod, without), Status::Success());
  // The original state is untouched by the clone's change.
  EXPECT_EQ(plugin.Filter(state, pod, n1), kRwop);
  const api::Pod other_ns = PodWith({Claim("c")}, "other", "x", "n1");
  ASSERT_TRUE(plugin.AddPod(*copy, pod, other_ns, without).IsSuccess());
  EXPECT_EQ(plugin.Filter(*copy, pod, without), kRwop);
  const api::Pod twice = PodWith({Claim("c"), Claim("c")}, "default", "twice", "n1");
  ASSERT_TRUE(plugin.RemovePod(*copy, pod, twice, without).IsSuccess());
  EXPECT_EQ(plugin.Filter(*copy, pod, without), Status::Success());  // 1 - 2 < 0
  CycleState empty;
  EXPECT_EQ(plugin.AddPod(empty, pod, holder, without).code(), Code::kError);
  EXPECT_EQ(plugin.Filter(empty, pod, without).code(), Code::kError);
}

// Upstream Test_isSchedulableAfterPodDeleted.
TEST(VolumeRestrictionsTest, UpstreamIsSchedulableAfterPodDeleted) {
  struct Case {
    std::string name;
    api::Pod pod;
    EventObject old_obj;
    QueueingHint want;
    bool want_err;
  };
  const std::vector<Case> cases = {
      {"queue-new-object-gcedisk-conflict", PodWith({Gce("foo")}), PodWith({Gce("foo")}),
       QueueingHint::kQueue, false},
      {"skip-new-object-gcedisk-no-conflict", PodWith({Gce("foo")}), PodWith({Gce("bar")}),
       QueueingHint::kSkip, false},
      {"queue-new-object-awsdisk-conflict", PodWith({Ebs("foo")}), PodWith({Ebs("foo")}),
       QueueingHint::kQueue, false},
      {"skip-new-object-awsdisk-no-conflict", PodWith({Ebs("foo")}), PodWith({Ebs("bar")}),
       QueueingHint::kSkip, false},
      {"queue-new-object-rbddisk-conflict", PodWith({Rbd({"a", "b"})}), PodWith({Rbd({"a", "b"})}),
       QueueingHint::kQueue, false},
      {"skip-new-object-rbddisk-no-conflict", PodWith({Rbd({"a", "b"})}),
       PodWith({Rbd({"c", "d"})}), QueueingHint::kSkip, false},
      {"queue-new-object-iscsidisk-conflict", PodWith({Iscsi("iqn.2016")}),
       PodWith({Iscsi("iqn.2016")}), QueueingHint::kQueue, false},
      {"skip-new-object-iscsidisk-no-conflict", PodWith({Iscsi("iqn.2016")}),
       PodWith({Iscsi("iqn.2017")}), QueueingHint::kSkip, false},
      {"queue-has-same-claim", PodWith({Claim("claim-rwop")}, "", "pod1"),
       PodWith({Claim("claim-rwop")}, "", "pod2"), QueueingHint::kQueue, false},
      {"skip-no-same-claim", PodWith({Claim("claim-1-rwop")}, "", "pod1"),
       PodWith({Claim("claim-2-rwop")}, "", "pod2"), QueueingHint::kSkip, false},
      // Not upstream rows.
      {"skip-other-namespace-disk-conflict", PodWith({Gce("foo")}, "a"),
       PodWith({Gce("foo")}, "b"), QueueingHint::kSkip, false},
      {"error-wrong-object", PodWith({Gce("foo")}), MakeNode().Obj(), QueueingHint::kQueue, true},
  };
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto got = VolumeRestrictions::IsSchedulableAfterPodDeleted(tc.pod, tc.old_obj,
                                                                std::monostate{});
    EXPECT_EQ(!got.ok(), tc.want_err);
    if (got.ok()) EXPECT_EQ(*got, tc.want);
  }
}

// Upstream Test_isSchedulableAfterPersistentVolumeClaimChange.
TEST(VolumeRestrictionsTest, UpstreamIsSchedulableAfterPersistentVolumeClaimAdded) {
  const api::Pod both = PodWith({Claim("claim-with-rwx-1"), Claim("claim-with-rwx-2")}, "default");
  const api::Pod one = PodWith({Claim("claim-with-rwx-1")}, "default");
  const api::Pod system = PodWith({Claim("claim-with-rwx-1")}, "kube-system");
  auto hint = [](const api::Pod& pod, const EventObject& pvc) {
    return *VolumeRestrictions::IsSchedulableAfterPersistentVolumeClaimAdded(pod, std::monostate{},
                                                                            pvc);
  };
  EXPECT_EQ(hint(both, Pvc("claim-with-rwx-1", api::kReadWriteMany)), QueueingHint::kQueue);
  EXPECT_EQ(hint(one, Pvc("claim-with-rwx-2", api::kReadWriteMany)), QueueingHint::kSkip);
  EXPECT_EQ(hint(system, Pvc("claim-with-rwx-1", api::kReadWriteMany)), QueueingHint::kSkip);
  EXPECT_FALSE(VolumeRestrictions::IsSchedulableAfterPersistentVolumeClaimAdded(
                   one, std::monostate{}, MakeNode().Obj())
                   .ok());
}

TEST(VolumeRestrictionsTest, EventsToRegister) {
  st::FakeHandle handle;
  std::vector<ClusterEventWithHint> events = VolumeRestrictions(&handle).EventsToRegister();
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0].event.resource, EventResource::kPod);
  EXPECT_EQ(events[0].event.action, kDelete);
  EXPECT_EQ(events[1].event.resource, EventResource::kNode);
  EXPECT_EQ(events[1].event.action, kAdd);
  EXPECT_FALSE(static_cast<bool>(events[1].hint));
  EXPECT_EQ(events[2].event.resource, EventResource::kPersistentVolumeClaim);
  EXPECT_EQ(events[2].event.action, kAdd);
}

}  // namespace
}  // namespace schedref::reference::framework::plugins::volumerestrictions
