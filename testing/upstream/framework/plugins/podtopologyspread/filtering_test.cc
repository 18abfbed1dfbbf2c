// Tables transcribed from upstream
// pkg/scheduler/framework/plugins/podtopologyspread/filtering_test.go
// (find_string id 6322630, the v1.26-v1.32 layout): TestSingleConstraint,
// TestMultipleConstraints, and rows of TestPreFilterStateAddPod /
// TestPreFilterStateRemovePod checked through Filter outcomes and counts.
// The rows with NodeInclusionPolicy disabled are left out: the feature is
// on by default in v1.32. Run against both implementations (impl.h).
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "testing/upstream/framework/plugins/podtopologyspread/impl.h"

namespace SCHEDREF_PODTOPOLOGYSPREAD_NS {
namespace {

using st::MakeNode;
using st::MakePod;

const api::LabelSelector kFoo = ExistsSelector("foo");
const api::LabelSelector kBar = ExistsSelector("bar");
const std::vector<api::Taint> kTaints = {{"taint-key", "", "NoSchedule"}};

api::Node N(const std::string& name, std::map<std::string, std::string> labels,
            std::vector<api::Taint> taints = {}) {
  return MakeNode().Name(name).Labels(labels).Taints(taints).Obj();
}
api::Node Zn(const std::string& name, const std::string& zone) {
  return N(name, {{"zone", zone}, {"node", name}});
}
api::Pod P(const std::string& name, const std::string& node,
           std::map<std::string, std::string> labels) {
  return MakePod().Name(name).Node(node).Labels(labels).Obj();
}
std::vector<api::Node> FourNodes() {
  return {Zn("node-a", "zone1"), Zn("node-b", "zone1"), Zn("node-x", "zone2"),
          Zn("node-y", "zone2")};
}
// 2/1/0/3 "foo" pods on node-a/b/x/y.
std::vector<api::Pod> Spread2103() {
  return {P("p-a1", "node-a", {{"foo", ""}}), P("p-a2", "node-a", {{"foo", ""}}),
          P("p-b1", "node-b", {{"foo", ""}}), P("p-y1", "node-y", {{"foo", ""}}),
          P("p-y2", "node-y", {{"foo", ""}}), P("p-y3", "node-y", {{"foo", ""}})};
}

const Code kOk = Code::kSuccess;
const Code kUn = Code::kUnschedulable;
const Code kUnres = Code::kUnschedulableAndUnresolvable;

struct FilterCase {
  std::string name;
  api::Pod pod;
  std::vector<api::Node> nodes;
  std::vector<api::Pod> existing;
  std::map<std::string, Code> want;
};

void RunFilterCases(const std::vector<FilterCase>& cases) {
  for (const FilterCase& c : cases) {
    SCOPED_TRACE(c.name);
    auto env = SetupPlugin(c.existing, c.nodes);
    CycleState state;
    ASSERT_TRUE(PreFilterStatus(*env, state, c.pod).IsSuccess());
    for (const api::Node& n : c.nodes) {
      Status s = FilterNode(*env, state, c.pod, n.name);
      EXPECT_EQ(s.code(), c.want.at(n.name)) << n.name;
      if (s.code() == kUn) {
        EXPECT_EQ(s.Message(), kErrReasonConstraintsNotMatch);
      }
      if (s.code() == kUnres) {
        EXPECT_EQ(s.Message(), kErrReasonNodeLabelNotMatch);
      }
    }
  }
}

TEST(PodTopologySpreadFilterTest, UpstreamSingleConstraint) {
  auto pod = [](int skew, const std::string& key,
                std::optional<api::LabelSelector> sel,
                std::optional<int32_t> min_domains = std::nullopt) {
    return MakePod().Name("p").Label("foo", "")
        .SpreadConstraint(Tsc(skew, key, kDoNotSchedule, sel, min_domains))
        .Obj();
  };
  auto plain = [](const std::string& name) { return N(name, {{"node", name}}); };
  std::vector<FilterCase> cases = {
      {"no existing pods", pod(1, "zone", kFoo), FourNodes(), {},
       {{"node-a", kOk}, {"node-b", kOk}, {"node-x", kOk}, {"node-y", kOk}}},
      {"no existing pods, incoming pod doesn't match itself",
       pod(1, "zone", kBar), FourNodes(), {},
       {{"node-a", kOk}, {"node-b", kOk}, {"node-x", kOk}, {"node-y", kOk}}},
      {"existing pods in a different namespace do not count",
       pod(1, "zone", kFoo), FourNodes(),
       {MakePod().Name("p-a1").Namespace("ns1").Node("node-a").Label("foo", "")
            .Obj(),
        MakePod().Name("p-b1").Namespace("ns2").Node("node-a").Label("foo", "")
            .Obj(),
        P("p-x1", "node-x", {{"foo", ""}}), P("p-y1", "node-y", {{"foo", ""}})},
       {{"node-a", kOk}, {"node-b", kOk}, {"node-x", kUn}, {"node-y", kUn}}},
      {"existing pods do not match null selector",
       pod(1, "zone", std::nullopt), FourNodes(),
       {P("p-x1", "node-x", {{"foo", ""}}), P("p-y1", "node-y", {{"foo", ""}})},
       {{"node-a", kOk}, {"node-b", kOk}, {"node-x", kOk}, {"node-y", kOk}}},
      {"pods spread across zones as 3/3, all nodes fit", pod(1, "zone", kFoo),
       FourNodes(), Spread2103(),
       {{"node-a", kOk}, {"node-b", kOk}, {"node-x", kOk}, {"node-y", kOk}}},
      {"pods spread across zones as 1/2 due to absence of label 'zone' on "
       "node-b",
       pod(1, "zone", kFoo),
       {Zn("node-a", "zone1"), N("node-b", {{"zon", "zone1"}, {"node", "node-b"}}),
        Zn("node-x", "zone2"), Zn("node-y", "zone2")},
       {P("p-a1", "node-a", {{"foo", ""}}), P("p-b1", "node-b", {{"foo", ""}}),
        P("p-x1", "node-x", {{"foo", ""}}), P("p-y1", "node-y", {{"foo", ""}})},
       {{"node-a", kOk}, {"node-b", kUnres}, {"node-x", kUn}, {"node-y", kUn}}},
      {"pod cannot be scheduled as all nodes don't have label 'rack'",
       pod(1, "rack", kFoo), {Zn("node-a", "zone1"), Zn("node-x", "zone2")}, {},
       {{"node-a", kUnres}, {"node-x", kUnres}}},
      {"pods spread across nodes as 2/1/0/3, only node-x fits",
       pod(1, "node", kFoo), FourNodes(), Spread2103(),
       {{"node-a", kUn}, {"node-b", kUn}, {"node-x", kOk}, {"node-y", kUn}}},
      {"pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x "
       "fit",
       pod(2, "node", kFoo), FourNodes(), Spread2103(),
       {{"node-a", kUn}, {"node-b", kOk}, {"node-x", kOk}, {"node-y", kUn}}},
      {"pods spread across nodes as 2/1/0/3, but pod doesn't match itself",
       MakePod().Name("p").Label("bar", "")
           .SpreadConstraint(Tsc(1, "node", kDoNotSchedule, kFoo)).Obj(),
       FourNodes(), Spread2103(),
       {{"node-a", kUn}, {"node-b", kOk}, {"node-x", kOk}, {"node-y", kUn}}},
      {"incoming pod has nodeAffinity, pods spread as 2/~1~/~0~/3, hence "
       "node-a fits",
       MakePod().Name("p").Label("foo", "")
           .NodeAffinityIn("node", {"node-a", "node-y"})
           .SpreadConstraint(Tsc(1, "node", kDoNotSchedule, kFoo)).Obj(),
       FourNodes(), Spread2103(),
       {{"node-a", kOk}, {"node-b", kOk}, {"node-x", kOk}, {"node-y", kUn}}},
      {"terminating Pods should be excluded", pod(1, "node", kFoo),
       {plain("node-a"), plain("node-b")},
       {MakePod().Name("p-a").Node("node-a").Label("foo", "").Terminating().Obj(),
        P("p-b", "node-b", {{"foo", ""}})},
       {{"node-a", kOk}, {"node-b", kUn}}},
      {"incoming pod has nodeAffinity, pods spread as 0/~2~/0/1, hence node-a "
       "fits",
       MakePod().Name("p").Label("foo", "").NodeAffinityNotIn("node", {"node-b"})
           .SpreadConstraint(Tsc(1, "zone", kDoNotSchedule, kFoo)).Obj(),
       FourNodes(),
       {P("p-b1", "node-b", {{"foo", ""}}), P("p-b2", "node-b", {{"foo", ""}}),
        P("p-y1", "node-y", {{"foo", ""}})},
       {{"node-a", kOk}, {"node-b", kOk}, {"node-x", kUn}, {"node-y", kUn}}},
      {"pods spread across nodes as 2/2/1, maxSkew is 2, and the number of "
       "domains < minDomains, then the third node fits",
       pod(2, "node", kFoo, 4),
       {plain("node-a"), plain("node-b"), plain("node-c")},
       {P("p-a1", "node-a", {{"foo", ""}}), P("p-a2", "node-a", {{"foo", ""}}),
        P("p-b1", "node-b", {{"foo", ""}}), P("p-b2", "node-b", {{"foo", ""}}),
        P("p-c1", "node-c", {{"foo", ""}})},
       {{"node-a", kUn}, {"node-b", kUn}, {"node-c", kOk}}},
      {"pods spread across nodes as 2/2/1, maxSkew is 2, and the number of "
       "domains > minDomains, then the all nodes fit",
       pod(2, "node", kFoo, 2),
       {plain("node-a"), plain("node-b"), plain("node-c")},
       {P("p-a1", "node-a", {{"foo", ""}}), P("p-a2", "node-a", {{"foo", ""}}),
        P("p-b1", "node-b", {{"foo", ""}}), P("p-b2", "node-b", {{"foo", ""}}),
        P("p-c1", "node-c", {{"foo", ""}})},
       {{"node-a", kOk}, {"node-b", kOk}, {"node-c", kOk}}},
      {"pods spread across zone as 2/1, maxSkew is 2 and the number of domains "
       "< minDomains, then the third and fourth nodes fit",
       pod(2, "zone", kFoo, 3), FourNodes(),
       {P("p-b1", "node-a", {{"foo", ""}}), P("p-b2", "node-b", {{"foo", ""}}),
        P("p-y1", "node-y", {{"foo", ""}})},
       {{"node-a", kUn}, {"node-b", kUn}, {"node-x", kOk}, {"node-y", kOk}}},
      {"pods spread across zone as 2/1, maxSkew is 2 and the number of domains "
       "> minDomains, then the all nodes fit",
       pod(2, "zone", kFoo, 1), FourNodes(),
       {P("p-b1", "node-a", {{"foo", ""}}), P("p-b2", "node-b", {{"foo", ""}}),
        P("p-y1", "node-y", {{"foo", ""}})},
       {{"node-a", kOk}, {"node-b", kOk}, {"node-x", kOk}, {"node-y", kOk}}},
  };
  // NodeInclusionPolicy rows.
  const std::vector<api::Node> foo_nodes = {
      N("node-a", {{"node", "node-a"}, {"foo", ""}}),
      N("node-b", {{"node", "node-b"}, {"foo", ""}}),
      N("node-x", {{"node", "node-x"}, {"foo", ""}}),
      N("node-y", {{"node", "node-y"}})};
  const std::vector<api::Node> tainted_nodes = {
      N("node-a", {{"node", "node-a"}, {"foo", ""}}),
      N("node-b", {{"node", "node-b"}, {"foo", ""}}),
      N("node-x", {{"node", "node-x"}, {"foo", ""}}),
      N("node-y", {{"node", "node-y"}}, kTaints)};
  const std::vector<api::Pod> spread_abY = {P("p-b1", "node-a", {{"foo", ""}}),
                                            P("p-b2", "node-b", {{"foo", ""}}),
                                            P("p-y1", "node-y", {{"foo", ""}})};
  const std::map<std::string, Code> honored = {
      {"node-a", kUn}, {"node-b", kUn}, {"node-x", kOk}, {"node-y", kOk}};
  const std::map<std::string, Code> ignored = {
      {"node-a", kUn}, {"node-b", kUn}, {"node-x", kOk}, {"node-y", kUn}};
  cases.push_back(
      {"NodeAffinityPolicy honored with labelSelectors",
       MakePod().Name("p").Label("foo", "").NodeSelector({{"foo", ""}})
           .SpreadConstraint(Tsc(1, "node", kDoNotSchedule, kFoo)).Obj(),
       foo_nodes, spread_abY, honored});
  cases.push_back(
      {"NodeAffinityPolicy ignored with labelSelectors",
       MakePod().Name("p").Label("foo", "").NodeSelector({{"foo", ""}})
           .SpreadConstraint(
               Tsc(1, "node", kDoNotSchedule, kFoo, std::nullopt, kIgnore))
           .Obj(),
       foo_nodes, spread_abY, ignored});
  cases.push_back(
      {"NodeAffinityPolicy honored with nodeAffinity",
       MakePod().Name("p").Label("foo", "").NodeAffinityIn("foo", {""})
           .SpreadConstraint(Tsc(1, "node", kDoNotSchedule, kFoo)).Obj(),
       foo_nodes, spread_abY, honored});
  cases.push_back(
      {"NodeAffinityPolicy ignored with nodeAffinity",
       MakePod().Name("p").Label("foo", "").NodeAffinityIn("foo", {""})
           .SpreadConstraint(
               Tsc(1, "node", kDoNotSchedule, kFoo, std::nullopt, kIgnore))
           .Obj(),
       foo_nodes, spread_abY, ignored});
  cases.push_back(
      {"NodeTaintsPolicy honored",
       MakePod().Name("p").Label("foo", "")
           .SpreadConstraint(Tsc(1, "node", kDoNotSchedule, kFoo, std::nullopt,
                                 std::nullopt, kHonor))
           .Obj(),
       tainted_nodes, spread_abY, honored});
  cases.push_back(
      {"NodeTaintsPolicy ignored",
       MakePod().Name("p").Label("foo", "")
           .SpreadConstraint(Tsc(1, "node", kDoNotSchedule, kFoo)).Obj(),
       tainted_nodes, spread_abY, ignored});
  RunFilterCases(cases);
}

TEST(PodTopologySpreadFilterTest, UpstreamMultipleConstraints) {
  auto two = [](const api::LabelSelector& zone_sel,
                const api::LabelSelector& node_sel, api::Labels labels) {
    return MakePod().Name("p").Labels(labels)
        .SpreadConstraint(Tsc(1, "zone", kDoNotSchedule, zone_sel))
        .SpreadConstraint(Tsc(1, "node", kDoNotSchedule, node_sel)).Obj();
  };
  const api::Labels foo = {{"foo", ""}};
  const api::Labels foo_bar = {{"foo", ""}, {"bar", ""}};
  std::vector<api::Pod> spread2104 = Spread2103();
  spread2104.push_back(P("p-y4", "node-y", {{"foo", ""}}));
  std::vector<FilterCase> cases = {
      {"two Constraints on zone and node, spreads = [3/3, 2/1/0/3]",
       two(kFoo, kFoo, foo), FourNodes(), Spread2103(),
       {{"node-a", kUn}, {"node-b", kUn}, {"node-x", kOk}, {"node-y", kUn}}},
      {"two Constraints on zone and node, spreads = [3/4, 2/1/0/4]",
       two(kFoo, kFoo, foo), FourNodes(), spread2104,
       {{"node-a", kUn}, {"node-b", kUn}, {"node-x", kUn}, {"node-y", kUn}}},
      {"Constraints hold different labelSelectors, spreads = [1/0, 1/0/0/1]",
       two(kFoo, kBar, foo_bar), FourNodes(),
       {P("p-a1", "node-a", {{"foo", ""}}), P("p-y1", "node-y", {{"bar", ""}})},
       {{"node-a", kUn}, {"node-b", kUn}, {"node-x", kOk}, {"node-y", kUn}}},
      {"Constraints hold different labelSelectors, spreads = [1/0, 0/0/1/1]",
       two(kFoo, kBar, foo_bar), FourNodes(),
       {P("p-a1", "node-a", {{"foo", ""}}), P("p-x1", "node-x", {{"bar", ""}}),
        P("p-y1", "node-y", {{"bar", ""}})},
       {{"node-a", kUn}, {"node-b", kUn}, {"node-x", kUn}, {"node-y", kUn}}},
      {"Constraints hold different labelSelectors, spreads = [2/3, 1/0/0/1]",
       two(kFoo, kBar, foo_bar), FourNodes(),
       {P("p-a1", "node-a", {{"foo", ""}}),
        P("p-a2", "node-a", {{"foo", ""}, {"bar", ""}}),
        P("p-y1", "node-y", {{"foo", ""}}),
        P("p-y2", "node-y", {{"foo", ""}, {"bar", ""}}),
        P("p-y3", "node-y", {{"foo", ""}})},
       {{"node-a", kUn}, {"node-b", kOk}, {"node-x", kUn}, {"node-y", kUn}}},
      {"Constraints hold different labelSelectors but pod doesn't match "
       "itself on 'zone' constraint",
       two(kFoo, kBar, {{"bar", ""}}), FourNodes(),
       {P("p-a1", "node-a", {{"foo", ""}}), P("p-x1", "node-x", {{"bar", ""}}),
        P("p-y1", "node-y", {{"bar", ""}})},
       {{"node-a", kOk}, {"node-b", kOk}, {"node-x", kUn}, {"node-y", kUn}}},
      {"two Constraints on zone and node, absence of label 'node' on node-x, "
       "spreads = [1/1, 1/0/0/1]",
       two(kFoo, kFoo, foo),
       {Zn("node-a", "zone1"), Zn("node-b", "zone1"), N("node-x", {{"zone", "zone2"}}),
        Zn("node-y", "zone2")},
       {P("p-a1", "node-a", {{"foo", ""}}), P("p-y3", "node-y", {{"foo", ""}})},
       {{"node-a", kUn}, {"node-b", kOk}, {"node-x", kUnres}, {"node-y", kUn}}},
      {"two node inclusion Constraints, zone: honor/ignore, node: ignore/ignore",
       MakePod().Name("p").Label("foo", "").NodeSelector({{"foo", ""}})
           .SpreadConstraint(Tsc(1, "zone", kDoNotSchedule, kFoo))
           .SpreadConstraint(
               Tsc(1, "node", kDoNotSchedule, kFoo, std::nullopt, kIgnore))
           .Obj(),
       {N("node-a", {{"zone", "zone1"}, {"node", "node-a"}, {"foo", ""}}),
        N("node-b", {{"zone", "zone1"}, {"node", "node-b"}, {"foo", ""}}),
        N("node-x", {{"zone", "zone2"}, {"node", "node-x"}, {"foo", ""}}),
        N("node-y", {{"zone", "zone2"}, {"node", "node-y"}})},
       {P("p-a1", "node-a", {{"foo", ""}}), P("p-b1", "node-b", {{"foo", ""}}),
        P("p-y1", "node-y", {{"foo", ""}})},
       {{"node-a", kUn}, {"node-b", kUn}, {"node-x", kOk}, {"node-y", kUn}}},
      {"two node inclusion Constraints, zone: honor/honor, node: honor/ignore",
       MakePod().Name("p").Label("foo", "")
           .SpreadConstraint(Tsc(1, "zone", kDoNotSchedule, kFoo, std::nullopt,
                                 std::nullopt, kHonor))
           .SpreadConstraint(Tsc(1, "node", kDoNotSchedule, kFoo)).Obj(),
       {N("node-a", {{"zone", "zone1"}, {"node", "node-a"}, {"foo", ""}}),
        N("node-b", {{"zone", "zone1"}, {"node", "node-b"}, {"foo", ""}}),
        N("node-x", {{"zone", "zone2"}, {"node", "node-x"}, {"foo", ""}}),
        N("node-y", {{"zone", "zone2"}, {"node", "node-y"}}, kTaints)},
       {P("p-a1", "node-a", {{"foo", ""}}), P("p-b1", "node-b", {{"foo", ""}}),
        P("p-y1", "node-y", {{"foo", ""}})},
       {{"node-a", kUn}, {"node-b", kUn}, {"node-x", kOk}, {"node-y", kUn}}},
      {"two node inclusion Constraints, zone: honor/ignore, node: honor/ignore",
       MakePod().Name("p").Label("foo", "").NodeSelector({{"foo", ""}})
           .SpreadConstraint(Tsc(1, "zone", kDoNotSchedule, kFoo))
           .SpreadConstraint(Tsc(1, "node", kDoNotSchedule, kFoo)).Obj(),
       {N("node-a", {{"zone", "zone1"}, {"node", "node-a"}, {"foo", ""}}),
        N("node-b", {{"zone", "zone1"}, {"node", "node-b"}}),
        N("node-x", {{"zone", "zone2"}, {"node", "node-x"}, {"foo", ""}}),
        N("node-y", {{"zone", "zone2"}, {"node", "node-y"}, {"foo", ""}},
          kTaints)},
       {P("p-a1", "node-a", {{"foo", ""}}), P("p-b1", "node-b", {{"foo", ""}}),
        P("p-y1", "node-y", {{"foo", ""}})},
       {{"node-a", kUn}, {"node-b", kOk}, {"node-x", kOk}, {"node-y", kUn}}},
  };
  RunFilterCases(cases);
}

// PreFilter returns Skip when the pod has no DoNotSchedule constraint
// (upstream PR #117683), also when it has only ScheduleAnyway ones: then
// the defaults are not consulted.
TEST(PodTopologySpreadFilterTest, PreFilterSkip) {
  auto env = SetupPlugin({}, FourNodes());
  CycleState state;
  EXPECT_TRUE(PreFilterStatus(*env, state, MakePod().Name("p").Obj()).IsSkip());
  api::Pod soft = MakePod().Name("p").Label("foo", "")
                      .SpreadConstraint(Tsc(1, "zone", kScheduleAnyway, kFoo))
                      .Obj();
  EXPECT_TRUE(PreFilterStatus(*env, state, soft).IsSkip());
  // System defaulting contributes no constraint (no Services and the like
  // are modelled).
  auto sys = SetupPlugin({}, FourNodes(), PodTopologySpreadArgs{});
  EXPECT_TRUE(
      PreFilterStatus(*sys, state, MakePod().Name("p").Label("foo", "").Obj())
          .IsSkip());
}

// upstream TestPreFilterState / TestPreFilterStateAddPod /
// TestPreFilterStateRemovePod, checked on the counts.
TEST(PodTopologySpreadFilterTest, UpstreamPreFilterStateAddRemovePod) {
  const api::Pod preemptor =
      MakePod().Name("p").Label("foo", "")
          .SpreadConstraint(Tsc(1, "zone", kDoNotSchedule, kFoo)).Obj();
  auto env = SetupPlugin(
      {P("p-a1", "node-a", {{"foo", ""}}), P("p-b1", "node-b", {{"foo", ""}})},
      {N("node-a", {{"zone", "zone1"}, {"node", "node-a"}}),
       N("node-b", {{"zone", "zone2"}, {"node", "node-b"}})});
  CycleState state;
  ASSERT_TRUE(PreFilterStatus(*env, state, preemptor).IsSuccess());
  auto counts = [&] { return MatchCounts(state, 0); };
  EXPECT_EQ(counts(), (std::map<std::string, int>{{"zone1", 1}, {"zone2", 1}}));
  // "node a and b both impact current min match": adding to zone2.
  ASSERT_TRUE(
      AddPodTo(*env, state, preemptor, P("p-b2", "node-b", {{"foo", ""}}), "node-b")
          .IsSuccess());
  EXPECT_EQ(counts(), (std::map<std::string, int>{{"zone1", 1}, {"zone2", 2}}));
  EXPECT_EQ(MinMatch(state, 0), 1);
  // A pod of another namespace or not matching changes nothing.
  ASSERT_TRUE(AddPodTo(*env, state, preemptor,
                       MakePod().Name("x").Namespace("other")
                           .Node("node-b").Label("foo", "").Obj(),
                       "node-b")
                  .IsSuccess());
  ASSERT_TRUE(AddPodTo(*env, state, preemptor, P("y", "node-b", {}), "node-b")
                  .IsSuccess());
  EXPECT_EQ(counts(), (std::map<std::string, int>{{"zone1", 1}, {"zone2", 2}}));
  // Removing both zone2 pods keeps the (now empty) domain.
  ASSERT_TRUE(RemovePodFrom(*env, state, preemptor,
                           P("p-b1", "node-b", {{"foo", ""}}), "node-b")
                  .IsSuccess());
  ASSERT_TRUE(RemovePodFrom(*env, state, preemptor,
                           P("p-b2", "node-b", {{"foo", ""}}), "node-b")
                  .IsSuccess());
  EXPECT_EQ(counts(), (std::map<std::string, int>{{"zone1", 1}, {"zone2", 0}}));
  EXPECT_EQ(MinMatch(state, 0), 0);
  // Without PreFilter state: an error.
  CycleState empty;
  EXPECT_EQ(FilterNode(*env, empty, preemptor, "node-b"),
            Status::Error("reading \"PreFilterPodTopologySpread\" from "
                          "cycleState: not found"));
  EXPECT_EQ(AddPodTo(*env, empty, preemptor, preemptor, "node-b"),
            Status::Error("reading \"PreFilterPodTopologySpread\" from "
                          "cycleState: not found"));
}

// matchLabelKeys: the pod's value for each listed key is ANDed into the
// selector (MatchLabelKeysInPodTopologySpread, beta since v1.27).
TEST(PodTopologySpreadFilterTest, MatchLabelKeys) {
  const api::Pod pod =
      MakePod().Name("p").Labels({{"foo", ""}, {"version", "v2"}})
          .SpreadConstraint(Tsc(1, "node", kDoNotSchedule, kFoo, std::nullopt,
                                std::nullopt, std::nullopt, {"version"}))
          .Obj();
  // Two v1 pods on node-a do not count for a v2 pod.
  auto env = SetupPlugin(
      {P("a1", "node-a", {{"foo", ""}, {"version", "v1"}}),
       P("a2", "node-a", {{"foo", ""}, {"version", "v1"}}),
       P("b1", "node-b", {{"foo", ""}, {"version", "v2"}})},
      {N("node-a", {{"node", "node-a"}}), N("node-b", {{"node", "node-b"}})});
  CycleState state;
  ASSERT_TRUE(PreFilterStatus(*env, state, pod).IsSuccess());
  EXPECT_TRUE(FilterNode(*env, state, pod, "node-a").IsSuccess());
  EXPECT_EQ(FilterNode(*env, state, pod, "node-b").code(), kUn);
}

}  // namespace
}  // namespace SCHEDREF_PODTOPOLOGYSPREAD_NS
