// DefaultNormalizeScore: scale a plugin's raw node scores to [0, max].
// Specification: upstream
// pkg/scheduler/framework/plugins/helper/normalize_score.go (v1.32).
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_HELPER_NORMALIZE_SCORE_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_HELPER_NORMALIZE_SCORE_H_

#include <cstdint>
#include <vector>

namespace schedref::optimized::framework::plugins::helper {

// Let m be the largest score, at least 0. If m == 0: with `reverse` every
// score becomes `max_priority`, otherwise nothing changes. Else each score s
// becomes max_priority * s / m (integer division, truncating toward zero),
// and with `reverse` max_priority minus that. Works in place on the score
// array the framework hands to NormalizeScore; never allocates or fails.
void DefaultNormalizeScore(int64_t max_priority, bool reverse,
                           std::vector<int64_t>& scores);

}  // namespace schedref::optimized::framework::plugins::helper

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_HELPER_NORMALIZE_SCORE_H_
