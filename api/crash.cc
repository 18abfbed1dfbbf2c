#include "api/crash.h"

#include <cstdio>
#include <cstdlib>

namespace schedref {

void Crash(const std::string& what) {
  std::fprintf(stderr, "schedref: crash: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

void CheckOk(const Status& status, const char* what) {
  if (!status.ok()) Crash(std::string(what) + ": " + status.message());
}

}  // namespace schedref
