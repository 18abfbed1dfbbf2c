// Readers for the scenario format's own fields (docs/scenario-format.md):
// unknown keys and durations, with its messages.
#ifndef SCHEDREF_API_CODEC_SCENARIO_FIELDS_H_
#define SCHEDREF_API_CODEC_SCENARIO_FIELDS_H_

#include <cstdint>
#include <initializer_list>
#include <string_view>

#include "api/codec/manifest.h"
#include "api/status.h"

namespace schedref::api {

// Ok iff every key of the object `r` (absent or not an object: Ok) is in
// `known`; otherwise "unknown field" at the first other key. Scenario files
// are written by hand; an unknown key is almost always a typo that would
// otherwise silently change the scenario.
[[nodiscard]] Status CheckKnownFields(const FieldReader& r,
                                      std::initializer_list<std::string_view> known);

// The Go duration string `key` of `parent`, in milliseconds: not negative,
// a whole number of milliseconds. Absent: *out untouched, or "required
// field is missing" when `required`.
[[nodiscard]] Status ReadDuration(const FieldReader& parent, std::string_view key,
                                  bool required, int64_t* out);

}  // namespace schedref::api

#endif  // SCHEDREF_API_CODEC_SCENARIO_FIELDS_H_
