#include "api/apiserver/volume_binding_controller.h"

#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

namespace schedref::api {
namespace {

constexpr int64_t kGi = int64_t{1} << 30;

PersistentVolumeClaim Claim(const std::string& name, const std::string& cls) {
  PersistentVolumeClaim c;
  c.ns = "default";
  c.name = name;
  c.uid = "uid-" + name;
  c.spec.storage_class_name = cls;
  c.spec.storage_request = kGi;
  c.spec.access_modes = {kReadWriteOnce};
  return c;
}

PersistentVolume Volume(const std::string& name, const std::string& cls, int64_t capacity) {
  PersistentVolume pv;
  pv.name = name;
  pv.storage_class_name = cls;
  pv.capacity = capacity;
  pv.access_modes = {kReadWriteOnce};
  pv.phase = "Available";
  return pv;
}

StorageObjects Classes() {
  StorageObjects o;
  StorageClass wait;
  wait.name = "wait";
  wait.provisioner = "csi.example.com";
  wait.volume_binding_mode = kVolumeBindingWaitForFirstConsumer;
  o.classes["wait"] = wait;
  StorageClass now;
  now.name = "now";
  now.provisioner = "kubernetes.io/no-provisioner";
  o.classes["now"] = now;
  return o;
}

// The writes as "<kind> <name> <what>" lines, for comparison.
std::vector<std::string> Show(const std::vector<StorageWrite>& writes) {
  std::vector<std::string> out;
  for (const StorageWrite& w : writes) {
    if (const auto* pv = std::get_if<PersistentVolume>(&w)) {
      out.push_back("PV " + pv->name + " " + pv->phase + " ref=" +
                    (pv->claim_ref ? pv->claim_ref->name + "/" + pv->claim_ref->uid : "-") +
                    (pv->annotations.contains(kAnnBoundByController) ? " by-controller" : ""));
    } else {
      const auto& pvc = std::get<PersistentVolumeClaim>(w);
      out.push_back("PVC " + pvc.name + " " + pvc.phase + " volume=" + pvc.spec.volume_name +
                    (pvc.annotations.contains(kAnnBindCompleted) ? " completed" : ""));
    }
  }
  return out;
}

TEST(CompleteVolumeBindings, ImmediateClaimTakesSmallestAvailable) {
  StorageObjects o = Classes();
  o.claims["default/c"] = Claim("c", "now");
  o.volumes["big"] = Volume("big", "now", 10 * kGi);
  o.volumes["small"] = Volume("small", "now", 2 * kGi);
  o.volumes["tiny"] = Volume("tiny", "now", kGi / 2);
  EXPECT_EQ(Show(CompleteVolumeBindings(o, {})),
            (std::vector<std::string>{"PV small Available ref=c/uid-c by-controller",
                                      "PV small Bound ref=c/uid-c by-controller",
                                      "PVC c Pending volume=small completed",
                                      "PVC c Bound volume=small completed"}));
}

TEST(CompleteVolumeBindings, SchedulerBoundPvCompletes) {
  StorageObjects o = Classes();
  o.claims["default/c"] = Claim("c", "wait");
  PersistentVolume pv = Volume("pv", "wait", kGi);
  pv.claim_ref = ClaimReference{"default", "c", "uid-c"};
  pv.annotations[kAnnBoundByController] = "yes";
  o.volumes["pv"] = pv;
  EXPECT_EQ(Show(CompleteVolumeBindings(o, {})),
            (std::vector<std::string>{"PV pv Bound ref=c/uid-c by-controller",
                                      "PVC c Pending volume=pv completed",
                                      "PVC c Bound volume=pv completed"}));
}

TEST(CompleteVolumeBindings, DelayedClaimWaitsForSelectedNode) {
  StorageObjects o = Classes();
  o.claims["default/c"] = Claim("c", "wait");
  o.volumes["pv"] = Volume("pv", "wait", kGi);
  EXPECT_TRUE(CompleteVolumeBindings(o, {}).empty());
}

TEST(CompleteVolumeBindings, ProvisionsOnSelectedNode) {
  StorageObjects o = Classes();
  PersistentVolumeClaim c = Claim("c", "wait");
  c.annotations[kAnnSelectedNode] = "n1";
  o.claims["default/c"] = c;
  CSINode csi;
  csi.name = "n1";
  csi.drivers.push_back({"csi.example.com", "n1", {"topology.example.com/zone"}, std::nullopt});
  o.csi_nodes["n1"] = csi;
  Node n1;
  n1.name = "n1";
  n1.labels["topology.example.com/zone"] = "z1";
  std::vector<StorageWrite> writes = CompleteVolumeBindings(o, {{"n1", n1}});
  EXPECT_EQ(Show(writes), (std::vector<std::string>{"PV pvc-uid-c Pending ref=c/uid-c",
                                                    "PV pvc-uid-c Bound ref=c/uid-c",
                                                    "PVC c Pending volume=pvc-uid-c completed",
                                                    "PVC c Bound volume=pvc-uid-c completed"}));
  const auto& made = std::get<PersistentVolume>(writes[0]);
  ASSERT_TRUE(made.node_affinity.has_value());
  ASSERT_EQ(made.node_affinity->terms.size(), 1u);
  EXPECT_EQ(made.node_affinity->terms[0].match_expressions[0].key, "topology.example.com/zone");
  EXPECT_EQ(made.node_affinity->terms[0].match_expressions[0].values,
            std::vector<std::string>{"z1"});
  EXPECT_EQ(made.capacity, kGi);
}

TEST(CompleteVolumeBindings, FullyBoundClaimsAreLeftAlone) {
  StorageObjects o = Classes();
  PersistentVolumeClaim c = Claim("c", "now");
  c.spec.volume_name = "pv";
  c.annotations[kAnnBindCompleted] = "yes";
  o.claims["default/c"] = c;
  o.volumes["other"] = Volume("other", "now", kGi);
  EXPECT_TRUE(CompleteVolumeBindings(o, {}).empty());
}

}  // namespace
}  // namespace schedref::api
