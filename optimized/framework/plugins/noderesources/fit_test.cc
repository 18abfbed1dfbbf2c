#include "optimized/framework/plugins/noderesources/fit.h"

#include <gtest/gtest.h>

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "optimized/framework/plugins/noderesources/test_util.h"
#include "optimized/framework/testing/filter_pass_check.h"
#include "optimized/framework/testing/fixtures.h"
#include "testing/st/wrappers.h"

namespace schedref::optimized::framework::plugins::noderesources {
namespace {

using st::MakeNode;
using st::MakePod;
using testing::MakeNodeInfo;
using testutil::kExtendedResourceA;
using testutil::kExtendedResourceB;
using testutil::kHugePageResourceA;
using testutil::kKubernetesIOResourceA;
using testutil::kKubernetesIOResourceB;
using testutil::NewResourceInitPod;
using testutil::NewResourcePod;

std::string Insufficient(const std::string& r) { return "Insufficient " + r; }

NodeResourcesFitArgs DefaultArgs() {
  NodeResourcesFitArgs args;
  api::pluginargs::SetDefaults(args);
  return args;
}

// PreFilter then Filter of `pod` on `node`.
Status RunFilter(const Fit& plugin_in, const api::Pod& pod, const NodeInfo& node) {
  Fit plugin = plugin_in;
  CycleState state;
  PodInfoPtr info = NewPodInfo(pod);
  PreFilterOutput pre = plugin.PreFilter(state, *info, {});
  EXPECT_TRUE(pre.status.IsSuccess());
  EXPECT_FALSE(pre.result.has_value());
  return plugin.Filter(state, *info, node);
}

// upstream fit_test.go TestEnoughRequests (the reference's table). Node
// allocatable: cpu 10m, memory 20, pods 32, example.com/aaa 5,
// ephemeral-storage 20, hugepages-2Mi 5.
TEST(FitTest, UpstreamEnoughRequests) {
  struct Case {
    std::string name;
    api::Pod pod;
    api::Pod existing;
    NodeResourcesFitArgs args;
    std::vector<InsufficientResource> want;
  };
  const NodeResourcesFitArgs d = DefaultArgs();
  NodeResourcesFitArgs ignore_bbb = d;
  ignore_bbb.ignored_resources = {"example.com/bbb"};
  NodeResourcesFitArgs ignore_group = d;
  ignore_group.ignored_resource_groups = {"example.com"};
  auto overhead = [](api::Pod p, int64_t milli_cpu, int64_t memory) {
    p.overhead = {{"cpu", milli_cpu}, {"memory", memory}};
    return p;
  };
  const std::string cpu = "cpu", mem = "memory";
  const std::vector<Case> cases = {
      {"no resources requested always fits", MakePod().Obj(),
       NewResourcePod({{10, 20}}), d, {}},
      {"too many resources fails", NewResourcePod({{1, 1}}),
       NewResourcePod({{10, 20}}), d,
       {{cpu, Insufficient(cpu), 1, 10, 10}, {mem, Insufficient(mem), 1, 20, 20}}},
      {"too many resources fails due to init container cpu",
       NewResourceInitPod(NewResourcePod({{1, 1}}), {{3, 1}}),
       NewResourcePod({{8, 19}}), d, {{cpu, Insufficient(cpu), 3, 8, 10}}},
      {"too many resources fails due to highest init container cpu",
       NewResourceInitPod(NewResourcePod({{1, 1}}), {{3, 1}, {2, 1}}),
       NewResourcePod({{8, 19}}), d, {{cpu, Insufficient(cpu), 3, 8, 10}}},
      {"too many resources fails due to init container memory",
       NewResourceInitPod(NewResourcePod({{1, 1}}), {{1, 3}}),
       NewResourcePod({{9, 19}}), d, {{mem, Insufficient(mem), 3, 19, 20}}},
      {"too many resources fails due to highest init container memory",
       NewResourceInitPod(NewResourcePod({{1, 1}}), {{1, 3}, {1, 2}}),
       NewResourcePod({{9, 19}}), d, {{mem, Insufficient(mem), 3, 19, 20}}},
      {"init container fits because it's the max, not sum, of containers and "
       "init containers",
       NewResourceInitPod(NewResourcePod({{1, 1}}), {{1, 1}}),
       NewResourcePod({{9, 19}}), d, {}},
      {"multiple init containers fit because it's the max, not sum, of "
       "containers and init containers",
       NewResourceInitPod(NewResourcePod({{1, 1}}), {{1, 1}, {1, 1}}),
       NewResourcePod({{9, 19}}), d, {}},
      {"both resources fit", NewResourcePod({{1, 1}}), NewResourcePod({{5, 5}}), d, {}},
      {"one resource memory fits", NewResourcePod({{2, 1}}),
       NewResourcePod({{9, 5}}), d, {{cpu, Insufficient(cpu), 2, 9, 10}}},
      {"one resource cpu fits", NewResourcePod({{1, 2}}),
       NewResourcePod({{5, 19}}), d, {{mem, Insufficient(mem), 2, 19, 20}}},
      {"equal edge case", NewResourcePod({{5, 1}}), NewResourcePod({{5, 19}}), d, {}},
      {"equal edge case for init container",
       NewResourceInitPod(NewResourcePod({{4, 1}}), {{5, 1}}),
       NewResourcePod({{5, 19}}), d, {}},
      {"extended resource fits",
       NewResourcePod({{0, 0, 0, {{kExtendedResourceA, 1}}}}),
       NewResourcePod({{}}), d, {}},
      {"extended resource fits for init container",
       NewResourceInitPod(NewResourcePod({{}}),
                          {{0, 0, 0, {{kExtendedResourceA, 1}}}}),
       NewResourcePod({{}}), d, {}},
      {"extended resource capacity enforced",
       NewResourcePod({{1, 1, 0, {{kExtendedResourceA, 10}}}}),
       NewResourcePod({{0, 0, 0, {{kExtendedResourceA, 0}}}}), d,
       {{kExtendedResourceA, Insufficient(kExtendedResourceA), 10, 0, 5}}},
      {"extended resource capacity enforced for init container",
       NewResourceInitPod(NewResourcePod({{}}),
                          {{1, 1, 0, {{kExtendedResourceA, 10}}}}),
       NewResourcePod({{0, 0, 0, {{kExtendedResourceA, 0}}}}), d,
       {{kExtendedResourceA, Insufficient(kExtendedResourceA), 10, 0, 5}}},
      {"extended resource allocatable enforced",
       NewResourcePod({{1, 1, 0, {{kExtendedResourceA, 1}}}}),
       NewResourcePod({{0, 0, 0, {{kExtendedResourceA, 5}}}}), d,
       {{kExtendedResourceA, Insufficient(kExtendedResourceA), 1, 5, 5}}},
      {"extended resource allocatable enforced for init container",
       NewResourceInitPod(NewResourcePod({{}}),
                          {{1, 1, 0, {{kExtendedResourceA, 1}}}}),
       NewResourcePod({{0, 0, 0, {{kExtendedResourceA, 5}}}}), d,
       {{kExtendedResourceA, Insufficient(kExtendedResourceA), 1, 5, 5}}},
      {"extended resource allocatable enforced for multiple containers",
       NewResourcePod({{1, 1, 0, {{kExtendedResourceA, 3}}},
                       {1, 1, 0, {{kExtendedResourceA, 3}}}}),
       NewResourcePod({{0, 0, 0, {{kExtendedResourceA, 2}}}}), d,
       {{kExtendedResourceA, Insufficient(kExtendedResourceA), 6, 2, 5}}},
      {"extended resource allocatable admits multiple init containers",
       NewResourceInitPod(NewResourcePod({{}}),
                          {{1, 1, 0, {{kExtendedResourceA, 3}}},
                           {1, 1, 0, {{kExtendedResourceA, 3}}}}),
       NewResourcePod({{0, 0, 0, {{kExtendedResourceA, 2}}}}), d, {}},
      {"extended resource allocatable enforced for multiple init containers",
       NewResourceInitPod(NewResourcePod({{}}),
                          {{1, 1, 0, {{kExtendedResourceA, 6}}},
                           {1, 1, 0, {{kExtendedResourceA, 3}}}}),
       NewResourcePod({{0, 0, 0, {{kExtendedResourceA, 2}}}}), d,
       {{kExtendedResourceA, Insufficient(kExtendedResourceA), 6, 2, 5}}},
      {"extended resource allocatable enforced for unknown resource",
       NewResourcePod({{1, 1, 0, {{kExtendedResourceB, 1}}}}),
       NewResourcePod({{}}), d,
       {{kExtendedResourceB, Insufficient(kExtendedResourceB), 1, 0, 0}}},
      {"extended resource allocatable enforced for unknown resource for init "
       "container",
       NewResourceInitPod(NewResourcePod({{}}),
                          {{1, 1, 0, {{kExtendedResourceB, 1}}}}),
       NewResourcePod({{}}), d,
       {{kExtendedResourceB, Insufficient(kExtendedResourceB), 1, 0, 0}}},
      {"kubernetes.io resource capacity enforced",
       NewResourcePod({{1, 1, 0, {{kKubernetesIOResourceA, 10}}}}),
       NewResourcePod({{}}), d,
       {{kKubernetesIOResourceA, Insufficient(kKubernetesIOResourceA), 10, 0, 0}}},
      {"kubernetes.io resource capacity enforced for init container",
       NewResourceInitPod(NewResourcePod({{}}),
                          {{1, 1, 0, {{kKubernetesIOResourceB, 10}}}}),
       NewResourcePod({{}}), d,
       {{kKubernetesIOResourceB, Insufficient(kKubernetesIOResourceB), 10, 0, 0}}},
      {"hugepages resource capacity enforced",
       NewResourcePod({{1, 1, 0, {{kHugePageResourceA, 10}}}}),
       NewResourcePod({{0, 0, 0, {{kHugePageResourceA, 0}}}}), d,
       {{kHugePageResourceA, Insufficient(kHugePageResourceA), 10, 0, 5}}},
      {"hugepages resource capacity enforced for init container",
       NewResourceInitPod(NewResourcePod({{}}),
                          {{1, 1, 0, {{kHugePageResourceA, 10}}}}),
       NewResourcePod({{0, 0, 0, {{kHugePageResourceA, 0}}}}), d,
       {{kHugePageResourceA, Insufficient(kHugePageResourceA), 10, 0, 5}}},
      {"hugepages resource allocatable enforced for multiple containers",
       NewResourcePod({{1, 1, 0, {{kHugePageResourceA, 3}}},
                       {1, 1, 0, {{kHugePageResourceA, 3}}}}),
       NewResourcePod({{0, 0, 0, {{kHugePageResourceA, 2}}}}), d,
       {{kHugePageResourceA, Insufficient(kHugePageResourceA), 6, 2, 5}}},
      {"skip checking ignored extended resource",
       NewResourcePod({{1, 1, 0, {{kExtendedResourceB, 1}}}}),
       NewResourcePod({{}}), ignore_bbb, {}},
      {"resources + pod overhead fits", overhead(NewResourcePod({{1, 1}}), 3, 13),
       NewResourcePod({{5, 5}}), d, {}},
      {"requests + overhead does not fit for memory",
       overhead(NewResourcePod({{1, 1}}), 1, 15), NewResourcePod({{5, 5}}), d,
       {{mem, Insufficient(mem), 16, 5, 20}}},
      {"skip checking ignored extended resource via resource groups",
       NewResourcePod(
           {{1, 1, 0, {{kExtendedResourceB, 1}, {kKubernetesIOResourceA, 1}}}}),
       NewResourcePod({{}}), ignore_group,
       {{kKubernetesIOResourceA, Insufficient(kKubernetesIOResourceA), 1, 0, 0}}},
      {"skip checking extended resource request with quantity zero via "
       "resource groups",
       NewResourcePod({{1, 1, 0, {{kExtendedResourceA, 0}}}}),
       NewResourcePod({{0, 0, 0, {{kExtendedResourceA, 6}}}}), d, {}},
      {"skip checking resource request with quantity zero",
       NewResourcePod({{0, 0, 0, {{kExtendedResourceA, 1}}}}),
       NewResourcePod({{20, 30, 0, {{kExtendedResourceA, 1}}}}), d, {}},
      // Ours: ignoredResources only applies to extended resources, so a
      // kubernetes.io resource named there is still checked.
      {"ignoredResources does not cover native resources",
       NewResourcePod({{0, 0, 0, {{kKubernetesIOResourceA, 1}}}}),
       NewResourcePod({{}}),
       [&] {
         NodeResourcesFitArgs a = d;
         a.ignored_resources = {kKubernetesIOResourceA};
         return a;
       }(),
       {{kKubernetesIOResourceA, Insufficient(kKubernetesIOResourceA), 1, 0, 0}}},
  };
  const api::Node node = testutil::MakeNodeWithAllocatable("n", 10, 20, 32, 5, 20, 5);
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    ASSERT_TRUE(api::pluginargs::Validate(tc.args).ok());
    Fit plugin(tc.args);
    NodeInfo info = MakeNodeInfo(node, {tc.existing});
    std::vector<std::string> reasons;
    for (const auto& r : tc.want) reasons.push_back(r.reason);
    const Status want =
        reasons.empty() ? Status::Success() : Status(Code::kUnschedulable, reasons);
    EXPECT_EQ(RunFilter(plugin, tc.pod, info), want);

    const std::set<std::string> ignored(tc.args.ignored_resources.begin(),
                                        tc.args.ignored_resources.end());
    const std::set<std::string> groups(tc.args.ignored_resource_groups.begin(),
                                       tc.args.ignored_resource_groups.end());
    const FitRequest request = MakeFitRequest(NewPodInfo(tc.pod)->requests, ignored, groups);
    std::vector<InsufficientResource> got;
    EXPECT_EQ(FitsRequest(request, info.allocatable(), info.requested(),
                          static_cast<int64_t>(info.pods().size()), &got),
              tc.want.empty());
    EXPECT_EQ(got, tc.want);
    // Without an output list the answer is the same.
    EXPECT_EQ(FitsRequest(request, info.allocatable(), info.requested(),
                          static_cast<int64_t>(info.pods().size()), nullptr),
              tc.want.empty());
  }
}

// Several insufficient scalar resources come out sorted by name, after cpu,
// memory and ephemeral-storage, with "Too many pods" first (the reference's
// pinned order, docs/deviations.md).
TEST(FitTest, ReasonOrderIsPinned) {
  api::Node node = testutil::MakeNodeWithAllocatable("n", 10, 20, 1, 0, 0, 0);
  api::Pod pod = NewResourcePod(
      {{11, 21, 1,
        {{"example.com/zzz", 1}, {"example.com/aaa", 1}, {"hugepages-1Gi", 1}}}});
  EXPECT_EQ(RunFilter(Fit(DefaultArgs()), pod,
                      MakeNodeInfo(node, {NewResourcePod({{}})})),
            Status(Code::kUnschedulable,
                   std::vector<std::string>{
                       "Too many pods", "Insufficient cpu", "Insufficient memory",
                       "Insufficient ephemeral-storage",
                       "Insufficient example.com/aaa",
                       "Insufficient example.com/zzz", "Insufficient hugepages-1Gi"}));
}

// The node's running aggregates follow its pods: removing a pod frees its
// requests and its pod slot.
TEST(FitTest, FollowsPodRemoval) {
  api::Node node = testutil::MakeNodeWithAllocatable("n", 10, 20, 2, 0, 0, 0);
  api::Pod a = NewResourcePod({{6, 1}});
  a.uid = "a";
  api::Pod b = NewResourcePod({{1, 1}});
  b.uid = "b";
  NodeInfo info = MakeNodeInfo(node, {a, b});
  const api::Pod pod = NewResourcePod({{5, 1}});
  EXPECT_EQ(RunFilter(Fit(DefaultArgs()), pod, info),
            Status(Code::kUnschedulable,
                   std::vector<std::string>{"Too many pods", "Insufficient cpu"}));
  ASSERT_TRUE(info.RemovePod("b"));
  EXPECT_EQ(RunFilter(Fit(DefaultArgs()), pod, info),
            Status(Code::kUnschedulable, "Insufficient cpu"));
  ASSERT_TRUE(info.RemovePod("a"));
  EXPECT_TRUE(RunFilter(Fit(DefaultArgs()), pod, info).IsSuccess());
}

// Preemption's dry run asks FilterWithoutPods before copying a node: it
// must say what Filter says of a copy with the pods removed, for every
// resource kind and for the pod count.
TEST(FitTest, FilterWithoutPodsMatchesRemoval) {
  // Node: cpu 10m, memory 20, pods 3, example.com/aaa 5, storage 20.
  const api::Node node = testutil::MakeNodeWithAllocatable("n", 10, 20, 3, 5, 20, 0);
  std::vector<api::Pod> pods = {
      NewResourcePod({{4, 5, 0, {{kExtendedResourceA, 2}}}}),
      NewResourcePod({{3, 5, 10, {}}}),
      NewResourcePod({{2, 5, 5, {{kExtendedResourceA, 3}}}}),
  };
  for (size_t i = 0; i < pods.size(); ++i) pods[i].uid = "u" + std::to_string(i);
  struct Case {
    std::string name;
    testutil::Usage incoming;
    std::vector<size_t> removed;  // indexes into pods
  };
  const std::vector<Case> cases = {
      {"nothing removed, too many pods", {1, 1}, {}},
      {"one removed frees the slot", {1, 1}, {1}},
      {"still short of cpu", {6, 1}, {2}},
      {"cpu freed by two", {6, 1}, {0, 2}},
      {"memory short after one", {1, 12}, {0}},
      {"memory freed by two", {1, 12}, {0, 1}},
      {"storage short", {1, 1, 15}, {0}},
      {"storage freed", {1, 1, 15}, {1, 2}},
      {"scalar short", {1, 1, 0, {{kExtendedResourceA, 4}}}, {0}},
      {"scalar freed", {1, 1, 0, {{kExtendedResourceA, 4}}}, {2}},
      {"several shortages", {9, 19, 19, {{kExtendedResourceA, 5}}}, {1}},
      {"all removed, fits", {10, 20, 20, {{kExtendedResourceA, 5}}}, {0, 1, 2}},
      {"all removed, still short", {11, 21, 21, {{kExtendedResourceA, 6}}}, {2, 0, 1}},
  };
  Fit plugin(DefaultArgs());
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const NodeInfo info = MakeNodeInfo(node, pods);
    CycleState state;
    PodInfoPtr pod = NewPodInfo(NewResourcePod({c.incoming}));
    ASSERT_TRUE(plugin.PreFilter(state, *pod, {}).status.IsSuccess());
    std::vector<const PodInfo*> removed;
    NodeInfo copy = info;
    for (size_t i : c.removed) {
      removed.push_back(info.pods()[i].get());
      ASSERT_TRUE(copy.RemovePod(pods[i].uid));
    }
    const Status want = plugin.Filter(state, *pod, copy);
    const std::optional<Status> got = plugin.FilterWithoutPods(state, *pod, info, removed);
    ASSERT_TRUE(got.has_value());
    EXPECT_EQ(*got, want);
  }
  // The table covers both verdicts.
  CycleState state;
  PodInfoPtr pod = NewPodInfo(NewResourcePod({{6, 1}}));
  ASSERT_TRUE(plugin.PreFilter(state, *pod, {}).status.IsSuccess());
  const NodeInfo info = MakeNodeInfo(node, pods);
  EXPECT_EQ(*plugin.FilterWithoutPods(state, *pod, info, {info.pods()[2].get()}),
            Status(Code::kUnschedulable, "Insufficient cpu"));
  EXPECT_TRUE(
      plugin.FilterWithoutPods(state, *pod, info, {info.pods()[0].get(), info.pods()[2].get()})
          ->IsSuccess());
}

