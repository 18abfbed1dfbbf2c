// Writing scenario files (api/types/scenario.h): the inverse of
// api/codec/scenario_decode.h. Specification: docs/scenario-format.md.
#ifndef SCHEDREF_API_CODEC_SCENARIO_ENCODE_H_
#define SCHEDREF_API_CODEC_SCENARIO_ENCODE_H_

#include <string>

#include <nlohmann/json.hpp>

#include "api/types/scenario.h"

namespace schedref::api {

// YAML text for `scenario`, used to write golden files. Objects are written
// in EncodeList's order (api/codec/encode.h).
// Guarantee: for every scenario DecodeScenario returns,
// DecodeScenario(EncodeScenario(s), s.file) == s.
[[nodiscard]] std::string EncodeScenario(const Scenario& scenario);

// The same document before it is written as YAML; its JSON text decodes
// to the same scenario (and parses much faster than the YAML).
[[nodiscard]] nlohmann::ordered_json EncodeScenarioDocument(const Scenario& scenario);

}  // namespace schedref::api

#endif  // SCHEDREF_API_CODEC_SCENARIO_ENCODE_H_
