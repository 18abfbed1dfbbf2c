// The reference's own VolumeRestrictions rows: its hints take untyped event
// objects, so a wrong kind is an error. The tables both implementations
// share are in //testing/upstream/framework/plugins/volumerestrictions.
#include "reference/framework/plugins/volumerestrictions/volume_restrictions.h"

#include <gtest/gtest.h>

#include "reference/framework/testing/wrappers.h"

namespace schedref::reference::framework::plugins::volumerestrictions {
namespace {

TEST(VolumeRestrictionsTest, HintsRefuseWrongKinds) {
  const api::Pod pod = st::MakePod().Name("p").Namespace("default").Obj();
  const EventObject node = st::MakeNode().Obj();
  const EventObject none = std::monostate{};
  EXPECT_FALSE(VolumeRestrictions::IsSchedulableAfterPodDeleted(pod, node, none).ok());
  EXPECT_FALSE(
      VolumeRestrictions::IsSchedulableAfterPersistentVolumeClaimAdded(pod, none, node).ok());
}

}  // namespace
}  // namespace schedref::reference::framework::plugins::volumerestrictions
