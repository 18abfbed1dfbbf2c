// Reading Kubernetes manifests: YAML or JSON text -> JSON documents, and a
// typed reader over one document that names the file, the object and the
// field path in every error. Specification: the YAML -> JSON conversion
// kubectl and the API server use (sigs.k8s.io/yaml, which resolves plain
// scalars the YAML 1.1 way of gopkg.in/yaml.v2) and encoding/json's typing.
//
// The reader is generic on purpose: the object decoder (api/codec/decode.h), the
// scheduler configuration and the scenario codecs all read through it, so
// every bad input is reported in the same form:
//
//   <file>: <object>: <field.path>: <problem>
//   nodes.yaml: Node n1: status.allocatable.cpu: quantity "abc": ...
//   pods.json: Pod default/p: spec.priority: expected integer, got string
//
// "<object>: " is left out when the reader has no object descriptor (e.g. a
// configuration file) and "<field.path>: " when the problem is the document
// itself. Absent fields and fields set to null are the same thing, as they
// are for encoding/json. Unknown fields are ignored.
#ifndef SCHEDREF_API_MANIFEST_H_
#define SCHEDREF_API_MANIFEST_H_

#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/status.h"

namespace schedref::api {

// Splits `text` into documents. Text whose first non-blank character is '{'
// or '[' is JSON: a stream of one or more JSON values. Anything else is
// YAML, possibly several documents separated by "---"; empty documents are
// skipped. Plain YAML scalars are typed like sigs.k8s.io/yaml does
// (null/~/empty -> null, true/false/yes/no/on/off -> bool, integers in
// decimal/0x/0o/0b/legacy-octal -> integer, floats -> number, everything
// else -> string); quoted scalars and !!str stay strings. Keys resolve the
// same way and are then written as text, so a plain key `n` becomes
// "false", exactly as kubectl reads it. "<<" merge keys are applied.
//
// Errors: "<file>:<line>:<column>: <what>" (1-based line and column).
[[nodiscard]] StatusOr<std::vector<nlohmann::json>> ParseDocuments(
    std::string_view text, const std::string& file);

// The JSON type name used in "expected X, got Y" messages: "null",
// "boolean", "integer", "number" (a float), "string", "array", "object".
[[nodiscard]] std::string JsonTypeName(const nlohmann::json& value);

// A position inside one document: the value there (possibly absent) and
// where it is. Cheap to copy; refers to the document without owning it.
//
// REQUIRES: the document outlives the reader and every reader derived
// from it.
//
// Conventions of the accessors below:
//  - An absent reader reads as an empty object: every field is absent.
//  - A present reader that is not an object fails every keyed accessor with
//    "expected object, got <type>" at its own path.
//  - Optional accessors leave *out untouched when the field is absent.
//  - Required accessors fail with "required field is missing" when it is
//    absent and, for strings, "must not be empty" when it is "".
class FieldReader {
 public:
  // `object` describes the object for messages ("Pod default/web-1",
  // "Node n1", "Pod <document #3>"); it may be empty.
  FieldReader(const nlohmann::json& document, std::string file,
              std::string object);

  // The same position, with a new object descriptor (set once the decoder
  // has read the object's name).
  [[nodiscard]] FieldReader WithObject(std::string object) const;

  // True iff the value exists and is not null.
  [[nodiscard]] bool present() const { return value_ != nullptr; }
  // REQUIRES: present().
  [[nodiscard]] const nlohmann::json& json() const { return *value_; }
  // Dotted path from the document root, e.g. "spec.containers[0].name";
  // empty at the root.
  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] const std::string& file() const { return file_; }
  [[nodiscard]] const std::string& object() const { return object_; }

  // Status::Invalid("<file>: <object>: <path>: <problem>").
  [[nodiscard]] Status Error(std::string_view problem) const;
  // The same for a field below this one, given by its relative path
  // ("matchExpressions[0].values", "[2].key"; "" is this value).
  [[nodiscard]] Status ErrorAt(std::string_view relative_path,
                               std::string_view problem) const;

  // Ok iff the value is absent or an object.
  [[nodiscard]] Status ExpectObject() const;

  // --- Children ---------------------------------------------------------
  // The field `key`, of any type (absent if missing).
  [[nodiscard]] StatusOr<FieldReader> Field(std::string_view key) const;
  // The field `key`, which must be absent or an object.
  [[nodiscard]] StatusOr<FieldReader> Object(std::string_view key) const;
  // The elements of the array `key` (empty if absent), at "key[i]".
  [[nodiscard]] StatusOr<std::vector<FieldReader>> Array(
      std::string_view key) const;
  // The entries of the object `key` (empty if absent), in key order, each
  // at "key.<entry>".
  [[nodiscard]] StatusOr<std::vector<std::pair<std::string, FieldReader>>>
  Entries(std::string_view key) const;

  // --- Scalars of this value --------------------------------------------
  // REQUIRES for all: present().
  [[nodiscard]] Status AsString(std::string* out) const;
  [[nodiscard]] Status AsBool(bool* out) const;
  // Integers; a number with no fractional part (3.0) is accepted, 3.5 and
  // out-of-range values are not.
  [[nodiscard]] Status AsInt64(int64_t* out) const;
  [[nodiscard]] Status AsInt32(int32_t* out) const;
  // A string, or a number rendered as text: what resource.Quantity accepts.
  [[nodiscard]] Status AsScalarText(std::string* out) const;

  // --- Keyed scalars ----------------------------------------------------
  [[nodiscard]] Status String(std::string_view key, std::string* out) const;
  [[nodiscard]] Status String(std::string_view key,
                              std::optional<std::string>* out) const;
  [[nodiscard]] Status RequiredString(std::string_view key,
                                      std::string* out) const;
  // A string that must be one of `allowed` when present. The message lists
  // them: unsupported value "X" (supported: "A", "B").
  [[nodiscard]] Status Enum(std::string_view key,
                            std::initializer_list<std::string_view> allowed,
                            std::string* out) const;
  [[nodiscard]] Status Enum(std::string_view key,
                            std::initializer_list<std::string_view> allowed,
                            std::optional<std::string>* out) const;

  [[nodiscard]] Status Bool(std::string_view key, bool* out) const;
  [[nodiscard]] Status Bool(std::string_view key,
                            std::optional<bool>* out) const;

  [[nodiscard]] Status Int32(std::string_view key, int32_t* out) const;
  [[nodiscard]] Status Int32(std::string_view key,
                             std::optional<int32_t>* out) const;
  [[nodiscard]] Status RequiredInt32(std::string_view key,
                                     int32_t* out) const;
  [[nodiscard]] Status Int64(std::string_view key, int64_t* out) const;
  [[nodiscard]] Status Int64(std::string_view key,
                             std::optional<int64_t>* out) const;
  [[nodiscard]] Status RequiredInt64(std::string_view key,
                                     int64_t* out) const;

  // --- Keyed collections of strings --------------------------------------
  // Replaces *out when present; every value must be a string.
  [[nodiscard]] Status StringMap(std::string_view key,
                                 std::map<std::string, std::string>* out) const;
  [[nodiscard]] Status StringList(std::string_view key,
                                  std::vector<std::string>* out) const;

 private:
  FieldReader(const nlohmann::json* value, std::string file,
              std::string object, std::string path);
  FieldReader Child(std::string path, const nlohmann::json* value) const;
  std::string ChildPath(std::string_view key) const;

  const nlohmann::json* value_;  // nullptr: absent or null
  std::string file_;
  std::string object_;
  std::string path_;
};

}  // namespace schedref::api

#endif  // SCHEDREF_API_MANIFEST_H_
