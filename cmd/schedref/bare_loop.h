// The bare loop: the developers' guide's yardstick for the optimized
// implementation on SchedulingBasic ("a bare loop doing only the work the
// default semantics require for SchedulingBasic-shaped pods (5000 nodes,
// scan to 500 feasible, two scores, pick, account) ... the optimized
// implementation should come within 3x of that"). `schedref bench` runs it
// beside the optimized implementation, so that the ratio is measured on the
// same machine at the same moment instead of against a remembered figure.
//
// It is not a scheduler: no queue, events, plugins, trace or binding, the
// nodes in a flat array, and ties broken by the first position instead of
// at random. Per pod it does what upstream's default profile requires of
// such a pod: from a round-robin start, scan the nodes until
// numFeasibleNodesToFind fit (cpu, memory, pod count: NodeResourcesFit),
// score each by NodeResourcesFit's LeastAllocated and by
// NodeResourcesBalancedAllocation (cpu and memory, weight 1 each), pick the
// highest total, and add the pod's requests to its node.
#ifndef SCHEDREF_CMD_SCHEDREF_BARE_LOOP_H_
#define SCHEDREF_CMD_SCHEDREF_BARE_LOOP_H_

#include <cstdint>
#include <vector>

#include "api/types/objects.h"

namespace schedref::cmd {

struct BareLoopResult {
  // Per pod, in order, its node's index in `nodes`; -1: no node fits.
  std::vector<int32_t> chosen;
  // Wall time of the pods after the first `untimed` ones.
  double seconds = 0;
};

// Places `pods` in order on `nodes` (their allocatable cpu, memory and pods;
// nothing else is read). The first `untimed` pods (the init pods) are
// placed before the clock starts.
// REQUIRES: untimed <= pods.size().
[[nodiscard]] BareLoopResult RunBareLoop(const std::vector<api::Node>& nodes,
                                         const std::vector<const api::Pod*>& pods,
                                         size_t untimed);

// upstream numFeasibleNodesToFind with the default (adaptive)
// percentageOfNodesToScore.
[[nodiscard]] int64_t BareLoopNodesToFind(int64_t num_nodes);

}  // namespace schedref::cmd

#endif  // SCHEDREF_CMD_SCHEDREF_BARE_LOOP_H_