// Preemption asks FilterWithoutAllPods before reading a node's pods: it
// must say what Filter says of a copy with every pod removed.
TEST(FitTest, FilterWithoutAllPodsMatchesRemovingEveryPod) {
  const api::Node node = testutil::MakeNodeWithAllocatable("n", 10, 20, 3, 5, 20, 0);
  std::vector<api::Pod> pods = {
      NewResourcePod({{4, 5, 0, {{kExtendedResourceA, 2}}}}),
      NewResourcePod({{3, 5, 10, {}}}),
  };
  for (size_t i = 0; i < pods.size(); ++i) pods[i].uid = "u" + std::to_string(i);
  const std::vector<testutil::Usage> incoming = {
      {1, 1},  {10, 20, 20, {{kExtendedResourceA, 5}}}, {11, 1},
      {1, 21}, {1, 1, 21},                              {1, 1, 0, {{kExtendedResourceA, 6}}},
  };
  Fit plugin(DefaultArgs());
  int rejected = 0;
  for (size_t k = 0; k < incoming.size(); ++k) {
    SCOPED_TRACE("incoming " + std::to_string(k));
    for (size_t on_node = 0; on_node <= pods.size(); ++on_node) {
      const NodeInfo info =
          MakeNodeInfo(node, std::vector<api::Pod>(pods.begin(), pods.begin() + on_node));
      NodeInfo empty = info;
      for (size_t i = 0; i < on_node; ++i) ASSERT_TRUE(empty.RemovePod(pods[i].uid));
      CycleState state;
      PodInfoPtr pod = NewPodInfo(NewResourcePod({incoming[k]}));
      ASSERT_TRUE(plugin.PreFilter(state, *pod, {}).status.IsSuccess());
      const Status want = plugin.Filter(state, *pod, empty);
      const std::optional<Status> got = plugin.FilterWithoutAllPods(state, *pod, info);
      ASSERT_TRUE(got.has_value());
      EXPECT_EQ(*got, want);
      rejected += want.IsSuccess() ? 0 : 1;
    }
  }
  // Both verdicts are covered.
  EXPECT_GT(rejected, 0);
  EXPECT_LT(rejected, static_cast<int>(incoming.size() * (pods.size() + 1)));
}

