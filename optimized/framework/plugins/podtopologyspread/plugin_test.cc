// Events and QueueingHints (the args' rows are in
// api/config/pluginargs/podtopologyspread_args_test.cc). Hint rows from plugin_test.go Test_isSchedulableAfterNodeChange /
// Test_isSchedulableAfterPodChange (the v1.33+ version the hints were read
// from, find_string id 216613741).
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "optimized/framework/plugins/podtopologyspread/pod_topology_spread.h"
#include "optimized/framework/plugins/podtopologyspread/test_util.h"
#include "testing/st/wrappers.h"

namespace schedref::optimized::framework::plugins::podtopologyspread {
namespace {

using st::MakeNode;
using st::MakePod;

TEST(PodTopologySpreadTest, New) {
  EXPECT_FALSE(PodTopologySpread::New(nlohmann::json::object(), nullptr).ok());
  testing::FakeHandle handle;
  auto p = PodTopologySpread::New(nlohmann::json::object(), &handle);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ((*p)->Name(), "PodTopologySpread");
  // System defaulting with default constraints is invalid.
  EXPECT_FALSE(PodTopologySpread::New(
                   nlohmann::json::parse(R"({"defaultingType": "System",
                     "defaultConstraints": [{"maxSkew": 1, "topologyKey": "zone",
                     "whenUnsatisfiable": "DoNotSchedule"}]})"),
                   &handle)
                   .ok());
}

TEST(PodTopologySpreadTest, EventsToRegister) {
  auto env = SetupPlugin({}, {});
  std::vector<ClusterEventWithHint> events = env->plugin->EventsToRegister();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].event.resource, EventResource::kPod);
  EXPECT_EQ(events[0].event.action,
            kAdd | kUpdatePodLabel | kUpdatePodTolerations | kDelete);
  EXPECT_EQ(events[1].event.resource, EventResource::kNode);
  EXPECT_EQ(events[1].event.action,
            kAdd | kDelete | kUpdateNodeLabel | kUpdateNodeTaint);
}

QueueingHint Hint(StatusOr<QueueingHint> h) {
  EXPECT_TRUE(h.ok()) << h.status().message();
  return h.ok() ? *h : QueueingHint::kQueue;
}

TEST(PodTopologySpreadTest, IsSchedulableAfterNodeChange) {
  auto env = SetupPlugin({}, {});
  const api::Pod pod =
      MakePod().Name("p").Label("foo", "")
          .SpreadConstraint(Tsc(1, "zone", kDoNotSchedule, ExistsSelector("foo")))
          .Obj();
  const api::Pod honor_taints =
      MakePod().Name("p").Label("foo", "")
          .SpreadConstraint(Tsc(1, "zone", kDoNotSchedule, ExistsSelector("foo"),
                                std::nullopt, std::nullopt, kHonor))
          .Obj();
  auto node = [](api::Labels l) { return MakeNode().Name("n").Labels(l).Obj(); };
  const QueueingHint kQ = QueueingHint::kQueue, kS = QueueingHint::kSkip;
  struct Case {
    std::string name;
    api::Pod pod;
    std::optional<api::Node> old_node, new_node;
    QueueingHint want;
  };
  api::Node tainted = node({{"zone", "zone1"}});
  tainted.taints = {{"k", "", "NoSchedule"}};
  std::vector<Case> cases = {
      {"node updates label which matches topologyKey", pod,
       node({{"zone", "zone1"}}), node({{"zone", "zone2"}}), kQ},
      {"node that doesn't match topologySpreadConstraints updates non-related "
       "label",
       pod, node({{"foo", "bar1"}}), node({{"foo", "bar2"}}), kS},
      {"node that match topologySpreadConstraints adds non-related label", pod,
       node({{"zone", "zone1"}}), node({{"zone", "zone1"}, {"foo", "bar"}}), kS},
      {"create node with non-related labels", pod, std::nullopt,
       node({{"foo", "bar"}}), kS},
      {"create node with related labels", pod, std::nullopt,
       node({{"zone", "zone1"}}), kQ},
      {"delete node with non-related labels", pod, node({{"foo", "bar"}}),
       std::nullopt, kS},
      {"delete node with related labels", pod, node({{"zone", "zone1"}}),
       std::nullopt, kQ},
      {"add node with related labels that only match one of "
       "topologySpreadConstraints",
       MakePod().Name("p").Label("foo", "")
           .SpreadConstraint(Tsc(1, "zone", kDoNotSchedule, ExistsSelector("foo")))
           .SpreadConstraint(Tsc(1, "node", kDoNotSchedule, ExistsSelector("foo")))
           .Obj(),
       std::nullopt, node({{"zone", "zone1"}}), kS},
      {"update node's taint", honor_taints, node({{"zone", "zone1"}}), tainted,
       kQ},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EventObjects objs;
    if (c.old_node) objs.old_node = &*c.old_node;
    if (c.new_node) objs.new_node = &*c.new_node;
    EXPECT_EQ(Hint(env->plugin->IsSchedulableAfterNodeChange(c.pod, objs)), c.want);
    EXPECT_EQ(Hint(env->plugin->EventsToRegister()[1].hint(c.pod, objs)), c.want);
  }
}

