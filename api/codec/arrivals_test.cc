#include "api/codec/arrivals.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "api/codec/manifest.h"

namespace schedref::api {
namespace {

std::vector<ArrivalGenerator> Read(const std::string& yaml) {
  StatusOr<std::vector<nlohmann::json>> docs = ParseDocuments(yaml, "f.yaml");
  EXPECT_TRUE(docs.ok()) << docs.status().message();
  StatusOr<std::vector<ArrivalGenerator>> g =
      ReadArrivalGenerators(FieldReader((*docs)[0], "f.yaml", ""));
  EXPECT_TRUE(g.ok()) << g.status().message();
  return g.ok() ? *g : std::vector<ArrivalGenerator>{};
}

constexpr char kTemplate[] = "template: {apiVersion: v1, kind: Pod, spec: {containers: [{name: c}]}}";

TEST(ExpandArrivals, FixedRateAndFixedLifetime) {
  std::vector<ArrivalGenerator> g =
      Read(std::string("arrivals:\n- {name: a, count: 3, start: 5s, interval: 2s, ") +
           "lifetime: {distribution: fixed, runFor: 1m, endPhase: Failed}, " + kTemplate +
           "}\n");
  ASSERT_EQ(g.size(), 1u);
  std::vector<Arrival> a = ExpandArrivals(g[0], 0);
  ASSERT_EQ(a.size(), 3u);
  for (int64_t i = 0; i < 3; ++i) {
    EXPECT_EQ(a[i].at, 5000 + 2000 * i);
    EXPECT_EQ(a[i].index, i);
    EXPECT_EQ(a[i].lifetime, (PodLifetime{60000, "Failed"}));
  }
}

// The values come from an independent computation of the documented
// expansion (SplitMix64 from seed 7; per pod an exponential gap with mean
// 2000 ms, -m*log1p(-u), summed and floored, then a uniform lifetime
// 1000 + d mod 4001).
TEST(ExpandArrivals, PoissonAndUniformFollowTheDocumentedDraws) {
  std::vector<ArrivalGenerator> g =
      Read(std::string("arrivals:\n- {name: a, count: 4, process: poisson, interval: 2s, ") +
           "seed: 7, lifetime: {distribution: uniform, min: 1s, max: 5s}, " + kTemplate + "}\n");
  ASSERT_EQ(g.size(), 1u);
  std::vector<Arrival> a = ExpandArrivals(g[0], 0);
  const std::vector<std::pair<TimeMs, int64_t>> want = {
      {988, 4166}, {5608, 4131}, {6813, 1112}, {8075, 3018}};
  ASSERT_EQ(a.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(a[i].at, want[i].first) << i;
    ASSERT_TRUE(a[i].lifetime.has_value());
    EXPECT_EQ(a[i].lifetime->run_for_ms, want[i].second) << i;
    EXPECT_EQ(a[i].lifetime->end_phase, "Succeeded");
  }
}

TEST(ExpandArrivals, PoissonMeanGapAndExponentialMean) {
  std::vector<ArrivalGenerator> g =
      Read(std::string("arrivals:\n- {name: a, count: 20000, process: poisson, interval: 1s, ") +
           "seed: 3, lifetime: {distribution: exponential, mean: 30s}, " + kTemplate + "}\n");
  ASSERT_EQ(g.size(), 1u);
  std::vector<Arrival> a = ExpandArrivals(g[0], 2);
  ASSERT_EQ(a.size(), 20000u);
  double lifetimes = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].generator, 2u);
    if (i > 0) EXPECT_GE(a[i].at, a[i - 1].at);
    lifetimes += static_cast<double>(a[i].lifetime->run_for_ms);
    EXPECT_GE(a[i].lifetime->run_for_ms, 1);
  }
  EXPECT_NEAR(static_cast<double>(a.back().at) / 20000.0, 1000.0, 30.0);
  EXPECT_NEAR(lifetimes / 20000.0, 30000.0, 900.0);
  // The same generator expands the same way every time.
  std::vector<Arrival> again = ExpandArrivals(g[0], 2);
  EXPECT_EQ(again.back().at, a.back().at);
  EXPECT_EQ(again.back().lifetime, a.back().lifetime);
}

