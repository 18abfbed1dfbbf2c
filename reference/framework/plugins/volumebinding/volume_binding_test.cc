#include "reference/framework/plugins/volumebinding/volume_binding.h"

#include <gtest/gtest.h>

#include <memory>
#include <variant>
#include <string>
#include <vector>

#include "reference/framework/testing/fake_handle.h"
#include "reference/framework/testing/wrappers.h"

namespace schedref::reference::framework::plugins::volumebinding {
namespace {

constexpr int64_t kGi = int64_t{1} << 30;

api::Volume ClaimVolume(const std::string& claim) {
  api::Volume v;
  v.name = claim;
  v.source.kind = "persistentVolumeClaim";
  v.source.claim_name = claim;
  return v;
}

api::PersistentVolumeClaim Claim(const std::string& name, const std::string& cls,
                                 int64_t request = 0) {
  api::PersistentVolumeClaim c;
  c.ns = "default";
  c.name = name;
  c.uid = "default/" + name;
  c.spec.storage_class_name = cls;
  c.spec.storage_request = request;
  return c;
}

api::PersistentVolume Volume(const std::string& name, const std::string& cls, int64_t capacity,
                             const std::string& host) {
  api::PersistentVolume pv;
  pv.name = name;
  pv.storage_class_name = cls;
  pv.capacity = capacity;
  pv.phase = "Available";
  if (!host.empty()) {
    api::NodeSelectorTerm term;
    term.match_expressions.push_back({"kubernetes.io/hostname", "In", {host}});
    pv.node_affinity = api::NodeSelector{{term}};
  }
  return pv;
}

api::StorageClass Class(const std::string& name, const std::string& mode,
                        const std::string& provisioner = "") {
  api::StorageClass sc;
  sc.name = name;
  sc.volume_binding_mode = mode;
  sc.provisioner = provisioner;
  return sc;
}

struct Fixture {
  st::FakeHandle handle;
  std::unique_ptr<Plugin> plugin;
  VolumeBinding* vb = nullptr;
  Fixture() {
    handle.storage.classes["wait-sc"] = Class("wait-sc", api::kVolumeBindingWaitForFirstConsumer);
    handle.storage.classes["immediate-sc"] = Class("immediate-sc", api::kVolumeBindingImmediate);
    auto p = VolumeBinding::New(nlohmann::json::object(), &handle);
    EXPECT_TRUE(p.ok());
    plugin = std::move(*p);
    vb = dynamic_cast<VolumeBinding*>(plugin.get());
  }
};

api::Node HostNode(const std::string& name) {
  return st::MakeNode().Name(name).Label("kubernetes.io/hostname", name).Obj();
}

TEST(VolumeBinding, PreFilter) {
  struct Case {
    const char* name;
    std::vector<api::PersistentVolumeClaim> claims;
    Code code;
    std::string reason;
  } cases[] = {
      {"pvc does not exist", {}, Code::kUnschedulableAndUnresolvable,
       "persistentvolumeclaim \"pvc-a\" not found"},
      {"immediate claims not bound", {Claim("pvc-a", "immediate-sc")},
       Code::kUnschedulableAndUnresolvable, kErrUnboundImmediate},
      {"unbound wait claim", {Claim("pvc-a", "wait-sc")}, Code::kSuccess, ""},
  };
  for (const Case& c : cases) {
    Fixture f;
    for (const auto& pvc : c.claims) f.handle.storage.claims[pvc.Key()] = pvc;
    api::Pod pod = st::MakePod().Name("pod-a").Volume(ClaimVolume("pvc-a")).Obj();
    CycleState state;
    PreFilterOutput out = f.vb->PreFilter(state, pod, {});
    EXPECT_EQ(out.status.code(), c.code) << c.name;
    if (!c.reason.empty()) {
      ASSERT_EQ(out.status.reasons().size(), 1u) << c.name;
      EXPECT_EQ(out.status.reasons()[0], c.reason) << c.name;
    }
  }
}

TEST(VolumeBinding, PreFilterSkipsPodsWithoutClaims) {
  Fixture f;
  CycleState state;
  EXPECT_EQ(f.vb->PreFilter(state, st::MakePod().Obj(), {}).status.code(), Code::kSkip);
  EXPECT_TRUE(f.vb->Reserve(state, st::MakePod().Obj(), "n").IsSuccess());
  EXPECT_TRUE(f.vb->PreBind(state, st::MakePod().Obj(), "n").IsSuccess());
}

TEST(VolumeBinding, SmallestFittingVolumeAndAssume) {
  Fixture f;
  f.handle.storage.claims["default/pvc-a"] = Claim("pvc-a", "wait-sc", kGi);
  for (const auto& pv : {Volume("pv-node2", "wait-sc", kGi, "node2"),
                         Volume("pv-node1b", "wait-sc", 10 * kGi, "node1"),
                         Volume("pv-node1a", "wait-sc", 5 * kGi, "node1")}) {
    f.handle.storage.volumes[pv.name] = pv;
  }
  api::Pod pod = st::MakePod().Name("pod-a").Volume(ClaimVolume("pvc-a")).Obj();
  CycleState state;
  ASSERT_TRUE(f.vb->PreFilter(state, pod, {}).status.IsSuccess());
  NodeInfo node1 = st::MakeNodeInfo(HostNode("node1"));
  ASSERT_TRUE(f.vb->Filter(state, pod, node1).IsSuccess());
  ASSERT_TRUE(f.vb->Reserve(state, pod, "node1").IsSuccess());

  // The assumed PV is pvc-a's now: a second pod's claim cannot take it.
  f.handle.storage.claims["default/pvc-b"] = Claim("pvc-b", "wait-sc", 5 * kGi);
  f.handle.storage.volumes.erase("pv-node1b");
  api::Pod pod2 = st::MakePod().Name("pod-b").Volume(ClaimVolume("pvc-b")).Obj();
  CycleState state2;
  ASSERT_TRUE(f.vb->PreFilter(state2, pod2, {}).status.IsSuccess());
  Status s = f.vb->Filter(state2, pod2, node1);
  EXPECT_EQ(s.code(), Code::kUnschedulableAndUnresolvable);
  ASSERT_EQ(s.reasons().size(), 1u);
  EXPECT_EQ(s.reasons()[0], kErrReasonBindConflict);

  // Unreserve gives it back.
  f.vb->Unreserve(state, pod, "node1");
  CycleState state3;
  ASSERT_TRUE(f.vb->PreFilter(state3, pod2, {}).status.IsSuccess());
  EXPECT_TRUE(f.vb->Filter(state3, pod2, node1).IsSuccess());
}

// A handle whose WriteStorageObject stores the object, as the API server.
class WritingHandle : public st::FakeHandle {
 public:
  void WriteStorageObject(const api::StorageWrite& write) override {
    if (const auto* pv = std::get_if<api::PersistentVolume>(&write)) {
      storage.volumes[pv->name] = *pv;
    } else {
      const auto& pvc = std::get<api::PersistentVolumeClaim>(write);
      storage.claims[pvc.Key()] = pvc;
    }
  }
};

// upstream binder_test.go TestBindPodVolumes: "binding-static-pv-succeeds-
// after-time" and "binding-times-out", through PreBind's calls.
TEST(VolumeBinding, PreBindWritesThenWaits) {
  for (bool completes : {true, false}) {
    WritingHandle handle;
    handle.storage.classes["wait-sc"] = Class("wait-sc", api::kVolumeBindingWaitForFirstConsumer);
    handle.storage.claims["default/pvc-a"] = Claim("pvc-a", "wait-sc", kGi);
    handle.storage.volumes["pv-a"] = Volume("pv-a", "wait-sc", kGi, "node1");
    handle.SetSnapshot(Snapshot({st::MakeNodeInfo(HostNode("node1"))}));
    auto made = VolumeBinding::New(nlohmann::json::parse(R"({"bindTimeoutSeconds": 10})"), &handle);
    ASSERT_TRUE(made.ok());
    auto* vb = dynamic_cast<VolumeBinding*>(made->get());
    api::Pod pod = st::MakePod().Name("pod-a").Volume(ClaimVolume("pvc-a")).Obj();
    handle.pods[pod.Key()] = pod;
    CycleState state;
    ASSERT_TRUE(vb->PreFilter(state, pod, {}).status.IsSuccess());
    ASSERT_TRUE(vb->Filter(state, pod, st::MakeNodeInfo(HostNode("node1"))).IsSuccess());
    ASSERT_TRUE(vb->Reserve(state, pod, "node1").IsSuccess());
    EXPECT_EQ(vb->PreBind(state, pod, "node1").code(), Code::kWait);
    // The scheduler's write: the PV's claimRef.
    ASSERT_TRUE(handle.storage.volumes["pv-a"].claim_ref.has_value());
    EXPECT_EQ(handle.storage.volumes["pv-a"].annotations[api::kAnnBoundByController], "yes");
    handle.SetNow(5000);
    EXPECT_EQ(vb->PreBind(state, pod, "node1").code(), Code::kWait);
    if (completes) {
      api::PersistentVolumeClaim& pvc = handle.storage.claims["default/pvc-a"];
      pvc.spec.volume_name = "pv-a";
      pvc.annotations[api::kAnnBindCompleted] = "yes";
      handle.SetNow(6000);
      EXPECT_TRUE(vb->PreBind(state, pod, "node1").IsSuccess());
    } else {
      handle.SetNow(10000);
      Status s = vb->PreBind(state, pod, "node1");
      EXPECT_EQ(s.code(), Code::kError);
      EXPECT_EQ(s.Message(), "binding volumes: context deadline exceeded");
    }
  }
}

TEST(VolumeBinding, BoundAndUnboundUnsatisfied) {
  Fixture f;
  api::PersistentVolumeClaim a = Claim("pvc-a", "wait-sc");
  a.spec.volume_name = "pv-a";
  a.annotations[api::kAnnBindCompleted] = "true";
  f.handle.storage.claims[a.Key()] = a;
  f.handle.storage.claims["default/pvc-b"] = Claim("pvc-b", "wait-sc");
  api::PersistentVolume pv = Volume("pv-a", "wait-sc", 0, "");
  api::NodeSelectorTerm term;
  term.match_expressions.push_back({"foo", "In", {"bar"}});
  pv.node_affinity = api::NodeSelector{{term}};
  f.handle.storage.volumes[pv.name] = pv;
  api::Pod pod = st::MakePod()
                     .Name("pod-a")
                     .Volume(ClaimVolume("pvc-a"))
                     .Volume(ClaimVolume("pvc-b"))
                     .Obj();
  CycleState state;
  ASSERT_TRUE(f.vb->PreFilter(state, pod, {}).status.IsSuccess());
  Status s = f.vb->Filter(state, pod,
                          st::MakeNodeInfo(st::MakeNode().Name("n").Label("foo", "barbar").Obj()));
  EXPECT_EQ(s.reasons(), (std::vector<std::string>{kErrReasonNodeConflict,
                                                   kErrReasonBindConflict}));
}

TEST(VolumeBinding, Hints) {
  api::Pod pod = st::MakePod().Name("pod-a").Volume(ClaimVolume("pvc-a")).Obj();
  api::PersistentVolumeClaim other = Claim("pvc-x", "wait-sc");
  api::PersistentVolumeClaim mine = Claim("pvc-a", "wait-sc");
  EXPECT_EQ(*VolumeBinding::IsSchedulableAfterPersistentVolumeClaimChange(pod, {}, other),
            QueueingHint::kSkip);
  EXPECT_EQ(*VolumeBinding::IsSchedulableAfterPersistentVolumeClaimChange(pod, {}, mine),
            QueueingHint::kQueue);
  api::CSIStorageCapacity small, big;
  small.capacity = kGi;
  big.capacity = 2 * kGi;
  EXPECT_EQ(*VolumeBinding::IsSchedulableAfterCSIStorageCapacityChange(pod, small, big),
            QueueingHint::kQueue);
  EXPECT_EQ(*VolumeBinding::IsSchedulableAfterCSIStorageCapacityChange(pod, big, small),
            QueueingHint::kSkip);
  api::StorageClass sc = Class("sc", api::kVolumeBindingImmediate, "p");
  api::StorageClass sc2 = sc;
  sc2.provisioner = "q";
  EXPECT_EQ(*VolumeBinding::IsSchedulableAfterStorageClassChange(pod, sc, sc2),
            QueueingHint::kSkip);
  sc2.allowed_topologies.push_back({{{"h", {"n1"}}}});
  EXPECT_EQ(*VolumeBinding::IsSchedulableAfterStorageClassChange(pod, sc, sc2),
            QueueingHint::kQueue);
}

}  // namespace
}  // namespace schedref::reference::framework::plugins::volumebinding
