#include "api/codec/input_file.h"

#include <filesystem>
#include <fstream>
#include <string>

namespace schedref::api {

StatusOr<std::string> ReadInputFile(const std::string& path, size_t limit) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return Status::Invalid(path + ": is a directory, not a file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::NotFound(path + ": cannot open file");
  std::string out;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    out.append(chunk, static_cast<size_t>(in.gcount()));
    if (out.size() > limit) {
      return Status::Invalid(path + ": larger than the " + std::to_string(limit >> 20) +
                             " MiB input limit");
    }
  }
  return out;
}

}  // namespace schedref::api