TEST(PodTopologySpreadTest, IsSchedulableAfterPodChange) {
  auto env = SetupPlugin({}, {});
  const api::Pod pod =
      MakePod().Name("p").UID("p").Label("foo", "")
          .SpreadConstraint(Tsc(1, "zone", kDoNotSchedule, ExistsSelector("foo")))
          .Obj();
  auto assigned = [](api::Labels l, const std::string& ns = "default") {
    return MakePod().Name("x").Namespace(ns).Node("node-a").Labels(l).Obj();
  };
  const QueueingHint kQ = QueueingHint::kQueue, kS = QueueingHint::kSkip;
  struct Case {
    std::string name;
    std::optional<api::Pod> old_pod, new_pod;
    QueueingHint want;
  };
  api::Pod self_tolerating = pod;
  self_tolerating.tolerations = {{"k", "Exists", "", "NoSchedule", std::nullopt}};
  std::vector<Case> cases = {
      {"add pod with labels match topologySpreadConstraints selector",
       std::nullopt, assigned({{"foo", ""}}), kQ},
      {"add un-scheduled pod", std::nullopt,
       MakePod().Name("x").Label("foo", "").Obj(), kS},
      {"update un-scheduled pod", MakePod().Name("x").Label("foo", "").Obj(),
       MakePod().Name("x").Label("bar", "").Obj(), kS},
      {"delete un-scheduled pod", MakePod().Name("x").Label("foo", "").Obj(),
       std::nullopt, kS},
      {"add pod with different namespace", std::nullopt,
       assigned({{"foo", ""}}, "fake-namespace"), kS},
      {"add pod with labels don't match topologySpreadConstraints selector",
       std::nullopt, assigned({{"bar", ""}}), kS},
      {"delete pod with labels that match topologySpreadConstraints selector",
       assigned({{"foo", ""}}), std::nullopt, kQ},
      {"delete pod with labels that don't match topologySpreadConstraints "
       "selector",
       assigned({{"bar", ""}}), std::nullopt, kS},
      {"update pod's non-related label", assigned({{"foo", ""}, {"bar", "bar1"}}),
       assigned({{"foo", ""}, {"bar", "bar2"}}), kS},
      {"add pod's label that matches topologySpreadConstraints selector",
       assigned({}), assigned({{"foo", ""}}), kQ},
      {"delete pod label that matches topologySpreadConstraints selector",
       assigned({{"foo", ""}}), assigned({}), kQ},
      // Upstream's rows about tolerations use NodeTaintsPolicy Honor; with
      // the default (Ignore) a toleration change of the target is skipped.
      {"the unschedulable pod got a toleration, no Honor constraint", pod,
       self_tolerating, kS},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EventObjects objs;
    if (c.old_pod) objs.old_pod = &*c.old_pod;
    if (c.new_pod) objs.new_pod = &*c.new_pod;
    EXPECT_EQ(Hint(env->plugin->IsSchedulableAfterPodChange(pod, objs)), c.want);
    EXPECT_EQ(Hint(env->plugin->EventsToRegister()[0].hint(pod, objs)), c.want);
  }
}

}  // namespace
}  // namespace schedref::optimized::framework::plugins::podtopologyspread
