// Construction, events and QueueingHints. Hint tables transcribed from
// pkg/scheduler/framework/plugins/interpodaffinity/plugin_test.go
// (01c2588bf4a3eb6bb3524b1e2bd60efb38a4b577): Test_isSchedulableAfterPod-
// Change, Test_isSchedulableAfterNodeChange. The args' rows are in
// api/config/pluginargs/interpodaffinity_args_test.cc.
#include <gtest/gtest.h>

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "optimized/framework/plugins/interpodaffinity/affinity_match.h"
#include "optimized/framework/plugins/interpodaffinity/interpod_affinity.h"
#include "optimized/framework/plugins/interpodaffinity/test_util.h"
#include "testing/st/wrappers.h"

namespace schedref::optimized::framework::plugins::interpodaffinity {
namespace {

using st::MakeNode;
using st::MakePod;

api::PodAffinityTerm InTerm(const std::string& key, const std::string& topo,
                            std::vector<std::string> values) {
  api::PodAffinityTerm t;
  t.label_selector = api::LabelSelector{{}, {{key, "In", std::move(values)}}};
  t.topology_key = topo;
  return t;
}

TEST(InterPodAffinityTest, NewNeedsAHandle) {
  EXPECT_FALSE(InterPodAffinity::New(nlohmann::json::object(), nullptr).ok());
}

TEST(InterPodAffinityTest, EventsToRegister) {
  InterPodAffinity pl({}, nullptr);
  std::vector<ClusterEventWithHint> events = pl.EventsToRegister();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].event.resource, EventResource::kPod);
  EXPECT_EQ(events[0].event.action, kAdd | kUpdatePodLabel | kDelete);
  EXPECT_EQ(events[1].event.resource, EventResource::kNode);
  EXPECT_EQ(events[1].event.action, kAdd | kUpdateNodeLabel);
}

QueueingHint Hint(StatusOr<QueueingHint> h) {
  EXPECT_TRUE(h.ok()) << h.status().message();
  return h.ok() ? *h : QueueingHint::kQueue;
}

TEST(InterPodAffinityTest, UpstreamIsSchedulableAfterPodChange) {
  const api::Pod affinity_pod =
      MakePod().Name("p")
          .PodAffinityTerm(InTerm("service", "region", {"securityscan", "value2"}))
          .Obj();
  const api::Pod anti_pod =
      MakePod().Name("p")
          .PodAntiAffinityTerm(InTerm("service", "region", {"securityscan", "value2"}))
          .Obj();
  const api::Pod multi = MakePod().Name("p").PodAffinityExists("aaa", "hostname")
                             .PodAffinityExists("bbb", "hostname").Obj();
  auto on = [](api::Labels labels) {
    return MakePod().Name("x").Node("fake-node").Labels(labels).Obj();
  };
  auto off = [](api::Labels labels) {
    return MakePod().Name("x").Labels(labels).Obj();
  };
  struct Case {
    std::string name;
    api::Pod pod;
    std::optional<api::Pod> old_pod, new_pod;
    QueueingHint want;
  };
  const QueueingHint kQ = QueueingHint::kQueue, kS = QueueingHint::kSkip;
  std::vector<Case> cases = {
      {"add a pod which matches the pod affinity", affinity_pod, std::nullopt,
       on({{"service", "securityscan"}}), kQ},
      {"add an un-scheduled pod", affinity_pod, std::nullopt,
       off({{"service", "securityscan"}}), kS},
      {"add a pod which doesn't match the pod affinity", affinity_pod,
       std::nullopt, on({{"aaa", "a"}}), kS},
      {"update a pod from non-match to match pod affinity", affinity_pod,
       on({{"aaa", "a"}}), on({{"service", "securityscan"}}), kQ},
      {"the updating pod matches target pod's affinity both before and after "
       "label changes",
       affinity_pod, on({{"service", "value2"}}),
       on({{"service", "securityscan"}}), kS},
      {"update an un-scheduled pod", affinity_pod,
       off({{"service", "securityscan"}}), off({{"service", "securityscan"}}),
       kS},
      {"update a pod from match to non-match the pod affinity", affinity_pod,
       on({{"service", "securityscan"}}), on({{"aaa", "a"}}), kS},
      {"update a pod from match to non-match pod's affinity - multiple terms "
       "case",
       multi, on({{"aaa", "a"}}), on({{"service", "securityscan"}}), kS},
      {"update a pod from non-match to match pod's affinity - multiple terms "
       "case",
       multi, on({{"aaa", "a"}}), on({{"aaa", ""}, {"bbb", ""}}), kQ},
      {"modify pod label to change it from satisfying pod anti-affinity to not "
       "satisfying anti-affinity",
       anti_pod, on({{"service", "securityscan"}}), on({{"service", "aaaa"}}),
       kQ},
      {"modify pod label to change it from not satisfying pod anti-affinity to "
       "satisfying anti-affinity",
       anti_pod, on({{"service", "bbb"}}), on({{"service", "securityscan"}}),
       kS},
      {"delete a pod which doesn't match pod's anti-affinity", anti_pod,
       on({{"aaa", "a"}}), std::nullopt, kS},
      {"delete a pod which matches pod's anti-affinity", anti_pod,
       on({{"service", "securityscan"}}), std::nullopt, kQ},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EventObjects objs;
    if (c.old_pod) objs.old_pod = &*c.old_pod;
    if (c.new_pod) objs.new_pod = &*c.new_pod;
    EXPECT_EQ(Hint(InterPodAffinity::IsSchedulableAfterPodChange(c.pod, objs)),
              c.want);
    // Through the registered hint as well.
    EXPECT_EQ(Hint(InterPodAffinity({}, nullptr).EventsToRegister()[0].hint(c.pod, objs)),
              c.want);
  }
}

