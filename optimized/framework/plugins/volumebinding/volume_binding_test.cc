#include "optimized/framework/plugins/volumebinding/volume_binding.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "optimized/framework/testing/fixtures.h"
#include "testing/st/wrappers.h"

namespace schedref::optimized::framework::plugins::volumebinding {
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

api::PersistentVolume Volume(const std::string& name, int64_t capacity, const std::string& host) {
  api::PersistentVolume pv;
  pv.name = name;
  pv.storage_class_name = "wait-sc";
  pv.capacity = capacity;
  pv.phase = "Available";
  api::NodeSelectorTerm term;
  term.match_expressions.push_back({"kubernetes.io/hostname", "In", {host}});
  pv.node_affinity = api::NodeSelector{{term}};
  return pv;
}

api::Node HostNode(const std::string& name) {
  return st::MakeNode().Name(name).Label("kubernetes.io/hostname", name).Obj();
}

// The reference's cases (reference/framework/plugins/volumebinding), through
// this implementation's interfaces.
TEST(VolumeBindingTest, PreFilterFilterReserve) {
  testing::FakeHandle handle(testing::MakeSnapshot({HostNode("node1")}));
  api::StorageClass wait;
  wait.name = "wait-sc";
  wait.volume_binding_mode = api::kVolumeBindingWaitForFirstConsumer;
  handle.storage.classes["wait-sc"] = wait;
  api::StorageClass immediate;
  immediate.name = "immediate-sc";
  handle.storage.classes["immediate-sc"] = immediate;
  handle.storage.claims["default/pvc-a"] = Claim("pvc-a", "wait-sc", kGi);
  handle.storage.claims["default/pvc-b"] = Claim("pvc-b", "wait-sc", kGi);
  handle.storage.claims["default/pvc-i"] = Claim("pvc-i", "immediate-sc");
  for (const auto& pv : {Volume("pv-node2", kGi, "node2"), Volume("pv-node1a", 5 * kGi, "node1")}) {
    handle.storage.volumes[pv.name] = pv;
  }
  auto made = VolumeBinding::New(nlohmann::json::object(), &handle);
  ASSERT_TRUE(made.ok());
  auto* vb = dynamic_cast<VolumeBinding*>(made->get());
  const NodeInfo node1 = testing::MakeNodeInfo(HostNode("node1"));

  {
    PodInfoPtr none = NewPodInfo(st::MakePod().Name("p").Obj());
    CycleState state;
    EXPECT_EQ(vb->PreFilter(state, *none, {}).status.code(), Code::kSkip);
  }
  for (auto [claim, reason] :
       {std::pair{"missing", "persistentvolumeclaim \"missing\" not found"},
        std::pair{"pvc-i", kErrUnboundImmediate}}) {
    PodInfoPtr pod = NewPodInfo(st::MakePod().Name("p").Volume(ClaimVolume(claim)).Obj());
    CycleState state;
    Status s = vb->PreFilter(state, *pod, {}).status;
    EXPECT_EQ(s.code(), Code::kUnschedulableAndUnresolvable);
    ASSERT_EQ(s.reasons().size(), 1u);
    EXPECT_EQ(s.reasons()[0], reason);
  }

  PodInfoPtr a = NewPodInfo(st::MakePod().Name("a").Volume(ClaimVolume("pvc-a")).Obj());
  CycleState sa;
  ASSERT_TRUE(vb->PreFilter(sa, *a, {}).status.IsSuccess());
  ASSERT_TRUE(vb->Filter(sa, *a, node1).IsSuccess());
  ASSERT_TRUE(vb->Reserve(sa, *a, "node1").IsSuccess());
  // PreBind writes (a no-op in the fake handle) and waits for the binding.
  EXPECT_EQ(vb->PreBind(sa, *a, "node1").code(), Code::kWait);

  // pv-node1a is assumed for pvc-a: pvc-b finds nothing on node1.
  PodInfoPtr b = NewPodInfo(st::MakePod().Name("b").Volume(ClaimVolume("pvc-b")).Obj());
  CycleState sb;
  ASSERT_TRUE(vb->PreFilter(sb, *b, {}).status.IsSuccess());
  Status s = vb->Filter(sb, *b, node1);
  ASSERT_EQ(s.reasons().size(), 1u);
  EXPECT_EQ(s.reasons()[0], kErrReasonBindConflict);

  vb->Unreserve(sa, *a, "node1");
  CycleState sb2;
  ASSERT_TRUE(vb->PreFilter(sb2, *b, {}).status.IsSuccess());
  EXPECT_TRUE(vb->Filter(sb2, *b, node1).IsSuccess());
}

TEST(VolumeBindingTest, Hints) {
  api::Pod pod = st::MakePod().Name("pod-a").Volume(ClaimVolume("pvc-a")).Obj();
  api::PersistentVolumeClaim mine = Claim("pvc-a", "wait-sc");
  api::PersistentVolumeClaim other = mine;
  other.ns = "other";
  EventObjects e;
  e.new_pvc = &mine;
  EXPECT_EQ(*VolumeBinding::IsSchedulableAfterPersistentVolumeClaimChange(pod, e),
            QueueingHint::kQueue);
  e.new_pvc = &other;
  EXPECT_EQ(*VolumeBinding::IsSchedulableAfterPersistentVolumeClaimChange(pod, e),
            QueueingHint::kSkip);
  api::CSIStorageCapacity small, big;
  small.capacity = kGi;
  big.capacity = 5 * kGi;
  big.maximum_volume_size = 2 * kGi;
  EventObjects c;
  c.old_capacity = &small;
  c.new_capacity = &big;
  EXPECT_EQ(*VolumeBinding::IsSchedulableAfterCSIStorageCapacityChange(pod, c),
            QueueingHint::kQueue);
  c.old_capacity = &big;
  c.new_capacity = &small;
  EXPECT_EQ(*VolumeBinding::IsSchedulableAfterCSIStorageCapacityChange(pod, c),
            QueueingHint::kSkip);
}

}  // namespace
}  // namespace schedref::optimized::framework::plugins::volumebinding
