// QueueHarness: runs the model's operations on a real scheduling queue,
// through its QueueUnderTest adapter, and compares the queue with the model
// (queue_model.h) after every step. testonly; depends on no implementation.
#ifndef SCHEDREF_TESTING_MODELS_QUEUE_HARNESS_H_
#define SCHEDREF_TESTING_MODELS_QUEUE_HARNESS_H_

#include <memory>
#include <optional>
#include <string>

#include "testing/models/queue_model.h"
#include "testing/models/queue_under_test.h"

namespace schedref::testing::models {

// Where `m` has the pod with `key`, in the adapter's terms (kAbsent:
// nowhere).
QueueWhere ModelWhere(const QueueModel& m, const std::string& key);

class QueueHarness {
 public:
  // REQUIRES: queue != nullptr, configured as the model it is compared with.
  explicit QueueHarness(std::unique_ptr<QueueUnderTest> queue);
  QueueHarness(const QueueHarness&) = delete;
  QueueHarness& operator=(const QueueHarness&) = delete;

  // Runs `op` on the queue and compares it with the model after `op`: the
  // first disagreement, or nullopt. `before` is the model before `op`.
  // Beyond Check: a pop takes the model's head, and nothing left in activeQ
  // sorts before it by the queue's own QueueSort; it carries no rejectors;
  // a backoffQ flush moves a pod iff the queue's own expiry has passed.
  // REQUIRES: IsValid(before, op) and the queue agreed with `before`.
  std::optional<std::string> RunAndCheck(const QueueModel& before,
                                         const QueueOp& op);
  // Compares the whole queue with `m`: every pod in exactly one place, the
  // one the model says, no pod lost or duplicated; the order of each
  // structure; each queued pod's QueuedPodInfo; backoff expiries; the
  // nominator.
  std::optional<std::string> Check(const QueueModel& m) const;

 private:
  std::unique_ptr<QueueUnderTest> queue_;
};

}  // namespace schedref::testing::models

#endif  // SCHEDREF_TESTING_MODELS_QUEUE_HARNESS_H_
