// QueueAdapter<Impl>: the QueueUnderTest (queue_under_test.h) of an
// implementation whose SchedulingQueue has the shape the reference's and the
// optimized one's share: the same operation and introspection names, the
// same Options fields and Where enumerators, Pop returning an optional
// QueuedPodInfo. What differs between implementations comes from `Impl`:
//
//   struct Impl {
//     using Queue = ...;          // the SchedulingQueue
//     using QueuedPodInfo = ...;
//     using Sort = ...;           // the real PrioritySort
//     using Gates = ...;          // the real SchedulingGates
//     // The fixture's profile (queue_model.h) with `gates` as PreEnqueue.
//     static std::map<std::string, typename Queue::Profile> Profiles(Gates* gates);
//     static const api::Pod& PodOf(const QueuedPodInfo& info);
//     static void SetPod(QueuedPodInfo& info, const api::Pod& pod);
//     static std::optional<QueuedPodInfo> Get(const Queue& q, const std::string& key);
//     // MoveAllToActiveOrBackoffQueue with the event and objects of `op`.
//     static void MoveAll(Queue& q, const EventOp& op, api::TimeMs now);
//     // AddNominatedPod, overriding to *override_node if set.
//     static void Nominate(Queue& q, const api::Pod& pod,
//                          const std::optional<std::string>& override_node);
//   };
//
// Header-only so that testing/models depends on no implementation; each
// implementation instantiates it in its queue_model_adapter.cc. testonly.
#ifndef SCHEDREF_TESTING_MODELS_QUEUE_ADAPTER_H_
#define SCHEDREF_TESTING_MODELS_QUEUE_ADAPTER_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "api/types/objects.h"
#include "testing/models/queue_model.h"
#include "testing/models/queue_under_test.h"

namespace schedref::testing::models {

template <typename Impl>
class QueueAdapter final : public QueueUnderTest {
 public:
  using Queue = typename Impl::Queue;
  using Info = typename Impl::QueuedPodInfo;

  explicit QueueAdapter(const QueueModel::Config& config)
      : queue_(Options(config), &sort_, Impl::Profiles(&gates_)) {}

  void Add(const api::Pod& pod, api::TimeMs now) override {
    (void)queue_.Add(pod, now);
  }
  void Update(const api::Pod& old_pod, const api::Pod& new_pod,
              api::TimeMs now) override {
    (void)queue_.Update(old_pod, new_pod, now);
  }
  void Delete(const api::Pod& pod) override { (void)queue_.Delete(pod); }
  std::optional<QueuedPodView> Pop() override {
    std::optional<Info> got = queue_.Pop();
    if (!got.has_value()) return std::nullopt;
    popped_[Impl::PodOf(*got).Key()] = Popped{*got, queue_.SchedulingCycle()};
    return View(*got);
  }
  void Done(const std::string& pod_uid) override {
    queue_.Done(pod_uid);
    for (auto it = popped_.begin(); it != popped_.end(); ++it) {
      if (Impl::PodOf(it->second.info).uid == pod_uid) {
        popped_.erase(it);
        break;
      }
    }
  }
  std::optional<std::string> Fail(const std::string& key,
                                  const api::Pod& latest,
                                  const std::set<std::string>& unschedulable,
                                  const std::set<std::string>& pending,
                                  api::TimeMs now) override {
    auto it = popped_.find(key);
    if (it == popped_.end()) return "harness: " + key + " was not popped";
    Info info = it->second.info;
    Impl::SetPod(info, latest);
    info.unschedulable_plugins = unschedulable;
    info.pending_plugins = pending;
    const int64_t cycle = it->second.cycle;
    popped_.erase(it);
    schedref::Status s = queue_.AddUnschedulableIfNotPresent(info, cycle, now);
    if (!s.ok()) {
      return "AddUnschedulableIfNotPresent(" + key + ") failed: " + s.message();
    }
    return std::nullopt;
  }
  void MoveAllOnEvent(const EventOp& op, api::TimeMs now) override {
    Impl::MoveAll(queue_, op, now);
  }
  void Activate(const api::Pod& pod, api::TimeMs now) override {
    queue_.Activate({pod}, now);
  }
  void FlushBackoffQCompleted(api::TimeMs now) override {
    queue_.FlushBackoffQCompleted(now);
  }
  void FlushUnschedulablePodsLeftover(api::TimeMs now) override {
    queue_.FlushUnschedulablePodsLeftover(now);
  }
  void AddNominatedPod(const api::Pod& pod,
                       const std::optional<std::string>& override_node) override {
    Impl::Nominate(queue_, pod, override_node);
  }
  void DeleteNominatedPodIfExists(const api::Pod& pod) override {
    queue_.DeleteNominatedPodIfExists(pod);
  }

