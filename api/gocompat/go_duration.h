// Go's time.ParseDuration with Go's error messages, for durations that
// scenarios write where upstream reads a Go duration string (e.g. the test
// plugins' pod labels). Specification: Go src/time/format.go
// (ParseDuration, leadingInt, leadingFraction, quote), go1.22.
//
// The one Go-duration parser of schedref: the scenario format, the test
// plugins' labels and the configuration read durations through it.
// ParseDurationMs and FormatDurationMs are its millisecond forms, for the
// scenario format and trace messages, where only whole milliseconds are
// meaningful.
#ifndef SCHEDREF_API_GO_DURATION_H_
#define SCHEDREF_API_GO_DURATION_H_

#include <cstdint>
#include <optional>
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

// Go's time.ParseDuration ("300ms", "1.5s", "2h45m", "-1m", "0"), in
// milliseconds. nullopt when malformed, out of range, or not a whole
// number of milliseconds ("2000us" is fine, "1500us" is not).
[[nodiscard]] std::optional<int64_t> ParseDurationMs(std::string_view text);

// Go's time.Duration.String() for a millisecond value: "0s", "500ms",
// "1.5s", "2m0s", "1h2m3.004s". ParseDurationMs(FormatDurationMs(d)) == d
// for |d| < 2^63 ns.
[[nodiscard]] std::string FormatDurationMs(int64_t ms);

}  // namespace schedref::api

#endif  // SCHEDREF_API_GO_DURATION_H_