// FilterPass takes out exactly the nodes Filter rejects, with its status:
// requests the Hot line decides (cpu, memory, the pod count) and ones it
// cannot (ephemeral storage, a scalar), over nodes with 0 to 2 pods.
TEST(FitTest, FilterPassMatchesFilter) {
  const api::Node node = testutil::MakeNodeWithAllocatable("n", 10, 20, 3, 5, 20, 0);
  std::vector<api::Pod> pods = {
      NewResourcePod({{4, 5, 0, {{kExtendedResourceA, 2}}}}),
      NewResourcePod({{3, 5, 10, {}}}),
  };
  std::vector<NodeInfo> infos;
  for (size_t on_node = 0; on_node <= pods.size(); ++on_node) {
    infos.push_back(MakeNodeInfo(node, std::vector<api::Pod>(pods.begin(), pods.begin() + on_node)));
  }
  // Twice over, so that every other node starts out of the running.
  std::vector<const NodeInfo*> ptrs;
  for (int round = 0; round < 2; ++round) {
    for (const NodeInfo& info : infos) ptrs.push_back(&info);
  }
  const std::vector<testutil::Usage> incoming = {
      {1, 1},  {4, 11}, {10, 20, 20, {{kExtendedResourceA, 5}}}, {11, 1},
      {1, 21}, {1, 1, 11}, {1, 1, 0, {{kExtendedResourceA, 4}}}, {0, 0},
  };
  Fit plugin(DefaultArgs());
  for (size_t k = 0; k < incoming.size(); ++k) {
    SCOPED_TRACE("incoming " + std::to_string(k));
    CycleState state;
    PodInfoPtr pod = NewPodInfo(NewResourcePod({incoming[k]}));
    ASSERT_TRUE(plugin.PreFilter(state, *pod, {}).status.IsSuccess());
    EXPECT_TRUE(testing::FilterPassMatchesFilter(plugin, state, *pod, ptrs));
  }
  // Without PreFilter's state FilterPass falls back to Filter, which errs.
  const CycleState no_state;
  EXPECT_TRUE(testing::FilterPassMatchesFilter(plugin, no_state, *NewPodInfo(pods[0]), ptrs));
}