  QueueWhere Locate(const std::string& key) const override {
    switch (queue_.Locate(key)) {
      case Queue::Where::kActive:
        return QueueWhere::kActive;
      case Queue::Where::kBackoff:
        return QueueWhere::kBackoff;
      case Queue::Where::kUnschedulable:
        return QueueWhere::kUnschedulable;
      case Queue::Where::kInFlight:
        return QueueWhere::kInFlight;
      case Queue::Where::kAbsent:
        break;
    }
    return QueueWhere::kAbsent;
  }
  std::optional<QueuedPodView> Get(const std::string& key) const override {
    std::optional<Info> info = Impl::Get(queue_, key);
    if (!info.has_value()) return std::nullopt;
    return View(*info);
  }
  std::vector<std::string> ActivePodKeys() const override {
    return queue_.ActivePodKeys();
  }
  std::vector<std::string> BackoffPodKeys() const override {
    return queue_.BackoffPodKeys();
  }
  std::vector<std::string> UnschedulablePodKeys() const override {
    return queue_.UnschedulablePodKeys();
  }
  std::vector<std::string> InFlightPodKeys() const override {
    return queue_.InFlightPodKeys();
  }
  bool HasPodsInFlight() const override { return queue_.HasPodsInFlight(); }
  api::TimeMs BackoffExpiry(const std::string& key) const override {
    return queue_.BackoffExpiry(*Impl::Get(queue_, key));
  }
  bool SortLess(const QueuedPodView& a, const QueuedPodView& b) const override {
    return sort_.Less(FromView(a), FromView(b));
  }
  std::map<std::string, std::vector<std::string>> NominatedPodKeysByNode()
      const override {
    return queue_.NominatedPodKeysByNode();
  }

 private:
  struct Popped {
    Info info;
    int64_t cycle = 0;
  };

  static typename Queue::Options Options(const QueueModel::Config& c) {
    typename Queue::Options options;
    options.pod_initial_backoff_ms = c.initial_backoff_ms;
    options.pod_max_backoff_ms = c.max_backoff_ms;
    options.pod_max_in_unschedulable_pods_ms = c.max_in_unschedulable_ms;
    return options;
  }
  static QueuedPodView View(const Info& info) {
    return QueuedPodView{Impl::PodOf(info),
                         info.timestamp,
                         info.attempts,
                         info.initial_attempt_timestamp,
                         info.unschedulable_plugins,
                         info.pending_plugins,
                         info.gated};
  }
  static Info FromView(const QueuedPodView& view) {
    Info info;
    Impl::SetPod(info, view.pod);
    info.timestamp = view.timestamp;
    info.attempts = view.attempts;
    info.initial_attempt_timestamp = view.initial_attempt_timestamp;
    info.unschedulable_plugins = view.unschedulable_plugins;
    info.pending_plugins = view.pending_plugins;
    info.gated = view.gated;
    return info;
  }

  // --- constant after construction ---
  typename Impl::Sort sort_;
  typename Impl::Gates gates_;
  Queue queue_;

  // Key -> what Pop returned, until Done or AddUnschedulableIfNotPresent
  // (what the scheduling loop holds).
  std::map<std::string, Popped> popped_;
};

}  // namespace schedref::testing::models

#endif  // SCHEDREF_TESTING_MODELS_QUEUE_ADAPTER_H_
