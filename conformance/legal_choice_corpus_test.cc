// Legal-choice mode over the whole golden corpus: an implementation that
// differs from the reference only where upstream is free to (here: the
// reference itself with another seed, so other selectHost ties and other
// preemption offsets) passes every scenario, and every decision it made
// differently is one the oracle accepted. One test per golden, sharded.
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "api/codec/scenario_decode.h"
#include "conformance/legal_choice.h"
#include "conformance/runner.h"
#include "reference/scheduler/scheduler.h"

namespace schedref::conformance {
namespace {

std::vector<std::string> Goldens() { return YamlFilesUnder("golden"); }

// The walk over `path`'s scenario run with its seed plus one.
LegalChoiceResult WalkWithAnotherSeed(const std::string& path) {
  StatusOr<std::string> text = ReadFile(path);
  EXPECT_TRUE(text.ok()) << text.status().message();
  if (!text.ok()) return {};
  StatusOr<api::Scenario> scenario = api::DecodeScenario(*text, path);
  EXPECT_TRUE(scenario.ok()) << scenario.status().message();
  if (!scenario.ok()) return {};
  api::Scenario other = *scenario;
  other.seed += 1;
  reference::ReferenceScheduler oracle, implementation;
  StatusOr<api::Trace> actual = implementation.Run(other, {});
  EXPECT_TRUE(actual.ok()) << path << ": " << actual.status().message();
  if (!actual.ok()) return {};
  StatusOr<LegalChoiceResult> r = CompareLegalChoice(oracle, *scenario, *actual);
  EXPECT_TRUE(r.ok()) << path << ": " << r.status().message();
  return r.ok() ? *r : LegalChoiceResult{};
}

class LegalChoiceCorpus : public ::testing::TestWithParam<std::string> {};

TEST_P(LegalChoiceCorpus, AnotherSeedPasses) {
  const LegalChoiceResult r = WalkWithAnotherSeed(GetParam());
  EXPECT_EQ(r.difference, std::nullopt)
      << "first difference at line " << r.difference.value_or(0) + 1
      << (r.refused ? ", refused: " + r.refusal : std::string());
}

INSTANTIATE_TEST_SUITE_P(
    Goldens, LegalChoiceCorpus, ::testing::ValuesIn(Goldens()),
    [](const ::testing::TestParamInfo<std::string>& info) {
      std::string name = info.param;
      for (char& c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      }
      return name;
    });

TEST(LegalChoiceCorpusSize, EveryGoldenIsThere) {
  EXPECT_GT(Goldens().size(), 120u);
}

// The other seed does make other decisions, of both kinds, and they are
// accepted (so the tests above are not vacuous).
TEST(LegalChoiceCorpusDecisions, AnotherSeedMakesOtherDecisions) {
  const LegalChoiceResult ties =
      WalkWithAnotherSeed("golden/cycle/score-tie-seeded.yaml");
  const LegalChoiceResult preemption =
      WalkWithAnotherSeed("golden/schedulerperf/preemption-basic.yaml");
  auto count = [](const LegalChoiceResult& r, const std::string& decision) {
    return std::count_if(r.accepted.begin(), r.accepted.end(),
                         [&](const Choice& c) { return c.decision == decision; });
  };
  EXPECT_GT(count(ties, "node"), 0);
  EXPECT_GT(count(preemption, "nomination"), 0);
}

}  // namespace
}  // namespace schedref::conformance
