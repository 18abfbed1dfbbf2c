// The optimized InterPodAffinity against a naive model written straight
// from docs/semantics/interpodaffinity.md (maps keyed by strings, every pod
// of every node visited), on random clusters large enough for the parallel
// loops to split (> 32 nodes), with 1 and 4 threads. Also drives
// AddPod/RemovePod on clones, on NodeInfo copies and on a node outside the
// snapshot, the paths preemption and the nominated-pods pass take.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "api/types/labels.h"
#include "optimized/framework/plugins/interpodaffinity/affinity_match.h"
#include "optimized/framework/plugins/interpodaffinity/interpod_affinity.h"
#include "optimized/framework/plugins/interpodaffinity/test_util.h"
#include "optimized/framework/testing/fixtures.h"
#include "testing/st/wrappers.h"

namespace schedref::optimized::framework::plugins::interpodaffinity {
namespace {

using framework::testing::RandomNodeChange;
using framework::testing::SnapshotStepper;

// --- The model ---------------------------------------------------------------

struct Placed {
  api::Node node;
  std::vector<api::Pod> pods;
};

std::vector<AffinityTerm> Terms(const api::Pod& pod, bool anti, bool required) {
  std::vector<AffinityTerm> out;
  if (!pod.affinity) return out;
  const auto& a = anti ? pod.affinity->pod_anti_affinity : pod.affinity->pod_affinity;
  if (!a) return out;
  if (required) {
    for (const auto& t : a->required) out.push_back(MakeAffinityTerm(pod, t));
  }
  return out;
}

std::vector<WeightedAffinityTerm> Preferred(const api::Pod& pod, bool anti) {
  std::vector<WeightedAffinityTerm> out;
  if (!pod.affinity) return out;
  const auto& a = anti ? pod.affinity->pod_anti_affinity : pod.affinity->pod_affinity;
  if (!a) return out;
  for (const auto& t : a->preferred) out.push_back({MakeAffinityTerm(pod, t.term), t.weight});
  return out;
}

using Counts = std::map<TopologyPair, int64_t>;

void Bump(Counts& m, const api::Node& node, const std::string& key, int64_t v) {
  auto it = node.labels.find(key);
  if (it == node.labels.end()) return;
  if ((m[{key, it->second}] += v) == 0) m.erase({key, it->second});
}

struct ModelFilter {
  Counts existing, affinity, anti;
  std::vector<AffinityTerm> aff_terms, anti_terms;
  bool skip = false;
  bool matches_own = false;
};

ModelFilter ModelPreFilter(const api::Pod& pod, const std::vector<Placed>& cluster,
                           const std::map<std::string, api::Labels>& ns) {
  ModelFilter m;
  m.aff_terms = Terms(pod, false, true);
  m.anti_terms = Terms(pod, true, true);
  for (auto& t : m.aff_terms) MergeAffinityTermNamespaces(t, ns);
  for (auto& t : m.anti_terms) MergeAffinityTermNamespaces(t, ns);
  const api::Labels ns_labels = NamespaceLabelsOf(pod.ns, ns);
  for (const Placed& p : cluster) {
    for (const api::Pod& q : p.pods) {
      for (const auto& t : Terms(q, true, true)) {
        if (TermMatches(t, pod, ns_labels)) Bump(m.existing, p.node, t.topology_key, 1);
      }
      if (PodMatchesAllAffinityTerms(m.aff_terms, q)) {
        for (const auto& t : m.aff_terms) Bump(m.affinity, p.node, t.topology_key, 1);
      }
      for (const auto& t : m.anti_terms) {
        if (TermMatches(t, q, {})) Bump(m.anti, p.node, t.topology_key, 1);
      }
    }
  }
  m.skip = m.existing.empty() && m.aff_terms.empty() && m.anti_terms.empty();
  m.matches_own = PodMatchesAllAffinityTerms(m.aff_terms, pod);
  return m;
}

Status ModelFilterNode(const ModelFilter& m, const api::Node& node) {
  auto count = [](const Counts& c, const std::string& k, const std::string& v) {
    auto it = c.find({k, v});
    return it == c.end() ? 0 : it->second;
  };
  bool exist = true;
  for (const auto& t : m.aff_terms) {
    auto l = node.labels.find(t.topology_key);
    if (l == node.labels.end()) {
      return Status(Code::kUnschedulableAndUnresolvable, kErrReasonAffinityRulesNotMatch);
    }
    if (count(m.affinity, t.topology_key, l->second) <= 0) exist = false;
  }
  if (!exist && !(m.affinity.empty() && m.matches_own)) {
    return Status(Code::kUnschedulableAndUnresolvable, kErrReasonAffinityRulesNotMatch);
  }
  for (const auto& t : m.anti_terms) {
    auto l = node.labels.find(t.topology_key);
    if (l != node.labels.end() && count(m.anti, t.topology_key, l->second) > 0) {
      return Status(Code::kUnschedulable, kErrReasonAntiAffinityRulesNotMatch);
    }
  }
  for (const auto& [k, v] : node.labels) {
    if (count(m.existing, k, v) > 0) {
      return Status(Code::kUnschedulable, kErrReasonExistingAntiAffinityRulesNotMatch);
    }
  }
  return Status::Success();
}

// nullopt: Skip.
std::optional<std::vector<int64_t>> ModelScores(
    const api::Pod& pod, const std::vector<Placed>& cluster,
    const std::vector<size_t>& candidates, const std::map<std::string, api::Labels>& ns,
    const InterPodAffinityArgs& args) {
  auto pref = Preferred(pod, false);
  auto pref_anti = Preferred(pod, true);
  if (args.ignore_preferred_terms_of_existing_pods && pref.empty() && pref_anti.empty()) {
    return std::nullopt;
  }
  for (auto& t : pref) MergeAffinityTermNamespaces(t.term, ns);
  for (auto& t : pref_anti) MergeAffinityTermNamespaces(t.term, ns);
  const api::Labels ns_labels = NamespaceLabelsOf(pod.ns, ns);
  std::map<std::string, std::map<std::string, int64_t>> score;
  bool touched = false;
  auto process = [&](const AffinityTerm& t, int32_t w, const api::Pod& target,
                     const api::Labels& nsl, const api::Node& node, int32_t mult) {
    if (!TermMatches(t, target, nsl)) return;
    auto l = node.labels.find(t.topology_key);
    if (l == node.labels.end()) return;
    score[t.topology_key][l->second] += w * mult;
    touched = true;
  };
  for (const Placed& p : cluster) {
    if (p.node.labels.empty()) continue;
    for (const api::Pod& q : p.pods) {
      for (const auto& t : pref) process(t.term, t.weight, q, {}, p.node, 1);
      for (const auto& t : pref_anti) process(t.term, t.weight, q, {}, p.node, -1);
      if (args.hard_pod_affinity_weight > 0) {
        for (const auto& t : Terms(q, false, true)) {
          process(t, args.hard_pod_affinity_weight, pod, ns_labels, p.node, 1);
        }
      }
      for (const auto& t : Preferred(q, false)) process(t.term, t.weight, pod, ns_labels, p.node, 1);
      for (const auto& t : Preferred(q, true)) process(t.term, t.weight, pod, ns_labels, p.node, -1);
    }
  }
  if (!touched) return std::nullopt;
  std::vector<int64_t> out;
  for (size_t c : candidates) {
    int64_t s = 0;
    for (const auto& [k, values] : score) {
      auto l = cluster[c].node.labels.find(k);
      if (l == cluster[c].node.labels.end()) continue;
      auto it = values.find(l->second);
      if (it != values.end()) s += it->second;
    }
    out.push_back(s);
  }
  if (out.empty()) return out;
  const int64_t mn = *std::min_element(out.begin(), out.end());
  const int64_t mx = *std::max_element(out.begin(), out.end());
  for (int64_t& s : out) {
    s = mx == mn ? 0 : static_cast<int64_t>(100.0 * (static_cast<double>(s - mn) /
                                                      static_cast<double>(mx - mn)));
  }
  return out;
}

// --- Random clusters ----------------------------------------------------------

class Gen {
 public:
  explicit Gen(uint32_t seed) : rng_(seed) {}
  int Int(int n) { return static_cast<int>(rng_() % n); }
  bool Chance(int percent) { return Int(100) < percent; }
  template <typename T>
  const T& Pick(const std::vector<T>& v) { return v[Int(static_cast<int>(v.size()))]; }

