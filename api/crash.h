// The crash: what an implementation does when one of its own invariants is
// broken. A crash is a bug in the implementation (or a caller breaking a
// REQUIRES), never a scheduling outcome and never bad input: those are
// trace records and Status values. The model is the WebAssembly spec
// interpreter's Crash, kept apart from its Trap.
//
// Crash prints "schedref: crash: <what>" to stderr and aborts, so that a
// test, a fuzzer or a sanitizer run stops at the broken invariant with the
// message, and no run goes on from a state the specification does not
// define.
#ifndef SCHEDREF_API_CRASH_H_
#define SCHEDREF_API_CRASH_H_

#include <string>

#include "api/status.h"

namespace schedref {

[[noreturn]] void Crash(const std::string& what);

// Crashes iff `status` is not ok; `what` says which invariant that breaks.
void CheckOk(const Status& status, const char* what);

}  // namespace schedref

#endif  // SCHEDREF_API_CRASH_H_