// Filtering with nominated pods asks FilterWithPods before copying a node:
// it must say what Filter says of a copy with the pods added.
TEST(FitTest, FilterWithPodsMatchesAddition) {
  // Node: cpu 10m, memory 20, pods 3, example.com/aaa 5, storage 20;
  // one pod on it using cpu 4, memory 5, aaa 2.
  const api::Node node = testutil::MakeNodeWithAllocatable("n", 10, 20, 3, 5, 20, 0);
  const std::vector<api::Pod> on_node = {NewResourcePod({{4, 5, 0, {{kExtendedResourceA, 2}}}})};
  std::vector<api::Pod> nominated = {
      NewResourcePod({{3, 5, 10, {}}}),
      NewResourcePod({{2, 5, 5, {{kExtendedResourceA, 3}}}}),
  };
  for (size_t i = 0; i < nominated.size(); ++i) nominated[i].uid = "n" + std::to_string(i);
  struct Case {
    std::string name;
    testutil::Usage incoming;
    std::vector<size_t> added;  // indexes into nominated
  };
  const std::vector<Case> cases = {
      {"nothing added, fits", {1, 1}, {}},
      {"one added, fits", {1, 1}, {0}},
      {"two added, too many pods", {1, 1}, {0, 1}},
      {"cpu short after one", {4, 1}, {0}},
      {"memory short after one", {1, 11}, {1}},
      {"storage short after one", {1, 1, 11}, {0}},
      {"scalar short after one", {1, 1, 0, {{kExtendedResourceA, 1}}}, {1}},
      {"several shortages", {9, 19, 19, {{kExtendedResourceA, 5}}}, {0, 1}},
  };
  Fit plugin(DefaultArgs());
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const NodeInfo info = MakeNodeInfo(node, on_node);
    CycleState state;
    PodInfoPtr pod = NewPodInfo(NewResourcePod({c.incoming}));
    ASSERT_TRUE(plugin.PreFilter(state, *pod, {}).status.IsSuccess());
    std::vector<PodInfoPtr> owners;
    std::vector<const PodInfo*> added;
    NodeInfo copy = info;
    for (size_t i : c.added) {
      owners.push_back(NewPodInfo(nominated[i]));
      added.push_back(owners.back().get());
      copy.AddPod(owners.back());
    }
    const Status want = plugin.Filter(state, *pod, copy);
    const std::optional<Status> got = plugin.FilterWithPods(state, *pod, info, added);
    ASSERT_TRUE(got.has_value());
    EXPECT_EQ(*got, want);
  }
}

