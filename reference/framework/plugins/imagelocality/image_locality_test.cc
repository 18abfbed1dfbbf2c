#include "reference/framework/plugins/imagelocality/image_locality.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "reference/framework/testing/fake_handle.h"
#include "reference/framework/testing/wrappers.h"

namespace schedref::reference::framework::plugins::imagelocality {
namespace {

using st::MakeNode;
using st::MakePod;

// Upstream image_locality_test.go TestImageLocalityPriority (cases and
// fixtures; expectations recomputed for v1.32's per-container maximum).
TEST(ImageLocalityTest, UpstreamPriority) {
  const api::Node node403002000 =
      MakeNode()
          .Name("machine1")
          .Image({{"gcr.io/40:latest", "gcr.io/40:v1", "gcr.io/40:v1"},
                  40 * kMiB})
          .Image({{"gcr.io/300:latest", "gcr.io/300:v1"}, 300 * kMiB})
          .Image({{"gcr.io/2000:latest"}, 2000 * kMiB})
          .Obj();
  const api::Node node25010 =
      MakeNode()
          .Name("machine2")
          .Image({{"gcr.io/250:latest"}, 250 * kMiB})
          .Image({{"gcr.io/10:latest", "gcr.io/10:v1"}, 10 * kMiB})
          .Obj();
  const api::Node no_images = MakeNode().Name("machine3").Obj();
  struct Case {
    std::string name;
    api::Pod pod;
    std::vector<api::Node> nodes;
    std::vector<int64_t> expected;
  };
  const std::vector<Case> cases = {
      // machine2: 250 MiB / 2 nodes -> 100 * (125 - 23) / (2000 - 23) = 5.
      {"two images spread on two nodes, prefer the larger image one",
       MakePod().Container("gcr.io/40").Container("gcr.io/250").Obj(),
       {node403002000, node25010},
       {0, 5}},
      // machine1: (40 + 300) / 2 = 170 MiB -> 7.
      {"two images on one node, prefer this node",
       MakePod().Container("gcr.io/40").Container("gcr.io/300").Obj(),
       {node403002000, node25010},
       {7, 0}},
      // machine1: 2000 / 2 = 1000 MiB -> 49.
      {"if exceed limit, use limit",
       MakePod().Container("gcr.io/10").Container("gcr.io/2000").Obj(),
       {node403002000, node25010},
       {49, 0}},
      // machine1: 2000 / 3 MiB -> 32.
      {"if exceed limit, use limit (with node which has no images present)",
       MakePod().Container("gcr.io/10").Container("gcr.io/2000").Obj(),
       {node403002000, node25010, no_images},
       {32, 0, 0}},
      // Ours: init containers count, and so does their share of the maximum.
      {"init container image counts",
       MakePod().InitContainerImage("gcr.io/2000").Container("gcr.io/10").Obj(),
       {node403002000, node25010},
       {49, 0}},
      // Ours: a pod without containers scores 0.
      {"no containers", MakePod().Obj(), {node403002000}, {0}},
  };
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    std::vector<NodeInfo> infos;
    for (const api::Node& n : tc.nodes) infos.push_back(st::MakeNodeInfo(n));
    st::FakeHandle handle{Snapshot(infos)};
    ImageLocality plugin(&handle);
    CycleState state;
    std::vector<int64_t> got;
    for (const NodeInfo& info : infos) {
      ScoreOutput out = plugin.Score(state, tc.pod, info);
      ASSERT_TRUE(out.status.IsSuccess());
      got.push_back(out.score);
    }
    EXPECT_EQ(got, tc.expected);
  }
}

// Upstream TestNormalizedImageName.
TEST(ImageLocalityTest, UpstreamNormalizedImageName) {
  const std::string digest =
      "root@sha256:4813494d137e1631bba301d5acab6e7bb7aa74ce1185d456565ef51d737"
      "677b2";
  EXPECT_EQ(NormalizedImageName("root"), "root:latest");
  EXPECT_EQ(NormalizedImageName("gcr.io:5000/root"), "gcr.io:5000/root:latest");
  EXPECT_EQ(NormalizedImageName("root:tag"), "root:tag");
  EXPECT_EQ(NormalizedImageName(digest), digest);
}

}  // namespace
}  // namespace schedref::reference::framework::plugins::imagelocality
