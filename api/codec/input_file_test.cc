#include "api/codec/input_file.h"

#include <cstdlib>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

namespace schedref::api {
namespace {

std::string TempDir() {
  const char* dir = std::getenv("TEST_TMPDIR");
  return dir != nullptr ? dir : "/tmp";
}

TEST(ReadInputFile, ReadsAFileWhole) {
  const std::string path = TempDir() + "/small.yaml";
  std::ofstream(path, std::ios::binary) << "a: 1\n";
  StatusOr<std::string> text = ReadInputFile(path);
  ASSERT_TRUE(text.ok()) << text.status().message();
  EXPECT_EQ(*text, "a: 1\n");
}

TEST(ReadInputFile, RefusesWhatIsNotAFiniteFile) {
  EXPECT_EQ(ReadInputFile(TempDir()).status().message(),
            TempDir() + ": is a directory, not a file");
  EXPECT_EQ(ReadInputFile(TempDir() + "/absent.yaml").status().message(),
            TempDir() + "/absent.yaml: cannot open file");
  // A stream that never ends stops at the limit.
  EXPECT_EQ(ReadInputFile("/dev/zero", size_t{1} << 20).status().message(),
            "/dev/zero: larger than the 1 MiB input limit");
  const std::string big = TempDir() + "/big.yaml";
  std::ofstream(big, std::ios::binary) << std::string((size_t{1} << 20) + 1, 'x');
  EXPECT_FALSE(ReadInputFile(big, size_t{1} << 20).ok());
}

}  // namespace
}  // namespace schedref::api
