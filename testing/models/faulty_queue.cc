#include "testing/models/faulty_queue.h"

#include <utility>

namespace schedref::testing::models {

FaultyQueue::FaultyQueue(std::unique_ptr<QueueUnderTest> queue)
    : queue_(std::move(queue)) {}

void FaultyQueue::MoveAllOnEvent(const EventOp& op, api::TimeMs now) {
  const std::vector<std::string> unschedulable = queue_->UnschedulablePodKeys();
  queue_->MoveAllOnEvent(op, now);
  for (const std::string& key : unschedulable) {
    const QueueWhere where = queue_->Locate(key);
    if (where != QueueWhere::kActive && where != QueueWhere::kBackoff) continue;
    // Deleting through the wrapped queue's own operation keeps it
    // internally consistent: the pod is simply gone, as a lost pod is.
    if (std::optional<QueuedPodView> moved = queue_->Get(key)) {
      queue_->Delete(moved->pod);  // INJECTED BUG: the moved pod is lost
    }
    return;
  }
}

// --- everything else is the wrapped queue's ---

void FaultyQueue::Add(const api::Pod& pod, api::TimeMs now) {
  queue_->Add(pod, now);
}
void FaultyQueue::Update(const api::Pod& old_pod, const api::Pod& new_pod,
                         api::TimeMs now) {
  queue_->Update(old_pod, new_pod, now);
}
void FaultyQueue::Delete(const api::Pod& pod) { queue_->Delete(pod); }
std::optional<QueuedPodView> FaultyQueue::Pop() { return queue_->Pop(); }
void FaultyQueue::Done(const std::string& pod_uid) { queue_->Done(pod_uid); }
std::optional<std::string> FaultyQueue::Fail(
    const std::string& key, const api::Pod& latest,
    const std::set<std::string>& unschedulable,
    const std::set<std::string>& pending, api::TimeMs now) {
  return queue_->Fail(key, latest, unschedulable, pending, now);
}
void FaultyQueue::Activate(const api::Pod& pod, api::TimeMs now) {
  queue_->Activate(pod, now);
}
void FaultyQueue::FlushBackoffQCompleted(api::TimeMs now) {
  queue_->FlushBackoffQCompleted(now);
}
void FaultyQueue::FlushUnschedulablePodsLeftover(api::TimeMs now) {
  queue_->FlushUnschedulablePodsLeftover(now);
}
void FaultyQueue::AddNominatedPod(
    const api::Pod& pod, const std::optional<std::string>& override_node) {
  queue_->AddNominatedPod(pod, override_node);
}
void FaultyQueue::DeleteNominatedPodIfExists(const api::Pod& pod) {
  queue_->DeleteNominatedPodIfExists(pod);
}

QueueWhere FaultyQueue::Locate(const std::string& key) const {
  return queue_->Locate(key);
}
std::optional<QueuedPodView> FaultyQueue::Get(const std::string& key) const {
  return queue_->Get(key);
}
std::vector<std::string> FaultyQueue::ActivePodKeys() const {
  return queue_->ActivePodKeys();
}
std::vector<std::string> FaultyQueue::BackoffPodKeys() const {
  return queue_->BackoffPodKeys();
}
std::vector<std::string> FaultyQueue::UnschedulablePodKeys() const {
  return queue_->UnschedulablePodKeys();
}
std::vector<std::string> FaultyQueue::InFlightPodKeys() const {
  return queue_->InFlightPodKeys();
}
bool FaultyQueue::HasPodsInFlight() const { return queue_->HasPodsInFlight(); }
api::TimeMs FaultyQueue::BackoffExpiry(const std::string& key) const {
  return queue_->BackoffExpiry(key);
}
bool FaultyQueue::SortLess(const QueuedPodView& a,
                           const QueuedPodView& b) const {
  return queue_->SortLess(a, b);
}
std::map<std::string, std::vector<std::string>>
FaultyQueue::NominatedPodKeysByNode() const {
  return queue_->NominatedPodKeysByNode();
}

QueueFactory WithPodDroppedOnMove(QueueFactory make) {
  return [make = std::move(make)](const QueueModel::Config& config) {
    return std::unique_ptr<QueueUnderTest>(
        std::make_unique<FaultyQueue>(make(config)));
  };
}

}  // namespace schedref::testing::models
