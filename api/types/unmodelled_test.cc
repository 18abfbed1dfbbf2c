#include "api/types/unmodelled.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "api/codec/scenario_decode.h"

namespace schedref::api {
namespace {

// A scenario with `pods` (YAML list items, indented two spaces) at t=0 and
// one profile, default-scheduler, unless `profiles` is given.
Scenario Decode(const std::string& objects, const std::string& timeline = "",
                const std::string& config = "") {
  std::string text = "schedref: scenario/v1\nname: s\n" + config + "objects:\n" + objects;
  if (!timeline.empty()) text += "timeline:\n" + timeline;
  StatusOr<Scenario> s = DecodeScenario(text, "s.yaml");
  EXPECT_TRUE(s.ok()) << s.status().message();
  return s.ok() ? *s : Scenario{};
}

std::string Pod(const std::string& name, const std::string& spec_extra) {
  return "- apiVersion: v1\n  kind: Pod\n  metadata: {name: " + name +
         ", namespace: default}\n  spec:\n    containers: [{name: c, image: pause}]\n" +
         spec_extra;
}

struct Case {
  const char* name;
  std::string objects;
  std::string timeline;
  std::string config;
  // (pod, feature, message) of every warning, in order.
  std::vector<Warning> want;
};

TEST(UnmodelledWarningsTest, Table) {
  const std::string dra =
      ": dynamic resource allocation (the DynamicResources plugin, feature gate "
      "DynamicResourceAllocation) is not modelled: schedref places the pod as if "
      "it claimed no devices";
  const std::string plr =
      ": pod-level resources (feature gate PodLevelResources, alpha in v1.32) are "
      "not modelled: schedref counts the containers' requests and the overhead "
      "only, as v1.32 does with the gate off";
  const std::vector<Case> cases = {
      {"nothing unmodelled", Pod("p", ""), "", "", {}},
      {"empty lists are nothing",
       Pod("p", "    resourceClaims: []\n    resources: {}\n"), "", "", {}},
      {"pod-level resources without requests or limits are nothing",
       Pod("p", "    resources: {requests: {}}\n"), "", "", {}},
      {"resource claims",
       Pod("p", "    resourceClaims: [{name: gpu, resourceClaimName: gpu-claim}]\n"),
       "",
       "",
       {{"default/p", "DynamicResourceAllocation", "spec.resourceClaims" + dra}}},
      {"a container's claims and the pod's: one warning naming both",
       "- apiVersion: v1\n  kind: Pod\n  metadata: {name: p}\n  spec:\n"
       "    containers: [{name: c, image: pause, resources: {claims: [{name: gpu}]}}]\n"
       "    resourceClaims: [{name: gpu, resourceClaimName: x}]\n",
       "",
       "",
       {{"default/p", "DynamicResourceAllocation",
         "spec.containers[0].resources.claims, spec.resourceClaims" + dra}}},
      {"pod-level resources",
       Pod("p", "    resources: {requests: {cpu: \"1\"}}\n"),
       "",
       "",
       {{"default/p", "PodLevelResources", "spec.resources" + plr}}},
      {"an unknown profile, once although created and updated",
       "",
       "- at: 0s\n  create:\n    apiVersion: v1\n    kind: Pod\n"
       "    metadata: {name: q}\n    spec:\n      schedulerName: other\n"
       "      containers: [{name: c, image: pause}]\n"
       "- at: 1s\n  update:\n    apiVersion: v1\n    kind: Pod\n"
       "    metadata: {name: q, labels: {a: b}}\n    spec:\n      schedulerName: other\n"
       "      containers: [{name: c, image: pause}]\n",
       "",
       {{"default/q", "unknownProfile",
         "spec.schedulerName \"other\" matches no profile (default-scheduler): no "
         "attempt is made for the pod, as upstream leaves it to another scheduler"}}},
      {"a bound pod of another scheduler is fine",
       Pod("p", "    schedulerName: other\n    nodeName: n1\n"), "", "", {}},
      {"a profile that exists",
       Pod("p", "    schedulerName: second\n"),
       "",
       "config:\n  profiles:\n  - schedulerName: default-scheduler\n"
       "  - schedulerName: second\n",
       {}},
      {"sorted by pod, then feature",
       Pod("b", "    resources: {limits: {cpu: \"1\"}}\n    resourceClaims: [{name: x, resourceClaimName: y}]\n") +
           Pod("a", "    schedulerName: nobody\n"),
       "",
       "",
       {{"default/a", "unknownProfile",
         "spec.schedulerName \"nobody\" matches no profile (default-scheduler): no "
         "attempt is made for the pod, as upstream leaves it to another scheduler"},
        {"default/b", "DynamicResourceAllocation", "spec.resourceClaims" + dra},
        {"default/b", "PodLevelResources", "spec.resources" + plr}}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(UnmodelledWarnings(Decode(c.objects, c.timeline, c.config)), c.want);
  }
}

TEST(UnmodelledWarningsTest, WarningLine) {
  EXPECT_EQ(WarningLine(Warning{"default/p", "PodLevelResources", "spec.resources: x"}),
            "warning: Pod default/p: spec.resources: x");
}

}  // namespace
}  // namespace schedref::api
