#include "optimized/framework/plugins/nodeports/node_ports.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "optimized/framework/testing/fixtures.h"
#include "testing/st/wrappers.h"

namespace schedref::optimized::framework::plugins::nodeports {
namespace {

using st::MakeNode;
using st::MakePod;
using testing::MakeNodeInfo;

// upstream newPod(host, "PROTO/IP/PORT"...).
api::Pod NewPod(const std::string& host, const std::vector<std::string>& infos) {
  std::vector<api::ContainerPort> ports;
  for (const std::string& info : infos) {
    std::stringstream ss(info);
    std::string proto, ip, port;
    std::getline(ss, proto, '/');
    std::getline(ss, ip, '/');
    std::getline(ss, port, '/');
    ports.push_back({0, std::stoi(port), proto, ip});
  }
  return MakePod().Node(host).ContainerPort(ports).Obj();
}

// upstream node_ports_test.go TestNodePorts (the reference's table), plus
// rows for the defaults (empty IP / protocol) and a pod leaving the node.
TEST(NodePortsTest, UpstreamNodePorts) {
  struct Case {
    std::string name;
    api::Pod pod;
    std::vector<api::Pod> existing;
    Status want_pre_filter;
    Status want_filter;
  };
  const Status kConflict(Code::kUnschedulable, kErrReason);
  const std::vector<Case> cases = {
      {"skip filter", MakePod().Obj(), {}, Status::Skip(), {}},
      {"other port", NewPod("m1", {"UDP/127.0.0.1/8080"}),
       {NewPod("m1", {"UDP/127.0.0.1/9090"})}, {}, {}},
      {"same udp port", NewPod("m1", {"UDP/127.0.0.1/8080"}),
       {NewPod("m1", {"UDP/127.0.0.1/8080"})}, {}, kConflict},
      {"same tcp port", NewPod("m1", {"TCP/127.0.0.1/8080"}),
       {NewPod("m1", {"TCP/127.0.0.1/8080"})}, {}, kConflict},
      {"different host ip", NewPod("m1", {"TCP/127.0.0.1/8080"}),
       {NewPod("m1", {"TCP/127.0.0.2/8080"})}, {}, {}},
      {"different protocol", NewPod("m1", {"UDP/127.0.0.1/8080"}),
       {NewPod("m1", {"TCP/127.0.0.1/8080"})}, {}, {}},
      {"second udp port conflict",
       NewPod("m1", {"UDP/127.0.0.1/8000", "UDP/127.0.0.1/8080"}),
       {NewPod("m1", {"UDP/127.0.0.1/8080"})}, {}, kConflict},
      {"first tcp port conflict",
       NewPod("m1", {"TCP/127.0.0.1/8001", "UDP/127.0.0.1/8080"}),
       {NewPod("m1", {"TCP/127.0.0.1/8001", "UDP/127.0.0.1/8081"})}, {},
       kConflict},
      {"first tcp port conflict due to 0.0.0.0 hostIP",
       NewPod("m1", {"TCP/0.0.0.0/8001"}),
       {NewPod("m1", {"TCP/127.0.0.1/8001"})}, {}, kConflict},
      {"TCP hostPort conflict due to 0.0.0.0 hostIP",
       NewPod("m1", {"TCP/10.0.10.10/8001", "TCP/0.0.0.0/8001"}),
       {NewPod("m1", {"TCP/127.0.0.1/8001"})}, {}, kConflict},
      {"second tcp port conflict to 0.0.0.0 hostIP",
       NewPod("m1", {"TCP/127.0.0.1/8001"}),
       {NewPod("m1", {"TCP/0.0.0.0/8001"})}, {}, kConflict},
      {"second different protocol", NewPod("m1", {"UDP/127.0.0.1/8001"}),
       {NewPod("m1", {"TCP/0.0.0.0/8001"})}, {}, {}},
      {"UDP hostPort conflict due to 0.0.0.0 hostIP",
       NewPod("m1", {"UDP/127.0.0.1/8001"}),
       {NewPod("m1", {"TCP/0.0.0.0/8001", "UDP/0.0.0.0/8001"})}, {},
       kConflict},
      // Ours: an empty IP is 0.0.0.0 and an empty protocol TCP.
      {"empty ip and protocol conflict with TCP on any ip",
       NewPod("m1", {"//8001"}), {NewPod("m1", {"TCP/10.1.1.1/8001"})}, {},
       kConflict},
      {"empty protocol is not UDP", NewPod("m1", {"/10.1.1.1/8001"}),
       {NewPod("m1", {"UDP/10.1.1.1/8001"})}, {}, {}},
      {"no pods on the node", NewPod("m1", {"TCP/127.0.0.1/8001"}), {}, {}, {}},
  };
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    NodePorts plugin;
    CycleState state;
    PodInfoPtr pod = NewPodInfo(tc.pod);
    PreFilterOutput pre = plugin.PreFilter(state, *pod, {});
    EXPECT_EQ(pre.status, tc.want_pre_filter);
    EXPECT_FALSE(pre.result.has_value());
    if (pre.status.IsSkip()) continue;
    NodeInfo info = MakeNodeInfo(MakeNode().Name("m1").Obj(), tc.existing);
    EXPECT_EQ(plugin.Filter(state, *pod, info), tc.want_filter);
  }
}

// The node's ports follow its pods: removing the conflicting pod frees the
// port (NodeInfo::used_ports is a running aggregate).
TEST(NodePortsTest, FollowsPodRemoval) {
  NodePorts plugin;
  CycleState state;
  PodInfoPtr pod = NewPodInfo(NewPod("m1", {"TCP/127.0.0.1/8080"}));
  ASSERT_TRUE(plugin.PreFilter(state, *pod, {}).status.IsSuccess());
  api::Pod holder = NewPod("m1", {"TCP/0.0.0.0/8080"});
  holder.uid = "holder";
  NodeInfo info = MakeNodeInfo(MakeNode().Name("m1").Obj(), {holder});
  EXPECT_EQ(plugin.Filter(state, *pod, info).code(), Code::kUnschedulable);
  ASSERT_TRUE(info.RemovePod("holder"));
  EXPECT_TRUE(plugin.Filter(state, *pod, info).IsSuccess());
}

// A cloned state (preemption, nominated pods) answers the same.
TEST(NodePortsTest, ClonedState) {
  NodePorts plugin;
  CycleState state;
  PodInfoPtr pod = NewPodInfo(NewPod("m1", {"TCP/127.0.0.1/8080"}));
  ASSERT_TRUE(plugin.PreFilter(state, *pod, {}).status.IsSuccess());
  CycleState copy = state;
  NodeInfo info = MakeNodeInfo(MakeNode().Name("m1").Obj(),
                               {NewPod("m1", {"TCP/127.0.0.1/8080"})});
  EXPECT_EQ(plugin.Filter(copy, *pod, info),
            Status(Code::kUnschedulable, kErrReason));
}

// upstream TestPreFilterDisabled: Filter without PreFilter is an error.
TEST(NodePortsTest, UpstreamPreFilterDisabled) {
  NodePorts plugin;
  CycleState state;
  PodInfoPtr pod = NewPodInfo(MakePod().HostPort(80).Obj());
  EXPECT_EQ(plugin.Filter(state, *pod, MakeNodeInfo(MakeNode().Obj())),
            Status::Error("reading \"PreFilterNodePorts\" from cycleState: "
                          "not found"));
}

// upstream TestGetContainerPorts (one pod at a time): hostPort 0 is not a
// host port; PodInfo's precomputed list agrees.
TEST(NodePortsTest, UpstreamGetContainerPorts) {
  api::Pod pod = MakePod()
                     .ContainerPort({{8001, 8001, "TCP", ""},
                                     {8002, 8002, "TCP", ""}})
                     .ContainerPort({{8003, 8003, "TCP", ""},
                                     {8004, 8004, "TCP", ""}})
                     .ContainerPort({{8005, 0, "TCP", ""}})
                     .Obj();
  std::vector<int32_t> host_ports;
  for (const auto& p : ContainerHostPorts(pod)) host_ports.push_back(p.host_port);
  EXPECT_EQ(host_ports, (std::vector<int32_t>{8001, 8002, 8003, 8004}));
  EXPECT_EQ(ContainerHostPorts(pod), NewPodInfo(pod)->host_ports);
}

// v1.32: init containers' (including sidecars') ports are not host ports.
TEST(NodePortsTest, InitContainerPortsIgnored) {
  api::Container sidecar;
  sidecar.name = "sidecar";
  sidecar.restart_policy = "Always";
  sidecar.ports = {{80, 80, "TCP", ""}};
  api::Pod pod = MakePod().InitContainer(sidecar).Obj();
  EXPECT_TRUE(ContainerHostPorts(pod).empty());
  NodePorts plugin;
  CycleState state;
  EXPECT_EQ(plugin.PreFilter(state, *NewPodInfo(pod), {}).status, Status::Skip());
}

// upstream Test_isSchedulableAfterPodDeleted (the wrong-object row does not
// exist here: EventObjects is typed).
TEST(NodePortsTest, UpstreamIsSchedulableAfterPodDeleted) {
  const api::Pod pod = MakePod().HostPort(8080).Obj();
  struct Case {
    std::string name;
    std::optional<api::Pod> deleted;
    QueueingHint expected;
  };
  const std::vector<Case> cases = {
      {"skip-queue-without-old-object", std::nullopt, QueueingHint::kSkip},
      {"skip-queue-on-unscheduled", MakePod().HostPort(8080).Obj(),
       QueueingHint::kSkip},
      {"skip-queue-on-non-hostport", MakePod().Node("fake-node").Obj(),
       QueueingHint::kSkip},
      {"skip-queue-on-unrelated-hostport",
       MakePod().Node("fake-node").HostPort(8081).Obj(), QueueingHint::kSkip},
      {"queue-on-released-hostport",
       MakePod().Node("fake-node").HostPort(8080).Obj(), QueueingHint::kQueue},
      // Ours: a freed 0.0.0.0 port helps a pod wanting it on one IP.
      {"queue-on-released-wildcard-ip",
       NewPod("fake-node", {"TCP/0.0.0.0/8080"}), QueueingHint::kQueue},
  };
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    EventObjects objects;
    if (tc.deleted) objects.old_pod = &*tc.deleted;
    auto got = NodePorts::IsSchedulableAfterPodDeleted(pod, objects);
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(*got, tc.expected);
  }
}

TEST(NodePortsTest, EventsToRegister) {
  std::vector<ClusterEventWithHint> events = NodePorts().EventsToRegister();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].event.resource, EventResource::kPod);
  EXPECT_EQ(events[0].event.action, kDelete);
  EXPECT_TRUE(static_cast<bool>(events[0].hint));
  EXPECT_EQ(events[1].event.resource, EventResource::kNode);
  EXPECT_EQ(events[1].event.action, kAdd);
  EXPECT_FALSE(static_cast<bool>(events[1].hint));
}

TEST(NodePortsTest, NewAndName) {
  auto plugin = NodePorts::New(nlohmann::json::object(), nullptr);
  ASSERT_TRUE(plugin.ok());
  EXPECT_EQ((*plugin)->Name(), "NodePorts");
}

}  // namespace
}  // namespace schedref::optimized::framework::plugins::nodeports
