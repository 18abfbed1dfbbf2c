#include "reference/framework/resource.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "reference/framework/testing/wrappers.h"

namespace schedref::reference::framework {
namespace {

using st::MakePod;

// Our own: the non-zero defaults replace a *missing* request only, in
// regular and init containers alike, and the overhead is added on top.
TEST(PodNonZeroRequestsTest, DefaultsOnlyForMissingRequests) {
  struct Case {
    std::string name;
    api::Pod pod;
    int64_t milli_cpu;
    int64_t memory;
  };
  const int64_t kMi = 1024 * 1024;
  const std::vector<Case> cases = {
      {"no containers", MakePod().Obj(), 0, 0},
      {"best effort container", MakePod().Container("img").Obj(), 100,
       200 * kMi},
      {"explicit zero is kept",
       MakePod().Req({{"cpu", "0"}, {"memory", "0"}}).Obj(), 0, 0},
      {"cpu set, memory defaulted", MakePod().Req({{"cpu", "1"}}).Obj(), 1000,
       200 * kMi},
      {"two best effort containers",
       MakePod().Container("a").Container("b").Obj(), 200, 400 * kMi},
      {"init container defaulted too, max wins",
       MakePod().Req({{"cpu", "50m"}, {"memory", "1Mi"}})
           .InitContainerImage("init")
           .Obj(),
       100, 200 * kMi},
      {"overhead added",
       MakePod().Container("a").Overhead({{"cpu", "10m"}, {"memory", "1"}})
           .Obj(),
       110, 200 * kMi + 1},
  };
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    Resource r = PodNonZeroRequests(tc.pod);
    EXPECT_EQ(r.milli_cpu, tc.milli_cpu);
    EXPECT_EQ(r.memory, tc.memory);
    EXPECT_EQ(r.ephemeral_storage, 0);
    EXPECT_TRUE(r.scalar_resources.empty());
  }
}

// Upstream types_test.go TestNewNodeInfo (v1.32): two pods with
// cpu 100m/memory 500 and cpu 200m/memory 1Ki give Requested 300m/1524 and
// NonZeroRequested the same (both set explicitly).
TEST(NodeRequestedTest, SumsPodRequests) {
  NodeInfo info = st::MakeNodeInfoWithoutNode({
      MakePod().Name("test-1").Req({{"cpu", "100m"}, {"memory", "500"}})
          .Obj(),
      MakePod().Name("test-2").Req({{"cpu", "200m"}, {"memory", "1Ki"}})
          .Obj(),
  });
  Resource requested = NodeRequested(info);
  EXPECT_EQ(requested.milli_cpu, 300);
  EXPECT_EQ(requested.memory, 1524);
  Resource non_zero = NodeNonZeroRequested(info);
  EXPECT_EQ(non_zero.milli_cpu, 300);
  EXPECT_EQ(non_zero.memory, 1524);
}

TEST(NodeRequestedTest, ScalarAndDroppedResources) {
  NodeInfo info = st::MakeNodeInfoWithoutNode({
      MakePod().Name("a").Req({{"example.com/gpu", "2"},
                               {"hugepages-2Mi", "4Mi"},
                               {"storage", "1"},
                               {"ephemeral-storage", "1Gi"}})
          .Obj(),
      MakePod().Name("b").Req({{"example.com/gpu", "1"}}).Obj(),
      MakePod().Name("c").Obj(),
  });
  Resource r = NodeRequested(info);
  EXPECT_EQ(r.milli_cpu, 0);
  EXPECT_EQ(r.ephemeral_storage, int64_t{1} << 30);
  EXPECT_EQ(r.Get("example.com/gpu"), 3);
  EXPECT_EQ(r.Get("hugepages-2Mi"), 4 * 1024 * 1024);
  EXPECT_FALSE(r.scalar_resources.contains("storage"));
  // Three pods, none with requests: non-zero counts two defaulted pods
  // (a and b have containers); c has none.
  Resource nz = NodeNonZeroRequested(info);
  EXPECT_EQ(nz.milli_cpu, 200);
}

TEST(NodeAllocatableTest, FromStatusAllocatable) {
  api::Node node = st::MakeNode()
                       .Name("n")
                       .Capacity({{"cpu", "4"},
                                  {"memory", "8Gi"},
                                  {"pods", "110"},
                                  {"example.com/foo", "5"},
                                  {"ephemeral-storage", "10Gi"}})
                       .Obj();
  Resource r = NodeAllocatable(node);
  EXPECT_EQ(r.milli_cpu, 4000);
  EXPECT_EQ(r.memory, int64_t{8} << 30);
  EXPECT_EQ(r.allowed_pod_number, 110);
  EXPECT_EQ(r.ephemeral_storage, int64_t{10} << 30);
  EXPECT_EQ(r.Get("example.com/foo"), 5);
}

}  // namespace
}  // namespace schedref::reference::framework
