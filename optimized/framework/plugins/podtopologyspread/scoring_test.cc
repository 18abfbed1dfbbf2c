// Tables transcribed from upstream
// pkg/scheduler/framework/plugins/podtopologyspread/scoring_test.go
// (find_string id 110788862): TestPodTopologySpreadScore. The row with a
// Service selecting the pod ("system defaulting, nodes don't have zone,
// pods match service") is replaced by its outcome in this reference: no
// Services are modelled, so system defaulting scores nothing (Skip).
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "optimized/framework/plugins/podtopologyspread/pod_topology_spread.h"
#include "optimized/framework/plugins/podtopologyspread/test_util.h"
#include "testing/st/wrappers.h"

namespace schedref::optimized::framework::plugins::podtopologyspread {
namespace {

using st::MakeNode;
using st::MakePod;

const api::LabelSelector kFoo = ExistsSelector("foo");

api::Node Host(const std::string& name, std::map<std::string, std::string> extra = {}) {
  api::Node n = MakeNode().Name(name).Label(kLabelHostname, name).Obj();
  for (const auto& [k, v] : extra) n.labels[k] = v;
  return n;
}
// `count` "foo" pods named p-<node suffix><i> on `node`.
void AddFoo(std::vector<api::Pod>& pods, const std::string& node, int count) {
  for (int i = 1; i <= count; ++i) {
    pods.push_back(MakePod().Name("p-" + node + std::to_string(i)).Node(node)
                       .Label("foo", "").Obj());
  }
}

struct ScoreCase {
  std::string name;
  api::Pod pod;
  std::vector<api::Pod> existing;
  std::vector<api::Node> nodes;         // candidates (filtered)
  std::vector<api::Node> failed_nodes;  // in the snapshot, not candidates
  std::vector<int64_t> want;
};

void RunScoreCases(const std::vector<ScoreCase>& cases) {
  for (const ScoreCase& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<api::Node> all = c.nodes;
    all.insert(all.end(), c.failed_nodes.begin(), c.failed_nodes.end());
    auto env = SetupPlugin(c.existing, all);
    std::vector<const NodeInfo*> filtered;
    for (const api::Node& n : c.nodes) filtered.push_back(&env->Node(n.name));
    const PodInfoPtr pod = NewPodInfo(c.pod);
    CycleState state;
    ASSERT_TRUE(env->plugin->PreScore(state, *pod, filtered).IsSuccess());
    std::vector<int64_t> scores;
    for (const NodeInfo* info : filtered) {
      ScoreOutput s = env->plugin->Score(state, *pod, *info);
      ASSERT_TRUE(s.status.IsSuccess());
      scores.push_back(s.score);
    }
    ASSERT_TRUE(env->plugin->NormalizeScore(state, *pod, filtered, scores).IsSuccess());
    EXPECT_EQ(scores, c.want);
  }
}

api::Pod SoftPod(int32_t skew, const std::string& key,
                 std::optional<api::LabelSelector> sel = kFoo) {
  return MakePod().Name("p").Label("foo", "")
      .SpreadConstraint(Tsc(skew, key, kScheduleAnyway, sel)).Obj();
}

TEST(PodTopologySpreadScoreTest, UpstreamPodTopologySpreadScore) {
  std::vector<api::Pod> s2103, s4321, s4213, s4213_zone, s2124;
  AddFoo(s2103, "node-a", 2); AddFoo(s2103, "node-b", 1);
  AddFoo(s2103, "node-d", 3);
  AddFoo(s4321, "node-a", 4); AddFoo(s4321, "node-b", 3);
  AddFoo(s4321, "node-c", 2); AddFoo(s4321, "node-d", 1);
  AddFoo(s4213, "node-a", 4); AddFoo(s4213, "node-b", 2);
  AddFoo(s4213, "node-x", 1); AddFoo(s4213, "node-y", 3);
  AddFoo(s2124, "node-a", 2); AddFoo(s2124, "node-b", 1);
  AddFoo(s2124, "node-x", 2); AddFoo(s2124, "node-y", 4);
  std::vector<api::Pod> one_each;
  AddFoo(one_each, "node-a", 1); AddFoo(one_each, "node-b", 1);
  std::vector<api::Pod> s21;
  AddFoo(s21, "node-a", 2); AddFoo(s21, "node-b", 1);
  const std::vector<api::Node> abcd = {Host("node-a"), Host("node-b"),
                                       Host("node-c"), Host("node-d")};
  auto zone = [](const std::string& n, const std::string& z) {
    return Host(n, {{"zone", z}});
  };
  std::vector<ScoreCase> cases = {
      {"one constraint on node, no existing pods", SoftPod(1, kLabelHostname),
       {}, {Host("node-a"), Host("node-b")}, {}, {100, 100}},
      {"one constraint on node, only one node is candidate",
       SoftPod(1, kLabelHostname), s21, {Host("node-a")}, {Host("node-b")},
       {100}},
      {"one constraint on node, all nodes have the same number of matching "
       "pods",
       SoftPod(1, kLabelHostname), one_each, {Host("node-a"), Host("node-b")},
       {}, {100, 100}},
      {"one constraint on node, all 4 nodes are candidates",
       SoftPod(1, kLabelHostname), s2103, abcd, {}, {20, 60, 100, 0}},
      {"one constraint on node, null selector",
       SoftPod(1, kLabelHostname, std::nullopt), s2103, abcd, {},
       {100, 100, 100, 100}},
      {"one constraint on node, all 4 nodes are candidates, maxSkew=2",
       SoftPod(2, kLabelHostname), s2103, abcd, {}, {33, 66, 100, 16}},
      {"one constraint on node, all 4 nodes are candidates, maxSkew=3",
       SoftPod(3, kLabelHostname), s4321, abcd, {}, {44, 66, 77, 100}},
      {"one constraint on node, 3 out of 4 nodes are candidates",
       SoftPod(1, kLabelHostname), s4213,
       {Host("node-a"), Host("node-b"), Host("node-x")}, {Host("node-y")},
       {33, 83, 100}},
      {"one constraint on node, 3 out of 4 nodes are candidates, one node "
       "doesn't match topology key",
       SoftPod(1, kLabelHostname), s4213,
       {Host("node-a"), MakeNode().Name("node-b").Label("n", "node-b").Obj(),
        Host("node-x")},
       {Host("node-y")}, {16, 0, 100}},
      {"one constraint on zone, 3 out of 4 nodes are candidates",
       SoftPod(1, "zone"), s4213,
       {zone("node-a", "zone1"), zone("node-b", "zone1"),
        zone("node-x", "zone2")},
       {zone("node-y", "zone2")}, {75, 75, 100}},
  };
  RunScoreCases(cases);
}

// Without ScheduleAnyway constraints (and with system defaulting, which
// yields none here) PreScore skips.
TEST(PodTopologySpreadScoreTest, PreScoreSkip) {
  auto env = SetupPlugin({}, {Host("node-a")}, PodTopologySpreadArgs{});
  std::vector<const NodeInfo*> nodes = {&env->Node("node-a")};
  CycleState state;
  EXPECT_TRUE(
      env->plugin->PreScore(state, *NewPodInfo(MakePod().Name("p").Label("foo", "").Obj()),
                            nodes)
          .IsSkip());
  api::Pod hard = MakePod().Name("p").Label("foo", "")
                      .SpreadConstraint(Tsc(1, "zone", kDoNotSchedule, kFoo))
                      .Obj();
  EXPECT_TRUE(env->plugin->PreScore(state, *NewPodInfo(hard), nodes).IsSkip());
  auto empty = SetupPlugin({}, {});
  EXPECT_TRUE(empty->plugin->PreScore(state, *NewPodInfo(SoftPod(1, "zone")), {}).IsSkip());
}

}  // namespace
}  // namespace schedref::optimized::framework::plugins::podtopologyspread
