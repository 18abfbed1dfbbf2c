// Checks the golden corpus's own conventions (golden/README.md), which the
// scenario format leaves optional: every golden names the upstream behaviour
// it pins (`description`) and where that behaviour lives upstream
// (`upstream`), has a unique name, and sits in a folder that
// golden/README.md's layout table describes. (A golden without
// expectedTrace fails its //golden:<folder>_* tests, golden_test_main.cc.)
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "api/codec/scenario_decode.h"
#include "gtest/gtest.h"

namespace schedref::golden {
namespace {

namespace fs = std::filesystem;

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Runfiles root of this workspace.
fs::path GoldenDir() {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  if (srcdir == nullptr || workspace == nullptr) return "golden";
  return fs::path(srcdir) / workspace / "golden";
}

std::vector<fs::path> GoldenFiles() {
  std::vector<fs::path> files;
  for (const auto& folder : fs::directory_iterator(GoldenDir())) {
    if (!folder.is_directory()) continue;
    for (const auto& entry : fs::directory_iterator(folder.path())) {
      if (entry.path().extension() == ".yaml") files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(GoldenMetadata, CorpusIsLargeEnoughToMeanSomething) {
  // The corpus is globbed; an empty runfiles tree would pass every check
  // below vacuously.
  EXPECT_GE(GoldenFiles().size(), 120u);
}

TEST(GoldenMetadata, EveryGoldenStatesWhatItPinsAndWhereUpstream) {
  std::map<std::string, std::string> names;  // scenario name -> file
  for (const fs::path& path : GoldenFiles()) {
    std::string file = path.parent_path().filename().string() + "/" +
                       path.filename().string();
    StatusOr<api::Scenario> scenario =
        api::DecodeScenario(ReadFile(path), file);
    ASSERT_TRUE(scenario.ok()) << scenario.status().message();
    EXPECT_GE(scenario->description.size(), 40u)
        << file << ": description must say which upstream behaviour it pins";
    EXPECT_FALSE(scenario->upstream_test.empty())
        << file << ": upstream must name the upstream test or function";
    auto [it, inserted] = names.emplace(scenario->name, file);
    EXPECT_TRUE(inserted) << file << ": scenario name " << scenario->name
                          << " is also used by " << it->second;
  }
}

TEST(GoldenMetadata, ReadmeDescribesEveryFolder) {
  std::string readme = ReadFile(GoldenDir() / "README.md");
  ASSERT_FALSE(readme.empty());
  std::set<std::string> folders;
  for (const fs::path& path : GoldenFiles()) {
    folders.insert(path.parent_path().filename().string());
  }
  for (const std::string& folder : folders) {
    EXPECT_NE(readme.find("| `" + folder + "/` |"), std::string::npos)
        << "golden/README.md's layout table has no row for " << folder << "/";
  }
}

}  // namespace
}  // namespace schedref::golden
