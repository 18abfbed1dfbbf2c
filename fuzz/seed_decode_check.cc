// Checks that seed scenarios are inputs the scenario fuzzers really run:
//
//   seed_decode_check [--differential] FILE...
//
// decodes every FILE with api::DecodeScenario (under its own name, so that
// an error names the seed) and, with --differential, requires the scenario
// to be within fuzz/differential_bounds.h. The fuzz targets skip inputs that
// fail either test without a word, which is right for mutants but would let
// a golden seed that stopped decoding (a golden changed, the decoder grew a
// rule) turn into a seed that tests nothing. Prints every failing FILE and
// exits 1 if there is one; exits 2 on a usage error or an unreadable FILE.
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include "api/codec/scenario_decode.h"
#include "api/status.h"
#include "api/types/scenario.h"
#include "fuzz/differential_bounds.h"

int main(int argc, char** argv) {
  bool differential = false;
  int files = 0;
  int failed = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--differential") {
      differential = true;
      continue;
    }
    std::ifstream in(arg, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "seed_decode_check: cannot read %s\n", arg.c_str());
      return 2;
    }
    const std::string text((std::istreambuf_iterator<char>(in)),
                           std::istreambuf_iterator<char>());
    ++files;
    schedref::StatusOr<schedref::api::Scenario> scenario =
        schedref::api::DecodeScenario(text, arg);
    if (!scenario.ok()) {
      std::printf("%s: does not decode, the fuzz target skips it: %s\n",
                  arg.c_str(), scenario.status().message().c_str());
      ++failed;
    } else if (differential &&
               !schedref::fuzz::WithinDifferentialBounds(*scenario)) {
      std::printf(
          "%s: beyond fuzz/differential_bounds.h, differential_fuzz skips "
          "it\n",
          arg.c_str());
      ++failed;
    }
  }
  if (files == 0) {
    std::fprintf(stderr, "usage: seed_decode_check [--differential] FILE...\n");
    return 2;
  }
  std::printf("seed_decode_check: %d of %d seeds fail\n", failed, files);
  return failed == 0 ? 0 : 1;
}
