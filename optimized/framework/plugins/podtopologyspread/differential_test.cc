// The optimized PodTopologySpread against a naive model written straight
// from docs/semantics/podtopologyspread.md (string maps, minimum scanned
// every time), on random clusters large enough for the parallel loops to
// split (> 32 nodes), with 1 and 4 threads. A random sequence of
// AddPod/RemovePod on a clone (snapshot nodes, copies of them, a node
// outside the snapshot) checks the counts, the kept minimum and Filter
// after every step.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "optimized/framework/plugins/podtopologyspread/common.h"
#include "optimized/framework/plugins/podtopologyspread/pod_topology_spread.h"
#include "optimized/framework/plugins/podtopologyspread/test_util.h"
#include "optimized/framework/testing/fixtures.h"
#include "testing/st/wrappers.h"

namespace schedref::optimized::framework::plugins::podtopologyspread {
namespace {

using framework::testing::RandomNodeChange;
using framework::testing::SnapshotStepper;

// --- The model -----------------------------------------------------------------

struct Placed {
  api::Node node;
  std::vector<api::Pod> pods;
};

bool HasAllKeys(const api::Node& node, const std::vector<Constraint>& cs) {
  for (const Constraint& c : cs) {
    if (!node.labels.contains(c.topology_key)) return false;
  }
  return true;
}

int CountMatching(const std::vector<api::Pod>& pods, const Constraint& c,
                  const std::string& ns) {
  if (!c.selector) return 0;
  if (c.selector->match_labels.empty() && c.selector->match_expressions.empty()) return 0;
  int n = 0;
  for (const api::Pod& p : pods) {
    if (!p.deletion_timestamp && p.ns == ns && SelectorMatches(c.selector, p.labels)) ++n;
  }
  return n;
}

struct Model {
  std::vector<Constraint> constraints;
  std::vector<std::map<std::string, int>> counts;

  int Min(size_t c) const {
    if (static_cast<int64_t>(counts[c].size()) < constraints[c].min_domains) return 0;
    int m = INT32_MAX;
    for (const auto& [v, n] : counts[c]) m = std::min(m, n);
    return m;
  }
  void Update(const api::Pod& incoming, const api::Pod& pod, const api::Node& node,
              int delta) {
    if (pod.ns != incoming.ns || !HasAllKeys(node, constraints)) return;
    for (size_t c = 0; c < constraints.size(); ++c) {
      if (!SelectorMatches(constraints[c].selector, pod.labels)) continue;
      if (!MatchNodeInclusionPolicies(constraints[c], incoming, node)) continue;
      counts[c][node.labels.at(constraints[c].topology_key)] += delta;
    }
  }
  Status Filter(const api::Pod& pod, const api::Node& node) const {
    for (size_t c = 0; c < constraints.size(); ++c) {
      auto v = node.labels.find(constraints[c].topology_key);
      if (v == node.labels.end()) {
        return Status(Code::kUnschedulableAndUnresolvable, kErrReasonNodeLabelNotMatch);
      }
      auto it = counts[c].find(v->second);
      const int64_t skew = static_cast<int64_t>(it == counts[c].end() ? 0 : it->second) +
                           (SelectorMatches(constraints[c].selector, pod.labels) ? 1 : 0) -
                           Min(c);
      if (skew > constraints[c].max_skew) {
        return Status(Code::kUnschedulable, kErrReasonConstraintsNotMatch);
      }
    }
    return Status::Success();
  }
};

Model ModelPreFilter(const api::Pod& pod, const std::vector<Placed>& cluster) {
  Model m;
  m.constraints =
      FilterTopologySpreadConstraints(pod.topology_spread_constraints, pod.labels,
                                      api::kDoNotSchedule);
  m.counts.resize(m.constraints.size());
  for (const Placed& p : cluster) {
    if (!HasAllKeys(p.node, m.constraints)) continue;
    for (size_t c = 0; c < m.constraints.size(); ++c) {
      if (!MatchNodeInclusionPolicies(m.constraints[c], pod, p.node)) continue;
      m.counts[c][p.node.labels.at(m.constraints[c].topology_key)] +=
          CountMatching(p.pods, m.constraints[c], pod.ns);
    }
  }
  return m;
}

// nullopt: Skip. `candidates` index `cluster`.
std::optional<std::vector<int64_t>> ModelScores(const api::Pod& pod,
                                                const std::vector<Placed>& cluster,
                                                const std::vector<size_t>& candidates) {
  if (cluster.empty()) return std::nullopt;
  const std::vector<Constraint> cs = FilterTopologySpreadConstraints(
      pod.topology_spread_constraints, pod.labels, api::kScheduleAnyway);
  if (cs.empty()) return std::nullopt;
  std::vector<std::map<std::string, int64_t>> domains(cs.size());
  size_t ignored = 0;
  for (size_t i : candidates) {
    if (!HasAllKeys(cluster[i].node, cs)) {
      ++ignored;
      continue;
    }
    for (size_t c = 0; c < cs.size(); ++c) {
      if (cs[c].topology_key == api::kLabelHostname) continue;
      domains[c].emplace(cluster[i].node.labels.at(cs[c].topology_key), 0);
    }
  }
  std::vector<double> weight;
  for (size_t c = 0; c < cs.size(); ++c) {
    size_t size = domains[c].size();
    if (cs[c].topology_key == api::kLabelHostname) size = candidates.size() - ignored;
    weight.push_back(std::log(static_cast<double>(size + 2)));
  }
  for (const Placed& p : cluster) {
    if (!HasAllKeys(p.node, cs)) continue;
    for (size_t c = 0; c < cs.size(); ++c) {
      if (!MatchNodeInclusionPolicies(cs[c], pod, p.node)) continue;
      auto it = domains[c].find(p.node.labels.at(cs[c].topology_key));
      if (it != domains[c].end()) it->second += CountMatching(p.pods, cs[c], pod.ns);
    }
  }
  std::vector<int64_t> raw;
  std::vector<bool> skip;
  for (size_t i : candidates) {
    const Placed& p = cluster[i];
    skip.push_back(!HasAllKeys(p.node, cs));
    double s = 0;
    for (size_t c = 0; c < cs.size() && !skip.back(); ++c) {
      const std::string& v = p.node.labels.at(cs[c].topology_key);
      int64_t count = cs[c].topology_key == api::kLabelHostname
                          ? CountMatching(p.pods, cs[c], pod.ns)
                          : domains[c].at(v);
      s += static_cast<double>(count) * weight[c] + static_cast<double>(cs[c].max_skew - 1);
    }
    raw.push_back(skip.back() ? 0 : static_cast<int64_t>(std::round(s)));
  }
  int64_t mn = INT64_MAX, mx = 0;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (skip[i]) continue;
    mn = std::min(mn, raw[i]);
    mx = std::max(mx, raw[i]);
  }
  for (size_t i = 0; i < raw.size(); ++i) {
    if (skip[i]) {
      raw[i] = 0;
    } else {
      raw[i] = mx == 0 ? 100 : 100 * (mx + mn - raw[i]) / mx;
    }
  }
  return raw;
}

// --- Random clusters --------------------------------------------------------------

class Gen {
 public:
  explicit Gen(uint32_t seed) : rng_(seed) {}
  int Int(int n) { return static_cast<int>(rng_() % n); }
  bool Chance(int percent) { return Int(100) < percent; }
  template <typename T>
  const T& Pick(const std::vector<T>& v) { return v[Int(static_cast<int>(v.size()))]; }

