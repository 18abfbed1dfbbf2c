#include "api/extender/protocol.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace schedref::api::extender {
namespace {

using nlohmann::json;

Node MakeNode(const std::string& name) {
  Node n;
  n.name = name;
  n.labels["zone"] = "a";
  return n;
}

Pod MakePod() {
  Pod p;
  p.ns = "default";
  p.name = "web";
  p.uid = "uid-web";
  p.scheduler_name = "default-scheduler";
  return p;
}

TEST(EncodeArgs, NodeListOrNamesTheOtherNull) {
  const Node a = MakeNode("a"), b = MakeNode("b");
  const json full = EncodeArgs(MakePod(), {&a, &b}, false);
  EXPECT_EQ(full["Pod"]["metadata"]["name"], "web");
  EXPECT_TRUE(full["NodeNames"].is_null());
  ASSERT_EQ(full["Nodes"]["items"].size(), 2u);
  EXPECT_EQ(full["Nodes"]["items"][1]["metadata"]["name"], "b");
  EXPECT_EQ(full["Nodes"]["items"][0]["metadata"]["labels"]["zone"], "a");

  const json names = EncodeArgs(MakePod(), {&a, &b}, true);
  EXPECT_TRUE(names["Nodes"].is_null());
  EXPECT_EQ(names["NodeNames"], json::array({"a", "b"}));
}

TEST(EncodeBindingArgs, GoFieldNames) {
  EXPECT_EQ(EncodeBindingArgs(MakePod(), "n1"),
            json({{"PodName", "web"},
                  {"PodNamespace", "default"},
                  {"PodUID", "uid-web"},
                  {"Node", "n1"}}));
}

TEST(EncodePreemptionArgs, PodsOrUids) {
  Pod victim = MakePod();
  victim.name = "v";
  victim.uid = "uid-v";
  std::map<std::string, Victims> victims;
  victims["n1"] = Victims{{&victim}, 1};
  const json meta = EncodePreemptionArgs(MakePod(), victims, true);
  EXPECT_TRUE(meta["NodeNameToVictims"].is_null());
  EXPECT_EQ(meta["NodeNameToMetaVictims"]["n1"],
            json({{"Pods", json::array({{{"UID", "uid-v"}}})},
                  {"NumPDBViolations", 1}}));
  const json full = EncodePreemptionArgs(MakePod(), victims, false);
  EXPECT_TRUE(full["NodeNameToMetaVictims"].is_null());
  EXPECT_EQ(full["NodeNameToVictims"]["n1"]["Pods"][0]["metadata"]["uid"],
            "uid-v");
  // The server reads either shape back as UIDs.
  StatusOr<std::map<std::string, MetaVictims>> back = DecodePreemptionArgs(full);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->at("n1"), (MetaVictims{{"uid-v"}, 1}));
  back = DecodePreemptionArgs(meta);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->at("n1"), (MetaVictims{{"uid-v"}, 1}));
}

struct FilterCase {
  std::string name;
  std::string reply;
  std::string error;  // "" when it decodes
  FilterResult want;
};

TEST(DecodeFilterResult, AsEncodingJsonReadsIt) {
  const std::vector<FilterCase> cases = {
      {"names-and-failures",
       R"({"NodeNames":["a"],"FailedNodes":{"b":"no"},)"
       R"("FailedAndUnresolvableNodes":{"c":"never"},"Error":""})",
       "",
       {std::nullopt, std::vector<std::string>{"a"}, {{"b", "no"}},
        {{"c", "never"}}, ""}},
      {"node-list",
       R"({"Nodes":{"items":[{"metadata":{"name":"a"}},{"metadata":{"name":"b"}}]}})",
       "",
       {std::vector<std::string>{"a", "b"}, std::nullopt, {}, {}, ""}},
      {"keys-fold-case", R"({"nodenames":["a"],"error":"boom"})", "",
       {std::nullopt, std::vector<std::string>{"a"}, {}, {}, "boom"}},
      {"exact-key-wins", R"({"error":"lower","Error":"exact"})", "",
       {std::nullopt, std::nullopt, {}, {}, "exact"}},
      {"nulls-are-absent", R"({"Nodes":null,"NodeNames":null,"FailedNodes":null})",
       "", {}},
      {"unknown-keys-ignored", R"({"Extra":1})", "", {}},
      {"null-reply", "null", "", {}},
      {"not-an-object", "[]",
       "json: cannot unmarshal array into Go value of type "
       "v1.ExtenderFilterResult",
       {}},
      {"error-not-string", R"({"Error":3})",
       "json: cannot unmarshal number into Go struct field "
       "ExtenderFilterResult.Error of type string",
       {}},
      {"names-not-list", R"({"NodeNames":"a"})",
       "json: cannot unmarshal string into Go struct field "
       "ExtenderFilterResult.NodeNames of type []string",
       {}},
      {"failed-reason-not-string", R"({"FailedNodes":{"a":1}})",
       "json: cannot unmarshal number into Go struct field "
       "ExtenderFilterResult.FailedNodes of type string",
       {}},
  };
  for (const FilterCase& c : cases) {
    SCOPED_TRACE(c.name);
    StatusOr<FilterResult> got = DecodeFilterResult(json::parse(c.reply));
    if (!c.error.empty()) {
      ASSERT_FALSE(got.ok());
      EXPECT_EQ(got.status().message(), c.error);
      continue;
    }
    ASSERT_TRUE(got.ok()) << got.status().message();
    EXPECT_EQ(*got, c.want);
    // The server's encoding reads back the same.
    StatusOr<FilterResult> again = DecodeFilterResult(EncodeFilterResult(*got));
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(*again, *got);
  }
}

