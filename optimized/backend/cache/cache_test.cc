// Ported from reference/backend/cache/cache_test.cc, itself transcribed
// from upstream pkg/scheduler/internal/cache/cache_test.go
// (kubernetes/kubernetes@02850301e61b0491a6efad7fb440dfa1b03cfc96; the pod
// state machine is unchanged through v1.32's backend/cache). Upstream
// compares whole NodeInfos including their aggregates (Requested, UsedPorts,
// ...); the reference NodeInfo holds only the node and its pods, so the
// transcriptions compare those (the aggregates are the framework's to test).
#include "optimized/backend/cache/cache.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "gtest/gtest.h"
#include "testing/st/wrappers.h"

namespace schedref::optimized::backend::cache {
namespace {

constexpr int64_t kSecond = 1000;

// upstream makeBasePod: one container with cpu/memory requests and ports.
api::Pod MakeBasePod(const std::string& node_name, const std::string& name,
                     const std::string& cpu, const std::string& mem,
                     std::vector<api::ContainerPort> ports = {}) {
  api::Container c;
  c.name = "container";
  c.image = "pause";
  if (!cpu.empty()) {
    c.requests = st::ParseResourceList({{"cpu", cpu}, {"memory", mem}});
  }
  c.ports = std::move(ports);
  return st::MakePod()
      .Namespace("node_info_cache_test")
      .Name(name)
      .UID(name)
      .Node(node_name)
      .Container(c)
      .Obj();
}

std::vector<api::ContainerPort> HostPort(int32_t port) {
  return {api::ContainerPort{port, port, "TCP", "127.0.0.1"}};
}

// The reference's UpdateSnapshot() returns a snapshot and remembers its
// order; the optimized cache refreshes the snapshot its caller keeps, so
// each test cache keeps one, as the scheduler does.
class TestCache : public Cache {
 public:
  using Cache::Cache;
  const framework::Snapshot& Snapshot() {
    (void)UpdateSnapshot(snapshot_);
    return snapshot_;
  }