// upstream TestPreFilterDisabled.
TEST(FitTest, UpstreamPreFilterDisabled) {
  Fit plugin(DefaultArgs());
  CycleState state;
  EXPECT_EQ(plugin.Filter(state, *NewPodInfo(MakePod().Obj()),
                          MakeNodeInfo(MakeNode().Obj())),
            Status::Error("error reading \"PreFilterNodeResourcesFit\" from "
                          "cycleState: not found"));
}

// A cloned state (preemption, nominated pods) answers the same.
TEST(FitTest, ClonedState) {
  Fit plugin(DefaultArgs());
  CycleState state;
  PodInfoPtr pod = NewPodInfo(NewResourcePod({{2, 1}}));
  ASSERT_TRUE(plugin.PreFilter(state, *pod, {}).status.IsSuccess());
  CycleState copy = state;
  NodeInfo info = MakeNodeInfo(testutil::MakeNodeWithAllocatable("n", 1, 20, 32, 0, 0, 0));
  EXPECT_EQ(plugin.Filter(copy, *pod, info),
            Status(Code::kUnschedulable, "Insufficient cpu"));
}

// upstream TestNotEnoughRequests: allocatable pods 1, one pod present.
TEST(FitTest, UpstreamNotEnoughRequests) {
  struct Case {
    std::string name;
    api::Pod pod;
    api::Pod existing;
  };
  const std::vector<Case> cases = {
      {"even without specified resources, predicate fails when there's no "
       "space for additional pod",
       MakePod().Obj(), NewResourcePod({{10, 20}})},
      {"even if both resources fit, predicate fails when there's no space for "
       "additional pod",
       NewResourcePod({{1, 1}}), NewResourcePod({{5, 5}})},
      {"even for equal edge case, predicate fails when there's no space for "
       "additional pod",
       NewResourcePod({{5, 1}}), NewResourcePod({{5, 19}})},
      {"even for equal edge case, predicate fails when there's no space for "
       "additional pod due to init container",
       NewResourceInitPod(NewResourcePod({{5, 1}}), {{5, 1}}),
       NewResourcePod({{5, 19}})},
  };
  api::Node node = testutil::MakeNodeWithAllocatable("n", 10, 20, 1, 0, 0, 0);
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(RunFilter(Fit(DefaultArgs()), tc.pod, MakeNodeInfo(node, {tc.existing})),
              Status(Code::kUnschedulable, "Too many pods"));
  }
}

