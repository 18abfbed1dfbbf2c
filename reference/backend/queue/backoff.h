// The backoff rule of the scheduling queue: how long a pod that was tried and
// failed waits before it may be tried again. Specification: upstream
// pkg/scheduler/backend/queue/scheduling_queue.go calculateBackoffDuration,
// getBackoffTime and isPodBackingoff, v1.32.
#ifndef SCHEDREF_REFERENCE_BACKEND_QUEUE_BACKOFF_H_
#define SCHEDREF_REFERENCE_BACKEND_QUEUE_BACKOFF_H_

#include <cstdint>

#include "api/types/objects.h"
#include "reference/framework/interface.h"

namespace schedref::reference::queue {

// 0 for a pod never tried (attempts == 0: no penalty, v1.32+), otherwise
// min(initial * 2^(attempts-1), max), computed by doubling so that it cannot
// overflow.
// REQUIRES: 0 < initial_ms <= max_ms.
int64_t CalculateBackoffDurationMs(int attempts, int64_t initial_ms,
                                   int64_t max_ms);

// When the pod's backoff ends: its timestamp (the last time it was
// (re)queued) plus its backoff duration.
api::TimeMs BackoffExpiry(const framework::QueuedPodInfo& info,
                          int64_t initial_ms, int64_t max_ms);

// True iff the backoff ends strictly after `now`. Gated pods get no
// exemption (v1.32: a pod that failed before, was gated and then ungated
// still serves its penalty).
bool IsPodBackingOff(const framework::QueuedPodInfo& info, api::TimeMs now,
                     int64_t initial_ms, int64_t max_ms);

}  // namespace schedref::reference::queue

#endif  // SCHEDREF_REFERENCE_BACKEND_QUEUE_BACKOFF_H_
