#include "api/codec/manifest.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace schedref::api {
namespace {

using nlohmann::json;

json ParseOne(const std::string& text) {
  StatusOr<std::vector<json>> docs = ParseDocuments(text, "f.yaml");
  EXPECT_TRUE(docs.ok()) << docs.status().message();
  if (!docs.ok() || docs->size() != 1) return json();
  return (*docs)[0];
}

// How plain YAML scalars are typed: yaml.v2's resolve() as used by
// sigs.k8s.io/yaml (YAMLToJSON).
TEST(ParseDocumentsTest, YamlScalarTyping) {
  struct Case {
    std::string yaml;
    json want;
  };
  const std::vector<Case> cases = {
      {"abc", "abc"},
      {"\"abc\"", "abc"},
      {"'123'", "123"},
      {"\"true\"", "true"},
      {"!!str 12", "12"},
      {"123", 123},
      {"-123", -123},
      {"+7", 7},
      {"0x1F", 31},
      {"0o17", 15},
      {"017", 15},
      {"0b101", 5},
      {"1_000", 1000},
      {"08", 8.0},  // not octal, but a yaml.v2 float
      {"1.5", 1.5},
      {".5", 0.5},
      {"1e3", 1000.0},
      {"9223372036854775807", INT64_MAX},
      {"-9223372036854775808", INT64_MIN},
      {"18446744073709551615", UINT64_MAX},
      {"1e400x", "1e400x"},
      {"true", true},
      {"True", true},
      {"yes", true},
      {"on", true},
      {"Y", true},
      {"false", false},
      {"no", false},
      {"OFF", false},
      {"~", nullptr},
      {"null", nullptr},
      {"2023-01-02T03:04:05Z", "2023-01-02T03:04:05Z"},
      {"100m", "100m"},
      {"1Gi", "1Gi"},
      {"|\n  line\n", "line\n"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.yaml);
    const json doc = ParseOne("v: " + c.yaml + "\n");
    ASSERT_TRUE(doc.is_object());
    EXPECT_EQ(doc["v"], c.want);
    EXPECT_EQ(doc["v"].type(), c.want.type());
  }
}

TEST(ParseDocumentsTest, YamlKeysBecomeStrings) {
  // Surprising but upstream: a plain key y or n is a boolean in YAML 1.1.
  const json doc = ParseOne("1: a\nyes: b\n\"no\": c\nn: d\n");
  EXPECT_EQ(doc,
            json({{"1", "a"}, {"true", "b"}, {"no", "c"}, {"false", "d"}}));
}

TEST(ParseDocumentsTest, YamlAnchorsAndMergeKeys) {
  const json doc = ParseOne(
      "base: &b {p: 1, q: 2}\n"
      "derived:\n"
      "  <<: *b\n"
      "  q: 3\n"
      "list: [*b, *b]\n");
  EXPECT_EQ(doc["derived"], json({{"p", 1}, {"q", 3}}));
  EXPECT_EQ(doc["list"], json::array({{{"p", 1}, {"q", 2}},
                                      {{"p", 1}, {"q", 2}}}));
}

TEST(ParseDocumentsTest, YamlMultiDocumentSkipsEmptyDocuments) {
  StatusOr<std::vector<json>> docs = ParseDocuments(
      "---\na: 1\n---\n---\n# only a comment\n---\nb: 2\n...\n", "f.yaml");
  ASSERT_TRUE(docs.ok()) << docs.status().message();
  ASSERT_EQ(docs->size(), 2u);
  EXPECT_EQ((*docs)[0], json({{"a", 1}}));
  EXPECT_EQ((*docs)[1], json({{"b", 2}}));
}

TEST(ParseDocumentsTest, EmptyTextHasNoDocuments) {
  for (const char* text : {"", "   \n", "# nothing\n", "---\n"}) {
    StatusOr<std::vector<json>> docs = ParseDocuments(text, "f.yaml");
    ASSERT_TRUE(docs.ok()) << docs.status().message();
    EXPECT_TRUE(docs->empty()) << text;
  }
}

TEST(ParseDocumentsTest, JsonStream) {
  StatusOr<std::vector<json>> docs =
      ParseDocuments("\xEF\xBB\xBF  {\"a\": 1}\n{\"b\": [1, 2.5, \"x\"]}\n",
                     "f.json");
  ASSERT_TRUE(docs.ok()) << docs.status().message();
  ASSERT_EQ(docs->size(), 2u);
  EXPECT_EQ((*docs)[0], json({{"a", 1}}));
  EXPECT_EQ((*docs)[1], json({{"b", {1, 2.5, "x"}}}));
}

TEST(ParseDocumentsTest, Errors) {
  struct Case {
    std::string text;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"a: [1, 2\n", "f:2:1: end of sequence flow not found"},
      {"a: b\n c: d\n", "f:2:3: illegal map value"},
      {"a: .inf\n", "f:1:4: value .inf cannot be represented in JSON"},
      {"a: !!int abc\n", "f:1:4: cannot decode `abc` as a !!int"},
      {"? [1, 2]\n: x\n",
       "f:1:3: unsupported map key: keys must be strings, numbers or "
       "booleans"},
      {"&a [*a]\n", "f:1:5: an alias refers to a node that contains it"},
      {"a: " + std::string(250, '[') + std::string(250, ']') + "\n",
       "f:1:204: document nested more than 200 levels deep"},
      // yaml-cpp 0.7's LoadAll loops forever on these (issue #1040).
      {",", "f:1:1: invalid YAML: unexpected character ','"},
      {"a: 1\n---\n,{a}\n", "f:3:1: invalid YAML: unexpected character ','"},
      {"{\"a\": 1,\n \"b\": }",
       "f:2:7: syntax error while parsing value - unexpected '}'; expected "
       "'[', '{', or a literal"},
      {"{\"a\": 1} {\"b\"",
       "f:1:14: syntax error while parsing object separator - unexpected "
       "end of input; expected ':'"},
      // Strict decoding: a repeated key is an error, at the second one.
      {"a: 1\nb: 2\na: 3\n", "f:3:1: duplicate key \"a\""},
      {"spec:\n  x: {p: 1, p: 2}\n", "f:2:13: duplicate key \"p\""},
      {"1: a\n\"1\": b\n", "f:2:1: duplicate key \"1\""},
      {"{\"a\": 1}\n{\"spec\": {\"c\": [{\"n\": 1}, {\"n\": 2, \"n\": 3}]}}",
       "f:2:1: spec.c[1]: duplicate key \"n\""},
      {"{\"a\": 1, \"a\": 1}", "f:1:1: duplicate key \"a\""},
      // go-yaml's reader: UTF-8 only, printable characters only.
      {"a: b\xff\n", "f:1:5: invalid UTF-8 byte 0xFF (YAML text must be UTF-8)"},
      {"a: \xc3(\n", "f:1:5: invalid UTF-8 byte 0x28 (YAML text must be UTF-8)"},
      {"a: \xc0\xaf\n", "f:1:4: invalid UTF-8 byte 0xC0 (YAML text must be UTF-8)"},
      {"a: \xed\xa0\x80\n",
       "f:1:5: invalid UTF-8 byte 0xA0 (YAML text must be UTF-8)"},
      {"a: \xe2\x82", "f:1:4: incomplete UTF-8 sequence at the end of the text"},
      {std::string("a: b\0c\n", 7), "f:1:5: control character U+0000 is not allowed in YAML"},
      {"a:\n  b: \x01\n", "f:2:6: control character U+0001 is not allowed in YAML"},
      {std::string("\xff\xfe" "a\0:\0", 6), "f:1:1: invalid UTF-8 byte 0xFF (YAML text must be UTF-8)"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    StatusOr<std::vector<json>> docs = ParseDocuments(c.text, "f");
    ASSERT_FALSE(docs.ok());
    EXPECT_TRUE(docs.status().IsInvalid());
    EXPECT_EQ(docs.status().message(), c.want);
  }
}

TEST(ParseDocumentsTest, MergedKeysAreNotDuplicates) {
  // An explicit key overrides what "<<" merges in; that is not a repeat.
  StatusOr<std::vector<json>> docs =
      ParseDocuments("base: &b {p: 1, q: 2}\nd: {<<: *b, q: 3}\n", "f");
  ASSERT_TRUE(docs.ok()) << docs.status().message();
  EXPECT_EQ((*docs)[0]["d"], json({{"p", 1}, {"q", 3}}));
}

TEST(ParseDocumentsTest, YamlAcceptsPrintableUnicode) {
  // Tab, CR, NEL, non-ASCII letters, a supplementary-plane character and
  // a BOM inside the text are all printable to go-yaml.
  StatusOr<std::vector<json>> docs = ParseDocuments(
      "a: \"x\ty\"\r\nb: \xc3\xa9t\xc3\xa9 \xf0\x9f\x98\x80\nc: \xc2\x85\n", "f");
  ASSERT_TRUE(docs.ok()) << docs.status().message();
  EXPECT_EQ((*docs)[0]["a"], "x\ty");
  EXPECT_EQ((*docs)[0]["b"], "\xc3\xa9t\xc3\xa9 \xf0\x9f\x98\x80");
}

TEST(ParseDocumentsTest, AliasBombIsRejected) {
  std::string text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i < 9; ++i) {
    const std::string prev = "*a" + std::to_string(i - 1);
    text += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
    for (int j = 0; j < 10; ++j) text += (j ? ", " : "") + prev;
    text += "]\n";
  }
  StatusOr<std::vector<json>> docs = ParseDocuments(text, "f");
  ASSERT_FALSE(docs.ok());
  EXPECT_NE(docs.status().message().find("alias expansion"),
            std::string::npos)
      << docs.status().message();
}

