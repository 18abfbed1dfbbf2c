#include "api/codec/yaml_emit.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "api/codec/manifest.h"

namespace schedref::api {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

// Every string, written as a value, reads back as that same string: the
// plain scalars the writer chooses without asking the reader and the ones
// it must quote (YAML 1.1 bools, nulls, numbers, timestamps) alike.
TEST(EmitYamlMappingTest, StringsReadBackAsStrings) {
  const std::vector<std::string> cases = {
      // Settled by a letter no number or timestamp has.
      "web-7", "128Mi", "100m", "shop", "kubernetes.io/hostname", "node_1", "2m0s",
      // The bool and null words, in each case form.
      "y", "Y", "n", "N", "yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON",
      "oN", "off", "Off", "OFF", "true", "True", "TRUE", "false", "False", "null",
      "Null", "NULL",
      // Only hex letters and prefixes: numbers, or strings the reader decides.
      "1", "12", "0x1F", "0X1f", "0o17", "0b101", "1e3", "1E3", "1_000", "0.5",
      "2001-12-14", "abc", "c", "face", "0xfoo", "Bad", "e", "x", "o",
  };
  for (const std::string& s : cases) {
    SCOPED_TRACE(s);
    ordered_json doc = ordered_json::object();
    doc["v"] = s;
    const std::string text = EmitYamlMapping(doc);
    StatusOr<std::vector<json>> back = ParseDocuments(text, "emit.yaml");
    ASSERT_TRUE(back.ok()) << back.status().message() << "\n" << text;
    ASSERT_EQ(back->size(), 1u);
    EXPECT_EQ((*back)[0].at("v"), json(s)) << text;
  }
}

// Names with a letter beyond the hex digits go out plain.
TEST(EmitYamlMappingTest, NamesArePlain) {
  for (const std::string s : {"web-7", "128Mi", "shop", "kubernetes.io/hostname"}) {
    ordered_json doc = ordered_json::object();
    doc["v"] = s;
    EXPECT_EQ(EmitYamlMapping(doc), "v: " + s + "\n");
  }
}

}  // namespace
}  // namespace schedref::api
