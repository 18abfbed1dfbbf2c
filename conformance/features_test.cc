#include "conformance/features.h"

#include <algorithm>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "api/codec/scenario_decode.h"

namespace schedref::conformance {
namespace {

constexpr char kHead[] = R"(schedref: scenario/v1
name: t
)";

constexpr char kNode[] = R"(
- apiVersion: v1
  kind: Node
  metadata: {name: n1}
  status: {allocatable: {cpu: "4", memory: 8Gi, pods: "10"}}
)";

std::set<std::string> Features(const std::string& body,
                               const api::Trace& trace = {}) {
  StatusOr<api::Scenario> s =
      api::DecodeScenario(std::string(kHead) + body, "t.yaml");
  EXPECT_TRUE(s.ok()) << s.status().message();
  if (!s.ok()) return {"<decode error>"};
  return ScenarioFeatures(*s, trace);
}

std::string Nodes(int n) {
  std::string s = "objects:\n";
  for (int i = 0; i < n; ++i) {
    s += "- {apiVersion: v1, kind: Node, metadata: {name: n" +
         std::to_string(i) + "}}\n";
  }
  return s;
}

TEST(FeaturesTest, TagsAreSortedAndUnique) {
  const std::vector<std::string>& tags = FeatureTags();
  EXPECT_TRUE(std::is_sorted(tags.begin(), tags.end()));
  EXPECT_EQ(std::set<std::string>(tags.begin(), tags.end()).size(),
            tags.size());
}

