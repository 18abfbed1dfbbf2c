#include "optimized/framework/plugins/helper/normalize_score.h"

#include <algorithm>

#include "optimized/framework/vectorize.h"

namespace schedref::optimized::framework::plugins::helper {

SCHEDREF_VECTORIZE void DefaultNormalizeScore(int64_t max_priority, bool reverse,
                           std::vector<int64_t>& scores) {
  // Usually every score is 0 (no node has what the plugin counts): an OR,
  // which vectorizes, tells before the max, which does not.
  int64_t any = 0;
  for (int64_t s : scores) any |= s;
  int64_t max_count = 0;
  if (any != 0) {
    for (int64_t s : scores) max_count = std::max(max_count, s);
  }
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
