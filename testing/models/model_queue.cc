#include "testing/models/model_queue.h"

#include <utility>

#include "testing/models/queue_harness.h"

namespace schedref::testing::models {
namespace {

using Loc = QueueModel::Loc;

// The fixture's "ready" label (queue_model.h, FakePodLabel).
bool IsReady(const api::Pod& pod) {
  auto it = pod.labels.find("ready");
  return it != pod.labels.end() && it->second == "true";
}

QueuedPodView View(const QueueModel::Pod& p) {
  return QueuedPodView{p.pod,
                       p.timestamp,
                       p.attempts,
                       p.initial_attempt_timestamp,
                       p.unschedulable_plugins,
                       p.pending_plugins,
                       p.gated};
}

}  // namespace

ModelQueue::ModelQueue(const QueueModel::Config& config) : model_(config) {}

void ModelQueue::Run(api::TimeMs at, QueueOpBody body) {
  const QueueOp op{at, std::move(body)};
  if (IsValid(model_, op)) Apply(model_, op);
}

void ModelQueue::Add(const api::Pod& pod, api::TimeMs now) {
  AddOp o;
  o.name = pod.name;
  o.priority = pod.priority.value_or(0);
  o.ready = IsReady(pod);
  o.gates = static_cast<int>(pod.scheduling_gates.size());
  o.nominated = !pod.nominated_node_name.empty();
  Run(now, o);
}

void ModelQueue::Update(const api::Pod& old_pod, const api::Pod& new_pod,
                        api::TimeMs now) {
  UpdateOp o;
  o.name = new_pod.name;
  o.toggle_ready = IsReady(old_pod) != IsReady(new_pod);
  if (new_pod.scheduling_gates.empty()) {
    o.remove_gates = 2;
  } else if (new_pod.scheduling_gates.size() < old_pod.scheduling_gates.size()) {
    o.remove_gates = 1;
  }
  o.add_toleration = new_pod.tolerations.size() > old_pod.tolerations.size();
  if (new_pod.priority != old_pod.priority) {
    o.priority = new_pod.priority.value_or(0);
  }
  Run(now, o);
}

// Delete, Done and the nominator carry no time: they run at the model's.
void ModelQueue::Delete(const api::Pod& pod) {
  Run(model_.now, DeleteOp{pod.name});
}

std::optional<QueuedPodView> ModelQueue::Pop() {
  const std::vector<std::string> active = model_.ActiveKeys();
  if (active.empty()) return std::nullopt;
  Run(model_.now, PopOp{});
  return View(model_.pods.at(active.front()));
}

void ModelQueue::Done(const std::string& pod_uid) {
  for (const auto& [key, p] : model_.pods) {
    if (p.pod.uid == pod_uid) {
      Run(model_.now, DoneOp{p.pod.name});
      return;
    }
  }
}

std::optional<std::string> ModelQueue::Fail(
    const std::string& key, const api::Pod& latest,
    const std::set<std::string>& unschedulable,
    const std::set<std::string>& pending, api::TimeMs now) {
  auto it = model_.pods.find(key);
  if (it == model_.pods.end() || it->second.loc != Loc::kInFlight) {
    return "model queue: " + key + " was not popped";
  }
  Run(now, FailOp{latest.name, unschedulable, pending});
  return std::nullopt;
}

void ModelQueue::MoveAllOnEvent(const EventOp& op, api::TimeMs now) {
  Run(now, op);
}

void ModelQueue::Activate(const api::Pod& pod, api::TimeMs now) {
  Run(now, ActivateOp{pod.name});
}

void ModelQueue::FlushBackoffQCompleted(api::TimeMs now) {
  Run(now, FlushBackoffOp{});
}

void ModelQueue::FlushUnschedulablePodsLeftover(api::TimeMs now) {
  Run(now, FlushUnschedulableOp{});
}

void ModelQueue::AddNominatedPod(
    const api::Pod& pod, const std::optional<std::string>& override_node) {
  Run(model_.now, NominateOp{pod.name, override_node.has_value(),
                             override_node.value_or("")});
}

void ModelQueue::DeleteNominatedPodIfExists(const api::Pod& pod) {
  Run(model_.now, ClearNominationOp{pod.name});
}

QueueWhere ModelQueue::Locate(const std::string& key) const {
  return ModelWhere(model_, key);
}

std::optional<QueuedPodView> ModelQueue::Get(const std::string& key) const {
  auto it = model_.pods.find(key);
  if (it == model_.pods.end() || it->second.loc == Loc::kInFlight) {
    return std::nullopt;
  }
  return View(it->second);
}

std::vector<std::string> ModelQueue::ActivePodKeys() const {
  return model_.ActiveKeys();
}
std::vector<std::string> ModelQueue::BackoffPodKeys() const {
  return model_.BackoffKeys();
}
std::vector<std::string> ModelQueue::UnschedulablePodKeys() const {
  return model_.UnschedulableKeys();
}
std::vector<std::string> ModelQueue::InFlightPodKeys() const {
  return model_.InFlightKeys();
}
bool ModelQueue::HasPodsInFlight() const {
  return !model_.InFlightKeys().empty();
}

api::TimeMs ModelQueue::BackoffExpiry(const std::string& key) const {
  return model_.BackoffExpiry(model_.pods.at(key));
}

bool ModelQueue::SortLess(const QueuedPodView& a, const QueuedPodView& b) const {
  return ActiveQueueLess(a.pod, a.timestamp, b.pod, b.timestamp);
}

std::map<std::string, std::vector<std::string>>
ModelQueue::NominatedPodKeysByNode() const {
  return model_.NominatedKeysByNode();
}

std::unique_ptr<QueueUnderTest> NewModelQueue(const QueueModel::Config& config) {
  return std::make_unique<ModelQueue>(config);
}

}  // namespace schedref::testing::models
