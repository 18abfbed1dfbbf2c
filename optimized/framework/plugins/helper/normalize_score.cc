#include "optimized/framework/plugins/helper/normalize_score.h"

#include <algorithm>

namespace schedref::optimized::framework::plugins::helper {

void DefaultNormalizeScore(int64_t max_priority, bool reverse,
                           std::vector<int64_t>& scores) {
  int64_t max_count = 0;
  for (int64_t s : scores) max_count = std::max(max_count, s);
  if (max_count == 0) {
    if (reverse) std::fill(scores.begin(), scores.end(), max_priority);
    return;
  }
  for (int64_t& s : scores) {
    const int64_t scaled = max_priority * s / max_count;
    s = reverse ? max_priority - scaled : scaled;
  }
}

}  // namespace schedref::optimized::framework::plugins::helper