TEST(ReadArrivalGenerators, Errors) {
  struct Case {
    std::string entry;
    std::string want;
  };
  const std::string t = std::string(", ") + kTemplate;
  const std::vector<Case> cases = {
      {"{count: 1, interval: 1s" + t + "}", "f.yaml: arrivals[0].name: required field is missing"},
      {"{name: a, interval: 1s" + t + "}", "f.yaml: arrivals[0].count: required field is missing"},
      {"{name: a, count: 0, interval: 1s" + t + "}",
       "f.yaml: arrivals[0].count: must be between 1 and 1000000, got 0"},
      {"{name: A, count: 1, interval: 1s" + t + "}",
       "f.yaml: arrivals[0].name: pods named \"A-<index>\" are not valid: a lowercase RFC "
       "1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and "
       "must start and end with an alphanumeric character (e.g. 'example.com', regex used "
       "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"},
      {"{name: a, count: 1" + t + "}", "f.yaml: arrivals[0].interval: required field is missing"},
      {"{name: a, count: 1, interval: 0s" + t + "}",
       "f.yaml: arrivals[0].interval: must be greater than 0"},
      {"{name: a, count: 1, interval: 1s, process: bursty" + t + "}",
       "f.yaml: arrivals[0].process: unsupported value \"bursty\" (supported: \"fixed\", "
       "\"poisson\")"},
      {"{name: a, count: 1, interval: 1s, seed: -2" + t + "}",
       "f.yaml: arrivals[0].seed: expected a non-negative integer, got -2"},
      {"{name: a, count: 1, interval: 1s, every: 1s" + t + "}",
       "f.yaml: arrivals[0].every: unknown field"},
      {"{name: a, count: 1, interval: 1s}",
       "f.yaml: arrivals[0].template: required field is missing"},
      {"{name: a, count: 1, interval: 1s, lifetime: {runFor: 1s}" + t + "}",
       "f.yaml: arrivals[0].lifetime.distribution: required field is missing"},
      {"{name: a, count: 1, interval: 1s, lifetime: {distribution: fixed, min: 1s}" + t + "}",
       "f.yaml: arrivals[0].lifetime.min: not a field of distribution fixed"},
      {"{name: a, count: 1, interval: 1s, lifetime: {distribution: uniform, min: 5s, max: 2s}" +
           t + "}",
       "f.yaml: arrivals[0].lifetime.max: must not be less than min"},
      {"{name: a, count: 1, interval: 1s, lifetime: {distribution: exponential, mean: 0s}" + t +
           "}",
       "f.yaml: arrivals[0].lifetime.mean: must be greater than 0"},
      {"{name: a, count: 1, interval: 1s, lifetime: {distribution: fixed, runFor: 1s, "
       "endPhase: Done}" + t + "}",
       "f.yaml: arrivals[0].lifetime.endPhase: unsupported value \"Done\" (supported: "
       "\"Succeeded\", \"Failed\")"},
  };
  for (const Case& c : cases) {
    StatusOr<std::vector<nlohmann::json>> docs =
        ParseDocuments("arrivals:\n- " + c.entry + "\n", "f.yaml");
    ASSERT_TRUE(docs.ok()) << c.entry << ": " << docs.status().message();
    StatusOr<std::vector<ArrivalGenerator>> g =
        ReadArrivalGenerators(FieldReader((*docs)[0], "f.yaml", ""));
    ASSERT_FALSE(g.ok()) << c.entry;
    EXPECT_EQ(g.status().message(), c.want) << c.entry;
  }
}

}  // namespace
}  // namespace schedref::api
