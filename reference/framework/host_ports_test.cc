#include "reference/framework/host_ports.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "reference/framework/testing/wrappers.h"

namespace schedref::reference::framework {
namespace {

struct Param {
  std::string protocol, ip;
  int32_t port;
};

// Transcribed from upstream pkg/scheduler/framework/types_test.go
// TestHostPortInfo_AddRemove (the table was read from its older home,
// pkg/scheduler/util/utils_test.go; it is unchanged through v1.32).
TEST(HostPortInfoTest, UpstreamAddRemove) {
  struct Case {
    std::string name;
    std::vector<Param> added, removed;
    size_t length;
  };
  const std::vector<Param> eight = {
      {"TCP", "127.0.0.1", 79}, {"UDP", "127.0.0.1", 80},
      {"TCP", "127.0.0.1", 81}, {"TCP", "127.0.0.1", 82},
      {"TCP", "0.0.0.0", 79},   {"UDP", "0.0.0.0", 80},
      {"TCP", "0.0.0.0", 81},   {"TCP", "0.0.0.0", 82}};
  std::vector<Param> eight_with_invalid = eight;
  eight_with_invalid.push_back({"TCP", "0.0.0.0", 0});
  eight_with_invalid.push_back({"TCP", "0.0.0.0", -1});
  const std::vector<Case> cases = {
      {"normal add case", eight_with_invalid, {}, 8},
      {"empty ip and protocol add should work",
       {{"", "127.0.0.1", 79},
        {"UDP", "127.0.0.1", 80},
        {"", "127.0.0.1", 81},
        {"", "127.0.0.1", 82},
        {"", "", 79},
        {"UDP", "", 80},
        {"", "", 81},
        {"", "", 82},
        {"", "", 0},
        {"", "", -1}},
       {},
       8},
      {"normal remove case", eight, eight, 0},
      {"empty ip and protocol remove should work",
       eight,
       {{"", "127.0.0.1", 79},
        {"", "127.0.0.1", 81},
        {"", "127.0.0.1", 82},
        {"UDP", "127.0.0.1", 80},
        {"", "", 79},
        {"", "", 81},
        {"", "", 82},
        {"UDP", "", 80}},
       0},
  };
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    HostPortInfo hp;
    for (const Param& p : tc.added) hp.Add(p.ip, p.protocol, p.port);
    for (const Param& p : tc.removed) hp.Remove(p.ip, p.protocol, p.port);
    EXPECT_EQ(hp.Len(), tc.length);
  }
}

// Upstream TestHostPortInfo_Check.
TEST(HostPortInfoTest, UpstreamCheck) {
  struct Case {
    std::string name;
    std::vector<Param> added;
    Param check;
    bool expect;
  };
  const std::vector<Case> cases = {
      {"empty check should check 0.0.0.0 and TCP",
       {{"TCP", "127.0.0.1", 80}},
       {"", "", 81},
       false},
      {"empty check should check 0.0.0.0 and TCP (conflicted)",
       {{"TCP", "127.0.0.1", 80}},
       {"", "", 80},
       true},
      {"empty port check should pass",
       {{"TCP", "127.0.0.1", 80}},
       {"", "", 0},
       false},
      {"0.0.0.0 should check all registered IPs",
       {{"TCP", "127.0.0.1", 80}},
       {"TCP", "0.0.0.0", 80},
       true},
      {"0.0.0.0 with different protocol should be allowed",
       {{"UDP", "127.0.0.1", 80}},
       {"TCP", "0.0.0.0", 80},
       false},
      {"0.0.0.0 with different port should be allowed",
       {{"TCP", "127.0.0.1", 79},
        {"TCP", "127.0.0.1", 81},
        {"TCP", "127.0.0.1", 82}},
       {"TCP", "0.0.0.0", 80},
       false},
      {"normal ip should check all registered 0.0.0.0",
       {{"TCP", "0.0.0.0", 80}},
       {"TCP", "127.0.0.1", 80},
       true},
      {"normal ip with different port/protocol should be allowed (0.0.0.0)",
       {{"TCP", "0.0.0.0", 79},
        {"UDP", "0.0.0.0", 80},
        {"TCP", "0.0.0.0", 81},
        {"TCP", "0.0.0.0", 82}},
       {"TCP", "127.0.0.1", 80},
       false},
      {"normal ip with different port/protocol should be allowed",
       {{"TCP", "127.0.0.1", 79},
        {"UDP", "127.0.0.1", 80},
        {"TCP", "127.0.0.1", 81},
        {"TCP", "127.0.0.1", 82}},
       {"TCP", "127.0.0.1", 80},
       false},
      // Our own: a different specific IP does not conflict.
      {"other ip does not conflict",
       {{"TCP", "127.0.0.1", 80}},
       {"TCP", "10.0.0.1", 80},
       false},
  };
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    HostPortInfo hp;
    for (const Param& p : tc.added) hp.Add(p.ip, p.protocol, p.port);
    EXPECT_EQ(hp.CheckConflict(tc.check.ip, tc.check.protocol, tc.check.port),
              tc.expect);
  }
}

