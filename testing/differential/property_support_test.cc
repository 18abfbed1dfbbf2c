// ShardCases: how a sharded property binary splits its case count.
#include "testing/differential/property_support.h"

#include <stdlib.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace schedref::testing::differential {
namespace {

// Sets the variables Bazel gives a shard (none if total is 0) for one
// ShardCases call, and puts back what was there.
class ShardEnv {
 public:
  ShardEnv(int total, int index, const std::string& status_file) {
    Save("TEST_TOTAL_SHARDS");
    Save("TEST_SHARD_INDEX");
    Save("TEST_SHARD_STATUS_FILE");
    Save("GTEST_TOTAL_SHARDS");
    Save("GTEST_SHARD_INDEX");
    if (total == 0) {
      unsetenv("TEST_TOTAL_SHARDS");
      unsetenv("TEST_SHARD_INDEX");
      unsetenv("TEST_SHARD_STATUS_FILE");
      return;
    }
    setenv("TEST_TOTAL_SHARDS", std::to_string(total).c_str(), 1);
    setenv("TEST_SHARD_INDEX", std::to_string(index).c_str(), 1);
    setenv("GTEST_TOTAL_SHARDS", std::to_string(total).c_str(), 1);
    setenv("GTEST_SHARD_INDEX", std::to_string(index).c_str(), 1);
    setenv("TEST_SHARD_STATUS_FILE", status_file.c_str(), 1);
  }
  ~ShardEnv() {
    for (const auto& [name, value] : saved_) {
      if (value.has_value) {
        setenv(name.c_str(), value.text.c_str(), 1);
      } else {
        unsetenv(name.c_str());
      }
    }
  }

 private:
  struct Value {
    bool has_value = false;
    std::string text;
  };
  void Save(const std::string& name) {
    const char* v = std::getenv(name.c_str());
    saved_.push_back({name, v == nullptr ? Value{} : Value{true, v}});
  }
  std::vector<std::pair<std::string, Value>> saved_;
};

std::string StatusFile() {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir == nullptr ? "/tmp" : dir) + "/shard_status";
}

TEST(ShardCasesTest, UnshardedRunsEveryCase) {
  ShardEnv env(0, 0, "");
  EXPECT_EQ(ShardCases(30), 30);
}

TEST(ShardCasesTest, OneShardRunsEveryCase) {
  ShardEnv env(1, 0, StatusFile());
  EXPECT_EQ(ShardCases(30), 30);
}

TEST(ShardCasesTest, SharesAddUpToTheCasesAndDifferByAtMostOne) {
  struct Case {
    int cases;
    int total;
    std::vector<int> want;
  };
  const std::vector<Case> cases = {
      {30, 3, {10, 10, 10}},
      {100, 3, {34, 33, 33}},
      {2, 4, {1, 1, 0, 0}},
      {7, 2, {4, 3}},
  };
  for (const Case& c : cases) {
    std::vector<int> got;
    for (int index = 0; index < c.total; ++index) {
      ShardEnv env(c.total, index, StatusFile());
      got.push_back(ShardCases(c.cases));
    }
    EXPECT_EQ(got, c.want) << c.cases << " cases in " << c.total << " shards";
  }
}

TEST(ShardCasesTest, ShardingTellsBazelAndTurnsOffGtestSharding) {
  const std::string status = StatusFile();
  unlink(status.c_str());
  ShardEnv env(2, 1, status);
  EXPECT_EQ(ShardCases(10), 5);
  EXPECT_EQ(access(status.c_str(), F_OK), 0) << "status file not written";
  EXPECT_EQ(std::getenv("GTEST_TOTAL_SHARDS"), nullptr);
  EXPECT_EQ(std::getenv("GTEST_SHARD_INDEX"), nullptr);
}

TEST(ShardCasesTest, AnIndexOutsideTheShardsRunsEveryCase) {
  ShardEnv env(2, 5, StatusFile());
  EXPECT_EQ(ShardCases(10), 10);
}

}  // namespace
}  // namespace schedref::testing::differential
