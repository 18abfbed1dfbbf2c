#include "reference/framework/resource.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "reference/framework/testing/wrappers.h"

namespace schedref::reference::framework {
namespace {

using st::MakePod;

api::Container C(const std::string& name, const st::ResourceStrings& req,
                 bool sidecar = false) {
  api::Container c;
  c.name = name;
  c.requests = st::ParseResourceList(req);
  if (sidecar) c.restart_policy = "Always";
  return c;
}

// Transcribed from upstream
// staging/src/k8s.io/component-helpers/resource/helpers_test.go
// TestPodResourceRequests and TestPodRequestsAndLimits (requests part),
// commit 6c5cf687229f4699334a13393e38b3ca4b8a9293 (v1.32). Cases that read
// pod status (in-place resize) are left out: the feature is off in v1.32.
TEST(PodRequestListTest, UpstreamTestPodResourceRequests) {
  struct Case {
    std::string description;
    PodResourcesOptions options;
    st::ResourceStrings overhead;
    std::vector<api::Container> init_containers;
    std::vector<api::Container> containers;
    st::ResourceStrings expected;
  };
  PodResourcesOptions exclude_overhead;
  exclude_overhead.exclude_overhead = true;
  const std::vector<Case> cases = {
      {"nil options, larger init container",
       {},
       {},
       {C("i", {{"cpu", "4"}})},
       {C("c", {{"cpu", "1"}})},
       {{"cpu", "4"}}},
      {"nil options, larger containers",
       {},
       {},
       {C("i", {{"cpu", "2"}})},
       {C("c1", {{"cpu", "2"}}), C("c2", {{"cpu", "3"}})},
       {{"cpu", "5"}}},
      {"pod overhead excluded",
       exclude_overhead,
       {{"cpu", "1"}},
       {C("i", {{"cpu", "2"}})},
       {C("c1", {{"cpu", "2"}}), C("c2", {{"cpu", "3"}})},
       {{"cpu", "5"}}},
      {"pod overhead included",
       {},
       {{"cpu", "1"}, {"memory", "1Gi"}},
       {C("i", {{"cpu", "2"}})},
       {C("c1", {{"cpu", "2"}}), C("c2", {{"cpu", "3"}})},
       {{"cpu", "6"}, {"memory", "1Gi"}}},
      {"restartable init container",
       {},
       {},
       {C("restartable-init-1", {{"cpu", "1"}}, true)},
       {C("container-1", {{"cpu", "1"}})},
       {{"cpu", "2"}}},
      {"multiple restartable init containers",
       {},
       {},
       {C("init-1", {{"cpu", "5"}}),
        C("restartable-init-1", {{"cpu", "1"}}, true),
        C("restartable-init-2", {{"cpu", "2"}}, true),
        C("restartable-init-3", {{"cpu", "3"}}, true)},
       {C("container-1", {{"cpu", "1"}})},
       {{"cpu", "7"}}},
      {"multiple restartable and regular init containers",
       {},
       {},
       {C("init-1", {{"cpu", "5"}}),
        C("restartable-init-1", {{"cpu", "1"}}, true),
        C("restartable-init-2", {{"cpu", "2"}}, true),
        C("init-2", {{"cpu", "5"}}),
        C("restartable-init-3", {{"cpu", "3"}}, true)},
       {C("container-1", {{"cpu", "1"}})},
       {{"cpu", "8"}}},
      {"restartable-init, init and regular",
       {},
       {},
       {C("restartable-init-1", {{"cpu", "10"}}, true),
        C("init-1", {{"cpu", "200"}})},
       {C("container-1", {{"cpu", "100"}})},
       {{"cpu", "210"}}},
      // TestPodRequestsAndLimits.
      {"just-overhead",
       {},
       {{"cpu", "5"}, {"memory", "5"}},
       {},
       {C("foo", {})},
       {{"cpu", "5"}, {"memory", "5"}}},
      {"req-and-overhead",
       {},
       {{"cpu", "5"}, {"memory", "5"}},
       {},
       {C("foo", {{"cpu", "1"}, {"memory", "10"}})},
       {{"cpu", "6"}, {"memory", "15"}}},
      // TestPodRequestsAndLimitsWithoutOverhead.
      {"two container with overhead, massive init - should just be the "
       "largest init",
       exclude_overhead,
       {{"cpu", "3"}, {"memory", "8"}},
       {C("small-init", {{"cpu", "1"}, {"memory", "5"}}),
        C("big-init", {{"cpu", "40"}, {"memory", "120"}})},
       {C("foobar", {{"cpu", "1"}, {"memory", "5"}}),
        C("foobar2", {{"cpu", "4"}, {"memory", "12"}})},
       {{"cpu", "40"}, {"memory", "120"}}},
  };
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.description);
    api::Pod pod;
    pod.overhead = st::ParseResourceList(tc.overhead);
    pod.init_containers = tc.init_containers;
    pod.containers = tc.containers;
    EXPECT_EQ(PodRequestList(pod, tc.options),
              st::ParseResourceList(tc.expected));
  }
}

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

// Upstream pkg/apis/core/v1/helper/helpers_test.go TestIsScalarResourceName
// and our own edge cases.
TEST(ResourceNamesTest, Scalar) {
  EXPECT_TRUE(IsScalarResourceName("hugepages-2Mi"));
  EXPECT_TRUE(IsScalarResourceName("example.com/dongle"));
  EXPECT_TRUE(IsScalarResourceName("kubernetes.io/foo"));
  EXPECT_TRUE(IsScalarResourceName("attachable-volumes-aws-ebs"));
  EXPECT_FALSE(IsScalarResourceName("cpu"));
  EXPECT_FALSE(IsScalarResourceName("memory"));
  EXPECT_FALSE(IsScalarResourceName("foo"));
  EXPECT_FALSE(IsExtendedResourceName("requests.example.com/x"));
  EXPECT_FALSE(IsExtendedResourceName("kubernetes.io/foo"));
  EXPECT_TRUE(IsExtendedResourceName("example.com/x"));
  EXPECT_FALSE(IsExtendedResourceName("example.com/-bad"));
}

}  // namespace
}  // namespace schedref::reference::framework