TEST(InterPodAffinityTest, UpstreamIsSchedulableAfterNodeChange) {
  const api::Pod affinity_zone =
      MakePod().Name("p")
          .PodAffinityTerm(InTerm("service", "zone", {"securityscan", "value2"}))
          .Obj();
  const api::Pod affinity_region =
      MakePod().Name("p")
          .PodAffinityTerm(InTerm("service", "region", {"securityscan", "value2"}))
          .Obj();
  api::PodAffinityTerm anti_term;
  anti_term.label_selector = api::LabelSelector{{{"another", "label"}}, {}};
  anti_term.topology_key = "zone";
  const api::Pod anti = MakePod().Name("p").PodAntiAffinityTerm(anti_term).Obj();
  auto node = [](api::Labels labels) {
    return MakeNode().Name("node-a").Labels(labels).Obj();
  };
  struct Case {
    std::string name;
    api::Pod pod;
    std::optional<api::Node> old_node, new_node;
    QueueingHint want;
  };
  const QueueingHint kQ = QueueingHint::kQueue, kS = QueueingHint::kSkip;
  std::vector<Case> cases = {
      {"add a new node with matched pod affinity topologyKey", affinity_zone,
       std::nullopt, node({{"zone", "zone1"}}), kQ},
      {"add a new node without matched topologyKey", affinity_region,
       std::nullopt, node({{"zone", "zone1"}}), kS},
      {"update node label but not topologyKey", affinity_zone,
       node({{"aaa", "a"}}), node({{"aaa", "b"}}), kS},
      {"update node label that isn't related to the pod affinity",
       affinity_zone, node({{"zone", "zone1"}}),
       node({{"zone", "zone1"}, {"unrelated-label", "unrelated"}}), kS},
      {"update node with different affinity topologyKey value", affinity_zone,
       node({{"zone", "zone1"}}), node({{"zone", "zone2"}}), kQ},
      {"update node to have the affinity topology label", affinity_zone,
       node({{"aaa", "a"}}), node({{"zone", "zone1"}}), kQ},
      {"add a new node with matched pod anti-affinity topologyKey", anti,
       std::nullopt, node({{"zone", "zone1"}}), kQ},
      {"add a new node without matched pod anti-affinity topologyKey", anti,
       std::nullopt, node({}), kQ},
      {"update node label that isn't related to the pod anti-affinity", anti,
       node({{"zone", "zone1"}}),
       node({{"zone", "zone1"}, {"unrelated-label", "unrelated"}}), kS},
      {"update node with different anti-affinity topologyKey value", anti,
       node({{"zone", "zone1"}}), node({{"zone", "zone2"}}), kQ},
      {"update node to have the anti-affinity topology label", anti,
       node({{"aaa", "a"}}), node({{"zone", "zone1"}}), kS},
      {"update node label not to have anti-affinity topology label", anti,
       node({{"zone", "zone1"}}), node({{"aaa", "a"}}), kQ},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EventObjects objs;
    if (c.old_node) objs.old_node = &*c.old_node;
    if (c.new_node) objs.new_node = &*c.new_node;
    EXPECT_EQ(Hint(InterPodAffinity::IsSchedulableAfterNodeChange(c.pod, objs)),
              c.want);
    EXPECT_EQ(Hint(InterPodAffinity({}, nullptr).EventsToRegister()[1].hint(c.pod, objs)),
              c.want);
  }
}

