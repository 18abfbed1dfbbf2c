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

#include <cstdint>
#include <string>
#include <vector>

#include "testing/models/queue_under_test.h"

namespace schedref::testing::models {

// Generates a configuration and a command sequence, and fails the current
// RapidCheck property at the first command after which the queue `make`
// builds disagrees with the model. REQUIRES: called inside a property.
void CheckQueueAgainstModel(const QueueFactory& make);

// What one run of the property found (RunQueueProperty).
struct QueuePropertyRun {
  enum class Verdict {
    kPassed,      // every case passed
    kFalsified,   // a case failed; the fields below describe it, shrunk
    kGaveUp,      // too many cases discarded
    kError,       // RapidCheck itself failed
  };
  Verdict verdict = Verdict::kError;
  // Cases that passed (before the failing one, if any).
  int passed_cases = 0;
  // kFalsified: the shrunk case's failure, as RapidCheck describes it
  // (where RC_FAIL was called, then the message "after \"<command>\": <what
  // disagreed>" on the last line), its configuration as shown, its commands
  // as shown (one per element, an event log), and how many shrink steps led
  // there. Otherwise why RapidCheck gave up or failed, and nothing else.
  std::string message;
  std::string config;
  std::vector<std::string> commands;
  int shrinks = 0;
  // RapidCheck's report, as `rc::check` would print it (with the
  // counterexample and the reproduce string).
  std::string report;
};

// Runs CheckQueueAgainstModel(make) as one property with this seed and
// number of cases (maximum size and discard ratio RapidCheck's defaults),
// in-process and silently, and returns what it found instead of failing.
// RC_PARAMS is not consulted: the same arguments give the same run.
QueuePropertyRun RunQueueProperty(const QueueFactory& make, uint64_t seed,
                                  int max_success);

}  // namespace schedref::testing::models

#endif  // SCHEDREF_TESTING_MODELS_QUEUE_PROPERTY_H_
