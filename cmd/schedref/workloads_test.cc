#include "cmd/schedref/workloads.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "api/codec/scenario_decode.h"
#include "api/codec/scenario_encode.h"

namespace schedref::cmd {
namespace {

using api::Event;
using api::Node;
using api::Pod;

constexpr int64_t kMi = int64_t{1} << 20;
constexpr int64_t kGi = int64_t{1} << 30;

Workload Make(const std::string& name, int nodes, int init, int measured) {
  StatusOr<Workload> w = MakeWorkload(name, {nodes, init, measured});
  EXPECT_TRUE(w.ok()) << w.status().message();
  return w.ok() ? std::move(w).value() : Workload{};
}

// The pods the timeline creates, per namespace, in timeline order.
std::map<std::string, std::vector<Pod>> CreatedPods(const api::Scenario& s) {
  std::map<std::string, std::vector<Pod>> out;
  for (const Event& e : s.timeline) {
    if (e.op != Event::Op::kCreate) continue;
    if (const Pod* p = std::get_if<Pod>(&e.object)) out[p->ns].push_back(*p);
  }
  return out;
}

std::vector<const Event*> EventsOfPod(const api::Scenario& s,
                                      const std::string& ns) {
  std::vector<const Event*> out;
  for (const Event& e : s.timeline) {
    if (const Pod* p = std::get_if<Pod>(&e.object); p && p->ns == ns) {
      out.push_back(&e);
    }
  }
  return out;
}

TEST(WorkloadsTest, NamesAndDefaultsFollowUpstream) {
  EXPECT_EQ(WorkloadNames(),
            (std::vector<std::string>{
                "SchedulingBasic", "SchedulingNodeAffinity",
                "SchedulingPodAntiAffinity", "TopologySpreading",
                "PreemptionBasic", "SchedulingSecrets", "SchedulingInTreePVs",
                "SchedulingMigratedInTreePVs", "SchedulingCSIPVs", "PreemptionPVs",
                "Unschedulable", "MixedChurn", "SchedulingBasicExtender"}));
  struct Want {
    int nodes, init, measured;
    double threshold;
  };
  const std::map<std::string, Want> want = {
      {"SchedulingBasic", {5000, 1000, 10000, 270}},
      {"SchedulingNodeAffinity", {5000, 5000, 10000, 220}},
      {"SchedulingPodAntiAffinity", {5000, 1000, 2000, 60}},
      {"TopologySpreading", {5000, 5000, 5000, 85}},
      {"PreemptionBasic", {500, 2000, 500, 18}},
      {"Unschedulable", {5000, 100, 10000, 170}},  // _QueueingHintsEnabled
      {"MixedChurn", {5000, 0, 10000, 265}},
      {"SchedulingBasicExtender", {5000, 1000, 10000, 270}},
      {"SchedulingSecrets", {5000, 1000, 10000, 260}},
      {"SchedulingInTreePVs", {5000, 1000, 2000, 90}},
      {"SchedulingMigratedInTreePVs", {5000, 5000, 5000, 35}},
      {"SchedulingCSIPVs", {5000, 5000, 5000, 48}},
      {"PreemptionPVs", {1000, 4000, 1000, 18}},
  };
  for (const WorkloadInfo& w : Workloads()) {
    SCOPED_TRACE(w.name);
    const Want& x = want.at(w.name);
    EXPECT_EQ(w.default_nodes, x.nodes);
    EXPECT_EQ(w.default_init_pods, x.init);
    EXPECT_EQ(w.default_measured_pods, x.measured);
    EXPECT_EQ(w.upstream_threshold, x.threshold);
    EXPECT_NE(w.upstream.find("performance-config.yaml"), std::string::npos);
    EXPECT_EQ(FindWorkload(w.name), &w);
  }
  EXPECT_EQ(FindWorkload("schedulingbasic"), nullptr);
}

// The generated scenario is exactly what api::DecodeScenario makes of its
// own encoding: it meets api::Scheduler::Run's precondition, and every
// admission default (priority, preemption policy, creation timestamps, uid)
// is what a scenario file would get.
TEST(WorkloadsTest, EveryWorkloadIsADecodedScenario) {
  for (const std::string& name : WorkloadNames()) {
    for (const WorkloadSize size :
         {WorkloadSize{7, 5, 60}, WorkloadSize{3, 0, 1},
          WorkloadSize{4, 9, 0}}) {
      SCOPED_TRACE(name + " " + std::to_string(size.nodes) + "/" +
                   std::to_string(size.init_pods) + "/" +
                   std::to_string(size.measured_pods));
      const Workload w = Make(name, size.nodes, size.init_pods,
                              size.measured_pods);
      StatusOr<api::Scenario> decoded = api::DecodeScenario(
          api::EncodeScenario(w.scenario), w.scenario.file);
      ASSERT_TRUE(decoded.ok()) << decoded.status().message();
      EXPECT_TRUE(*decoded == w.scenario);
      EXPECT_EQ(w.scenario.initial.nodes.size(),
                static_cast<size_t>(size.nodes));
      const auto pods = CreatedPods(w.scenario);
      const size_t measured = pods.count(w.measured_namespace)
                                  ? pods.at(w.measured_namespace).size()
                                  : 0;
      EXPECT_EQ(measured, static_cast<size_t>(size.measured_pods));
      int64_t total = 0;
      for (const auto& [ns, list] : pods) total += list.size();
      EXPECT_EQ(total, w.pods_created);
    }
  }
}

// The init-only scenario is the full scenario cut at the measured phase.
TEST(WorkloadsTest, InitOnlyIsAPrefixOfTheFullScenario) {
  for (const std::string& name : WorkloadNames()) {
    SCOPED_TRACE(name);
    const Workload full = Make(name, 6, 8, 50);
    const Workload init = Make(name, 6, 8, 0);
    EXPECT_TRUE(init.scenario.initial == full.scenario.initial);
    ASSERT_LE(init.scenario.timeline.size(), full.scenario.timeline.size());
    for (size_t i = 0; i < init.scenario.timeline.size(); ++i) {
      EXPECT_TRUE(init.scenario.timeline[i] == full.scenario.timeline[i]);
      EXPECT_EQ(init.scenario.timeline[i].at, 0);
    }
    for (size_t i = init.scenario.timeline.size();
         i < full.scenario.timeline.size(); ++i) {
      EXPECT_GE(full.scenario.timeline[i].at, 1000);
    }
    EXPECT_EQ(init.pods_created, 8);
  }
}

TEST(WorkloadsTest, SchedulingBasicStampsTheTemplates) {
  const Workload w = Make("SchedulingBasic", 3, 2, 4);
  ASSERT_EQ(w.scenario.initial.nodes.size(), 3u);
  // makeBaseNode: generateName node-<op index>-, the usual hostname label.
  const Node& n = w.scenario.initial.nodes[2];
  EXPECT_EQ(n.name, "node-0-2");
  EXPECT_EQ(n.labels, (api::Labels{{"kubernetes.io/hostname", "node-0-2"}}));
  EXPECT_EQ(n.allocatable,
            (api::ResourceList{{"cpu", 4000}, {"memory", 32 * kGi},
                               {"pods", 110}}));
  EXPECT_EQ(w.measured_namespace, "namespace-2");
  const auto pods = CreatedPods(w.scenario);
  ASSERT_EQ(pods.at("namespace-1").size(), 2u);
  ASSERT_EQ(pods.at("namespace-2").size(), 4u);
  const Pod& p = pods.at("namespace-2")[3];
  EXPECT_EQ(p.name, "pod-3");
  EXPECT_EQ(p.uid, "namespace-2/pod-3");
  EXPECT_EQ(p.priority, 0);
  ASSERT_EQ(p.containers.size(), 1u);
  EXPECT_EQ(p.containers[0].image, "registry.k8s.io/pause:3.10");
  EXPECT_EQ(p.containers[0].requests,
            (api::ResourceList{{"cpu", 100}, {"memory", 500 * kMi}}));
  ASSERT_EQ(p.containers[0].ports.size(), 1u);
  EXPECT_EQ(p.containers[0].ports[0].container_port, 80);
  EXPECT_EQ(p.creation_timestamp, api::kDefaultScenarioStartTime + 1000);
  const std::set<std::string> namespaces = [&] {
    std::set<std::string> s;
    for (const auto& ns : w.scenario.initial.namespaces) s.insert(ns.name);
    return s;
  }();
  EXPECT_EQ(namespaces, (std::set<std::string>{"namespace-1", "namespace-2"}));
}

TEST(WorkloadsTest, NodeAffinityLabelsEveryNodeZone1) {
  const Workload w = Make("SchedulingNodeAffinity", 4, 1, 1);
  for (const Node& n : w.scenario.initial.nodes) {
    EXPECT_EQ(n.name.rfind("scheduler-perf-", 0), 0u) << n.name;
    EXPECT_EQ(n.labels.at("topology.kubernetes.io/zone"), "zone1");
    EXPECT_EQ(n.labels.at("kubernetes.io/hostname"), n.name);
  }
  const Pod p = CreatedPods(w.scenario).at("namespace-2")[0];
  EXPECT_EQ(p.name, "node-affinity-0");
  ASSERT_TRUE(p.affinity && p.affinity->node_affinity &&
              p.affinity->node_affinity->required);
  const auto& req =
      p.affinity->node_affinity->required->terms.at(0).match_expressions.at(0);
  EXPECT_EQ(req.key, "topology.kubernetes.io/zone");
  EXPECT_EQ(req.values, (std::vector<std::string>{"zone1", "zone2"}));
}

TEST(WorkloadsTest, PodAntiAffinityUsesSchedNamespaces) {
  const Workload w = Make("SchedulingPodAntiAffinity", 5, 2, 3);
  EXPECT_EQ(w.measured_namespace, "sched-1");
  const auto pods = CreatedPods(w.scenario);
  EXPECT_EQ(pods.at("sched-0").size(), 2u);
  EXPECT_EQ(pods.at("sched-1").size(), 3u);
  const Pod& p = pods.at("sched-1")[0];
  EXPECT_EQ(p.name, "anti-affinity-pod-0");
  EXPECT_EQ(p.labels, (api::Labels{{"color", "green"}}));
  ASSERT_TRUE(p.affinity && p.affinity->pod_anti_affinity);
  const api::PodAffinityTerm& t = p.affinity->pod_anti_affinity->required.at(0);
  EXPECT_EQ(t.topology_key, "kubernetes.io/hostname");
  EXPECT_EQ(t.namespaces, (std::vector<std::string>{"sched-1", "sched-0"}));
  ASSERT_EQ(w.scenario.initial.namespaces.size(), 2u);
  EXPECT_EQ(w.scenario.initial.namespaces[0].name, "sched-0");
  EXPECT_EQ(w.scenario.initial.namespaces[1].name, "sched-1");
}

TEST(WorkloadsTest, TopologySpreadingZonesRoundRobin) {
  const Workload w = Make("TopologySpreading", 7, 3, 2);
  const std::vector<std::string> zones = {"moon-1", "moon-2", "moon-3"};
  for (size_t i = 0; i < w.scenario.initial.nodes.size(); ++i) {
    EXPECT_EQ(w.scenario.initial.nodes[i].labels.at(
                  "topology.kubernetes.io/zone"),
              zones[i % 3]);
  }
  const auto pods = CreatedPods(w.scenario);
  EXPECT_TRUE(pods.at("namespace-1")[0].topology_spread_constraints.empty());
  const Pod& p = pods.at("namespace-2")[1];
  EXPECT_EQ(p.name, "spreading-pod-1");
  EXPECT_EQ(p.labels, (api::Labels{{"color", "blue"}}));
  ASSERT_EQ(p.topology_spread_constraints.size(), 1u);
  EXPECT_EQ(p.topology_spread_constraints[0].max_skew, 5);
  EXPECT_EQ(p.topology_spread_constraints[0].when_unsatisfiable,
            "DoNotSchedule");
}

TEST(WorkloadsTest, PreemptionBasicPrioritiesAndSettleTime) {
  const Workload w = Make("PreemptionBasic", 2, 8, 2);
  const auto pods = CreatedPods(w.scenario);
  const Pod& low = pods.at("namespace-1")[0];
  EXPECT_EQ(low.priority, 0);
  EXPECT_EQ(low.containers[0].requests.at("cpu"), 900);
  const Pod& high = pods.at("namespace-2")[0];
  EXPECT_EQ(high.priority, 10);
  EXPECT_EQ(high.preemption_policy, "PreemptLowerPriority");
  EXPECT_EQ(high.containers[0].requests.at("cpu"), 3000);
  ASSERT_FALSE(w.scenario.timeline.empty());
  EXPECT_EQ(w.scenario.timeline.back().op, Event::Op::kAdvance);
  EXPECT_EQ(w.scenario.timeline.back().at, 11000);
}

TEST(WorkloadsTest, UnschedulableChurnsOneLargePodPer200ms) {
  // 170 pods/s x 200 ms: batches of 34 measured pods, one churn pod before
  // every batch but the first.
  const Workload w = Make("Unschedulable", 3, 1, 100);
  EXPECT_EQ(w.measured_namespace, "namespace-3");
  const auto churn = EventsOfPod(w.scenario, "namespace-2");
  ASSERT_EQ(churn.size(), 2u);  // ceil(100 / 34) = 3 batches
  for (size_t k = 0; k < churn.size(); ++k) {
    EXPECT_EQ(churn[k]->at, 1000 + 200 * static_cast<int64_t>(k + 1));
    const Pod& p = std::get<Pod>(churn[k]->object);
    EXPECT_EQ(p.name, "pod-h-" + std::to_string(k));
    EXPECT_EQ(p.priority, 10);
    EXPECT_EQ(p.containers[0].requests.at("cpu"), 9000);
  }
  std::map<api::TimeMs, int> per_instant;
  for (const Event* e : EventsOfPod(w.scenario, "namespace-3")) {
    ++per_instant[e->at];
  }
  EXPECT_EQ(per_instant,
            (std::map<api::TimeMs, int>{
                {1000, 34}, {1200, 34}, {1400, 32}}));
  EXPECT_EQ(w.pods_created, 1 + 2 + 100);
}

TEST(WorkloadsTest, MixedChurnRecreatesANodeAndAPod) {
  // 265 pods/s x 1 s: batches of 265 at 1 s, 2 s, 3 s and 4 s; ticks from
  // 2 s alternate create / delete.
  const Workload w = Make("MixedChurn", 2, 0, 1000);
  std::vector<std::string> ops;
  for (const Event& e : w.scenario.timeline) {
    if (e.op == Event::Op::kCreate && e.kind == "Pod" &&
        std::get<Pod>(e.object).ns == w.measured_namespace) {
      continue;
    }
    ops.push_back(std::to_string(e.at) + " " +
                  (e.op == Event::Op::kCreate ? "create " : "delete ") +
                  e.kind + " " + e.name);
  }
  EXPECT_EQ(ops, (std::vector<std::string>{
                     "2000 create Node node-churn-0",
                     "2000 create Pod namespace-1/pod-h-0",
                     "3000 delete Node node-churn-0",
                     "3000 delete Pod namespace-1/pod-h-0",
                     "4000 create Node node-churn-1",
                     "4000 create Pod namespace-1/pod-h-1",
                 }));
  for (const Event& e : w.scenario.timeline) {
    if (const Node* n = std::get_if<Node>(&e.object)) {
      EXPECT_EQ(n->allocatable, (api::ResourceList{{"pods", 0}}));
    }
  }
  EXPECT_TRUE(w.scenario.initial.namespaces.size() == 2u);
  const Workload with_init = Make("MixedChurn", 2, 3, 10);
  EXPECT_EQ(CreatedPods(with_init.scenario).at("namespace-init").size(), 3u);
}

TEST(WorkloadsTest, BindInitPodsMovesThemIntoTheCluster) {
  const Workload full = Make("SchedulingBasic", 3, 4, 5);
  StatusOr<Workload> bound = BindInitPods(
      full, {{"namespace-1/pod-2", "node-0-1"}, {"namespace-1/pod-0", "node-0-0"}});
  ASSERT_TRUE(bound.ok()) << bound.status().message();
  const api::Scenario& s = bound->scenario;
  ASSERT_EQ(s.initial.pods.size(), 2u);
  EXPECT_EQ(s.initial.pods[0].Key(), "namespace-1/pod-2");
  EXPECT_EQ(s.initial.pods[0].node_name, "node-0-1");
  EXPECT_EQ(s.initial.pods[1].Key(), "namespace-1/pod-0");
  EXPECT_EQ(s.initial.pods[1].node_name, "node-0-0");
  std::vector<std::string> created;
  for (const Event& e : s.timeline) created.push_back(e.name);
  EXPECT_EQ(created, (std::vector<std::string>{
                         "namespace-1/pod-1", "namespace-1/pod-3",
                         "namespace-2/pod-0", "namespace-2/pod-1",
                         "namespace-2/pod-2", "namespace-2/pod-3",
                         "namespace-2/pod-4"}));
  EXPECT_EQ(bound->measured_namespace, full.measured_namespace);
  EXPECT_EQ(bound->pods_created, full.pods_created);
  StatusOr<api::Scenario> decoded =
      api::DecodeScenario(api::EncodeScenario(s), s.file);
  ASSERT_TRUE(decoded.ok()) << decoded.status().message();
  EXPECT_TRUE(*decoded == s);

  StatusOr<Workload> measured =
      BindInitPods(full, {{"namespace-2/pod-0", "node-0-0"}});
  ASSERT_FALSE(measured.ok());
  EXPECT_EQ(measured.status().message(),
            "SchedulingBasic: pod namespace-2/pod-0 is not created at t = 0 "
            "by the timeline");
  StatusOr<Workload> twice = BindInitPods(
      full, {{"namespace-1/pod-0", "node-0-0"}, {"namespace-1/pod-0", "node-0-1"}});
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.status().message(),
            "SchedulingBasic: pod namespace-1/pod-0 is listed twice");
}

TEST(WorkloadsTest, BadInput) {
  struct Case {
    std::string name;
    WorkloadSize size;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"NoSuch", {1, 0, 1},
       "unknown workload \"NoSuch\" (known: SchedulingBasic, "
       "SchedulingNodeAffinity, SchedulingPodAntiAffinity, "
       "TopologySpreading, PreemptionBasic, SchedulingSecrets, SchedulingInTreePVs, "
       "SchedulingMigratedInTreePVs, SchedulingCSIPVs, PreemptionPVs, Unschedulable, "
       "MixedChurn, SchedulingBasicExtender)"},
      {"SchedulingBasic", {0, 0, 1},
       "SchedulingBasic: nodes must be in [1, 100000], got 0"},
      {"SchedulingBasic", {100001, 0, 1},
       "SchedulingBasic: nodes must be in [1, 100000], got 100001"},
      {"TopologySpreading", {1, -1, 1},
       "TopologySpreading: init pods must be in [0, 1000000], got -1"},
      {"MixedChurn", {1, 0, 1000001},
       "MixedChurn: measured pods must be in [0, 1000000], got 1000001"},
  };
  for (const Case& c : cases) {
    StatusOr<Workload> w = MakeWorkload(c.name, c.size);
    ASSERT_FALSE(w.ok()) << c.want;
    EXPECT_TRUE(w.status().IsInvalid());
    EXPECT_EQ(w.status().message(), c.want);
  }
}

}  // namespace
}  // namespace schedref::cmd
