#include "optimized/framework/plugins/volumezone/volume_zone.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "optimized/framework/testing/fixtures.h"
#include "testing/st/wrappers.h"

namespace schedref::optimized::framework::plugins::volumezone {
namespace {

using schedref::st::MakeNode;
using schedref::st::MakePod;

constexpr char kBetaZone[] = "failure-domain.beta.kubernetes.io/zone";
constexpr char kBetaRegion[] = "failure-domain.beta.kubernetes.io/region";
constexpr char kZone[] = "topology.kubernetes.io/zone";
constexpr char kRegion[] = "topology.kubernetes.io/region";

api::PersistentVolume PV(const std::string& name, api::Labels labels) {
  api::PersistentVolume pv;
  pv.name = name;
  pv.labels = std::move(labels);
  return pv;
}

api::PersistentVolumeClaim PVC(const std::string& name, const std::string& volume,
                               std::optional<std::string> sc = std::nullopt,
                               const std::string& ns = "default") {
  api::PersistentVolumeClaim pvc;
  pvc.ns = ns;
  pvc.name = name;
  pvc.spec.volume_name = volume;
  pvc.spec.storage_class_name = std::move(sc);
  return pvc;
}

api::StorageClass SC(const std::string& name, const std::string& mode) {
  api::StorageClass sc;
  sc.name = name;
  sc.volume_binding_mode = mode;
  return sc;
}

// upstream createPodWithVolume.
api::Pod PodWithVolume(const std::string& pod, const std::string& pvc) {
  api::Volume v;
  v.name = "vol";
  v.source.kind = "persistentVolumeClaim";
  v.source.claim_name = pvc;
  return MakePod().Name(pod).Namespace("default").Volume(v).Obj();
}

struct Case {
  std::string name;
  api::Pod pod;
  api::Labels node_labels;
  Status want_pre_filter;
  Status want_filter;
};

void RunCases(const std::vector<Case>& cases, const api::StorageObjects& storage) {
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    testing::FakeHandle handle;
    handle.storage = storage;
    VolumeZone plugin(&handle);
    CycleState state;
    PodInfoPtr pod = NewPodInfo(tc.pod);
    PreFilterOutput pre = plugin.PreFilter(state, *pod, {});
    EXPECT_EQ(pre.status.code(), tc.want_pre_filter.code());
    EXPECT_EQ(pre.status.reasons(), tc.want_pre_filter.reasons());
    EXPECT_FALSE(pre.result.has_value());
    NodeInfo info = testing::MakeNodeInfo(MakeNode().Name("host1").Labels(tc.node_labels).Obj());
    // The unit tests run Filter even after PreFilter failed or skipped.
    Status got = plugin.Filter(state, *pod, info);
    EXPECT_EQ(got.code(), tc.want_filter.code());
    EXPECT_EQ(got.reasons(), tc.want_filter.reasons());
  }
}

api::StorageObjects Storage(const std::vector<api::PersistentVolume>& pvs,
                            const std::vector<api::PersistentVolumeClaim>& pvcs,
                            const std::vector<api::StorageClass>& classes = {}) {
  api::Objects objects;
  objects.persistent_volumes = pvs;
  objects.persistent_volume_claims = pvcs;
  objects.storage_classes = classes;
  return api::StorageObjects::From(objects);
}

const Status kConflict(Code::kUnschedulableAndUnresolvable, kErrReasonConflict);

// Transcribed from upstream volume_zone_test.go TestSingleZone.
TEST(VolumeZoneTest, UpstreamSingleZone) {
  const api::StorageObjects storage = Storage(
      {PV("Vol_1", {{kBetaZone, "us-west1-a"}}),
       PV("Vol_2", {{kBetaRegion, "us-west1"}, {"uselessLabel", "none"}}),
       PV("Vol_3", {{kBetaRegion, "us-west1"}}),
       PV("Vol_Stable_1", {{kZone, "us-west1-a"}}),
       PV("Vol_Stable_2", {{kRegion, "us-west1"}, {"uselessLabel", "none"}}),
       PV("Vol_Stable_3", {{kZone, "us-west1-a"}, {kRegion, "us-west1-a"}})},
      {PVC("PVC_1", "Vol_1"), PVC("PVC_2", "Vol_2"), PVC("PVC_3", "Vol_3"),
       PVC("PVC_4", "Vol_not_exist"), PVC("PVC_Stable_1", "Vol_Stable_1"),
       PVC("PVC_Stable_2", "Vol_Stable_2"), PVC("PVC_Stable_3", "Vol_Stable_3")});
  RunCases({
          {"pod without volume", MakePod().Name("pod_1").Namespace("default").Obj(),
           {{kBetaZone, "us-west1-a"}}, Status::Skip(), {}},
          {"node without labels", PodWithVolume("pod_1", "PVC_1"), {}, {}, {}},
          {"beta zone label matched", PodWithVolume("pod_1", "PVC_1"),
           {{kBetaZone, "us-west1-a"}, {"uselessLabel", "none"}}, {}, {}},
          {"beta region label matched", PodWithVolume("pod_1", "PVC_2"),
           {{kBetaRegion, "us-west1"}, {"uselessLabel", "none"}}, {}, {}},
          {"beta region label doesn't match", PodWithVolume("pod_1", "PVC_2"),
           {{kBetaRegion, "no_us-west1"}, {"uselessLabel", "none"}}, {}, kConflict},
          {"beta zone label doesn't match", PodWithVolume("pod_1", "PVC_1"),
           {{kBetaZone, "no_us-west1-a"}, {"uselessLabel", "none"}}, {}, kConflict},
          {"zone label matched", PodWithVolume("pod_1", "PVC_Stable_1"),
           {{kZone, "us-west1-a"}, {"uselessLabel", "none"}}, {}, {}},
          {"region label matched", PodWithVolume("pod_1", "PVC_Stable_2"),
           {{kRegion, "us-west1"}, {"uselessLabel", "none"}}, {}, {}},
          {"region label doesn't match", PodWithVolume("pod_1", "PVC_Stable_2"),
           {{kRegion, "no_us-west1"}, {"uselessLabel", "none"}}, {}, kConflict},
          {"zone label doesn't match", PodWithVolume("pod_1", "PVC_Stable_1"),
           {{kZone, "no_us-west1-a"}, {"uselessLabel", "none"}}, {}, kConflict},
          {"pv with zone and region, node with only zone",
           PodWithVolume("pod_1", "PVC_Stable_3"), {{kZone, "us-west1-a"}}, {}, kConflict},
          {"pv with zone,node with beta zone", PodWithVolume("pod_1", "PVC_Stable_1"),
           {{kBetaZone, "us-west1-a"}}, {}, kConflict},
          {"pv with beta label,node with ga label, matched",
           PodWithVolume("pod_1", "PVC_1"), {{kZone, "us-west1-a"}}, {}, {}},
          {"pv with beta label,node with ga label, don't match",
           PodWithVolume("pod_1", "PVC_1"), {{kZone, "us-west1-b"}}, {}, kConflict},
      },
      storage);
}

// Transcribed from upstream TestMultiZone.
TEST(VolumeZoneTest, UpstreamMultiZone) {
  const api::StorageObjects storage =
      Storage({PV("Vol_1", {{kBetaZone, "us-west1-a"}}), PV("Vol_2", {{kBetaZone, "us-west1-b"}}),
               PV("Vol_3", {{kBetaZone, "us-west1-c__us-west1-a"}}),
               PV("Vol_Stable_1", {{kZone, "us-west1-a"}}),
               PV("Vol_Stable_2", {{kZone, "us-west1-c__us-west1-a"}})},
              {PVC("PVC_1", "Vol_1"), PVC("PVC_2", "Vol_2"), PVC("PVC_3", "Vol_3"),
               PVC("PVC_4", "Vol_not_exist"), PVC("PVC_Stable_1", "Vol_Stable_1"),
               PVC("PVC_Stable_2", "Vol_Stable_2")});
  RunCases({
          {"node without labels", PodWithVolume("pod_1", "PVC_3"), {}, {}, {}},
          {"beta zone label matched", PodWithVolume("pod_1", "PVC_3"),
           {{kBetaZone, "us-west1-a"}, {"uselessLabel", "none"}}, {}, {}},
          {"beta zone label doesn't match", PodWithVolume("pod_1", "PVC_1"),
           {{kBetaZone, "us-west1-b"}, {"uselessLabel", "none"}}, {}, kConflict},
          {"zone label matched", PodWithVolume("pod_1", "PVC_Stable_2"),
           {{kZone, "us-west1-a"}, {"uselessLabel", "none"}}, {}, {}},
          {"zone label doesn't match", PodWithVolume("pod_1", "PVC_Stable_1"),
           {{kZone, "us-west1-b"}, {"uselessLabel", "none"}}, {}, kConflict},
      },
      storage);
}

// Transcribed from upstream TestWithBinding. Our listers print the
// singular resource names of the real informers, not the fake listers'.
TEST(VolumeZoneTest, UpstreamWithBinding) {
  const api::StorageObjects storage = Storage(
      {PV("Vol_1", {{kBetaZone, "us-west1-a"}})},
      {PVC("PVC_1", "Vol_1"), PVC("PVC_NoSC", "", "Class_0"), PVC("PVC_EmptySC", ""),
       PVC("PVC_WaitSC", "", "Class_Wait"), PVC("PVC_ImmediateSC", "", "Class_Immediate")},
      {SC("Class_Immediate", ""), SC("Class_Wait", api::kVolumeBindingWaitForFirstConsumer)});
  const api::Labels node = {{kBetaZone, "us-west1-a"}, {"uselessLabel", "none"}};
  auto uau = [](const std::string& r) { return Status(Code::kUnschedulableAndUnresolvable, r); };
  const Status no_sc = uau("PersistentVolumeClaim had no pv name and storageClass name");
  const Status not_found = uau("storageclass.storage.k8s.io \"Class_0\" not found");
  const Status not_set = uau("VolumeBindingMode not set for StorageClass \"Class_Immediate\"");
  RunCases({
          {"pod without volume", MakePod().Name("pod_1").Namespace("default").Obj(), node,
           Status::Skip(), {}},
          {"label zone failure domain matched", PodWithVolume("pod_1", "PVC_1"), node, {}, {}},
          {"unbound volume empty storage class", PodWithVolume("pod_1", "PVC_EmptySC"), node,
           no_sc, no_sc},
          {"unbound volume no storage class", PodWithVolume("pod_1", "PVC_NoSC"), node,
           not_found, not_found},
          {"unbound volume immediate binding mode", PodWithVolume("pod_1", "PVC_ImmediateSC"),
           node, not_set, not_set},
          {"unbound volume wait binding mode", PodWithVolume("pod_1", "PVC_WaitSC"), node,
           Status::Skip(), {}},
      },
      storage);
}

// Not upstream rows: the messages of a missing claim or PV, an Immediate
// class (as the decoder defaults it), and an empty claim name.
TEST(VolumeZoneTest, MissingObjects) {
  api::StorageObjects storage =
      Storage({}, {PVC("PVC_4", "Vol_not_exist"), PVC("PVC_Imm", "", "imm")},
              {SC("imm", api::kVolumeBindingImmediate)});
  auto uau = [](const std::string& r) { return Status(Code::kUnschedulableAndUnresolvable, r); };
  const Status no_pvc = uau("persistentvolumeclaim \"missing\" not found");
  const Status no_pv = uau("persistentvolume \"Vol_not_exist\" not found");
  const Status no_name = uau("PersistentVolume had no name");
  const Status empty = uau("PersistentVolumeClaim had no name");
  RunCases({{"missing claim", PodWithVolume("p", "missing"), {}, no_pvc, no_pvc},
       {"missing pv", PodWithVolume("p", "PVC_4"), {}, no_pv, no_pv},
       {"immediate unbound", PodWithVolume("p", "PVC_Imm"), {}, no_name, no_name},
       {"empty claim name", PodWithVolume("p", ""), {}, empty, empty}},
      storage);
}

TEST(VolumeZoneTest, LabelZonesToSet) {
  using Set = std::set<std::string>;
  EXPECT_EQ(LabelZonesToSet("us-west1-c__us-west1-a"), (Set{"us-west1-c", "us-west1-a"}));
  EXPECT_EQ(LabelZonesToSet(" a __b"), (Set{"a", "b"}));
  EXPECT_EQ(LabelZonesToSet("a___b"), (Set{"a", "_b"}));
  EXPECT_EQ(LabelZonesToSet("a,b"), (Set{"a,b"}));
  EXPECT_EQ(LabelZonesToSet(""), std::nullopt);
  EXPECT_EQ(LabelZonesToSet("a__"), std::nullopt);
  EXPECT_EQ(LabelZonesToSet("__a"), std::nullopt);
}

TEST(VolumeZoneTest, GetPVTopologiesIgnoresBadLabelsAndKeepsOrder) {
  const auto got = GetPVTopologies(
      PV("v", {{kRegion, "r"}, {kBetaZone, "a__b"}, {kZone, "a__"}, {"other", "x"}}));
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0], (PVTopology{"v", kBetaZone, {"a", "b"}}));
  EXPECT_EQ(got[1], (PVTopology{"v", kRegion, {"r"}}));
}

