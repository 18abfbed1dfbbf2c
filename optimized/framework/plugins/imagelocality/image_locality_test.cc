#include "optimized/framework/plugins/imagelocality/image_locality.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "optimized/framework/testing/fixtures.h"
#include "testing/st/wrappers.h"

namespace schedref::optimized::framework::plugins::imagelocality {
namespace {

using st::MakeNode;
using st::MakePod;

// Scores of `pod` on every node of a snapshot of `nodes`, in node order.
std::vector<int64_t> ScoreAll(const api::Pod& pod,
                              const std::vector<api::Node>& nodes) {
  testing::FakeHandle handle(testing::MakeSnapshot(nodes));
  auto plugin = ImageLocality::New(nlohmann::json::object(), &handle);
  EXPECT_TRUE(plugin.ok());
  auto* score = dynamic_cast<ScorePlugin*>(plugin->get());
  EXPECT_NE(score, nullptr);
  PodInfoPtr info = NewPodInfo(pod);
  CycleState state;
  std::vector<int64_t> got;
  for (const NodeInfo* node : handle.SnapshotSharedLister().List()) {
    ScoreOutput out = score->Score(state, *info, *node);
    EXPECT_TRUE(out.status.IsSuccess());
    got.push_back(out.score);
  }
  // Where the plugin says every node scores the same, it is what they score.
  const std::vector<NodeInfo*>& list = handle.SnapshotSharedLister().List();
  uint32_t flags = 0;
  for (const NodeInfo* node : list) flags |= node->hot().flags;
  if (const std::optional<int64_t> uniform = score->UniformScore(state, *info, flags)) {
    for (int64_t s : got) EXPECT_EQ(s, *uniform);
  }
  return got;
}

const api::Node kNode403002000 =
    MakeNode()
        .Name("machine1")
        .Image({{"gcr.io/40:latest", "gcr.io/40:v1", "gcr.io/40:v1"}, 40 * kMiB})
        .Image({{"gcr.io/300:latest", "gcr.io/300:v1"}, 300 * kMiB})
        .Image({{"gcr.io/2000:latest"}, 2000 * kMiB})
        .Obj();
const api::Node kNode25010 =
    MakeNode()
        .Name("machine2")
        .Image({{"gcr.io/250:latest"}, 250 * kMiB})
        .Image({{"gcr.io/10:latest", "gcr.io/10:v1"}, 10 * kMiB})
        .Obj();
const api::Node kNoImages = MakeNode().Name("machine3").Obj();

// upstream image_locality_test.go TestImageLocalityPriority (the reference's
// table: expectations for v1.32's per-container maximum), plus rows for
// spread, tags and first-listing sizes.
TEST(ImageLocalityTest, UpstreamPriority) {
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
       {kNode403002000, kNode25010},
       {0, 5}},
      // machine1: (40 + 300) / 2 = 170 MiB -> 7.
      {"two images on one node, prefer this node",
       MakePod().Container("gcr.io/40").Container("gcr.io/300").Obj(),
       {kNode403002000, kNode25010},
       {7, 0}},
      // machine1: 2000 / 2 = 1000 MiB -> 49.
      {"if exceed limit, use limit",
       MakePod().Container("gcr.io/10").Container("gcr.io/2000").Obj(),
       {kNode403002000, kNode25010},
       {49, 0}},
      // machine1: 2000 / 3 MiB -> 32.
      {"if exceed limit, use limit (with node which has no images present)",
       MakePod().Container("gcr.io/10").Container("gcr.io/2000").Obj(),
       {kNode403002000, kNode25010, kNoImages},
       {32, 0, 0}},
      {"init container image counts",
       MakePod().InitContainerImage("gcr.io/2000").Container("gcr.io/10").Obj(),
       {kNode403002000, kNode25010},
       {49, 0}},
      {"no containers", MakePod().Obj(), {kNode403002000}, {0}},
      // An explicit tag matches only that tag: gcr.io/10:v1 is on machine2
      // only (10 MiB / 2 < 23 MiB -> 0); gcr.io/300:v1 on machine1:
      // 150 MiB -> 100 * (150 - 23) / (2000 - 23) = 6.
      {"explicit tags",
       MakePod().Container("gcr.io/300:v1").Container("gcr.io/10:v1").Obj(),
       {kNode403002000, kNode25010},
       {6, 0}},
      // The same image on both nodes: full size counts. 300 MiB on each ->
      // 100 * (300 - 23) / (1000 - 23) = 28.
      {"image on every node",
       MakePod().Container("gcr.io/300").Obj(),
       {kNode403002000,
        MakeNode().Name("other").Image({{"gcr.io/300:latest"}, 300 * kMiB}).Obj()},
       {28, 28}},
      // Each node's own first listing decides the size (the image is on both
      // nodes, so the spread is 1): 900 MiB -> 100 * (900 - 23) / 977 = 89
      // here, 300 MiB -> 28 there.
      {"first listing on this node wins",
       MakePod().Container("gcr.io/300").Obj(),
       {MakeNode()
            .Name("big")
            .Image({{"gcr.io/300:latest"}, 900 * kMiB})
            .Image({{"gcr.io/300:latest"}, 1 * kMiB})
            .Obj(),
        MakeNode().Name("small").Image({{"gcr.io/300:latest"}, 300 * kMiB}).Obj()},
       {89, 28}},
      // A tag-less node listing never matches a normalized name.
      {"listing without a tag does not match",
       MakePod().Container("gcr.io/300").Obj(),
       {MakeNode().Name("n").Image({{"gcr.io/300"}, 900 * kMiB}).Obj()},
       {0}},
  };
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(ScoreAll(tc.pod, tc.nodes), tc.expected);
  }
}

