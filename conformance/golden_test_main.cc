// A test binary that checks golden scenarios (given as arguments) against a
// built-in implementation (--impl=NAME, first argument, optionally followed
// by --threads=N for RunOptions::threads) in strict mode.
// Unlike `schedref check`, a golden without expectedTrace fails: it is a
// stale golden. Honours Bazel's test sharding: shard k of n checks every
// n-th file starting at k.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "conformance/engine.h"
#include "conformance/implementations.h"
#include "conformance/runner.h"
#include "reference/scheduler/scheduler.h"

namespace {

using schedref::conformance::CheckResult;

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]).rfind("--impl=", 0) != 0) {
    std::fprintf(stderr, "usage: %s --impl=NAME SCENARIO...\n", argv[0]);
    return 2;
  }
  std::string impl_name = std::string(argv[1]).substr(7);
  int first_file = 2;
  int threads = 0;
  if (argc > 2 && std::string(argv[2]).rfind("--threads=", 0) == 0) {
    threads = std::atoi(argv[2] + 10);
    first_file = 3;
  }
  std::unique_ptr<schedref::api::Scheduler> impl =
      schedref::conformance::MakeImplementation(impl_name);
  schedref::reference::ReferenceScheduler reference;
  if (impl == nullptr) {
    std::fprintf(stderr, "unknown implementation %s\n", impl_name.c_str());
    return 2;
  }
  std::unique_ptr<schedref::conformance::Engine> engine =
      schedref::conformance::MakeBuiltinEngine(std::move(impl), threads);
  schedref::conformance::CheckOptions options;
  options.mode = schedref::conformance::Mode::kStrict;
  options.reference = &reference;

  int shards = 1, shard = 0;
  if (const char* n = std::getenv("TEST_TOTAL_SHARDS")) shards = std::atoi(n);
  if (const char* k = std::getenv("TEST_SHARD_INDEX")) shard = std::atoi(k);
  if (const char* f = std::getenv("TEST_SHARD_STATUS_FILE")) {
    std::ofstream touch(f);
  }
  int failed = 0, passed = 0, skipped = 0, checked = 0;
  for (int i = first_file; i < argc; ++i) {
    if ((i - first_file) % shards != shard) continue;
    ++checked;
    CheckResult r = schedref::conformance::CheckScenario(*engine, argv[i],
                                                         options);
    switch (r.outcome) {
      case CheckResult::Outcome::kPass:
        ++passed;
        std::printf("PASS %s\n", argv[i]);
        break;
      case CheckResult::Outcome::kSkip:
        if (r.stale) {
          ++failed;
          std::printf("FAIL %s: %s\n", argv[i], r.message.c_str());
        } else {
          ++skipped;
          std::printf("SKIP %s: %s\n", argv[i], r.message.c_str());
        }
        break;
      case CheckResult::Outcome::kFail:
        ++failed;
        std::printf("FAIL %s: %s\n", argv[i], r.message.c_str());
        for (const std::string& line : r.details) {
          std::printf("%s\n", line.c_str());
        }
        break;
    }
  }
  std::printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
  if (argc > first_file && checked == 0 && shards == 1) return 1;
  return failed == 0 ? 0 : 1;
}
