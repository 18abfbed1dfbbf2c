#include "api/types/labels.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "api/types/objects.h"

namespace schedref::api {
namespace {

NodeSelectorRequirement Req(std::string key, std::string op,
                            std::vector<std::string> values = {}) {
  return {std::move(key), std::move(op), std::move(values)};
}

LabelSelectorRequirement LReq(std::string key, std::string op,
                              std::vector<std::string> values = {}) {
  return {std::move(key), std::move(op), std::move(values)};
}

Node MakeNode(std::string name, Labels labels = {}) {
  Node n;
  n.name = std::move(name);
  n.labels = std::move(labels);
  return n;
}

// --- Syntax ----------------------------------------------------------------------

TEST(CheckQualifiedNameTest, Table) {
  struct Case {
    std::string key;
    bool valid;
  };
  const std::vector<Case> cases = {
      {"x", true},
      {"1foo", true},
      {"1234", true},
      {"kubernetes.io/hostname", true},
      {"this-is-a-dns.domain.com/key-with-dash", true},
      {"0.1.2.domain/99", true},
      {"a_b.c-d", true},
      {std::string(63, 'a'), true},
      {std::string(64, 'a'), false},
      {std::string(254, 'a'), false},
      {"", false},
      {"invalid key", false},
      {"-a", false},
      {"a-", false},
      {"/a", false},
      {"a/", false},
      {"a/b/c", false},
      {"Upper.Case/x", false},
      {"example.com/" + std::string(63, 'x'), true},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(!CheckQualifiedName(c.key).has_value(), c.valid) << c.key;
  }
}

// Every message, in upstream IsQualifiedName's order and words.
TEST(QualifiedNameErrorsTest, UpstreamMessages) {
  const std::string name_regex =
      "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
      "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
  const std::string name_part =
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must "
      "start and end with an alphanumeric character " + name_regex;
  const std::string prefix_part =
      "prefix part a lowercase RFC 1123 subdomain must consist of lower case "
      "alphanumeric characters, '-' or '.', and must start and end with an "
      "alphanumeric character (e.g. 'example.com', regex used for validation is "
      "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
  struct Case {
    std::string key;
    std::vector<std::string> want;
  };
  const std::vector<Case> cases = {
      {"kubernetes.io/hostname", {}},
      {"-bad", {name_part}},
      {"", {"name part must be non-empty", name_part}},
      {std::string(64, 'a'), {"name part must be no more than 63 characters"}},
      {std::string(64, '-'), {"name part must be no more than 63 characters", name_part}},
      {"/a", {"prefix part must be non-empty"}},
      {"Upper.Case/x", {prefix_part}},
      {std::string(254, 'a') + "/x", {"prefix part must be no more than 253 characters"}},
      {"Ex/", {prefix_part, "name part must be non-empty", name_part}},
      {"a/b/c",
       {"a qualified name must consist of alphanumeric characters, '-', '_' or '.', "
        "and must start and end with an alphanumeric character " + name_regex +
        " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"}},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(QualifiedNameErrors(c.key), c.want) << c.key;
    EXPECT_EQ(CheckQualifiedName(c.key),
              c.want.empty() ? std::nullopt : std::optional<std::string>(c.want[0]))
        << c.key;
  }
}

TEST(LabelValueErrorsTest, UpstreamMessages) {
  const std::string regex =
      "a valid label must be an empty string or consist of alphanumeric characters, "
      "'-', '_' or '.', and must start and end with an alphanumeric character (e.g. "
      "'MyValue',  or 'my_value',  or '12345', regex used for validation is "
      "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
  EXPECT_EQ(LabelValueErrors(""), std::vector<std::string>{});
  EXPECT_EQ(LabelValueErrors("_a"), std::vector<std::string>{regex});
  EXPECT_EQ(LabelValueErrors(std::string(64, 'v')),
            std::vector<std::string>{"must be no more than 63 characters"});
  EXPECT_EQ(LabelValueErrors(std::string(64, '_')),
            (std::vector<std::string>{"must be no more than 63 characters", regex}));
}

TEST(CheckLabelValueTest, Table) {
  EXPECT_FALSE(CheckLabelValue("").has_value());
  EXPECT_FALSE(CheckLabelValue("abc").has_value());
  EXPECT_FALSE(CheckLabelValue("10.10.100.1").has_value());
  EXPECT_FALSE(CheckLabelValue(std::string(63, 'v')).has_value());
  EXPECT_TRUE(CheckLabelValue(std::string(64, 'v')).has_value());
  EXPECT_TRUE(CheckLabelValue("invalid value: ___@#$%^").has_value());
  EXPECT_TRUE(CheckLabelValue("_a").has_value());
  EXPECT_TRUE(CheckLabelValue("a b").has_value());
}

// --- Label selectors ---------------------------------------------------------------

// Transcribed from upstream TestRequirementConstructor
// (staging/src/k8s.io/apimachinery/pkg/labels/selector_test.go at
// kubernetes/kubernetes@01d7e53f7ea4). Gt/Lt rows are not label selector
// operators; they are covered by the node selector tests below.
TEST(ValidateLabelSelectorTest, UpstreamRequirementConstructor) {
  struct Case {
    LabelSelectorRequirement req;
    bool valid;
  };
  const std::vector<Case> cases = {
      {LReq("x", "In"), false},
      {LReq("x", "NotIn"), false},
      {LReq("x", "In", {"foo"}), true},
      {LReq("x", "NotIn", {"foo"}), true},
      {LReq("x", "Exists"), true},
      {LReq("x", "DoesNotExist"), true},
      {LReq("1foo", "In", {"bar"}), true},
      {LReq("1234", "In", {"bar"}), true},
      {LReq(std::string(254, 'a'), "Exists"), false},
  };
  for (const Case& c : cases) {
    LabelSelector s;
    s.match_expressions = {c.req};
    EXPECT_EQ(!ValidateLabelSelector(s).has_value(), c.valid)
        << c.req.key << " " << c.req.op;
  }
}

TEST(ValidateLabelSelectorTest, Problems) {
  struct Case {
    LabelSelector selector;
    FieldProblem want;
  };
  const std::vector<Case> cases = {
      {{{}, {LReq("a", "In")}},
       {"matchExpressions[0].values", "must be non-empty when operator is In"}},
      {{{}, {LReq("a", "Exists", {"x"})}},
       {"matchExpressions[0].values",
        "must be empty when operator is Exists"}},
      {{{}, {LReq("a", "In", {"x"}), LReq("b", "Gt", {"1"})}},
       {"matchExpressions[1].operator",
        "unsupported value \"Gt\" (supported: \"In\", \"NotIn\", \"Exists\", "
        "\"DoesNotExist\")"}},
      {{{}, {LReq("a b", "Exists")}},
       {"matchExpressions[0].key",
        "invalid label key \"a b\": name part must consist of alphanumeric "
        "characters, '-', '_' or '.', and must start and end with an "
        "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"}},
      {{{}, {LReq("a", "In", {"ok", "not ok"})}},
       {"matchExpressions[0].values[1]",
        "invalid label value \"not ok\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"}},
      {{{{"app", "-x"}}, {}},
       {"matchLabels.app",
        "invalid label value \"-x\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"}},
  };
  for (const Case& c : cases) {
    const std::optional<FieldProblem> got = ValidateLabelSelector(c.selector);
    ASSERT_TRUE(got.has_value());
    EXPECT_EQ(*got, c.want);
  }
}

// Transcribed from upstream TestRequirementSelectorMatching and
// TestSelectorMatches (selector_test.go at kubernetes/kubernetes@01d7e53f7ea4).
// "x=y" is written as matchLabels or as In with one value, "x!=y" as NotIn.
TEST(LabelSelectorMatchesTest, Upstream) {
  struct Case {
    Labels labels;
    LabelSelector selector;
    bool match;
  };
  const std::vector<Case> cases = {
      // TestRequirementSelectorMatching
      {{{"x", "foo"}, {"y", "baz"}},
       {{}, {LReq("x", "In", {"foo"}), LReq("y", "NotIn", {"alpha"})}},
       true},
      {{{"x", "foo"}, {"y", "baz"}},
       {{}, {LReq("x", "In", {"foo"}), LReq("y", "In", {"alpha"})}},
       false},
      {{{"y", ""}},
       {{}, {LReq("x", "NotIn", {""}), LReq("y", "Exists")}},
       true},
      {{{"y", ""}},
       {{}, {LReq("x", "DoesNotExist"), LReq("y", "Exists")}},
       true},
      {{{"y", ""}},
       {{}, {LReq("x", "NotIn", {""}), LReq("y", "DoesNotExist")}},
       false},
      {{{"y", "baz"}}, {{}, {LReq("x", "In", {""})}}, false},
      // TestSelectorMatches
      {{{"x", "y"}}, {}, true},
      {{{"x", "y"}}, {{{"x", "y"}}, {}}, true},
      {{{"x", "y"}, {"z", "w"}}, {{{"x", "y"}, {"z", "w"}}, {}}, true},
      {{{"x", "z"}, {"z", "a"}},
       {{}, {LReq("x", "NotIn", {"y"}), LReq("z", "NotIn", {"w"})}},
       true},
      {{{"notin", "in"}}, {{{"notin", "in"}}, {}}, true},
      {{{"x", "z"}}, {{}, {LReq("x", "Exists")}}, true},
      {{{"y", "z"}}, {{}, {LReq("x", "DoesNotExist")}}, true},
      {{}, {{{"x", "z"}}, {}}, false},
      {{{"x", "z"}}, {{{"x", "y"}}, {}}, false},
      {{{"x", "w"}, {"z", "w"}}, {{{"x", "y"}, {"z", "w"}}, {}}, false},
      {{{"x", "z"}, {"z", "w"}},
       {{}, {LReq("x", "NotIn", {"y"}), LReq("z", "NotIn", {"w"})}},
       false},
      {{{"y", "z"}}, {{}, {LReq("x", "Exists")}}, false},
      {{{"x", "z"}}, {{}, {LReq("x", "DoesNotExist")}}, false},
      {{{"foo", "bar"}, {"baz", "blah"}}, {{{"foo", "bar"}}, {}}, true},
      {{{"foo", "bar"}, {"baz", "blah"}},
       {{{"foo", "bar"}, {"baz", "blah"}}, {}},
       true},
      {{{"foo", "bar"}, {"baz", "blah"}}, {{{"foo", "blah"}}, {}}, false},
      {{{"foo", "bar"}, {"baz", "blah"}},
       {{{"foo", "bar"}, {"foobar", "bar"}, {"baz", "blah"}}, {}},
       false},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    EXPECT_EQ(Matches(cases[i].selector, cases[i].labels), cases[i].match)
        << "case " << i;
  }
}

// --- Node selectors ------------------------------------------------------------

// Transcribed from upstream TestNodeSelectorRequirementsAsSelector and the
// Gt/Lt rows of TestRequirementConstructor / TestSelectorMatches: the parse
// the scheduler applies to node selector terms.
TEST(NodeSelectorTermParseErrorTest, Upstream) {
  struct Case {
    NodeSelectorTerm term;
    std::optional<FieldProblem> want;
  };
  const std::vector<Case> cases = {
      {{{Req("foo", "In", {"bar", "baz"})}, {}}, std::nullopt},
      {{{Req("foo", "Exists", {"bar", "baz"})}, {}},
       FieldProblem{"matchExpressions[0].values",
                    "must be empty when operator is Exists"}},
      {{{Req("foo", "Gt", {"1"})}, {}}, std::nullopt},
      {{{Req("bar", "Lt", {"7"})}, {}}, std::nullopt},
      {{{Req("foo", "Gt", {"bar"})}, {}},
       FieldProblem{"matchExpressions[0].values[0]",
                    "must be an integer when operator is Gt"}},
      {{{Req("barz", "Lt", {"blah"})}, {}},
       FieldProblem{"matchExpressions[0].values[0]",
                    "must be an integer when operator is Lt"}},
      {{{Req("foo", "Gt", {"1", "2"})}, {}},
       FieldProblem{"matchExpressions[0].values",
                    "must have exactly one value when operator is Gt"}},
      {{{}, {Req("metadata.name", "In", {"host_1", "host_2"})}},
       FieldProblem{"matchFields[0].values", "must have one element"}},
      {{{}, {Req("metadata.name", "Exists")}},
       FieldProblem{"matchFields[0].operator",
                    "unsupported value \"Exists\" (supported: \"In\", "
                    "\"NotIn\")"}},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    EXPECT_EQ(NodeSelectorTermParseError(cases[i].term), cases[i].want)
        << "case " << i;
  }
}

// Transcribed from upstream TestNodeSelectorMatch (nodeaffinity_test.go at
// kubernetes/kubernetes@04791b490660). Upstream's NewNodeSelector reports
// the parse errors of the first case; here the erroneous terms match
// nothing and the valid one is evaluated.
TEST(NodeSelectorMatchesTest, UpstreamNodeSelectorMatch) {
  const NodeSelector invalid{{
      {{}, {Req("metadata.name", "In", {"host_1", "host_2"})}},
      {{Req("label_1", "In", {"label_1_val"})},
       {Req("metadata.name", "In", {"host_1"})}},
      {{Req("invalid key", "In", {"label_value"})}, {}},
  }};
  EXPECT_TRUE(NodeSelectorTermParseError(invalid.terms[0]).has_value());
  EXPECT_FALSE(NodeSelectorTermParseError(invalid.terms[1]).has_value());
  EXPECT_EQ(NodeSelectorTermParseError(invalid.terms[2])->field,
            "matchExpressions[0].key");
  EXPECT_FALSE(NodeSelectorMatches(invalid, MakeNode("host_1")));

  const NodeSelector fields_and_labels{{
      {{Req("label_1", "In", {"label_1_val"})},
       {Req("metadata.name", "In", {"host_1"})}},
  }};
  // node matches field selector, but not labels
  EXPECT_FALSE(NodeSelectorMatches(fields_and_labels, MakeNode("host_1")));
  // node matches field selector and label selector
  EXPECT_TRUE(NodeSelectorMatches(
      fields_and_labels, MakeNode("host_1", {{"label_1", "label_1_val"}})));

  // second term matches
  const NodeSelector second{{
      {{Req("label_1", "In", {"label_1_val"})}, {}},
      {{}, {Req("metadata.name", "In", {"host_1"})}},
  }};
  EXPECT_TRUE(NodeSelectorMatches(second, MakeNode("host_1")));
}

// Transcribed from upstream TestPreferredSchedulingTermsScore
// (nodeaffinity_test.go at kubernetes/kubernetes@04791b490660): the score is
// the sum of the weights of the matching terms. Upstream refuses the whole
// list when a weighted term fails to parse; that is the Score plugin's
// business, so only the per-term facts are checked here.
TEST(NodeSelectorMatchesTest, UpstreamPreferredSchedulingTermsScore) {
  const std::vector<PreferredSchedulingTerm> terms = {
      {5, {{}, {Req("metadata.name", "In", {"host_1"})}}},
      {7, {{Req("unknown_label", "In", {"unknown_label_val"})}, {}}},
      {11, {{Req("label_1", "In", {"label_1_val"})}, {}}},
  };
  const Node node = MakeNode("host_1", {{"label_1", "label_1_val"}});
  int64_t score = 0;
  for (const PreferredSchedulingTerm& t : terms) {
    if (t.weight != 0 && NodeSelectorTermMatches(t.preference, node)) {
      score += t.weight;
    }
  }
  EXPECT_EQ(score, 16);

  // invalid field selector but no weight: never parsed upstream.
  const PreferredSchedulingTerm zero{
      0, {{}, {Req("metadata.name", "In", {"host_1", "host_2"})}}};
  EXPECT_TRUE(NodeSelectorTermParseError(zero.preference).has_value());
}

// Transcribed from upstream TestPodMatchesNodeSelectorAndAffinityTerms
// (nodeaffinity_test.go at kubernetes/kubernetes@04791b490660).
TEST(RequiredNodeAffinityMatchesTest, UpstreamPodMatchesNodeSelectorAndAffinity) {
  auto with_required = [](std::optional<NodeSelector> required,
                          Labels node_selector = {}) {
    Pod pod;
    pod.node_selector = std::move(node_selector);
    pod.affinity = Affinity{};
    pod.affinity->node_affinity = NodeAffinity{};
    pod.affinity->node_affinity->required = std::move(required);
    return pod;
  };
  auto plain = [](Labels node_selector) {
    Pod pod;
    pod.node_selector = std::move(node_selector);
    return pod;
  };
  struct Case {
    std::string name;
    Pod pod;
    Labels labels;
    std::string node_name;
    bool want;
  };
  const std::vector<Case> cases = {
      {"no selector", Pod{}, {}, "", true},
      {"missing labels", plain({{"foo", "bar"}}), {}, "", false},
      {"same labels", plain({{"foo", "bar"}}), {{"foo", "bar"}}, "", true},
      {"node labels are superset",
       plain({{"foo", "bar"}}),
       {{"foo", "bar"}, {"baz", "blah"}},
       "",
       true},
      {"node labels are subset",
       plain({{"foo", "bar"}, {"baz", "blah"}}),
       {{"foo", "bar"}},
       "",
       false},
      {"In matches",
       with_required(NodeSelector{{{{Req("foo", "In", {"bar", "value2"})}, {}}}}),
       {{"foo", "bar"}},
       "",
       true},
      {"Gt matches",
       with_required(
           NodeSelector{{{{Req("kernel-version", "Gt", {"0204"})}, {}}}}),
       {{"kernel-version", "0206"}},
       "",
       true},
      {"NotIn matches",
       with_required(
           NodeSelector{{{{Req("mem-type", "NotIn", {"DDR", "DDR2"})}, {}}}}),
       {{"mem-type", "DDR3"}},
       "",
       true},
      {"Exists matches",
       with_required(NodeSelector{{{{Req("GPU", "Exists")}, {}}}}),
       {{"GPU", "NVIDIA-GRID-K1"}},
       "",
       true},
      {"affinity that doesn't match node's labels",
       with_required(
           NodeSelector{{{{Req("foo", "In", {"value1", "value2"})}, {}}}}),
       {{"foo", "bar"}},
       "",
       false},
      {"no NodeSelectorTerms", with_required(NodeSelector{}), {{"foo", "bar"}},
       "", false},
      {"empty MatchExpressions",
       with_required(NodeSelector{{NodeSelectorTerm{}}}),
       {{"foo", "bar"}},
       "",
       false},
      {"Affinity but no required node selector", with_required(std::nullopt),
       {{"foo", "bar"}}, "", true},
      {"multiple matchExpressions ANDed, match",
       with_required(NodeSelector{{{{Req("GPU", "Exists"),
                                     Req("GPU", "NotIn", {"AMD", "INTER"})},
                                    {}}}}),
       {{"GPU", "NVIDIA-GRID-K1"}},
       "",
       true},
      {"multiple matchExpressions ANDed, no match",
       with_required(NodeSelector{{{{Req("GPU", "Exists"),
                                     Req("GPU", "In", {"AMD", "INTER"})},
                                    {}}}}),
       {{"GPU", "NVIDIA-GRID-K1"}},
       "",
       false},
      {"multiple terms ORed",
       with_required(NodeSelector{{
           {{Req("foo", "In", {"bar", "value2"})}, {}},
           {{Req("diffkey", "In", {"wrong", "value2"})}, {}},
       }}),
       {{"foo", "bar"}},
       "",
       true},
      {"affinity and nodeSelector both satisfied",
       with_required(NodeSelector{{{{Req("foo", "Exists")}, {}}}},
                     {{"foo", "bar"}}),
       {{"foo", "bar"}},
       "",
       true},
      {"affinity satisfied, nodeSelector not",
       with_required(NodeSelector{{{{Req("foo", "Exists")}, {}}}},
                     {{"foo", "bar"}}),
       {{"foo", "barrrrrr"}},
       "",
       false},
      {"invalid value in affinity term",
       with_required(NodeSelector{
           {{{Req("foo", "NotIn", {"invalid value: ___@#$%^"})}, {}}}}),
       {{"foo", "bar"}},
       "",
       false},
      {"matchFields In matches",
       with_required(
           NodeSelector{{{{}, {Req("metadata.name", "In", {"node_1"})}}}}),
       {},
       "node_1",
       true},
      {"matchFields In does not match",
       with_required(
           NodeSelector{{{{}, {Req("metadata.name", "In", {"node_1"})}}}}),
       {},
       "node_2",
       false},
      {"two terms: matchFields no, matchExpressions yes",
       with_required(NodeSelector{{
           {{}, {Req("metadata.name", "In", {"node_1"})}},
           {{Req("foo", "In", {"bar"})}, {}},
       }}),
       {{"foo", "bar"}},
       "node_2",
       true},
      {"one term: matchFields no, matchExpressions yes",
       with_required(NodeSelector{{{{Req("foo", "In", {"bar"})},
                                    {Req("metadata.name", "In", {"node_1"})}}}}),
       {{"foo", "bar"}},
       "node_2",
       false},
      {"one term: both match",
       with_required(NodeSelector{{{{Req("foo", "In", {"bar"})},
                                    {Req("metadata.name", "In", {"node_1"})}}}}),
       {{"foo", "bar"}},
       "node_1",
       true},
      {"two terms: neither matches",
       with_required(NodeSelector{{
           {{}, {Req("metadata.name", "In", {"node_1"})}},
           {{Req("foo", "In", {"not-match-to-bar"})}, {}},
       }}),
       {{"foo", "bar"}},
       "node_2",
       false},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(RequiredNodeAffinityMatches(c.pod, MakeNode(c.node_name, c.labels)),
              c.want)
        << c.name;
  }
}

TEST(NodeSelectorTermMatchesTest, GtLtAndFieldEdgeCases) {
  struct Case {
    std::string name;
    NodeSelectorTerm term;
    Node node;
    bool want;
  };
  const std::vector<Case> cases = {
      // TestSelectorMatches rows x>1 / x<1 (selector_test.go).
      {"x>1 on 2", {{Req("x", "Gt", {"1"})}, {}}, MakeNode("n", {{"x", "2"}}),
       true},
      {"x<1 on 0", {{Req("x", "Lt", {"1"})}, {}}, MakeNode("n", {{"x", "0"}}),
       true},
      {"x>1 on 0", {{Req("x", "Gt", {"1"})}, {}}, MakeNode("n", {{"x", "0"}}),
       false},
      {"x<1 on 2", {{Req("x", "Lt", {"1"})}, {}}, MakeNode("n", {{"x", "2"}}),
       false},
      // TestRequirementSelectorMatching rows.
      {"z>1 on 2", {{Req("z", "Gt", {"1"})}, {}}, MakeNode("n", {{"z", "2"}}),
       true},
      {"z>1 on v2", {{Req("z", "Gt", {"1"})}, {}},
       MakeNode("n", {{"z", "v2"}}), false},
      {"Gt without the label", {{Req("z", "Gt", {"1"})}, {}}, MakeNode("n"),
       false},
      {"Gt with a bad bound", {{Req("z", "Gt", {"x"})}, {}},
       MakeNode("n", {{"z", "2"}}), false},
      {"Gt with two values", {{Req("z", "Gt", {"1", "2"})}, {}},
       MakeNode("n", {{"z", "5"}}), false},
      // "-1" is not a valid label value, so upstream's parse rejects it.
      {"negative bound", {{Req("z", "Lt", {"-1"})}, {}},
       MakeNode("n", {{"z", "-2"}}), false},
      {"leading zeros", {{Req("z", "Lt", {"010"})}, {}},
       MakeNode("n", {{"z", "9"}}), true},
      {"int64 overflow is not an integer",
       {{Req("z", "Lt", {"9223372036854775808"})}, {}},
       MakeNode("n", {{"z", "1"}}), false},
      {"matchFields NotIn", {{}, {Req("metadata.name", "NotIn", {"a"})}},
       MakeNode("b"), true},
      {"matchFields NotIn on its name",
       {{}, {Req("metadata.name", "NotIn", {"a"})}}, MakeNode("a"), false},
      {"matchFields ignored for a nameless node",
       {{}, {Req("metadata.name", "In", {"a"})}}, MakeNode(""), true},
      {"unknown field reads as empty",
       {{}, {Req("metadata.namespace", "In", {""})}}, MakeNode("a"), true},
      {"empty term", {}, MakeNode("a"), false},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(NodeSelectorTermMatches(c.term, c.node), c.want) << c.name;
  }
}

TEST(ValidateNodeSelectorTermTest, Problems) {
  struct Case {
    NodeSelectorTerm term;
    std::optional<FieldProblem> want;
  };
  const std::vector<Case> cases = {
      {{{Req("a", "In", {"x"}), Req("b", "Gt", {"1"})},
        {Req("metadata.name", "In", {"n"})}},
       std::nullopt},
      // API validation does not check values; matching does.
      {{{Req("a", "In", {"not a label value"})}, {}}, std::nullopt},
      {{{Req("a", "Gt", {"not-an-integer"})}, {}}, std::nullopt},
      {{{Req("a", "Foo")}, {}},
       FieldProblem{"matchExpressions[0].operator",
                    "unsupported value \"Foo\" (supported: \"In\", "
                    "\"NotIn\", \"Exists\", \"DoesNotExist\", \"Gt\", "
                    "\"Lt\")"}},
      {{{Req("a", "NotIn")}, {}},
       FieldProblem{"matchExpressions[0].values",
                    "must be non-empty when operator is NotIn"}},
      {{{Req("a", "DoesNotExist", {"x"})}, {}},
       FieldProblem{"matchExpressions[0].values",
                    "must be empty when operator is DoesNotExist"}},
      {{{Req("a", "Lt")}, {}},
       FieldProblem{"matchExpressions[0].values",
                    "must have exactly one value when operator is Lt"}},
      {{{}, {Req("metadata.namespace", "In", {"x"})}},
       FieldProblem{"matchFields[0].key",
                    "unsupported value \"metadata.namespace\" (supported: "
                    "\"metadata.name\")"}},
      {{{}, {Req("metadata.name", "In", {"x", "y"})}},
       FieldProblem{"matchFields[0].values",
                    "must have exactly one value for a field selector"}},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    EXPECT_EQ(ValidateNodeSelectorTerm(cases[i].term), cases[i].want)
        << "case " << i;
  }
}

// --- Taints and tolerations -------------------------------------------------------

// Transcribed from upstream TestTolerationToleratesTaint
// (staging/src/k8s.io/api/core/v1/toleration_test.go at
// kubernetes/kubernetes@19c6083b5c8b). The Lt/Gt rows belong to an alpha
// feature that is not modelled; they are kept with the outcome our
// implementation gives (not tolerated).
TEST(ToleratesTaintTest, Upstream) {
  struct Case {
    std::string description;
    Toleration toleration;
    Taint taint;
    bool tolerated;
  };
  const std::vector<Case> cases = {
      {"same key and effect, Exists, taint without value",
       {"foo", "Exists", "", "NoSchedule", {}},
       {"foo", "", "NoSchedule"},
       true},
      {"same key and effect, Exists, taint with value",
       {"foo", "Exists", "", "NoSchedule", {}},
       {"foo", "bar", "NoSchedule"},
       true},
      {"same effect, empty key and Exists match all taints",
       {"", "Exists", "", "NoSchedule", {}},
       {"foo", "bar", "NoSchedule"},
       true},
      {"same key, effect and value, Equal",
       {"foo", "Equal", "bar", "NoSchedule", {}},
       {"foo", "bar", "NoSchedule"},
       true},
      {"same key and effect, different values, Equal",
       {"foo", "Equal", "value1", "NoSchedule", {}},
       {"foo", "value2", "NoSchedule"},
       false},
      {"same key and value, different effects, Equal",
       {"foo", "Equal", "bar", "NoSchedule", {}},
       {"foo", "bar", "NoExecute"},
       false},
      // Not upstream rows: the remaining rules of ToleratesTaint.
      {"empty operator means Equal",
       {"foo", "", "bar", "NoSchedule", {}},
       {"foo", "bar", "NoSchedule"},
       true},
      {"empty effect matches every effect",
       {"foo", "Exists", "", "", {}},
       {"foo", "bar", "NoExecute"},
       true},
      {"different keys",
       {"foo", "Exists", "", "", {}},
       {"other", "bar", "NoSchedule"},
       false},
      {"Gt is not modelled",
       {"node.kubernetes.io/sla", "Gt", "750", "NoSchedule", {}},
       {"node.kubernetes.io/sla", "950", "NoSchedule"},
       false},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(ToleratesTaint(c.toleration, c.taint), c.tolerated)
        << c.description;
  }
}

TEST(TolerationsTolerateTaintTest, AnyToleration) {
  const Taint taint{"k", "v", "NoSchedule"};
  EXPECT_FALSE(TolerationsTolerateTaint({}, taint));
  EXPECT_TRUE(TolerationsTolerateTaint(
      {{"x", "Exists", "", "", {}}, {"k", "Equal", "v", "", {}}}, taint));
  EXPECT_FALSE(TolerationsTolerateTaint(
      {{"x", "Exists", "", "", {}}, {"k", "Equal", "w", "", {}}}, taint));
}

TEST(ValidateTolerationTest, Problems) {
  struct Case {
    Toleration toleration;
    std::optional<FieldProblem> want;
  };
  const std::vector<Case> cases = {
      {{"k", "Equal", "v", "NoSchedule", {}}, std::nullopt},
      {{"", "Exists", "", "", {}}, std::nullopt},
      {{"k", "", "", "NoExecute", 30}, std::nullopt},
      {{"", "Equal", "v", "", {}},
       FieldProblem{"operator",
                    "must be Exists when key is empty (a toleration that "
                    "matches every key)"}},
      {{"k", "Exists", "v", "", {}},
       FieldProblem{"value", "must be empty when operator is Exists"}},
      {{"k", "Gt", "1", "", {}},
       FieldProblem{"operator",
                    "unsupported value \"Gt\" (supported: \"Equal\", "
                    "\"Exists\")"}},
      {{"k", "Exists", "", "NoSchedule", 5},
       FieldProblem{"effect", "must be NoExecute when tolerationSeconds is set"}},
      {{"k", "Exists", "", "Sometimes", {}},
       FieldProblem{"effect",
                    "unsupported value \"Sometimes\" (supported: "
                    "\"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\")"}},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    EXPECT_EQ(ValidateToleration(cases[i].toleration), cases[i].want)
        << "case " << i;
  }
}

TEST(ValidateTaintsTest, Problems) {
  EXPECT_EQ(ValidateTaints({{"a", "", "NoSchedule"}, {"a", "", "NoExecute"}}),
            std::nullopt);
  EXPECT_EQ(ValidateTaints({{"a", "", ""}}),
            (FieldProblem{"[0].effect", "required field is missing"}));
  EXPECT_EQ(ValidateTaints({{"a", "", "NoSchedule"}, {"a", "x", "NoSchedule"}}),
            (FieldProblem{"[1]",
                          "taints must be unique by key and effect; \"a\" "
                          "with effect NoSchedule appears twice"}));
  EXPECT_EQ(ValidateTaints({{"", "", "NoSchedule"}})->field, "[0].key");
}

}  // namespace
}  // namespace schedref::api