// The term model: default namespace, absent vs empty selectors.
TEST(AffinityTermTest, NamespacesAndSelectors) {
  const api::Pod owner = MakePod().Name("o").Namespace("ns1").Obj();
  api::PodAffinityTerm t;
  t.topology_key = "zone";
  AffinityTerm term = MakeAffinityTerm(owner, t);
  EXPECT_EQ(term.namespaces, std::set<std::string>{"ns1"});
  // No labelSelector: matches nothing.
  EXPECT_FALSE(TermMatches(term, MakePod().Namespace("ns1").Obj(), {}));
  t.label_selector = api::LabelSelector{};
  term = MakeAffinityTerm(owner, t);
  EXPECT_TRUE(TermMatches(term, MakePod().Namespace("ns1").Obj(), {}));
  EXPECT_FALSE(TermMatches(term, MakePod().Namespace("ns2").Obj(), {}));
  // An empty namespaceSelector matches every namespace and is kept by the
  // merge.
  t.namespace_selector = api::LabelSelector{};
  term = MakeAffinityTerm(owner, t);
  EXPECT_TRUE(term.namespaces.empty());
  MergeAffinityTermNamespaces(term, {{"a", {}}});
  EXPECT_TRUE(term.namespace_selector.has_value());
  EXPECT_TRUE(TermMatches(term, MakePod().Namespace("ns2").Obj(), {}));
  // A selector with requirements becomes the matching namespaces' names.
  t.namespace_selector = api::LabelSelector{{{"team", "a"}}, {}};
  term = MakeAffinityTerm(owner, t);
  EXPECT_TRUE(TermMatches(term, MakePod().Namespace("x").Obj(), {{"team", "a"}}));
  MergeAffinityTermNamespaces(term, {{"x", {{"team", "a"}}}, {"y", {{"team", "b"}}}});
  EXPECT_FALSE(term.namespace_selector.has_value());
  EXPECT_EQ(term.namespaces, std::set<std::string>{"x"});
  // An absent namespaceSelector with listed namespaces stays absent.
  t.namespace_selector.reset();
  t.namespaces = {"z"};
  term = MakeAffinityTerm(owner, t);
  MergeAffinityTermNamespaces(term, {{"x", {}}});
  EXPECT_EQ(term.namespaces, std::set<std::string>{"z"});
}

// PodInfo's terms follow the reference's rules (affinity_term.cc there):
// matchLabelKeys / mismatchLabelKeys append In / NotIn requirements for the
// keys the owner has, nothing without a labelSelector.
TEST(AffinityTermTest, MatchLabelKeysMerged) {
  api::PodAffinityTerm t;
  t.topology_key = "zone";
  t.label_selector = api::LabelSelector{{}, {{"app", "Exists", {}}}};
  t.match_label_keys = {"version", "missing"};
  t.mismatch_label_keys = {"tenant"};
  const api::Pod owner = MakePod().Name("o").Labels({{"version", "1"}, {"tenant", "t"}})
                             .Obj();
  AffinityTerm term = MakeAffinityTerm(owner, t);
  ASSERT_TRUE(term.selector.has_value());
  const std::vector<api::LabelSelectorRequirement> want = {
      {"app", "Exists", {}}, {"version", "In", {"1"}}, {"tenant", "NotIn", {"t"}}};
  EXPECT_EQ(term.selector->match_expressions, want);
  t.label_selector.reset();
  EXPECT_FALSE(MakeAffinityTerm(owner, t).selector.has_value());
}

TEST(InterPodAffinityTest, NewDecodesArgs) {
  testing::FakeHandle handle;
  EXPECT_TRUE(InterPodAffinity::New(nlohmann::json::object(), &handle).ok());
  EXPECT_FALSE(
      InterPodAffinity::New(nlohmann::json{{"hardPodAffinityWeight", 101}}, &handle)
          .ok());
  auto p = InterPodAffinity::New(nlohmann::json::object(), &handle);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ((*p)->Name(), "InterPodAffinity");
}

}  // namespace
}  // namespace schedref::optimized::framework::plugins::interpodaffinity
