// DefaultNormalizeScore: scale a plugin's raw node scores to [0, max].
// Specification: upstream
// pkg/scheduler/framework/plugins/helper/normalize_score.go (v1.32).
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_HELPER_NORMALIZE_SCORE_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_HELPER_NORMALIZE_SCORE_H_

#include <cstdint>

#include "reference/framework/interface.h"

namespace schedref::reference::framework::plugins::helper {

// Let m be the largest score (at least 0). If m == 0: with `reverse` every
// score becomes `max_priority`, otherwise nothing changes. Else each score s
// becomes max_priority * s / m (integer division), and with `reverse`
// max_priority minus that. Never fails (upstream returns a nil status).
void DefaultNormalizeScore(int64_t max_priority, bool reverse,
                           NodeScoreList& scores);

}  // namespace schedref::reference::framework::plugins::helper

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_HELPER_NORMALIZE_SCORE_H_
