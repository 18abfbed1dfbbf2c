// Reading and writing scenario files (api/types/scenario.h). Specification:
// docs/scenario-format.md.
//
// Decoding does everything a scenario needs before any scheduler sees it,
// so that every implementation receives the same, already admitted objects:
//   - the configuration is decoded, defaulted and validated
//     (api/config/config_decode.h);
//   - objects go through api/codec/decode.h, then through what the API server's
//     admission would do that the scheduler depends on: Pod priority
//     resolution (plugin/pkg/admission/priority) and creationTimestamp;
//   - the timeline is checked: one operation per entry, non-decreasing
//     times, and no reference to an object that does not exist.
//
// Every error is Status::Invalid("<file>: <where>: <problem>"), where
// <where> is the field path from the document root, e.g.
//   basic.yaml: timeline[3].delete.name: Pod default/p9 does not exist
// (errors inside a manifest also name the object, as api/codec/decode.h does:
//   basic.yaml: Pod default/p: objects[0].spec.priority: expected integer,
//   got string).
#ifndef SCHEDREF_API_SCENARIO_DECODE_H_
#define SCHEDREF_API_SCENARIO_DECODE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "api/status.h"
#include "api/types/scenario.h"

namespace schedref::api {

// The value of the required top-level `schedref` field.
inline constexpr char kScenarioVersionTag[] = "scenario/v1";

// Scenario::start_time when `startTime` is absent: 2024-01-01T00:00:00Z.
inline constexpr TimeMs kDefaultScenarioStartTime = 1704067200000;

// The value of a PriorityClass the API server creates at startup
// (scheduling/v1 SystemPriorityClasses: system-cluster-critical,
// system-node-critical), which pods may name without the object existing;
// nullopt for any other name.
[[nodiscard]] std::optional<int32_t> SystemPriorityClassValue(std::string_view name);

// Decodes one scenario document (YAML or JSON). `file` names it in errors
// and is stored in Scenario::file.
[[nodiscard]] StatusOr<Scenario> DecodeScenario(std::string_view text,
                                                const std::string& file);

}  // namespace schedref::api

#endif  // SCHEDREF_API_SCENARIO_DECODE_H_
