#include "api/codec/trace_codec.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace schedref::api {
namespace {

// --- Builders
// -------------------------------------------------------------------

Trace::Record AttemptRecord(Attempt a) { return Trace::Record(std::move(a)); }
Trace::Record BindingRecord(Binding b) { return Trace::Record(std::move(b)); }
Trace::Record NoteRecord(Note n) { return Trace::Record(std::move(n)); }

constexpr char kHeader[] =
    R"({"format":"schedref-trace","kind":"header","version":1})";

// --- Exact encodings
// --------------------------------------------------------------

struct EncodeCase {
  const char* name;
  Trace::Record record;
  const char* line;
};

std::vector<EncodeCase> EncodeCases() {
  std::vector<EncodeCase> cases;
  {
    Attempt a;
    cases.push_back(
        {"MinimalAttemptKeepsRequiredFields", AttemptRecord(a),
         R"({"cycle":0,"evaluated":0,"feasible":0,"kind":"attempt","outcome":"scheduled","pod":"","t":0})"});
  }
  {
    Attempt a;
    a.at = 1500;
    a.cycle = 3;
    a.pod = "default/p1";
    a.profile = "default-scheduler";
    a.outcome = AttemptOutcome::kScheduled;
    a.node = "n2";
    a.evaluated = 3;
    a.feasible = 2;
    a.rejections["n1"] = {
        "NodeResourcesFit", RejectionCode::kUnschedulable, {"Insufficient cpu"}};
    a.top_scores = {{"n2", 300}, {"n3", 120}};
    cases.push_back(
        {"ScheduledAttempt", AttemptRecord(a),
         R"({"cycle":3,"evaluated":3,"feasible":2,"kind":"attempt","node":"n2","outcome":"scheduled","pod":"default/p1","profile":"default-scheduler","rejections":{"n1":{"code":"Unschedulable","plugin":"NodeResourcesFit","reasons":["Insufficient cpu"]}},"t":1500,"topScores":[{"node":"n2","score":300},{"node":"n3","score":120}]})"});
  }
  {
    Attempt a;
    a.at = 10;
    a.cycle = 1;
    a.pod = "default/hi";
    a.outcome = AttemptOutcome::kUnschedulable;
    a.evaluated = 1;
    a.message = "0/1 nodes are available: 1 Insufficient cpu.";
    a.preemption = Preemption{"n1", {"default/lo1", "default/lo2"}};
    cases.push_back(
        {"UnschedulableWithPreemption", AttemptRecord(a),
         R"({"cycle":1,"evaluated":1,"feasible":0,"kind":"attempt","message":"0/1 nodes are available: 1 Insufficient cpu.","outcome":"unschedulable","pod":"default/hi","preemption":{"nominatedNode":"n1","victims":["default/lo1","default/lo2"]},"t":10})"});
  }
  {
    Attempt a;
    a.pod = "ns/p";
    a.outcome = AttemptOutcome::kUnschedulable;
    a.preemption = Preemption{};
    cases.push_back(
        {"EmptyPreemptionIsKept", AttemptRecord(a),
         R"({"cycle":0,"evaluated":0,"feasible":0,"kind":"attempt","outcome":"unschedulable","pod":"ns/p","preemption":{},"t":0})"});
  }
  {
    Attempt a;
    a.pod = "ns/p";
    a.outcome = AttemptOutcome::kScheduled;
    a.detail["n1"].filter["NodeName"] = "Success";
    a.detail["n1"].scores["ImageLocality"] = {10, 50, 50};
    a.detail["n2"].filter["NodeName"] =
        "UnschedulableAndUnresolvable: node(s) didn't match the requested "
        "node name";
    cases.push_back(
        {"FullDetail", AttemptRecord(a),
         R"({"cycle":0,"detail":{"n1":{"filter":{"NodeName":"Success"},"scores":{"ImageLocality":{"normalized":50,"raw":10,"weighted":50}}},"n2":{"filter":{"NodeName":"UnschedulableAndUnresolvable: node(s) didn't match the requested node name"}}},"evaluated":0,"feasible":0,"kind":"attempt","outcome":"scheduled","pod":"ns/p","t":0})"});
  }
  {
    Binding b{2000, 4, "default/p1", "n1", BindingOutcome::kBound, ""};
    cases.push_back(
        {"Binding", BindingRecord(b),
         R"({"cycle":4,"kind":"binding","node":"n1","outcome":"bound","pod":"default/p1","t":2000})"});
  }
  {
    Binding b{0, 0, "", "", BindingOutcome::kRejected, ""};
    cases.push_back({"EmptyBindingKeepsOutcome", BindingRecord(b),
                     R"({"cycle":0,"kind":"binding","outcome":"rejected","t":0})"});
  }
  {
    Note n{7, "victimDeleted", "default/lo", "preempted by default/hi"};
    cases.push_back(
        {"Note", NoteRecord(n),
         R"({"kind":"note","message":"preempted by default/hi","pod":"default/lo","t":7,"what":"victimDeleted"})"});
  }
  {
    Note n{-5, "x", "", "quote \" backslash \\ newline \n tab \t é"};
    cases.push_back({"StringEscapes", NoteRecord(n),
                     "{\"kind\":\"note\",\"message\":\"quote \\\" backslash "
                     "\\\\ newline \\n tab \\t \xc3\xa9\",\"t\":-5,"
                     "\"what\":\"x\"}"});
  }
  return cases;
}

TEST(NodeRejection, ValueSemanticsOverASharedRepresentation) {
  const NodeRejection empty;
  EXPECT_EQ(empty.plugin(), "");
  EXPECT_EQ(empty.code(), RejectionCode::kNone);
  EXPECT_TRUE(empty.reasons().empty());
  const NodeRejection a("NodeResourcesFit", RejectionCode::kUnschedulable, {"Insufficient cpu"});
  const NodeRejection copy = a;  // NOLINT(performance-unnecessary-copy-initialization)
  EXPECT_EQ(&copy.reasons(), &a.reasons());  // shared, not copied
  EXPECT_EQ(copy, a);
  // Equality is by content, not by representation.
  EXPECT_EQ(a, NodeRejection("NodeResourcesFit", RejectionCode::kUnschedulable, {"Insufficient cpu"}));
  EXPECT_NE(a, NodeRejection("NodeResourcesFit", RejectionCode::kUnschedulable, {"Insufficient memory"}));
  EXPECT_NE(a, NodeRejection("NodePorts", RejectionCode::kUnschedulable, {"Insufficient cpu"}));
  EXPECT_NE(a, NodeRejection("NodeResourcesFit", RejectionCode::kUnschedulableAndUnresolvable,
                             {"Insufficient cpu"}));
  EXPECT_NE(a, empty);
}

// The names docs/trace-format.md lists, one per enumerator.
TEST(OutcomeName, WireNames) {
  const std::vector<std::pair<AttemptOutcome, std::string_view>> attempts = {
      {AttemptOutcome::kScheduled, "scheduled"},
      {AttemptOutcome::kUnschedulable, "unschedulable"},
      {AttemptOutcome::kError, "error"},
      {AttemptOutcome::kSkipped, "skipped"},
      {AttemptOutcome::kWaiting, "waiting"},
  };
  for (const auto& [outcome, name] : attempts) EXPECT_EQ(OutcomeName(outcome), name);
  const std::vector<std::pair<BindingOutcome, std::string_view>> bindings = {
      {BindingOutcome::kBound, "bound"},
      {BindingOutcome::kFailed, "failed"},
      {BindingOutcome::kRejected, "rejected"},
  };
  for (const auto& [outcome, name] : bindings) EXPECT_EQ(OutcomeName(outcome), name);
  const std::vector<std::pair<RejectionCode, std::string_view>> codes = {
      {RejectionCode::kNone, ""},
      {RejectionCode::kError, "Error"},
      {RejectionCode::kUnschedulable, "Unschedulable"},
      {RejectionCode::kUnschedulableAndUnresolvable, "UnschedulableAndUnresolvable"},
      {RejectionCode::kPending, "Pending"},
  };
  for (const auto& [code, name] : codes) EXPECT_EQ(CodeName(code), name);
}

TEST(EncodeTraceLines, ExactRecordEncodings) {
  for (const EncodeCase& c : EncodeCases()) {
    SCOPED_TRACE(c.name);
    Trace trace;
    trace.records.push_back(c.record);
    const std::vector<std::string> lines = EncodeTraceLines(trace);
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines[0], kHeader);
    EXPECT_EQ(lines[1], c.line);
    EXPECT_EQ(lines[2], R"({"kind":"placements","placements":{}})");

    // And back.
    StatusOr<Trace> decoded = DecodeTrace(EncodeTrace(trace), "t.jsonl");
    ASSERT_TRUE(decoded.ok()) << decoded.status().message();
    EXPECT_EQ(*decoded, trace);
  }
}

TEST(EncodeTrace, WholeTrace) {
  Trace trace;
  trace.records.push_back(
      BindingRecord({1, 1, "default/a", "n1", BindingOutcome::kBound, ""}));
  trace.placements["default/a"] = "n1";
  trace.placements["default/b"] = "";
  EXPECT_EQ(
      EncodeTrace(trace),
      std::string(kHeader) + "\n" +
          R"({"cycle":1,"kind":"binding","node":"n1","outcome":"bound","pod":"default/a","t":1})"
          "\n"
          R"({"kind":"placements","placements":{"default/a":"n1","default/b":""}})"
          "\n");
}

TEST(EncodeTrace, InvalidUtf8IsReplacedNotThrown) {
  Trace trace;
  trace.records.push_back(NoteRecord({0, "x", "", "bad \xff byte"}));
  const std::vector<std::string> lines = EncodeTraceLines(trace);
  EXPECT_EQ(lines[1],
            "{\"kind\":\"note\",\"message\":\"bad \xef\xbf\xbd byte\","
            "\"t\":0,\"what\":\"x\"}");
}

// Warnings come after the placements, one line each, and are what
// WithoutWarningLines drops.
TEST(EncodeTrace, WarningsFollowThePlacements) {
  Trace trace;
  trace.placements["default/p"] = "";
  trace.warnings.push_back(Warning{"default/p", "unknownProfile", "m"});
  const std::vector<std::string> lines = EncodeTraceLines(trace);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[1], R"({"kind":"placements","placements":{"default/p":""}})");
  EXPECT_EQ(lines[2],
            R"({"feature":"unknownProfile","kind":"warning","message":"m","pod":"default/p"})");
  std::string text;
  for (const std::string& l : lines) text += l + "\n";
  StatusOr<Trace> back = DecodeTrace(text, "x");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(*back, trace);
  EXPECT_EQ(WithoutWarningLines(lines), std::vector<std::string>(lines.begin(), lines.end() - 1));
  trace.warnings.clear();
  EXPECT_EQ(WithoutWarningLines(lines), EncodeTraceLines(trace));
}

// Full-detail fields: the PreFilter verdicts and the preemption candidates.
TEST(EncodeTraceLines, FullDetailPreFilterAndCandidates) {
  Attempt a;
  a.pre_filter = {{"NodeAffinity", "Skip"}, {"NodeResourcesFit", "Success"}};
  a.preemption = Preemption{"n1", {"default/v"}, {{"n1", {"default/v"}, 0}, {"n2", {}, 2}}};
  Trace trace;
  trace.records.push_back(AttemptRecord(a));
  const std::vector<std::string> lines = EncodeTraceLines(trace);
  EXPECT_EQ(lines[1],
            R"({"cycle":0,"evaluated":0,"feasible":0,"kind":"attempt","outcome":"scheduled","pod":"",)"
            R"("preFilter":[{"plugin":"NodeAffinity","status":"Skip"},{"plugin":"NodeResourcesFit","status":"Success"}],)"
            R"("preemption":{"candidates":[{"node":"n1","pdbViolations":0,"victims":["default/v"]},{"node":"n2","pdbViolations":2}],)"
            R"("nominatedNode":"n1","victims":["default/v"]},"t":0})");
  StatusOr<Trace> back = DecodeTrace(EncodeTrace(trace), "x");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(*back, trace);
  ClearFullDetail(*AsAttempt(trace.records[0]));
  EXPECT_EQ(EncodeTraceLines(trace)[1],
            R"({"cycle":0,"evaluated":0,"feasible":0,"kind":"attempt","outcome":"scheduled","pod":"",)"
            R"("preemption":{"nominatedNode":"n1","victims":["default/v"]},"t":0})");
}

// --- Decoding: lenient syntax, strict content
// ---------------------------------------

TEST(DecodeTrace, AcceptsAnyKeyOrderWhitespaceAndNoFinalNewline) {
  const std::string text =
      R"({ "version": 1, "kind": "header", "format": "schedref-trace" })"
      "\n"
      R"({"t": 5, "kind": "note", "what": "w"})"
      "\n"
      R"({"placements": {"a/b": "n"}, "kind": "placements"})";
  StatusOr<Trace> trace = DecodeTrace(text, "x");
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  ASSERT_EQ(trace->records.size(), 1u);
  EXPECT_EQ(trace->records[0], Trace::Record(Note{5, "w", "", ""}));
  EXPECT_EQ(trace->placements.at("a/b"), "n");
}

struct DecodeErrorCase {
  const char* name;
  std::string text;
  const char* message;
};

std::string WithHeader(const std::string& body) {
  return std::string(kHeader) + "\n" + body;
}
constexpr char kPlacements[] = R"({"kind":"placements","placements":{}})";

TEST(DecodeTrace, Errors) {
  const std::vector<DecodeErrorCase> cases = {
      {"Empty", "", "f:1: missing header record"},
      {"NotJson", "{nope\n", "f:1: not a JSON value"},
      {"NotObject", "[1]\n", "f:1: expected object, got array"},
      {"NoKind", "{}\n", "f:1: kind: required field is missing"},
      {"HeaderNotFirst", std::string(kPlacements) + "\n",
       "f:1: kind: expected \"header\" first, got \"placements\""},
      {"WrongVersion",
       R"({"format":"schedref-trace","kind":"header","version":2})"
       "\n",
       "f:1: version: unsupported trace version 2 (want 1)"},
      {"WrongFormat",
       R"({"format":"other","kind":"header","version":1})"
       "\n",
       "f:1: format: unknown trace format \"other\" (want \"schedref-trace\")"},
      {"MissingVersion",
       R"({"format":"schedref-trace","kind":"header"})"
       "\n",
       "f:1: version: required field is missing"},
      {"UnknownKind", WithHeader(R"({"kind":"attempts"})"),
       "f:2: kind: unknown record kind \"attempts\""},
      {"SecondHeader", WithHeader(kHeader), "f:2: kind: a second header"},
      {"UnknownField", WithHeader(R"({"kind":"note","t":1,"colour":"red"})"),
       "f:2: colour: unknown field"},
      {"WrongType", WithHeader(R"({"kind":"note","t":"1"})"),
       "f:2: t: expected integer, got string"},
      {"FractionalTime", WithHeader(R"({"kind":"note","t":1.5})"),
       "f:2: t: expected integer, got number 1.5"},
      {"AttemptMissingPod",
       WithHeader(
           R"({"kind":"attempt","t":0,"cycle":0,"outcome":"scheduled","evaluated":0,"feasible":0})"),
       "f:2: pod: required field is missing"},
      {"AttemptMissingFeasible",
       WithHeader(
           R"({"kind":"attempt","t":0,"cycle":0,"pod":"","outcome":"scheduled","evaluated":0})"),
       "f:2: feasible: required field is missing"},
      {"NestedWrongType",
       WithHeader(
           R"({"kind":"attempt","t":0,"cycle":0,"pod":"","outcome":"scheduled","evaluated":0,"feasible":0,"rejections":{"n1":{"reasons":"x"}}})"),
       "f:2: rejections.n1.reasons: expected array, got string"},
      {"NestedUnknownField",
       WithHeader(
           R"({"kind":"attempt","t":0,"cycle":0,"pod":"","outcome":"scheduled","evaluated":0,"feasible":0,"topScores":[{"node":"n","score":1,"rank":1}]})"),
       "f:2: topScores[0].rank: unknown field"},
      {"ScoreMissingWeighted",
       WithHeader(
           R"({"kind":"attempt","t":0,"cycle":0,"pod":"","outcome":"scheduled","evaluated":0,"feasible":0,"detail":{"n":{"scores":{"P":{"raw":1,"normalized":2}}}}})"),
       "f:2: detail.n.scores.P.weighted: required field is missing"},
      {"AttemptUnknownOutcome",
       WithHeader(
           R"({"kind":"attempt","t":0,"cycle":0,"pod":"","outcome":"bound","evaluated":0,"feasible":0})"),
       "f:2: outcome: unknown outcome \"bound\" (want one of scheduled, "
       "unschedulable, error, skipped, waiting)"},
      {"RejectionUnknownCode",
       WithHeader(
           R"({"kind":"attempt","t":0,"cycle":0,"pod":"","outcome":"unschedulable","evaluated":1,"feasible":0,"rejections":{"n1":{"plugin":"P","code":"Skip"}}})"),
       "f:2: rejections.n1.code: unknown code \"Skip\" (want one of Error, Unschedulable, "
       "UnschedulableAndUnresolvable, Pending)"},
      {"BindingMissingOutcome", WithHeader(R"({"kind":"binding","t":0,"cycle":0})"),
       "f:2: outcome: required field is missing"},
      {"BindingUnknownOutcome",
       WithHeader(R"({"kind":"binding","t":0,"cycle":0,"outcome":""})"),
       "f:2: outcome: unknown outcome \"\" (want one of bound, failed, rejected)"},
      {"MissingPlacements",
       WithHeader(R"({"kind":"note","t":1})"
                  "\n"),
       "f:3: missing placements record"},
      {"PlacementsWithoutMap", WithHeader(R"({"kind":"placements"})"),
       "f:2: placements: required field is missing"},
      {"RecordAfterPlacements",
       WithHeader(std::string(kPlacements) + "\n" + R"({"kind":"note","t":1})"),
       "f:3: record after the placements record"},
      {"BlankLineInside", WithHeader("\n" + std::string(kPlacements)),
       "f:2: not a JSON value"},
      {"WarningBeforePlacements",
       WithHeader(R"({"kind":"warning","pod":"a/b"})" "\n" + std::string(kPlacements)),
       "f:2: kind: a warning before the placements record"},
      {"WarningUnknownField",
       WithHeader(std::string(kPlacements) + "\n" + R"({"kind":"warning","t":1})"),
       "f:3: t: unknown field"},
  };
  for (const DecodeErrorCase& c : cases) {
    SCOPED_TRACE(c.name);
    StatusOr<Trace> trace = DecodeTrace(c.text, "f");
    ASSERT_FALSE(trace.ok());
    EXPECT_TRUE(trace.status().IsInvalid());
    EXPECT_EQ(trace.status().message(), c.message);
  }
}

// --- Round trip (RapidCheck)
// ------------------------------------------------------

// Strings from pieces that exercise escaping and multi-byte UTF-8; the
// encoder only promises a round trip for valid UTF-8.
// Generator sizes are scaled down: the trace nests maps in maps, and at
// RapidCheck's full size (100) one trace would hold millions of strings.
template <typename T>
rc::Gen<T> Few(rc::Gen<T> gen) {
  return rc::gen::scale(0.05, std::move(gen));
}

rc::Gen<std::string> Text() {
  return rc::gen::map(
      rc::gen::scale(
          0.2,
          rc::gen::container<std::vector<std::string>>(
              rc::gen::element<std::string>(
                  "a", "n1", "default/", "-", ".", " ", "\"", "\\", "\n", "\t",
                  std::string("\x01", 1), std::string("\0", 1), "\xc3\xa9",
                  "\xe6\x97\xa5", "\xf0\x9f\x98\x80", "Success", ":"))),
      [](const std::vector<std::string>& pieces) {
        std::string out;
        for (const std::string& p : pieces) out += p;
        return out;
      });
}

rc::Gen<std::vector<std::string>> Texts() {
  return Few(rc::gen::container<std::vector<std::string>>(Text()));
}

template <typename V>
rc::Gen<std::map<std::string, V>> MapOf(rc::Gen<V> value) {
  return rc::gen::map(
      Few(rc::gen::container<std::vector<std::pair<std::string, V>>>(
          rc::gen::pair(Text(), std::move(value)))),
      [](const std::vector<std::pair<std::string, V>>& entries) {
        return std::map<std::string, V>(entries.begin(), entries.end());
      });
}

rc::Gen<Attempt> Attempts() {
  return rc::gen::exec([] {
    Attempt a;
    a.at = *rc::gen::arbitrary<int64_t>();
    a.cycle = *rc::gen::arbitrary<int64_t>();
    a.pod = *Text();
    a.profile = *Text();
    a.outcome = *rc::gen::element(AttemptOutcome::kScheduled, AttemptOutcome::kUnschedulable,
                                  AttemptOutcome::kError, AttemptOutcome::kSkipped,
                                  AttemptOutcome::kWaiting);
    a.node = *Text();
    a.evaluated = *rc::gen::arbitrary<int64_t>();
    a.feasible = *rc::gen::arbitrary<int64_t>();
    for (auto& [node, rejection] : *MapOf<NodeRejection>(rc::gen::exec([] {
           return NodeRejection{*Text(),
                                 *rc::gen::element(RejectionCode::kNone, RejectionCode::kError,
                                                   RejectionCode::kUnschedulable,
                                                   RejectionCode::kUnschedulableAndUnresolvable,
                                                   RejectionCode::kPending),
                                 *Texts()};
         }))) {
      a.rejections.Set(node, std::move(rejection));
    }
    a.top_scores =
        *Few(rc::gen::container<std::vector<NodeScore>>(rc::gen::exec([] {
          return NodeScore{*Text(), *rc::gen::arbitrary<int64_t>()};
        })));
    a.message = *Text();
    if (*rc::gen::arbitrary<bool>()) {
      a.preemption = Preemption{*Text(), *Texts()};
    }
    a.detail = *MapOf<NodeDetail>(rc::gen::exec([] {
      NodeDetail d;
      d.filter = *MapOf<std::string>(Text());
      d.scores = *MapOf<PluginScore>(rc::gen::exec([] {
        return PluginScore{*rc::gen::arbitrary<int64_t>(),
                           *rc::gen::arbitrary<int64_t>(),
                           *rc::gen::arbitrary<int64_t>()};
      }));
      return d;
    }));
    return a;
  });
}

rc::Gen<Trace::Record> Records() {
  return rc::gen::oneOf(
      rc::gen::map(Attempts(), AttemptRecord), rc::gen::exec([] {
        return BindingRecord(Binding{*rc::gen::arbitrary<int64_t>(),
                                     *rc::gen::arbitrary<int64_t>(), *Text(),
                                     *Text(),
                                     *rc::gen::element(BindingOutcome::kBound,
                                                       BindingOutcome::kFailed,
                                                       BindingOutcome::kRejected),
                                     *Text()});
      }),
      rc::gen::exec([] {
        return NoteRecord(
            Note{*rc::gen::arbitrary<int64_t>(), *Text(), *Text(), *Text()});
      }));
}

rc::Gen<Trace> Traces() {
  return rc::gen::exec([] {
    Trace t;
    t.records = *rc::gen::scale(
        0.3, rc::gen::container<std::vector<Trace::Record>>(Records()));
    t.placements = *MapOf<std::string>(Text());
    t.warnings = *rc::gen::scale(
        0.3, rc::gen::container<std::vector<Warning>>(rc::gen::exec(
                 [] { return Warning{*Text(), *Text(), *Text()}; })));
    return t;
  });
}

RC_GTEST_PROP(TraceCodec, EncodeDecodeRoundTrip, ()) {
  const Trace trace = *Traces();
  const std::string text = EncodeTrace(trace);
  StatusOr<Trace> decoded = DecodeTrace(text, "rc");
  RC_ASSERT(decoded.ok());
  RC_ASSERT(*decoded == trace);
  // Canonical: re-encoding the decoded trace gives the same bytes.
  RC_ASSERT(EncodeTrace(*decoded) == text);
}

}  // namespace
}  // namespace schedref::api