 private:
  framework::Snapshot snapshot_;
};

std::vector<api::Pod> PodsOf(const framework::NodeInfo& info) {
  std::vector<api::Pod> pods;
  for (const framework::PodInfoPtr& p : info.pods()) pods.push_back(p->pod);
  return pods;
}

std::vector<std::string> PodNames(const framework::NodeInfo& info) {
  std::vector<std::string> names;
  for (const framework::PodInfoPtr& p : info.pods()) names.push_back(p->pod.name);
  return names;
}

// The pods the cache holds for `node`; nullopt iff it holds no NodeInfo.
std::optional<std::vector<api::Pod>> PodsOn(const Cache& cache,
                                            const std::string& node) {
  const framework::NodeInfo* info = cache.GetNodeInfo(node);
  if (info == nullptr) return std::nullopt;
  return PodsOf(*info);
}

// The cached object for pod's UID.
std::optional<api::Pod> Cached(const Cache& cache, const api::Pod& pod) {
  framework::PodInfoPtr p = cache.GetPod(pod);
  if (p == nullptr) return std::nullopt;
  return p->pod;
}

// upstream isForgottenFromCache
void ExpectForgotten(const Cache& cache, const api::Pod& pod) {
  EXPECT_FALSE(cache.IsAssumedPod(pod)) << pod.name << " still assumed";
  EXPECT_FALSE(Cached(cache, pod).has_value()) << pod.name << " still cached";
}

void AssumeAndFinishBinding(Cache& cache, const api::Pod& pod,
                            api::TimeMs assumed_time) {
  ASSERT_TRUE(cache.AssumePod(pod).ok());
  ASSERT_TRUE(cache.FinishBinding(pod, assumed_time).ok());
}

// upstream TestAssumePodScheduled
TEST(CacheTest, AssumePodScheduled) {
  const std::string node = "node";
  std::vector<api::Pod> pods = {
      MakeBasePod(node, "test", "100m", "500", HostPort(80)),
      MakeBasePod(node, "test-1", "100m", "500", HostPort(80)),
      MakeBasePod(node, "test-2", "200m", "1Ki", HostPort(8080)),
      MakeBasePod(node, "test-nonzero", "", "", HostPort(80)),
  };
  const std::vector<std::vector<api::Pod>> cases = {
      {pods[0]}, {pods[1], pods[2]}, {pods[3]}};
  for (const std::vector<api::Pod>& assumed : cases) {
    TestCache cache;
    for (const api::Pod& pod : assumed) {
      ASSERT_TRUE(cache.AssumePod(pod).ok());
      // pod already in cache so can't be assumed
      schedref::Status again = cache.AssumePod(pod);
      EXPECT_TRUE(again.IsFailedPrecondition());
      EXPECT_EQ(again.message(), "pod " + pod.uid + "(node_info_cache_test/" +
                                     pod.name +
                                     ") is in the cache, so can't be assumed");
    }
    EXPECT_EQ(PodsOn(cache, node), assumed);
    for (const api::Pod& pod : assumed) {
      ASSERT_TRUE(cache.ForgetPod(pod).ok());
      ExpectForgotten(cache, pod);
    }
  }
}

// upstream TestExpirePod, with upstream's own TTL 0 case ("assumed pod would
// never expire") first: that is the scheduler's configuration.
TEST(CacheTest, ExpirePod) {
  const std::string node = "node";
  std::vector<api::Pod> pods = {
      MakeBasePod(node, "test-1", "100m", "500", HostPort(80)),
      MakeBasePod(node, "test-2", "200m", "1Ki", HostPort(8080)),
      MakeBasePod(node, "test-3", "200m", "1Ki", HostPort(8080)),
  };
  const api::TimeMs now = 1'000'000;
  const int64_t ttl = 10 * kSecond;
  struct Assumed {
    api::Pod pod;
    bool finish_bind = false;
    api::TimeMs assumed_time = 0;
  };
  struct Case {
    std::string name;
    std::vector<Assumed> pods;
    api::TimeMs cleanup_time;
    int64_t ttl;
    std::optional<std::vector<std::string>> want_pods;
  };
  const std::vector<Case> cases = {
      {"assumed pod would never expire",
       {{pods[0], true, now}},
       now + 3 * ttl,
       0,
       std::vector<std::string>{"test-1"}},
      {"assumed pod would expire",
       {{pods[0], true, now}},
       now + 2 * ttl,
       ttl,
       std::nullopt},
      {"first one would expire, second and third would not",
       {{pods[0], true, now}, {pods[1], true, now + 3 * ttl / 2}, {pods[2]}},
       now + 2 * ttl,
       ttl,
       // Order gets altered when removing pods.
       std::vector<std::string>{"test-3", "test-2"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    TestCache cache(Cache::Options{c.ttl});
    for (const Assumed& a : c.pods) {
      ASSERT_TRUE(cache.AssumePod(a.pod).ok());
      if (a.finish_bind) {
        ASSERT_TRUE(cache.FinishBinding(a.pod, a.assumed_time).ok());
      }
    }
    // pods that got bound and have assumedTime + ttl < cleanupTime expire
    cache.CleanupAssumedPods(c.cleanup_time);
    const framework::NodeInfo* info = cache.GetNodeInfo(node);
    if (!c.want_pods.has_value()) {
      EXPECT_EQ(info, nullptr);
    } else {
      ASSERT_NE(info, nullptr);
      EXPECT_EQ(PodNames(*info), *c.want_pods);
    }
  }
}

// Expiry never happens with the default options, even for pods whose
// binding finished long ago.
TEST(CacheTest, DefaultNeverExpires) {
  TestCache cache;
  api::Pod pod = MakeBasePod("node", "test-1", "100m", "500");
  AssumeAndFinishBinding(cache, pod, 0);
  cache.CleanupAssumedPods(int64_t{1} << 50);
  EXPECT_TRUE(cache.IsAssumedPod(pod));
  EXPECT_EQ(cache.PodCount(), 1);
}

// upstream TestAddPodWillConfirm
TEST(CacheTest, AddPodWillConfirm) {
  const std::string node = "node";
  const api::TimeMs now = 1'000'000;
  const int64_t ttl = 10 * kSecond;
  api::Pod p0 = MakeBasePod(node, "test-1", "100m", "500", HostPort(80));
  api::Pod p1 = MakeBasePod(node, "test-2", "200m", "1Ki", HostPort(8080));
  TestCache cache(Cache::Options{ttl});
  // two pods were assumed at the same time, the first one gets Add()ed
  AssumeAndFinishBinding(cache, p0, now);
  AssumeAndFinishBinding(cache, p1, now);
  ASSERT_TRUE(cache.AddPod(p0).ok());
  // pod already in added state
  schedref::Status again = cache.AddPod(p0);
  EXPECT_TRUE(again.IsFailedPrecondition());
  EXPECT_EQ(again.message(),
            "pod test-1(node_info_cache_test/test-1) was already in added "
            "state");
  cache.CleanupAssumedPods(now + 2 * ttl);
  // confirmed pods shouldn't be expired
  EXPECT_EQ(PodNames(*cache.GetNodeInfo(node)),
            std::vector<std::string>{"test-1"});
}

// The scheduler's binding hands the cache the assumed PodInfo itself; the
// cache confirms it in place. The NodeInfo must be what confirming an equal
// copy (upstream's remove-then-add) leaves: the pod moved behind the pods
// added after it, the aggregates unchanged, the pod no longer assumed.
TEST(CacheTest, AddPodOfTheAssumedPodInfoItselfConfirmsLikeACopy) {
  const api::TimeMs now = 1'000'000;
  api::Pod p0 = MakeBasePod("node", "test-0", "100m", "500", HostPort(80));
  api::Pod p1 = MakeBasePod("node", "test-1", "200m", "1Ki", HostPort(8080));
  api::Pod p2 = MakeBasePod("node", "test-2", "300m", "2Ki");
  p0.affinity = api::Affinity{};
  p0.affinity->pod_affinity = api::PodAffinity{};
  p2.affinity = p0.affinity;
  auto run = [&](bool same_object) {
    TestCache cache(Cache::Options{10 * kSecond});
    api::Node node;
    node.name = "node";
    EXPECT_TRUE(cache.AddNode(node).ok());
    const framework::PodInfoPtr assumed = framework::NewPodInfo(p0);
    EXPECT_TRUE(cache.AssumePod(assumed).ok());
    EXPECT_TRUE(cache.FinishBinding(p0, now).ok());
    EXPECT_TRUE(cache.AddPod(p1).ok());
    EXPECT_TRUE(cache.AddPod(p2).ok());
    (void)cache.Snapshot();
    EXPECT_TRUE(cache.AddPod(same_object ? assumed : framework::NewPodInfo(p0)).ok());
    EXPECT_FALSE(cache.IsAssumedPod(p0));
    EXPECT_TRUE(cache.AssumedPodUids().empty());
    // Confirmed: never expires, and a second add is refused.
    cache.CleanupAssumedPods(now + 100 * kSecond);
    EXPECT_TRUE(cache.AddPod(p0).IsFailedPrecondition());
    const framework::NodeInfo& info = *cache.GetNodeInfo("node");
    std::vector<std::string> with_affinity;
    for (const framework::PodInfoPtr& p : info.pods_with_affinity()) {
      with_affinity.push_back(p->pod.name);
    }
    // The snapshot took the change.
    const framework::NodeInfo* copy = cache.Snapshot().Get("node");
    EXPECT_NE(copy, nullptr);
    EXPECT_EQ(PodNames(*copy), PodNames(info));
    return std::make_tuple(PodNames(info), with_affinity, info.requested(),
                           info.non_zero_milli_cpu(), info.used_ports().CheckConflict("127.0.0.1", "TCP", 80));
  };
  const auto in_place = run(true);
  EXPECT_EQ(in_place, run(false));
  EXPECT_EQ(std::get<0>(in_place), (std::vector<std::string>{"test-2", "test-1", "test-0"}));
  EXPECT_EQ(std::get<1>(in_place), (std::vector<std::string>{"test-2", "test-0"}));
  EXPECT_EQ(std::get<2>(in_place).milli_cpu, 600);
  EXPECT_TRUE(std::get<4>(in_place));
}

// A BoundPodInfo shares its unbound pod's object (spec.nodeName empty) and
// names its node only in node_name(): every operation on the cache must
// treat it as the pod with spec.nodeName set, which the scheduler's
// assumed pods used to be. Each case runs once with a BoundPodInfo and
// once with a copy of the pod whose spec.nodeName is set; the statuses and
// every node's pods must agree.
TEST(CacheTest, ABoundPodInfoIsTheCopyWithItsNodeName) {
  const api::TimeMs now = 1'000'000;
  const api::Pod unbound = MakeBasePod("", "test-0", "100m", "500", HostPort(80));
  api::Pod on_node = unbound;
  on_node.node_name = "node";
  api::Pod on_other = unbound;
  on_other.node_name = "other";
  using Ops = std::function<std::vector<bool>(TestCache&, const framework::PodInfoPtr&)>;
  struct Case {
    std::string name;
    Ops ops;
  };
  const std::vector<Case> cases = {
      {"forget the PodInfo",
       [&](TestCache& c, const framework::PodInfoPtr& p) {
         return std::vector<bool>{c.AssumePod(p).ok(), c.IsAssumedPod(unbound),
                                  c.ForgetPod(*p).ok(), c.IsAssumedPod(unbound)};
       }},
      {"forget the pod object with its node",
       [&](TestCache& c, const framework::PodInfoPtr& p) {
         return std::vector<bool>{c.AssumePod(p).ok(), c.ForgetPod(on_node).ok()};
       }},
      {"forget on another node fails",
       [&](TestCache& c, const framework::PodInfoPtr& p) {
         return std::vector<bool>{c.AssumePod(p).ok(), c.ForgetPod(on_other).ok(),
                                  c.ForgetPod(*framework::BoundPodInfo(*p, "other")).ok()};
       }},
      {"confirmed by itself, then removed",
       [&](TestCache& c, const framework::PodInfoPtr& p) {
         std::vector<bool> out{c.AssumePod(p).ok(), c.FinishBinding(p->pod, now).ok(),
                               c.AddPod(p).ok(), c.IsAssumedPod(unbound)};
         (void)c.Snapshot();
         out.push_back(c.RemovePod(on_other).ok());  // another node: corrupted
         out.push_back(c.RemovePod(on_node).ok());
         out.push_back(c.RemovePod(on_node).ok());  // gone already
         return out;
       }},
      {"confirmed by a copy, then updated",
       [&](TestCache& c, const framework::PodInfoPtr& p) {
         api::Pod relabelled = on_node;
         relabelled.labels["app"] = "web";
         return std::vector<bool>{c.AssumePod(p).ok(), c.AddPod(on_node).ok(),
                                  c.IsAssumedPod(unbound), c.UpdatePod(on_node, relabelled).ok(),
                                  c.UpdatePod(relabelled, on_other).ok()};
       }},
      {"confirmed on another node",
       [&](TestCache& c, const framework::PodInfoPtr& p) {
         return std::vector<bool>{c.AssumePod(p).ok(), c.AddPod(on_other).ok()};
       }},
      {"added bound, updated with a PodInfo",
       [&](TestCache& c, const framework::PodInfoPtr& p) {
         return std::vector<bool>{c.AddPod(p).ok(),
                                  c.UpdatePod(on_node, framework::NewPodInfo(on_node)).ok(),
                                  c.UpdatePod(on_node, framework::BoundPodInfo(*p, "node")).ok(),
                                  c.RemovePod(on_node).ok()};
       }},
      {"expired after its binding",
       [&](TestCache& c, const framework::PodInfoPtr& p) {
         std::vector<bool> out{c.AssumePod(p).ok(), c.FinishBinding(on_node, now).ok()};
         c.CleanupAssumedPods(now + 100 * kSecond);
         out.push_back(c.IsAssumedPod(unbound));
         out.push_back(c.GetPod(unbound) != nullptr);
         return out;
       }},
  };
  for (const Case& tc : cases) {
    std::vector<std::vector<bool>> statuses;
    std::vector<std::vector<std::optional<std::vector<std::string>>>> nodes;
    const framework::PodInfoPtr unbound_info = framework::NewPodInfo(unbound);
    for (const framework::PodInfoPtr& pod :
         {framework::BoundPodInfo(*unbound_info, "node"), framework::NewPodInfo(on_node)}) {
      TestCache cache(Cache::Options{10 * kSecond});
      api::Node node;
      node.name = "node";
      api::Node other;
      other.name = "other";
      EXPECT_TRUE(cache.AddNode(node).ok());
      EXPECT_TRUE(cache.AddNode(other).ok());
      statuses.push_back(tc.ops(cache, pod));
      std::vector<std::optional<std::vector<std::string>>> per_node;
      for (const std::string n : {"node", "other"}) {
        const framework::NodeInfo* info = cache.GetNodeInfo(n);
        per_node.push_back(info == nullptr ? std::nullopt
                                           : std::optional<std::vector<std::string>>(PodNames(*info)));
        // The snapshot agrees with the cache.
        const framework::NodeInfo* copy = cache.Snapshot().Get(n);
        EXPECT_EQ(copy == nullptr, info == nullptr || info->node() == nullptr) << tc.name << " " << n;
        if (copy != nullptr && info != nullptr) {
          EXPECT_EQ(PodNames(*copy), PodNames(*info)) << tc.name << " " << n;
          EXPECT_EQ(copy->requested().milli_cpu, info->requested().milli_cpu) << tc.name;
        }
      }
      nodes.push_back(per_node);
    }
    EXPECT_EQ(statuses[0], statuses[1]) << tc.name;
    EXPECT_EQ(nodes[0], nodes[1]) << tc.name;
  }
}

// AssumePod's node hint only saves a lookup: a hint naming another node,
// or the copy of a node since removed and added again, is not followed.
TEST(CacheTest, AssumePodFollowsOnlyAHintForTheRightLiveNode) {
  TestCache cache;
  api::Node a, b;
  a.name = "a";
  b.name = "b";
  ASSERT_TRUE(cache.AddNode(a).ok());
  ASSERT_TRUE(cache.AddNode(b).ok());
  framework::Snapshot snapshot;
  (void)cache.UpdateSnapshot(snapshot);
  const framework::NodeInfo* hint_a = snapshot.Get("a");
  ASSERT_NE(hint_a, nullptr);
  ASSERT_GE(hint_a->cache_id, 0);

  // The right hint.
  ASSERT_TRUE(cache.AssumePod(framework::NewPodInfo(MakeBasePod("a", "p1", "100m", "500")),
                              hint_a).ok());
  EXPECT_EQ(PodNames(*cache.GetNodeInfo("a")), std::vector<std::string>{"p1"});
  // A hint for another node.
  ASSERT_TRUE(cache.AssumePod(framework::NewPodInfo(MakeBasePod("b", "p2", "100m", "500")),
                              hint_a).ok());
  EXPECT_EQ(PodNames(*cache.GetNodeInfo("b")), std::vector<std::string>{"p2"});
  EXPECT_EQ(PodNames(*cache.GetNodeInfo("a")), std::vector<std::string>{"p1"});
  // Node a removed (its pod forgotten, so its NodeInfo goes) and added
  // again: the old copy's handle names nothing live.
  ASSERT_TRUE(cache.ForgetPod(MakeBasePod("a", "p1", "100m", "500")).ok());
  ASSERT_TRUE(cache.RemoveNode(a).ok());
  ASSERT_EQ(cache.GetNodeInfo("a"), nullptr);
  ASSERT_TRUE(cache.AddNode(a).ok());
  ASSERT_TRUE(cache.AssumePod(framework::NewPodInfo(MakeBasePod("a", "p3", "100m", "500")),
                              hint_a).ok());
  EXPECT_EQ(PodNames(*cache.GetNodeInfo("a")), std::vector<std::string>{"p3"});
  EXPECT_NE(cache.GetNodeInfo("a")->cache_id, hint_a->cache_id);
  (void)cache.UpdateSnapshot(snapshot);
  EXPECT_EQ(PodNames(*snapshot.Get("a")), std::vector<std::string>{"p3"});
  EXPECT_EQ(PodNames(*snapshot.Get("b")), std::vector<std::string>{"p2"});
}

// upstream TestAddPodAlwaysUpdatesPodInfoInNodeInfo
TEST(CacheTest, AddPodAlwaysUpdatesPodInfoInNodeInfo) {
  const api::TimeMs now = 1'000'000;
  api::Pod p1 = MakeBasePod("node1", "test-1", "100m", "500",
                            {api::ContainerPort{80, 80, "", ""}});
  api::Pod p2 = p1;
  p2.start_time = now;  // a status change
  TestCache cache(Cache::Options{10 * kSecond});
  AssumeAndFinishBinding(cache, p1, now);
  ASSERT_TRUE(cache.AddPod(p2).ok());
  EXPECT_EQ(PodsOn(cache, "node1"), std::vector<api::Pod>{p2});
  EXPECT_EQ(Cached(cache, p1), p2);
  EXPECT_FALSE(cache.IsAssumedPod(p1));
}

// upstream TestAddPodWillReplaceAssumed
TEST(CacheTest, AddPodWillReplaceAssumed) {
  const api::TimeMs now = 1'000'000;
  api::Pod assumed = MakeBasePod("assumed-node-1", "test-1", "100m", "500",
                                 {api::ContainerPort{80, 80, "", ""}});
  api::Pod added = MakeBasePod("actual-node", "test-1", "100m", "500",
                               {api::ContainerPort{80, 80, "", ""}});
  api::Pod updated = MakeBasePod("actual-node", "test-1", "200m", "500",
                                 {api::ContainerPort{90, 90, "", ""}});
  TestCache cache(Cache::Options{10 * kSecond});
  AssumeAndFinishBinding(cache, assumed, now);
  ASSERT_TRUE(cache.AddPod(added).ok());
  ASSERT_TRUE(cache.UpdatePod(added, updated).ok());
  EXPECT_FALSE((cache.GetNodeInfo("assumed-node") != nullptr));
  EXPECT_FALSE((cache.GetNodeInfo("assumed-node-1") != nullptr));
  EXPECT_EQ(PodsOn(cache, "actual-node"), std::vector<api::Pod>{updated});
}

// upstream TestAddPodAfterExpiration
TEST(CacheTest, AddPodAfterExpiration) {
  const std::string node = "node";
  const int64_t ttl = 10 * kSecond;
  const api::TimeMs now = 1'000'000;
  api::Pod pod = MakeBasePod(node, "test", "100m", "500", HostPort(80));
  TestCache cache(Cache::Options{ttl});
  AssumeAndFinishBinding(cache, pod, now);
  cache.CleanupAssumedPods(now + 2 * ttl);
  // It should be expired and removed.
  ExpectForgotten(cache, pod);
  ASSERT_TRUE(cache.AddPod(pod).ok());
  EXPECT_EQ(PodsOn(cache, node), std::vector<api::Pod>{pod});
}

// upstream TestUpdatePod
TEST(CacheTest, UpdatePod) {
  const std::string node = "node";
  api::Pod p0 = MakeBasePod(node, "test", "100m", "500", HostPort(80));
  api::Pod p1 = MakeBasePod(node, "test", "200m", "1Ki", HostPort(8080));
  TestCache cache;
  ASSERT_TRUE(cache.AddPod(p0).ok());
  // add a pod and then update it twice
  const std::vector<api::Pod> updates = {p0, p1, p0};
  for (size_t j = 1; j < updates.size(); ++j) {
    ASSERT_TRUE(cache.UpdatePod(updates[j - 1], updates[j]).ok());
    EXPECT_EQ(PodsOn(cache, node), std::vector<api::Pod>{updates[j]});
  }
}

// upstream TestUpdatePodAndGet
TEST(CacheTest, UpdatePodAndGet) {
  const std::string node = "node";
  api::Pod p0 = MakeBasePod(node, "test", "100m", "500", HostPort(80));
  api::Pod p1 = MakeBasePod(node, "test", "200m", "1Ki", HostPort(8080));
  struct Case {
    api::Pod pod;
    api::Pod to_update;
    bool assume;
  };
  for (const Case& c : {Case{p0, p0, true}, Case{p0, p1, false}}) {
    TestCache cache;
    // an unknown pod cannot be got or updated
    EXPECT_FALSE(Cached(cache, c.to_update).has_value());
    schedref::Status s = cache.UpdatePod(c.pod, c.to_update);
    EXPECT_EQ(s.message(),
              "pod test(node_info_cache_test/test) is not added to scheduler "
              "cache, so cannot be updated");
    if (c.assume) {
      ASSERT_TRUE(cache.AssumePod(c.pod).ok());
      // an assumed pod gets Add before any Update
      EXPECT_EQ(cache.UpdatePod(c.pod, c.to_update).message(),
                "assumed pod test(node_info_cache_test/test) should not be "
                "updated");
    } else {
      ASSERT_TRUE(cache.AddPod(c.pod).ok());
      ASSERT_TRUE(cache.UpdatePod(c.pod, c.to_update).ok());
    }
    EXPECT_EQ(Cached(cache, c.pod), c.to_update);
  }
}

// upstream TestExpireAddUpdatePod
TEST(CacheTest, ExpireAddUpdatePod) {
  const std::string node = "node";
  const int64_t ttl = 10 * kSecond;
  const api::TimeMs now = 1'000'000;
  api::Pod p0 = MakeBasePod(node, "test", "100m", "500", HostPort(80));
  api::Pod p1 = MakeBasePod(node, "test", "200m", "1Ki", HostPort(8080));
  TestCache cache(Cache::Options{ttl});
  // Pod is assumed, expired, and added. Then it would be updated twice.
  AssumeAndFinishBinding(cache, p0, now);
  cache.CleanupAssumedPods(now + 2 * ttl);
  ASSERT_TRUE(cache.AddPod(p0).ok());
  const std::vector<api::Pod> updates = {p0, p1, p0};
  for (size_t j = 1; j < updates.size(); ++j) {
    ASSERT_TRUE(cache.UpdatePod(updates[j - 1], updates[j]).ok());
    EXPECT_EQ(PodsOn(cache, node), std::vector<api::Pod>{updates[j]});
  }
}

// upstream TestRemovePod
TEST(CacheTest, RemovePod) {
  api::Pod pod = MakeBasePod("node-1", "test", "100m", "500", HostPort(80));
  std::vector<api::Node> nodes = {st::MakeNode().Name("node-1").Obj(),
                                  st::MakeNode().Name("node-2").Obj()};
  for (bool assume : {false, true}) {
    SCOPED_TRACE(assume ? "assumed" : "bound");
    TestCache cache;
    // Add/Assume pod succeeds even before adding the nodes.
    if (assume) {
      ASSERT_TRUE(cache.AssumePod(pod).ok());
    } else {
      ASSERT_TRUE(cache.AddPod(pod).ok());
    }
    EXPECT_EQ(PodsOn(cache, "node-1"), std::vector<api::Pod>{pod});
    for (const api::Node& n : nodes) ASSERT_TRUE(cache.AddNode(n).ok());

    ASSERT_TRUE(cache.RemovePod(pod).ok());
    EXPECT_FALSE(Cached(cache, pod).has_value());
    // removing a pod already removed is an error
    schedref::Status again = cache.RemovePod(pod);
    EXPECT_EQ(again.message(),
              "pod test(node_info_cache_test/test) is not found in scheduler "
              "cache, so cannot be removed from it");
    // The node stays, now empty.
    EXPECT_EQ(PodsOn(cache, "node-1"), std::vector<api::Pod>{});
  }
}

// upstream TestForgetPod
TEST(CacheTest, ForgetPod) {
  const api::TimeMs now = 1'000'000;
  api::Pod pod = MakeBasePod("node", "test", "100m", "500", HostPort(80));
  TestCache cache(Cache::Options{10 * kSecond});
  AssumeAndFinishBinding(cache, pod, now);
  EXPECT_TRUE(cache.IsAssumedPod(pod));
  std::optional<api::Pod> assumed = Cached(cache, pod);
  ASSERT_TRUE(assumed.has_value());
  EXPECT_EQ(assumed->ns, pod.ns);
  EXPECT_EQ(assumed->name, pod.name);

  ASSERT_TRUE(cache.ForgetPod(pod).ok());
  ExpectForgotten(cache, pod);
  // forgetting a pod already forgotten is an error
  EXPECT_EQ(cache.ForgetPod(pod).message(),
            "pod test(node_info_cache_test/test) wasn't assumed so cannot be "
            "forgotten");
}

TEST(CacheTest, ForgetPodOnAnotherNode) {
  api::Pod pod = MakeBasePod("node-a", "test", "100m", "500");
  TestCache cache;
  ASSERT_TRUE(cache.AssumePod(pod).ok());
  api::Pod elsewhere = pod;
  elsewhere.node_name = "node-b";
  EXPECT_EQ(cache.ForgetPod(elsewhere).message(),
            "pod test(node_info_cache_test/test) was assumed on node-b but "
            "assigned to node-a");
  EXPECT_TRUE(cache.IsAssumedPod(pod));
}

TEST(CacheTest, ForgetAddedPodFails) {
  api::Pod pod = MakeBasePod("node", "test", "100m", "500");
  TestCache cache;
  ASSERT_TRUE(cache.AddPod(pod).ok());
  EXPECT_TRUE(cache.ForgetPod(pod).IsFailedPrecondition());
  EXPECT_TRUE(Cached(cache, pod).has_value());
}

TEST(CacheTest, EmptyUidIsInvalid) {
  api::Pod pod = MakeBasePod("node", "test", "100m", "500");
  pod.uid.clear();
  TestCache cache;
  schedref::Status s = cache.AssumePod(pod);
  EXPECT_TRUE(s.IsInvalid());
  EXPECT_EQ(s.message(), "cannot get cache key for pod with empty UID");
  EXPECT_FALSE(cache.IsAssumedPod(pod));
}

// Upstream exits the process on these; the reference reports them and keeps
// the cache as it was.
TEST(CacheTest, CorruptionIsAnError) {
  api::Pod pod = MakeBasePod("node-a", "test", "100m", "500");
  TestCache cache;
  ASSERT_TRUE(cache.AddPod(pod).ok());
  api::Pod moved = pod;
  moved.node_name = "node-b";
  EXPECT_TRUE(cache.UpdatePod(pod, moved).IsFailedPrecondition());
  EXPECT_TRUE(cache.RemovePod(moved).IsFailedPrecondition());
  EXPECT_EQ(Cached(cache, pod), pod);
  // An empty node name (a replayed delete) removes the cached pod.
  api::Pod unbound = pod;
  unbound.node_name.clear();
  ASSERT_TRUE(cache.RemovePod(unbound).ok());
  EXPECT_FALSE(Cached(cache, pod).has_value());
  EXPECT_EQ(cache.NodeCount(), 0);
}

// upstream TestNodeOperators
TEST(CacheTest, NodeOperators) {
  const std::string node_name = "test-node";
  api::Node node =
      st::MakeNode()
          .Name(node_name)
          .Capacity(
              {{"cpu", "1000m"}, {"memory", "100m"}, {"example.com/foo", "1"}})
          .Taint({"test-key", "test-value", "PreferNoSchedule"})
          .Obj();
  auto make_pod = [&](const std::string& name) {
    return st::MakePod()
        .Name(name)
        .UID(name)
        .Node(node_name)
        .Req({{"cpu", "500m"}, {"memory", "50m"}})
        .Obj();
  };
  const std::vector<std::vector<api::Pod>> cases = {
      {make_pod("pod1")}, {make_pod("pod1"), make_pod("pod2")}};
  for (const std::vector<api::Pod>& pods : cases) {
    TestCache cache;
    ASSERT_TRUE(cache.AddNode(node).ok());
    for (const api::Pod& pod : pods) ASSERT_TRUE(cache.AddPod(pod).ok());

    // Step 1: the node was added into cache successfully.
    const framework::NodeInfo* got = cache.GetNodeInfo(node_name);
    ASSERT_NE(got, nullptr);
    EXPECT_EQ(*got->node(), node);
    EXPECT_EQ(PodsOf(*got), pods);
    EXPECT_EQ(cache.Tree().NumNodes(), 1);
    EXPECT_EQ(cache.NodeTreeOrder().back(), node_name);

    // Step 2: dump cached nodes successfully.
    const framework::Snapshot& snapshot = cache.Snapshot();
    ASSERT_EQ(snapshot.NumNodes(), 1);
    ASSERT_NE(snapshot.Get(node_name), nullptr);
    EXPECT_EQ(*snapshot.Get(node_name)->node(), node);
    EXPECT_EQ(PodsOf(*snapshot.Get(node_name)), pods);

    // Step 3: update node attribute successfully.
    api::Node updated = node;
    updated.allocatable["memory"] = 50;
    ASSERT_TRUE(cache.UpdateNode(node, updated).ok());
    EXPECT_EQ(*cache.GetNodeInfo(node_name)->node(), updated);
    EXPECT_EQ(cache.Tree().NumNodes(), 1);
    EXPECT_EQ(cache.NodeTreeOrder().back(), node_name);

    // Step 4: the node can be removed even if it still has pods.
    ASSERT_TRUE(cache.RemoveNode(updated).ok());
    const framework::NodeInfo* ghost = cache.GetNodeInfo(node_name);
    ASSERT_NE(ghost, nullptr) << "the node should still have a ghost";
    EXPECT_EQ(ghost->node(), nullptr);
    EXPECT_EQ(cache.GhostNodes(), std::vector<std::string>{node_name});
    // removing a node already removed is an error
    schedref::Status again = cache.RemoveNode(updated);
    EXPECT_TRUE(again.IsNotFound());
    EXPECT_EQ(cache.Tree().NumNodes(), 0);
    EXPECT_TRUE(cache.NodeTreeOrder().empty());
    EXPECT_EQ(cache.Snapshot().NumNodes(), 0);
    // Pods are still in the pods cache.
    for (const api::Pod& p : pods) EXPECT_TRUE(Cached(cache, p).has_value());

    // Step 5: removing pods for the removed node still succeeds.
    for (const api::Pod& p : pods) {
      ASSERT_TRUE(cache.RemovePod(p).ok());
      EXPECT_FALSE(Cached(cache, p).has_value());
    }
    EXPECT_EQ(cache.NodeCount(), 0);
  }
}

TEST(CacheTest, RemoveUnknownNode) {
  TestCache cache;
  schedref::Status s = cache.RemoveNode(st::MakeNode().Name("n").Obj());
  EXPECT_TRUE(s.IsNotFound());
  EXPECT_EQ(s.message(), "node n is not found");
}

// A node deleted while a pod is assumed on it: the pod stays assumed on the
// ghost, the ghost is not in snapshots, and Forget (binding failed) or Add
// (binding confirmed) still works.
TEST(CacheTest, NodeDeletedWhilePodsAssumed) {
  api::Node node = st::MakeNode().Name("node").Obj();
  api::Pod forgotten = MakeBasePod("node", "forgotten", "100m", "500");
  api::Pod confirmed = MakeBasePod("node", "confirmed", "100m", "500");
  TestCache cache;
  ASSERT_TRUE(cache.AddNode(node).ok());
  ASSERT_TRUE(cache.AssumePod(forgotten).ok());
  ASSERT_TRUE(cache.AssumePod(confirmed).ok());
  ASSERT_TRUE(cache.RemoveNode(node).ok());

  EXPECT_EQ(cache.GhostNodes(), std::vector<std::string>{"node"});
  EXPECT_EQ(cache.Snapshot().NumNodes(), 0);
  EXPECT_TRUE(cache.IsAssumedPod(forgotten));

  ASSERT_TRUE(cache.ForgetPod(forgotten).ok());
  ASSERT_TRUE(cache.AddPod(confirmed).ok());
  EXPECT_FALSE(cache.IsAssumedPod(confirmed));
  EXPECT_EQ(cache.GhostNodes(), std::vector<std::string>{"node"});

  // The node comes back with the confirmed pod on it.
  ASSERT_TRUE(cache.AddNode(node).ok());
  const framework::Snapshot& snapshot = cache.Snapshot();
  ASSERT_EQ(snapshot.NumNodes(), 1);
  EXPECT_EQ(PodsOf(*snapshot.Get("node")), std::vector<api::Pod>{confirmed});
  EXPECT_TRUE(cache.GhostNodes().empty());
}

// A pod confirmed on another node than the one it was assumed on moves.
TEST(CacheTest, AddPodMovesAssumedPod) {
  api::Pod assumed = MakeBasePod("node-a", "p", "100m", "500");
  api::Pod bound = MakeBasePod("node-b", "p", "100m", "500");
  TestCache cache;
  ASSERT_TRUE(cache.AddNode(st::MakeNode().Name("node-a").Obj()).ok());
  ASSERT_TRUE(cache.AssumePod(assumed).ok());
  ASSERT_TRUE(cache.AddPod(bound).ok());
  EXPECT_EQ(PodsOn(cache, "node-a"), std::vector<api::Pod>{});
  EXPECT_EQ(PodsOn(cache, "node-b"), std::vector<api::Pod>{bound});
  // node-b is known only from its pod: not in the snapshot.
  EXPECT_EQ(cache.GhostNodes(), std::vector<std::string>{"node-b"});
  EXPECT_EQ(cache.Snapshot().NumNodes(), 1);
}

std::vector<std::string> SnapshotNames(const framework::Snapshot& s) {
  std::vector<std::string> names;
  for (const framework::NodeInfo* info : s.List()) names.push_back(info->Name());
  return names;
}

// upstream TestSchedulerCache_UpdateSnapshot: the node set and contents of
// the snapshot after each sequence (upstream also checks its internal
// most-recently-updated list, which the reference does not have).
TEST(CacheTest, UpdateSnapshot) {
  std::vector<api::Node> nodes;
  std::vector<api::Node> updated_nodes;
  for (int i = 0; i < 10; ++i) {
    api::Node n = st::MakeNode()
                      .Name("test-node" + std::to_string(i))
                      .Capacity({{"cpu", "1000m"}, {"memory", "100m"}})
                      .Obj();
    nodes.push_back(n);
    api::Node u = n;
    u.allocatable =
        st::ParseResourceList({{"cpu", "2000m"}, {"memory", "500m"}});
    updated_nodes.push_back(u);
  }
  std::vector<api::Pod> pods;
  std::vector<api::Pod> updated_pods;
  for (int i = 0; i < 20; ++i) {
    api::Pod p = st::MakePod()
                     .Name("test-pod" + std::to_string(i))
                     .Namespace("test-ns")
                     .UID("test-puid" + std::to_string(i))
                     .Node("test-node" + std::to_string(i % 10))
                     .Obj();
    pods.push_back(p);
    api::Pod u = p;
    u.priority = 1000;
    updated_pods.push_back(u);
  }

  TestCache* cache = nullptr;
  using Op = std::function<void()>;
  auto add_node = [&](int i) -> Op {
    return [&, i] { ASSERT_TRUE(cache->AddNode(nodes[i]).ok()); };
  };
  auto remove_node = [&](int i) -> Op {
    return [&, i] { ASSERT_TRUE(cache->RemoveNode(nodes[i]).ok()); };
  };
  auto update_node = [&](int i) -> Op {
    return [&, i] {
      ASSERT_TRUE(cache->UpdateNode(nodes[i], updated_nodes[i]).ok());
    };
  };
  auto add_pod = [&](int i) -> Op {
    return [&, i] { ASSERT_TRUE(cache->AddPod(pods[i]).ok()); };
  };
  auto remove_pod = [&](int i) -> Op {
    return [&, i] { ASSERT_TRUE(cache->RemovePod(pods[i]).ok()); };
  };
  auto update_pod = [&](int i) -> Op {
    return [&, i] {
      ASSERT_TRUE(cache->UpdatePod(pods[i], updated_pods[i]).ok());
    };
  };
  auto update_snapshot = [&]() -> Op {
    return [&] {
      const framework::Snapshot& s = cache->Snapshot();
      EXPECT_EQ(SnapshotNames(s), cache->NodeTreeOrder());
    };
  };

  struct Case {
    std::string name;
    std::vector<Op> operations;
    std::vector<std::string> expected;  // nodes in the snapshot, sorted
  };
  const std::vector<Case> cases = {
      {"Empty cache", {}, {}},
      {"Single node", {add_node(1)}, {"test-node1"}},
      {"Add node, remove it, add it again",
       {add_node(1), update_snapshot(), remove_node(1), add_node(1)},
       {"test-node1"}},
      {"Add node and remove it in the same cycle, add it again",
       {add_node(1), update_snapshot(), add_node(2), remove_node(1)},
       {"test-node2"}},
      {"Add a few nodes, and snapshot in the middle",
       {add_node(0), update_snapshot(), add_node(1), update_snapshot(),
        add_node(2), update_snapshot(), add_node(3)},
       {"test-node0", "test-node1", "test-node2", "test-node3"}},
      {"Add a few nodes, and snapshot in the end",
       {add_node(0), add_node(2), add_node(5), add_node(6)},
       {"test-node0", "test-node2", "test-node5", "test-node6"}},
      {"Update some nodes",
       {add_node(0), add_node(1), add_node(5), update_snapshot(),
        update_node(1)},
       {"test-node0", "test-node1", "test-node5"}},
      {"Add a few nodes, and remove all of them",
       {add_node(0), add_node(2), add_node(5), add_node(6), update_snapshot(),
        remove_node(0), remove_node(2), remove_node(5), remove_node(6)},
       {}},
      {"Add a few nodes, and remove some of them",
       {add_node(0), add_node(2), add_node(5), add_node(6), update_snapshot(),
        remove_node(0), remove_node(6)},
       {"test-node2", "test-node5"}},
      {"Add a few nodes, remove all of them, and add more",
       {add_node(2), add_node(5), add_node(6), update_snapshot(),
        remove_node(2), remove_node(5), remove_node(6), update_snapshot(),
        add_node(7), add_node(9)},
       {"test-node7", "test-node9"}},
      {"Update nodes in particular order",
       {add_node(8), update_node(2), update_node(8), update_snapshot(),
        add_node(1)},
       {"test-node1", "test-node2", "test-node8"}},
      {"Add some nodes and some pods",
       {add_node(0), add_node(2), add_node(8), update_snapshot(), add_pod(8),
        add_pod(2)},
       {"test-node0", "test-node2", "test-node8"}},
      {"Updating a pod moves its node to the head",
       {add_node(0), add_pod(0), add_node(2), add_node(4), update_pod(0)},
       {"test-node0", "test-node2", "test-node4"}},
      {"Add pod before its node",
       {add_node(0), add_pod(1), update_pod(1), add_node(1)},
       {"test-node0", "test-node1"}},
      {"Remove node before its pods",
       {add_node(0), add_node(1), add_pod(1), add_pod(11), update_snapshot(),
        remove_node(1), update_snapshot(), update_pod(1), update_pod(11),
        remove_pod(1), remove_pod(11)},
       {"test-node0"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    TestCache owned;
    cache = &owned;
    for (const Op& op : c.operations) op();
    EXPECT_EQ(owned.NodeCount(), static_cast<int>(c.expected.size()));
    // Always update the snapshot at the end of operations and compare it.
    const framework::Snapshot& snapshot = owned.Snapshot();
    EXPECT_EQ(SnapshotNames(snapshot), owned.NodeTreeOrder());
    std::vector<std::string> names = SnapshotNames(snapshot);
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names, c.expected);
    for (const framework::NodeInfo* info : snapshot.List()) {
      const framework::NodeInfo* held = owned.GetNodeInfo(info->Name());
      ASSERT_NE(held, nullptr);
      EXPECT_EQ(*info->node(), *held->node());
      EXPECT_EQ(info->pods(), held->pods());
    }
  }
}

// upstream TestSchedulerCache_updateNodeInfoSnapshotList: the snapshot lists
// nodes in node-tree order (bug 91601: zones interleave).
TEST(CacheTest, SnapshotListsNodeTreeOrder) {
  std::vector<api::Node> nodes;
  int i = 0;
  // zone 0 -> 2 nodes, zone 1 -> 6 nodes
  for (int zone : {0, 1}) {
    for (int j = 0; j < (zone == 0 ? 2 : 6); ++j) {
      nodes.push_back(
          st::MakeNode()
              .Name("node-" + std::to_string(i++))
              .Label(kLabelTopologyRegion, "region-" + std::to_string(zone))
              .Label(kLabelTopologyZone, "zone-" + std::to_string(zone))
              .Obj());
    }
  }
  struct Case {
    std::string name;
    // Node indices to add; -1 takes a snapshot.
    std::vector<int> operations;
    std::vector<std::string> expected;
  };
  const std::vector<Case> cases = {
      {"Empty cache", {}, {}},
      {"Single node", {0}, {"node-0"}},
      {"Two nodes", {0, -1, 1}, {"node-0", "node-1"}},
      {"bug 91601, two nodes, update the snapshot and add two nodes in "
       "different zones",
       {2, 3, -1, 4, 0},
       {"node-2", "node-0", "node-3", "node-4"}},
      {"bug 91601, 6 nodes, one in a different zone",
       {2, 3, 4, 5, -1, 6, 0},
       {"node-2", "node-0", "node-3", "node-4", "node-5", "node-6"}},
      {"bug 91601, 7 nodes, two in a different zone",
       {2, -1, 3, 4, -1, 5, 6, 0, 1},
       {"node-2", "node-0", "node-3", "node-1", "node-4", "node-5", "node-6"}},
      {"bug 91601, 7 nodes, two in a different zone, different zone order",
       {2, 1, -1, 3, 4, -1, 5, 6, 0},
       {"node-2", "node-1", "node-3", "node-0", "node-4", "node-5", "node-6"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    TestCache cache;
    for (int op : c.operations) {
      if (op < 0) {
        (void)cache.Snapshot();
      } else {
        ASSERT_TRUE(cache.AddNode(nodes[op]).ok());
      }
    }
    EXPECT_EQ(SnapshotNames(cache.Snapshot()), c.expected);
  }
}

// The order rule of UpdateSnapshot (upstream's incremental snapshot): the
// list is re-read from the node tree only when the node set changed since
// the previous snapshot.
TEST(CacheTest, SnapshotOrderAfterZoneChange) {
  auto node = [](const std::string& name, const std::string& zone) {
    return st::MakeNode().Name(name).Label(kLabelTopologyZone, zone).Obj();
  };
  TestCache cache;
  ASSERT_TRUE(cache.AddNode(node("a1", "a")).ok());
  ASSERT_TRUE(cache.AddNode(node("a2", "a")).ok());
  ASSERT_TRUE(cache.AddNode(node("b1", "b")).ok());
  EXPECT_EQ(SnapshotNames(cache.Snapshot()),
            (std::vector<std::string>{"a1", "b1", "a2"}));

  // a1 moves to zone b: the tree reorders, the snapshot keeps its order.
  ASSERT_TRUE(cache.UpdateNode(node("a1", "a"), node("a1", "b")).ok());
  EXPECT_EQ(cache.NodeTreeOrder(),
            (std::vector<std::string>{"a2", "b1", "a1"}));
  const framework::Snapshot& kept = cache.Snapshot();
  EXPECT_EQ(SnapshotNames(kept), (std::vector<std::string>{"a1", "b1", "a2"}));
  // ... with the new content.
  EXPECT_EQ(kept.Get("a1")->node()->labels.at(kLabelTopologyZone), "b");

  // Removed and re-added between two snapshots: still the old order.
  ASSERT_TRUE(cache.RemoveNode(node("a2", "a")).ok());
  ASSERT_TRUE(cache.AddNode(node("a2", "a")).ok());
  EXPECT_EQ(SnapshotNames(cache.Snapshot()),
            (std::vector<std::string>{"a1", "b1", "a2"}));

  // A new node: the list is read from the tree again (zone a emptied and
  // came back, so it now follows zone b).
  ASSERT_TRUE(cache.AddNode(node("c1", "c")).ok());
  EXPECT_EQ(SnapshotNames(cache.Snapshot()),
            (std::vector<std::string>{"b1", "a2", "c1", "a1"}));
}

TEST(CacheTest, SnapshotHoldsAssumedAndBoundPods) {
  TestCache cache;
  ASSERT_TRUE(cache.AddNode(st::MakeNode().Name("n").Obj()).ok());
  api::Pod bound = MakeBasePod("n", "bound", "100m", "500");
  api::Pod assumed = MakeBasePod("n", "assumed", "100m", "500");
  ASSERT_TRUE(cache.AddPod(bound).ok());
  ASSERT_TRUE(cache.AssumePod(assumed).ok());
  const framework::Snapshot& snapshot = cache.Snapshot();
  EXPECT_EQ(PodsOf(*snapshot.Get("n")), (std::vector<api::Pod>{bound, assumed}));
  EXPECT_EQ(cache.AssumedPodUids(), std::set<std::string>{"assumed"});
  EXPECT_EQ(cache.PodCount(), 2);
}

// The optimized cache's incremental refresh: only NodeInfos changed since
// the snapshot's generation are copied, and Rebuild keeps the node list
// (nodes_changed false) unless the node set, order or a node object changed.
TEST(CacheTest, UpdateSnapshotIsIncremental) {
  Cache cache;
  for (const char* name : {"a", "b", "c"}) {
    ASSERT_TRUE(cache.AddNode(st::MakeNode().Name(name).Obj()).ok());
  }
  framework::Snapshot snapshot;
  Cache::SnapshotUpdate u = cache.UpdateSnapshot(snapshot);
  EXPECT_EQ(u.nodes_copied, 3);
  EXPECT_TRUE(u.nodes_changed);
  const framework::NodeInfo* b = snapshot.Get("b");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->index, 1);

  u = cache.UpdateSnapshot(snapshot);
  EXPECT_EQ(u.nodes_copied, 0);
  EXPECT_FALSE(u.nodes_changed);

  // A pod on b: b alone is copied, in place, keeping its index.
  api::Pod pod = MakeBasePod("b", "p", "100m", "500");
  ASSERT_TRUE(cache.AssumePod(pod).ok());
  u = cache.UpdateSnapshot(snapshot);
  EXPECT_EQ(u.nodes_copied, 1);
  EXPECT_FALSE(u.nodes_changed);
  EXPECT_EQ(snapshot.Get("b"), b);
  EXPECT_EQ(b->index, 1);
  EXPECT_EQ(PodNames(*b), std::vector<std::string>{"p"});
  EXPECT_EQ(b->requested().milli_cpu, 100);
  EXPECT_EQ(snapshot.generation, cache.Generation());

  // A pod on a node the snapshot does not list copies nothing.
  ASSERT_TRUE(cache.AddPod(MakeBasePod("elsewhere", "q", "100m", "500")).ok());
  u = cache.UpdateSnapshot(snapshot);
  EXPECT_EQ(u.nodes_copied, 0);
  EXPECT_FALSE(u.nodes_changed);

  // A node object change: copied, and the lists are rebuilt.
  api::Node c2 = st::MakeNode().Name("c").Label("x", "y").Obj();
  ASSERT_TRUE(cache.UpdateNode(st::MakeNode().Name("c").Obj(), c2).ok());
  u = cache.UpdateSnapshot(snapshot);
  EXPECT_EQ(u.nodes_copied, 1);
  EXPECT_TRUE(u.nodes_changed);
  EXPECT_EQ(*snapshot.Get("c")->node(), c2);

  // A removal: the node leaves the snapshot.
  ASSERT_TRUE(cache.RemoveNode(st::MakeNode().Name("a").Obj()).ok());
  u = cache.UpdateSnapshot(snapshot);
  EXPECT_EQ(u.nodes_copied, 0);
  EXPECT_TRUE(u.nodes_changed);
  EXPECT_EQ(snapshot.Get("a"), nullptr);
  EXPECT_EQ(SnapshotNames(snapshot), (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(snapshot.Get("b")->index, 0);
}

// Two snapshots refreshed at different times are each brought up to date.
TEST(CacheTest, SeveralSnapshots) {
  Cache cache;
  ASSERT_TRUE(cache.AddNode(st::MakeNode().Name("a").Obj()).ok());
  framework::Snapshot often, rarely;
  (void)cache.UpdateSnapshot(often);
  (void)cache.UpdateSnapshot(rarely);
  ASSERT_TRUE(cache.AddPod(MakeBasePod("a", "p1", "100m", "500")).ok());
  (void)cache.UpdateSnapshot(often);
  ASSERT_TRUE(cache.AddPod(MakeBasePod("a", "p2", "100m", "500")).ok());
  ASSERT_TRUE(cache.AddNode(st::MakeNode().Name("b").Obj()).ok());
  (void)cache.UpdateSnapshot(often);
  Cache::SnapshotUpdate u = cache.UpdateSnapshot(rarely);
  EXPECT_EQ(u.nodes_copied, 2);
  for (const framework::Snapshot* s : {&often, &rarely}) {
    EXPECT_EQ(SnapshotNames(*s), (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(PodNames(*s->Get("a")), (std::vector<std::string>{"p1", "p2"}));
    EXPECT_EQ(s->Get("a")->requested().milli_cpu, 200);
  }
}

}  // namespace
}  // namespace schedref::optimized::backend::cache
