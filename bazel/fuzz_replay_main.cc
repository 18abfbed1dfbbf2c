// Replay driver for libFuzzer-style fuzz targets.
//
// Links with a source that defines
//   extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
// (and optionally LLVMFuzzerInitialize) and runs the target once on every input
// named on the command line: a file is one input, a directory contributes every
// regular file below it (recursively, in sorted order). Arguments starting with
// '-' are libFuzzer flags and are ignored, so the same command line works for a
// real libFuzzer binary and for this replay binary.
//
// Exits non-zero if an argument does not exist or cannot be read, or if no input
// was found at all (an empty corpus is a mistake, not a pass).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc,
                                                         char*** argv);

namespace {

namespace fs = std::filesystem;

bool ReadFile(const fs::path& path, std::vector<char>& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out.assign(std::istreambuf_iterator<char>(in),
             std::istreambuf_iterator<char>());
  return !in.bad();
}

// Appends the inputs named by `arg` to `inputs`; false if `arg` is unusable.
bool CollectInputs(const std::string& arg, std::vector<fs::path>& inputs) {
  std::error_code ec;
  const fs::path path(arg);
  if (fs::is_directory(path, ec)) {
    std::vector<fs::path> found;
    for (fs::recursive_directory_iterator it(
             path, fs::directory_options::follow_directory_symlink, ec),
         end;
         !ec && it != end; it.increment(ec)) {
      if (it->is_regular_file(ec)) found.push_back(it->path());
    }
    if (ec) {
      std::fprintf(stderr, "fuzz_replay: cannot list %s: %s\n", arg.c_str(),
                   ec.message().c_str());
      return false;
    }
    std::sort(found.begin(), found.end());
    inputs.insert(inputs.end(), found.begin(), found.end());
    return true;
  }
  if (fs::is_regular_file(path, ec)) {
    inputs.push_back(path);
    return true;
  }
  std::fprintf(stderr, "fuzz_replay: no such file or directory: %s\n",
               arg.c_str());
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  if (LLVMFuzzerInitialize != nullptr) LLVMFuzzerInitialize(&argc, &argv);

  std::vector<fs::path> inputs;
  bool ok = true;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.empty() || arg[0] == '-') continue;  // libFuzzer flag
    ok = CollectInputs(arg, inputs) && ok;
  }
  if (!ok) return 1;
  if (inputs.empty()) {
    std::fprintf(stderr,
                 "fuzz_replay: no inputs found (pass corpus files or "
                 "directories as arguments)\n");
    return 1;
  }

  std::vector<char> bytes;
  for (const fs::path& input : inputs) {
    if (!ReadFile(input, bytes)) {
      std::fprintf(stderr, "fuzz_replay: cannot read %s\n", input.c_str());
      return 1;
    }
    // Exactly-sized heap copy so that AddressSanitizer catches reads past the
    // end of the input, as under libFuzzer.
    const size_t size = bytes.size();
    // (new[] of size 0 gives a valid pointer, as libFuzzer passes.)
    std::unique_ptr<uint8_t[]> data(new uint8_t[size]);
    std::copy(bytes.begin(), bytes.end(), data.get());
    LLVMFuzzerTestOneInput(data.get(), size);
  }
  std::printf("fuzz_replay: ran %zu inputs\n", inputs.size());
  return 0;
}
