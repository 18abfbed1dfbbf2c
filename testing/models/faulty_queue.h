// FaultyQueue: a QueueUnderTest (queue_under_test.h) that forwards every call
// to another one, except for one injected bug, so that a test can show the
// queue property (queue_property.h) catches it. testonly; depends on no
// implementation. docs/fuzzing.md, "A property catching an injected bug".
//
// The bug: MoveAllOnEvent loses a pod. Of the pods in unschedulable before
// the event, the first by key that the event moved to activeQ or backoffQ is
// deleted from the wrapped queue right after the move, as if
// MoveAllToActiveOrBackoffQueue had taken it out of unschedulable and never
// requeued it. Every other operation, and MoveAllOnEvent when it moves
// nothing, behaves exactly as the wrapped queue.
#ifndef SCHEDREF_TESTING_MODELS_FAULTY_QUEUE_H_
#define SCHEDREF_TESTING_MODELS_FAULTY_QUEUE_H_

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "api/types/objects.h"
#include "testing/models/queue_model.h"
#include "testing/models/queue_under_test.h"

namespace schedref::testing::models {

class FaultyQueue final : public QueueUnderTest {
 public:
  // REQUIRES: queue != nullptr.
  explicit FaultyQueue(std::unique_ptr<QueueUnderTest> queue);

  void Add(const api::Pod& pod, api::TimeMs now) override;
  void Update(const api::Pod& old_pod, const api::Pod& new_pod,
              api::TimeMs now) override;
  void Delete(const api::Pod& pod) override;
  std::optional<QueuedPodView> Pop() override;
  void Done(const std::string& pod_uid) override;
  std::optional<std::string> Fail(const std::string& key,
                                  const api::Pod& latest,
                                  const std::set<std::string>& unschedulable,
                                  const std::set<std::string>& pending,
                                  api::TimeMs now) override;
  // The injected bug (see the file comment).
  void MoveAllOnEvent(const EventOp& op, api::TimeMs now) override;
  void Activate(const api::Pod& pod, api::TimeMs now) override;
  void FlushBackoffQCompleted(api::TimeMs now) override;
  void FlushUnschedulablePodsLeftover(api::TimeMs now) override;
  void AddNominatedPod(const api::Pod& pod,
                       const std::optional<std::string>& override_node) override;
  void DeleteNominatedPodIfExists(const api::Pod& pod) override;

  QueueWhere Locate(const std::string& key) const override;
  std::optional<QueuedPodView> Get(const std::string& key) const override;
  std::vector<std::string> ActivePodKeys() const override;
  std::vector<std::string> BackoffPodKeys() const override;
  std::vector<std::string> UnschedulablePodKeys() const override;
  std::vector<std::string> InFlightPodKeys() const override;
  bool HasPodsInFlight() const override;
  api::TimeMs BackoffExpiry(const std::string& key) const override;
  bool SortLess(const QueuedPodView& a, const QueuedPodView& b) const override;
  std::map<std::string, std::vector<std::string>> NominatedPodKeysByNode()
      const override;

 private:
  // --- constant after construction ---
  const std::unique_ptr<QueueUnderTest> queue_;
};

// The queues `make` builds, each wrapped in a FaultyQueue.
QueueFactory WithPodDroppedOnMove(QueueFactory make);

}  // namespace schedref::testing::models

#endif  // SCHEDREF_TESTING_MODELS_FAULTY_QUEUE_H_
