#include "api/extender/declared_server.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/extender/http_extender.h"
#include "api/extender/protocol.h"

namespace schedref::api::extender {
namespace {

using nlohmann::json;

Extender Config(bool node_cache_capable) {
  Extender e;
  e.url_prefix = "http://gpu.declared/scheduler";
  e.filter_verb = "filter";
  e.prioritize_verb = "prioritize";
  e.bind_verb = "bind";
  e.preempt_verb = "preempt";
  e.weight = 2;
  e.node_cache_capable = node_cache_capable;
  return e;
}

Node MakeNode(const std::string& name, const std::string& gpu) {
  Node n;
  n.name = name;
  if (!gpu.empty()) n.labels["gpu"] = gpu;
  return n;
}

DeclaredExtender Declared() {
  DeclaredExtender d;
  d.url_prefix = "http://gpu.declared/scheduler";
  DeclaredFilter f;
  LabelSelector no_gpu;
  no_gpu.match_labels["gpu"] = "none";
  f.reject.push_back(DeclaredReject{DeclaredNodes{{}, no_gpu}, "no gpu", true});
  f.reject.push_back(DeclaredReject{DeclaredNodes{{"c"}, std::nullopt}, "busy", false});
  d.filter = f;
  DeclaredPrioritize p;
  p.scores.push_back(DeclaredScore{DeclaredNodes{{"b"}, std::nullopt}, 7});
  p.default_score = 1;
  d.prioritize = p;
  d.bind = DeclaredReply{};
  d.bind->error = "binding refused";
  DeclaredPreempt pre;
  pre.drop = {"b"};
  pre.keep_victims = 1;
  d.preempt = pre;
  return d;
}

// Through the real client and a real server: what a golden sees.
TEST(DeclaredServer, ServesItsDeclarationOverHttp) {
  const Extender config = Config(false);
  StatusOr<std::unique_ptr<DeclaredServer>> server =
      DeclaredServer::Start(Declared(), config);
  ASSERT_TRUE(server.ok()) << server.status().message();
  StatusOr<std::unique_ptr<HttpExtender>> client =
      HttpExtender::Create(config, (*server)->redirect());
  ASSERT_TRUE(client.ok());
  const Node a = MakeNode("a", "none"), b = MakeNode("b", "t4"),
             c = MakeNode("c", "t4");
  Pod pod;
  pod.ns = "default";
  pod.name = "p";
  StatusOr<HttpExtender::Filtered> f = (*client)->Filter(pod, {&a, &b, &c});
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_EQ(f->feasible, std::vector<std::string>{"b"});
  EXPECT_EQ(f->failed_and_unresolvable, (FailedNodes{{"a", "no gpu"}}));
  EXPECT_EQ(f->failed, (FailedNodes{{"c", "busy"}}));
  StatusOr<std::vector<HostPriority>> s = (*client)->Prioritize(pod, {&a, &b});
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(*s, (std::vector<HostPriority>{{"a", 1}, {"b", 7}}));
  EXPECT_EQ((*client)->Bind(pod, "b").message(), "binding refused");

  Pod v1, v2;
  v1.uid = "u1";
  v2.uid = "u2";
  const std::vector<const Pod*> pods = {&v1, &v2};
  std::map<std::string, Victims> victims = {{"a", Victims{{&v1, &v2}, 0}},
                                            {"b", Victims{{&v1}, 0}}};
  StatusOr<std::map<std::string, Victims>> kept = (*client)->ProcessPreemption(
      pod, victims, [&](const std::string&) { return &pods; });
  ASSERT_TRUE(kept.ok()) << kept.status().message();
  ASSERT_EQ(kept->size(), 1u);
  EXPECT_EQ(kept->at("a").pods, std::vector<const Pod*>{&v1});
}

struct AnswerCase {
  std::string name;
  DeclaredReply reply;
  int status;
  std::string body;
  int64_t delay_ns;
};

TEST(Answer, TheReplyFields) {
  const Node a = MakeNode("a", "");
  Pod pod;
  const std::string args = EncodeArgs(pod, {&a}, true).dump();
  const std::vector<AnswerCase> cases = {
      {"computed", {}, 200, R"([{"Host":"a","Score":0}])", 0},
      {"status", {0, 503, "", std::nullopt}, 503, "{}", 0},
      {"raw-body", {0, 200, "", "not json"}, 200, "not json", 0},
      {"delay", {1500, 200, "", std::nullopt}, 200, R"([{"Host":"a","Score":0}])",
       1'500'000'000},
  };
  for (const AnswerCase& c : cases) {
    SCOPED_TRACE(c.name);
    DeclaredExtender d;
    d.prioritize = DeclaredPrioritize{c.reply, {}, 0};
    const Reply r = Answer(d, Config(true), "prioritize", args);
    EXPECT_EQ(r.status, c.status);
    EXPECT_EQ(r.body, c.body);
    EXPECT_EQ(r.delay_ns, c.delay_ns);
  }
  // A verb the declaration leaves out is not found.
  DeclaredExtender d;
  EXPECT_EQ(Answer(d, Config(true), "filter", args).status, 404);
  // Names only: the filter answers NodeNames.
  d.filter = DeclaredFilter{};
  EXPECT_EQ(json::parse(Answer(d, Config(true), "filter", args).body)["NodeNames"],
            json::array({"a"}));
}

}  // namespace
}  // namespace schedref::api::extender
