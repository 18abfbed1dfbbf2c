// Generated arrivals: a scenario's `arrivals` generators (a count, an
// arrival process with its own seed, a pod template and a lifetime
// distribution) and their deterministic expansion into pod creations.
// Specified in docs/scenario-format.md, "arrivals"; the scenario decoder
// (scenario_decode.h) merges the creations into the timeline, so every
// implementation receives the same expanded scenario.
#ifndef SCHEDREF_API_CODEC_ARRIVALS_H_
#define SCHEDREF_API_CODEC_ARRIVALS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "api/codec/manifest.h"
#include "api/status.h"
#include "api/types/objects.h"

namespace schedref::api {

// One `arrivals[i]` entry, checked (everything except its template, which
// the scenario decoder reads as a Pod).
struct ArrivalGenerator {
  enum class Process { kFixed, kPoisson };
  enum class Distribution { kNone, kFixed, kUniform, kExponential };
  std::string name;       // pods are named <name>-<index>, index from 0
  int64_t count = 0;      // >= 1
  TimeMs start_ms = 0;    // the process starts here
  Process process = Process::kFixed;
  int64_t interval_ms = 0;  // fixed: the gap; poisson: the mean gap (> 0)
  uint64_t seed = 0;
  Distribution lifetime = Distribution::kNone;
  int64_t run_for_ms = 0;  // kFixed
  int64_t min_ms = 0;      // kUniform
  int64_t max_ms = 0;      // kUniform
  int64_t mean_ms = 0;     // kExponential
  std::string end_phase = "Succeeded";
};

// One generated pod: when it is created, which generator made it, its
// index there, and its lifetime (nullopt: it runs until deleted).
struct Arrival {
  TimeMs at = 0;
  size_t generator = 0;
  int64_t index = 0;
  std::optional<PodLifetime> lifetime;
};

// Reads and checks `arrivals` (absent: none). Errors name the field:
// "f.yaml: arrivals[0].interval: required field is missing".
[[nodiscard]] StatusOr<std::vector<ArrivalGenerator>> ReadArrivalGenerators(
    const FieldReader& root);

// Generator `g`'s pods in creation order (`generator` = `index_of_g`),
// drawn from its own SplitMix64 stream as docs/scenario-format.md says.
[[nodiscard]] std::vector<Arrival> ExpandArrivals(const ArrivalGenerator& g, size_t index_of_g);

}  // namespace schedref::api

#endif  // SCHEDREF_API_CODEC_ARRIVALS_H_
