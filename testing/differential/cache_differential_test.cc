// Differential test: the optimized cache against the reference cache (the
// executable specification) on random operation sequences, legal or not,
// with and without an assumed-pod TTL: every status and message, node and
// pod counts, node-tree order, ghosts, assumed pods, every NodeInfo's node
// and pods in order, every cached pod object, and every snapshot's node
// order and pods. A failure prints the seed and the operation log.
//
// It lives here, not beside the optimized cache, because optimized/ never
// depends on reference/, not even in its tests.
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "optimized/backend/cache/cache.h"
#include "reference/backend/cache/cache.h"
#include "testing/st/wrappers.h"

namespace {

namespace ref = schedref::reference;
namespace opt = schedref::optimized;
namespace api = schedref::api;

const std::vector<std::string> kNodes = {"n0", "n1", "n2", "n3", "n4"};

struct Rng {
  std::mt19937_64 g;
  int Int(int n) { return std::uniform_int_distribution<int>(0, n - 1)(g); }
  bool Coin() { return Int(2) == 0; }
};

api::Node Node(Rng& g, const std::string& name) {
  auto w = schedref::st::MakeNode().Name(name);
  int z = g.Int(4);
  if (z == 1) w.Label("topology.kubernetes.io/zone", "z" + std::to_string(g.Int(3)));
  if (z == 2)
    w.Label("topology.kubernetes.io/region", "r")
        .Label("topology.kubernetes.io/zone", "z" + std::to_string(g.Int(3)));
  if (z == 3) w.Label("failure-domain.beta.kubernetes.io/zone", "z" + std::to_string(g.Int(2)));
  w.Capacity({{"cpu", std::to_string(1 + g.Int(3))}});
  return w.Obj();
}
api::Pod Pod(Rng& g, int i, const std::string& node) {
  auto w = schedref::st::MakePod()
               .Name("p" + std::to_string(i))
               .UID(i == 11 ? "" : "u" + std::to_string(i))
               .Node(node);
  if (g.Coin()) w.Label("v", std::to_string(g.Int(3)));
  return w.Obj();
}

std::string Names(const std::vector<api::Pod>& v) {
  std::string s;
  for (auto& p : v) s += p.uid + ",";
  return s;
}
std::string Names(const std::vector<opt::framework::PodInfoPtr>& v) {
  std::string s;
  for (auto& p : v) s += p->pod.uid + ",";
  return s;
}

bool RunSequence(uint64_t seed, int steps) {
  Rng g{std::mt19937_64(seed)};
  const int64_t ttl = g.Coin() ? 0 : 5000;
  ref::cache::Cache r(ref::cache::Cache::Options{ttl});
  opt::backend::cache::Cache o(opt::backend::cache::Cache::Options{ttl});
  // same TTL in both
  std::ostringstream log;
  opt::framework::Snapshot snap;
  for (int step = 0; step < steps; ++step) {
    int i = g.Int(12);
    std::string node = kNodes[g.Int(5)];
    schedref::Status a, b;
    std::string op;
    switch (g.Int(13)) {
      case 0:
      case 1: {
        api::Node n = Node(g, node);
        op = "AddNode " + node;
        a = r.AddNode(n);
        b = o.AddNode(n);
        break;
      }
      case 2: {
        api::Node old_n = Node(g, node), new_n = Node(g, node);
        if (g.Int(3) != 0) {
          auto cur = r.GetNodeInfo(node);
          if (cur && cur->node) old_n = *cur->node;
        }
        op = "UpdateNode " + node;
        a = r.UpdateNode(old_n, new_n);
        b = o.UpdateNode(old_n, new_n);
        break;
      }
      case 3: {
        api::Node n = Node(g, node);
        if (g.Coin()) {
          auto cur = r.GetNodeInfo(node);
          if (cur && cur->node) n = *cur->node;
        }
        op = "RemoveNode " + node;
        a = r.RemoveNode(n);
        b = o.RemoveNode(n);
        break;
      }
      case 4: {
        api::Pod p = Pod(g, i, node);
        op = "Assume " + p.uid + "@" + node;
        a = r.AssumePod(p);
        b = o.AssumePod(p);
        break;
      }
      case 5: {
        api::Pod p = Pod(g, i, node);
        op = "Finish " + p.uid;
        a = r.FinishBinding(p, step * 1000);
        b = o.FinishBinding(p, step * 1000);
        break;
      }
      case 6: {
        api::Pod p = Pod(g, i, node);
        auto c = r.GetPod(p);
        if (c && g.Coin()) p.node_name = c->node_name;
        op = "Forget " + p.uid + "@" + p.node_name;
        a = r.ForgetPod(p);
        b = o.ForgetPod(p);
        break;
      }
      case 7:
      case 8: {
        api::Pod p = Pod(g, i, node);
        op = "AddPod " + p.uid + "@" + node;
        a = r.AddPod(p);
        b = o.AddPod(p);
        break;
      }
      case 9: {
        api::Pod np = Pod(g, i, node);
        auto c = r.GetPod(np);
        api::Pod old_p = c ? *c : Pod(g, i, node);
        if (c && g.Int(3) != 0) np.node_name = c->node_name;
        op = "UpdatePod " + np.uid;
        a = r.UpdatePod(old_p, np);
        b = o.UpdatePod(old_p, np);
        break;
      }
      case 10: {
        api::Pod p = Pod(g, i, g.Int(3) == 0 ? "" : node);
        auto c = r.GetPod(p);
        if (c && g.Coin()) p.node_name = c->node_name;
        op = "RemovePod " + p.uid + "@" + p.node_name;
        a = r.RemovePod(p);
        b = o.RemovePod(p);
        break;
      }
      case 11: {
        op = "Cleanup";
        r.CleanupAssumedPods(step * 1000);
        o.CleanupAssumedPods(step * 1000);
        break;
      }
      default: {
        op = "Snapshot";
        ref::framework::Snapshot rs = r.UpdateSnapshot();
        (void)o.UpdateSnapshot(snap);
        std::string rn, on;
        for (const auto& info : rs.List()) rn += info.Name() + "[" + Names(info.pods) + "] ";
        for (const auto* info : snap.List()) on += info->Name() + "[" + Names(info->pods()) + "] ";
        if (rn != on) {
          std::fprintf(stderr, "seed %llu step %d snapshot\n ref %s\n opt %s\n%s",
                       (unsigned long long)seed, step, rn.c_str(), on.c_str(), log.str().c_str());
          return false;
        }
      }
    }
    log << op << " -> " << (a.ok() ? "ok" : a.message()) << "\n";
    if (a.ok() != b.ok() || a.message() != b.message()) {
      std::fprintf(stderr, "seed %llu step %d status: %s / %s\n%s", (unsigned long long)seed, step,
                   a.message().c_str(), b.message().c_str(), log.str().c_str());
      return false;
    }
    std::ostringstream rw, ow;
    rw << r.NodeCount() << " " << r.PodCount() << " ";
    ow << o.NodeCount() << " " << o.PodCount() << " ";
    for (auto& n : r.NodeTreeOrder()) rw << n << ",";
    for (auto& n : o.NodeTreeOrder()) ow << n << ",";
    rw << " g:";
    ow << " g:";
    for (auto& n : r.GhostNodes()) rw << n << ",";
    for (auto& n : o.GhostNodes()) ow << n << ",";
    rw << " a:";
    ow << " a:";
    for (auto& n : r.AssumedPodUids()) rw << n << ",";
    for (auto& n : o.AssumedPodUids()) ow << n << ",";
    for (const std::string& n : kNodes) {
      auto ri = r.GetNodeInfo(n);
      auto oi = o.GetNodeInfo(n);
      rw << " " << n << ":";
      ow << " " << n << ":";
      if (ri) {
        rw << (ri->node ? "N" : "G") << Names(ri->pods);
        if (ri->node) rw << ri->node->labels.size();
      }
      if (oi) {
        ow << (oi->node() ? "N" : "G") << Names(oi->pods());
        if (oi->node()) ow << oi->node()->labels.size();
      }
    }
    for (int k = 0; k < 12; ++k) {
      api::Pod p = Pod(g, k, "");
      auto rp = r.GetPod(p);
      auto op2 = o.GetPod(p);
      rw << " " << (rp ? rp->node_name : "-") << r.IsAssumedPod(p);
      ow << " " << (op2 ? op2->pod.node_name : "-") << o.IsAssumedPod(p);
      if (rp && op2 && !(*rp == op2->pod)) ow << "DIFFOBJ";
    }
    if (rw.str() != ow.str()) {
      std::fprintf(stderr, "seed %llu step %d state\n ref %s\n opt %s\n%s",
                   (unsigned long long)seed, step, rw.str().c_str(), ow.str().c_str(),
                   log.str().c_str());
      return false;
    }
  }
  return true;
}

// Seeds 1 to 300 in ten blocks of 30, one test each, so that Bazel's shards
// (shard_count in BUILD) split them.
class CacheDifferentialTest : public ::testing::TestWithParam<int> {};

TEST_P(CacheDifferentialTest, RandomSequencesMatchTheReference) {
  const uint64_t first = 1 + 30 * static_cast<uint64_t>(GetParam());
  for (uint64_t seed = first; seed < first + 30; ++seed) {
    ASSERT_TRUE(RunSequence(seed, 300)) << "seed " << seed;
  }
}

INSTANTIATE_TEST_SUITE_P(SeedBlocks, CacheDifferentialTest, ::testing::Range(0, 10));

}  // namespace
