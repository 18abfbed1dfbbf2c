// Stateful property test of the reference scheduling queue: the shared model
// of testing/models/queue_model.h and its RapidCheck commands
// (testing/models/queue_property.h) against SchedulingQueue, through
// queue_model_adapter.h. Random sequences of informer events, scheduling
// attempts, cluster events and timer ticks; after every command the queue
// must agree with the model (where each pod is, the order of activeQ /
// backoffQ / unschedulable / in flight, attempts, timestamps, gating,
// rejectors, backoff expiries, nominations).
//
// A failure prints the shrunk command sequence as an event log and
// RC_PARAMS="reproduce=..." to rerun it (docs/fuzzing.md).
#include "gtest/gtest.h"
// After gtest.h: rapidcheck/gtest.h uses its macros.
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "reference/backend/queue/queue_model_adapter.h"
#include "testing/models/queue_property.h"

namespace schedref::reference::queue {
namespace {

RC_GTEST_PROP(SchedulingQueueModelTest, QueueAgreesWithModel, ()) {
  testing::models::CheckQueueAgainstModel(NewQueueUnderTest);
}

}  // namespace
}  // namespace schedref::reference::queue
