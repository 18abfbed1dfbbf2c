// A check that a filter's FilterPass means exactly what its Filter says
// (the contract in framework/interface.h), for plugin tests.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_TESTING_FILTER_PASS_CHECK_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_TESTING_FILTER_PASS_CHECK_H_

#include <gtest/gtest.h>

#include <vector>

#include "optimized/framework/interface.h"

namespace schedref::optimized::framework::testing {

// Runs pl.FilterPass over `nodes` twice: with every node in the running,
// and with every other node (odd positions) already out with a marker
// status. Success iff, both times, each node in the running leaves it iff
// Filter does not pass it, with Filter's status; every entry out of the
// running is left as it was; and the return value is the number of nodes
// it took out.
::testing::AssertionResult FilterPassMatchesFilter(const FilterPlugin& pl,
                                                   const CycleState& state,
                                                   const PodInfo& pod,
                                                   const std::vector<const NodeInfo*>& nodes);

}  // namespace schedref::optimized::framework::testing

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_TESTING_FILTER_PASS_CHECK_H_
