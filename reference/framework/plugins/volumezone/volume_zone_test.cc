// The reference's own VolumeZone rows: its hints take untyped event
// objects, so a wrong kind is an error (upstream's "error-wrong-new-object"
// and the wrong-kind rows of the other hints). The tables both
// implementations share are in
// //testing/upstream/framework/plugins/volumezone.
#include "reference/framework/plugins/volumezone/volume_zone.h"

#include <gtest/gtest.h>

#include "reference/framework/testing/wrappers.h"

namespace schedref::reference::framework::plugins::volumezone {
namespace {

TEST(VolumeZoneTest, HintsRefuseWrongKinds) {
  api::Volume v;
  v.name = "vol";
  v.source.kind = "persistentVolumeClaim";
  v.source.claim_name = "PVC_1";
  const api::Pod pod = st::MakePod().Name("pod_1").Namespace("default").Volume(v).Obj();
  const EventObject node = st::MakeNode().Obj();
  api::PersistentVolume pv;
  pv.name = "Vol_1";
  const EventObject none = std::monostate{};
  EXPECT_FALSE(VolumeZone::IsSchedulableAfterPersistentVolumeClaimChange(pod, none, node).ok());
  EXPECT_FALSE(VolumeZone::IsSchedulableAfterStorageClassAdded(pod, none, node).ok());
  EXPECT_FALSE(VolumeZone::IsSchedulableAfterPersistentVolumeChange(pod, node, pv).ok());
  EXPECT_FALSE(VolumeZone::IsSchedulableAfterPersistentVolumeChange(pod, pv, node).ok());
}

}  // namespace
}  // namespace schedref::reference::framework::plugins::volumezone
