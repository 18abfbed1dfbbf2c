// VolumeRestrictions' Filter, dry-run and queueing-hint tables, run
// against both implementations (impl.h). Transcribed from upstream
// pkg/scheduler/framework/plugins/volumerestrictions/
// volume_restrictions_test.go (the disk-conflict tests,
// TestAccessModeConflicts and the hint tests); upstream case names kept.
// The hints' wrong-kind rows need the reference's untyped event objects
// and stay beside it
// (reference/framework/plugins/volumerestrictions/volume_restrictions_test.cc).
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "testing/upstream/framework/plugins/volumerestrictions/impl.h"

namespace SCHEDREF_VOLUMERESTRICTIONS_NS {
namespace {

using st::MakePod;

// Code and reasons (the plugin name is the framework's to set).
#define EXPECT_STATUS(got, want)           \
  do {                                     \
    const Status g = (got);                \
    const Status w = (want);               \
    EXPECT_EQ(g.code(), w.code());         \
    EXPECT_EQ(g.reasons(), w.reasons());   \
  } while (0)

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
    Env env(tc.existing, {});
    CycleState state;
    const Status pre = env.PreFilter(state, tc.pod);
    EXPECT_STATUS(pre, tc.want_pre_filter);
    if (!pre.IsSuccess()) continue;
    EXPECT_STATUS(env.Filter(state, tc.pod), tc.want_filter);
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
    Env env(tc.existing, tc.pvcs);
    CycleState state;
    const Status pre = env.PreFilter(state, tc.pod);
    EXPECT_STATUS(pre, tc.want_pre_filter);
    if (!pre.IsSuccess()) continue;
    EXPECT_STATUS(env.Filter(state, tc.pod), tc.want_filter);
  }
}

// The preemption dry run: removing the holder brings the count to 0 on
// its node; adding it back (or a nominated pod using the claim name, in
// any namespace) raises it again. Counting is by volume.
TEST(VolumeRestrictionsTest, AddPodRemovePod) {
  const api::Pod holder = PodWith({Claim("c")}, "default", "holder", "n1");
  const api::Pod pod = PodWith({Claim("c")}, "default", "pod");
  Env env({holder}, {Pvc("c", api::kReadWriteOncePod)}, "n1");
  CycleState state;
  ASSERT_TRUE(env.PreFilter(state, pod).IsSuccess());
  EXPECT_STATUS(env.Filter(state, pod), kRwop);
  CycleState copy(state);
  const NodeInfo without = EmptyNode("n1");
  ASSERT_TRUE(env.RemovePod(copy, pod, holder, without).IsSuccess());
  EXPECT_STATUS(env.Filter(copy, pod, without), Status::Success());
  // The original state is untouched by the clone's change.
  EXPECT_STATUS(env.Filter(state, pod), kRwop);
  const api::Pod other_ns = PodWith({Claim("c")}, "other", "x", "n1");
  ASSERT_TRUE(env.AddPod(copy, pod, other_ns, without).IsSuccess());
  EXPECT_STATUS(env.Filter(copy, pod, without), kRwop);
  const api::Pod twice = PodWith({Claim("c"), Claim("c")}, "default", "twice", "n1");
  ASSERT_TRUE(env.RemovePod(copy, pod, twice, without).IsSuccess());
  EXPECT_STATUS(env.Filter(copy, pod, without), Status::Success());  // 1 - 2 < 0
  CycleState empty;
  EXPECT_EQ(env.AddPod(empty, pod, holder, without).code(), Code::kError);
  EXPECT_EQ(env.Filter(empty, pod, without).code(), Code::kError);
}

// Upstream Test_isSchedulableAfterPodDeleted.
TEST(VolumeRestrictionsTest, UpstreamIsSchedulableAfterPodDeleted) {
  struct Case {
    std::string name;
    api::Pod pod;
    api::Pod deleted;
    QueueingHint want;
  };
  const std::vector<Case> cases = {
      {"queue-new-object-gcedisk-conflict", PodWith({Gce("foo")}), PodWith({Gce("foo")}),
       QueueingHint::kQueue},
      {"skip-new-object-gcedisk-no-conflict", PodWith({Gce("foo")}), PodWith({Gce("bar")}),
       QueueingHint::kSkip},
      {"queue-new-object-awsdisk-conflict", PodWith({Ebs("foo")}), PodWith({Ebs("foo")}),
       QueueingHint::kQueue},
      {"skip-new-object-awsdisk-no-conflict", PodWith({Ebs("foo")}), PodWith({Ebs("bar")}),
       QueueingHint::kSkip},
      {"queue-new-object-rbddisk-conflict", PodWith({Rbd({"a", "b"})}), PodWith({Rbd({"a", "b"})}),
       QueueingHint::kQueue},
      {"skip-new-object-rbddisk-no-conflict", PodWith({Rbd({"a", "b"})}),
       PodWith({Rbd({"c", "d"})}), QueueingHint::kSkip},
      {"queue-new-object-iscsidisk-conflict", PodWith({Iscsi("iqn.2016")}),
       PodWith({Iscsi("iqn.2016")}), QueueingHint::kQueue},
      {"skip-new-object-iscsidisk-no-conflict", PodWith({Iscsi("iqn.2016")}),
       PodWith({Iscsi("iqn.2017")}), QueueingHint::kSkip},
      {"queue-has-same-claim", PodWith({Claim("claim-rwop")}, "", "pod1"),
       PodWith({Claim("claim-rwop")}, "", "pod2"), QueueingHint::kQueue},
      {"skip-no-same-claim", PodWith({Claim("claim-1-rwop")}, "", "pod1"),
       PodWith({Claim("claim-2-rwop")}, "", "pod2"), QueueingHint::kSkip},
      // Not upstream rows.
      {"skip-other-namespace-disk-conflict", PodWith({Gce("foo")}, "a"),
       PodWith({Gce("foo")}, "b"), QueueingHint::kSkip},
  };
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    const auto got = PodDeletedHint(tc.pod, tc.deleted);
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(*got, tc.want);
  }
}

// Upstream Test_isSchedulableAfterPersistentVolumeClaimChange.
TEST(VolumeRestrictionsTest, UpstreamIsSchedulableAfterPersistentVolumeClaimAdded) {
  const api::Pod both = PodWith({Claim("claim-with-rwx-1"), Claim("claim-with-rwx-2")}, "default");
  const api::Pod one = PodWith({Claim("claim-with-rwx-1")}, "default");
  const api::Pod system = PodWith({Claim("claim-with-rwx-1")}, "kube-system");
  auto hint = [](const api::Pod& pod, const api::PersistentVolumeClaim& pvc) {
    return *PvcAddedHint(pod, pvc);
  };
  EXPECT_EQ(hint(both, Pvc("claim-with-rwx-1", api::kReadWriteMany)), QueueingHint::kQueue);
  EXPECT_EQ(hint(one, Pvc("claim-with-rwx-2", api::kReadWriteMany)), QueueingHint::kSkip);
  EXPECT_EQ(hint(system, Pvc("claim-with-rwx-1", api::kReadWriteMany)), QueueingHint::kSkip);
}

TEST(VolumeRestrictionsTest, EventsToRegister) {
  const Env env({}, {});
  const std::vector<ClusterEventWithHint> events = env.EventsToRegister();
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
}  // namespace SCHEDREF_VOLUMERESTRICTIONS_NS
