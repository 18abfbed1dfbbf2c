// The differential harness itself: agreeing runs pass, and every kind of
// disagreement (a field, a missing record, detail only, one thread count
// only, errors) is found and described. The implementation under test here
// is the reference wrapped in a scheduler that breaks its trace on purpose.
#include "testing/differential/differential.h"

#include <functional>
#include <optional>
#include <string>
#include <utility>

#include "api/codec/scenario_decode.h"
#include "api/scheduler.h"
#include "api/types/scenario.h"
#include "api/types/trace.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/scheduler/scheduler.h"

namespace schedref::testing::differential {
namespace {

using ::testing::HasSubstr;

// Two nodes; n2 has more room, so p lands there; q does not fit anywhere.
constexpr char kScenario[] = R"(schedref: scenario/v1
name: two-nodes
seed: 7
objects:
- apiVersion: v1
  kind: Node
  metadata: {name: n1}
  status: {allocatable: {cpu: "2", memory: 4Gi, pods: "10"}}
- apiVersion: v1
  kind: Node
  metadata: {name: n2}
  status: {allocatable: {cpu: "8", memory: 16Gi, pods: "10"}}
timeline:
- at: 0s
  create:
    apiVersion: v1
    kind: Pod
    metadata: {name: p, namespace: default, uid: p}
    spec: {containers: [{name: c, image: pause, resources: {requests: {cpu: "1"}}}]}
- at: 0s
  create:
    apiVersion: v1
    kind: Pod
    metadata: {name: q, namespace: default, uid: q}
    spec: {containers: [{name: c, image: pause, resources: {requests: {cpu: "64"}}}]}
)";

api::Scenario Scenario() {
  StatusOr<api::Scenario> s = api::DecodeScenario(kScenario, "two-nodes.yaml");
  EXPECT_TRUE(s.ok()) << s.status().message();
  return s.value();
}

// The reference, with `edit` applied to its trace (or its result replaced)
// for the runs `when` selects.
class Broken : public api::Scheduler {
 public:
  using When = std::function<bool(const api::RunOptions&)>;
  using Edit = std::function<StatusOr<api::Trace>(api::Trace)>;
  Broken(When when, Edit edit) : when_(std::move(when)), edit_(std::move(edit)) {}
  std::string Name() const override { return "broken"; }
  StatusOr<api::Trace> Run(const api::Scenario& scenario,
                           const api::RunOptions& options) override {
    StatusOr<api::Trace> trace = reference_.Run(scenario, options);
    if (!trace.ok() || !when_(options)) return trace;
    return edit_(std::move(trace).value());
  }

