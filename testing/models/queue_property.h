// The scheduling queue's stateful property: RapidCheck (rc::state) command
// sequences over the model of queue_model.h, run against any implementation
// through its QueueUnderTest adapter. Each implementation's
// scheduling_queue_model_test calls it from an RC_GTEST_PROP. testonly.
//
// One command per operation (add, update, delete, pop, done, fail, event,
// activate, flush backoffQ, flush unschedulable leftovers, nominate, clear
// nomination); checkPreconditions / apply / run / show come from one base,
// because the meaning of an operation lives in the model (shared with
// fuzz/queue_ops_fuzz.cc), not in the command. show() prints one line of an
// event log ("t=2s fail default/p1 unschedulable=[...]"), so a shrunk
// failure reads as a story. Every command carries its absolute time, so
// removing a command while shrinking does not shift the others in time; the
// clock advances only through those times.
//
// A failure prints the configuration, the shrunk commands and
// RC_PARAMS="reproduce=..." (docs/fuzzing.md).
#ifndef SCHEDREF_TESTING_MODELS_QUEUE_PROPERTY_H_
#define SCHEDREF_TESTING_MODELS_QUEUE_PROPERTY_H_

#include "testing/models/queue_under_test.h"

namespace schedref::testing::models {

// Generates a configuration and a command sequence, and fails the current
// RapidCheck property at the first command after which the queue `make`
// builds disagrees with the model. REQUIRES: called inside a property.
void CheckQueueAgainstModel(const QueueFactory& make);

}  // namespace schedref::testing::models

#endif  // SCHEDREF_TESTING_MODELS_QUEUE_PROPERTY_H_
