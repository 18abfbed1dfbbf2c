// NodeAffinity's Filter table, run against both implementations
// (impl.h).
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "testing/upstream/framework/plugins/nodeaffinity/impl.h"

namespace SCHEDREF_NODEAFFINITY_NS {
namespace {

using st::MakeNode;
using st::MakePod;

api::NodeSelectorRequirement R(std::string key, std::string op,
                               std::vector<std::string> values = {}) {
  return {std::move(key), std::move(op), std::move(values)};
}

api::NodeSelectorTerm Exprs(std::vector<api::NodeSelectorRequirement> e) {
  return {std::move(e), {}};
}
api::NodeSelectorTerm Fields(std::vector<api::NodeSelectorRequirement> f) {
  return {{}, std::move(f)};
}

api::Pod PodWithRequired(std::vector<api::NodeSelectorTerm> terms,
                         api::Labels node_selector = {}) {
  return MakePod()
      .NodeSelector(node_selector)
      .RequiredNodeAffinity(api::NodeSelector{std::move(terms)})
      .Obj();
}

NodeAffinityArgs AddedRequired(std::vector<api::NodeSelectorTerm> terms) {
  NodeAffinityArgs args;
  args.added_affinity.emplace();
  args.added_affinity->required = api::NodeSelector{std::move(terms)};
  return args;
}

const api::NodeSelectorRequirement kName1 = R("metadata.name", "In", {"node1"});
const api::NodeSelectorRequirement kName2 = R("metadata.name", "In", {"node2"});

// Transcribed from upstream node_affinity_test.go TestNodeAffinity
// (17bae91f207a5f2b101e581c90f7a72fc9adef96), then rows of ours. Filter
// runs twice per row: after PreFilter (reading its state, if the plugin
// keeps one) and on a fresh CycleState (upstream's "even if PreFilter is
// not called" fallback); both must give the row's answer.
TEST(NodeAffinityTest, UpstreamFilter) {
  struct Case {
    std::string name;
    api::Pod pod;
    api::Labels labels;
    std::string node_name;
    Status want_status;
    Status want_pre_filter_status;
    PreFilterResult want_pre_filter_result;
    NodeAffinityArgs args;
  };
  const Status kPod(Code::kUnschedulableAndUnresolvable, kErrReasonPod);
  const std::vector<Case> cases = {
      {"missing labels", MakePod().NodeSelector({{"foo", "bar"}}).Obj(), {},
       "", kPod, {}, {}, {}},
      {"same labels", MakePod().NodeSelector({{"foo", "bar"}}).Obj(),
       {{"foo", "bar"}}, "", {}, {}, {}, {}},
      {"node labels are superset",
       MakePod().NodeSelector({{"foo", "bar"}}).Obj(),
       {{"foo", "bar"}, {"baz", "blah"}}, "", {}, {}, {}, {}},
      {"node labels are subset",
       MakePod().NodeSelector({{"foo", "bar"}, {"baz", "blah"}}).Obj(),
       {{"foo", "bar"}}, "", kPod, {}, {}, {}},
      {"Pod with matchExpressions using In operator that matches the existing "
       "node",
       PodWithRequired({Exprs({R("foo", "In", {"bar", "value2"})})}),
       {{"foo", "bar"}}, "", {}, {}, {}, {}},
      {"Pod with matchExpressions using Gt operator that matches the existing "
       "node",
       PodWithRequired({Exprs({R("kernel-version", "Gt", {"0204"})})}),
       {{"kernel-version", "0206"}}, "", {}, {}, {}, {}},
      {"Pod with matchExpressions using NotIn operator that matches the "
       "existing node",
       PodWithRequired({Exprs({R("mem-type", "NotIn", {"DDR", "DDR2"})})}),
       {{"mem-type", "DDR3"}}, "", {}, {}, {}, {}},
      {"Pod with matchExpressions using Exists operator that matches the "
       "existing node",
       PodWithRequired({Exprs({R("GPU", "Exists")})}),
       {{"GPU", "NVIDIA-GRID-K1"}}, "", {}, {}, {}, {}},
      {"Pod with affinity that don't match node's labels won't schedule onto "
       "the node",
       PodWithRequired({Exprs({R("foo", "In", {"value1", "value2"})})}),
       {{"foo", "bar"}}, "", kPod, {}, {}, {}},
      {"Pod with empty MatchExpressions is not a valid value will match no "
       "objects and won't schedule onto the node",
       PodWithRequired({Exprs({})}), {{"foo", "bar"}}, "", kPod, {}, {}, {}},
      {"Pod with no Affinity will schedule onto a node", MakePod().Obj(),
       {{"foo", "bar"}}, "", {}, Status::Skip(), {}, {}},
      {"Pod with Affinity but nil NodeSelector will schedule onto a node",
       [] {
         api::Pod p = MakePod().Obj();
         p.affinity.emplace();
         p.affinity->node_affinity.emplace();
         return p;
       }(),
       {{"foo", "bar"}}, "", {}, Status::Skip(), {}, {}},
      {"Pod with multiple matchExpressions ANDed that matches the existing "
       "node",
       PodWithRequired({Exprs({R("GPU", "Exists"),
                               R("GPU", "NotIn", {"AMD", "INTER"})})}),
       {{"GPU", "NVIDIA-GRID-K1"}}, "", {}, {}, {}, {}},
      {"Pod with multiple matchExpressions ANDed that doesn't match the "
       "existing node",
       PodWithRequired({Exprs({R("GPU", "Exists"),
                               R("GPU", "In", {"AMD", "INTER"})})}),
       {{"GPU", "NVIDIA-GRID-K1"}}, "", kPod, {}, {}, {}},
      {"Pod with multiple NodeSelectorTerms ORed in affinity, matches the "
       "node's labels and will schedule onto the node",
       PodWithRequired({Exprs({R("foo", "In", {"bar", "value2"})}),
                        Exprs({R("diffkey", "In", {"wrong", "value2"})})}),
       {{"foo", "bar"}}, "", {}, {}, {}, {}},
      {"Pod with an Affinity and a PodSpec.NodeSelector(the old thing that we "
       "are deprecating) both are satisfied, will schedule onto the node",
       PodWithRequired({Exprs({R("foo", "Exists")})}, {{"foo", "bar"}}),
       {{"foo", "bar"}}, "", {}, {}, {}, {}},
      {"Pod with an Affinity matches node's labels but the "
       "PodSpec.NodeSelector(the old thing that we are deprecating) is not "
       "satisfied, won't schedule onto the node",
       PodWithRequired({Exprs({R("foo", "Exists")})}, {{"foo", "bar"}}),
       {{"foo", "barrrrrr"}}, "", kPod, {}, {}, {}},
      {"Pod with an invalid value in Affinity term won't be scheduled onto "
       "the node",
       PodWithRequired(
           {Exprs({R("foo", "NotIn", {"invalid value: ___@#$%^"})})}),
       {{"foo", "bar"}}, "", kPod, {}, {}, {}},
      {"Pod with matchFields using In operator that matches the existing node",
       PodWithRequired({Fields({kName1})}), {}, "node1", {}, {},
       std::set<std::string>{"node1"}, {}},
      {"Pod with matchFields using In operator that does not match the "
       "existing node",
       PodWithRequired({Fields({kName1})}), {}, "node2", kPod, {},
       std::set<std::string>{"node1"}, {}},
      {"Pod with two terms: matchFields does not match, but matchExpressions "
       "matches",
       PodWithRequired({Fields({kName1}), Exprs({R("foo", "In", {"bar"})})}),
       {{"foo", "bar"}}, "node2", {}, {}, {}, {}},
      {"Pod with one term: matchFields does not match, but matchExpressions "
       "matches",
       PodWithRequired({{{R("foo", "In", {"bar"})}, {kName1}}}),
       {{"foo", "bar"}}, "node2", kPod, {}, std::set<std::string>{"node1"},
       {}},
      {"Pod with one term: both matchFields and matchExpressions match",
       PodWithRequired({{{R("foo", "In", {"bar"})}, {kName1}}}),
       {{"foo", "bar"}}, "node1", {}, {}, std::set<std::string>{"node1"}, {}},
      {"Pod with two terms: both matchFields and matchExpressions do not "
       "match",
       PodWithRequired({Fields({kName1}),
                        Exprs({R("foo", "In", {"not-match-to-bar"})})}),
       {{"foo", "bar"}}, "node2", kPod, {}, {}, {}},
      {"Pod with two terms of node.Name affinity",
       PodWithRequired({Fields({kName1}), Fields({kName2})}), {}, "node2", {},
       {}, std::set<std::string>{"node1", "node2"}, {}},
      {"Pod with two conflicting mach field requirements",
       PodWithRequired({Fields({kName1, kName2})}), {{"foo", "bar"}}, "node2",
       kPod, Status(Code::kUnschedulableAndUnresolvable, kErrReasonConflict),
       {}, {}},
      {"Matches added affinity and Pod's node affinity",
       PodWithRequired({Exprs({R("zone", "In", {"foo"})})}),
       {{"zone", "foo"}}, "node2", {}, {}, {},
       AddedRequired({Fields({kName2})})},
      {"Matches added affinity but not Pod's node affinity",
       PodWithRequired({Exprs({R("zone", "In", {"bar"})})}),
       {{"zone", "foo"}}, "node2", kPod, {}, {},
       AddedRequired({Fields({kName2})})},
      {"Doesn't match added affinity", MakePod().Obj(), {{"zone", "foo"}},
       "node2",
       Status(Code::kUnschedulableAndUnresolvable, kErrReasonEnforced), {}, {},
       AddedRequired({Exprs({R("zone", "In", {"bar"})})})},
      // Ours.
      {"added affinity is checked before the pod's",
       PodWithRequired({Exprs({R("zone", "In", {"bar"})})}), {{"zone", "foo"}},
       "node2",
       Status(Code::kUnschedulableAndUnresolvable, kErrReasonEnforced), {}, {},
       AddedRequired({Exprs({R("zone", "In", {"bar"})})})},
      {"required affinity with no terms matches nothing",
       PodWithRequired({}), {{"foo", "bar"}}, "node1", kPod, {}, {}, {}},
      {"a term with a name In list and an unrelated field keeps the list",
       PodWithRequired({Fields({kName1, R("metadata.name", "NotIn", {"x"})})}),
       {}, "node1", {}, {}, std::set<std::string>{"node1"}, {}},
      {"a name In list with several values is a PreFilter restriction, but "
       "the term does not parse, so Filter rejects",
       PodWithRequired({Fields({R("metadata.name", "In", {"node1", "node2"})})}),
       {}, "node1", kPod, {}, std::set<std::string>{"node1", "node2"}, {}},
      {"overlapping name lists in one term intersect",
       PodWithRequired({{{}, {R("metadata.name", "In", {"node1", "node2"}),
                              R("metadata.name", "In", {"node2", "node3"})}}}),
       {}, "node2", kPod, {}, std::set<std::string>{"node2"}, {}},
      {"an empty term admits every node at PreFilter, and matches none",
       PodWithRequired({Fields({kName1}), {}}), {}, "node1", {}, {}, {}, {}},
  };
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    ASSERT_TRUE(ValidateArgs(tc.args).ok());
    const FilterRun run = RunFilter(
        tc.args, tc.pod, MakeNode().Name(tc.node_name).Labels(tc.labels).Obj());
    EXPECT_EQ(run.pre.status, tc.want_pre_filter_status);
    EXPECT_EQ(run.pre.result, tc.want_pre_filter_result);
    EXPECT_EQ(run.after_pre_filter, tc.want_status);
    EXPECT_EQ(run.fresh, tc.want_status);
  }
}

}  // namespace
}  // namespace SCHEDREF_NODEAFFINITY_NS
