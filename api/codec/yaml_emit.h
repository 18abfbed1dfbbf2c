// The YAML writer behind golden files: a JSON document as the subset of
// YAML that reads back through api::ParseDocuments (manifest.h) as the same
// JSON, in the key order given. Specification: YAML 1.2 block mappings and
// sequences, plain scalars only where a reader cannot take them for
// another type, literal blocks for multi-line text, double quotes (with
// escapes) for the rest.
#ifndef SCHEDREF_API_YAML_EMIT_H_
#define SCHEDREF_API_YAML_EMIT_H_

#include <string>

#include <nlohmann/json.hpp>

namespace schedref::api {

// `document` (a JSON object) as a YAML block mapping at indent 0, ending in
// a newline.
[[nodiscard]] std::string EmitYamlMapping(const nlohmann::ordered_json& document);

// `v` with every object's keys in sorted order, as an ordered_json.
[[nodiscard]] nlohmann::ordered_json ToOrdered(const nlohmann::json& v);

}  // namespace schedref::api

#endif  // SCHEDREF_API_YAML_EMIT_H_
