// A test binary that checks golden scenarios (given as arguments) against a
// built-in implementation (--impl=NAME, first argument). Honours Bazel's
// test sharding: shard k of n checks every n-th file starting at k.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "conformance/implementations.h"
#include "conformance/runner.h"

int main(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]).rfind("--impl=", 0) != 0) {
    std::fprintf(stderr, "usage: %s --impl=NAME SCENARIO...\n", argv[0]);
    return 2;
  }
  std::string impl_name = std::string(argv[1]).substr(7);
  std::unique_ptr<schedref::api::Scheduler> impl =
      schedref::conformance::MakeImplementation(impl_name);
  if (impl == nullptr) {
    std::fprintf(stderr, "unknown implementation %s\n", impl_name.c_str());
    return 2;
  }
  int shards = 1, shard = 0;
  if (const char* n = std::getenv("TEST_TOTAL_SHARDS")) shards = std::atoi(n);
  if (const char* k = std::getenv("TEST_SHARD_INDEX")) shard = std::atoi(k);
  if (const char* f = std::getenv("TEST_SHARD_STATUS_FILE")) {
    std::ofstream touch(f);
  }
  int failed = 0, passed = 0, skipped = 0, checked = 0;
  for (int i = 2; i < argc; ++i) {
    if ((i - 2) % shards != shard) continue;
    ++checked;
    schedref::conformance::CheckResult r =
        schedref::conformance::CheckScenario(*impl, argv[i]);
    switch (r.outcome) {
      case schedref::conformance::CheckResult::Outcome::kPass:
        ++passed;
        std::printf("PASS %s\n", argv[i]);
        break;
      case schedref::conformance::CheckResult::Outcome::kSkip:
        // A golden without its expected trace is a stale golden.
        ++failed;
        std::printf("FAIL %s: %s (run the golden update)\n", argv[i],
                    r.message.c_str());
        break;
      case schedref::conformance::CheckResult::Outcome::kFail:
        ++failed;
        std::printf("FAIL %s: %s\n", argv[i], r.message.c_str());
        break;
    }
  }
  std::printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
  if (argc > 2 && checked == 0 && shards == 1) return 1;
  return failed == 0 ? 0 : 1;
}
