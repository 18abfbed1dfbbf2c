// QueueUnderTest: what QueueHarness (queue_harness.h) needs from a
// scheduling queue implementation, in api types only, so that one model and
// one command set drive every implementation. Each implementation has one
// adapter beside its queue (testonly): reference/backend/queue and
// optimized/backend/queue, queue_model_adapter.h.
//
// An adapter owns the queue, the fixture's plugins (queue_model.h: the real
// PrioritySort and SchedulingGates of its implementation, and the fake
// plugins, whose hints call FixtureNodeFits / FixturePodLabelQueues) and what
// the scheduling loop holds between Pop and Done / failure. It translates
// calls and results and nothing else: every decision is the queue's.
#ifndef SCHEDREF_TESTING_MODELS_QUEUE_UNDER_TEST_H_
#define SCHEDREF_TESTING_MODELS_QUEUE_UNDER_TEST_H_

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "api/types/objects.h"
#include "testing/models/queue_model.h"

namespace schedref::testing::models {

// Where a pending pod is, as SchedulingQueue::Locate reports it.
enum class QueueWhere { kActive, kBackoff, kUnschedulable, kInFlight, kAbsent };

// A QueuedPodInfo in api types.
struct QueuedPodView {
  api::Pod pod;
  api::TimeMs timestamp = 0;
  int attempts = 0;
  std::optional<api::TimeMs> initial_attempt_timestamp;
  std::set<std::string> unschedulable_plugins;
  std::set<std::string> pending_plugins;
  bool gated = false;
};

class QueueUnderTest {
 public:
  virtual ~QueueUnderTest() = default;

  // --- operations (SchedulingQueue's, same names) ---
  virtual void Add(const api::Pod& pod, api::TimeMs now) = 0;
  virtual void Update(const api::Pod& old_pod, const api::Pod& new_pod,
                      api::TimeMs now) = 0;
  virtual void Delete(const api::Pod& pod) = 0;
  // Pop; the adapter keeps the QueuedPodInfo and SchedulingCycle() for a
  // later Fail, as the scheduling loop does.
  virtual std::optional<QueuedPodView> Pop() = 0;
  virtual void Done(const std::string& pod_uid) = 0;
  // AddUnschedulableIfNotPresent of what Pop returned for `key`, carrying
  // `latest` (the informer's latest object, as the failure handler passes
  // it) and these rejectors, with the cycle of that pop. The error, if any
  // (also when `key` was not popped).
  virtual std::optional<std::string> Fail(
      const std::string& key, const api::Pod& latest,
      const std::set<std::string>& unschedulable,
      const std::set<std::string>& pending, api::TimeMs now) = 0;
  // MoveAllToActiveOrBackoffQueue with the event `op` names (the
  // implementation's NodeAdd, AssignedPodDelete, a Node/UpdateNodeLabel
  // "NodeLabelChange", a Node/UpdateNodeTaint "NodeTaintChange", a
  // */All "WildCardEvent") and EventObjectsFor(op); no pre-check.
  virtual void MoveAllOnEvent(const EventOp& op, api::TimeMs now) = 0;
  virtual void Activate(const api::Pod& pod, api::TimeMs now) = 0;
  virtual void FlushBackoffQCompleted(api::TimeMs now) = 0;
  virtual void FlushUnschedulablePodsLeftover(api::TimeMs now) = 0;
  // AddNominatedPod with an override to `override_node`, or without
  // NominatingInfo (nullopt).
  virtual void AddNominatedPod(const api::Pod& pod,
                               const std::optional<std::string>& override_node) = 0;
  virtual void DeleteNominatedPodIfExists(const api::Pod& pod) = 0;

  // --- introspection ---
  virtual QueueWhere Locate(const std::string& key) const = 0;
  // The QueuedPodInfo of a pod in activeQ, backoffQ or unschedulable.
  virtual std::optional<QueuedPodView> Get(const std::string& key) const = 0;
  virtual std::vector<std::string> ActivePodKeys() const = 0;
  virtual std::vector<std::string> BackoffPodKeys() const = 0;
  virtual std::vector<std::string> UnschedulablePodKeys() const = 0;
  virtual std::vector<std::string> InFlightPodKeys() const = 0;
  virtual bool HasPodsInFlight() const = 0;
  // The queue's BackoffExpiry of Get(key). REQUIRES: Get(key).
  virtual api::TimeMs BackoffExpiry(const std::string& key) const = 0;
  // The real QueueSort's Less.
  virtual bool SortLess(const QueuedPodView& a, const QueuedPodView& b) const = 0;
  virtual std::map<std::string, std::vector<std::string>>
  NominatedPodKeysByNode() const = 0;
};

// Builds an implementation's queue configured as the model says.
using QueueFactory =
    std::function<std::unique_ptr<QueueUnderTest>(const QueueModel::Config&)>;

}  // namespace schedref::testing::models

#endif  // SCHEDREF_TESTING_MODELS_QUEUE_UNDER_TEST_H_
