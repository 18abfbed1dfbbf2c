// VolumeZone's Filter, helper and queueing-hint tables, run against both
// implementations (impl.h). Transcribed from upstream
// pkg/scheduler/framework/plugins/volumezone/volume_zone_test.go
// (TestSingleZone, TestMultiZone, TestWithBinding and the hint tests);
// upstream case names kept. The hints' wrong-kind rows need the
// reference's untyped event objects and stay beside it
// (reference/framework/plugins/volumezone/volume_zone_test.cc).
#include <gtest/gtest.h>

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "testing/upstream/framework/plugins/volumezone/impl.h"

namespace SCHEDREF_VOLUMEZONE_NS {
namespace {

using st::MakeNode;
using st::MakePod;

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
    // The unit tests run Filter even after PreFilter failed or skipped.
    const FilterRun run =
        RunFilter(storage, tc.pod, MakeNode().Name("host1").Labels(tc.node_labels).Obj());
    EXPECT_EQ(run.pre_filter.code(), tc.want_pre_filter.code());
    EXPECT_EQ(run.pre_filter.reasons(), tc.want_pre_filter.reasons());
    EXPECT_FALSE(run.pre_filter_result);
    EXPECT_EQ(run.filter.code(), tc.want_filter.code());
    EXPECT_EQ(run.filter.reasons(), tc.want_filter.reasons());
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

// Upstream TestIsSchedulableAfterPersistentVolumeClaimAdded.
TEST(VolumeZoneTest, UpstreamIsSchedulableAfterPersistentVolumeClaimChange) {
  struct HintCase {
    std::string name;
    api::Pod pod;
    std::optional<api::PersistentVolumeClaim> old_pvc;
    api::PersistentVolumeClaim new_pvc;
    QueueingHint want;
  };
  const api::PersistentVolumeClaim bound = PVC("PVC_1", "Vol_1");
  const api::Pod no_volumes = MakePod().Name("pod_1").Namespace("default").Obj();
  const std::vector<HintCase> cases = {
      {"pvc-was-added-but-pod-refers-no-pvc", no_volumes, std::nullopt, bound,
       QueueingHint::kSkip},
      {"pvc-was-added-and-pod-was-bound-to-different-pvc", PodWithVolume("pod_1", "PVC_2"),
       std::nullopt, bound, QueueingHint::kSkip},
      {"pvc-was-added-and-pod-was-bound-to-pvc-but-different-ns",
       PodWithVolume("pod_1", "PVC_1"), std::nullopt, PVC("PVC_1", "Vol_1", {}, "ns1"),
       QueueingHint::kSkip},
      {"pvc-was-added-and-pod-was-bound-to-the-pvc", PodWithVolume("pod_1", "PVC_1"),
       std::nullopt, bound, QueueingHint::kQueue},
      {"pvc-was-updated-and-pod-was-bound-to-the-pvc", PodWithVolume("pod_1", "PVC_1"),
       PVC("PVC_1", ""), bound, QueueingHint::kQueue},
      {"pvc-was-updated-but-pod-refers-no-pvc", no_volumes, PVC("PVC_1", ""), bound,
       QueueingHint::kSkip},
  };
  for (const HintCase& tc : cases) {
    SCOPED_TRACE(tc.name);
    const auto got =
        PvcChangeHint(tc.pod, tc.old_pvc ? &*tc.old_pvc : nullptr, &tc.new_pvc);
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(*got, tc.want);
  }
}

// Upstream TestIsSchedulableAfterStorageClassAdded.
TEST(VolumeZoneTest, UpstreamIsSchedulableAfterStorageClassAdded) {
  const api::Pod pod = PodWithVolume("pod_1", "PVC_1");
  auto hint = [&](const api::StorageClass& sc) { return *StorageClassAddedHint(pod, sc); };
  EXPECT_EQ(hint(SC("SC_1", "")), QueueingHint::kSkip);
  EXPECT_EQ(hint(SC("SC_1", api::kVolumeBindingImmediate)), QueueingHint::kSkip);
  EXPECT_EQ(hint(SC("SC_1", api::kVolumeBindingWaitForFirstConsumer)), QueueingHint::kQueue);
}

// Upstream TestIsSchedulableAfterPersistentVolumeChange.
TEST(VolumeZoneTest, UpstreamIsSchedulableAfterPersistentVolumeChange) {
  const api::Pod pod = PodWithVolume("pod_1", "PVC_1");
  auto hint = [&](const api::PersistentVolume* o, const api::PersistentVolume& n) {
    return *PvChangeHint(pod, o, &n);
  };
  const auto a = PV("Vol_1", {{kBetaZone, "us-west1-a"}});
  const auto b = PV("Vol_1", {{kBetaZone, "us-west1-b"}});
  EXPECT_EQ(hint(nullptr, b), QueueingHint::kQueue);
  EXPECT_EQ(hint(&a, b), QueueingHint::kQueue);
  EXPECT_EQ(hint(&a, PV("Vol_1", {{kBetaZone, "us-west1-a"}, {kZone, "zone"}})),
            QueueingHint::kQueue);
  EXPECT_EQ(hint(&a, a), QueueingHint::kSkip);
  // Not upstream rows: other labels, and reordered multi-zone values.
  EXPECT_EQ(hint(&a, PV("Vol_1", {{kBetaZone, "us-west1-a"}, {"x", "y"}})), QueueingHint::kSkip);
  const auto ab = PV("v", {{kZone, "a__b"}});
  EXPECT_EQ(hint(&ab, PV("v", {{kZone, "b__a"}})), QueueingHint::kSkip);
}

TEST(VolumeZoneTest, EventsToRegister) {
  const std::vector<ClusterEventWithHint> events = EventsToRegister();
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
}  // namespace SCHEDREF_VOLUMEZONE_NS