// Upstream TestIsSchedulableAfterPersistentVolumeClaimAdded (the typed
// event objects cannot hold a wrong kind, so the error rows are left out).
TEST(VolumeZoneTest, UpstreamIsSchedulableAfterPersistentVolumeClaimChange) {
  const api::PersistentVolumeClaim bound = PVC("PVC_1", "Vol_1");
  const api::PersistentVolumeClaim unbound = PVC("PVC_1", "");
  const api::PersistentVolumeClaim other_ns = PVC("PVC_1", "Vol_1", {}, "ns1");
  const api::Pod no_volumes = MakePod().Name("pod_1").Namespace("default").Obj();
  auto hint = [](const api::Pod& pod, const api::PersistentVolumeClaim* o,
                 const api::PersistentVolumeClaim* n) {
    EventObjects objs;
    objs.old_pvc = o;
    objs.new_pvc = n;
    return *VolumeZone::IsSchedulableAfterPersistentVolumeClaimChange(pod, objs);
  };
  EXPECT_EQ(hint(no_volumes, nullptr, &bound), QueueingHint::kSkip);
  EXPECT_EQ(hint(PodWithVolume("pod_1", "PVC_2"), nullptr, &bound), QueueingHint::kSkip);
  EXPECT_EQ(hint(PodWithVolume("pod_1", "PVC_1"), nullptr, &other_ns), QueueingHint::kSkip);
  EXPECT_EQ(hint(PodWithVolume("pod_1", "PVC_1"), nullptr, &bound), QueueingHint::kQueue);
  EXPECT_EQ(hint(PodWithVolume("pod_1", "PVC_1"), &unbound, &bound), QueueingHint::kQueue);
  EXPECT_EQ(hint(no_volumes, &unbound, &bound), QueueingHint::kSkip);
}