TEST(ImageLocalityTest, UniformScoreIffNoNodeListsImages) {
  testing::FakeHandle handle(testing::MakeSnapshot({kNoImages}));
  auto plugin = ImageLocality::New(nlohmann::json::object(), &handle);
  ASSERT_TRUE(plugin.ok());
  auto* score = dynamic_cast<ScorePlugin*>(plugin->get());
  ASSERT_NE(score, nullptr);
  const PodInfoPtr pod = NewPodInfo(MakePod().Container("gcr.io/40").Container("x").Obj());
  const CycleState state;
  EXPECT_EQ(score->UniformScore(state, *pod, NodeInfo::kHasNode), 0);
  EXPECT_EQ(score->UniformScore(state, *pod, NodeInfo::kHasNode | NodeInfo::kImages),
            std::nullopt);
  EXPECT_EQ(ScoreAll(MakePod().Container("gcr.io/40").Obj(), {kNoImages, kNoImages}),
            (std::vector<int64_t>{0, 0}));
}

// upstream TestNormalizedImageName, and IsImage agreeing with it.
TEST(ImageLocalityTest, UpstreamNormalizedImageName) {
  const std::string digest =
      "root@sha256:4813494d137e1631bba301d5acab6e7bb7aa74ce1185d456565ef51d737"
      "677b2";
  EXPECT_EQ(NormalizedImageName("root"), "root:latest");
  EXPECT_EQ(NormalizedImageName("gcr.io:5000/root"), "gcr.io:5000/root:latest");
  EXPECT_EQ(NormalizedImageName("root:tag"), "root:tag");
  EXPECT_EQ(NormalizedImageName(digest), digest);

  const std::vector<std::string> names = {
      "root", "root:latest", "root:tag", "gcr.io:5000/root",
      "gcr.io:5000/root:latest", digest, "", ":latest", "rootlatest",
      "root:latestx", "gcr.io:5000/root:tag"};
  for (const std::string& image : names) {
    for (const std::string& listed : names) {
      EXPECT_EQ(IsImage(image, listed), NormalizedImageName(image) == listed)
          << image << " vs " << listed;
    }
  }
}

TEST(ImageLocalityTest, CalculatePriority) {
  EXPECT_EQ(CalculatePriority(0, 0), 0);
  EXPECT_EQ(CalculatePriority(0, 1), 0);
  EXPECT_EQ(CalculatePriority(23 * kMiB, 1), 0);
  EXPECT_EQ(CalculatePriority(1000 * kMiB, 1), 100);
  EXPECT_EQ(CalculatePriority(5000 * kMiB, 1), 100);
  EXPECT_EQ(CalculatePriority(1000 * kMiB, 2), 49);
}

TEST(ImageLocalityTest, NewNeedsHandle) {
  auto plugin = ImageLocality::New(nlohmann::json::object(), nullptr);
  EXPECT_FALSE(plugin.ok());
  testing::FakeHandle handle;
  auto ok = ImageLocality::New(nlohmann::json::object(), &handle);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ((*ok)->Name(), "ImageLocality");
}

}  // namespace
}  // namespace schedref::optimized::framework::plugins::imagelocality
