// The queue property catches an injected bug and shrinks it to a short
// event log (injected_bug.h), here on ModelQueue (model_queue.h),
// the model behind the queue interface, so that the run without the bug
// passes by construction and the difference between the two runs is the bug
// alone. Each implementation runs the same check on its own queue
// (reference/ and optimized/backend/queue:scheduling_queue_injected_bug_test).
#include "gtest/gtest.h"
#include "testing/models/injected_bug.h"
#include "testing/models/model_queue.h"

namespace schedref::testing::models {
namespace {

TEST(InjectedBugTest, PropertyCatchesPodLostOnMoveInTheModelQueue) {
  ExpectPropertyCatchesPodLostOnMove(NewModelQueue);
}

}  // namespace
}  // namespace schedref::testing::models