// upstream TestStorageRequests.
TEST(FitTest, UpstreamStorageRequests) {
  struct Case {
    std::string name;
    api::Pod pod;
    api::Pod existing;
    Status want;
  };
  const std::vector<Case> cases = {
      {"empty storage requested, and pod fits", NewResourcePod({{1, 1}}),
       NewResourcePod({{2, 10}}), Status::Success()},
      {"storage ephemeral local storage request exceeds allocatable",
       NewResourcePod({{0, 0, 25}}), NewResourcePod({{2, 2}}),
       Status(Code::kUnschedulable, "Insufficient ephemeral-storage")},
      {"ephemeral local storage is sufficient",
       NewResourceInitPod(NewResourcePod({{0, 0, 5}}), {}),
       NewResourcePod({{2, 2, 10}}), Status::Success()},
      {"pod fits", NewResourcePod({{0, 0, 10}}), NewResourcePod({{2, 2}}),
       Status::Success()},
  };
  api::Node node = testutil::MakeNodeWithAllocatable("n", 10, 20, 32, 5, 20, 5);
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(RunFilter(Fit(DefaultArgs()), tc.pod, MakeNodeInfo(node, {tc.existing})),
              tc.want);
  }
}

// upstream TestRestartableInitContainers with SidecarContainers on (the
// v1.32 default): a sidecar never makes PreFilter reject.
TEST(FitTest, UpstreamRestartableInitContainers) {
  api::Container regular;
  regular.name = "regular";
  api::Container sidecar;
  sidecar.name = "restartable-init";
  sidecar.restart_policy = "Always";
  api::Node node = testutil::MakeNodeWithAllocatable("n", 0, 0, 1, 0, 0, 0);
  for (const api::Pod& pod : {MakePod().Container(regular).Obj(),
                              MakePod().Container(regular).InitContainer(sidecar).Obj()}) {
    EXPECT_TRUE(RunFilter(Fit(DefaultArgs()), pod, MakeNodeInfo(node)).IsSuccess());
  }
}

ScoringStrategy Strategy(std::string type, std::vector<ResourceSpec> resources,
                         std::optional<std::vector<UtilizationShapePoint>> shape =
                             std::nullopt) {
  return {std::move(type), std::move(resources), std::move(shape)};
}