  api::Node Node(const std::string& name, int num_zones) {
    st::NodeWrapper w = st::MakeNode().Name(name);
    if (Chance(92)) w.Label("zone", "z" + std::to_string(Int(num_zones)));
    if (Chance(90)) w.Label("node", name);
    if (Chance(92)) w.Label(api::kLabelHostname, name);
    if (Chance(20)) w.Label("disk", "ssd");
    if (Chance(15)) w.Taint({"t", "", Chance(50) ? "NoSchedule" : "PreferNoSchedule"});
    return w.Obj();
  }

  api::Pod Pod(const std::string& name, const std::string& node) {
    st::PodWrapper w = st::MakePod().Name(name).Node(node).Namespace(
        Chance(80) ? "default" : "ns1");
    if (Chance(70)) w.Label("foo", "");
    if (Chance(40)) w.Label("bar", Pick<std::string>({"1", "2"}));
    if (Chance(5)) w.Terminating();
    return w.Obj();
  }

  api::TopologySpreadConstraint Constraint(const std::string& when) {
    api::TopologySpreadConstraint c;
    c.max_skew = 1 + Int(3);
    c.topology_key =
        Pick<std::string>({"zone", "zone", "node", api::kLabelHostname, "rack"});
    c.when_unsatisfiable = when;
    switch (Int(6)) {
      case 0: c.label_selector = api::LabelSelector{}; break;
      case 1: break;
      case 2: c.label_selector = ExistsSelector("bar"); break;
      default: c.label_selector = ExistsSelector("foo");
    }
    if (Chance(30)) c.min_domains = 1 + Int(6);
    if (Chance(25)) c.node_affinity_policy = Pick<std::string>({"Honor", "Ignore"});
    if (Chance(30)) c.node_taints_policy = Pick<std::string>({"Honor", "Ignore"});
    if (Chance(20)) c.match_label_keys = {"bar"};
    return c;
  }

