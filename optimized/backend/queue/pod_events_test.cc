// upstream pkg/scheduler/framework/events_test.go
// (Test_podSchedulingPropertiesChange), reduced to the properties api::Pod
// models. Ported from reference/backend/queue/pod_events_test.cc.
#include "optimized/backend/queue/pod_events.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "testing/st/wrappers.h"

namespace schedref::optimized::backend::queue {
namespace {

std::vector<std::string> Labels(
    const std::vector<framework::ClusterEvent>& es) {
  std::vector<std::string> labels;
  for (const framework::ClusterEvent& e : es) labels.push_back(e.label);
  return labels;
}

TEST(PodEventsTest, PodSchedulingPropertiesChange) {
  api::Pod base = st::MakePod()
                      .Name("p")
                      .Label("a", "1")
                      .Req({{"cpu", "200m"}, {"memory", "1Gi"}})
                      .SchedulingGates({"gate"})
                      .Obj();
  struct Case {
    std::string name;
    api::Pod new_pod;
    std::vector<std::string> want;
  };
  api::Pod labels = base;
  labels.labels["b"] = "2";
  api::Pod scaled_down = base;
  scaled_down.containers[0].requests["cpu"] = 100;
  api::Pod scaled_up = base;
  scaled_up.containers[0].requests["cpu"] = 300;
  api::Pod request_removed = base;
  request_removed.containers[0].requests.erase("memory");
  api::Pod ungated = base;
  ungated.scheduling_gates.clear();
  api::Pod tolerations = base;
  tolerations.tolerations.push_back({"k", "Exists", "", "", {}});
  api::Pod other = base;
  other.node_selector = {{"x", "y"}};
  api::Pod several = labels;
  several.scheduling_gates.clear();
  const std::vector<Case> cases = {
      {"only label is updated", labels, {"UnschedulablePodUpdatePodLabel"}},
      {"pod's resource request is scaled down",
       scaled_down,
       {"UnschedulablePodUpdatePodScaleDown"}},
      {"pod's resource request is scaled up",
       scaled_up,
       {"UnschedulablePodUpdatePodOther"}},
      {"a resource request is removed",
       request_removed,
       {"UnschedulablePodUpdatePodScaleDown"}},
      {"the last scheduling gate is removed",
       ungated,
       {"UnschedulablePodUpdatePodSchedulingGatesEliminated"}},
      {"a toleration is added",
       tolerations,
       {"UnschedulablePodUpdatePodTolerations"}},
      {"an unrelated field is updated",
       other,
       {"UnschedulablePodUpdatePodOther"}},
      {"several properties",
       several,
       {"UnschedulablePodUpdatePodLabel",
        "UnschedulablePodUpdatePodSchedulingGatesEliminated"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(Labels(PodSchedulingPropertiesChange(c.new_pod, base)), c.want);
  }
}

TEST(PodEventsTest, ActionBitsAndAssignedLabel) {
  api::Pod old_pod = st::MakePod().Name("p").Node("n").Obj();
  api::Pod new_pod = old_pod;
  new_pod.labels["a"] = "b";
  std::vector<framework::ClusterEvent> events =
      PodSchedulingPropertiesChange(new_pod, old_pod);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].resource, framework::EventResource::kPod);
  EXPECT_EQ(events[0].action, framework::kUpdatePodLabel);
  EXPECT_EQ(events[0].label, "AssignedPodUpdatePodLabel");
}

// Sidecars count toward the pod's requests (resourcehelper.PodRequests).
TEST(PodEventsTest, ScaleDownUsesPodRequests) {
  api::Pod old_pod = st::MakePod()
                         .Name("p")
                         .Req({{"cpu", "100m"}})
                         .InitReq({{"cpu", "500m"}})
                         .Obj();
  api::Pod new_pod = old_pod;
  // The regular container shrinks, but the init container dominates.
  new_pod.containers[0].requests["cpu"] = 50;
  EXPECT_EQ(Labels(PodSchedulingPropertiesChange(new_pod, old_pod)),
            std::vector<std::string>{"UnschedulablePodUpdatePodOther"});
  api::Pod with_sidecar = st::MakePod()
                              .Name("p")
                              .Req({{"cpu", "100m"}})
                              .SidecarReq({{"cpu", "500m"}})
                              .Obj();
  api::Pod smaller = with_sidecar;
  smaller.containers[0].requests["cpu"] = 50;
  EXPECT_EQ(Labels(PodSchedulingPropertiesChange(smaller, with_sidecar)),
            std::vector<std::string>{"UnschedulablePodUpdatePodScaleDown"});
}

// upstream TestIsPodUpdated (scheduling_queue_test.go's isPodUpdated cases).
TEST(PodEventsTest, IsPodUpdated) {
  api::Pod pod = st::MakePod().Name("p").Label("a", "1").Obj();
  api::Pod status_only = pod;
  status_only.nominated_node_name = "n";
  status_only.start_time = 5;
  EXPECT_FALSE(IsPodUpdated(pod, status_only));
  api::Pod relabelled = pod;
  relabelled.labels["a"] = "2";
  EXPECT_TRUE(IsPodUpdated(pod, relabelled));
}

}  // namespace
}  // namespace schedref::optimized::backend::queue
