// Tables transcribed from upstream
// pkg/scheduler/framework/plugins/interpodaffinity/filtering_test.go (the
// st.MakePod()-based version, find_string id 34794596): TestRequiredAffinity-
// SingleNode, TestRequiredAffinityMultipleNodes, TestPreFilterDisabled,
// TestPreFilterStateAddRemovePod, TestGetTPMapMatchingIncomingAffinity-
// AntiAffinity. Rows about label values that fail to parse are left out:
// the manifest decoder rejects such pods (api::ValidateLabelSelector), as
// upstream's API server does.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "testing/upstream/framework/plugins/interpodaffinity/impl.h"

namespace SCHEDREF_INTERPODAFFINITY_NS {
namespace {

using st::MakeNode;
using st::MakePod;

const Status kAffinityFail(Code::kUnschedulableAndUnresolvable,
                           kErrReasonAffinityRulesNotMatch);
const Status kAntiFail(Code::kUnschedulable,
                       kErrReasonAntiAffinityRulesNotMatch);
const Status kExistingAntiFail(Code::kUnschedulable,
                               kErrReasonExistingAntiAffinityRulesNotMatch);

api::PodAffinityTerm In(const std::string& key, const std::string& topo,
                        std::vector<std::string> values) {
  return Term({Req(key, "In", std::move(values))}, topo);
}
api::PodAffinityTerm NotIn(const std::string& key, const std::string& topo,
                           std::vector<std::string> values) {
  return Term({Req(key, "NotIn", std::move(values))}, topo);
}
api::PodAffinityTerm Exists(const std::string& key, const std::string& topo) {
  return Term({Req(key, "Exists")}, topo);
}

TEST(InterPodAffinityFilterTest, UpstreamRequiredAffinitySingleNode) {
  const api::Labels pod_label = {{"service", "securityscan"}};
  const api::Labels pod_label2 = {{"security", "S1"}};
  const api::Pod pod =
      MakePod().Name("pod").Labels(pod_label).Node("node1").Obj();
  const api::Node node1 =
      MakeNode().Name("node1").Labels({{"region", "r1"}, {"zone", "z11"}}).Obj();
  api::LabelSelector team1;
  team1.match_expressions = {Req("team", "In", {"team1"})};

  struct Case {
    std::string name;
    api::Pod pod;
    std::vector<api::Pod> pods;
    Status want_pre_filter;
    Status want_filter;
  };
  std::vector<Case> cases = {
      {"A pod that has no required pod affinity scheduling rules can schedule "
       "onto a node with no existing pods",
       MakePod().Name("p").Obj(), {}, Status::Skip(), {}},
      {"satisfies with requiredDuringSchedulingIgnoredDuringExecution in "
       "PodAffinity using In operator that matches the existing pod",
       MakePod().Name("p").Labels(pod_label2)
           .PodAffinityTerm(In("service", "region", {"securityscan", "value2"}))
           .Obj(),
       {pod}, {}, {}},
      {"satisfies the pod with requiredDuringSchedulingIgnoredDuringExecution "
       "in PodAffinity using not in operator in labelSelector that matches the "
       "existing pod",
       MakePod().Name("p").Labels(pod_label2)
           .PodAffinityTerm(NotIn("service", "region", {"securityscan3", "value3"}))
           .Obj(),
       {pod}, {}, {}},
      {"Does not satisfy the PodAffinity with labelSelector because of diff "
       "Namespace",
       [] {
         api::PodAffinityTerm t =
             Term({Req("service", "In", {"securityscan", "value2"})}, "");
         t.namespaces = {"DiffNameSpace"};
         return CreatePodWithAffinityTerms("", "", {{"security", "S1"}}, {t},
                                           {});
       }(),
       {MakePod().Name("x").Namespace("ns").Label("service", "securityscan")
            .Node("node1").Obj()},
       {}, kAffinityFail},
      {"Doesn't satisfy the PodAffinity because of unmatching labelSelector "
       "with the existing pod",
       MakePod().Name("p").Labels(pod_label)
           .PodAffinityTerm(In("service", "", {"antivirusscan", "value2"}))
           .Obj(),
       {pod}, {}, kAffinityFail},
      {"satisfies the PodAffinity with different label Operators in multiple "
       "RequiredDuringSchedulingIgnoredDuringExecution ",
       CreatePodWithAffinityTerms(
           "", "", pod_label2,
           {Term({Req("service", "Exists"), Req("wrongkey", "DoesNotExist")},
                 "region"),
            Term({Req("service", "In", {"securityscan"}),
                  Req("service", "NotIn", {"WrongValue"})},
                 "region")},
           {}),
       {pod}, {}, {}},
      {"The labelSelector requirements(items of matchExpressions) are ANDed, "
       "the pod cannot schedule onto the node because one of the "
       "matchExpression item don't match.",
       CreatePodWithAffinityTerms(
           "", "", pod_label2,
           {Term({Req("service", "Exists"), Req("wrongkey", "DoesNotExist")},
                 "region"),
            Term({Req("service", "In", {"securityscan2"}),
                  Req("service", "NotIn", {"WrongValue"})},
                 "region")},
           {}),
       {pod}, {}, kAffinityFail},
      {"satisfies the PodAffinity and PodAntiAffinity with the existing pod",
       MakePod().Name("p").Labels(pod_label2)
           .PodAffinityTerm(In("service", "region", {"securityscan", "value2"}))
           .PodAntiAffinityTerm(In("service", "node", {"antivirusscan", "value2"}))
           .Obj(),
       {pod}, {}, {}},
      {"satisfies the PodAffinity and PodAntiAffinity and PodAntiAffinity "
       "symmetry with the existing pod",
       MakePod().Name("p").Labels(pod_label2)
           .PodAffinityTerm(In("service", "region", {"securityscan", "value2"}))
           .PodAntiAffinityTerm(In("service", "node", {"antivirusscan", "value2"}))
           .Obj(),
       {MakePod().Name("e").Node("node1").Labels(pod_label)
            .PodAntiAffinityTerm(In("service", "node", {"antivirusscan", "value2"}))
            .Obj()},
       {}, {}},
      {"satisfies the PodAffinity but doesn't satisfy the PodAntiAffinity with "
       "the existing pod",
       MakePod().Name("p").Labels(pod_label2)
           .PodAffinityTerm(In("service", "region", {"securityscan", "value2"}))
           .PodAntiAffinityTerm(In("service", "zone", {"securityscan", "value2"}))
           .Obj(),
       {pod}, {}, kAntiFail},
      {"satisfies the PodAffinity and PodAntiAffinity but doesn't satisfy "
       "PodAntiAffinity symmetry with the existing pod",
       MakePod().Name("p").Labels(pod_label)
           .PodAffinityTerm(In("service", "region", {"securityscan", "value2"}))
           .PodAntiAffinityTerm(In("service", "node", {"antivirusscan", "value2"}))
           .Obj(),
       {MakePod().Name("e").Labels(pod_label).Node("node1")
            .PodAntiAffinityTerm(In("service", "zone", {"securityscan", "value2"}))
            .Obj()},
       {}, kExistingAntiFail},
      {"pod matches its own Label in PodAffinity and that matches the existing "
       "pod Labels",
       MakePod().Name("p").Labels(pod_label)
           .PodAffinityTerm(NotIn("service", "region", {"securityscan", "value2"}))
           .Obj(),
       {MakePod().Name("e").Label("service", "securityscan").Node("node2").Obj()},
       {}, kAffinityFail},
      {"verify that PodAntiAffinity from existing pod is respected when pod has "
       "no AntiAffinity constraints. doesn't satisfy PodAntiAffinity symmetry "
       "with the existing pod",
       MakePod().Name("p").Labels(pod_label).Obj(),
       {MakePod().Name("e").Node("node1").Labels(pod_label)
            .PodAntiAffinityTerm(In("service", "zone", {"securityscan", "value2"}))
            .Obj()},
       {}, kExistingAntiFail},
      {"verify that PodAntiAffinity from existing pod is respected when pod has "
       "no AntiAffinity constraints. satisfy PodAntiAffinity symmetry with the "
       "existing pod",
       MakePod().Name("p").Labels(pod_label).Obj(),
       {MakePod().Name("e").Node("node1").Labels(pod_label)
            .PodAntiAffinityTerm(NotIn("service", "zone", {"securityscan", "value2"}))
            .Obj()},
       Status::Skip(), {}},
      {"satisfies the PodAntiAffinity with existing pod but doesn't satisfy "
       "PodAntiAffinity symmetry with incoming pod",
       MakePod().Name("p").Labels(pod_label)
           .PodAntiAffinityExists("service", "region")
           .PodAntiAffinityExists("security", "region").Obj(),
       {MakePod().Name("e").Node("node1").Labels(pod_label2)
            .PodAntiAffinityExists("security", "zone").Obj()},
       {}, kAntiFail},
      {"PodAntiAffinity symmetry check a1: incoming pod and existing pod "
       "partially match each other on AffinityTerms",
       MakePod().Name("p").Labels(pod_label)
           .PodAntiAffinityExists("service", "zone")
           .PodAntiAffinityExists("security", "zone").Obj(),
       {MakePod().Name("e").Node("node1").Labels(pod_label2)
            .PodAntiAffinityExists("security", "zone").Obj()},
       {}, kAntiFail},
      {"PodAntiAffinity symmetry check a2: incoming pod and existing pod "
       "partially match each other on AffinityTerms",
       MakePod().Name("p").Labels(pod_label2)
           .PodAntiAffinityExists("security", "zone").Obj(),
       {MakePod().Name("e").Node("node1").Labels(pod_label)
            .PodAntiAffinityExists("service", "zone")
            .PodAntiAffinityExists("security", "zone").Obj()},
       {}, kExistingAntiFail},
      {"PodAntiAffinity symmetry check b1: incoming pod and existing pod "
       "partially match each other on AffinityTerms",
       MakePod().Name("p").Labels({{"abc", ""}, {"xyz", ""}})
           .PodAntiAffinityExists("abc", "zone")
           .PodAntiAffinityExists("def", "zone").Obj(),
       {MakePod().Name("e").Node("node1").Labels({{"def", ""}, {"xyz", ""}})
            .PodAntiAffinityExists("abc", "zone")
            .PodAntiAffinityExists("def", "zone").Obj()},
       {}, kAntiFail},
      {"PodAntiAffinity symmetry check b2: incoming pod and existing pod "
       "partially match each other on AffinityTerms",
       MakePod().Name("p").Labels({{"def", ""}, {"xyz", ""}})
           .PodAntiAffinityExists("abc", "zone")
           .PodAntiAffinityExists("def", "zone").Obj(),
       {MakePod().Name("e").Node("node1").Labels({{"abc", ""}, {"xyz", ""}})
            .PodAntiAffinityExists("abc", "zone")
            .PodAntiAffinityExists("def", "zone").Obj()},
       {}, kAntiFail},
      {"affinity with NamespaceSelector",
       [&] {
         api::PodAffinityTerm t =
             In("service", "region", {"securityscan", "value2"});
         t.namespace_selector = team1;
         return CreatePodWithAffinityTerms("", "", pod_label2, {t}, {});
       }(),
       {MakePod().Name("e").Namespace("subteam1.team1").Labels(pod_label)
            .Node("node1").Obj()},
       {}, {}},
      {"affinity with non-matching NamespaceSelector",
       [&] {
         api::PodAffinityTerm t =
             In("service", "region", {"securityscan", "value2"});
         t.namespace_selector = team1;
         return CreatePodWithAffinityTerms("", "", pod_label2, {t}, {});
       }(),
       {MakePod().Name("e").Namespace("subteam1.team2").Labels(pod_label)
            .Node("node1").Obj()},
       {}, kAffinityFail},
      {"anti-affinity with matching NamespaceSelector",
       [&] {
         api::PodAffinityTerm t =
             In("service", "zone", {"securityscan", "value2"});
         t.namespace_selector = team1;
         return CreatePodWithAffinityTerms("subteam1.team1", "", pod_label2, {},
                                           {t});
       }(),
       {MakePod().Name("e").Namespace("subteam2.team1").Labels(pod_label)
            .Node("node1").Obj()},
       {}, kAntiFail},
      {"anti-affinity with matching all NamespaceSelector",
       [&] {
         api::PodAffinityTerm t =
             In("service", "zone", {"securityscan", "value2"});
         t.namespace_selector = api::LabelSelector{};
         return CreatePodWithAffinityTerms("subteam1.team1", "", pod_label2, {},
                                           {t});
       }(),
       {MakePod().Name("e").Namespace("subteam2.team1").Labels(pod_label)
            .Node("node1").Obj()},
       {}, kAntiFail},
      {"anti-affinity with non-matching NamespaceSelector",
       [&] {
         api::PodAffinityTerm t =
             In("service", "zone", {"securityscan", "value2"});
         t.namespace_selector = team1;
         return CreatePodWithAffinityTerms("subteam1.team1", "", pod_label2, {},
                                           {t});
       }(),
       {MakePod().Name("e").Namespace("subteam1.team2").Labels(pod_label)
            .Node("node1").Obj()},
       {}, {}},
  };

  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    auto env = SetupPlugin(c.pods, {node1}, TestNamespaces());
    CycleState state;
    PreFilterOutput pre = PreFilterOut(*env, state, c.pod);
    EXPECT_EQ(pre.status, c.want_pre_filter);
    if (!pre.status.IsSuccess()) continue;
    EXPECT_EQ(FilterNode(*env, state, c.pod, "node1"), c.want_filter);
  }
}

TEST(InterPodAffinityFilterTest, UpstreamRequiredAffinityMultipleNodes) {
  const api::Labels china = {{"region", "China"}};
  const api::Labels china_az1 = {{"region", "China"}, {"az", "az1"}};
  const api::Labels india = {{"region", "India"}};
  auto node = [](const std::string& name, const api::Labels& labels) {
    return MakeNode().Name(name).Labels(labels).Obj();
  };
  auto three = [&](const std::string& a, const std::string& b,
                   const std::string& c) {
    return std::vector<api::Node>{node(a, china), node(b, china_az1),
                                  node(c, india)};
  };
  auto rzh = [&](const std::string& n, const std::string& zone) {
    return node(n, {{"region", "r1"}, {"zone", zone}, {"hostname", n}});
  };
  struct Case {
    std::string name;
    api::Pod pod;
    std::vector<api::Pod> pods;
    std::vector<api::Node> nodes;
    std::vector<Status> want_filter;
    Status want_pre_filter;
  };
  std::vector<Case> cases = {
      {"A pod can be scheduled onto all the nodes that have the same topology "
       "key & label value with one of them has an existing pod that matches "
       "the affinity rules",
       MakePod().Name("p").PodAffinityTerm(In("foo", "region", {"bar"})).Obj(),
       {MakePod().Name("p1").Node("node1").Labels({{"foo", "bar"}}).Obj()},
       three("node1", "node2", "node3"),
       {{}, {}, kAffinityFail}, {}},
      {"The affinity rule is to schedule all of the pods of this collection to "
       "the same zone. The first pod of the collection should not be blocked "
       "from being scheduled onto any node, even there's no existing pod that "
       "matches the rule anywhere.",
       MakePod().Name("p").Labels({{"foo", "bar"}, {"service", "securityscan"}})
           .PodAffinityTerm(In("foo", "zone", {"bar"}))
           .PodAffinityTerm(In("service", "zone", {"securityscan"})).Obj(),
       {MakePod().Name("p1").Node("nodeA").Labels({{"foo", "bar"}}).Obj()},
       {node("nodeA", {{"zone", "az1"}, {"hostname", "h1"}}),
        node("nodeB", {{"zone", "az2"}, {"hostname", "h2"}})},
       {{}, {}}, {}},
      {"The first pod of the collection can only be scheduled on nodes "
       "labelled with the requested topology keys",
       MakePod().Name("p").Labels({{"foo", "bar"}, {"service", "securityscan"}})
           .PodAffinityTerm(In("foo", "zone", {"bar"}))
           .PodAffinityTerm(In("service", "zone", {"securityscan"})).Obj(),
       {MakePod().Name("p1").Node("nodeA").Labels({{"foo", "bar"}}).Obj()},
       {node("nodeA", {{"zoneLabel", "az1"}, {"hostname", "h1"}}),
        node("nodeB", {{"zoneLabel", "az2"}, {"hostname", "h2"}})},
       {kAffinityFail, kAffinityFail}, {}},
      {"NodeA and nodeB have same topologyKey and label value. NodeA has an "
       "existing pod that matches the inter pod affinity rule. The pod can not "
       "be scheduled onto nodeA and nodeB.",
       MakePod().Name("p").PodAntiAffinityTerm(In("foo", "region", {"abc"})).Obj(),
       {MakePod().Name("e").Node("nodeA").Labels({{"foo", "abc"}}).Obj()},
       {node("nodeA", {{"region", "r1"}, {"hostname", "nodeA"}}),
        node("nodeB", {{"region", "r1"}, {"hostname", "nodeB"}})},
       {kAntiFail, kAntiFail}, {}},
      {"This test ensures that anti-affinity matches a pod when any term of the "
       "anti-affinity rule matches a pod.",
       MakePod().Name("p").PodAntiAffinityTerm(In("foo", "region", {"abc"}))
           .PodAntiAffinityTerm(In("service", "zone", {"securityscan"})).Obj(),
       {MakePod().Name("e").Node("nodeA")
            .Labels({{"foo", "abc"}, {"service", "securityscan"}}).Obj()},
       {node("nodeA", {{"region", "r1"}, {"zone", "z1"}, {"hostname", "nodeA"}}),
        node("nodeB", {{"region", "r1"}, {"zone", "z2"}, {"hostname", "nodeB"}})},
       {kAntiFail, kAntiFail}, {}},
      {"NodeA and nodeB have same topologyKey and label value. NodeA has an "
       "existing pod that matches the inter pod affinity rule. The pod can not "
       "be scheduled onto nodeA and nodeB but can be scheduled onto nodeC",
       MakePod().Name("p").PodAntiAffinityTerm(In("foo", "region", {"abc"})).Obj(),
       {MakePod().Name("e").Node("nodeA").Labels({{"foo", "abc"}}).Obj()},
       three("nodeA", "nodeB", "nodeC"),
       {kAntiFail, kAntiFail, {}}, {}},
      {"NodeA and nodeB have same topologyKey and label value. NodeA has an "
       "existing pod that matches the inter pod affinity rule. The pod can not "
       "be scheduled onto nodeA, nodeB, but can be scheduled onto nodeC (NodeC "
       "has an existing pod that match the inter pod affinity rule but in "
       "different namespace)",
       MakePod().Name("p").Namespace("NS1").Labels({{"foo", "123"}})
           .PodAntiAffinityTerm(In("foo", "region", {"bar"})).Obj(),
       {MakePod().Name("e1").Node("nodeA").Namespace("NS1")
            .Labels({{"foo", "bar"}}).Obj(),
        MakePod().Name("e2").Node("nodeC").Namespace("NS2")
            .PodAntiAffinityTerm(In("foo", "region", {"123"})).Obj()},
       three("nodeA", "nodeB", "nodeC"),
       {kAntiFail, kAntiFail, {}}, {}},
      {"Test existing pod's anti-affinity: if an existing pod has a term with "
       "invalid topologyKey, labelSelector of the term is firstly checked, and "
       "then topologyKey of the term is also checked",
       MakePod().Name("p").Label("foo", "").Obj(),
       {MakePod().Name("e").Node("nodeA")
            .PodAntiAffinityExists("foo", "invalid-node-label").Obj()},
       {rzh("nodeA", "z1"), rzh("nodeB", "z1")},
       {{}, {}}, Status::Skip()},
      {"Test incoming pod's anti-affinity: even if labelSelector matches, we "
       "still check if topologyKey matches",
       MakePod().Name("p").Node("nodeA")
           .PodAntiAffinityExists("foo", "invalid-node-label").Obj(),
       {MakePod().Name("e").Node("nodeA").Labels({{"foo", ""}}).Obj()},
       {rzh("nodeA", "z1"), rzh("nodeB", "z1")},
       {{}, {}}, {}},
      {"Test existing pod's anti-affinity: incoming pod wouldn't considered as "
       "a fit as it violates each existingPod's terms on all nodes",
       MakePod().Name("p").Label("foo", "").Label("bar", "").Obj(),
       {MakePod().Name("e1").Node("nodeA").PodAntiAffinityExists("foo", "zone")
            .Obj(),
        MakePod().Name("e2").Node("nodeA").PodAntiAffinityExists("bar", "region")
            .Obj()},
       {rzh("nodeA", "z1"), rzh("nodeB", "z2")},
       {kExistingAntiFail, kExistingAntiFail}, {}},
      {"Test incoming pod's anti-affinity: incoming pod wouldn't considered as "
       "a fit as it at least violates one anti-affinity rule of existingPod",
       MakePod().Name("p").PodAntiAffinityExists("foo", "zone")
           .PodAntiAffinityExists("bar", "region").Obj(),
       {MakePod().Name("e1").Node("nodeA").Labels({{"foo", ""}}).Obj(),
        MakePod().Name("e2").Node("nodeB").Labels({{"bar", ""}}).Obj()},
       {rzh("nodeA", "z1"), rzh("nodeB", "z2")},
       {kAntiFail, kAntiFail}, {}},
      {"Test existing pod's anti-affinity: only when labelSelector and "
       "topologyKey both match, it's counted as a single term match - case "
       "when one term has invalid topologyKey",
       MakePod().Name("p").Label("foo", "").Label("bar", "").Obj(),
       {MakePod().Name("e").Node("nodeA")
            .PodAntiAffinityExists("foo", "invalid-node-label")
            .PodAntiAffinityExists("bar", "zone").Obj()},
       {rzh("nodeA", "z1"), rzh("nodeB", "z2")},
       {kExistingAntiFail, {}}, {}},
      {"Test incoming pod's anti-affinity: only when labelSelector and "
       "topologyKey both match, it's counted as a single term match - case "
       "when one term has invalid topologyKey",
       MakePod().Name("p").PodAntiAffinityExists("foo", "invalid-node-label")
           .PodAntiAffinityExists("bar", "zone").Obj(),
       {MakePod().Name("podA").Node("nodeA").Labels({{"foo", ""}, {"bar", ""}})
            .Obj()},
       {rzh("nodeA", "z1"), rzh("nodeB", "z2")},
       {kAntiFail, {}}, {}},
      {"Test existing pod's anti-affinity: only when labelSelector and "
       "topologyKey both match, it's counted as a single term match - case "
       "when all terms have valid topologyKey",
       MakePod().Name("p").Label("foo", "").Label("bar", "").Obj(),
       {MakePod().Name("e").Node("nodeA").PodAntiAffinityExists("foo", "region")
            .PodAntiAffinityExists("bar", "zone").Obj()},
       {rzh("nodeA", "z1"), rzh("nodeB", "z2")},
       {kExistingAntiFail, kExistingAntiFail}, {}},
      {"Test incoming pod's anti-affinity: only when labelSelector and "
       "topologyKey both match, it's counted as a single term match - case "
       "when all terms have valid topologyKey",
       MakePod().Name("p").PodAntiAffinityExists("foo", "region")
           .PodAntiAffinityExists("bar", "zone").Obj(),
       {MakePod().Name("e").Node("nodeA").Labels({{"foo", ""}, {"bar", ""}})
            .Obj()},
       {rzh("nodeA", "z1"), rzh("nodeB", "z2")},
       {kAntiFail, kAntiFail}, {}},
      {"Test existing pod's anti-affinity: existingPod on nodeA and nodeB has "
       "at least one anti-affinity term matches incoming pod, so incoming pod "
       "can only be scheduled to nodeC",
       MakePod().Name("p").Label("foo", "").Label("bar", "").Obj(),
       {MakePod().Name("e1").Node("nodeA").PodAntiAffinityExists("foo", "zone")
            .PodAntiAffinityExists("labelA", "zone").Obj(),
        MakePod().Name("e2").Node("nodeB").PodAntiAffinityExists("bar", "zone")
            .PodAntiAffinityExists("labelB", "zone").Obj()},
       {rzh("nodeA", "z1"), rzh("nodeB", "z2"), rzh("nodeC", "z3")},
       {kExistingAntiFail, kExistingAntiFail, {}}, {}},
      {"Test incoming pod's affinity: firstly check if all affinityTerms "
       "match, and then check if all topologyKeys match",
       MakePod().Name("p").PodAffinityExists("foo", "region")
           .PodAffinityExists("bar", "zone").Obj(),
       {MakePod().Name("pod1").Labels({{"foo", ""}, {"bar", ""}}).Node("nodeA")
            .Obj()},
       {rzh("nodeA", "z1"), rzh("nodeB", "z1")},
       {{}, {}}, {}},
      {"Test incoming pod's affinity: firstly check if all affinityTerms "
       "match, and then check if all topologyKeys match, and the match logic "
       "should be satisfied on the same pod",
       MakePod().Name("p").PodAffinityExists("foo", "region")
           .PodAffinityExists("bar", "zone").Obj(),
       {MakePod().Name("pod1").Node("nodeA").Labels({{"foo", ""}}).Obj(),
        MakePod().Name("pod2").Node("nodeB").Labels({{"bar", ""}}).Obj()},
       {rzh("nodeA", "z1"), rzh("nodeB", "z2")},
       {kAffinityFail, kAffinityFail}, {}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    auto env = SetupPlugin(c.pods, c.nodes, {{"NS1", {}}});
    CycleState state;
    PreFilterOutput pre = PreFilterOut(*env, state, c.pod);
    EXPECT_EQ(pre.status, c.want_pre_filter);
    if (pre.status.IsSkip()) continue;
    for (size_t i = 0; i < c.nodes.size(); ++i) {
      EXPECT_EQ(FilterNode(*env, state, c.pod, c.nodes[i].name),
                c.want_filter[i])
          << c.nodes[i].name;
    }
  }
}

// upstream TestPreFilterDisabled: Filter without PreFilter state is an error.
TEST(InterPodAffinityFilterTest, UpstreamPreFilterDisabled) {
  auto env = SetupPlugin({}, {});
  CycleState state;
  EXPECT_EQ(FilterOnEmptyNode(*env, state, MakePod().Obj()),
            Status::Error("error reading \"PreFilterInterPodAffinity\" from "
                          "cycleState: not found"));
}

// upstream TestPreFilterStateAddRemovePod: AddPod gives the state PreFilter
// computes with the pod present; RemovePod restores the original.
TEST(InterPodAffinityFilterTest, UpstreamPreFilterStateAddRemovePod) {
  const api::Labels label1 = {{"region", "r1"}, {"zone", "z11"}};
  const api::Labels label2 = {{"region", "r1"}, {"zone", "z12"}};
  const api::Labels label3 = {{"region", "r2"}, {"zone", "z21"}};
  const api::Labels selector1 = {{"foo", "bar"}};
  const std::vector<api::PodAffinityTerm> anti_foo_bar = {
      In("foo", "region", {"bar"})};
  const std::vector<api::PodAffinityTerm> complex = {
      In("foo", "region", {"bar", "buzz"}),
      NotIn("service", "zone", {"bar", "security", "test"})};
  auto with = [](api::Pod pod, std::vector<api::PodAffinityTerm> affinity,
                 std::vector<api::PodAffinityTerm> anti) {
    if (!affinity.empty() || !anti.empty()) pod.affinity.emplace();
    if (!affinity.empty()) {
      pod.affinity->pod_affinity.emplace();
      pod.affinity->pod_affinity->required = std::move(affinity);
    }
    if (!anti.empty()) {
      pod.affinity->pod_anti_affinity.emplace();
      pod.affinity->pod_anti_affinity->required = std::move(anti);
    }
    return pod;
  };
  const std::vector<api::Node> nodes = {
      MakeNode().Name("nodeA").Labels(label1).Obj(),
      MakeNode().Name("nodeB").Labels(label2).Obj(),
      MakeNode().Name("nodeC").Labels(label3).Obj()};
  struct Case {
    std::string name;
    api::Pod pending;
    api::Pod added;
    std::vector<api::Pod> existing;
    TopologyToMatchedTermCount want_anti_affinity;
    TopologyToMatchedTermCount want_affinity;
  };
  std::vector<Case> cases = {
      {"preFilterState anti-affinity terms are updated correctly after adding "
       "and removing a pod",
       with(MakePod().Name("pending").Labels(selector1).Obj(), {}, anti_foo_bar),
       with(MakePod().Name("addedPod").Labels(selector1).Node("nodeB").Obj(), {},
            anti_foo_bar),
       {MakePod().Name("p1").Labels(selector1).Node("nodeA").Obj(),
        with(MakePod().Name("p2").Node("nodeC").Obj(), {}, anti_foo_bar)},
       {{{"region", "r1"}, 2}},
       {}},
      {"preFilterState anti-affinity terms are updated correctly after adding "
       "and removing a pod (complex terms)",
       with(MakePod().Name("pending").Labels(selector1).Obj(), {}, complex),
       with(MakePod().Name("addedPod").Labels(selector1).Node("nodeA").Obj(), {},
            complex),
       {MakePod().Name("p1").Labels(selector1).Node("nodeA").Obj(),
        with(MakePod().Name("p2").Node("nodeC").Obj(), {}, anti_foo_bar)},
       {{{"region", "r1"}, 2}, {{"zone", "z11"}, 2}, {{"zone", "z21"}, 1}},
       {}},
      {"preFilterState matching pod affinity and anti-affinity are updated "
       "correctly after adding and removing a pod",
       with(MakePod().Name("pending").Labels(selector1).Obj(), complex, {}),
       with(MakePod().Name("addedPod").Labels(selector1).Node("nodeA").Obj(), {},
            complex),
       {MakePod().Name("p1").Labels(selector1).Node("nodeA").Obj(),
        with(MakePod().Name("p2").Node("nodeC").Obj(), complex, anti_foo_bar)},
       {},
       {{{"region", "r1"}, 2}, {{"zone", "z11"}, 2}}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    auto state_of = [&](const std::vector<api::Pod>& pods) {
      auto env = SetupPlugin(pods, nodes);
      CycleState cs;
      EXPECT_TRUE(PreFilterOut(*env, cs, c.pending).status.IsSuccess());
      return CountsOf(cs);
    };
    std::vector<api::Pod> all = c.existing;
    all.push_back(c.added);
    const Counts all_pods = state_of(all);

    auto env = SetupPlugin(c.existing, nodes);
    CycleState cs;
    ASSERT_TRUE(PreFilterOut(*env, cs, c.pending).status.IsSuccess());
    const Counts original = CountsOf(cs);
    ASSERT_TRUE(AddPodTo(*env, cs, c.pending, c.added, c.added.node_name)
                    .IsSuccess());
    const Counts added = CountsOf(cs);
    EXPECT_EQ(added.anti, c.want_anti_affinity);
    EXPECT_EQ(added.affinity, c.want_affinity);
    EXPECT_EQ(added.existing_anti, all_pods.existing_anti);
    EXPECT_EQ(added.affinity, all_pods.affinity);
    EXPECT_EQ(added.anti, all_pods.anti);

    ASSERT_TRUE(RemovePodFrom(*env, cs, c.pending, c.added, c.added.node_name)
                    .IsSuccess());
    const Counts removed = CountsOf(cs);
    EXPECT_EQ(removed.existing_anti, original.existing_anti);
    EXPECT_EQ(removed.affinity, original.affinity);
    EXPECT_EQ(removed.anti, original.anti);
  }
}

// upstream TestGetTPMapMatchingIncomingAffinityAntiAffinity, read through
// the PreFilter state.
TEST(InterPodAffinityFilterTest, UpstreamIncomingAffinityAntiAffinityCounts) {
  auto pod_with = [](std::vector<std::string> labels) {
    st::PodWrapper w = MakePod().Name("normal").Node("nodeA");
    for (const std::string& l : labels) w.Label(l, "");
    return w.Obj();
  };
  const api::Pod a = pod_with({"aaa"});
  const api::Pod b = pod_with({"bbb"});
  const api::Pod ab = pod_with({"aaa", "bbb"});
  const api::Node node_a =
      MakeNode().Name("nodeA").Label("hostname", "nodeA").Obj();
  const TopologyPair host_a{"hostname", "nodeA"};
  struct Case {
    std::string name;
    std::vector<api::Pod> existing;
    api::Pod pod;
    TopologyToMatchedTermCount want_affinity;
    TopologyToMatchedTermCount want_anti;
  };
  std::vector<Case> cases = {
      {"no pod has label that violates incoming pod's affinity and "
       "anti-affinity",
       {b},
       MakePod().Name("aaa-anti").PodAffinityExists("aaa", "hostname")
           .PodAntiAffinityExists("aaa", "hostname").Obj(),
       {}, {}},
      {"existing pod matches incoming pod's affinity and anti-affinity - "
       "single term case",
       {a},
       MakePod().Name("affi-antiaffi").PodAffinityExists("aaa", "hostname")
           .PodAntiAffinityExists("aaa", "hostname").Obj(),
       {{host_a, 1}}, {{host_a, 1}}},
      {"existing pod matches incoming pod's affinity and anti-affinity - "
       "multiple terms case",
       {ab},
       MakePod().Name("affi-antiaffi").PodAffinityExists("aaa", "hostname")
           .PodAffinityExists("bbb", "hostname")
           .PodAntiAffinityExists("aaa", "hostname").Obj(),
       {{host_a, 2}}, {{host_a, 1}}},
      {"existing pod not match incoming pod's affinity but matches "
       "anti-affinity",
       {a},
       MakePod().Name("affi-antiaffi").PodAffinityExists("aaa", "hostname")
           .PodAffinityExists("bbb", "hostname")
           .PodAntiAffinityExists("aaa", "hostname")
           .PodAntiAffinityExists("bbb", "hostname").Obj(),
       {}, {{host_a, 1}}},
      {"incoming pod's anti-affinity has more than one term - existing pod "
       "violates partial term - case 1",
       {ab},
       MakePod().Name("anaffi-antiaffiti").PodAffinityExists("aaa", "hostname")
           .PodAffinityExists("ccc", "hostname")
           .PodAntiAffinityExists("aaa", "hostname")
           .PodAntiAffinityExists("ccc", "hostname").Obj(),
       {}, {{host_a, 1}}},
      {"incoming pod's anti-affinity has more than one term - existing pod "
       "violates partial term - case 2",
       {b},
       MakePod().Name("affi-antiaffi").PodAffinityExists("aaa", "hostname")
           .PodAffinityExists("bbb", "hostname")
           .PodAntiAffinityExists("aaa", "hostname")
           .PodAntiAffinityExists("bbb", "hostname").Obj(),
       {}, {{host_a, 1}}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    auto env = SetupPlugin(c.existing, {node_a});
    CycleState cs;
    ASSERT_TRUE(PreFilterOut(*env, cs, c.pod).status.IsSuccess());
    EXPECT_EQ(CountsOf(cs).affinity, c.want_affinity);
    EXPECT_EQ(CountsOf(cs).anti, c.want_anti);
  }
}

// The state is deep-copied with the CycleState (upstream
// TestPreFilterStateClone): a dry run on the copy leaves the original.
TEST(InterPodAffinityFilterTest, StateCloneIsDeep) {
  const api::Node node = MakeNode().Name("n").Label("zone", "z").Obj();
  auto env = SetupPlugin(
      {MakePod().Name("e").Node("n").Label("app", "x").Obj()}, {node});
  const api::Pod pod =
      MakePod().Name("p").PodAntiAffinityExists("app", "zone").Obj();
  CycleState cs;
  ASSERT_TRUE(PreFilterOut(*env, cs, pod).status.IsSuccess());
  CycleState copy = cs;
  ASSERT_TRUE(RemoveFirstPodOf(*env, copy, pod, "n").IsSuccess());
  EXPECT_TRUE(FilterNode(*env, copy, pod, "n").IsSuccess());
  EXPECT_EQ(FilterNode(*env, cs, pod, "n"), kAntiFail);
}

// matchLabelKeys / mismatchLabelKeys are merged into the selector with the
// owner's labels (the API server's rewrite, KEP-3633).
TEST(InterPodAffinityFilterTest, MatchLabelKeys) {
  const api::Node node = MakeNode().Name("n").Label("zone", "z").Obj();
  api::PodAffinityTerm anti = Exists("app", "zone");
  anti.match_label_keys = {"version"};
  const api::Pod v1 = MakePod().Name("p").Labels({{"app", "a"}, {"version", "1"}})
                          .PodAntiAffinityTerm(anti).Obj();
  {
    // Same app, other version: the merged selector does not match.
    auto env = SetupPlugin({MakePod().Name("e").Node("n")
                                .Labels({{"app", "a"}, {"version", "2"}}).Obj()},
                           {node});
    CycleState cs;
    ASSERT_TRUE(PreFilterOut(*env, cs, v1).status.IsSuccess());
    EXPECT_TRUE(
        FilterNode(*env, cs, v1, "n").IsSuccess());
  }
  {
    auto env = SetupPlugin({MakePod().Name("e").Node("n")
                                .Labels({{"app", "a"}, {"version", "1"}}).Obj()},
                           {node});
    CycleState cs;
    ASSERT_TRUE(PreFilterOut(*env, cs, v1).status.IsSuccess());
    EXPECT_EQ(FilterNode(*env, cs, v1, "n"),
              kAntiFail);
  }
  api::PodAffinityTerm mismatch = Exists("app", "zone");
  mismatch.mismatch_label_keys = {"tenant"};
  const api::Pod t1 = MakePod().Name("p").Labels({{"app", "a"}, {"tenant", "t1"}})
                          .PodAntiAffinityTerm(mismatch).Obj();
  {
    // Anti-affinity to other tenants only: a same-tenant pod is fine.
    auto env = SetupPlugin({MakePod().Name("e").Node("n")
                                .Labels({{"app", "a"}, {"tenant", "t1"}}).Obj()},
                           {node});
    CycleState cs;
    ASSERT_TRUE(PreFilterOut(*env, cs, t1).status.IsSuccess());
    EXPECT_TRUE(
        FilterNode(*env, cs, t1, "n").IsSuccess());
  }
}

}  // namespace
}  // namespace SCHEDREF_INTERPODAFFINITY_NS