  api::Node Node(const std::string& name) {
    st::NodeWrapper w = st::MakeNode().Name(name);
    if (Chance(90)) w.Label("zone", Pick<std::string>({"z1", "z2", "z3"}));
    if (Chance(80)) w.Label("region", Pick<std::string>({"r1", "r2"}));
    if (Chance(85)) w.Label("host", name);
    if (Chance(10)) w.Label("rack", Pick<std::string>({"k1", "k2"}));
    // No generated term uses "spare"; AddPod brings it in.
    if (Chance(50)) w.Label("spare", Pick<std::string>({"s1", "s2"}));
    return w.Obj();
  }

  api::PodAffinityTerm Term() {
    api::PodAffinityTerm t;
    t.topology_key = Pick<std::string>({"zone", "region", "host", "rack", "nokey"});
    switch (Int(6)) {
      case 0: t.label_selector = api::LabelSelector{}; break;
      case 1: break;  // absent: matches nothing
      case 2:
        t.label_selector = api::LabelSelector{{}, {{"tier", "NotIn", {"x"}}}};
        break;
      default:
        t.label_selector = api::LabelSelector{
            {}, {{"app", "In", {Pick<std::string>({"a", "b", "c"})}}}};
    }
    switch (Int(5)) {
      case 0: t.namespaces = {Pick<std::string>({"default", "ns1", "ns2"})}; break;
      case 1: t.namespace_selector = api::LabelSelector{{{"team", "t1"}}, {}}; break;
      case 2: t.namespace_selector = api::LabelSelector{}; break;
      default: break;
    }
    if (Chance(15)) t.match_label_keys = {"tier"};
    if (Chance(10)) t.mismatch_label_keys = {"app"};
    return t;
  }

