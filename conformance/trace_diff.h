// Comparing two canonical traces (docs/trace-format.md) line by line and
// saying, in words, where and how they first differ. Pure functions over the
// text lines; the reference's side of the story (why it decided as it did)
// is conformance/explain.h.
#ifndef SCHEDREF_CONFORMANCE_TRACE_DIFF_H_
#define SCHEDREF_CONFORMANCE_TRACE_DIFF_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace schedref::conformance {

// The first index at which the two line lists differ (a list that ends
// early differs at its end); nullopt iff they are equal.
[[nodiscard]] std::optional<size_t> FirstDifference(
    const std::vector<std::string>& expected,
    const std::vector<std::string>& actual);

// The record's context in a few words, from its fields:
//   attempt t=1000ms cycle 2 pod default/p2 (profile default-scheduler)
//   binding t=1000ms cycle 2 pod default/p2
//   note victimDeleted t=0ms pod default/p
//   placements
//   header
// `line` is a trace line, or empty for "the end of the trace".
[[nodiscard]] std::string DescribeLine(std::string_view line);

// One line per field that differs between two trace lines:
//   node: expected "machine1", actual "machine2"
//   topScores: expected [...], actual [...]
//   rejections.n1: expected {...}, actual (absent)
// Top-level keys in key order; where both sides hold an object (rejections,
// placements, preemption, detail) the comparison goes one level deeper.
// Either line may be empty (the end of a trace): then nothing is listed.
[[nodiscard]] std::vector<std::string> FieldDifferences(
    std::string_view expected, std::string_view actual);

}  // namespace schedref::conformance

#endif  // SCHEDREF_CONFORMANCE_TRACE_DIFF_H_