 private:
  reference::ReferenceScheduler reference_;
  When when_;
  Edit edit_;
};

bool Always(const api::RunOptions&) { return true; }

TEST(Label, NamesThreadsAndDetail) {
  reference::ReferenceScheduler r;
  EXPECT_EQ(Label(r, {}), "reference");
  api::RunOptions o;
  o.threads = 4;
  EXPECT_EQ(Label(r, o), "reference threads=4");
  o.full_detail = true;
  EXPECT_EQ(Label(r, o), "reference threads=4 full-detail");
}

TEST(FirstDivergence, ReferenceAgreesWithItself) {
  reference::ReferenceScheduler expected, actual;
  EXPECT_EQ(FirstDivergence(Scenario(), expected, actual, DefaultThreadCounts()),
            std::nullopt);
}

TEST(FirstDivergence, FieldOfOneRecordAtOneThreadCount) {
  reference::ReferenceScheduler expected;
  Broken actual([](const api::RunOptions& o) { return o.threads == 2; },
                [](api::Trace t) -> StatusOr<api::Trace> {
                  api::AsAttempt(t.records[0])->node = "n1";
                  return t;
                });
  const std::optional<std::string> d =
      FirstDivergence(Scenario(), expected, actual, DefaultThreadCounts());
  ASSERT_TRUE(d.has_value());
  EXPECT_THAT(*d, HasSubstr("broken threads=2 differs from reference: trace "
                            "line 2: attempt t=0ms cycle 1 pod default/p"));
  EXPECT_THAT(*d, HasSubstr("\n  reference: {"));
  EXPECT_THAT(*d, HasSubstr("\n  broken threads=2: {"));
  EXPECT_THAT(*d, HasSubstr("node: expected \"n2\", actual \"n1\""));
}

TEST(FirstDivergence, DetailOnly) {
  reference::ReferenceScheduler expected;
  Broken actual([](const api::RunOptions& o) { return o.full_detail; },
                [](api::Trace t) -> StatusOr<api::Trace> {
                  api::AsAttempt(t.records[0])->detail["n1"].scores["Fake"].raw = 1;
                  return t;
                });
  const std::optional<std::string> d =
      FirstDivergence(Scenario(), expected, actual, DefaultThreadCounts());
  ASSERT_TRUE(d.has_value());
  EXPECT_THAT(*d, HasSubstr("broken threads=1 full-detail feasible-nodes "
                            "differs from reference full-detail "
                            "feasible-nodes: trace line 2"));
  EXPECT_THAT(*d, HasSubstr("detail.n1: expected"));
}

TEST(FirstDivergence, MissingRecord) {
  reference::ReferenceScheduler expected;
  Broken actual(Always, [](api::Trace t) -> StatusOr<api::Trace> {
    t.records.pop_back();
    return t;
  });
  const std::optional<std::string> d =
      FirstDivergence(Scenario(), expected, actual, DefaultThreadCounts());
  ASSERT_TRUE(d.has_value());
  EXPECT_THAT(*d, HasSubstr("broken threads=1 differs from reference"));
  EXPECT_THAT(*d, HasSubstr("broken threads=1: {\"kind\":\"placements\""));
}

TEST(FirstDivergence, PlacementsOnly) {
  reference::ReferenceScheduler expected;
  Broken actual(Always, [](api::Trace t) -> StatusOr<api::Trace> {
    t.placements["default/p"] = "n1";
    return t;
  });
  const std::optional<std::string> d =
      FirstDivergence(Scenario(), expected, actual, DefaultThreadCounts());
  ASSERT_TRUE(d.has_value());
  EXPECT_THAT(*d, HasSubstr(": placements\n"));
  EXPECT_THAT(*d, HasSubstr("placements.default/p: expected \"n2\", actual "
                            "\"n1\""));
}

TEST(FirstDivergence, OneSideFails) {
  reference::ReferenceScheduler expected;
  Broken actual([](const api::RunOptions& o) { return o.threads == 4; },
                [](api::Trace) -> StatusOr<api::Trace> {
                  return Status::Invalid("boom");
                });
  const std::optional<std::string> d =
      FirstDivergence(Scenario(), expected, actual, DefaultThreadCounts());
  ASSERT_TRUE(d.has_value());
  EXPECT_THAT(*d, HasSubstr("broken threads=4 differs from reference: broken "
                            "threads=4 failed, the other ran\n  broken "
                            "threads=4: boom\n  reference: 3 records"));
}

TEST(Divergence, ErrorsCompareByCodeAndMessage) {
  const Outcome a{"a", Status::Invalid("x")};
  EXPECT_EQ(Divergence(a, Outcome{"b", Status::Invalid("x")}), std::nullopt);
  const std::optional<std::string> message =
      Divergence(a, Outcome{"b", Status::Invalid("y")});
  ASSERT_TRUE(message.has_value());
  EXPECT_EQ(*message,
            "b differs from a: both failed, with different errors\n  a: x\n  "
            "b: y");
  const std::optional<std::string> code =
      Divergence(a, Outcome{"b", Status::NotFound("x")});
  ASSERT_TRUE(code.has_value());
  EXPECT_THAT(*code, HasSubstr("both failed, with different errors"));
}

TEST(Divergence, LongLinesAreCut) {
  api::Trace t;
  api::Note note;
  note.what = "x";
  note.message = std::string(2 * kMaxShownLine, 'a');
  t.records.push_back(note);
  api::Trace u = t;
  api::AsNote(u.records[0])->message.back() = 'b';
  const std::optional<std::string> d =
      Divergence(Outcome{"a", t}, Outcome{"b", u});
  ASSERT_TRUE(d.has_value());
  // The shown line of side a: cut, with what was left out counted.
  const size_t start = d->find("\n  a: ") + 6;
  const std::string shown = d->substr(start, d->find('\n', start) - start);
  EXPECT_THAT(shown, ::testing::StartsWith("{\"kind\":\"note\",\"message\":\"aaa"));
  EXPECT_THAT(shown.substr(kMaxShownLine),
              ::testing::MatchesRegex("\\.\\.\\. \\([0-9]+ more characters\\)"));
  // The field list still names the field.
  EXPECT_THAT(*d, HasSubstr("\n    message: expected \"aaa"));
}

}  // namespace
}  // namespace schedref::testing::differential