// v1.32 counts regular containers only: neither init containers nor
// sidecars (restartable init containers) hold host ports for the scheduler.
TEST(PodHostPortsTest, RegularContainersOnly) {
  api::Container sidecar;
  sidecar.name = "sidecar";
  sidecar.restart_policy = "Always";
  sidecar.ports = {{0, 8080, "TCP", ""}};
  api::Container init;
  init.name = "init";
  init.ports = {{0, 9090, "TCP", ""}};
  api::Pod pod = st::MakePod()
                     .InitContainer(init)
                     .InitContainer(sidecar)
                     .HostPort(80)
                     .ContainerPort({{8000, 0, "TCP", ""}, {81, 81, "UDP", ""}})
                     .Obj();
  std::vector<api::ContainerPort> ports = PodHostPorts(pod);
  ASSERT_EQ(ports.size(), 2u);
  EXPECT_EQ(ports[0].host_port, 80);
  EXPECT_EQ(ports[1].host_port, 81);

  HostPortInfo used = NodeUsedPorts(st::MakeNodeInfoWithoutNode({pod}));
  EXPECT_EQ(used.Len(), 2u);
  EXPECT_TRUE(used.CheckConflict("", "", 80));
  EXPECT_TRUE(used.CheckConflict("", "UDP", 81));
  EXPECT_FALSE(used.CheckConflict("", "", 8080));
  EXPECT_FALSE(used.CheckConflict("", "", 9090));
}

// Upstream's quirk reproduced (docs/deviations.md, "Upstream quirks
// reproduced"): of two pods declaring one triple, removing either frees
// it; adding a pod that declares it uses it again.
TEST(NodeUsedPortsTest, RemovePodDropsATripleAnotherPodDeclares) {
  const api::Pod a = st::MakePod().Name("a").UID("a").HostPort(8080).Obj();
  const api::Pod b = st::MakePod().Name("b").UID("b").HostPort(8080).Obj();
  api::Pod other_ip = st::MakePod().Name("c").UID("c").Obj();
  other_ip.containers = {api::Container{}};
  other_ip.containers[0].name = "c";
  other_ip.containers[0].ports = {{8080, 8080, "TCP", "127.0.0.1"}};
  NodeInfo info = st::MakeNodeInfoWithoutNode({});
  info.AddPod(a);
  info.AddPod(b);
  info.AddPod(other_ip);
  EXPECT_EQ(NodeUsedPorts(info).Len(), 2u);
  ASSERT_TRUE(info.RemovePod(a));
  // 0.0.0.0/TCP/8080 is gone although b declares it; 127.0.0.1's stays.
  HostPortInfo used = NodeUsedPorts(info);
  EXPECT_EQ(used.Len(), 1u);
  EXPECT_FALSE(used.CheckConflict("127.0.0.2", "TCP", 8080));
  EXPECT_TRUE(used.CheckConflict("127.0.0.1", "TCP", 8080));
  // Upstream's update of b: remove then add b; its port is used again.
  ASSERT_TRUE(info.RemovePod(b));
  EXPECT_TRUE(info.dropped_ports.empty());  // no pod declares it any more
  info.AddPod(b);
  EXPECT_EQ(NodeUsedPorts(info).Len(), 2u);
  // Removing a pod whose triple no other pod declares drops nothing else.
  ASSERT_TRUE(info.RemovePod(other_ip));
  EXPECT_EQ(NodeUsedPorts(info).Len(), 1u);
  EXPECT_TRUE(info.dropped_ports.empty());
}

}  // namespace
}  // namespace schedref::reference::framework
