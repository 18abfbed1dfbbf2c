#include "optimized/framework/testing/filter_pass_check.h"

#include <cstdint>
#include <string>

namespace schedref::optimized::framework::testing {

::testing::AssertionResult FilterPassMatchesFilter(const FilterPlugin& pl,
                                                   const CycleState& state,
                                                   const PodInfo& pod,
                                                   const std::vector<const NodeInfo*>& nodes) {
  const Status marker(Code::kUnschedulable, "already out");
  for (const bool every_other_out : {false, true}) {
    const size_t n = nodes.size();
    std::vector<uint8_t> pass(n, 1);
    std::vector<Status> statuses(n);
    for (size_t i = 1; every_other_out && i < n; i += 2) {
      pass[i] = 0;
      statuses[i] = marker;
    }
    const std::vector<uint8_t> before = pass;
    const size_t cleared = pl.FilterPass(state, pod, nodes.data(), n, pass.data(), statuses.data());
    size_t expected_cleared = 0;
    for (size_t i = 0; i < n; ++i) {
      const std::string where = std::string(every_other_out ? "(every other node out) " : "") +
                                "node " + std::to_string(i) + " (" + nodes[i]->Name() + "): ";
      if (before[i] == 0) {
        if (pass[i] != 0 || !(statuses[i] == marker)) {
          return ::testing::AssertionFailure() << where << "changed though out of the running";
        }
        continue;
      }
      const Status want = pl.Filter(state, pod, *nodes[i]);
      if (want.IsSuccess()) {
        if (pass[i] == 0) {
          return ::testing::AssertionFailure()
                 << where << "taken out with \"" << statuses[i].Message()
                 << "\", but Filter passes it";
        }
        continue;
      }
      ++expected_cleared;
      if (pass[i] != 0) {
        return ::testing::AssertionFailure()
               << where << "kept, but Filter says \"" << want.Message() << "\"";
      }
      if (!(statuses[i] == want)) {
        return ::testing::AssertionFailure() << where << "status \"" << statuses[i].Message()
                                             << "\", Filter's \"" << want.Message() << "\"";
      }
    }
    if (cleared != expected_cleared) {
      return ::testing::AssertionFailure() << "FilterPass returned " << cleared << ", took out "
                                           << expected_cleared;
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace schedref::optimized::framework::testing