// Upstream TestIsSchedulableAfterStorageClassAdded.
TEST(VolumeZoneTest, UpstreamIsSchedulableAfterStorageClassAdded) {
  const api::Pod pod = PodWithVolume("pod_1", "PVC_1");
  auto hint = [&](const api::StorageClass& sc) {
    EventObjects objs;
    objs.new_class = &sc;
    return *VolumeZone::IsSchedulableAfterStorageClassAdded(pod, objs);
  };
  EXPECT_EQ(hint(SC("SC_1", "")), QueueingHint::kSkip);
  EXPECT_EQ(hint(SC("SC_1", api::kVolumeBindingImmediate)), QueueingHint::kSkip);
  EXPECT_EQ(hint(SC("SC_1", api::kVolumeBindingWaitForFirstConsumer)), QueueingHint::kQueue);
}

// Upstream TestIsSchedulableAfterPersistentVolumeChange.
TEST(VolumeZoneTest, UpstreamIsSchedulableAfterPersistentVolumeChange) {
  const api::Pod pod = PodWithVolume("pod_1", "PVC_1");
  auto hint = [&](const api::PersistentVolume* o, const api::PersistentVolume* n) {
    EventObjects objs;
    objs.old_pv = o;
    objs.new_pv = n;
    return *VolumeZone::IsSchedulableAfterPersistentVolumeChange(pod, objs);
  };
  const auto a = PV("Vol_1", {{kBetaZone, "us-west1-a"}});
  const auto b = PV("Vol_1", {{kBetaZone, "us-west1-b"}});
  const auto added = PV("Vol_1", {{kBetaZone, "us-west1-a"}, {kZone, "zone"}});
  const auto other = PV("Vol_1", {{kBetaZone, "us-west1-a"}, {"x", "y"}});
  const auto ab = PV("v", {{kZone, "a__b"}});
  const auto ba = PV("v", {{kZone, "b__a"}});
  EXPECT_EQ(hint(nullptr, &b), QueueingHint::kQueue);
  EXPECT_EQ(hint(&a, &b), QueueingHint::kQueue);
  EXPECT_EQ(hint(&a, &added), QueueingHint::kQueue);
  EXPECT_EQ(hint(&a, &a), QueueingHint::kSkip);
  EXPECT_EQ(hint(&a, &other), QueueingHint::kSkip);
  EXPECT_EQ(hint(&ab, &ba), QueueingHint::kSkip);
}

TEST(VolumeZoneTest, EventsToRegister) {
  testing::FakeHandle handle;
  std::vector<ClusterEventWithHint> events = VolumeZone(&handle).EventsToRegister();
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events[0].event.resource, EventResource::kStorageClass);
  EXPECT_EQ(events[0].event.action, kAdd);
  EXPECT_EQ(events[1].event.resource, EventResource::kNode);
  EXPECT_EQ(events[1].event.action, kAdd | kUpdateNodeLabel);
  EXPECT_FALSE(static_cast<bool>(events[1].hint));
  EXPECT_EQ(events[2].event.resource, EventResource::kPersistentVolumeClaim);
  EXPECT_EQ(events[2].event.action, kAdd | kUpdate);
  EXPECT_EQ(events[3].event.resource, EventResource::kPersistentVolume);
  EXPECT_EQ(events[3].event.action, kAdd | kUpdate);
}

}  // namespace
}  // namespace schedref::optimized::framework::plugins::volumezone