// --- FieldReader ---------------------------------------------------------------

class FieldReaderTest : public ::testing::Test {
 protected:
  FieldReaderTest()
      : doc_(json::parse(R"({
          "s": "text", "empty": "", "i": 42, "big": 3000000000,
          "u": 18446744073709551615, "f": 1.5, "whole": 3.0, "b": true,
          "n": null, "m": {"a": "1", "b": "2"}, "badmap": {"a": 1},
          "l": ["x", "y"], "badlist": ["x", 2], "o": {"inner": {"k": 7}},
          "arr": [{"k": 1}, {"k": "two"}]
        })")),
        root_(doc_, "f.yaml", "Pod default/p") {}

  json doc_;
  FieldReader root_;
};

TEST_F(FieldReaderTest, Strings) {
  std::string s = "unchanged";
  ASSERT_TRUE(root_.String("missing", &s).ok());
  EXPECT_EQ(s, "unchanged");
  ASSERT_TRUE(root_.String("n", &s).ok());
  EXPECT_EQ(s, "unchanged");
  ASSERT_TRUE(root_.String("s", &s).ok());
  EXPECT_EQ(s, "text");

  std::optional<std::string> opt;
  ASSERT_TRUE(root_.String("missing", &opt).ok());
  EXPECT_FALSE(opt.has_value());
  ASSERT_TRUE(root_.String("empty", &opt).ok());
  EXPECT_EQ(opt, "");

  EXPECT_EQ(root_.String("i", &s).message(),
            "f.yaml: Pod default/p: i: expected string, got integer");
  EXPECT_EQ(root_.RequiredString("missing", &s).message(),
            "f.yaml: Pod default/p: missing: required field is missing");
  EXPECT_EQ(root_.RequiredString("empty", &s).message(),
            "f.yaml: Pod default/p: empty: must not be empty");
}

