// Which scenarios differential_fuzz runs: the bounds that keep one input a
// short run. Shared by the fuzz target and by the seed check
// (seed_decode_check.cc), so that a seed beyond them is reported instead of
// being skipped without a word.
//
// The virtual clock stops at every second up to the last event
// (docs/semantics/event-loop.md), so a timeline reaching far into the future
// is a long run, not a bug, and big clusters only slow the fuzzer down
// (large clusters are the job of
// //testing/differential:large_cluster_properties_test).
#ifndef SCHEDREF_FUZZ_DIFFERENTIAL_BOUNDS_H_
#define SCHEDREF_FUZZ_DIFFERENTIAL_BOUNDS_H_

#include <cstddef>
#include <cstdint>
#include <variant>

#include "api/types/objects.h"
#include "api/types/scenario.h"

namespace schedref::fuzz {

inline constexpr int64_t kMaxEndMs = 3600 * 1000;  // one hour of virtual time
inline constexpr size_t kMaxNodes = 64;
inline constexpr size_t kMaxPods = 64;
inline constexpr size_t kMaxEvents = 256;

// True iff `s` has at most kMaxEvents timeline entries ending by kMaxEndMs,
// and at most kMaxNodes nodes and kMaxPods pods, counting the initial ones
// and every create (a name created again counts again).
inline bool WithinDifferentialBounds(const api::Scenario& s) {
  if (s.timeline.size() > kMaxEvents) return false;
  if (!s.timeline.empty() && s.timeline.back().at > kMaxEndMs) return false;
  size_t nodes = s.initial.nodes.size();
  size_t pods = s.initial.pods.size();
  for (const api::Event& e : s.timeline) {
    if (e.op != api::Event::Op::kCreate) continue;
    if (std::holds_alternative<api::Node>(e.object)) ++nodes;
    if (std::holds_alternative<api::Pod>(e.object)) ++pods;
  }
  return nodes <= kMaxNodes && pods <= kMaxPods;
}

}  // namespace schedref::fuzz

#endif  // SCHEDREF_FUZZ_DIFFERENTIAL_BOUNDS_H_
