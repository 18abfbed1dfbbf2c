// The injected-bug check of the queue property (docs/fuzzing.md,
// "A property catching an injected bug"): with FaultyQueue's bug
// (faulty_queue.h: an event that moves pods out of unschedulable loses one)
// the property fails, shrunk to a short event log that names the lost pod;
// without it, on the same seed, it passes. Run against the model itself
// (injected_bug_test) and against each implementation's queue (their
// scheduling_queue_injected_bug_test), so that a weaker command set,
// harness or shrinking shows up as a failing test.
#ifndef SCHEDREF_TESTING_MODELS_INJECTED_BUG_H_
#define SCHEDREF_TESTING_MODELS_INJECTED_BUG_H_

#include "testing/models/queue_property.h"

namespace schedref::testing::models {

// gtest failures unless the property, run with a fixed seed, is falsified
// on WithPodDroppedOnMove(make) with a shrunk trace of four to six commands
// ending in the event that lost the pod, the same trace on a second run;
// and passes every case on `make` itself.
void ExpectPropertyCatchesPodLostOnMove(const QueueFactory& make);

}  // namespace schedref::testing::models

#endif  // SCHEDREF_TESTING_MODELS_INJECTED_BUG_H_
