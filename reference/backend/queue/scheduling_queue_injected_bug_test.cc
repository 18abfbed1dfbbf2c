// The injected-bug check (testing/models/injected_bug.h) on this
// implementation's scheduling queue: the queue property catches a pod lost
// on a move event and shrinks it to a short event log, and passes on the
// queue as it is.
#include "gtest/gtest.h"
#include "reference/backend/queue/queue_model_adapter.h"
#include "testing/models/injected_bug.h"

namespace schedref::reference::queue {
namespace {

TEST(SchedulingQueueInjectedBugTest, PropertyCatchesPodLostOnMove) {
  testing::models::ExpectPropertyCatchesPodLostOnMove(NewQueueUnderTest);
}

}  // namespace
}  // namespace schedref::reference::queue
