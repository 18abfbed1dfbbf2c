#include "api/types/trace.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace schedref::api {
namespace {

std::vector<std::string> Names(const NodeRejections& r) {
  std::vector<std::string> out;
  for (const auto& [node, rejection] : r) out.push_back(node);
  return out;
}

// NodeRejections keeps one entry per node, in name order, however the
// entries arrive: in order (the implementations' case), out of order, or
// again for a node already there (the last value wins).
TEST(NodeRejectionsTest, SortedUniqueWhateverTheOrder) {
  const NodeRejection cpu("NodeResourcesFit", RejectionCode::kUnschedulable, {"Insufficient cpu"});
  const NodeRejection taint("TaintToleration", RejectionCode::kUnschedulableAndUnresolvable, {"t"});
  struct Case {
    std::string name;
    std::vector<std::pair<std::string, NodeRejection>> sets;
    std::vector<std::string> want_names;
  };
  const std::vector<Case> cases = {
      {"in order", {{"a", cpu}, {"b", cpu}, {"c", taint}}, {"a", "b", "c"}},
      {"reversed", {{"c", taint}, {"b", cpu}, {"a", cpu}}, {"a", "b", "c"}},
      {"middle last", {{"a", cpu}, {"c", taint}, {"b", cpu}}, {"a", "b", "c"}},
      {"again", {{"a", cpu}, {"b", cpu}, {"a", taint}}, {"a", "b"}},
      {"prefixes", {{"node-10", cpu}, {"node-1", cpu}, {"node-2", cpu}},
       {"node-1", "node-10", "node-2"}},
  };
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    NodeRejections r;
    for (const auto& [node, rejection] : tc.sets) r.Set(node, rejection);
    EXPECT_EQ(Names(r), tc.want_names);
    // Find gives the last value set for each node.
    for (const auto& [node, rejection] : tc.sets) {
      const NodeRejection* got = r.Find(node);
      ASSERT_NE(got, nullptr);
      NodeRejection last;
      for (const auto& [n, v] : tc.sets) {
        if (n == node) last = v;
      }
      EXPECT_EQ(*got, last);
    }
    EXPECT_EQ(r.Find("absent"), nullptr);
  }
}

TEST(NodeRejectionsTest, SubscriptInsertsTheEmptyRejection) {
  NodeRejections r;
  r["b"] = NodeRejection("P", RejectionCode::kUnschedulable, {"x"});
  EXPECT_EQ(r["a"], NodeRejection());
  EXPECT_EQ(Names(r), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(r.size(), 2u);
  // Equality is by content, whatever order the entries came in.
  NodeRejections other;
  other.Set("a", NodeRejection());
  other.Set("b", NodeRejection("P", RejectionCode::kUnschedulable, {"x"}));
  EXPECT_EQ(r, other);
  other.Set("b", NodeRejection("P", RejectionCode::kUnschedulable, {"y"}));
  EXPECT_FALSE(r == other);
  r.clear();
  EXPECT_TRUE(r.empty());
}

// A record holds one kind, and only that kind's accessor finds it.
TEST(TraceRecordTest, AccessorsFindOnlyTheHeldKind) {
  Trace::Record attempt = Attempt{};
  Trace::Record binding = Binding{};
  const Trace::Record note = Note{};
  EXPECT_NE(AsAttempt(attempt), nullptr);
  EXPECT_EQ(AsBinding(attempt), nullptr);
  EXPECT_EQ(AsNote(attempt), nullptr);
  EXPECT_EQ(AsAttempt(binding), nullptr);
  EXPECT_NE(AsBinding(binding), nullptr);
  EXPECT_EQ(AsNote(binding), nullptr);
  EXPECT_EQ(AsAttempt(note), nullptr);
  EXPECT_EQ(AsBinding(note), nullptr);
  EXPECT_NE(AsNote(note), nullptr);
  // The accessor reaches the record's own value.
  AsAttempt(attempt)->pod = "ns/p";
  EXPECT_EQ(std::get<Attempt>(attempt).pod, "ns/p");
}

}  // namespace
}  // namespace schedref::api