TEST(DecodeHostPriorityList, ScoresAndErrors) {
  StatusOr<std::vector<HostPriority>> got = DecodeHostPriorityList(
      json::parse(R"([{"Host":"a","Score":3},{"host":"b","score":10}])"));
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_EQ(*got, (std::vector<HostPriority>{{"a", 3}, {"b", 10}}));
  EXPECT_EQ(DecodeHostPriorityList(EncodeHostPriorityList(*got)).value(), *got);

  const std::vector<std::pair<std::string, std::string>> errors = {
      {R"({"Host":"a"})",
       "json: cannot unmarshal object into Go value of type v1.HostPriorityList"},
      {R"([{"Host":"a","Score":1.5}])",
       "json: cannot unmarshal number 1.5 into Go struct field "
       "HostPriority.Score of type int64"},
      {R"([{"Host":"a","Score":"3"}])",
       "json: cannot unmarshal string into Go struct field HostPriority.Score "
       "of type int64"},
      {R"([{"Host":1}])",
       "json: cannot unmarshal number into Go struct field HostPriority.Host "
       "of type string"},
  };
  for (const auto& [reply, message] : errors) {
    SCOPED_TRACE(reply);
    StatusOr<std::vector<HostPriority>> bad =
        DecodeHostPriorityList(json::parse(reply));
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.status().message(), message);
  }
}

TEST(DecodeBindingResult, TheErrorField) {
  EXPECT_EQ(DecodeBindingResult(json::parse(R"({"Error":"full"})")).value(),
            "full");
  EXPECT_EQ(DecodeBindingResult(json::parse("{}")).value(), "");
  EXPECT_EQ(DecodeBindingResult(EncodeBindingResult("x")).value(), "x");
  EXPECT_FALSE(DecodeBindingResult(json::parse("3")).ok());
}

TEST(DecodePreemptionResult, MetaVictimsByNode) {
  StatusOr<std::map<std::string, std::optional<MetaVictims>>> got =
      DecodePreemptionResult(json::parse(
          R"({"NodeNameToMetaVictims":{"a":{"Pods":[{"UID":"u1"}],)"
          R"("NumPDBViolations":2},"b":null}})"));
  ASSERT_TRUE(got.ok()) << got.status().message();
  ASSERT_EQ(got->size(), 2u);
  EXPECT_EQ(got->at("a"), (MetaVictims{{"u1"}, 2}));
  EXPECT_FALSE(got->at("b").has_value());
  EXPECT_FALSE(
      DecodePreemptionResult(json::parse(R"({"NodeNameToMetaVictims":[]})"))
          .ok());
  std::map<std::string, MetaVictims> v = {{"a", MetaVictims{{"u"}, 0}}};
  EXPECT_EQ(DecodePreemptionResult(EncodePreemptionResult(v))->at("a"),
            v.at("a"));
}

TEST(DecodeArgs, NodesWithLabelsOrNames) {
  const Node a = MakeNode("a");
  StatusOr<ReceivedArgs> full = DecodeArgs(EncodeArgs(MakePod(), {&a}, false));
  ASSERT_TRUE(full.ok()) << full.status().message();
  EXPECT_FALSE(full->names_only);
  EXPECT_EQ(full->node_names, std::vector<std::string>{"a"});
  EXPECT_EQ(full->node_labels[0].at("zone"), "a");
  EXPECT_EQ(full->pod["metadata"]["name"], "web");
  StatusOr<ReceivedArgs> names = DecodeArgs(EncodeArgs(MakePod(), {&a}, true));
  ASSERT_TRUE(names.ok());
  EXPECT_TRUE(names->names_only);
  EXPECT_EQ(names->node_names, std::vector<std::string>{"a"});
}

}  // namespace
}  // namespace schedref::api::extender
