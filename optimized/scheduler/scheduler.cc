#include "optimized/scheduler/scheduler.h"

#include <algorithm>
#include <type_traits>
#include <string_view>
#include <utility>
#include <variant>

#include "api/apiserver/binding.h"
#include "api/apiserver/pod_deletion.h"
#include "api/apiserver/pod_update.h"
#include "api/apiserver/selector_events.h"
#include "api/apiserver/storage_events.h"
#include "api/config/default_plugins.h"
#include "api/config/profile_map.h"
#include "api/crash.h"
#include "api/gocompat/go_duration.h"
#include "api/types/unmodelled.h"
#include "optimized/backend/queue/pod_events.h"
#include "optimized/framework/plugins/names/names.h"
#include "optimized/framework/plugins/registry.h"

namespace schedref::optimized {

OptimizedScheduler::OptimizedScheduler() {
  registry_ = framework::plugins::NewInTreeRegistry();
  CheckOk(framework::plugins::RegisterTestPlugins(&registry_),
          "registering the test plugins");
}

OptimizedScheduler::OptimizedScheduler(framework::Registry registry)
    : registry_(std::move(registry)) {}

StatusOr<api::Trace> OptimizedScheduler::Run(const api::Scenario& scenario,
                                             const api::RunOptions& options) {
  internal::Scheduler sched(scenario, options);
  SCHEDREF_RETURN_IF_ERROR(sched.Init(registry_));
  StatusOr<api::Trace> trace = sched.Run();
  if (options.extender_stats != nullptr) *options.extender_stats = sched.ExtenderStats();
  return trace;
}

namespace internal {
namespace {

constexpr api::TimeMs kBackoffFlushPeriodMs = 1000;
constexpr api::TimeMs kUnschedulableFlushPeriodMs = 30000;

const backend::queue::NominatingInfo kClearNominatedNode{backend::queue::NominatingInfo::kOverride, ""};

framework::EventObjects PodObjects(const api::Pod* old_pod, const api::Pod* new_pod) {
  framework::EventObjects o;
  o.old_pod = old_pod;
  o.new_pod = new_pod;
  return o;
}

framework::EventObjects NodeObjects(const api::Node* old_node, const api::Node* new_node) {
  framework::EventObjects o;
  o.old_node = old_node;
  o.new_node = new_node;
  return o;
}

template <typename T>
framework::EventObjects StorageObjects(const T* old_obj, const T* new_obj) {
  framework::EventObjects o;
  if constexpr (std::is_same_v<T, api::PersistentVolume>) {
    o.old_pv = old_obj;
    o.new_pv = new_obj;
  } else if constexpr (std::is_same_v<T, api::PersistentVolumeClaim>) {
    o.old_pvc = old_obj;
    o.new_pvc = new_obj;
  } else if constexpr (std::is_same_v<T, api::StorageClass>) {
    o.old_class = old_obj;
    o.new_class = new_obj;
  } else if constexpr (std::is_same_v<T, api::CSINode>) {
    o.old_csi_node = old_obj;
    o.new_csi_node = new_obj;
  } else if constexpr (std::is_same_v<T, api::CSIDriver>) {
    o.old_csi_driver = old_obj;
    o.new_csi_driver = new_obj;
  } else {
    o.old_capacity = old_obj;
    o.new_capacity = new_obj;
  }
  return o;
}

}  // namespace

Scheduler::Scheduler(const api::Scenario& scenario, const api::RunOptions& options)
    : scenario_(scenario),
      options_(options),
      parallel_(options.threads),
      rng_state_(scenario.seed),
      default_bind_latency_ms_(scenario.bind_latency_ms) {}

schedref::Status Scheduler::Init(const framework::Registry& registry) {
  const api::SchedulerConfiguration& config = scenario_.config;
  StatusOr<std::unique_ptr<api::extender::ExtenderSet>> extenders =
      api::extender::ExtenderSet::Start(scenario_);
  if (!extenders.ok()) return extenders.status();
  extenders_ = std::move(extenders).value();
  std::map<std::string, backend::queue::SchedulingQueue::Profile> queue_profiles;
  const framework::QueueSortPlugin* sort = nullptr;
  api::QueueSortValidator sort_validator;
  for (size_t i = 0; i < config.profiles.size(); ++i) {
    const api::Profile& profile = config.profiles[i];
    const std::string where = api::ProfileErrorWhere(scenario_.file, i);
    api::Profile with_percentage = profile;
    if (!with_percentage.percentage_of_nodes_to_score) {
      with_percentage.percentage_of_nodes_to_score = config.percentage_of_nodes_to_score;
    }
    StatusOr<std::unique_ptr<framework::Framework>> fwk = framework::Framework::New(
        registry, with_percentage, api::EffectivePlugins(profile), this);
    if (!fwk.ok()) return api::CreatingProfileError(where, profile, fwk.status());
    framework::Framework* f = fwk->get();
    // Every profile must use the same queue sort, with the same args.
    SCHEDREF_RETURN_IF_ERROR(sort_validator.Validate(where, profile, f->QueueSort()->Name()));
    backend::queue::SchedulingQueue::Profile qp;
    qp.pre_enqueue = f->PreEnqueuePlugins();
    qp.queueing_hints = f->QueueingHints();
    // Extenders register no events: the pseudo-plugin they leave among a
    // pod's unschedulable plugins is woken by every event.
    if (!config.extenders.empty()) {
      qp.queueing_hints[api::extender::kExtenderName] = {framework::ClusterEventWithHint{
          framework::ClusterEvent{framework::EventResource::kWildCard, framework::kAll, ""},
          nullptr}};
    }
    queue_profiles[profile.scheduler_name] = std::move(qp);
    if (sort == nullptr) sort = f->QueueSort();
    profiles_[profile.scheduler_name] = std::move(fwk).value();
  }
  backend::queue::SchedulingQueue::Options qopts;
  qopts.pod_initial_backoff_ms = config.pod_initial_backoff_seconds * 1000;
  qopts.pod_max_backoff_ms = config.pod_max_backoff_seconds * 1000;
  qopts.pod_max_in_unschedulable_pods_ms = config.pod_max_in_unschedulable_pods_seconds * 1000;
  qopts.pod_lister = [this](const std::string& key) { return GetPod(key); };
  queue_ = std::make_unique<backend::queue::SchedulingQueue>(qopts, sort, std::move(queue_profiles));
  return schedref::Status::Ok();
}

bool Scheduler::ResponsibleForPod(const api::Pod& pod) const {
  return profiles_.contains(pod.scheduler_name);
}

std::vector<framework::PodInfoPtr> Scheduler::NominatedPodsForNode(
    const std::string& node_name) const {
  return queue_->NominatedPodsForNode(node_name);
}

const framework::NominatedPodsByNode& Scheduler::NominatedPodsOnSnapshot() {
  backend::queue::Nominator::Changes changes = queue_->TakeNominationChanges();
  // The map is keyed by snapshot slots: valid while no node left the
  // snapshot (Stamp) and the node list was not rebuilt (ChangedSince), so
  // that a node added since cannot have been missed.
  nominated_scratch_.clear();
  const bool same_nodes = nominated_stamp_ == snapshot_.Stamp() &&
                          snapshot_.ChangedSince(nominated_rebuilds_, &nominated_scratch_);
  if (changes.all || !same_nodes) {
    nominated_ = framework::CollectNominatedPods(*this, snapshot_);
  } else {
    for (const std::string& name : changes.nodes) {
      const framework::NodeInfo* node = name.empty() ? nullptr : snapshot_.Get(name);
      if (node == nullptr) continue;  // such pods never apply
      std::vector<framework::PodInfoPtr> pods = NominatedPodsForNode(name);
      if (pods.empty()) {
        nominated_.erase(node);
      } else {
        nominated_[node] = std::move(pods);
      }
    }
  }
  nominated_stamp_ = snapshot_.Stamp();
  nominated_rebuilds_ = snapshot_.rebuilds();
  return nominated_;
}

framework::PodInfoPtr* Scheduler::FindPod(const api::Pod& pod) {
  const InFlightBinding* b = binding_in_progress_;
  auto it = b != nullptr && &pod == &b->assumed.pod()
                ? pods_.find(b->assumed.pod_info->key)
                : pods_.find(pod.Key());
  return it == pods_.end() ? nullptr : &it->second;
}

schedref::Status Scheduler::BindPod(const api::Pod& pod, const std::string& node_name) {
  framework::PodInfoPtr* found = FindPod(pod);
  if (found == nullptr) return BindFinishedPod(pod, node_name);
  const framework::PodInfo& current = **found;
  // A bound PodInfo keeps its spec.nodeName outside its object.
  if (auto conflict = api::BindingConflict(current.pod, current.node_name(), pod.uid)) {
    return schedref::Status::FailedPrecondition(*conflict);
  }
  if (std::optional<schedref::Status> injected = InjectedBindFailure(current.key)) {
    return *injected;
  }
  // The bound object is the stored one with spec.nodeName set. When the
  // stored one is still the PodInfo this binding's attempt popped, that is
  // exactly the assumed PodInfo (the popped one bound to node), which is
  // then shared instead of made again.
  const InFlightBinding* b = binding_in_progress_;
  framework::PodInfoPtr bound = b != nullptr && *found == b->popped && node_name == b->node
                                    ? b->assumed.pod_info
                                    : framework::BoundPodInfo(current, node_name);
  UpdatePod(*found, std::move(bound));
  return schedref::Status::Ok();
}

std::optional<schedref::Status> Scheduler::InjectedBindFailure(const std::string& key) {
  if (bind_failures_.empty()) return std::nullopt;
  auto failures = bind_failures_.find(key);
  if (failures == bind_failures_.end() || failures->second == 0) return std::nullopt;
  --failures->second;
  return schedref::Status::FailedPrecondition("injected bind failure for pod " + key);
}

schedref::Status Scheduler::BindFinishedPod(const api::Pod& pod, const std::string& node_name) {
  auto it = terminated_pods_.find(pod.Key());
  if (it == terminated_pods_.end()) {
    return schedref::Status::NotFound("pods \"" + pod.name + "\" not found");
  }
  api::Pod& current = it->second;
  if (auto conflict = api::BindingConflict(current, current.node_name, pod.uid)) {
    return schedref::Status::FailedPrecondition(*conflict);
  }
  if (std::optional<schedref::Status> injected = InjectedBindFailure(it->first)) {
    return *injected;
  }
  // Accepted, and outside the informers' selector: nobody hears of it, so
  // the assumed pod is never confirmed.
  current.node_name = node_name;
  return schedref::Status::Ok();
}

framework::PluginsRunner* Scheduler::RunnerFor(const api::Pod& pod) {
  auto it = profiles_.find(pod.scheduler_name);
  return it == profiles_.end() ? nullptr : it->second.get();
}

std::optional<api::Pod> Scheduler::GetPod(const std::string& pod_key) const {
  auto it = pods_.find(pod_key);
  if (it == pods_.end()) return std::nullopt;
  std::optional<api::Pod> bound;
  const api::Pod& pod = framework::MaterializedPod(*it->second, &bound);
  return bound ? std::move(bound) : std::optional<api::Pod>(pod);
}

void Scheduler::Note(const std::string& what, const std::string& pod,
                     const std::string& message) {
  trace_.records.push_back(api::Note{now_, what, pod, message});
}

framework::Status Scheduler::PreemptVictim(const api::Pod& victim, const api::Pod& preemptor) {
  auto fwk = profiles_.find(victim.scheduler_name);
  // Rejected in the name of the preempting plugin (upstream
  // prepareCandidate's pluginName; DefaultPreemption is the only one).
  if (fwk != profiles_.end() &&
      fwk->second->Reject(victim.uid, framework::plugins::names::kDefaultPreemption, "preempted")) {
    Note("victimRejectedAtPermit", victim.Key(), "preempted by " + preemptor.Key());
    preemption_victims_.push_back(victim.Key());
    return framework::Status::Success();
  }
  const std::string key = victim.Key();
  auto it = pods_.find(key);
  if (it == pods_.end()) {
    // A finished pod still exists, unseen by the informers: patched and
    // deleted at once (grace period 0 for a terminal phase).
    if (auto f = terminated_pods_.find(key);
        f != terminated_pods_.end() && f->second.uid == victim.uid) {
      preemption_victims_.push_back(key);
      Note("victimDeleted", key, "preempted by " + preemptor.Key());
      terminated_pods_.erase(f);
      return framework::Status::Success();
    }
    // Gone already: the API server answers the status patch with NotFound.
    return framework::Status::Error("pods \"" + victim.name + "\" not found");
  }
  preemption_victims_.push_back(key);
  // First the DisruptionTarget condition (a status patch), then the delete.
  std::vector<api::PodCondition> conditions = it->second->pod.conditions;
  if (api::UpdatePodCondition(conditions, api::PreemptionByScheduler())) {
    UpdatePod(it->second, ChangedPodInfo(*it->second, [&](api::Pod& p) {
                p.conditions = std::move(conditions);
              }));
  }
  const framework::PodInfo& current = *it->second;
  const int64_t grace = api::DeleteGracePeriodSeconds(current.pod, current.node_name());
  const std::string by = "preempted by " + preemptor.Key();
  if (grace == 0) {
    Note("victimDeleted", key, by);
    DeletePod(it->second);
    return framework::Status::Success();
  }
  if (current.pod.deletion_timestamp.has_value()) {
    // A graceful deletion is under way; the pod's own grace period does
    // not shorten it.
    Note("victimTerminating", key, by + "; already terminating");
    return framework::Status::Success();
  }
  Note("victimTerminating", key, by + "; terminationGracePeriodSeconds " + std::to_string(grace));
  terminations_.push_back({api::AddSecondsSaturating(now_, grace), key, current.uid(), grace});
  const api::TimeMs deletion = api::AddSecondsSaturating(Now(), grace);
  UpdatePod(it->second, ChangedPodInfo(current, [&](api::Pod& p) {
              p.deletion_timestamp = deletion;
            }));
  return framework::Status::Success();
}

void Scheduler::FinishTerminations() {
  for (auto t = terminations_.begin(); t != terminations_.end();) {
    if (t->at > now_) {
      ++t;
      continue;
    }
    const std::string message =
        "terminationGracePeriodSeconds " + std::to_string(t->grace_seconds) + " elapsed";
    if (auto it = pods_.find(t->key); it != pods_.end() && it->second->uid() == t->uid) {
      Note("victimTerminated", t->key, message);
      DeletePod(it->second);
    } else if (auto f = terminated_pods_.find(t->key);
               f != terminated_pods_.end() && f->second.uid == t->uid) {
      Note("victimTerminated", t->key, message);
      terminated_pods_.erase(f);
    }
    t = terminations_.erase(t);
  }
}

void Scheduler::StartLifetime(const api::Pod& pod) {
  if (!pod.lifetime.has_value()) return;
  completions_.emplace(std::pair(now_ + pod.lifetime->run_for_ms, completions_started_++),
                       Completion{pod.Key(), pod.uid, *pod.lifetime});
}

void Scheduler::FinishLifetimes() {
  while (!completions_.empty() && completions_.begin()->first.first <= now_) {
    const Completion c = std::move(completions_.begin()->second);
    completions_.erase(completions_.begin());
    // Gone or being deleted: its deletion ends it, not its lifetime.
    auto it = pods_.find(c.key);
    if (it == pods_.end() || it->second->uid() != c.uid ||
        it->second->pod.deletion_timestamp.has_value()) {
      continue;
    }
    Note("podFinished", c.key,
         "ran " + api::FormatDurationMs(c.lifetime.run_for_ms) + "; phase " +
             c.lifetime.end_phase);
    // Out of the informers' selector (a delete), then collected at once.
    DeletePod(it->second);
  }
}

void Scheduler::ClearNominatedNodeName(const api::Pod& pod) {
  auto it = pods_.find(pod.Key());
  if (it == pods_.end() || it->second->pod.nominated_node_name.empty()) return;
  UpdatePod(it->second, ChangedPodInfo(*it->second, [](api::Pod& p) {
              p.nominated_node_name.clear();
            }));
}

uint64_t Scheduler::NextRandom() {
  // SplitMix64 (docs/deviations.md "Random numbers").
  rng_state_ += 0x9E3779B97F4A7C15ull;
  uint64_t z = rng_state_;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// --- Event handlers ---------------------------------------------------------

void Scheduler::AddNode(const api::Node& node) {
  const api::Node& stored = nodes_[node.name] = node;
  CheckOk(cache_.AddNode(stored), "the cache adds a new node");
  queue_->MoveAllToActiveOrBackoffQueue(framework::NodeAdd(), NodeObjects(nullptr, &stored),
                                        nullptr, now_);
}

void Scheduler::UpdateNode(const api::Node& old_node, const api::Node& new_node) {
  nodes_[new_node.name] = new_node;
  CheckOk(cache_.UpdateNode(old_node, new_node), "the cache updates a node");
  // upstream nodeSchedulingPropertiesChange: one event per changed property.
  std::vector<framework::ClusterEvent> events;
  // Only uncordoning is an event (upstream extractNodeSpecUnschedulableChange).
  if (old_node.unschedulable != new_node.unschedulable && !new_node.unschedulable) {
    events.push_back({framework::EventResource::kNode, framework::kUpdateNodeTaint,
                      "NodeSpecUnschedulableChange"});
  }
  if (old_node.allocatable != new_node.allocatable) {
    events.push_back({framework::EventResource::kNode, framework::kUpdateNodeAllocatable,
                      "NodeAllocatableChange"});
  }
  if (old_node.labels != new_node.labels) {
    events.push_back(
        {framework::EventResource::kNode, framework::kUpdateNodeLabel, "NodeLabelChange"});
  }
  if (old_node.taints != new_node.taints) {
    events.push_back(
        {framework::EventResource::kNode, framework::kUpdateNodeTaint, "NodeTaintChange"});
  }
  if (old_node.conditions != new_node.conditions) {
    events.push_back({framework::EventResource::kNode, framework::kUpdateNodeCondition,
                      "NodeConditionChange"});
  }
  if (old_node.annotations != new_node.annotations) {
    events.push_back({framework::EventResource::kNode, framework::kUpdateNodeAnnotation,
                      "NodeAnnotationChange"});
  }
  for (const framework::ClusterEvent& e : events) {
    queue_->MoveAllToActiveOrBackoffQueue(e, NodeObjects(&old_node, &new_node), nullptr, now_);
  }
}

void Scheduler::DeleteNode(const api::Node& node) {
  // v1.32 (kubernetes#127464): a node's deletion is a cluster event, raised
  // before the cache forgets the node.
  queue_->MoveAllToActiveOrBackoffQueue(framework::NodeDelete(), NodeObjects(&node, nullptr),
                                        nullptr, now_);
  CheckOk(cache_.RemoveNode(node), "the cache removes a node it holds");
  nodes_.erase(node.name);
}

void Scheduler::CreatePod(const api::Pod& pod) {
  if (pod.Terminated()) {
    terminated_pods_[pod.Key()] = pod;
    return;
  }
  AddPod(pod);
}

void Scheduler::AddPod(const api::Pod& pod) {
  // `pod` is the scenario's (initial state or timeline), which outlives
  // the run.
  framework::PodInfoPtr info = framework::BorrowingPodInfo(pod);
  framework::PodInfoPtr& stored = pods_[info->key];
  stored = std::move(info);
  PodAdded(stored);
}

void Scheduler::PodAdded(const framework::PodInfoPtr& stored) {
  if (!stored->node_name().empty()) {
    CheckOk(cache_.AddPod(stored), "the cache adds an assigned pod");
    // The event's object has spec.nodeName: a bound PodInfo's pod object
    // does not, so a copy with it is made, but only when the queue will
    // read the object (a binding's usual case is that nothing does).
    const framework::ClusterEvent event = framework::AssignedPodAdd();
    std::optional<api::Pod> bound;
    const api::Pod* object = &stored->pod;
    if (stored->binds_node() && queue_->ReadsEventObjects(event)) {
      object = &framework::MaterializedPod(*stored, &bound);
    }
    queue_->MoveAllToActiveOrBackoffQueue(event, PodObjects(nullptr, object), nullptr, now_);
    StartLifetime(stored->pod);
    return;
  }
  if (ResponsibleForPod(stored->pod)) {
    CheckOk(queue_->Add(stored, now_), "the queue adds a new pending pod");
  }
}

void Scheduler::UpdatePod(framework::PodInfoPtr& stored, framework::PodInfoPtr new_info) {
  // Kept alive here: `stored` lets go of it.
  const framework::PodInfoPtr old_info = std::exchange(stored, new_info);
  const bool was_assigned = !old_info->node_name().empty();
  const bool is_assigned = !new_info->node_name().empty();
  // The pod objects with their spec.nodeName, for what reads them whole.
  std::optional<api::Pod> old_copy, new_copy;
  const api::Pod& old_pod = framework::MaterializedPod(*old_info, &old_copy);
  if (!was_assigned && is_assigned) {
    // The unscheduled-pod informer sees a delete, the assigned-pod one an add.
    if (ResponsibleForPod(old_pod)) {
      CheckOk(queue_->Delete(*old_info),
              "the queue deletes a pod that was bound");
      // Bound by anyone: a pod still waiting at Permit (bound by another
      // binder) is rejected as for a delete.
      RejectWaitingPod(old_pod);
    }
    PodAdded(new_info);
    return;
  }
  const api::Pod& new_pod = framework::MaterializedPod(*new_info, &new_copy);
  if (is_assigned) {
    CheckOk(cache_.UpdatePod(old_pod, new_info),
            "the cache updates an assigned pod it holds");
    for (const framework::ClusterEvent& e :
         backend::queue::PodSchedulingPropertiesChange(new_pod, old_pod)) {
      queue_->MoveAllToActiveOrBackoffQueue(e, PodObjects(&old_pod, &new_pod), nullptr, now_);
    }
    return;
  }
  if (!ResponsibleForPod(new_pod)) return;
  // An assumed pod's own updates are not requeued.
  if (cache_.IsAssumedPod(new_pod)) return;
  CheckOk(queue_->Update(old_pod, std::move(new_info), now_),
          "the queue updates a pending pod");
}

void Scheduler::DeletePod(framework::PodInfoPtr info) {
  // `info` keeps the object alive after pods_ lets go of it.
  std::optional<api::Pod> bound;
  const api::Pod& pod = framework::MaterializedPod(*info, &bound);
  pods_.erase(info->key);
  if (!pod.node_name.empty()) {
    CheckOk(cache_.RemovePod(pod),
            "the cache removes an assigned pod it holds");
    queue_->MoveAllToActiveOrBackoffQueue(framework::AssignedPodDelete(),
                                          PodObjects(&pod, nullptr), nullptr, now_);
    return;
  }
  if (!ResponsibleForPod(pod)) return;
  CheckOk(queue_->Delete(pod), "the queue deletes a pending pod");
  RejectWaitingPod(pod);
}

void Scheduler::RejectWaitingPod(const api::Pod& pod) {
  // A pod waiting at Permit is rejected; its assumed resources are freed.
  framework::Framework& fwk = *profiles_.at(pod.scheduler_name);
  if (fwk.WaitingPods().empty()) return;
  if (fwk.Reject(pod.uid, "", "removed") || fwk.WaitingPods().contains(pod.uid)) {
    queue_->MoveAllToActiveOrBackoffQueue(framework::AssignedPodDelete(),
                                          PodObjects(&pod, nullptr), nullptr, now_);
  }
}

void Scheduler::ApplyStorageWrite(const api::StorageWrite& write) {
  api::Event event;
  event.at = now_;
  std::visit(
      [&](const auto& object) {
        using T = std::decay_t<decltype(object)>;
        event.op = api::StoreOf<T>(storage_).contains(api::StorageKey(object))
                       ? api::Event::Op::kUpdate
                       : api::Event::Op::kCreate;
        event.object = object;
      },
      write);
  api::ApplyStorageEvent(event, &storage_, [&](const auto* old_obj, const auto* new_obj) {
    using T = std::decay_t<decltype(*old_obj)>;
    ++storage_revision_;
    queue_->MoveAllToActiveOrBackoffQueue(
        framework::StorageEvent(framework::StorageEventResource<T>(),
                                old_obj == nullptr ? framework::kAdd : framework::kUpdate),
        StorageObjects(old_obj, new_obj), nullptr, now_);
  });
}

void Scheduler::WriteStorageObject(const api::StorageWrite& write) {
  ApplyStorageWrite(write);
  volume_controller_runs_.insert(now_ + scenario_.volume_binding_latency_ms);
}

void Scheduler::RunVolumeController() {
  // The selected nodes the provisioner reads.
  std::map<std::string, api::Node> nodes;
  for (const auto& [key, claim] : storage_.claims) {
    auto selected = claim.annotations.find(api::kAnnSelectedNode);
    if (selected == claim.annotations.end()) continue;
    auto node = nodes_.find(selected->second);
    if (node != nodes_.end()) nodes[selected->second] = node->second;
  }
  for (const api::StorageWrite& w : api::CompleteVolumeBindings(storage_, nodes)) {
    ApplyStorageWrite(w);
  }
}

schedref::Status Scheduler::ApplyEvent(const api::Event& event, size_t index) {
  auto missing = [&](const std::string& what) {
    return schedref::Status::Invalid(scenario_.file + ": timeline[" + std::to_string(index) +
                                     "]: " + what + " does not exist");
  };
  // Storage objects: the informer's handler requeues by the hints.
  const bool storage = api::ApplyStorageEvent(
      event, &storage_, [&](const auto* old_obj, const auto* new_obj) {
        using T = std::decay_t<decltype(*old_obj)>;
        ++storage_revision_;
        const framework::ActionType action =
            old_obj == nullptr ? framework::kAdd
                               : new_obj == nullptr ? framework::kDelete : framework::kUpdate;
        queue_->MoveAllToActiveOrBackoffQueue(
            framework::StorageEvent(framework::StorageEventResource<T>(), action),
            StorageObjects(old_obj, new_obj), nullptr, now_);
      });
  if (storage) {
    if (std::holds_alternative<api::PersistentVolume>(event.object) ||
        std::holds_alternative<api::PersistentVolumeClaim>(event.object)) {
      volume_controller_runs_.insert(now_ + scenario_.volume_binding_latency_ms);
    }
    return schedref::Status::Ok();
  }
  if (api::ApplySelectorEvent(event, &selectors_)) return schedref::Status::Ok();
  switch (event.op) {
    case api::Event::Op::kCreate:
      if (const auto* node = std::get_if<api::Node>(&event.object)) {
        AddNode(*node);
      } else if (const auto* pod = std::get_if<api::Pod>(&event.object)) {
        CreatePod(*pod);
      } else if (const auto* pdb = std::get_if<api::PodDisruptionBudget>(&event.object)) {
        pdbs_.push_back(*pdb);
      } else if (const auto* ns = std::get_if<api::Namespace>(&event.object)) {
        namespaces_[ns->name] = ns->labels;
      }
      return schedref::Status::Ok();
    case api::Event::Op::kUpdate:
      if (const auto* node = std::get_if<api::Node>(&event.object)) {
        auto it = nodes_.find(node->name);
        if (it == nodes_.end()) return missing("Node " + node->name);
        UpdateNode(api::Node(it->second), *node);
      } else if (const auto* pod = std::get_if<api::Pod>(&event.object)) {
        const std::string key = pod->Key();
        auto it = pods_.find(key);
        auto terminated = terminated_pods_.find(key);
        if (it == pods_.end() && terminated == terminated_pods_.end()) {
          // Gone by now (preempted, or finished and collected): the API
          // server answers NotFound and the scheduler sees nothing.
          Note("updateIgnored", key, "pod no longer exists");
          return schedref::Status::Ok();
        }
        std::optional<api::Pod> current_copy;
        const api::Pod& current = it != pods_.end()
                                      ? framework::MaterializedPod(*it->second, &current_copy)
                                      : terminated->second;
        api::Pod updated = api::ApplyPodUpdate(current, *pod);
        // An update that changes nothing is no write: the API server keeps
        // the resourceVersion and sends no watch event.
        if (updated == current) return schedref::Status::Ok();
        if (it == pods_.end()) {
          terminated_pods_.erase(terminated);
          if (updated.Terminated()) {
            terminated_pods_[key] = std::move(updated);
          } else {
            // Out of a terminal phase: the pod matches the informers'
            // selector again, so they see it appear (an add).
            framework::PodInfoPtr& stored = pods_[key];
            stored = framework::NewPodInfo(std::move(updated));
            PodAdded(stored);
          }
          return schedref::Status::Ok();
        }
        if (updated.Terminated()) {
          // The pod stops matching the informers' selector: a delete.
          DeletePod(it->second);
          terminated_pods_[key] = std::move(updated);
          return schedref::Status::Ok();
        }
        UpdatePod(it->second, framework::NewPodInfo(std::move(updated)));
      } else if (const auto* pdb = std::get_if<api::PodDisruptionBudget>(&event.object)) {
        for (api::PodDisruptionBudget& p : pdbs_) {
          if (p.ns == pdb->ns && p.name == pdb->name) p = *pdb;
        }
      } else if (const auto* ns = std::get_if<api::Namespace>(&event.object)) {
        namespaces_[ns->name] = ns->labels;
      }
      return schedref::Status::Ok();
    case api::Event::Op::kDelete:
      if (event.kind == "Node") {
        auto it = nodes_.find(event.name);
        if (it == nodes_.end()) return missing("Node " + event.name);
        DeleteNode(api::Node(it->second));
      } else if (event.kind == "Pod") {
        // A finished pod goes without the informers noticing.
        if (terminated_pods_.erase(event.name) != 0) return schedref::Status::Ok();
        auto it = pods_.find(event.name);
        if (it == pods_.end()) {
          // Gone already (preemption deleted it): the API server answers
          // NotFound and the scheduler sees nothing.
          Note("deleteIgnored", event.name, "pod no longer exists");
          return schedref::Status::Ok();
        }
        DeletePod(it->second);
      } else if (event.kind == "PodDisruptionBudget") {
        std::erase_if(pdbs_, [&](const api::PodDisruptionBudget& p) {
          return p.ns + "/" + p.name == event.name;
        });
      } else if (event.kind == "Namespace") {
        namespaces_.erase(event.name);
      }
      return schedref::Status::Ok();
    case api::Event::Op::kAdvance:
      return schedref::Status::Ok();
    case api::Event::Op::kFailBind:
      bind_failures_[event.name] += event.count;
      return schedref::Status::Ok();
    case api::Event::Op::kSetBindLatency:
      if (event.name.empty()) {
        default_bind_latency_ms_ = event.duration_ms;
      } else {
        bind_latency_ms_[event.name] = event.duration_ms;
      }
      return schedref::Status::Ok();
    case api::Event::Op::kAllow:
    case api::Event::Op::kReject: {
      auto it = pods_.find(event.name);
      if (it == pods_.end()) {
        Note("notWaiting", event.name, "pod no longer exists");
        return schedref::Status::Ok();
      }
      const api::Pod& pod = it->second->pod;
      auto fwk = profiles_.find(pod.scheduler_name);
      const bool done =
          fwk != profiles_.end() &&
          (event.op == api::Event::Op::kAllow
               ? fwk->second->Allow(pod.uid, event.plugin)
               : fwk->second->Reject(pod.uid, event.plugin, "rejected by " + event.plugin));
      if (!done) Note("notWaiting", event.name, "pod is not waiting on plugin " + event.plugin);
      return schedref::Status::Ok();
    }
  }
  return schedref::Status::Ok();
}

// --- The loop -----------------------------------------------------------------

StatusOr<api::Trace> Scheduler::Run() {
  now_ = 0;
  for (const api::Namespace& ns : scenario_.initial.namespaces) namespaces_[ns.name] = ns.labels;
  // Room for every pod the scenario creates (a capacity hint: growing the
  // table rehashes every entry).
  size_t num_pods = scenario_.initial.pods.size();
  for (const api::Event& e : scenario_.timeline) {
    if (e.op == api::Event::Op::kCreate && std::holds_alternative<api::Pod>(e.object)) ++num_pods;
  }
  pods_.reserve(num_pods);
  cache_.Reserve(num_pods);
  queue_->Reserve(num_pods);
  pdbs_ = scenario_.initial.pdbs;
  storage_ = api::StorageObjects::From(scenario_.initial);
  ++storage_revision_;
  selectors_ = api::SelectorObjects::From(scenario_.initial);
  for (const api::Node& node : scenario_.initial.nodes) AddNode(node);
  for (const api::Pod& pod : scenario_.initial.pods) CreatePod(pod);

  api::TimeMs stop_at = 0;
  for (const api::Event& e : scenario_.timeline) stop_at = std::max(stop_at, e.at);
  // Usually an attempt and a binding per pod: room for those up front, so
  // that appending records does not keep moving them (a capacity hint only).
  trace_.records.reserve(2 * (scenario_.initial.pods.size() + scenario_.timeline.size()));
  size_t next_event = 0;
  while (true) {
    while (next_event < scenario_.timeline.size() && scenario_.timeline[next_event].at <= now_) {
      SCHEDREF_RETURN_IF_ERROR(ApplyEvent(scenario_.timeline[next_event], next_event));
      ++next_event;
    }
    while (!volume_controller_runs_.empty() && *volume_controller_runs_.begin() <= now_) {
      volume_controller_runs_.erase(volume_controller_runs_.begin());
      RunVolumeController();
    }
    if (!terminations_.empty()) FinishTerminations();
    if (!completions_.empty()) FinishLifetimes();
    for (auto& [name, fwk] : profiles_) fwk->ExpireWaitingPods(now_);
    for (size_t i = 0; i < bindings_.size();) {
      if (AdvanceBinding(bindings_[i])) {
        bindings_.erase(bindings_.begin() + static_cast<std::ptrdiff_t>(i));
      } else {
        ++i;
      }
    }
    if (now_ % kBackoffFlushPeriodMs == 0) queue_->FlushBackoffQCompleted(now_);
    if (now_ % kUnschedulableFlushPeriodMs == 0) queue_->FlushUnschedulablePodsLeftover(now_);
    while (std::optional<framework::QueuedPodInfo> info = queue_->Pop()) {
      ScheduleOne(std::move(*info));
    }
    api::TimeMs next = (now_ / kBackoffFlushPeriodMs + 1) * kBackoffFlushPeriodMs;
    if (next_event < scenario_.timeline.size()) {
      next = std::min(next, scenario_.timeline[next_event].at);
    }
    for (const InFlightBinding& b : bindings_) {
      if (b.bind_completes_at) next = std::min(next, *b.bind_completes_at);
      if (b.pre_bind_retry_at) next = std::min(next, *b.pre_bind_retry_at);
    }
    if (!volume_controller_runs_.empty()) {
      next = std::min(next, std::max(*volume_controller_runs_.begin(), now_));
    }
    for (const Termination& t : terminations_) next = std::min(next, t.at);
    if (!completions_.empty()) next = std::min(next, completions_.begin()->first.first);
    for (auto& [name, fwk] : profiles_) {
      for (const auto& [uid, wp] : fwk->WaitingPods()) {
        if (wp.result.has_value()) continue;
        // A deadline of now (a 0 s timeout) fires at this same instant.
        for (const auto& [plugin, deadline] : wp.pending) {
          next = std::min(next, std::max(deadline, now_));
        }
      }
    }
    if (options_.on_instant) options_.on_instant(now_, trace_);
    if (next > stop_at) break;
    now_ = next;
  }
  // Sorted first, so that each placement is appended at the map's end; by
  // views of pods_'s keys.
  std::vector<std::pair<std::string_view, const std::string*>> placed;
  placed.reserve(pods_.size());
  for (const auto& [key, info] : pods_) placed.emplace_back(key, &info->node_name());
  framework::SortByKey(placed);
  for (const auto& [key, node] : placed) {
    trace_.placements.emplace_hint(trace_.placements.end(), key, *node);
  }
  trace_.warnings = api::UnmodelledWarnings(scenario_);
  // Moved out: the trace is the run's result, not the scheduler's to free.
  return std::move(trace_);
}

}  // namespace internal
}  // namespace schedref::optimized
