// Tables transcribed from upstream
// pkg/scheduler/framework/plugins/interpodaffinity/scoring_test.go
// (find_string id 30376605): TestPreferredAffinity and
// TestPreferredAffinityWithHardPodAffinitySymmetricWeight. Rows about label
// values that fail to parse are left out (the decoder rejects such pods).
// Upstream's pods have namespace ""; ours default to "default", so a term
// listing namespace "" lists "default" here. Run against both
// implementations (impl.h).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "testing/upstream/framework/plugins/interpodaffinity/impl.h"

namespace SCHEDREF_INTERPODAFFINITY_NS {
namespace {

using st::MakeNode;

api::Affinity PreferredAffinity(std::vector<api::WeightedPodAffinityTerm> aff,
                                std::vector<api::WeightedPodAffinityTerm> anti) {
  api::Affinity a;
  if (!aff.empty()) {
    a.pod_affinity.emplace();
    a.pod_affinity->preferred = std::move(aff);
  }
  if (!anti.empty()) {
    a.pod_anti_affinity.emplace();
    a.pod_anti_affinity->preferred = std::move(anti);
  }
  return a;
}

api::Pod PodOn(const std::string& node, const api::Labels& labels,
               std::optional<api::Affinity> affinity = std::nullopt,
               const std::string& ns = "default") {
  static int n = 0;
  api::Pod p = st::MakePod().Name("pod" + std::to_string(++n)).Namespace(ns)
                   .Node(node).Labels(labels).Obj();
  p.affinity = std::move(affinity);
  return p;
}

api::Pod Incoming(const api::Labels& labels,
                  std::optional<api::Affinity> affinity = std::nullopt,
                  const std::string& ns = "default") {
  api::Pod p = st::MakePod().Name("incoming").Namespace(ns).Labels(labels).Obj();
  p.affinity = std::move(affinity);
  return p;
}

TEST(InterPodAffinityScoreTest, UpstreamPreferredAffinity) {
  const api::Labels china = {{"region", "China"}};
  const api::Labels india = {{"region", "India"}};
  const api::Labels az1 = {{"az", "az1"}};
  const api::Labels az2 = {{"az", "az2"}};
  const api::Labels china_az1 = {{"region", "China"}, {"az", "az1"}};
  const api::Labels s1 = {{"security", "S1"}};
  const api::Labels s2 = {{"security", "S2"}};
  auto w = [](int32_t weight, api::PodAffinityTerm t) {
    return api::WeightedPodAffinityTerm{weight, std::move(t)};
  };
  const api::Affinity stay_s1_region =
      PreferredAffinity({w(5, Term({Req("security", "In", {"S1"})}, "region"))}, {});
  const api::Affinity stay_s2_region =
      PreferredAffinity({w(6, Term({Req("security", "In", {"S2"})}, "region"))}, {});
  const api::Affinity affinity3 = PreferredAffinity(
      {w(8, Term({Req("security", "NotIn", {"S1"}),
                  Req("security", "In", {"S2"})},
                 "region")),
       w(2, Term({Req("security", "Exists"), Req("wrongkey", "DoesNotExist")},
                 "region"))},
      {});
  api::Affinity hard_affinity;
  hard_affinity.pod_affinity.emplace();
  hard_affinity.pod_affinity->required = {
      Term({Req("security", "In", {"S1", "value2"})}, "region"),
      Term({Req("security", "Exists"), Req("wrongkey", "DoesNotExist")},
           "region")};
  const api::Affinity away_s1_az =
      PreferredAffinity({}, {w(5, Term({Req("security", "In", {"S1"})}, "az"))});
  const api::Affinity away_s2_az =
      PreferredAffinity({}, {w(5, Term({Req("security", "In", {"S2"})}, "az"))});
  const api::Affinity stay_s1_away_s2 = PreferredAffinity(
      {w(8, Term({Req("security", "In", {"S1"})}, "region"))},
      {w(5, Term({Req("security", "In", {"S2"})}, "az"))});
  api::PodAffinityTerm ns_term = Term({Req("security", "In", {"S1"})}, "region");
  ns_term.namespaces = {"subteam2.team2"};
  ns_term.namespace_selector =
      api::LabelSelector{{}, {Req("team", "In", {"team1"})}};
  const api::Affinity affinity_ns = PreferredAffinity({w(5, ns_term)}, {});
  const api::Affinity anti_affinity_ns = PreferredAffinity({}, {w(5, ns_term)});

  auto node = [](const std::string& name, const api::Labels& labels) {
    return MakeNode().Name(name).Labels(labels).Obj();
  };
  struct Case {
    std::string name;
    api::Pod pod;
    std::vector<api::Pod> pods;
    std::vector<api::Node> nodes;
    std::vector<int64_t> want;
    bool ignore_preferred = false;
    Status want_status = {};
  };
  std::vector<Case> cases = {
      {"all nodes are same priority as Affinity is nil", Incoming(s1), {},
       {node("node1", china), node("node2", india), node("node3", az1)},
       {}, false, Status::Skip()},
      {"Affinity: pod that matches topology key & pods in nodes will get high "
       "score comparing to otherswhich doesn't match either pods in nodes or "
       "in topology key",
       Incoming(s1, stay_s1_region),
       {PodOn("node1", s1), PodOn("node2", s2), PodOn("node3", s1)},
       {node("node1", china), node("node2", india), node("node3", az1)},
       {100, 0, 0}},
      {"All the nodes that have the same topology key & label value with one "
       "of them has an existing pod that match the affinity rules, have the "
       "same score",
       Incoming({}, stay_s1_region), {PodOn("node1", s1)},
       {node("node1", china), node("node2", china_az1), node("node3", india)},
       {100, 100, 0}},
      {"Affinity: nodes in one region has more matching pods comparing to "
       "other region, so the region which has more matches will get high score",
       Incoming(s1, stay_s2_region),
       {PodOn("node1", s2), PodOn("node1", s2), PodOn("node2", s2),
        PodOn("node3", s2), PodOn("node4", s2), PodOn("node5", s2)},
       {node("node1", china), node("node2", india), node("node3", china),
        node("node4", china), node("node5", india)},
       {100, 0, 100, 100, 0}},
      {"Affinity: different Label operators and values for pod affinity "
       "scheduling preference, including some match failures ",
       Incoming(s1, affinity3),
       {PodOn("node1", s1), PodOn("node2", s2), PodOn("node3", s1)},
       {node("node1", china), node("node2", india), node("node3", az1)},
       {20, 100, 0}},
      {"Affinity symmetry: considered only the "
       "preferredDuringSchedulingIgnoredDuringExecution in pod affinity "
       "symmetry",
       Incoming(s2),
       {PodOn("node1", s1, stay_s1_region), PodOn("node2", s2, stay_s2_region)},
       {node("node1", china), node("node2", india), node("node3", az1)},
       {0, 100, 0}},
      {"Affinity symmetry with namespace selector",
       Incoming(s1, std::nullopt, "subteam1.team1"),
       {PodOn("node1", s1, affinity_ns), PodOn("node2", s2, stay_s2_region)},
       {node("node1", china), node("node2", india), node("node3", az1)},
       {100, 0, 0}},
      {"AntiAffinity symmetry with namespace selector",
       Incoming(s1, std::nullopt, "subteam1.team1"),
       {PodOn("node1", s1, anti_affinity_ns), PodOn("node2", s2, stay_s2_region)},
       {node("node1", china), node("node2", india), node("node3", az1)},
       {0, 100, 100}},
      {"Affinity symmetry: considered RequiredDuringSchedulingIgnoredDuring"
       "Execution in pod affinity symmetry",
       Incoming(s1),
       {PodOn("node1", s1, hard_affinity), PodOn("node2", s2, hard_affinity)},
       {node("node1", china), node("node2", india), node("node3", az1)},
       {100, 100, 0}},
      {"Anti Affinity: pod that does not match existing pods in node will get "
       "high score ",
       Incoming(s1, away_s1_az), {PodOn("node1", s1), PodOn("node2", s2)},
       {node("node1", az1), node("node2", china)}, {0, 100}},
      {"Anti Affinity: pod that does not match topology key & match the pods "
       "in nodes will get higher score comparing to others ",
       Incoming(s1, away_s1_az), {PodOn("node1", s1), PodOn("node2", s1)},
       {node("node1", az1), node("node2", china)}, {0, 100}},
      {"Anti Affinity: one node has more matching pods comparing to other "
       "node, so the node which has more unmatches will get high score",
       Incoming(s1, away_s1_az),
       {PodOn("node1", s1), PodOn("node1", s1), PodOn("node2", s2)},
       {node("node1", az1), node("node2", india)}, {0, 100}},
      {"Anti Affinity symmetry: the existing pods in node which has anti "
       "affinity match will get high score",
       Incoming(s2),
       {PodOn("node1", s1, away_s2_az), PodOn("node2", s2, away_s1_az)},
       {node("node1", az1), node("node2", az2)}, {0, 100}},
      {"Affinity and Anti Affinity: considered only "
       "preferredDuringSchedulingIgnoredDuringExecution in both pod affinity "
       "& anti affinity",
       Incoming(s1, stay_s1_away_s2), {PodOn("node1", s1), PodOn("node2", s1)},
       {node("node1", china), node("node2", az1)}, {100, 0}},
      {"Affinity and Anti Affinity: considering both affinity and "
       "anti-affinity, the pod to schedule and existing pods have the same "
       "labels",
       Incoming(s1, stay_s1_away_s2),
       {PodOn("node1", s1), PodOn("node1", s1), PodOn("node2", s1),
        PodOn("node3", s1), PodOn("node3", s1), PodOn("node4", s1),
        PodOn("node5", s1)},
       {node("node1", china_az1), node("node2", india), node("node3", china),
        node("node4", china), node("node5", india)},
       {100, 0, 100, 100, 0}},
      {"Affinity and Anti Affinity and symmetry: considered only "
       "preferredDuringSchedulingIgnoredDuringExecution in both pod affinity "
       "& anti affinity & symmetry",
       Incoming(s1, stay_s1_away_s2),
       {PodOn("node1", s1), PodOn("node2", s2),
        PodOn("node3", {}, stay_s1_away_s2), PodOn("node4", {}, away_s1_az)},
       {node("node1", china), node("node2", az1), node("node3", india),
        node("node4", az2)},
       {100, 0, 100, 0}},
      {"Avoid panic when partial nodes in a topology don't have pods with "
       "affinity",
       Incoming(s1), {PodOn("node1", s1), PodOn("node2", {}, stay_s1_away_s2)},
       {node("node1", china), node("node2", china)}, {0, 0}},
      {"Affinity with pods matching NamespaceSelector",
       Incoming(s1, affinity_ns, "subteam1.team1"),
       {PodOn("node1", s1, std::nullopt, "subteam1.team1"),
        PodOn("node1", s1, std::nullopt, "subteam1.team1"),
        PodOn("node1", s1, std::nullopt, "subteam1.team2"),
        PodOn("node2", s1, std::nullopt, "subteam2.team1")},
       {node("node1", china), node("node2", india)}, {100, 0}},
      {"Affinity with pods matching both NamespaceSelector and Namespaces "
       "fields",
       Incoming(s1, affinity_ns, "subteam1.team1"),
       {PodOn("node1", s1, std::nullopt, "subteam1.team1"),
        PodOn("node1", s1, std::nullopt, "subteam1.team1"),
        PodOn("node1", s1, std::nullopt, "subteam2.team2"),
        PodOn("node2", s1, std::nullopt, "subteam2.team1")},
       {node("node1", china), node("node2", india)}, {100, 0}},
      {"AntiAffinity with pods matching NamespaceSelector",
       Incoming(s1, anti_affinity_ns, "subteam1.team1"),
       {PodOn("node1", s1, std::nullopt, "subteam1.team1"),
        PodOn("node1", s1, std::nullopt, "subteam1.team1"),
        PodOn("node1", s1, std::nullopt, "subteam1.team2"),
        PodOn("node2", s1, std::nullopt, "subteam2.team1")},
       {node("node1", china), node("node2", india)}, {0, 100}},
      {"AntiAffinity with pods matching both NamespaceSelector and Namespaces "
       "fields",
       Incoming(s1, anti_affinity_ns, "subteam1.team1"),
       {PodOn("node1", s1, std::nullopt, "subteam1.team1"),
        PodOn("node1", s1, std::nullopt, "subteam1.team1"),
        PodOn("node1", s1, std::nullopt, "subteam2.team2"),
        PodOn("node2", s1, std::nullopt, "subteam2.team1")},
       {node("node1", china), node("node2", india)}, {0, 100}},
      {"Ignore preferred terms of existing pods", Incoming(s2),
       {PodOn("node1", s1, stay_s1_away_s2), PodOn("node2", s2, stay_s2_region)},
       {node("node1", china), node("node2", india)}, {}, true, Status::Skip()},
      {"Do not ignore preferred terms of existing pods", Incoming(s2),
       {PodOn("node1", s1, stay_s1_away_s2), PodOn("node2", s2, stay_s2_region)},
       {node("node1", china), node("node2", india)}, {0, 100}},
      {"No nodes to score", Incoming(s2), {}, {}, {}, false, Status::Skip()},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    InterPodAffinityArgs args;
    args.ignore_preferred_terms_of_existing_pods = c.ignore_preferred;
    ScoreRun r = RunScoring(c.pod, c.pods, c.nodes, args);
    EXPECT_EQ(r.pre_score, c.want_status);
    if (r.pre_score.IsSuccess()) {
      EXPECT_EQ(r.scores, c.want);
    }
  }
}

TEST(InterPodAffinityScoreTest,
     UpstreamPreferredAffinityWithHardPodAffinitySymmetricWeight) {
  const api::Labels service_s1 = {{"service", "S1"}};
  const api::Labels china = {{"region", "China"}};
  const api::Labels india = {{"region", "India"}};
  const api::Labels az1 = {{"az", "az1"}};
  api::PodAffinityTerm t = Term({Req("service", "In", {"S1"})}, "region");
  t.namespaces = {"default", "subteam2.team2"};
  t.namespace_selector = api::LabelSelector{{}, {Req("team", "In", {"team1"})}};
  api::Affinity hard;
  hard.pod_affinity.emplace();
  hard.pod_affinity->required = {t};
  const std::vector<api::Node> nodes = {
      MakeNode().Name("node1").Labels(china).Obj(),
      MakeNode().Name("node2").Labels(india).Obj(),
      MakeNode().Name("node3").Labels(az1).Obj()};
  const std::vector<api::Pod> pods = {PodOn("node1", {}, hard),
                                      PodOn("node2", {}, hard)};
  struct Case {
    std::string name;
    api::Pod pod;
    int32_t weight;
    std::vector<int64_t> want;
    Status want_status = {};
  };
  std::vector<Case> cases = {
      {"with default weight", Incoming(service_s1), 1, {100, 100, 0}},
      {"with zero weight", Incoming(service_s1), 0, {}, Status::Skip()},
      {"with no matching namespace",
       Incoming(service_s1, std::nullopt, "subteam1.team2"), 1, {},
       Status::Skip()},
      {"with matching NamespaceSelector",
       Incoming(service_s1, std::nullopt, "subteam1.team1"), 1, {100, 100, 0}},
      {"with matching Namespaces",
       Incoming(service_s1, std::nullopt, "subteam2.team2"), 1, {100, 100, 0}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    InterPodAffinityArgs args;
    args.hard_pod_affinity_weight = c.weight;
    ScoreRun r = RunScoring(c.pod, pods, nodes, args);
    EXPECT_EQ(r.pre_score, c.want_status);
    if (r.pre_score.IsSuccess()) {
      EXPECT_EQ(r.scores, c.want);
    }
  }
}

}  // namespace
}  // namespace SCHEDREF_INTERPODAFFINITY_NS
