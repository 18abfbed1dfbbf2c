// Reading one input file (a scenario or a manifest) whole, bounded: a
// directory, a device that never ends (/dev/zero) or an endless pipe gets an
// error instead of a hang or an exhausted memory.
#ifndef SCHEDREF_API_CODEC_INPUT_FILE_H_
#define SCHEDREF_API_CODEC_INPUT_FILE_H_

#include <cstddef>
#include <string>

#include "api/status.h"

namespace schedref::api {

// The largest input accepted: far above any real cluster dump or scenario.
inline constexpr size_t kMaxInputBytes = size_t{512} << 20;

// The bytes of `path`. Errors (messages start with the path):
//   NotFound  "<path>: cannot open file"
//   Invalid   "<path>: is a directory, not a file"
//   Invalid   "<path>: larger than the 512 MiB input limit"
//             (also for a stream that does not end within it)
[[nodiscard]] StatusOr<std::string> ReadInputFile(const std::string& path,
                                                  size_t limit = kMaxInputBytes);

}  // namespace schedref::api

#endif  // SCHEDREF_API_CODEC_INPUT_FILE_H_
