// HotCheck: a condition on a node's Hot line (types.h) under which every
// active filter of a cycle passes the node. No upstream counterpart: the
// filters' semantics stay those of their Filter (docs/optimized.md "One
// check of the Hot line").
//
// Each filter that can tell from the Hot line alone that it passes a node
// narrows the check with its own condition (FilterPlugin::NarrowHotCheck);
// the conjunction then says that all of them pass. A node that fails the
// check is not rejected by it: it goes through the filters one by one, which
// decide (and give the rejection its status).
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_HOT_CHECK_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_HOT_CHECK_H_

#include <algorithm>
#include <cstdint>

#include "optimized/framework/types.h"

namespace schedref::optimized::framework {

// What every node of a group (a block of snapshot positions) has in
// common on its Hot line: the least room and the flag unions, so that a
// HotCheck passing the summary passes each of the group's nodes.
struct HotSummary {
  int64_t min_free_milli_cpu = INT64_MAX;
  int64_t min_free_memory = INT64_MAX;
  int64_t min_free_pods = INT64_MAX;  // allowed_pod_number - num_pods
  uint32_t any_flags = 0;             // flags some node has
  uint32_t all_flags = ~uint32_t{0};  // flags every node has

  void Add(const NodeInfo::Hot& h) {
    min_free_milli_cpu = std::min(min_free_milli_cpu, h.allocatable_milli_cpu - h.requested_milli_cpu);
    min_free_memory = std::min(min_free_memory, h.allocatable_memory - h.requested_memory);
    min_free_pods = std::min(min_free_pods, h.allowed_pod_number - int64_t{h.num_pods});
    any_flags |= h.flags;
    all_flags &= h.flags;
  }
  bool operator==(const HotSummary&) const = default;
};

struct HotCheck {
  // NodeInfo::HotFlag bits that must be clear, and bits that must be set.
  uint32_t flags_clear = 0;
  uint32_t flags_set = 0;
  // allocatable - requested must be at least these (INT64_MIN: anything).
  int64_t min_free_milli_cpu = INT64_MIN;
  int64_t min_free_memory = INT64_MIN;
  // Whether the node must have room for one more pod
  // (num_pods + 1 <= allowed_pod_number).
  bool pod_slot = false;

  // Adds `other`'s conditions: afterwards a line passes iff it passed both.
  void And(const HotCheck& other) {
    flags_clear |= other.flags_clear;
    flags_set |= other.flags_set;
    min_free_milli_cpu = std::max(min_free_milli_cpu, other.min_free_milli_cpu);
    min_free_memory = std::max(min_free_memory, other.min_free_memory);
    pod_slot = pod_slot || other.pod_slot;
  }

  // True iff `h` meets every condition. Branch-free: a scan calls it for
  // hundreds of nodes a cycle.
  bool Passes(const NodeInfo::Hot& h) const {
    return ((h.flags & flags_clear) == 0) & ((h.flags & flags_set) == flags_set) &
           (!pod_slot | (int64_t{h.num_pods} + 1 <= h.allowed_pod_number)) &
           (min_free_milli_cpu <= h.allocatable_milli_cpu - h.requested_milli_cpu) &
           (min_free_memory <= h.allocatable_memory - h.requested_memory);
  }

  // True iff every node Add()ed to `s` passes (for an empty group, true).
  // Each condition of Passes is a bound or a flag test, which holds for
  // every node iff it holds for the least room or the flag union.
  bool PassesAll(const HotSummary& s) const {
    return ((s.any_flags & flags_clear) == 0) & ((s.all_flags & flags_set) == flags_set) &
           (!pod_slot | (s.min_free_pods >= 1)) & (min_free_milli_cpu <= s.min_free_milli_cpu) &
           (min_free_memory <= s.min_free_memory);
  }
};

}  // namespace schedref::optimized::framework

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_HOT_CHECK_H_
