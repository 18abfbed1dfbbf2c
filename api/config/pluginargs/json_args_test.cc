#include "api/config/pluginargs/json_args.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace schedref::api::pluginargs {
namespace {

using nlohmann::json;

TEST(JsonArgsTest, Paths) {
  EXPECT_EQ(FieldPath("", "a"), "a");
  EXPECT_EQ(FieldPath("a", "b"), "a.b");
  EXPECT_EQ(IndexPath("a.b", 3), "a.b[3]");
  EXPECT_EQ(IndexPath("", 0), "[0]");
}

TEST(JsonArgsTest, CheckObject) {
  struct Case {
    std::string name;
    json value;
    std::string path;
    std::string want;  // "" = ok
  };
  const std::vector<Case> cases = {
      {"null is unset", nullptr, "", ""},
      {"known keys", json{{"a", 1}, {"b", 2}}, "", ""},
      {"unknown at the top", json{{"c", 1}}, "",
       "strict decoding error: unknown field \"c\""},
      {"unknown nested", json{{"c", 1}}, "x[0]",
       "strict decoding error: unknown field \"x[0].c\""},
      {"not an object at the top", json::array(), "", "args: expected an object"},
      {"not an object nested", json(3), "x", "x: expected an object"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(CheckObject(c.value, c.path, {"a", "b"}).message(), c.want);
  }
}

TEST(JsonArgsTest, TypedReads) {
  const json obj = {{"s", "x"}, {"n", nullptr}};
  EXPECT_TRUE(Has(obj, "s"));
  EXPECT_FALSE(Has(obj, "n"));
  EXPECT_FALSE(Has(obj, "missing"));
  EXPECT_FALSE(Has(json::array(), "s"));

  EXPECT_EQ(*ReadString(json("v"), "p"), "v");
  EXPECT_EQ(ReadString(json(1), "p").status().message(),
            "p: expected a string");

  EXPECT_EQ(*ReadInt(json(-5), "p", -10, 10), -5);
  EXPECT_EQ(ReadInt(json(11), "p", -10, 10).status().message(),
            "p: integer out of range");
  EXPECT_EQ(ReadInt(json(1.5), "p", -10, 10).status().message(),
            "p: expected an integer");
  // YAML's 2.0 reaches upstream's decoder as JSON 2 (sigs.k8s.io/yaml).
  EXPECT_EQ(*ReadInt(json(2.0), "p", -10, 10), 2);
  EXPECT_EQ(ReadInt(json(11.0), "p", -10, 10).status().message(),
            "p: integer out of range");
  EXPECT_EQ(ReadInt(json(1e300), "p", INT64_MIN, INT64_MAX).status().message(),
            "p: integer out of range");
  EXPECT_EQ(ReadInt(json(UINT64_MAX), "p", INT64_MIN, INT64_MAX)
                .status()
                .message(),
            "p: integer out of range");

  EXPECT_EQ(*ReadStringList(json::array({"a", "b"}), "p"),
            (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(ReadStringList(nullptr, "p")->empty());
  EXPECT_EQ(ReadStringList(json::array({"a", 2}), "p").status().message(),
            "p[1]: expected a string");
  EXPECT_EQ(ReadStringList(json("a"), "p").status().message(),
            "p: expected a list of strings");

  EXPECT_TRUE(CheckArray(nullptr, "p").ok());
  EXPECT_TRUE(CheckArray(json::array(), "p").ok());
  EXPECT_EQ(CheckArray(json::object(), "p").message(), "p: expected a list");
}

// field.Error.Error() shapes, as upstream's validation tests print them.
TEST(JsonArgsTest, FieldErrors) {
  EXPECT_EQ(GoQuote("a\"b\\c\n\x01"), "\"a\\\"b\\\\c\\n\\x01\"");
  EXPECT_EQ(FieldInvalid("p", std::string("v"), "why"),
            "p: Invalid value: \"v\": why");
  EXPECT_EQ(FieldInvalid("p", int64_t{-1}, "why"), "p: Invalid value: -1: why");
  EXPECT_EQ(FieldNotSupported("p", "c", {"a", "b"}),
            "p: Unsupported value: \"c\": supported values: \"a\", \"b\"");
  EXPECT_EQ(FieldRequired("p", "can not be empty"),
            "p: Required value: can not be empty");
  EXPECT_EQ(FieldDuplicate("p", "v"), "p: Duplicate value: \"v\"");
  EXPECT_EQ(AggregateMessage({"e1"}), "e1");
  EXPECT_EQ(AggregateMessage({"e1", "e2"}), "[e1, e2]");
}

}  // namespace
}  // namespace schedref::api::pluginargs