TEST_F(FieldReaderTest, Enums) {
  std::string s;
  EXPECT_EQ(root_.Enum("s", {"A", "B"}, &s).message(),
            "f.yaml: Pod default/p: s: unsupported value \"text\" "
            "(supported: \"A\", \"B\")");
  ASSERT_TRUE(root_.Enum("s", {"A", "text"}, &s).ok());
  EXPECT_EQ(s, "text");
}

TEST_F(FieldReaderTest, Integers) {
  int32_t i32 = -1;
  int64_t i64 = -1;
  ASSERT_TRUE(root_.Int32("missing", &i32).ok());
  EXPECT_EQ(i32, -1);
  ASSERT_TRUE(root_.Int32("i", &i32).ok());
  EXPECT_EQ(i32, 42);
  ASSERT_TRUE(root_.Int32("whole", &i32).ok());
  EXPECT_EQ(i32, 3);
  ASSERT_TRUE(root_.Int64("big", &i64).ok());
  EXPECT_EQ(i64, 3000000000);

  EXPECT_EQ(root_.Int32("big", &i32).message(),
            "f.yaml: Pod default/p: big: integer 3000000000 is out of range "
            "for int32");
  EXPECT_EQ(root_.Int64("u", &i64).message(),
            "f.yaml: Pod default/p: u: integer 18446744073709551615 is out "
            "of range");
  EXPECT_EQ(root_.Int32("f", &i32).message(),
            "f.yaml: Pod default/p: f: expected integer, got number 1.5");
  EXPECT_EQ(root_.Int32("s", &i32).message(),
            "f.yaml: Pod default/p: s: expected integer, got string");
  EXPECT_EQ(root_.RequiredInt32("missing", &i32).message(),
            "f.yaml: Pod default/p: missing: required field is missing");

  std::optional<int64_t> opt;
  ASSERT_TRUE(root_.Int64("n", &opt).ok());
  EXPECT_FALSE(opt.has_value());
  ASSERT_TRUE(root_.Int64("i", &opt).ok());
  EXPECT_EQ(opt, 42);
}