  api::Pod Incoming() {
    api::Pod p = Pod("incoming", "");
    for (int i = Int(3); i > 0; --i) {
      p.topology_spread_constraints.push_back(
          Constraint(Chance(60) ? api::kDoNotSchedule : api::kScheduleAnyway));
    }
    if (Chance(20)) p.node_selector = {{"disk", "ssd"}};
    if (Chance(30)) p.tolerations = {{"t", "Exists", "", "NoSchedule", std::nullopt}};
    return p;
  }

 private:
  std::mt19937 rng_;
};

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

void CheckState(PluginEnv& env, const CycleState& state, const api::Pod& pod,
                const Model& model, const std::vector<Placed>& cluster,
                const std::string& step) {
  SCOPED_TRACE(step);
  const PreFilterState* s = ReadPreFilterState(state);
  for (size_t c = 0; c < model.constraints.size(); ++c) {
    ASSERT_EQ(s->Counts(c), model.counts[c]) << "constraint " << c;
    ASSERT_EQ(s->MinMatchNum(c), model.Min(c)) << "constraint " << c;
  }
  const PodInfoPtr info = NewPodInfo(pod);
  for (const Placed& p : cluster) {
    const Status want = model.Filter(pod, p.node);
    ASSERT_EQ(env.plugin->Filter(state, *info, env.Node(p.node.name)), want) << p.node.name;
    NodeInfo copy = env.Node(p.node.name);
    copy.index = -1;
    ASSERT_EQ(env.plugin->Filter(state, *info, copy), want) << p.node.name << " (copy)";
  }
}

TEST(PodTopologySpreadDifferentialTest, RandomClusters) {
  int filtered = 0, scored = 0;
  for (uint32_t seed = 1; seed <= 80; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Gen g(seed);
    std::vector<api::Node> nodes;
    const int num_nodes = 33 + g.Int(60);
    const int num_zones = 1 + g.Int(6);
    for (int i = 0; i < num_nodes; ++i) {
      nodes.push_back(g.Node("n" + std::to_string(i), num_zones));
    }
    std::vector<api::Pod> pods;
    for (int i = g.Int(num_nodes * 3); i > 0; --i) {
      pods.push_back(g.Pod("e" + std::to_string(i), g.Pick(nodes).name));
    }
    const api::Pod incoming = g.Incoming();
    const std::vector<Placed> cluster = Cluster(nodes, pods);

    for (int threads : {1, 4}) {
      SCOPED_TRACE("threads " + std::to_string(threads));
      auto env = SetupPlugin(pods, nodes, {{}, kListDefaulting}, threads);
      const PodInfoPtr info = NewPodInfo(incoming);

      Model model = ModelPreFilter(incoming, cluster);
      CycleState state;
      PreFilterOutput pre = RunPreFilter(*env, state, incoming);
      ASSERT_EQ(pre.status.IsSkip(), model.constraints.empty());
      if (!model.constraints.empty()) {
        ++filtered;
        ASSERT_TRUE(pre.status.IsSuccess());
        CheckState(*env, state, incoming, model, cluster, "prefilter");

        // A clone through random AddPod/RemovePod steps.
        CycleState clone = state;
        Model clone_model = model;
        api::Node outside = g.Node("outside", num_zones + 2);
        outside.labels["zone"] = "z-new";
        NodeInfo outside_info(std::make_shared<const api::Node>(outside));
        for (int step = 0; step < 12; ++step) {
          const bool add = g.Chance(60);
          api::Pod p = (add || pods.empty()) ? g.Pod("x" + std::to_string(step), "")
                                             : g.Pick(pods);
          const int where = g.Int(10);
          const NodeInfo* node;
          NodeInfo copy;
          if (where == 0) {
            node = &outside_info;
          } else if (where < 4) {
            copy = env->Node(g.Pick(nodes).name);
            node = &copy;
          } else {
            node = &env->Node(g.Pick(nodes).name);
          }
          const PodInfoPtr pi = NewPodInfo(p);
          if (add) {
            ASSERT_TRUE(env->plugin->AddPod(clone, *info, *pi, *node).IsSuccess());
          } else {
            ASSERT_TRUE(env->plugin->RemovePod(clone, *info, *pi, *node).IsSuccess());
          }
          clone_model.Update(incoming, p, *node->node(), add ? 1 : -1);
          CheckState(*env, clone, incoming, clone_model, cluster,
                     "step " + std::to_string(step));
          ASSERT_EQ(env->plugin->Filter(clone, *info, outside_info),
                    clone_model.Filter(incoming, outside));
        }
        // The original is untouched.
        CheckState(*env, state, incoming, model, cluster, "original after clone");
      }

      std::vector<size_t> candidates;
      std::vector<const NodeInfo*> candidate_infos;
      for (size_t i = 0; i < nodes.size(); ++i) {
        if (g.Chance(70)) {
          candidates.push_back(i);
          candidate_infos.push_back(&env->Node(nodes[i].name));
        }
      }
      const auto want = ModelScores(incoming, cluster, candidates);
      CycleState score_state;
      const Status pre_score = env->plugin->PreScore(score_state, *info, candidate_infos);
      ASSERT_EQ(pre_score.IsSkip(), !want.has_value());
      if (!want) continue;
      ++scored;
      ASSERT_TRUE(pre_score.IsSuccess());
      std::vector<int64_t> got;
      for (const NodeInfo* n : candidate_infos) {
        ScoreOutput s = env->plugin->Score(score_state, *info, *n);
        ASSERT_TRUE(s.status.IsSuccess());
        NodeInfo copy = *n;  // not the NodeInfo PreScore saw: computed again
        ASSERT_EQ(env->plugin->Score(score_state, *info, copy).score, s.score);
        got.push_back(s.score);
      }
      ASSERT_TRUE(env->plugin->NormalizeScore(score_state, *info, candidate_infos, got)
                      .IsSuccess());
      ASSERT_EQ(got, *want);
    }
  }
  // The generator must exercise both halves.
  EXPECT_GT(filtered, 40);
  EXPECT_GT(scored, 40);
}

// The per-node memo (pod_topology_spread.h "Memo"): one plugin kept over
// many cycles of a snapshot maintained the way the cache maintains it
// (cache-wide generations), while pods come and go, nodes change labels
// and the incoming pod changes, must compute what the model computes from
// scratch in every cycle.
TEST(PodTopologySpreadDifferentialTest, MemoAcrossCycles) {
  int checked = 0;
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Gen g(seed);
    std::vector<api::Node> nodes;
    const int num_nodes = 33 + g.Int(40);
    const int num_zones = 1 + g.Int(5);
    for (int i = 0; i < num_nodes; ++i) {
      nodes.push_back(g.Node("n" + std::to_string(i), num_zones));
    }
    std::vector<api::Pod> pods;
    for (int i = g.Int(num_nodes * 2); i > 0; --i) {
      pods.push_back(g.Pod("e" + std::to_string(i), g.Pick(nodes).name));
    }
    std::vector<api::Pod> incoming;
    for (int i = 0; i < 3; ++i) {
      api::Pod p = g.Incoming();
      p.topology_spread_constraints.push_back(Tsc(1 + g.Int(3), g.Chance(50) ? "zone" : "node",
                                                  kDoNotSchedule, ExistsSelector("foo")));
      incoming.push_back(p);
    }
    for (int threads : {1, 4}) {
      SCOPED_TRACE("threads " + std::to_string(threads));
      auto env = SetupPlugin(pods, nodes, {{}, kListDefaulting}, threads);
      auto* snapshot = const_cast<Snapshot*>(&env->snapshot());
      SnapshotStepper stepper(*snapshot);
      int next_pod = 0;
      for (int cycle = 0; cycle < 25; ++cycle) {
        SCOPED_TRACE("cycle " + std::to_string(cycle));
        // One change, as the cache would publish it.
        const api::Node& target = g.Pick(nodes);
        stepper.Step(target.name, [&](NodeInfo& info) {
          RandomNodeChange(
              info, g.Int(5),
              [&] { return g.Pod("c" + std::to_string(next_pod++), target.name); },
              [&](size_t n) { return static_cast<size_t>(g.Int(static_cast<int>(n))); },
              [&](api::Node& n) {
                n.labels["zone"] = "z" + std::to_string(g.Int(num_zones + 1));
                if (g.Chance(20)) n.labels.erase("node");
              });
        });

        std::vector<Placed> cluster;
        for (const NodeInfo* n : snapshot->List()) {
          cluster.push_back({*n->node(), {}});
          for (const PodInfoPtr& p : n->pods()) cluster.back().pods.push_back(p->pod);
        }
        const api::Pod& pod = incoming[g.Int(cycle < 10 ? 1 : 3)];
        const Model model = ModelPreFilter(pod, cluster);
        CycleState state;
        ASSERT_TRUE(RunPreFilter(*env, state, pod).status.IsSuccess());
        const PodInfoPtr pi = NewPodInfo(pod);
        const PreFilterState* s = ReadPreFilterState(state);
        for (size_t c = 0; c < model.constraints.size(); ++c) {
          ASSERT_EQ(s->Counts(c), model.counts[c]) << "constraint " << c;
          ASSERT_EQ(s->MinMatchNum(c), model.Min(c)) << "constraint " << c;
        }
        for (const Placed& p : cluster) {
          ASSERT_EQ(env->plugin->Filter(state, *pi, env->Node(p.node.name)),
                    model.Filter(pod, p.node))
              << p.node.name;
        }
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 20 * 2 * 25);
}

}  // namespace
}  // namespace schedref::optimized::framework::plugins::podtopologyspread
