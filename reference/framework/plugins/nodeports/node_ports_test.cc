#include "reference/framework/plugins/nodeports/node_ports.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "reference/framework/testing/wrappers.h"

namespace schedref::reference::framework::plugins::nodeports {
namespace {

using st::MakePod;

// upstream newPod(host, "PROTO/IP/PORT"...).
api::Pod NewPod(const std::string& host, std::vector<std::string> infos) {
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

// Transcribed from upstream node_ports_test.go TestNodePorts.
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
  };
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    NodePorts plugin;
    CycleState state;
    PreFilterOutput pre = plugin.PreFilter(state, tc.pod, {});
    EXPECT_EQ(pre.status, tc.want_pre_filter);
    EXPECT_FALSE(pre.result.has_value());
    if (pre.status.IsSkip()) continue;
    NodeInfo info = st::MakeNodeInfo(st::MakeNode().Name("m1").Obj(),
                                     tc.existing);
    EXPECT_EQ(plugin.Filter(state, tc.pod, info), tc.want_filter);
  }
}

// Upstream TestPreFilterDisabled: Filter without PreFilter is an error.
TEST(NodePortsTest, UpstreamPreFilterDisabled) {
  NodePorts plugin;
  CycleState state;
  Status s = plugin.Filter(state, MakePod().Obj(),
                           st::MakeNodeInfo(st::MakeNode().Obj()));
  EXPECT_EQ(s.code(), Code::kError);
}

// Upstream TestGetContainerPorts (one pod at a time here).
TEST(NodePortsTest, UpstreamGetContainerPorts) {
  api::Pod pod = MakePod()
                     .ContainerPort({{8001, 8001, "TCP", ""},
                                     {8002, 8002, "TCP", ""}})
                     .ContainerPort({{8003, 8003, "TCP", ""},
                                     {8004, 8004, "TCP", ""}})
                     .ContainerPort({{8005, 0, "TCP", ""}})
                     .Obj();
  std::vector<api::ContainerPort> got = PodHostPorts(pod);
  std::vector<int32_t> host_ports;
  for (const auto& p : got) host_ports.push_back(p.host_port);
  EXPECT_EQ(host_ports, (std::vector<int32_t>{8001, 8002, 8003, 8004}));
}

// Upstream Test_isSchedulableAfterPodDeleted.
TEST(NodePortsTest, UpstreamIsSchedulableAfterPodDeleted) {
  const api::Pod pod = MakePod().HostPort(8080).Obj();
  struct Case {
    std::string name;
    EventObject old_obj;
    QueueingHint expected;
    bool want_err;
  };
  const std::vector<Case> cases = {
      {"backoff-wrong-old-object", st::MakeNode().Obj(), QueueingHint::kQueue,
       true},
      {"skip-queue-on-unscheduled", MakePod().Obj(), QueueingHint::kSkip,
       false},
      {"skip-queue-on-non-hostport", MakePod().Node("fake-node").Obj(),
       QueueingHint::kSkip, false},
      {"skip-queue-on-unrelated-hostport",
       MakePod().Node("fake-node").HostPort(8081).Obj(), QueueingHint::kSkip,
       false},
      {"queue-on-released-hostport",
       MakePod().Node("fake-node").HostPort(8080).Obj(), QueueingHint::kQueue,
       false},
  };
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto got = NodePorts::IsSchedulableAfterPodDeleted(pod, tc.old_obj,
                                                       std::monostate{});
    EXPECT_EQ(!got.ok(), tc.want_err);
    if (got.ok()) {
      EXPECT_EQ(*got, tc.expected);
    }
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

}  // namespace
}  // namespace schedref::reference::framework::plugins::nodeports