TEST_F(FieldReaderTest, Bools) {
  bool b = false;
  ASSERT_TRUE(root_.Bool("b", &b).ok());
  EXPECT_TRUE(b);
  EXPECT_EQ(root_.Bool("s", &b).message(),
            "f.yaml: Pod default/p: s: expected boolean, got string");
}

TEST_F(FieldReaderTest, Collections) {
  std::map<std::string, std::string> m;
  ASSERT_TRUE(root_.StringMap("m", &m).ok());
  EXPECT_EQ(m, (std::map<std::string, std::string>{{"a", "1"}, {"b", "2"}}));
  EXPECT_EQ(root_.StringMap("badmap", &m).message(),
            "f.yaml: Pod default/p: badmap.a: expected string, got integer");
  EXPECT_EQ(root_.StringMap("s", &m).message(),
            "f.yaml: Pod default/p: s: expected object, got string");

  std::vector<std::string> l;
  ASSERT_TRUE(root_.StringList("l", &l).ok());
  EXPECT_EQ(l, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(root_.StringList("badlist", &l).message(),
            "f.yaml: Pod default/p: badlist[1]: expected string, got "
            "integer");
  EXPECT_EQ(root_.StringList("m", &l).message(),
            "f.yaml: Pod default/p: m: expected array, got object");
}

TEST_F(FieldReaderTest, NestedPaths) {
  StatusOr<FieldReader> o = root_.Object("o");
  ASSERT_TRUE(o.ok());
  StatusOr<FieldReader> inner = o->Object("inner");
  ASSERT_TRUE(inner.ok());
  std::string s;
  EXPECT_EQ(inner->String("k", &s).message(),
            "f.yaml: Pod default/p: o.inner.k: expected string, got integer");

  StatusOr<std::vector<FieldReader>> arr = root_.Array("arr");
  ASSERT_TRUE(arr.ok());
  ASSERT_EQ(arr->size(), 2u);
  int32_t k = 0;
  ASSERT_TRUE((*arr)[0].Int32("k", &k).ok());
  EXPECT_EQ(k, 1);
  EXPECT_EQ((*arr)[1].Int32("k", &k).message(),
            "f.yaml: Pod default/p: arr[1].k: expected integer, got string");

  // Fields of an absent object are absent.
  StatusOr<FieldReader> missing = root_.Object("missing");
  ASSERT_TRUE(missing.ok());
  EXPECT_FALSE(missing->present());
  StatusOr<FieldReader> deeper = missing->Object("deeper");
  ASSERT_TRUE(deeper.ok());
  EXPECT_FALSE(deeper->present());
  EXPECT_EQ(deeper->path(), "missing.deeper");

  StatusOr<FieldReader> not_object = root_.Object("l");
  ASSERT_FALSE(not_object.ok());
  EXPECT_EQ(not_object.status().message(),
            "f.yaml: Pod default/p: l: expected object, got array");
}

TEST_F(FieldReaderTest, MessagesWithoutObjectOrPath) {
  FieldReader config(doc_, "config.yaml", "");
  std::string s;
  EXPECT_EQ(config.String("i", &s).message(),
            "config.yaml: i: expected string, got integer");
  EXPECT_EQ(config.Error("bad document").message(),
            "config.yaml: bad document");
  EXPECT_EQ(root_.WithObject("Node n1").Error("x").message(),
            "f.yaml: Node n1: x");

  const json scalar = "just a string";
  FieldReader top(scalar, "f.yaml", "<document #1>");
  EXPECT_EQ(top.ExpectObject().message(),
            "f.yaml: <document #1>: expected object, got string");
}

TEST_F(FieldReaderTest, ScalarText) {
  const json doc = json::parse(R"({"a": "100m", "b": 2, "c": 0.5, "d": true})");
  FieldReader r(doc, "f", "");
  std::string s;
  StatusOr<FieldReader> f = r.Field("a");
  ASSERT_TRUE(f.ok());
  ASSERT_TRUE(f->AsScalarText(&s).ok());
  EXPECT_EQ(s, "100m");
  f = r.Field("b");
  ASSERT_TRUE(f->AsScalarText(&s).ok());
  EXPECT_EQ(s, "2");
  f = r.Field("c");
  ASSERT_TRUE(f->AsScalarText(&s).ok());
  EXPECT_EQ(s, "0.5");
  f = r.Field("d");
  EXPECT_EQ(f->AsScalarText(&s).message(),
            "f: d: expected string or number, got boolean");
}

}  // namespace
}  // namespace schedref::api
