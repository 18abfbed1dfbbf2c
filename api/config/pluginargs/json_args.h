// Plugin-args JSON reading and field errors (apimachinery field/errors.go).
//
// Upstream: strict decoding of k8s.io/kube-scheduler/config/v1
// types_pluginargs.go, and k8s.io/apimachinery/pkg/util/validation/field
// errors.go (field.Error.Error, ErrorList.ToAggregate) for the messages.
//
// Reading plugin args (pluginConfig[].args) from JSON the way upstream's
// strict decoding does: unknown fields and wrong types are errors. Field
// paths in messages are relative to the args object
// ("scoringStrategy.resources[0].weight"), as upstream's validation reports
// them when a plugin validates its own args (path nil).
//
// An absent or null field means "not set"; the caller applies defaults.
//
// Note: decoding errors (unknown field, wrong type) keep upstream's meaning
// but not its wording, which is that of Go's encoding/json
// (docs/deviations.md); validation errors (field.Error) keep the wording.
#ifndef SCHEDREF_API_PLUGINARGS_JSON_ARGS_H_
#define SCHEDREF_API_PLUGINARGS_JSON_ARGS_H_

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/status.h"

namespace schedref::api::pluginargs {

// "a.b" (or "b" when `path` is empty).
std::string FieldPath(const std::string& path, const std::string& key);
// "a[3]".
std::string IndexPath(const std::string& path, size_t index);

// Ok iff `value` is null or an object whose keys are all in `allowed`.
// Errors: "<path>: expected an object" /
// `strict decoding error: unknown field "<path.key>"`.
[[nodiscard]] schedref::Status CheckObject(
    const nlohmann::json& value, const std::string& path,
    std::initializer_list<const char*> allowed);

// True iff `object` has `key` with a non-null value.
bool Has(const nlohmann::json& object, const char* key);

// Typed reads of a present value; errors name the path and the type wanted.
[[nodiscard]] StatusOr<std::string> ReadString(const nlohmann::json& value,
                                               const std::string& path);
// Integers in [min, max]. A number written with a fraction part that is
// zero ("2.0") is the integer: upstream's YAML-to-JSON step (sigs.k8s.io/
// yaml) turns it into "2" before the strict decoder reads it. Any other
// fraction is an error.
[[nodiscard]] StatusOr<int64_t> ReadInt(const nlohmann::json& value,
                                        const std::string& path, int64_t min,
                                        int64_t max);
[[nodiscard]] StatusOr<std::vector<std::string>> ReadStringList(
    const nlohmann::json& value, const std::string& path);
// Ok iff `value` is null or an array.
[[nodiscard]] schedref::Status CheckArray(const nlohmann::json& value,
                                          const std::string& path);

// One field.Error rendered as upstream's Error():
//   "<path>: Invalid value: <value>: <detail>"  (strings quoted as Go %q)
//   "<path>: Unsupported value: \"v\": supported values: \"a\", \"b\""
//   "<path>: Required value: <detail>"
//   "<path>: Duplicate value: \"v\""
std::string GoQuote(const std::string& s);
std::string FieldInvalid(const std::string& path, const std::string& value,
                         const std::string& detail);
std::string FieldInvalid(const std::string& path, int64_t value,
                         const std::string& detail);
std::string FieldNotSupported(const std::string& path, const std::string& value,
                              const std::vector<std::string>& supported);
std::string FieldRequired(const std::string& path, const std::string& detail);
std::string FieldDuplicate(const std::string& path, const std::string& value);

// None -> Ok, else Invalid(AggregateMessage(errors)).
[[nodiscard]] schedref::Status FieldErrors(
    const std::vector<std::string>& errors);

// Go's fmt "%v" of an error list as field.ErrorList.ToAggregate() prints it:
// the single message, or "[m1, m2, ...]".
std::string AggregateMessage(const std::vector<std::string>& messages);

}  // namespace schedref::api::pluginargs

#endif  // SCHEDREF_API_PLUGINARGS_JSON_ARGS_H_
