// Legal-choice mode over the whole golden corpus: an implementation that
// differs from the reference only where upstream is free to (here: the
// reference itself with another seed, so other selectHost ties and other
// preemption offsets) passes every scenario, and every decision it made
// differently is one the oracle accepted.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "api/scenario_decode.h"
#include "conformance/legal_choice.h"
#include "reference/scheduler/scheduler.h"

namespace schedref::conformance {
namespace {

std::vector<std::string> Goldens() {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator("golden")) {
    if (e.is_regular_file() && e.path().extension() == ".yaml") {
      files.push_back(e.path().generic_string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(LegalChoiceCorpus, AnotherSeedPassesEveryGolden) {
  const std::vector<std::string> files = Goldens();
  ASSERT_GT(files.size(), 120u);
  reference::ReferenceScheduler oracle, implementation;
  int accepted_nodes = 0, accepted_nominations = 0;
  for (const std::string& path : files) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    StatusOr<api::Scenario> scenario = api::DecodeScenario(text.str(), path);
    ASSERT_TRUE(scenario.ok()) << scenario.status().message();
    for (uint64_t delta : {1}) {
      api::Scenario other = *scenario;
      other.seed += delta;
      StatusOr<api::Trace> actual = implementation.Run(other, {});
      ASSERT_TRUE(actual.ok()) << path << ": " << actual.status().message();
      StatusOr<LegalChoiceResult> r =
          CompareLegalChoice(oracle, *scenario, *actual);
      ASSERT_TRUE(r.ok()) << path << ": " << r.status().message();
      EXPECT_EQ(r->difference, std::nullopt)
          << path << " with seed +" << delta << ": first difference at line "
          << r->difference.value_or(0) + 1
          << (r->refused ? ", refused: " + r->refusal : std::string());
      for (const Choice& c : r->accepted) {
        accepted_nodes += c.decision == "node" ? 1 : 0;
        accepted_nominations += c.decision == "nomination" ? 1 : 0;
      }
    }
  }
  // The other seed did make other choices, of both kinds.
  EXPECT_GT(accepted_nodes, 50);
  EXPECT_GT(accepted_nominations, 3);
}

}  // namespace
}  // namespace schedref::conformance
