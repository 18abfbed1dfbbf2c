#include "api/codec/arrivals.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "api/codec/scenario_fields.h"
#include "api/types/labels.h"

namespace schedref::api {
namespace {

constexpr int64_t kMaxArrivals = 1'000'000;
// Below 2^63 ns, so that the lifetime annotation's duration text reads back.
constexpr double kMaxLifetimeMs = 9e12;

// SplitMix64, as the scheduler's own RNG (docs/deviations.md, "Random
// numbers"), on the generator's seed.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    state_ += 0x9E3779B97F4A7C15ull;
    uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // In [0, 1): the top 53 bits.
  double Unit() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
  // An exponential draw with this mean (in ms, as a double).
  double Exponential(int64_t mean_ms) {
    return -static_cast<double>(mean_ms) * std::log1p(-Unit());
  }

 private:
  uint64_t state_;
};

Status ReadPositiveDuration(const FieldReader& parent, std::string_view key, bool required,
                            int64_t* out) {
  SCHEDREF_RETURN_IF_ERROR(ReadDuration(parent, key, required, out));
  StatusOr<FieldReader> f = parent.Field(key);
  if (!f.ok()) return f.status();
  if (f->present() && *out <= 0) return f->Error("must be greater than 0");
  return Status::Ok();
}

Status ReadLifetime(const FieldReader& entry, ArrivalGenerator* g) {
  StatusOr<FieldReader> lifetime = entry.Object("lifetime");
  if (!lifetime.ok()) return lifetime.status();
  if (!lifetime->present()) return Status::Ok();
  SCHEDREF_RETURN_IF_ERROR(CheckKnownFields(
      *lifetime, {"distribution", "runFor", "min", "max", "mean", "endPhase"}));
  std::string distribution;
  SCHEDREF_RETURN_IF_ERROR(lifetime->RequiredString("distribution", &distribution));
  SCHEDREF_RETURN_IF_ERROR(
      lifetime->Enum("distribution", {"fixed", "uniform", "exponential"}, &distribution));
  // Only the fields of the chosen distribution.
  auto only = [&](std::initializer_list<std::string_view> keys) -> Status {
    for (std::string_view key : {"runFor", "min", "max", "mean"}) {
      if (std::find(keys.begin(), keys.end(), key) != keys.end()) continue;
      if (lifetime->json().contains(key)) {
        return lifetime->ErrorAt(key, "not a field of distribution " + distribution);
      }
    }
    return Status::Ok();
  };
  if (distribution == "fixed") {
    g->lifetime = ArrivalGenerator::Distribution::kFixed;
    SCHEDREF_RETURN_IF_ERROR(only({"runFor"}));
    SCHEDREF_RETURN_IF_ERROR(ReadPositiveDuration(*lifetime, "runFor", true, &g->run_for_ms));
  } else if (distribution == "uniform") {
    g->lifetime = ArrivalGenerator::Distribution::kUniform;
    SCHEDREF_RETURN_IF_ERROR(only({"min", "max"}));
    SCHEDREF_RETURN_IF_ERROR(ReadPositiveDuration(*lifetime, "min", true, &g->min_ms));
    SCHEDREF_RETURN_IF_ERROR(ReadPositiveDuration(*lifetime, "max", true, &g->max_ms));
    if (g->max_ms < g->min_ms) return lifetime->ErrorAt("max", "must not be less than min");
  } else {
    g->lifetime = ArrivalGenerator::Distribution::kExponential;
    SCHEDREF_RETURN_IF_ERROR(only({"mean"}));
    SCHEDREF_RETURN_IF_ERROR(ReadPositiveDuration(*lifetime, "mean", true, &g->mean_ms));
  }
  return lifetime->Enum("endPhase", {"Succeeded", "Failed"}, &g->end_phase);
}

}  // namespace