TEST(FeaturesTest, ScenarioRules) {
  struct Case {
    std::string name;
    std::string body;
    std::set<std::string> want;
  };
  const Case cases[] = {
      {"defaults", std::string("objects:") + kNode, {}},
      {"two profiles",
       "config:\n  profiles:\n  - schedulerName: a\n  - schedulerName: b\n",
       {"multi-profile"}},
      {"plugin args",
       "config:\n  profiles:\n  - pluginConfig:\n    - name: NodeResourcesFit\n"
       "      args: {scoringStrategy: {type: MostAllocated}}\n",
       {"custom-plugins"}},
      {"test plugin",
       "config:\n  profiles:\n  - plugins:\n      permit:\n        enabled:\n"
       "        - name: TestPermit\n",
       {"custom-plugins", "test-plugins"}},
      {"no score plugins",
       "config:\n  profiles:\n  - plugins:\n      score:\n        disabled:\n"
       "        - name: '*'\n",
       {"custom-plugins", "early-stop"}},
      {"no score plugins via multiPoint",
       "config:\n  profiles:\n  - plugins:\n      multiPoint:\n        disabled:\n"
       "        - name: '*'\n        enabled:\n        - name: PrioritySort\n"
       "        - name: NodeName\n        - name: DefaultBinder\n",
       {"custom-plugins", "early-stop"}},
      {"100 nodes", Nodes(100), {}},
      {"101 nodes", Nodes(101), {"early-stop"}},
      {"101 nodes, all scored",
       "config: {percentageOfNodesToScore: 100}\n" + Nodes(101), {}},
      {"101 nodes, one profile samples",
       "config:\n  percentageOfNodesToScore: 100\n  profiles:\n"
       "  - {schedulerName: a}\n  - {schedulerName: b, "
       "percentageOfNodesToScore: 50}\n" +
           Nodes(101),
       {"early-stop", "multi-profile"}},
      {"bind latency", "bindLatency: 1s\n", {"bind-latency"}},
      {"zero bind latency event",
       "timeline:\n- at: 0s\n  bindLatency: {duration: 0s}\n", {}},
      {"bind latency event",
       "timeline:\n- at: 0s\n  bindLatency: {duration: 2s}\n",
       {"bind-latency"}},
      {"failBind",
       std::string("objects:") + kNode +
           "- {apiVersion: v1, kind: Pod, metadata: {name: p, namespace: "
           "default}, spec: {containers: [{name: c}]}}\ntimeline:\n- at: 0s\n  failBind: {pod: default/p}\n",
       {"fail-bind"}},
      {"pod anti-affinity in the timeline",
       "timeline:\n- at: 1s\n  create:\n    apiVersion: v1\n    kind: Pod\n"
       "    metadata: {name: p, namespace: default}\n    spec:\n"
       "      containers: [{name: c}]\n"
       "      affinity:\n        podAntiAffinity:\n"
       "          requiredDuringSchedulingIgnoredDuringExecution:\n"
       "          - topologyKey: kubernetes.io/hostname\n"
       "            labelSelector: {matchLabels: {app: a}}\n",
       {"inter-pod-affinity"}},
      {"node affinity only",
       "objects:\n- apiVersion: v1\n  kind: Pod\n"
       "  metadata: {name: p, namespace: default}\n  spec:\n"
       "    containers: [{name: c}]\n"
       "    affinity:\n      nodeAffinity:\n"
       "        preferredDuringSchedulingIgnoredDuringExecution:\n"
       "        - weight: 1\n          preference: {matchExpressions: [{key: "
       "a, operator: Exists}]}\n",
       {}},
      {"topology spread",
       "objects:\n- apiVersion: v1\n  kind: Pod\n"
       "  metadata: {name: p, namespace: default}\n  spec:\n"
       "    containers: [{name: c}]\n"
       "    topologySpreadConstraints:\n    - maxSkew: 1\n"
       "      topologyKey: zone\n      whenUnsatisfiable: DoNotSchedule\n",
       {"topology-spread"}},
      {"scheduling gates",
       "objects:\n- apiVersion: v1\n  kind: Pod\n"
       "  metadata: {name: p, namespace: default}\n  spec:\n"
       "    containers: [{name: c}]\n"
       "    schedulingGates: [{name: g}]\n",
       {"scheduling-gates"}},
      {"configured extender",
       "config:\n  extenders:\n  - urlPrefix: http://e/s\n    filterVerb: filter\n",
       {"extenders"}},
      {"declared extender",
       "config:\n  extenders:\n  - urlPrefix: http://e/s\n    filterVerb: filter\n"
       "extenders:\n- urlPrefix: http://e/s\n",
       {"extenders"}},
      {"lifetime on an initial pod",
       "objects:\n- apiVersion: v1\n  kind: Pod\n"
       "  metadata: {name: p, namespace: default, annotations: "
       "{schedref.io/run-for: 10s}}\n  spec:\n    containers: [{name: c}]\n",
       {"pod-lifetimes"}},
      {"lifetime on a timeline pod",
       "timeline:\n- at: 1s\n  create:\n    apiVersion: v1\n    kind: Pod\n"
       "    metadata: {name: p, namespace: default, annotations: "
       "{schedref.io/run-for: 10s, schedref.io/end-phase: Failed}}\n"
       "    spec: {containers: [{name: c}]}\n",
       {"pod-lifetimes"}},
      {"other annotations only",
       "objects:\n- apiVersion: v1\n  kind: Pod\n"
       "  metadata: {name: p, namespace: default, annotations: {a: b}}\n"
       "  spec:\n    containers: [{name: c}]\n",
       {}},
      {"generated arrivals with a lifetime",
       "arrivals:\n- name: g\n  count: 2\n  interval: 1s\n"
       "  lifetime: {distribution: fixed, runFor: 5s}\n  template:\n"
       "    apiVersion: v1\n    kind: Pod\n    spec: {containers: [{name: c}]}\n",
       {"pod-lifetimes"}},
      {"generated arrivals without a lifetime",
       "arrivals:\n- name: g\n  count: 2\n  interval: 1s\n  template:\n"
       "    apiVersion: v1\n    kind: Pod\n    spec: {containers: [{name: c}]}\n",
       {}},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(Features(c.body), c.want) << c.name;
  }
}

TEST(FeaturesTest, PreemptionComesFromTheReferenceTrace) {
  api::Trace ran_post_filter;
  api::Attempt a;
  a.preemption = api::Preemption{};  // PostFilter ran, nominated nothing
  ran_post_filter.records.push_back(a);
  EXPECT_EQ(Features("", ran_post_filter), std::set<std::string>{"preemption"});

  for (const char* what : {"victimDeleted", "victimTerminating", "victimTerminated",
                           "victimRejectedAtPermit"}) {
    api::Trace victim;
    victim.records.push_back(api::Note{0, what, "d/v", ""});
    EXPECT_EQ(Features("", victim), std::set<std::string>{"preemption"}) << what;
  }

  api::Trace plain;
  plain.records.push_back(api::Attempt{});
  EXPECT_EQ(Features("", plain), std::set<std::string>{});
}

}  // namespace
}  // namespace schedref::conformance
