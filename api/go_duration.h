// Go's time.ParseDuration with Go's error messages, for durations that
// scenarios write where upstream reads a Go duration string (e.g. the test
// plugins' pod labels). Specification: Go src/time/format.go
// (ParseDuration, leadingInt, leadingFraction, quote), go1.22.
//
// api::ParseDurationMs (scenario_decode.h) reads the same grammar for the
// scenario format, where only whole milliseconds are meaningful and the
// caller words its own error; use this one where Go's nanosecond value and
// Go's error text are part of the observable behaviour.
#ifndef SCHEDREF_API_GO_DURATION_H_
#define SCHEDREF_API_GO_DURATION_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "api/status.h"

namespace schedref::api {

// Nanoseconds for "[-+]?([0-9]*(\.[0-9]*)?[a-zµμ]+)+" or "[-+]?0", with units
// ns, us, µs (U+00B5), μs (U+03BC), ms, s, m, h; |d| must fit an int64
// (-2^63 ns is allowed). A fraction is scaled in float64 and truncated, as
// Go does ("1.5ns" is 1; "0.3333333333333333333h" is exactly 20m).
//
// Errors (Invalid), worded as Go's:
//   time: invalid duration "<s>"               grammar or range
//   time: missing unit in duration "<s>"       "10", "1h5"
//   time: unknown unit "<u>" in duration "<s>" "1d"
// where the quoting is Go's time.quote: '"' and '\' are backslash-escaped
// and every byte below 0x20 or from 0x80 up is written as \xhh.
[[nodiscard]] StatusOr<int64_t> ParseGoDuration(std::string_view s);

// Go's time.Duration.String() of `ns` nanoseconds: "0s", "1.5s", "100ms",
// "2µs", "1h0m0s", "-3m20s" (format.go Duration.format, fmtFrac, fmtInt).
std::string FormatGoDuration(int64_t ns);

}  // namespace schedref::api

#endif  // SCHEDREF_API_GO_DURATION_H_