  api::Pod Pod(const std::string& name, const std::string& node) {
    st::PodWrapper w = st::MakePod().Name(name).Node(node).Namespace(
        Chance(70) ? "default" : Pick<std::string>({"ns1", "ns2", "ns3"}));
    if (Chance(80)) w.Label("app", Pick<std::string>({"a", "b", "c"}));
    if (Chance(50)) w.Label("tier", Pick<std::string>({"x", "y"}));
    api::Pod p = w.Obj();
    if (Chance(55)) {
      p.affinity.emplace();
      auto fill = [&](std::optional<api::PodAffinity>& a) {
        if (Chance(40)) return;
        a.emplace();
        for (int i = Int(3); i > 0; --i) a->required.push_back(Term());
        for (int i = Int(3); i > 0; --i) {
          a->preferred.push_back({1 + Int(100), Term()});
        }
      };
      fill(p.affinity->pod_affinity);
      fill(p.affinity->pod_anti_affinity);
    }
    return p;
  }

 private:
  std::mt19937 rng_;
};

const std::map<std::string, api::Labels> kNamespaces = {
    {"default", {}}, {"ns1", {{"team", "t1"}}}, {"ns2", {{"team", "t2"}}}};

std::vector<Placed> Cluster(const std::vector<api::Node>& nodes,
                            const std::vector<api::Pod>& pods) {
  std::vector<Placed> out;
  for (const api::Node& n : nodes) {
    out.push_back({n, {}});
    for (const api::Pod& p : pods) {
      if (p.node_name == n.name) out.back().pods.push_back(p);
    }
  }
  return out;
}

void CheckFilters(PluginEnv& env, const CycleState& state, const api::Pod& pod,
                  const ModelFilter& model, const std::vector<Placed>& cluster) {
  const PodInfoPtr info = NewPodInfo(pod);
  for (const Placed& p : cluster) {
    const NodeInfo* node = env.snapshot().Get(p.node.name);
    ASSERT_NE(node, nullptr);
    const Status want = ModelFilterNode(model, p.node);
    ASSERT_EQ(env.plugin->Filter(state, *info, *node), want) << p.node.name;
    // A copy outside the snapshot (index -1) takes the string path.
    NodeInfo copy = *node;
    copy.index = -1;
    ASSERT_EQ(env.plugin->Filter(state, *info, copy), want) << p.node.name << " (copy)";
  }
}

// PreScore, Score and NormalizeScore over `candidates` (indexes into
// `cluster`; candidate_infos are their NodeInfos) against the model.
void CheckScores(PluginEnv& env, const api::Pod& pod, const std::vector<Placed>& cluster,
                 const std::vector<size_t>& candidates,
                 const std::vector<const NodeInfo*>& candidate_infos,
                 const InterPodAffinityArgs& args) {
  const PodInfoPtr info = NewPodInfo(pod);
  const auto want = ModelScores(pod, cluster, candidates, kNamespaces, args);
  CycleState score_state;
  const Status pre_score = env.plugin->PreScore(score_state, *info, candidate_infos);
  ASSERT_EQ(pre_score.IsSkip(), !want.has_value());
  if (!want) return;
  ASSERT_TRUE(pre_score.IsSuccess());
  std::vector<int64_t> got;
  for (const NodeInfo* n : candidate_infos) {
    ScoreOutput s = env.plugin->Score(score_state, *info, *n);
    ASSERT_TRUE(s.status.IsSuccess());
    // A node PreScore was not given is scored from the strings.
    NodeInfo copy = *n;
    ASSERT_EQ(env.plugin->Score(score_state, *info, copy).score, s.score);
    got.push_back(s.score);
  }
  ASSERT_TRUE(env.plugin->NormalizeScore(score_state, *info, candidate_infos, got)
                  .IsSuccess());
  ASSERT_EQ(got, *want);
}

TEST(InterPodAffinityDifferentialTest, RandomClusters) {
  for (uint32_t seed = 1; seed <= 60; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Gen g(seed);
    std::vector<api::Node> nodes;
    const int num_nodes = 33 + g.Int(70);
    for (int i = 0; i < num_nodes; ++i) nodes.push_back(g.Node("n" + std::to_string(i)));
    std::vector<api::Pod> pods;
    for (int i = g.Int(num_nodes * 3); i > 0; --i) {
      pods.push_back(g.Pod("e" + std::to_string(i), g.Pick(nodes).name));
    }
    const api::Pod incoming = g.Pod("incoming", "");
    const std::vector<Placed> cluster = Cluster(nodes, pods);
    InterPodAffinityArgs args;
    args.hard_pod_affinity_weight = g.Int(3);
    args.ignore_preferred_terms_of_existing_pods = g.Chance(20);

    for (int threads : {1, 4}) {
      SCOPED_TRACE("threads " + std::to_string(threads));
      auto env = SetupPlugin(pods, nodes, kNamespaces, args, threads);
      const PodInfoPtr info = NewPodInfo(incoming);

      // --- Filter ---
      const ModelFilter model = ModelPreFilter(incoming, cluster, kNamespaces);
      CycleState state;
      PreFilterOutput pre = RunPreFilter(*env, state, incoming);
      ASSERT_EQ(pre.status.IsSkip(), model.skip);
      if (!model.skip) {
        ASSERT_TRUE(pre.status.IsSuccess());
        const PreFilterState* s = ReadPreFilterState(state);
        ASSERT_EQ(s->ExistingAntiAffinityCounts(), model.existing);
        ASSERT_EQ(s->AffinityCounts(), model.affinity);
        ASSERT_EQ(s->AntiAffinityCounts(), model.anti);
        CheckFilters(*env, state, incoming, model, cluster);

        // RemovePod of a random existing pod on a copy of its node, in a
        // clone; the original state is untouched.
        if (!pods.empty()) {
          const api::Pod victim = g.Pick(pods);
          std::vector<Placed> without = cluster;
          for (Placed& p : without) {
            std::erase_if(p.pods, [&](const api::Pod& q) { return q.uid == victim.uid; });
          }
          CycleState clone = state;
          NodeInfo node_copy = *env->snapshot().Get(victim.node_name);
          ASSERT_TRUE(env->plugin
                          ->RemovePod(clone, *info, *NewPodInfo(victim), node_copy)
                          .IsSuccess());
          CheckFilters(*env, clone, incoming,
                       ModelPreFilter(incoming, without, kNamespaces), without);
          CheckFilters(*env, state, incoming, model, cluster);

          // Then AddPod of a pod whose anti-affinity uses a key no term had
          // at PreFilter ("spare", on some snapshot nodes) on a random node,
          // and of another pod on a node outside the snapshot.
          api::Pod nominated = g.Pod("nominated", g.Pick(nodes).name);
          api::PodAffinityTerm t = g.Term();
          t.topology_key = "spare";
          t.label_selector = api::LabelSelector{};
          t.namespace_selector = api::LabelSelector{};
          if (!nominated.affinity) nominated.affinity.emplace();
          if (!nominated.affinity->pod_anti_affinity) {
            nominated.affinity->pod_anti_affinity.emplace();
          }
          nominated.affinity->pod_anti_affinity->required.push_back(t);
          api::Node outside = g.Node("outside");
          outside.labels["spare"] = "s1";
          outside.labels["zone"] = "z9";
          api::Pod far = g.Pod("far", "outside");
          far.affinity = nominated.affinity;
          std::vector<Placed> with = without;
          for (Placed& p : with) {
            if (p.node.name == nominated.node_name) p.pods.push_back(nominated);
          }
          with.push_back({outside, {far}});
          ASSERT_TRUE(env->plugin
                          ->AddPod(clone, *info, *NewPodInfo(nominated),
                                   *env->snapshot().Get(nominated.node_name))
                          .IsSuccess());
          NodeInfo outside_info(std::make_shared<const api::Node>(outside));
          ASSERT_TRUE(
              env->plugin->AddPod(clone, *info, *NewPodInfo(far), outside_info).IsSuccess());
          const ModelFilter with_model = ModelPreFilter(incoming, with, kNamespaces);
          const PreFilterState* cs = ReadPreFilterState(clone);
          ASSERT_EQ(cs->ExistingAntiAffinityCounts(), with_model.existing);
          ASSERT_EQ(cs->AffinityCounts(), with_model.affinity);
          ASSERT_EQ(cs->AntiAffinityCounts(), with_model.anti);
          ASSERT_EQ(env->plugin->Filter(clone, *info, outside_info),
                    ModelFilterNode(with_model, outside));
          CheckFilters(*env, clone, incoming, with_model, without);
          // And back: removing both restores the counts of `without`.
          ASSERT_TRUE(env->plugin
                          ->RemovePod(clone, *info, *NewPodInfo(nominated),
                                      *env->snapshot().Get(nominated.node_name))
                          .IsSuccess());
          ASSERT_TRUE(
              env->plugin->RemovePod(clone, *info, *NewPodInfo(far), outside_info)
                  .IsSuccess());
          const ModelFilter back = ModelPreFilter(incoming, without, kNamespaces);
          ASSERT_EQ(cs->ExistingAntiAffinityCounts(), back.existing);
          ASSERT_EQ(cs->AffinityCounts(), back.affinity);
          ASSERT_EQ(cs->AntiAffinityCounts(), back.anti);
          CheckFilters(*env, clone, incoming, back, without);
        }
      }

      // --- Score ---
      std::vector<size_t> candidates;
      std::vector<const NodeInfo*> candidate_infos;
      for (size_t i = 0; i < nodes.size(); ++i) {
        if (g.Chance(70)) {
          candidates.push_back(i);
          candidate_infos.push_back(env->snapshot().Get(nodes[i].name));
        }
      }
      CheckScores(*env, incoming, cluster, candidates, candidate_infos, args);
    }
  }
}

// The snapshot index (snapshot_index.h): one plugin kept over many cycles
// of a snapshot maintained the way the cache maintains it (cache-wide
// generations), while pods come and go, nodes change labels, join and
// leave, and the incoming pod changes, must compute what the model computes from scratch
// in every cycle.
TEST(InterPodAffinityDifferentialTest, SnapshotIndexAcrossCycles) {
  int checked = 0;
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Gen g(seed);
    std::vector<api::Node> nodes;
    const int num_nodes = 33 + g.Int(40);
    for (int i = 0; i < num_nodes; ++i) nodes.push_back(g.Node("n" + std::to_string(i)));
    std::vector<api::Pod> pods;
    for (int i = g.Int(num_nodes * 2); i > 0; --i) {
      pods.push_back(g.Pod("e" + std::to_string(i), g.Pick(nodes).name));
    }
    std::vector<api::Pod> incoming;
    for (int i = 0; i < 4; ++i) incoming.push_back(g.Pod("incoming" + std::to_string(i), ""));
    const std::vector<api::Node> initial_nodes = nodes;
    for (int threads : {1, 4}) {
      SCOPED_TRACE("threads " + std::to_string(threads));
      nodes = initial_nodes;  // the cycles below add and remove nodes
      InterPodAffinityArgs args;
      args.hard_pod_affinity_weight = g.Int(3);
      auto env = SetupPlugin(pods, nodes, kNamespaces, args, threads);
      auto* snapshot = const_cast<Snapshot*>(&env->snapshot());
      SnapshotStepper stepper(*snapshot);
      int next_pod = 0;
      for (int cycle = 0; cycle < 25; ++cycle) {
        SCOPED_TRACE("cycle " + std::to_string(cycle));
        // Now and then a node joins at the end of the list or leaves from
        // anywhere in it (positions move, the list changes size).
        if (g.Chance(20)) {
          nodes.push_back(g.Node("added" + std::to_string(cycle)));
          stepper.AddNode(nodes.back());
        } else if (g.Chance(15) && nodes.size() > 1) {
          const size_t gone = static_cast<size_t>(g.Int(static_cast<int>(nodes.size())));
          stepper.RemoveNode(nodes[gone].name);
          nodes.erase(nodes.begin() + static_cast<std::ptrdiff_t>(gone));
        }
        // One change, as the cache would publish it.
        const api::Node& target = g.Pick(nodes);
        stepper.Step(target.name, [&](NodeInfo& info) {
          RandomNodeChange(
              info, g.Int(5),
              [&] { return g.Pod("c" + std::to_string(next_pod++), target.name); },
              [&](size_t n) { return static_cast<size_t>(g.Int(static_cast<int>(n))); },
              [&](api::Node& n) {
                n.labels["zone"] = g.Pick<std::string>({"z1", "z2", "z4"});
                if (g.Chance(30)) n.labels.erase("host");
              });
        });

        std::vector<Placed> cluster;
        for (const NodeInfo* n : snapshot->List()) {
          cluster.push_back({*n->node(), {}});
          for (const PodInfoPtr& p : n->pods()) cluster.back().pods.push_back(p->pod);
        }
        const api::Pod& pod = incoming[g.Int(cycle < 10 ? 1 : 4)];
        const ModelFilter model = ModelPreFilter(pod, cluster, kNamespaces);
        CycleState state;
        PreFilterOutput pre = RunPreFilter(*env, state, pod);
        ASSERT_EQ(pre.status.IsSkip(), model.skip);
        ++checked;
        std::vector<size_t> candidates;
        std::vector<const NodeInfo*> candidate_infos;
        for (size_t i = 0; i < cluster.size(); ++i) {
          candidates.push_back(i);
          candidate_infos.push_back(snapshot->List()[i]);
        }
        CheckScores(*env, pod, cluster, candidates, candidate_infos, args);
        if (model.skip) continue;
        const PreFilterState* s = ReadPreFilterState(state);
        ASSERT_EQ(s->ExistingAntiAffinityCounts(), model.existing);
        ASSERT_EQ(s->AffinityCounts(), model.affinity);
        ASSERT_EQ(s->AntiAffinityCounts(), model.anti);
        CheckFilters(*env, state, pod, model, cluster);
      }
    }
  }
  EXPECT_EQ(checked, 20 * 2 * 25);
}

}  // namespace
}  // namespace schedref::optimized::framework::plugins::interpodaffinity
