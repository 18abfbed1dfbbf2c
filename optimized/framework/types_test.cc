#include "optimized/framework/types.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "api/types/resource.h"
#include "testing/st/wrappers.h"

namespace schedref::optimized::framework {
namespace {

// NewPodInfo's requests and non-zero requests are api::PodRequestList's
// (plain and with the 100m / 200Mi defaults for missing requests), with or
// without init containers.
TEST(PodInfoTest, RequestsAreThePodRequestLists) {
  struct Case {
    std::string name;
    api::Pod pod;
  };
  const std::vector<Case> cases = {
      {"no containers", st::MakePod().Name("p").Obj()},
      {"one container", st::MakePod().Name("p").Req({{"cpu", "1"}, {"memory", "1Gi"}}).Obj()},
      {"missing memory, zero cpu",
       st::MakePod().Name("p").Req({{"cpu", "0"}}).Req({{"example.com/gpu", "2"}}).Obj()},
      {"overhead and ephemeral storage",
       st::MakePod()
           .Name("p")
           .Req({{"cpu", "250m"}, {"ephemeral-storage", "1Gi"}})
           .Req({{"memory", "64Mi"}})
           .Overhead({{"cpu", "50m"}, {"memory", "10Mi"}})
           .Obj()},
      {"init and sidecar containers",
       st::MakePod()
           .Name("p")
           .Req({{"cpu", "100m"}})
           .InitReq({{"cpu", "2"}, {"memory", "1Gi"}})
           .SidecarReq({{"cpu", "300m"}})
           .Overhead({{"cpu", "10m"}})
           .Obj()},
  };
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    const PodInfoPtr info = NewPodInfo(tc.pod);
    Resource want;
    want.AddList(api::PodRequestList(tc.pod));
    EXPECT_EQ(info->requests.milli_cpu, want.milli_cpu);
    EXPECT_EQ(info->requests.memory, want.memory);
    EXPECT_EQ(info->requests.ephemeral_storage, want.ephemeral_storage);
    EXPECT_EQ(info->requests.scalar, want.scalar);
    api::PodResourcesOptions non_zero;
    non_zero.non_missing_container_requests = {
        {api::kResourceCpu, api::kDefaultMilliCpuRequest},
        {api::kResourceMemory, api::kDefaultMemoryRequest}};
    api::ResourceList nz = api::PodRequestList(tc.pod, non_zero);
    EXPECT_EQ(info->non_zero_milli_cpu, nz[api::kResourceCpu]);
    EXPECT_EQ(info->non_zero_memory, nz[api::kResourceMemory]);
  }
  // The defaults stand in for missing requests only.
  const PodInfoPtr zero = NewPodInfo(st::MakePod().Name("p").Req({{"cpu", "0"}}).Obj());
  EXPECT_EQ(zero->non_zero_milli_cpu, 0);
  EXPECT_EQ(zero->non_zero_memory, api::kDefaultMemoryRequest);
}

// ns/p with a priority, a cpu request and a host port: what PodInfo derives.
st::PodWrapper SamplePod() {
  return std::move(
      st::MakePod().Namespace("ns").Name("p").Priority(7).Req({{"cpu", "250m"}}).HostPort(8080));
}

// A borrowing PodInfo reads the caller's pod object and derives what an
// owning one derives; copies refer to the same object, owned or not.
TEST(PodInfoTest, BorrowingAndOwningDeriveAlike) {
  const api::Pod pod = SamplePod().PodAffinityExists("team", "zone").Obj();
  const PodInfoPtr owned = NewPodInfo(pod);
  const PodInfoPtr borrowed = BorrowingPodInfo(pod);
  EXPECT_EQ(&borrowed->pod, &pod);
  EXPECT_NE(&owned->pod, &pod);
  EXPECT_EQ(owned->pod, pod);
  for (const PodInfoPtr& info : {owned, borrowed}) {
    EXPECT_EQ(info->key, "ns/p");
    EXPECT_EQ(info->priority, 7);
    EXPECT_EQ(info->requests.milli_cpu, 250);
    EXPECT_EQ(info->host_ports.size(), 1u);
    EXPECT_EQ(info->required_affinity_terms.size(), 1u);
  }
  const PodInfo owned_copy(*owned);
  const PodInfo borrowed_copy(*borrowed);
  EXPECT_EQ(&owned_copy.pod, &owned->pod);
  EXPECT_EQ(&borrowed_copy.pod, &pod);
  // A changed copy owns its pod and keeps the derived members.
  api::Pod bound = pod;
  bound.node_name = "n1";
  const PodInfo changed(*borrowed, bound);
  EXPECT_NE(&changed.pod, &pod);
  EXPECT_EQ(changed.pod.node_name, "n1");
  EXPECT_EQ(changed.key, "ns/p");
  EXPECT_EQ(changed.requests.milli_cpu, 250);
}

TEST(PodInfoTest, ABoundPodInfoSharesThePodAndNamesItsNode) {
  const api::Pod pod = SamplePod().Obj();
  for (const PodInfoPtr& unbound : {NewPodInfo(pod), BorrowingPodInfo(pod)}) {
    EXPECT_EQ(unbound->node_name(), "");
    EXPECT_FALSE(unbound->binds_node());
    std::optional<api::Pod> scratch;
    EXPECT_EQ(&MaterializedPod(*unbound, &scratch), &unbound->pod);
    EXPECT_FALSE(scratch.has_value());

    const PodInfoPtr bound = BoundPodInfo(*unbound, "n1");
    EXPECT_EQ(&bound->pod, &unbound->pod);  // not copied
    EXPECT_EQ(bound->pod.node_name, "");
    EXPECT_EQ(bound->node_name(), "n1");
    EXPECT_TRUE(bound->binds_node());
    EXPECT_EQ(bound->key, "ns/p");
    EXPECT_EQ(bound->priority, 7);
    EXPECT_EQ(bound->requests.milli_cpu, 250);
    EXPECT_EQ(bound->host_ports.size(), 1u);
    // A copy binds the same node.
    const PodInfo copy(*bound);
    EXPECT_EQ(copy.node_name(), "n1");
    EXPECT_EQ(&copy.pod, &unbound->pod);
    // Materialized: the pod with spec.nodeName set, nothing else changed.
    api::Pod want = pod;
    want.node_name = "n1";
    const api::Pod& materialized = MaterializedPod(*bound, &scratch);
    EXPECT_EQ(&materialized, &*scratch);
    EXPECT_EQ(materialized, want);
  }
}

// Assigning a PodInfoList makes it equal to the source whatever the two
// lengths, and keeps the very PodInfos (not copies) in every slot.
TEST(PodInfoListTest, AssignmentYieldsTheSourceList) {
  std::vector<PodInfoPtr> pods;
  for (int i = 0; i < 5; ++i) {
    pods.push_back(NewPodInfo(st::MakePod().Name("p" + std::to_string(i)).Obj()));
  }
  auto list = [&](std::vector<int> indices) {
    PodInfoList out;
    for (int i : indices) out.push_back(pods[i]);
    return out;
  };
  struct Case {
    std::string name;
    std::vector<int> before;
    std::vector<int> source;
  };
  const std::vector<Case> cases = {
      {"empty to empty", {}, {}},
      {"into empty", {}, {0, 1}},
      {"to empty", {0, 1}, {}},
      {"one appended", {0, 1}, {0, 1, 2}},
      {"one removed from the middle", {0, 1, 2}, {0, 2}},
      {"one moved to the back", {0, 1, 2}, {0, 2, 1}},
      {"all different, shorter", {0, 1, 2, 3}, {4, 3}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    PodInfoList target = list(c.before);
    const PodInfoList source = list(c.source);
    target = source;
    ASSERT_EQ(target.size(), source.size());
    for (size_t i = 0; i < source.size(); ++i) EXPECT_EQ(target[i].get(), source[i].get());
  }
  // Every PodInfo is referenced by `pods` and nothing else now.
  for (const PodInfoPtr& p : pods) EXPECT_EQ(p.use_count(), 1);
}

TEST(HostPortInfoTest, ConflictRules) {
  struct Case {
    std::string name, used_ip, used_proto;
    int32_t used_port;
    std::string ip, proto;
    int32_t port;
    bool conflict;
  };
  const Case cases[] = {
      {"same triple", "127.0.0.1", "TCP", 80, "127.0.0.1", "TCP", 80, true},
      {"other protocol", "127.0.0.1", "TCP", 80, "127.0.0.1", "UDP", 80, false},
      {"other ip", "127.0.0.1", "TCP", 80, "127.0.0.2", "TCP", 80, false},
      {"wanted on 0.0.0.0", "127.0.0.1", "TCP", 80, "0.0.0.0", "TCP", 80, true},
      {"used on 0.0.0.0", "0.0.0.0", "TCP", 80, "127.0.0.1", "TCP", 80, true},
      {"empty ip and protocol default", "", "", 80, "0.0.0.0", "TCP", 80, true},
      {"port 0 never conflicts", "", "", 0, "", "", 0, false},
  };
  for (const Case& c : cases) {
    HostPortInfo info;
    info.Add(c.used_ip, c.used_proto, c.used_port);
    EXPECT_EQ(info.CheckConflict(c.ip, c.proto, c.port), c.conflict) << c.name;
  }
}

// Upstream's set (the quirk in docs/deviations.md, "Upstream quirks
// reproduced"): two pods (pre-bound, so NodePorts never compared them)
// declare one triple; removing either frees it.
TEST(HostPortInfoTest, RemoveFreesATripleAnotherPodDeclares) {
  HostPortInfo info;
  info.Add("", "TCP", 80);
  info.Add("0.0.0.0", "", 80);
  info.Add("127.0.0.1", "TCP", 80);
  info.Remove("0.0.0.0", "TCP", 80);
  // 0.0.0.0's entry is gone; 127.0.0.1's stays (no wildcard removal).
  EXPECT_TRUE(info.CheckConflict("", "", 80));
  EXPECT_FALSE(info.CheckConflict("127.0.0.2", "TCP", 80));
  info.Remove("127.0.0.1", "TCP", 80);
  EXPECT_FALSE(info.CheckConflict("", "", 80));
  EXPECT_TRUE(info.empty());
  info.Remove("", "", 80);  // absent: nothing to do
  EXPECT_TRUE(info.empty());
}

TEST(NodeInfoTest, RemovePodDropsSharedHostPortUntilReAdded) {
  auto with_port = [](const std::string& name) {
    return NewPodInfo(st::MakePod().Name(name).UID(name).Node("n").HostPort(8080).Obj());
  };
  const PodInfoPtr a = with_port("a");
  const PodInfoPtr b = with_port("b");
  NodeInfo info(std::make_shared<const api::Node>(st::MakeNode().Name("n").Obj()));
  info.AddPod(a);
  info.AddPod(b);
  ASSERT_TRUE(info.RemovePod("a"));
  EXPECT_FALSE(info.used_ports().CheckConflict("", "TCP", 8080));  // b still declares it
  info.MoveToBack(*b);  // upstream's update: remove then add b
  EXPECT_TRUE(info.used_ports().CheckConflict("", "TCP", 8080));
  ASSERT_TRUE(info.RemovePod("b"));
  info.AddPod(a);
  EXPECT_TRUE(info.used_ports().CheckConflict("", "TCP", 8080));
}

TEST(NodeInfoTest, AggregatesFollowAddAndRemove) {
  api::Node node = st::MakeNode().Name("n").Capacity({{"cpu", "4"}, {"pods", "10"}}).Obj();
  NodeInfo info(std::make_shared<const api::Node>(node));
  const int64_t gen0 = info.generation;
  api::Pod a = st::MakePod().Name("a").Req({{"cpu", "1"}, {"memory", "1Gi"}}).Obj();
  api::Pod b = st::MakePod().Name("b").Req({}).Obj();  // one container, no requests
  api::Pod c = st::MakePod().Name("c").Req({{"example.com/gpu", "2"}}).Obj();
  info.AddPod(NewPodInfo(a));
  info.AddPod(NewPodInfo(b));
  info.AddPod(NewPodInfo(c));
  EXPECT_GT(info.generation, gen0);
  EXPECT_EQ(info.allocatable().milli_cpu, 4000);
  EXPECT_EQ(info.allocatable().allowed_pod_number, 10);
  EXPECT_EQ(info.requested().milli_cpu, 1000);
  EXPECT_EQ(info.requested().memory, int64_t{1} << 30);
  EXPECT_EQ(info.requested().Scalar("example.com/gpu"), 2);
  // b counts 100m / 200Mi; c has no cpu/memory request either.
  EXPECT_EQ(info.non_zero_milli_cpu(), 1000 + 100 + 100);
  EXPECT_EQ(info.non_zero_memory(), (int64_t{1} << 30) + 2 * 200 * 1024 * 1024);

  ASSERT_TRUE(info.RemovePod("default/a"));
  EXPECT_FALSE(info.RemovePod("default/a"));
  EXPECT_EQ(info.requested().milli_cpu, 0);
  // Upstream's order rule: the last pod takes the removed one's slot.
  ASSERT_EQ(info.pods().size(), 2u);
  EXPECT_EQ(info.pods()[0]->key, "default/c");
  EXPECT_EQ(info.pods()[1]->key, "default/b");
}

TEST(NodeInfoTest, MaxPodPriorityFollowsAddAndRemove) {
  NodeInfo info(std::make_shared<const api::Node>(st::MakeNode().Name("n").Obj()));
  EXPECT_EQ(info.max_pod_priority(), INT32_MIN);
  struct Step {
    const char* what;
    bool add;  // else remove
    const char* pod;
    int32_t priority;  // when added
    int32_t want;
  };
  const Step steps[] = {
      {"add low", true, "low", -5, -5},
      {"add high", true, "high", 7, 7},
      {"add middle", true, "mid", 3, 7},
      {"remove high: the next highest", false, "high", 0, 3},
      {"remove low: unchanged", false, "low", 0, 3},
      {"remove the last", false, "mid", 0, INT32_MIN},
  };
  for (const Step& step : steps) {
    SCOPED_TRACE(step.what);
    if (step.add) {
      info.AddPod(NewPodInfo(st::MakePod().Name(step.pod).Priority(step.priority).Obj()));
    } else {
      ASSERT_TRUE(info.RemovePod(std::string("default/") + step.pod));
    }
    EXPECT_EQ(info.max_pod_priority(), step.want);
  }
}

TEST(PodInfoTest, AffinityTermNamespacesAndMatchLabelKeys) {
  api::Pod p = st::MakePod().Namespace("ns").Name("p").Label("app", "web").Obj();
  api::PodAffinityTerm term;
  term.label_selector = api::LabelSelector{};
  term.topology_key = "zone";
  term.match_label_keys = {"app", "absent"};
  AffinityTerm t = MakeAffinityTerm(p, term);
  EXPECT_EQ(t.namespaces, std::set<std::string>{"ns"});
  ASSERT_TRUE(t.selector.has_value());
  ASSERT_EQ(t.selector->match_expressions.size(), 1u);
  EXPECT_EQ(t.selector->match_expressions[0].op, "In");
  EXPECT_EQ(t.selector->match_expressions[0].values, std::vector<std::string>{"web"});

  term.namespace_selector = api::LabelSelector{};
  EXPECT_TRUE(MakeAffinityTerm(p, term).namespaces.empty());
}

}  // namespace
}  // namespace schedref::optimized::framework
