// ModelQueue: the queue model (queue_model.h) itself behind the
// QueueUnderTest interface (queue_under_test.h): a queue that agrees with
// the model by construction. testonly; depends on no implementation.
//
// It lets tests in testing/models exercise the property (queue_property.h)
// and the harness (queue_harness.h) without a real queue, which this
// package may not depend on: the injected-bug test wraps it in a FaultyQueue
// (faulty_queue.h) to show the property catches and shrinks a lost pod, and
// runs it bare to show that without the bug the same run passes. It says
// nothing about any implementation; their own model tests do that.
//
// Each call is translated back into the QueueOp that produced it and applied
// to a QueueModel; introspection reads that model. A translation error shows
// as a disagreement in the bare run ("holds a stale object", a location).
#ifndef SCHEDREF_TESTING_MODELS_MODEL_QUEUE_H_
#define SCHEDREF_TESTING_MODELS_MODEL_QUEUE_H_

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

class ModelQueue final : public QueueUnderTest {
 public:
  explicit ModelQueue(const QueueModel::Config& config);

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
  // QueueSort as the model orders activeQ: priority (higher first),
  // timestamp, key.
  bool SortLess(const QueuedPodView& a, const QueuedPodView& b) const override;
  std::map<std::string, std::vector<std::string>> NominatedPodKeysByNode()
      const override;

 private:
  // Applies `body` at `at` if the model allows it; an operation the model
  // does not allow changes nothing (the harness never sends one).
  void Run(api::TimeMs at, QueueOpBody body);

  QueueModel model_;
};

// A QueueFactory building ModelQueues.
std::unique_ptr<QueueUnderTest> NewModelQueue(const QueueModel::Config& config);

}  // namespace schedref::testing::models

#endif  // SCHEDREF_TESTING_MODELS_MODEL_QUEUE_H_
