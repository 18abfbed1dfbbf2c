#include "reference/framework/plugins/helper/normalize_score.h"

namespace schedref::reference::framework::plugins::helper {

void DefaultNormalizeScore(int64_t max_priority, bool reverse,
                           NodeScoreList& scores) {
  int64_t max_count = 0;
  for (const NodePluginScore& s : scores) {
    if (s.score > max_count) max_count = s.score;
  }
  if (max_count == 0) {
    if (reverse) {
      for (NodePluginScore& s : scores) s.score = max_priority;
    }
    return;
  }
  for (NodePluginScore& s : scores) {
    int64_t score = max_priority * s.score / max_count;
    if (reverse) score = max_priority - score;
    s.score = score;
  }
}

}  // namespace schedref::reference::framework::plugins::helper
