#include "api/types/resource.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "testing/st/wrappers.h"

namespace schedref::api {
namespace {

Container C(const std::string& name, const st::ResourceStrings& req,
            bool sidecar = false) {
  Container c;
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
    std::vector<Container> init_containers;
    std::vector<Container> containers;
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
    Pod pod;
    pod.overhead = st::ParseResourceList(tc.overhead);
    pod.init_containers = tc.init_containers;
    pod.containers = tc.containers;
    EXPECT_EQ(PodRequestList(pod, tc.options),
              st::ParseResourceList(tc.expected));
  }
}

// Our own: NonMissingContainerRequests fills a missing request only, in
// regular and init containers alike; an explicit 0 stays 0.
TEST(PodRequestListTest, NonMissingContainerRequests) {
  PodResourcesOptions options;
  options.non_missing_container_requests = {
      {kResourceCpu, kDefaultMilliCpuRequest},
      {kResourceMemory, kDefaultMemoryRequest}};
  Pod pod;
  pod.containers = {C("no-requests", {}), C("zero-cpu", {{"cpu", "0"}})};
  pod.init_containers = {C("init", {{"memory", "1Gi"}})};
  EXPECT_EQ(PodRequestList(pod, options),
            (ResourceList{{kResourceCpu, 100},
                          {kResourceMemory, int64_t{1} << 30}}));
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

TEST(ResourceNamesTest, NativeHugePagesAttachable) {
  EXPECT_TRUE(IsNativeResource("cpu"));
  EXPECT_TRUE(IsNativeResource("kubernetes.io/foo"));
  EXPECT_FALSE(IsNativeResource("example.com/x"));
  EXPECT_TRUE(IsPrefixedNativeResource("example.kubernetes.io/foo"));
  EXPECT_FALSE(IsPrefixedNativeResource("cpu"));
  EXPECT_TRUE(IsHugePageResourceName("hugepages-1Gi"));
  EXPECT_FALSE(IsHugePageResourceName("memory"));
  EXPECT_TRUE(IsAttachableVolumeResourceName("attachable-volumes-csi-x"));
  EXPECT_FALSE(IsAttachableVolumeResourceName("example.com/x"));
}

TEST(ResourceDefaultsTest, UpstreamValues) {
  EXPECT_EQ(kDefaultMilliCpuRequest, 100);
  EXPECT_EQ(kDefaultMemoryRequest, 200 * 1024 * 1024);
}

}  // namespace
}  // namespace schedref::api
