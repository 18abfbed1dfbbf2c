// Go's time.ParseDuration, for durations written in pod labels by test
// scenarios. Specification: Go src/time/format.go ParseDuration.
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_TESTPLUGINS_GO_DURATION_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_TESTPLUGINS_GO_DURATION_H_

#include <cstdint>
#include <string_view>

#include "api/status.h"

namespace schedref::reference::framework::plugins::testplugins {

// "[-+]?([0-9]*(\.[0-9]*)?(ns|us|µs|μs|ms|s|m|h))+" or "0", e.g. "10s",
// "1.5m", "1h2m3.5s", "-250ms". Returns nanoseconds. Errors (Invalid) as
// Go's: `time: invalid duration "x"`, `time: missing unit in duration "1"`,
// `time: unknown unit "d" in duration "1d"`, overflow past int64.
[[nodiscard]] StatusOr<int64_t> ParseGoDuration(std::string_view s);

}  // namespace schedref::reference::framework::plugins::testplugins

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_TESTPLUGINS_GO_DURATION_H_
