// The invariant checks on hand-written traces: each accepts a trace that
// follows the rules and names the rule a corrupted trace breaks (so that a
// passing property means something).
#include "testing/scenario_gen/invariants.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "gtest/gtest.h"

namespace schedref::testing::scenario_gen {
namespace {

using api::Trace;

constexpr int64_t kGi = int64_t{1} << 30;

// --- Fixtures
// -----------------------------------------------------------------

api::Node MakeNode(const std::string& name, int64_t cpu, int64_t pods) {
  api::Node n;
  n.name = name;
  n.labels["kubernetes.io/hostname"] = name;
  n.allocatable = {{"cpu", cpu}, {"memory", 4 * kGi}, {"pods", pods}};
  n.capacity = n.allocatable;
  return n;
}

api::Pod MakePod(const std::string& name, int64_t cpu, int32_t priority = 0) {
  api::Pod p;
  p.ns = "default";
  p.name = name;
  p.uid = "default/" + name;
  p.priority = priority;
  p.scheduler_name = "default-scheduler";
  api::Container c;
  c.name = "c";
  c.requests["cpu"] = cpu;
  p.containers.push_back(c);
  return p;
}

api::Event Create(api::TimeMs at, api::Pod pod) {
  api::Event e;
  e.at = at;
  e.op = api::Event::Op::kCreate;
  e.kind = "Pod";
  e.name = pod.Key();
  e.object = std::move(pod);
  return e;
}

api::Event Create(api::TimeMs at, api::Node node) {
  api::Event e;
  e.at = at;
  e.op = api::Event::Op::kCreate;
  e.kind = "Node";
  e.name = node.name;
  e.object = std::move(node);
  return e;
}

api::Event Update(api::TimeMs at, api::Node node) {
  api::Event e = Create(at, std::move(node));
  e.op = api::Event::Op::kUpdate;
  return e;
}

api::Event Update(api::TimeMs at, api::Pod pod) {
  api::Event e = Create(at, std::move(pod));
  e.op = api::Event::Op::kUpdate;
  return e;
}

api::Event Delete(api::TimeMs at, const std::string& kind,
                  const std::string& name) {
  api::Event e;
  e.at = at;
  e.op = api::Event::Op::kDelete;
  e.kind = kind;
  e.name = name;
  return e;
}

Trace::Record Attempt(api::TimeMs at, int64_t cycle, const std::string& pod,
                      const std::string& node) {
  api::Attempt a;
  a.at = at;
  a.cycle = cycle;
  a.pod = "default/" + pod;
  a.profile = "default-scheduler";
  a.outcome = node.empty() ? api::AttemptOutcome::kUnschedulable
                           : api::AttemptOutcome::kScheduled;
  a.node = node;
  return a;
}

Trace::Record Binding(api::TimeMs at, int64_t cycle, const std::string& pod,
                      const std::string& node,
                      api::BindingOutcome outcome = api::BindingOutcome::kBound) {
  return api::Binding{at, cycle, "default/" + pod, node, outcome, ""};
}

Trace::Record VictimDeleted(api::TimeMs at, const std::string& pod) {
  return api::Note{at, "victimDeleted", "default/" + pod, ""};
}

// The cluster every case runs on:
//   n1  2 cpu, 3 pods;  n2  NoSchedule-tainted;  n3  cordoned;
//   n4  zone z1, added at t=2s;  n1 tainted NoExecute at t=5s.
//   a (1.5 cpu), b (1 cpu, host port 8080), c (host port 8080),
//   z (nodeSelector zone=z1), pending in objects; h (0.6 cpu, priority
//   100) and l (priority 0) created at 1s; g gated in objects, ungated at 3s;
//   b deleted at 4s.
api::Scenario Fixture() {
  api::Scenario s;
  s.config.profiles.push_back(api::Profile{});
  s.initial.nodes.push_back(MakeNode("n1", 2000, 3));
  api::Node n2 = MakeNode("n2", 2000, 3);
  n2.taints.push_back({"example.com/gpu", "", "NoSchedule"});
  s.initial.nodes.push_back(n2);
  api::Node n3 = MakeNode("n3", 2000, 3);
  n3.unschedulable = true;
  s.initial.nodes.push_back(n3);

  s.initial.pods.push_back(MakePod("a", 1500));
  api::Pod b = MakePod("b", 1000);
  b.containers[0].ports.push_back({80, 8080, "TCP", ""});
  s.initial.pods.push_back(b);
  api::Pod c = MakePod("c", 100);
  c.containers[0].ports.push_back({80, 8080, "TCP", ""});
  s.initial.pods.push_back(c);
  api::Pod z = MakePod("z", 100);
  z.node_selector["topology.kubernetes.io/zone"] = "z1";
  s.initial.pods.push_back(z);
  api::Pod g = MakePod("g", 100);
  g.scheduling_gates = {"example.com/quota"};
  s.initial.pods.push_back(g);

  s.timeline.push_back(Create(1000, MakePod("h", 600, 100)));
  s.timeline.push_back(Create(1000, MakePod("l", 100, 0)));
  api::Node n4 = MakeNode("n4", 2000, 3);
  n4.labels["topology.kubernetes.io/zone"] = "z1";
  s.timeline.push_back(Create(2000, n4));
  g.scheduling_gates.clear();
  s.timeline.push_back(Update(3000, g));
  s.timeline.push_back(Delete(4000, "Pod", "default/b"));
  api::Node n1 = MakeNode("n1", 2000, 3);
  n1.taints.push_back({"example.com/maintenance", "", "NoExecute"});
  s.timeline.push_back(Update(5000, n1));
  return s;
}

std::map<std::string, std::string> Placements(
    std::map<std::string, std::string> bound) {
  std::map<std::string, std::string> out = {
      {"default/a", ""}, {"default/c", ""}, {"default/z", ""},
      {"default/g", ""}, {"default/h", ""}, {"default/l", ""}};
  for (const auto& [pod, node] : bound) out["default/" + pod] = node;
  return out;
}

struct Case {
  std::string name;
  Trace trace;
  std::string violation;  // a substring of the message; "" for none
};

void RunCases(std::optional<std::string> (*check)(const api::Scenario&,
                                                  const Trace&),
              const std::vector<Case>& cases,
              const api::Scenario& s = Fixture()) {
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::optional<std::string> got = check(s, c.trace);
    if (c.violation.empty()) {
      EXPECT_EQ(got, std::nullopt);
    } else {
      ASSERT_TRUE(got.has_value());
      EXPECT_NE(got->find(c.violation), std::string::npos) << *got;
    }
  }
}

// --- Independent rules
// ---------------------------------------------------------

TEST(PodRequestsTest, SidecarsAndInitContainers) {
  api::Pod p = MakePod("p", 100);
  p.containers.push_back(p.containers[0]);  // 200m in containers
  api::Container sidecar;
  sidecar.requests["cpu"] = 50;
  sidecar.restart_policy = "Always";
  api::Container init;
  init.requests["cpu"] = 300;
  p.init_containers = {sidecar, init};
  p.overhead["cpu"] = 10;
  // max(200 + 50, 50 + 300) + 10
  EXPECT_EQ(PodRequests(p).at("cpu"), 360);
}

TEST(FilterRulesTest, UnschedulableAndTaints) {
  api::Scenario s = Fixture();
  api::Pod p = MakePod("p", 100);
  EXPECT_FALSE(NodeUnschedulableAdmits(p, s.initial.nodes[2]));
  EXPECT_FALSE(TaintsTolerated(p, s.initial.nodes[1]));
  p.tolerations.push_back(
      {"node.kubernetes.io/unschedulable", "Exists", "", "NoSchedule", {}});
  p.tolerations.push_back({"example.com/gpu", "Exists", "", "", {}});
  EXPECT_TRUE(NodeUnschedulableAdmits(p, s.initial.nodes[2]));
  EXPECT_TRUE(TaintsTolerated(p, s.initial.nodes[1]));
}

// --- Invariants
// -------------------------------------------------------------------

TEST(CheckTraceShapeTest, Table) {
  auto trace = [](std::vector<Trace::Record> records) {
    Trace t;
    t.records = std::move(records);
    return t;
  };
  Trace::Record other_profile = Attempt(0, 1, "a", "");
  api::AsAttempt(other_profile)->profile = "other";
  RunCases(&CheckTraceShape,
           {
               {"ok",
                trace({Attempt(0, 1, "a", "n1"), Binding(0, 1, "a", "n1"),
                       Attempt(1000, 2, "h", "")}),
                ""},
               {"time goes back",
                trace({Attempt(1000, 1, "h", ""), Attempt(0, 2, "a", "")}),
                "t=0ms comes after t=1000ms"},
               {"after the end", trace({Attempt(6000, 1, "a", "")}),
                "after the last timeline event (t=5000ms)"},
               {"cycle skipped",
                trace({Attempt(0, 1, "a", ""), Attempt(0, 3, "c", "")}),
                "expected cycle 2"},
               {"pod not created yet", trace({Attempt(0, 1, "h", "")}),
                "the pod does not exist"},
               {"pod deleted", trace({Attempt(4000, 1, "b", "")}),
                "the pod does not exist"},
               {"pod bound",
                trace({Attempt(0, 1, "a", "n1"), Binding(0, 1, "a", "n1"),
                       Attempt(1000, 2, "a", "")}),
                "the pod is already bound"},
               {"profile", trace({other_profile}), "profile other"},
           });
}

TEST(CheckNoNodeOvercommittedTest, Table) {
  auto placed = [](std::map<std::string, std::string> bound) {
    Trace t;
    t.placements = Placements(std::move(bound));
    return t;
  };
  RunCases(
      &CheckNoNodeOvercommitted,
      {
          {"fits", placed({{"a", "n1"}, {"c", "n1"}}), ""},
          {"cpu", placed({{"a", "n1"}, {"h", "n1"}}), "over-committed in cpu"},
          {"pods", placed({{"c", "n2"}, {"z", "n2"}, {"g", "n2"}, {"h", "n2"}}),
           "over-committed in pods"},
      });
}

TEST(CheckDecisionsPassedFiltersTest, Table) {
  RunCases(
      &CheckDecisionsPassedFilters,
      {
          {"fits", {{Attempt(0, 1, "a", "n1")}, {}}, ""},
          {"taint", {{Attempt(0, 1, "a", "n2")}, {}}, "TaintToleration"},
          {"cordoned", {{Attempt(0, 1, "a", "n3")}, {}}, "NodeUnschedulable"},
          {"selector", {{Attempt(0, 1, "z", "n1")}, {}}, "NodeAffinity"},
          {"node not added yet",
           {{Attempt(1000, 1, "z", "n4")}, {}},
           "the node does not exist"},
          {"node added", {{Attempt(2000, 1, "z", "n4")}, {}}, ""},
          {"pod not created yet",
           {{Attempt(0, 1, "h", "n1")}, {}},
           "the pod does not exist"},
          {"cpu taken by an assumed pod",
           {{Attempt(0, 1, "a", "n1"), Attempt(0, 2, "b", "n1")}, {}},
           "NodeResourcesFit: cpu"},
          {"cpu freed by a failed binding",
           {{Attempt(0, 1, "a", "n1"), Binding(0, 1, "a", "n1", api::BindingOutcome::kFailed),
             Attempt(0, 2, "b", "n1")},
            {}},
           ""},
          {"cpu freed by a victim",
           {{Attempt(0, 1, "a", "n1"), Binding(0, 1, "a", "n1"),
             VictimDeleted(1000, "a"), Attempt(1000, 2, "b", "n1")},
            {}},
           ""},
          {"cpu freed by a deletion",
           {{Attempt(0, 1, "b", "n1"), Binding(0, 1, "b", "n1"),
             Attempt(4000, 2, "a", "n1")},
            {}},
           ""},
          {"host port taken",
           {{Attempt(0, 1, "b", "n1"), Attempt(0, 2, "c", "n1")}, {}},
           "NodePorts: TCP/8080"},
          {"pods full",
           {{Attempt(0, 1, "c", "n1"), Attempt(2000, 2, "h", "n1"),
             Attempt(2000, 3, "l", "n1"), Attempt(3000, 4, "g", "n1")},
            {}},
           "NodeResourcesFit: 3 pods"},
          {"taint added later",
           {{Attempt(5000, 1, "a", "n1")}, {}},
           "TaintToleration"},
      });
}

// n1 and n2 in zone z1, n3 in z2, n1 deleted at 1s. w (app=web, bound to
// n1 in objects) keeps app=db pods off its host; x keeps away from app=web
// pods by zone; y is app=db.
api::Scenario AntiAffinityFixture() {
  api::Scenario s;
  for (const auto& [name, zone] :
       {std::pair{"n1", "z1"}, std::pair{"n2", "z1"}, std::pair{"n3", "z2"}}) {
    api::Node n = MakeNode(name, 4000, 10);
    n.labels["topology.kubernetes.io/zone"] = zone;
    s.initial.nodes.push_back(n);
  }
  auto anti = [](const std::string& app, const std::string& key) {
    api::PodAffinityTerm t;
    t.label_selector = api::LabelSelector{{{"app", app}}, {}};
    t.topology_key = key;
    api::Affinity a;
    a.pod_anti_affinity = api::PodAffinity{{t}, {}};
    return a;
  };
  api::Pod w = MakePod("w", 100);
  w.labels["app"] = "web";
  w.affinity = anti("db", "kubernetes.io/hostname");
  w.node_name = "n1";
  s.initial.pods.push_back(w);
  api::Pod x = MakePod("x", 100);
  x.affinity = anti("web", "topology.kubernetes.io/zone");
  s.initial.pods.push_back(x);
  api::Pod y = MakePod("y", 100);
  y.labels["app"] = "db";
  s.initial.pods.push_back(y);
  s.timeline.push_back(Delete(1000, "Node", "n1"));
  return s;
}

TEST(CheckDecisionsPassedFiltersTest, AntiAffinity) {
  RunCases(&CheckDecisionsPassedFilters,
           {
               {"other zone", {{Attempt(0, 1, "x", "n3")}, {}}, ""},
               {"same node",
                {{Attempt(0, 1, "x", "n1")}, {}},
                "its anti-affinity (topology.kubernetes.io/zone) matches "
                "default/w on n1"},
               {"same zone",
                {{Attempt(0, 1, "x", "n2")}, {}},
                "matches default/w on n1"},
               {"zone emptied by a node deletion",
                {{Attempt(1000, 1, "x", "n2")}, {}},
                ""},
               {"existing pod's term",
                {{Attempt(0, 1, "y", "n1")}, {}},
                "the anti-affinity (kubernetes.io/hostname) of default/w on "
                "n1 matches it"},
               {"existing pod's term, other host",
                {{Attempt(0, 1, "y", "n2")}, {}},
                ""},
           },
           AntiAffinityFixture());
}

TEST(CheckRejectionsAreTruthfulTest, Table) {
  auto rejected = [](api::TimeMs at, const std::string& pod,
                     const std::string& node, const std::string& plugin,
                     api::RejectionCode code = api::RejectionCode::kUnschedulableAndUnresolvable) {
    Trace::Record r = Attempt(at, 1, pod, "");
    api::AsAttempt(r)->rejections[node] = {plugin, code, {"reason"}};
    Trace t;
    t.records = {r};
    return t;
  };
  RunCases(
      &CheckRejectionsAreTruthful,
      {
          {"taint", rejected(0, "a", "n2", "TaintToleration"), ""},
          {"cordon", rejected(0, "a", "n3", "NodeUnschedulable"), ""},
          {"selector", rejected(0, "z", "n1", "NodeAffinity"), ""},
          {"resources",
           rejected(0, "a", "n1", "NodeResourcesFit", api::RejectionCode::kUnschedulable), ""},
          {"wrong plugin", rejected(0, "a", "n2", "NodeResourcesFit"),
           "TaintToleration fails first, but NodeResourcesFit"},
          {"passing plugin", rejected(0, "a", "n1", "TaintToleration"),
           "TaintToleration is recorded, but it passes"},
          {"wrong code",
           rejected(0, "a", "n2", "TaintToleration", api::RejectionCode::kUnschedulable),
           "rejected with code Unschedulable"},
          {"node not added yet", rejected(0, "z", "n4", "NodeAffinity"),
           "the node does not exist"},
          {"taint added later", rejected(5000, "a", "n1", "TaintToleration"),
           ""},
      });
}

TEST(CheckBindingsAgreeWithPlacementsTest, Table) {
  Trace ok;
  ok.records = {Attempt(0, 1, "a", "n1"), Binding(0, 1, "a", "n1")};
  ok.placements = Placements({{"a", "n1"}});
  Trace no_decision = ok;
  no_decision.records = {Binding(0, 1, "a", "n1")};
  Trace other_node = ok;
  other_node.records[1] = Binding(0, 1, "a", "n2");
  Trace twice = ok;
  twice.records.push_back(Attempt(1000, 2, "a", "n1"));
  twice.records.push_back(Binding(1000, 2, "a", "n1"));
  Trace misplaced = ok;
  misplaced.placements["default/a"] = "n2";
  Trace failed_then_pending = ok;
  failed_then_pending.records[1] = Binding(0, 1, "a", "n1", api::BindingOutcome::kFailed);
  failed_then_pending.placements["default/a"] = "";
  Trace deleted_listed = ok;
  deleted_listed.placements["default/b"] = "";
  Trace victim = ok;
  victim.records.push_back(VictimDeleted(1000, "a"));
  Trace victim_removed = victim;
  victim_removed.placements.erase("default/a");
  Trace missing = ok;
  missing.placements.erase("default/h");
  RunCases(&CheckBindingsAgreeWithPlacements,
           {
               {"ok", ok, ""},
               {"binding without decision", no_decision, "ends no decision"},
               {"binding to another node", other_node, "ends no decision"},
               {"bound twice", twice, "bound twice"},
               {"misplaced", misplaced, "is placed on \"n2\""},
               {"failed binding leaves it pending", failed_then_pending, ""},
               {"deleted pod listed", deleted_listed, "no longer exists"},
               {"victim listed", victim, "no longer exists"},
               {"victim removed", victim_removed, ""},
               {"existing pod missing", missing, "has no placement"},
           });
}

TEST(CheckHigherPriorityTriedFirstTest, Table) {
  auto tried = [](std::vector<Trace::Record> records) {
    Trace t;
    t.records = std::move(records);
    return t;
  };
  const std::vector<Trace::Record> at_zero = {
      Attempt(0, 1, "a", ""), Attempt(0, 2, "b", ""), Attempt(0, 3, "c", ""),
      Attempt(0, 4, "z", "")};
  auto with = [&](std::vector<Trace::Record> more) {
    std::vector<Trace::Record> all = at_zero;
    all.insert(all.end(), more.begin(), more.end());
    return tried(all);
  };
  RunCases(&CheckHigherPriorityTriedFirst,
           {
               {"ok",
                with({Attempt(1000, 5, "h", ""), Attempt(1000, 6, "l", ""),
                      Attempt(3000, 7, "g", "")}),
                ""},
               {"lower first",
                with({Attempt(1000, 5, "l", ""), Attempt(1000, 6, "h", ""),
                      Attempt(3000, 7, "g", "")}),
                "default/l (priority 0) was attempted before default/h"},
               {"a retried lower pod before a new higher one",
                with({Attempt(1000, 5, "a", ""), Attempt(1000, 6, "h", ""),
                      Attempt(1000, 7, "l", ""), Attempt(3000, 8, "g", "")}),
                "default/a (priority 0) was attempted before default/h"},
               {"a retried lower pod after the new ones",
                with({Attempt(1000, 5, "h", ""), Attempt(1000, 6, "a", ""),
                      Attempt(1000, 7, "l", ""), Attempt(3000, 8, "g", "")}),
                ""},
               {"created but not tried",
                with({Attempt(1000, 5, "h", ""), Attempt(3000, 6, "g", "")}),
                "default/l entered activeQ at t=1000ms"},
               {"ungated but not tried",
                with({Attempt(1000, 5, "h", ""), Attempt(1000, 6, "l", "")}),
                "default/g entered activeQ at t=3000ms"},
               {"initial pod not tried",
                tried({Attempt(1000, 1, "h", ""), Attempt(1000, 2, "l", "")}),
                "entered activeQ at t=0ms"},
           });
}

// Two profiles share one activeQ sorted by one QueueSort, so priority
// order holds across them; a pod of a scheduler that is no profile never
// enters activeQ, so its not being tried is no violation. The fixture with
// l moved to a second profile and f (priority 100, scheduler "elsewhere")
// created at 1s with h and l.
TEST(CheckHigherPriorityTriedFirstTest, TwoProfilesAndAForeignScheduler) {
  api::Scenario s = Fixture();
  api::Profile second;
  second.scheduler_name = "second-scheduler";
  s.config.profiles.push_back(second);
  for (api::Event& e : s.timeline) {
    if (e.name == "default/l") std::get<api::Pod>(e.object).scheduler_name = "second-scheduler";
  }
  api::Pod f = MakePod("f", 100, 100);
  f.scheduler_name = "elsewhere";
  s.timeline.insert(s.timeline.begin(), Create(1000, f));
  auto tried = [](std::vector<Trace::Record> more) {
    Trace t;
    t.records = {Attempt(0, 1, "a", ""), Attempt(0, 2, "b", ""), Attempt(0, 3, "c", ""),
                 Attempt(0, 4, "z", "")};
    t.records.insert(t.records.end(), more.begin(), more.end());
    return t;
  };
  auto of_second = [](Trace::Record r) {
    api::AsAttempt(r)->profile = "second-scheduler";
    return r;
  };
  RunCases(&CheckHigherPriorityTriedFirst,
           {
               {"ok across profiles",
                tried({Attempt(1000, 5, "h", ""), of_second(Attempt(1000, 6, "l", "")),
                       Attempt(3000, 7, "g", "")}),
                ""},
               {"lower pod of the other profile first",
                tried({of_second(Attempt(1000, 5, "l", "")), Attempt(1000, 6, "h", ""),
                       Attempt(3000, 7, "g", "")}),
                "default/l (priority 0) was attempted before default/h"},
               {"other profile's pod not tried",
                tried({Attempt(1000, 5, "h", ""), Attempt(3000, 6, "g", "")}),
                "default/l entered activeQ at t=1000ms"},
           },
           s);
}

// --- Storage invariants
// ----------------------------------------------------------

api::PersistentVolumeClaim Claim(const std::string& name, const std::string& mode,
                                 const std::string& volume = "") {
  api::PersistentVolumeClaim c;
  c.ns = "default";
  c.name = name;
  c.spec.access_modes = {mode};
  c.spec.storage_request = kGi;
  c.spec.volume_name = volume;
  if (!volume.empty()) c.annotations[api::kAnnBindCompleted] = "yes";
  return c;
}

api::PersistentVolume CsiVolume(const std::string& name, const std::string& handle) {
  api::PersistentVolume v;
  v.name = name;
  v.capacity = kGi;
  v.access_modes = {api::kReadWriteOnce};
  v.source.kind = "csi";
  v.source.driver = "ebs.csi.aws.com";
  v.source.volume_handle = handle;
  v.phase = "Bound";
  return v;
}

api::Pod WithClaims(api::Pod pod, const std::vector<std::string>& claims) {
  for (const std::string& c : claims) {
    api::Volume v;
    v.name = "v-" + c;
    v.source.kind = "persistentVolumeClaim";
    v.source.claim_name = c;
    pod.volumes.push_back(v);
  }
  return pod;
}

// n1, n2 (zone z1), n3 (zone z2, deleted at 2s); CSINode n1 allows 2
// volumes of ebs.csi.aws.com, CSINode n2 has the driver with no count.
// Claims: rwop (ReadWriteOncePod, bound to pv-a), rwo-b, rwo-c, rwo-d
// (bound to pv-b, pv-c, pv-d; pv-b and pv-c share a handle), zonal
// (bound to pv-z, node affinity zone In [z1]), pre (volumeName pv-z,
// no bind-completed), eph-e (the claim of pod e's ephemeral volume).
// Pods: a, b use rwop; c uses rwo-b, rwo-c; d uses rwo-d; z uses zonal
// and pre; e has ephemeral volume e; q is bound to n2 in objects and uses
// rwop; m uses a claim that does not exist.
api::Scenario StorageFixture() {
  api::Scenario s;
  s.config.profiles.push_back(api::Profile{});
  s.initial.nodes.push_back(MakeNode("n1", 8000, 10));
  api::Node n2 = MakeNode("n2", 8000, 10);
  n2.labels["topology.kubernetes.io/zone"] = "z1";
  s.initial.nodes.push_back(n2);
  api::Node n3 = MakeNode("n3", 8000, 10);
  n3.labels["topology.kubernetes.io/zone"] = "z2";
  s.initial.nodes.push_back(n3);
  s.timeline.push_back(Delete(2000, "Node", "n3"));

  api::CSINode c1;
  c1.name = "n1";
  c1.drivers.push_back({"ebs.csi.aws.com", "i-1", {}, 2});
  s.initial.csi_nodes.push_back(c1);
  api::CSINode c2;
  c2.name = "n2";
  c2.drivers.push_back({"ebs.csi.aws.com", "i-2", {}, std::nullopt});
  s.initial.csi_nodes.push_back(c2);

  api::PersistentVolume pv_a = CsiVolume("pv-a", "h-a");
  pv_a.access_modes = {api::kReadWriteOncePod};
  s.initial.persistent_volumes = {pv_a, CsiVolume("pv-b", "h-b"), CsiVolume("pv-c", "h-b"),
                                  CsiVolume("pv-d", "h-d")};
  api::PersistentVolume pv_z = CsiVolume("pv-z", "h-z");
  pv_z.source.driver = "pd.csi.storage.gke.io";
  pv_z.node_affinity = api::NodeSelector{
      {api::NodeSelectorTerm{{{"topology.kubernetes.io/zone", "In", {"z1"}}}, {}}}};
  s.initial.persistent_volumes.push_back(pv_z);
  api::PersistentVolumeClaim pre = Claim("pre", api::kReadWriteOnce, "pv-z");
  pre.annotations.clear();
  s.initial.persistent_volume_claims = {Claim("rwop", api::kReadWriteOncePod, "pv-a"),
                                        Claim("rwo-b", api::kReadWriteOnce, "pv-b"),
                                        Claim("rwo-c", api::kReadWriteOnce, "pv-c"),
                                        Claim("rwo-d", api::kReadWriteOnce, "pv-d"),
                                        Claim("zonal", api::kReadWriteOnce, "pv-z"),
                                        pre,
                                        Claim("e-e", api::kReadWriteOncePod)};

  s.initial.pods.push_back(WithClaims(MakePod("a", 100), {"rwop"}));
  s.initial.pods.push_back(WithClaims(MakePod("b", 100), {"rwop"}));
  s.initial.pods.push_back(WithClaims(MakePod("c", 100), {"rwo-b", "rwo-c"}));
  s.initial.pods.push_back(WithClaims(MakePod("d", 100), {"rwo-d"}));
  s.initial.pods.push_back(WithClaims(MakePod("z", 100), {"zonal"}));
  api::Pod e = MakePod("e", 100);
  api::Volume eph;
  eph.name = "e";
  eph.source.kind = "ephemeral";
  eph.ephemeral = api::PersistentVolumeClaimSpec{};
  e.volumes.push_back(eph);
  s.initial.pods.push_back(e);
  s.initial.pods.push_back(WithClaims(MakePod("e2", 100), {"e-e"}));
  s.initial.pods.push_back(WithClaims(MakePod("m", 100), {"missing"}));
  s.initial.pods.push_back(WithClaims(MakePod("p", 100), {"pre"}));
  api::Pod q = WithClaims(MakePod("q", 100), {"rwop"});
  q.node_name = "n3";
  s.initial.pods.push_back(q);
  return s;
}

TEST(PodClaimsTest, ClaimsAndEphemeralClaims) {
  const api::Scenario s = StorageFixture();
  const api::StorageObjects storage = api::StorageObjects::From(s.initial);
  EXPECT_EQ(PodClaims(s.initial.pods[2], storage).size(), 2u);      // c
  ASSERT_EQ(PodClaims(s.initial.pods[5], storage).size(), 1u);      // e
  EXPECT_EQ(PodClaims(s.initial.pods[5], storage)[0]->name, "e-e");
  EXPECT_TRUE(PodClaims(s.initial.pods[7], storage).empty());       // m: missing
}

TEST(CheckReadWriteOncePodExclusiveTest, Table) {
  RunCases(&CheckReadWriteOncePodExclusive,
           {
               {"held by a pod bound in objects", {{Attempt(0, 1, "a", "n1")}, {}},
                "ReadWriteOncePod claim default/rwop is already used by default/q on n3"},
               {"free once its node is gone", {{Attempt(2000, 1, "a", "n1")}, {}}, ""},
               {"two at once",
                {{Attempt(2000, 1, "a", "n1"), Attempt(2000, 2, "b", "n2")}, {}},
                "already used by default/a on n1"},
               {"after a failed binding",
                {{Attempt(2000, 1, "a", "n1"),
                  Binding(2000, 1, "a", "n1", api::BindingOutcome::kFailed),
                  Attempt(2000, 2, "b", "n2")},
                 {}},
                ""},
               {"after a victim is gone",
                {{Attempt(2000, 1, "a", "n1"), Binding(2000, 1, "a", "n1"),
                  VictimDeleted(3000, "a"), Attempt(3000, 2, "b", "n1")},
                 {}},
                ""},
               {"an ephemeral volume's claim",
                {{Attempt(2000, 1, "e", "n1"), Attempt(2000, 2, "e2", "n2")}, {}},
                "claim default/e-e is already used by default/e"},
               {"ReadWriteOnce claims may be shared",
                {{Attempt(0, 1, "c", "n1"), Attempt(0, 2, "c", "n2")}, {}},
                ""},
           },
           StorageFixture());
}

TEST(CheckCsiAttachLimitsTest, Table) {
  RunCases(&CheckCsiAttachLimits,
           {
               {"a shared handle counts once, two fit two",
                {{Attempt(0, 1, "c", "n1"), Attempt(0, 2, "d", "n1")}, {}},
                ""},
               {"three over two",
                {{Attempt(0, 1, "c", "n1"), Attempt(0, 2, "d", "n1"), Attempt(0, 3, "a", "n1")},
                 {}},
                "3 unique volumes of driver ebs.csi.aws.com, limit 2"},
               {"another driver is not counted",
                {{Attempt(0, 1, "c", "n1"), Attempt(0, 2, "d", "n1"), Attempt(0, 3, "z", "n1")},
                 {}},
                ""},
               {"no count: no limit",
                {{Attempt(0, 1, "c", "n2"), Attempt(0, 2, "d", "n2"), Attempt(0, 3, "a", "n2")},
                 {}},
                ""},
               {"no CSINode: no limit",
                {{Attempt(0, 1, "c", "n3"), Attempt(0, 2, "d", "n3"), Attempt(0, 3, "a", "n3")},
                 {}},
                ""},
               {"room freed by a deletion",
                {{Attempt(0, 1, "c", "n1"), Binding(0, 1, "c", "n1"), VictimDeleted(500, "c"),
                  Attempt(500, 2, "d", "n1"), Attempt(500, 3, "a", "n1")},
                 {}},
                ""},
               {"a missing claim counts nothing", {{Attempt(0, 1, "m", "n1")}, {}}, ""},
           },
           StorageFixture());
}

TEST(CheckBoundVolumeNodeAffinityTest, Table) {
  RunCases(&CheckBoundVolumeNodeAffinity,
           {
               {"matching node", {{Attempt(0, 1, "z", "n2")}, {}}, ""},
               {"no zone label", {{Attempt(0, 1, "z", "n1")}, {}},
                "node affinity of pv-z (bound to default/zonal) does not match"},
               {"other zone", {{Attempt(0, 1, "z", "n3")}, {}}, "does not match"},
               {"pre-bound claim", {{Attempt(0, 1, "p", "n1")}, {}}, "does not match"},
               {"no node affinity", {{Attempt(0, 1, "c", "n1")}, {}}, ""},
           },
           StorageFixture());
}

}  // namespace
}  // namespace schedref::testing::scenario_gen
