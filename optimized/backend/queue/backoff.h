// The backoff rule of the scheduling queue: how long a pod that was tried
// and failed waits before it may be tried again. Specification: upstream
// pkg/scheduler/backend/queue/scheduling_queue.go calculateBackoffDuration,
// getBackoffTime, isPodBackingoff, v1.32 (docs/semantics/queue.md "Backoff
// and the two flushes").
#ifndef SCHEDREF_OPTIMIZED_BACKEND_QUEUE_BACKOFF_H_
#define SCHEDREF_OPTIMIZED_BACKEND_QUEUE_BACKOFF_H_

#include <cstdint>

#include "api/types/objects.h"
#include "optimized/framework/interface.h"

namespace schedref::optimized::backend::queue {

// 0 for a pod never tried (attempts == 0: no penalty, v1.32, PR #126029),
// otherwise min(initial * 2^(attempts-1), max), computed by doubling so that
// it cannot overflow.
// REQUIRES: 0 < initial_ms <= max_ms.
int64_t CalculateBackoffDurationMs(int attempts, int64_t initial_ms, int64_t max_ms);

// When the pod's backoff ends: its timestamp (when it was last (re)queued)
// plus its backoff duration.
api::TimeMs BackoffExpiry(const framework::QueuedPodInfo& info, int64_t initial_ms,
                          int64_t max_ms);

// True iff the backoff ends strictly after `now`. Gated pods get no
// exemption.
bool IsPodBackingOff(const framework::QueuedPodInfo& info, api::TimeMs now,
                     int64_t initial_ms, int64_t max_ms);

}  // namespace schedref::optimized::backend::queue

#endif  // SCHEDREF_OPTIMIZED_BACKEND_QUEUE_BACKOFF_H_
