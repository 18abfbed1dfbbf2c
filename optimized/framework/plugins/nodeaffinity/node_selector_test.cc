#include "optimized/framework/plugins/nodeaffinity/node_selector.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

#include "api/types/labels.h"
#include "testing/st/wrappers.h"

namespace schedref::optimized::framework::plugins::nodeaffinity {
namespace {

api::NodeSelectorRequirement R(std::string key, std::string op,
                               std::vector<std::string> values = {}) {
  return {std::move(key), std::move(op), std::move(values)};
}

bool CompiledMatches(const api::NodeSelectorTerm& term, const api::Node& node) {
  const std::optional<CompiledTerm> c = CompiledTerm::Compile(term);
  return c.has_value() && c->Matches(node);
}

// Hand-picked edges, each checked against api/types/labels.h and an expectation.
TEST(CompiledTermTest, Table) {
  const api::Node node = st::MakeNode()
                             .Name("node1")
                             .Label("zone", "a")
                             .Label("num", "10")
                             .Label("plus", "+7")
                             .Label("text", "x")
                             .Label("big", "9223372036854775808")
                             .Obj();
  struct Case {
    std::string name;
    api::NodeSelectorTerm term;
    bool want;
  };
  const std::vector<Case> cases = {
      {"empty term matches nothing", {}, false},
      {"In", {{R("zone", "In", {"b", "a"})}, {}}, true},
      {"In missing key", {{R("nope", "In", {"a"})}, {}}, false},
      {"NotIn missing key", {{R("nope", "NotIn", {"a"})}, {}}, true},
      {"NotIn listed", {{R("zone", "NotIn", {"a"})}, {}}, false},
      {"Exists", {{R("zone", "Exists")}, {}}, true},
      {"DoesNotExist", {{R("zone", "DoesNotExist")}, {}}, false},
      {"Gt", {{R("num", "Gt", {"9"})}, {}}, true},
      {"Gt equal", {{R("num", "Gt", {"10"})}, {}}, false},
      {"Lt", {{R("num", "Lt", {"11"})}, {}}, true},
      {"Lt negative bound", {{R("num", "Lt", {"-1"})}, {}}, false},
      {"Gt label with plus sign", {{R("plus", "Gt", {"6"})}, {}}, true},
      {"Gt label not an integer", {{R("text", "Gt", {"0"})}, {}}, false},
      {"Gt label out of range", {{R("big", "Gt", {"0"})}, {}}, false},
      {"Gt missing label", {{R("nope", "Lt", {"0"})}, {}}, false},
      {"Gt bound not an integer: term does not parse",
       {{R("num", "Gt", {"x"})}, {}}, false},
      {"invalid key: term does not parse",
       {{R("bad key", "DoesNotExist")}, {}}, false},
      {"invalid In value: term does not parse",
       {{R("zone", "NotIn", {"bad value!"})}, {}}, false},
      {"unknown operator", {{R("zone", "Equals", {"a"})}, {}}, false},
      {"ANDed requirements", {{R("zone", "In", {"a"}), R("num", "Lt", {"5"})}, {}},
       false},
      {"name In", {{}, {R("metadata.name", "In", {"node1"})}}, true},
      {"name NotIn", {{}, {R("metadata.name", "NotIn", {"node1"})}}, false},
      {"other field reads empty", {{}, {R("spec.x", "NotIn", {"node1"})}}, true},
      {"field with two values does not parse",
       {{}, {R("metadata.name", "In", {"node1", "node2"})}}, false},
      {"expressions and fields", {{R("zone", "In", {"a"})},
                                  {R("metadata.name", "In", {"node2"})}},
       false},
  };
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(api::NodeSelectorTermMatches(tc.term, node), tc.want);
    EXPECT_EQ(CompiledMatches(tc.term, node), tc.want);
  }
  // A node without a name offers no fields: field requirements pass.
  const api::Node unnamed = st::MakeNode().Label("zone", "a").Obj();
  const api::NodeSelectorTerm by_name{{}, {R("metadata.name", "In", {"node1"})}};
  EXPECT_TRUE(api::NodeSelectorTermMatches(by_name, unnamed));
  EXPECT_TRUE(CompiledMatches(by_name, unnamed));
}

TEST(CompiledNodeSelectorTest, TermsAreOred) {
  const api::Node node = st::MakeNode().Name("n").Label("zone", "a").Obj();
  const api::NodeSelectorTerm bad{{R("zone", "Gt", {"x"})}, {}};
  const api::NodeSelectorTerm good{{R("zone", "In", {"a"})}, {}};
  const api::NodeSelectorTerm other{{R("zone", "In", {"b"})}, {}};
  EXPECT_FALSE(CompiledNodeSelector(api::NodeSelector{}).Matches(node));
  EXPECT_FALSE(CompiledNodeSelector(api::NodeSelector{{bad}}).Matches(node));
  EXPECT_FALSE(CompiledNodeSelector(api::NodeSelector{{other, {}}}).Matches(node));
  EXPECT_TRUE(CompiledNodeSelector(api::NodeSelector{{bad, other, good}}).Matches(node));
}

TEST(ScorePreferredTest, SumsMatchingWeights) {
  const api::Node node = st::MakeNode().Name("n").Label("zone", "a").Obj();
  std::vector<CompiledPreferredTerm> terms;
  terms.push_back({*CompiledTerm::Compile({{R("zone", "In", {"a"})}, {}}), 3});
  terms.push_back({*CompiledTerm::Compile({{R("zone", "Exists")}, {}}), 4});
  terms.push_back({*CompiledTerm::Compile({{R("zone", "In", {"b"})}, {}}), 50});
  EXPECT_EQ(ScorePreferred(terms, node), 7);
  EXPECT_EQ(ScorePreferred({}, node), 0);
}

// --- Equivalence with api/types/labels.h ------------------------------------------

const std::vector<std::string> kKeys = {"a", "b", "c", "bad key", "metadata.name"};
const std::vector<std::string> kValues = {
    "1", "2", "-3", "+4", "x", "", "bad value!", "node1", "99999999999999999999",
    "+-1"};

rc::Gen<api::NodeSelectorRequirement> Requirement(
    const std::vector<std::string>& ops) {
  return rc::gen::build<api::NodeSelectorRequirement>(
      rc::gen::set(&api::NodeSelectorRequirement::key, rc::gen::elementOf(kKeys)),
      rc::gen::set(&api::NodeSelectorRequirement::op, rc::gen::elementOf(ops)),
      rc::gen::set(&api::NodeSelectorRequirement::values,
                   rc::gen::container<std::vector<std::string>>(
                       *rc::gen::inRange(0, 3), rc::gen::elementOf(kValues))));
}

std::string Show(const std::vector<api::NodeSelectorRequirement>& rs) {
  std::string out;
  for (const api::NodeSelectorRequirement& r : rs) {
    out += " {" + r.key + " " + r.op + " [";
    for (const std::string& v : r.values) out += "\"" + v + "\"";
    out += "]}";
  }
  return out;
}

RC_GTEST_PROP(CompiledTermProperty, MatchesLikeApi, ()) {
  api::NodeSelectorTerm term;
  term.match_expressions =
      *rc::gen::container<std::vector<api::NodeSelectorRequirement>>(
          *rc::gen::inRange(0, 4),
          Requirement({"In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt",
                       "Bogus"}));
  term.match_fields =
      *rc::gen::container<std::vector<api::NodeSelectorRequirement>>(
          *rc::gen::inRange(0, 3), Requirement({"In", "NotIn", "Gt"}));
  api::Node node;
  node.name = *rc::gen::element<std::string>("", "node1", "node2");
  for (const std::string& key : kKeys) {
    if (*rc::gen::arbitrary<bool>()) node.labels[key] = *rc::gen::elementOf(kValues);
  }
  RC_LOG() << "expressions:" << Show(term.match_expressions)
           << "\nfields:" << Show(term.match_fields) << "\nnode \""
           << node.name << "\" labels:";
  for (const auto& [k, v] : node.labels) RC_LOG() << " " << k << "=" << v;
  RC_LOG() << "\n";
  RC_ASSERT(CompiledMatches(term, node) ==
            api::NodeSelectorTermMatches(term, node));
}

}  // namespace
}  // namespace schedref::optimized::framework::plugins::nodeaffinity