// upstream TestFitScore (with and without PreScore).
TEST(FitTest, UpstreamFitScore) {
  struct Case {
    std::string name;
    api::Pod pod;
    ScoringStrategy strategy;
    std::vector<int64_t> expected;
  };
  const api::Pod big = MakePod().Req({{"cpu", "3000"}, {"memory", "5000"}}).Obj();
  const api::Pod small = MakePod().Req({{"cpu", "1000"}, {"memory", "2000"}}).Obj();
  const std::vector<Case> cases = {
      {"test case for ScoringStrategy RequestedToCapacityRatio case1", big,
       Strategy(kRequestedToCapacityRatio, testutil::DefaultResources(),
                std::vector<UtilizationShapePoint>{{0, 10}, {100, 0}}),
       {10, 32}},
      {"test case for ScoringStrategy RequestedToCapacityRatio case2", big,
       Strategy(kRequestedToCapacityRatio, testutil::DefaultResources(),
                std::vector<UtilizationShapePoint>{{0, 0}, {100, 10}}),
       {95, 68}},
      {"test case for ScoringStrategy MostAllocated", small,
       Strategy(kMostAllocated, testutil::DefaultResources()), {67, 36}},
      {"test case for ScoringStrategy LeastAllocated", small,
       Strategy(kLeastAllocated, testutil::DefaultResources()), {32, 63}},
  };
  const std::vector<api::Node> nodes = {
      MakeNode().Name("node1").Capacity({{"cpu", "4000"}, {"memory", "10000"}}).Obj(),
      MakeNode().Name("node2").Capacity({{"cpu", "6000"}, {"memory", "10000"}}).Obj()};
  const std::vector<api::Pod> existing = {
      MakePod().Node("node1").Req({{"cpu", "2000"}, {"memory", "4000"}}).Obj(),
      MakePod().Node("node2").Req({{"cpu", "1000"}, {"memory", "2000"}}).Obj()};
  for (const Case& tc : cases) {
    for (bool run_pre_score : {true, false}) {
      SCOPED_TRACE(tc.name + (run_pre_score ? "" : " if PreScore is not called"));
      NodeResourcesFitArgs args;
      args.scoring_strategy = tc.strategy;
      ASSERT_TRUE(api::pluginargs::Validate(args).ok());
      Fit plugin(args);
      PodInfoPtr pod = NewPodInfo(tc.pod);
      CycleState state;
      if (run_pre_score) {
        ASSERT_TRUE(plugin.PreScore(state, *pod, {}).IsSuccess());
      }
      std::vector<int64_t> got;
      for (const api::Node& n : nodes) {
        ScoreOutput out = plugin.Score(state, *pod, testutil::NodeInfoFor(n, existing));
        ASSERT_TRUE(out.status.IsSuccess());
        got.push_back(out.score);
      }
      EXPECT_EQ(got, tc.expected);
    }
  }
}

TEST(FitTest, NewDecodesArgs) {
  auto plugin = Fit::New(nlohmann::json::object(), nullptr);
  ASSERT_TRUE(plugin.ok());
  EXPECT_EQ((*plugin)->Name(), "NodeResourcesFit");
  // MostAllocated from the args: node1 (more allocated) scores higher.
  auto most = Fit::New(
      nlohmann::json::parse(R"({"scoringStrategy": {"type": "MostAllocated"}})"),
      nullptr);
  ASSERT_TRUE(most.ok());
  auto* score = dynamic_cast<ScorePlugin*>(most->get());
  ASSERT_NE(score, nullptr);
  PodInfoPtr pod = NewPodInfo(MakePod().Req({{"cpu", "1000"}, {"memory", "2000"}}).Obj());
  CycleState state;
  NodeInfo node = MakeNodeInfo(
      MakeNode().Name("n").Capacity({{"cpu", "4000"}, {"memory", "10000"}}).Obj());
  EXPECT_EQ(score->Score(state, *pod, node).score, 22);  // (25 + 20) / 2
  // Invalid args are an error, with upstream's field message.
  auto bad = Fit::New(nlohmann::json::parse(
                          R"({"scoringStrategy": {"type": "LeastAllocated",
                              "resources": [{"name": "cpu", "weight": 101}]}})"),
                      nullptr);
  EXPECT_FALSE(bad.ok());
  auto unknown = Fit::New(nlohmann::json::parse(R"({"nope": 1})"), nullptr);
  EXPECT_FALSE(unknown.ok());
}

TEST(FitTest, EventsToRegister) {
  std::vector<ClusterEventWithHint> events = Fit(DefaultArgs()).EventsToRegister();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].event.resource, EventResource::kPod);
  EXPECT_EQ(events[0].event.action, kDelete);
  EXPECT_TRUE(static_cast<bool>(events[0].hint));
  EXPECT_EQ(events[1].event.resource, EventResource::kNode);
  EXPECT_EQ(events[1].event.action, kAdd | kUpdateNodeAllocatable);
  EXPECT_TRUE(static_cast<bool>(events[1].hint));
}

