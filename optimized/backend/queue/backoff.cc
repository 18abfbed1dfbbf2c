#include "optimized/backend/queue/backoff.h"

namespace schedref::optimized::backend::queue {

int64_t CalculateBackoffDurationMs(int attempts, int64_t initial_ms, int64_t max_ms) {
  if (attempts == 0) return 0;
  int64_t duration = initial_ms;
  for (int i = 1; i < attempts; ++i) {
    // Doubling would pass max: written so that it cannot overflow.
    if (duration > max_ms - duration) return max_ms;
    duration *= 2;
  }
  return duration;
}

api::TimeMs BackoffExpiry(const framework::QueuedPodInfo& info, int64_t initial_ms,
                          int64_t max_ms) {
  return info.timestamp + CalculateBackoffDurationMs(info.attempts, initial_ms, max_ms);
}

bool IsPodBackingOff(const framework::QueuedPodInfo& info, api::TimeMs now,
                     int64_t initial_ms, int64_t max_ms) {
  return BackoffExpiry(info, initial_ms, max_ms) > now;
}

}  // namespace schedref::optimized::backend::queue
