#include "conformance/protocol.h"

#include <string>

#include <gtest/gtest.h>

namespace schedref::conformance {
namespace {

TEST(ProtocolTest, HandshakeRequest) {
  EXPECT_EQ(HandshakeRequest(),
            R"({"protocol":"schedref-conformance","version":1})");
}

TEST(ProtocolTest, ParsesAHandshakeAnswer) {
  StatusOr<Handshake> h = ParseHandshake(
      R"({"protocol":"schedref-conformance","version":1,"name":"mine",)"
      R"("capabilities":{"unsupported":["preemption","test-plugins"]},)"
      R"("later":"ignored"})");
  ASSERT_TRUE(h.ok()) << h.status().message();
  EXPECT_EQ(*h, (Handshake{"mine", {"preemption", "test-plugins"}}));
}

TEST(ProtocolTest, CapabilitiesAreOptional) {
  StatusOr<Handshake> h = ParseHandshake(
      R"({"protocol":"schedref-conformance","version":1,"name":"mine"})");
  ASSERT_TRUE(h.ok()) << h.status().message();
  EXPECT_EQ(*h, (Handshake{"mine", {}}));
}

TEST(ProtocolTest, RejectsBadHandshakeAnswers) {
  struct Case {
    std::string line;
    std::string error;
  };
  const Case cases[] = {
      {"hello", "handshake answer is not a JSON object: hello"},
      {"[1]", "handshake answer is not a JSON object: [1]"},
      {R"({"kind":"error","message":"no thanks"})",
       "implementation refused the handshake: no thanks"},
      {R"({"protocol":"other","version":1,"name":"x"})",
       "handshake answer: protocol: want \"schedref-conformance\""},
      {R"({"protocol":"schedref-conformance","name":"x"})",
       "handshake answer: version: missing or not an integer"},
      {R"({"protocol":"schedref-conformance","version":2,"name":"x"})",
       "implementation speaks protocol version 2; this runner speaks "
       "version 1"},
      {R"({"protocol":"schedref-conformance","version":1})",
       "handshake answer: name: missing or empty"},
      {R"({"protocol":"schedref-conformance","version":1,"name":""})",
       "handshake answer: name: missing or empty"},
      {R"({"protocol":"schedref-conformance","version":1,"name":"x",)"
       R"("capabilities":[]})",
       "handshake answer: capabilities: not an object"},
      {R"({"protocol":"schedref-conformance","version":1,"name":"x",)"
       R"("capabilities":{"unsupported":"preemption"}})",
       "handshake answer: capabilities.unsupported: not a list"},
      {R"({"protocol":"schedref-conformance","version":1,"name":"x",)"
       R"("capabilities":{"unsupported":[1]}})",
       "handshake answer: capabilities.unsupported: not a list of strings"},
  };
  for (const Case& c : cases) {
    StatusOr<Handshake> h = ParseHandshake(c.line);
    ASSERT_FALSE(h.ok()) << c.line;
    EXPECT_TRUE(h.status().IsInvalid()) << c.line;
    EXPECT_EQ(h.status().message(), c.error) << c.line;
  }
}

TEST(ProtocolTest, RunRequestCarriesTheScenarioAsAJsonString) {
  EXPECT_EQ(RunRequest("golden/a.yaml", "schedref: scenario/v1\nname: \"a\"\n"),
            R"({"file":"golden/a.yaml","kind":"run","options":{},)"
            R"("scenario":"schedref: scenario/v1\nname: \"a\"\n"})");
}

TEST(ProtocolTest, RunRequestAsksForFeasibleNodesInLegalChoiceMode) {
  EXPECT_EQ(RunRequest("f", "s", /*feasible_nodes=*/true),
            R"({"file":"f","kind":"run","options":{"feasibleNodes":true},)"
            R"("scenario":"s"})");
}

TEST(ProtocolTest, RunRequestReplacesInvalidUtf8) {
  EXPECT_EQ(RunRequest("f", "a\xff"),
            "{\"file\":\"f\",\"kind\":\"run\",\"options\":{},"
            "\"scenario\":\"a\xEF\xBF\xBD\"}");
}

TEST(ProtocolTest, ClassifiesResponseLines) {
  using Kind = ResponseLine::Kind;
  struct Case {
    std::string line;
    Kind kind;
    std::string message;
  };
  const Case cases[] = {
      {R"({"format":"schedref-trace","kind":"header","version":1})",
       Kind::kTrace, ""},
      {R"({"kind":"attempt","t":0})", Kind::kTrace, ""},
      {R"({"placements":{},"kind":"placements"})", Kind::kPlacements, ""},
      {R"({"kind":"error","message":"cannot parse"})", Kind::kError,
       "cannot parse"},
      {R"({"kind":"error"})", Kind::kError, "(no message)"},
      {"oops", Kind::kMalformed, "not a JSON object: oops"},
      {"42", Kind::kMalformed, "not a JSON object: 42"},
  };
  for (const Case& c : cases) {
    ResponseLine r = ClassifyResponseLine(c.line);
    EXPECT_EQ(r.kind, c.kind) << c.line;
    EXPECT_EQ(r.message, c.message) << c.line;
  }
}

}  // namespace
}  // namespace schedref::conformance