StatusOr<std::vector<ArrivalGenerator>> ReadArrivalGenerators(const FieldReader& root) {
  StatusOr<std::vector<FieldReader>> entries = root.Array("arrivals");
  if (!entries.ok()) return entries.status();
  std::vector<ArrivalGenerator> out;
  for (const FieldReader& e : *entries) {
    if (!e.present()) return e.Error("expected object, got null");
    SCHEDREF_RETURN_IF_ERROR(e.ExpectObject());
    SCHEDREF_RETURN_IF_ERROR(CheckKnownFields(
        e, {"name", "count", "start", "process", "interval", "seed", "lifetime", "template"}));
    ArrivalGenerator g;
    SCHEDREF_RETURN_IF_ERROR(e.RequiredString("name", &g.name));
    SCHEDREF_RETURN_IF_ERROR(e.RequiredInt64("count", &g.count));
    if (g.count < 1 || g.count > kMaxArrivals) {
      return e.ErrorAt("count", "must be between 1 and " + std::to_string(kMaxArrivals) +
                                    ", got " + std::to_string(g.count));
    }
    // The last pod's name must be a valid pod name (a DNS subdomain).
    if (auto problem = CheckDnsSubdomain(g.name + "-" + std::to_string(g.count - 1))) {
      return e.ErrorAt("name", "pods named \"" + g.name + "-<index>\" are not valid: " +
                                   *problem);
    }
    SCHEDREF_RETURN_IF_ERROR(ReadDuration(e, "start", false, &g.start_ms));
    std::string process = "fixed";
    SCHEDREF_RETURN_IF_ERROR(e.Enum("process", {"fixed", "poisson"}, &process));
    g.process = process == "poisson" ? ArrivalGenerator::Process::kPoisson
                                     : ArrivalGenerator::Process::kFixed;
    SCHEDREF_RETURN_IF_ERROR(ReadPositiveDuration(e, "interval", true, &g.interval_ms));
    StatusOr<FieldReader> seed = e.Field("seed");
    if (!seed.ok()) return seed.status();
    if (seed->present()) {
      const nlohmann::json& v = seed->json();
      if (v.is_number_unsigned()) {
        g.seed = v.get<uint64_t>();
      } else if (v.is_number_integer() && v.get<int64_t>() >= 0) {
        g.seed = static_cast<uint64_t>(v.get<int64_t>());
      } else {
        return seed->Error("expected a non-negative integer, got " +
                           (v.is_number_integer() ? v.dump() : JsonTypeName(v)));
      }
    }
    SCHEDREF_RETURN_IF_ERROR(ReadLifetime(e, &g));
    StatusOr<FieldReader> tmpl = e.Field("template");
    if (!tmpl.ok()) return tmpl.status();
    if (!tmpl->present()) return tmpl->Error("required field is missing");
    out.push_back(std::move(g));
  }
  return out;
}

std::vector<Arrival> ExpandArrivals(const ArrivalGenerator& g, size_t index_of_g) {
  SplitMix64 rng(g.seed);
  std::vector<Arrival> out;
  out.reserve(static_cast<size_t>(g.count));
  double elapsed = 0;  // poisson: the sum of the exact gaps, in ms
  for (int64_t i = 0; i < g.count; ++i) {
    Arrival a;
    a.generator = index_of_g;
    a.index = i;
    if (g.process == ArrivalGenerator::Process::kFixed) {
      a.at = g.start_ms + i * g.interval_ms;
    } else {
      elapsed += rng.Exponential(g.interval_ms);
      // Saturated far beyond the 1000h the decoder allows.
      a.at = g.start_ms + static_cast<TimeMs>(std::min(std::floor(elapsed), 0x1.0p62));
    }
    switch (g.lifetime) {
      case ArrivalGenerator::Distribution::kNone:
        break;
      case ArrivalGenerator::Distribution::kFixed:
        a.lifetime = PodLifetime{g.run_for_ms, g.end_phase};
        break;
      case ArrivalGenerator::Distribution::kUniform: {
        const uint64_t range = static_cast<uint64_t>(g.max_ms - g.min_ms) + 1;
        a.lifetime =
            PodLifetime{g.min_ms + static_cast<int64_t>(rng.Next() % range), g.end_phase};
        break;
      }
      case ArrivalGenerator::Distribution::kExponential: {
        const double ms = std::min(std::floor(rng.Exponential(g.mean_ms)), kMaxLifetimeMs);
        a.lifetime = PodLifetime{std::max<int64_t>(1, static_cast<int64_t>(ms)), g.end_phase};
        break;
      }
    }
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace schedref::api