// upstream Test_isSchedulableAfterPodChange with InPlacePodVerticalScaling
// off (v1.32): every update is Skip. (The wrong-object rows do not exist
// here: EventObjects is typed.)
TEST(FitTest, UpstreamIsSchedulableAfterPodEvent) {
  struct Case {
    std::string name;
    api::Pod pod;
    std::optional<api::Pod> old_pod, new_pod;
    QueueingHint expected;
  };
  const std::vector<Case> cases = {
      {"queue-on-other-pod-deleted", MakePod().Name("pod1").Req({{"cpu", "1"}}).Obj(),
       MakePod().Name("pod2").Req({{"cpu", "1"}}).Node("fake").Obj(), std::nullopt,
       QueueingHint::kQueue},
      {"skip-queue-on-unscheduled-pod-deleted", MakePod().Obj(), MakePod().Obj(),
       std::nullopt, QueueingHint::kSkip},
      {"skip-queue-without-objects", MakePod().Obj(), std::nullopt, std::nullopt,
       QueueingHint::kSkip},
      {"skip-queue-on-disable-inplace-pod-vertical-scaling",
       MakePod().Name("pod1").Req({{"cpu", "1"}}).Obj(),
       MakePod().Name("pod2").Req({{"cpu", "2"}}).Node("fake").Obj(),
       MakePod().Name("pod2").Req({{"cpu", "1"}}).Node("fake").Obj(),
       QueueingHint::kSkip},
  };
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    EventObjects objects;
    if (tc.old_pod) objects.old_pod = &*tc.old_pod;
    if (tc.new_pod) objects.new_pod = &*tc.new_pod;
    auto got = Fit::IsSchedulableAfterPodEvent(tc.pod, objects);
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(*got, tc.expected);
  }
}

// upstream Test_isSchedulableAfterNodeChange, plus the reference's rows.
TEST(FitTest, UpstreamIsSchedulableAfterNodeChange) {
  const api::Pod mem_and_a = NewResourcePod({{0, 2, 0, {{kExtendedResourceA, 1}}}});
  auto node = [](st::ResourceStrings r) { return MakeNode().Capacity(r).Obj(); };
  struct Case {
    std::string name;
    api::Pod pod;
    std::optional<api::Node> old_node, new_node;
    QueueingHint expected;
  };
  const std::vector<Case> cases = {
      {"skip-queue-without-new-node", MakePod().Obj(), node({}), std::nullopt,
       QueueingHint::kSkip},
      {"skip-queue-on-node-add-without-sufficient-resources",
       NewResourcePod({{0, 2}}), std::nullopt, node({{"memory", "1"}}),
       QueueingHint::kSkip},
      {"skip-queue-on-node-add-without-required-resource-type",
       NewResourcePod({{0, 0, 0, {{kExtendedResourceA, 1}}}}), std::nullopt,
       node({{kExtendedResourceB, "1"}}), QueueingHint::kSkip},
      {"queue-on-node-add-with-sufficient-resources", mem_and_a, std::nullopt,
       node({{"memory", "4"}, {kExtendedResourceA, "2"}}), QueueingHint::kQueue},
      {"skip-queue-on-node-changes-from-suitable-to-unsuitable", mem_and_a,
       node({{"memory", "4"}, {kExtendedResourceA, "2"}}),
       node({{"memory", "1"}, {kExtendedResourceA, "2"}}), QueueingHint::kSkip},
      {"queue-on-node-changes-from-unsuitable-to-suitable", mem_and_a,
       node({{"memory", "1"}, {kExtendedResourceA, "2"}}),
       node({{"memory", "4"}, {kExtendedResourceA, "2"}}), QueueingHint::kQueue},
      {"skip-queue-on-node-update-unrelated-resource", mem_and_a,
       node({{"memory", "4"}, {kExtendedResourceA, "2"}}),
       node({{"memory", "4"}, {kExtendedResourceA, "2"}, {"cpu", "8"}}),
       QueueingHint::kSkip},
      {"queue-on-node-update-more-pods", mem_and_a,
       node({{"memory", "4"}, {kExtendedResourceA, "2"}}),
       node({{"memory", "4"}, {kExtendedResourceA, "2"}, {"pods", "33"}}),
       QueueingHint::kQueue},
      // Ours: a node with room for no pod never helps.
      {"skip-queue-on-node-without-pod-slots", MakePod().Obj(), std::nullopt,
       node({{"pods", "0"}}), QueueingHint::kSkip},
      // Ours: a best-effort pod is helped only by more pod slots.
      {"skip-queue-best-effort-more-cpu", MakePod().Obj(), node({{"cpu", "1"}}),
       node({{"cpu", "2"}}), QueueingHint::kSkip},
      {"queue-extended-resource-increase", mem_and_a,
       node({{"memory", "4"}, {kExtendedResourceA, "1"}}),
       node({{"memory", "4"}, {kExtendedResourceA, "2"}}), QueueingHint::kQueue},
  };
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    EventObjects objects;
    if (tc.old_node) objects.old_node = &*tc.old_node;
    if (tc.new_node) objects.new_node = &*tc.new_node;
    auto got = Fit::IsSchedulableAfterNodeChange(tc.pod, objects);
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(*got, tc.expected);
  }
}

// upstream TestIsFit (isFit: the pod on the empty node).
TEST(FitTest, UpstreamIsFit) {
  auto fits = [](const api::Pod& pod, const api::Node& node) {
    NodeInfo info = MakeNodeInfo(node);
    return FitsRequest(MakeFitRequest(NewPodInfo(pod)->requests, {}, {}),
                       info.allocatable(), info.requested(), 0, nullptr);
  };
  EXPECT_FALSE(fits(MakePod().Req({{"cpu", "2"}}).Obj(),
                    MakeNode().Capacity({{"cpu", "1"}}).Obj()));
  EXPECT_TRUE(fits(MakePod().Req({{"cpu", "1"}}).Obj(),
                   MakeNode().Capacity({{"cpu", "2"}}).Obj()));
}

}  // namespace
}  // namespace schedref::optimized::framework::plugins::noderesources
