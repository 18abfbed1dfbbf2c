#include "reference/scheduler/scheduler.h"

#include <algorithm>
#include <type_traits>
#include <utility>

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
#include "reference/backend/queue/pod_events.h"
#include "reference/framework/plugins/names/names.h"
#include "reference/framework/plugins/registry.h"

namespace schedref::reference {

ReferenceScheduler::ReferenceScheduler() {
  registry_ = plugins::NewInTreeRegistry();
  // The names are fixed and distinct from the in-tree ones.
  CheckOk(plugins::RegisterTestPlugins(&registry_), "registering the test plugins");
}

ReferenceScheduler::ReferenceScheduler(framework::Registry registry)
    : registry_(std::move(registry)) {}

StatusOr<api::Trace> ReferenceScheduler::Run(const api::Scenario& scenario,
                                             const api::RunOptions& options) {
  framework::PinnedChoices pinned;
  return Run(scenario, options, pinned);
}

StatusOr<api::Trace> ReferenceScheduler::Run(const api::Scenario& scenario,
                                             const api::RunOptions& options,
                                             framework::Choices& choices) {
  internal::Scheduler sched(scenario, options, choices);
  SCHEDREF_RETURN_IF_ERROR(sched.Init(registry_));
  StatusOr<api::Trace> trace = sched.Run();
  if (options.extender_stats != nullptr) *options.extender_stats = sched.ExtenderStats();
  return trace;
}

StatusOr<ReferenceScheduler::ProfilePlugins> ReferenceScheduler::Plugins(
    const api::Scenario& scenario, const std::string& scheduler_name) {
  framework::PinnedChoices pinned;
  internal::Scheduler sched(scenario, api::RunOptions{}, pinned);
  SCHEDREF_RETURN_IF_ERROR(sched.Init(registry_));
  const framework::Framework* fwk = sched.Profile(scheduler_name);
  if (fwk == nullptr) {
    return schedref::Status::NotFound("no profile \"" + scheduler_name + "\"");
  }
  ProfilePlugins out;
  out.points = fwk->ListPlugins();
  for (const std::string& p : out.points["score"]) out.score_weights[p] = fwk->ScoreWeight(p);
  return out;
}

namespace internal {
namespace {

constexpr api::TimeMs kBackoffFlushPeriodMs = 1000;
constexpr api::TimeMs kUnschedulableFlushPeriodMs = 30000;

api::TimeMs NextMultiple(api::TimeMs t, api::TimeMs period) {
  return (t / period + 1) * period;
}

}  // namespace

Scheduler::Scheduler(const api::Scenario& scenario,
                     const api::RunOptions& options,
                     framework::Choices& choices)
    : scenario_(scenario), options_(options), choices_(choices) {
  rng_state_ = scenario.seed;
  default_bind_latency_ms_ = scenario.bind_latency_ms;
}

schedref::Status Scheduler::Init(const framework::Registry& registry) {
  const api::SchedulerConfiguration& config = scenario_.config;
  StatusOr<std::unique_ptr<api::extender::ExtenderSet>> extenders =
      api::extender::ExtenderSet::Start(scenario_);
  if (!extenders.ok()) return extenders.status();
  extenders_ = std::move(extenders).value();
  std::map<std::string, queue::SchedulingQueue::Profile> queue_profiles;
  const framework::QueueSortPlugin* sort = nullptr;
  api::QueueSortValidator sort_validator;
  for (size_t i = 0; i < config.profiles.size(); ++i) {
    const api::Profile& profile = config.profiles[i];
    const std::string where = api::ProfileErrorWhere(scenario_.file, i);
    api::Plugins effective = api::EffectivePlugins(profile);
    api::Profile with_percentage = profile;
    if (!with_percentage.percentage_of_nodes_to_score.has_value()) {
      with_percentage.percentage_of_nodes_to_score =
          config.percentage_of_nodes_to_score;
    }
    StatusOr<std::unique_ptr<framework::Framework>> fwk =
        framework::Framework::New(registry, with_percentage, effective, this);
    if (!fwk.ok()) return api::CreatingProfileError(where, profile, fwk.status());
    framework::Framework* f = fwk->get();
    // Upstream requires every profile to use the same queue sort.
    SCHEDREF_RETURN_IF_ERROR(
        sort_validator.Validate(where, profile, f->QueueSort()->Name()));
    queue::SchedulingQueue::Profile qp;
    qp.pre_enqueue = f->PreEnqueuePlugins();
    qp.queueing_hints = f->QueueingHints();
    if (!config.extenders.empty()) {
      qp.queueing_hints[api::extender::kExtenderName] = {
          framework::ClusterEventWithHint{
              framework::ClusterEvent{framework::EventResource::kWildCard,
                                      framework::kAll, ""},
              nullptr}};
    }
    queue_profiles[profile.scheduler_name] = std::move(qp);
    if (sort == nullptr) sort = f->QueueSort();
    profiles_[profile.scheduler_name] = std::move(fwk).value();
  }
  queue::SchedulingQueue::Options qopts;
  qopts.pod_initial_backoff_ms = config.pod_initial_backoff_seconds * 1000;
  qopts.pod_max_backoff_ms = config.pod_max_backoff_seconds * 1000;
  qopts.pod_max_in_unschedulable_pods_ms =
      config.pod_max_in_unschedulable_pods_seconds * 1000;
  qopts.pod_lister = [this](const std::string& key) { return GetPod(key); };
  queue_ = std::make_unique<queue::SchedulingQueue>(qopts, sort,
                                                    std::move(queue_profiles));
  return schedref::Status::Ok();
}

bool Scheduler::ResponsibleForPod(const api::Pod& pod) const {
  return profiles_.count(pod.scheduler_name) != 0;
}

std::vector<api::Pod> Scheduler::NominatedPodsForNode(
    const std::string& node_name) const {
  return queue_->NominatedPodsForNode(node_name);
}

schedref::Status Scheduler::BindPod(const api::Pod& pod,
                                    const std::string& node_name) {
  // The API server holds the pods the informers deliver and the finished
  // ones they never see; the Binding reaches both.
  api::Pod* current = nullptr;
  bool finished = false;
  if (auto it = pods_.find(pod.Key()); it != pods_.end()) {
    current = &it->second;
  } else if (auto t = terminated_pods_.find(pod.Key()); t != terminated_pods_.end()) {
    current = &t->second;
    finished = true;
  }
  if (current == nullptr) {
    return schedref::Status::NotFound("pods \"" + pod.name + "\" not found");
  }
  if (auto conflict = api::BindingConflict(*current, current->node_name, pod.uid)) {
    return schedref::Status::FailedPrecondition(*conflict);
  }
  auto failures = bind_failures_.find(pod.Key());
  if (failures != bind_failures_.end() && failures->second > 0) {
    --failures->second;
    return schedref::Status::FailedPrecondition(
        "injected bind failure for pod " + pod.Key());
  }
  // The API server accepts the binding. A finished pod stays outside the
  // informers' selector, so nobody hears of it: the scheduler's assumed
  // copy is never confirmed and keeps its room (docs/deviations.md,
  // "Binding, informers and the clock").
  if (finished) {
    current->node_name = node_name;
    return schedref::Status::Ok();
  }
  api::Pod bound = *current;
  bound.node_name = node_name;
  UpdatePod(*current, bound);
  return schedref::Status::Ok();
}

framework::PluginsRunner* Scheduler::RunnerFor(const api::Pod& pod) {
  auto it = profiles_.find(pod.scheduler_name);
  return it == profiles_.end() ? nullptr : it->second.get();
}

std::optional<api::Pod> Scheduler::GetPod(const std::string& pod_key) const {
  auto it = pods_.find(pod_key);
  if (it == pods_.end()) return std::nullopt;
  return it->second;
}

framework::Status Scheduler::PreemptVictim(const api::Pod& victim,
                                           const api::Pod& preemptor) {
  auto fwk = profiles_.find(victim.scheduler_name);
  // Rejected in the name of the preempting plugin (upstream
  // prepareCandidate's pluginName; DefaultPreemption is the only one).
  if (fwk != profiles_.end() &&
      fwk->second->Reject(victim.uid, framework::plugins::names::kDefaultPreemption,
                          "preempted")) {
    trace_.records.push_back(api::Note{now_, "victimRejectedAtPermit", victim.Key(),
                                       "preempted by " + preemptor.Key()});
    preemption_victims_.push_back(victim.Key());
    return framework::Status::Success();
  }
  const std::string key = victim.Key();
  auto it = pods_.find(key);
  if (it == pods_.end()) {
    // A finished pod (it turned Failed or Succeeded while, or after, its
    // Bind ran) still exists; the informers just do not see it. It takes
    // the patch and goes at once (grace period 0 for a terminal phase).
    if (auto f = terminated_pods_.find(key);
        f != terminated_pods_.end() && f->second.uid == victim.uid) {
      preemption_victims_.push_back(key);
      trace_.records.push_back(
          api::Note{now_, "victimDeleted", key, "preempted by " + preemptor.Key()});
      terminated_pods_.erase(f);
      return framework::Status::Success();
    }
    // Gone already (an assumed pod deleted while its binding runs): the
    // API server answers the status patch with NotFound.
    return framework::Status::Error("pods \"" + victim.name + "\" not found");
  }
  preemption_victims_.push_back(key);
  // First the DisruptionTarget condition (a status patch, an update the
  // informers deliver), then the delete.
  api::Pod patched = it->second;
  if (api::UpdatePodCondition(patched.conditions, api::PreemptionByScheduler())) {
    UpdatePod(it->second, patched);
  }
  const api::Pod& current = pods_.at(key);
  const int64_t grace = api::DeleteGracePeriodSeconds(current, current.node_name);
  const std::string by = "preempted by " + preemptor.Key();
  if (grace == 0) {
    trace_.records.push_back(api::Note{now_, "victimDeleted", key, by});
    DeletePod(api::Pod(current));
    return framework::Status::Success();
  }
  if (current.deletion_timestamp.has_value()) {
    // A graceful deletion is under way; a second delete with the pod's own
    // grace period does not shorten it.
    trace_.records.push_back(
        api::Note{now_, "victimTerminating", key, by + "; already terminating"});
    return framework::Status::Success();
  }
  trace_.records.push_back(
      api::Note{now_, "victimTerminating", key,
                by + "; terminationGracePeriodSeconds " + std::to_string(grace)});
  api::Pod terminating = current;
  terminating.deletion_timestamp = api::AddSecondsSaturating(Now(), grace);
  terminations_.push_back(
      {api::AddSecondsSaturating(now_, grace), key, current.uid, grace});
  UpdatePod(current, terminating);
  return framework::Status::Success();
}

void Scheduler::FinishTerminations() {
  // Every due termination is due exactly now: the loop visits each one's
  // instant.
  for (auto t = terminations_.begin(); t != terminations_.end();) {
    if (t->at > now_) {
      ++t;
      continue;
    }
    const std::string message = "terminationGracePeriodSeconds " +
                                std::to_string(t->grace_seconds) + " elapsed";
    if (auto it = pods_.find(t->key); it != pods_.end() && it->second.uid == t->uid) {
      trace_.records.push_back(api::Note{now_, "victimTerminated", t->key, message});
      DeletePod(api::Pod(it->second));
    } else if (auto f = terminated_pods_.find(t->key);
               f != terminated_pods_.end() && f->second.uid == t->uid) {
      // Finished meanwhile: it goes without the informers noticing.
      trace_.records.push_back(api::Note{now_, "victimTerminated", t->key, message});
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
    // Gone (deleted, preempted, finished by an update) or being deleted:
    // that pod's end is its deletion, not its lifetime.
    auto it = pods_.find(c.key);
    if (it == pods_.end() || it->second.uid != c.uid ||
        it->second.deletion_timestamp.has_value()) {
      continue;
    }
    trace_.records.push_back(api::Note{now_, "podFinished", c.key,
                                       "ran " + api::FormatDurationMs(c.lifetime.run_for_ms) +
                                           "; phase " + c.lifetime.end_phase});
    // The status update to a terminal phase takes the pod out of the
    // informers' selector: a delete to the scheduler (AssignedPodDelete).
    // Then it is garbage-collected at once (docs/deviations.md, "Pod
    // lifetimes").
    DeletePod(api::Pod(it->second));
  }
}

void Scheduler::ClearNominatedNodeName(const api::Pod& pod) {
  auto it = pods_.find(pod.Key());
  if (it == pods_.end() || it->second.nominated_node_name.empty()) return;
  api::Pod updated = it->second;
  updated.nominated_node_name.clear();
  UpdatePod(it->second, updated);
}

// --- Event handlers ---------------------------------------------------------

void Scheduler::AddNode(const api::Node& node) {
  nodes_[node.name] = node;
  // The scenario decoder and ApplyEvent refuse a node that exists.
  CheckOk(cache_.AddNode(node), "the cache adds a new node");
  queue_->MoveAllToActiveOrBackoffQueue(framework::NodeAdd(), {}, node,
                                        nullptr, now_);
}

void Scheduler::UpdateNode(const api::Node& old_node,
                           const api::Node& new_node) {
  nodes_[new_node.name] = new_node;
  CheckOk(cache_.UpdateNode(old_node, new_node), "the cache updates a node");
  // Upstream nodeSchedulingPropertiesChange: one event per changed property.
  std::vector<framework::ClusterEvent> events;
  // Only uncordoning is an event (upstream extractNodeSpecUnschedulableChange).
  if (old_node.unschedulable != new_node.unschedulable && !new_node.unschedulable) {
    events.push_back({framework::EventResource::kNode,
                      framework::kUpdateNodeTaint, "NodeSpecUnschedulableChange"});
  }
  if (old_node.allocatable != new_node.allocatable) {
    events.push_back({framework::EventResource::kNode,
                      framework::kUpdateNodeAllocatable, "NodeAllocatableChange"});
  }
  if (old_node.labels != new_node.labels) {
    events.push_back({framework::EventResource::kNode,
                      framework::kUpdateNodeLabel, "NodeLabelChange"});
  }
  if (old_node.taints != new_node.taints) {
    events.push_back({framework::EventResource::kNode,
                      framework::kUpdateNodeTaint, "NodeTaintChange"});
  }
  if (old_node.conditions != new_node.conditions) {
    events.push_back({framework::EventResource::kNode,
                      framework::kUpdateNodeCondition, "NodeConditionChange"});
  }
  if (old_node.annotations != new_node.annotations) {
    events.push_back({framework::EventResource::kNode,
                      framework::kUpdateNodeAnnotation, "NodeAnnotationChange"});
  }
  for (const framework::ClusterEvent& e : events) {
    queue_->MoveAllToActiveOrBackoffQueue(e, old_node, new_node, nullptr,
                                          now_);
  }
}

void Scheduler::DeleteNode(const api::Node& node) {
  nodes_.erase(node.name);
  // v1.32 (kubernetes#127464): a node's deletion is a cluster event, raised
  // before the cache forgets the node.
  queue_->MoveAllToActiveOrBackoffQueue(framework::NodeDelete(), node, {},
                                        nullptr, now_);
  CheckOk(cache_.RemoveNode(node), "the cache removes a node it holds");
}

void Scheduler::CreatePod(const api::Pod& pod) {
  if (pod.Terminated()) {
    terminated_pods_[pod.Key()] = pod;
    return;
  }
  AddPod(pod);
}

void Scheduler::AddPod(const api::Pod& pod) {
  pods_[pod.Key()] = pod;
  if (!pod.node_name.empty()) {
    CheckOk(cache_.AddPod(pod), "the cache adds an assigned pod");
    queue_->MoveAllToActiveOrBackoffQueue(framework::AssignedPodAdd(), {},
                                          pod, nullptr, now_);
    StartLifetime(pod);
    return;
  }
  if (ResponsibleForPod(pod)) {
    CheckOk(queue_->Add(pod, now_), "the queue adds a new pending pod");
  }
}

void Scheduler::UpdatePod(const api::Pod& old_in, const api::Pod& new_pod) {
  api::Pod old_pod = old_in;  // old_in may alias pods_[key]
  pods_[new_pod.Key()] = new_pod;
  bool was_assigned = !old_pod.node_name.empty();
  bool is_assigned = !new_pod.node_name.empty();
  if (!was_assigned && is_assigned) {
    // The unscheduled-pod informer sees a delete, the assigned-pod informer
    // an add (upstream's filtered informers).
    if (ResponsibleForPod(old_pod)) RemoveUnscheduledPod(old_pod);
    AddPod(new_pod);
    return;
  }
  if (is_assigned) {
    CheckOk(cache_.UpdatePod(old_pod, new_pod),
            "the cache updates an assigned pod it holds");
    // One queue move per changed scheduling property (v1.32
    // updatePodInCache with QueueingHints).
    for (const framework::ClusterEvent& e :
         queue::PodSchedulingPropertiesChange(new_pod, old_pod)) {
      queue_->MoveAllToActiveOrBackoffQueue(e, old_pod, new_pod, nullptr,
                                            now_);
    }
    return;
  }
  if (!ResponsibleForPod(new_pod)) return;
  // An assumed pod's own updates are not requeued (upstream
  // updatePodInSchedulingQueue skips assumed pods).
  if (cache_.IsAssumedPod(new_pod)) return;
  CheckOk(queue_->Update(old_pod, new_pod, now_),
          "the queue updates a pending pod");
}

void Scheduler::DeletePod(const api::Pod& pod) {
  pods_.erase(pod.Key());
  if (!pod.node_name.empty()) {
    CheckOk(cache_.RemovePod(pod), "the cache removes an assigned pod it holds");
    queue_->MoveAllToActiveOrBackoffQueue(framework::AssignedPodDelete(), pod,
                                          {}, nullptr, now_);
    return;
  }
  if (!ResponsibleForPod(pod)) return;
  RemoveUnscheduledPod(pod);
}

void Scheduler::RemoveUnscheduledPod(const api::Pod& pod) {
  CheckOk(queue_->Delete(pod), "the queue deletes a pending pod");
  // A pod waiting at Permit is rejected; its assumed resources are freed.
  framework::Framework& fwk = *profiles_.at(pod.scheduler_name);
  if (fwk.Reject(pod.uid, "", "removed") ||
      fwk.WaitingPods().count(pod.uid) != 0) {
    queue_->MoveAllToActiveOrBackoffQueue(framework::AssignedPodDelete(), pod,
                                          {}, nullptr, now_);
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
    framework::EventObject old_object, new_object;
    if (old_obj != nullptr) old_object = *old_obj;
    if (new_obj != nullptr) new_object = *new_obj;
    queue_->MoveAllToActiveOrBackoffQueue(
        framework::StorageEvent(framework::StorageEventResource<T>(),
                                old_obj == nullptr ? framework::kAdd : framework::kUpdate),
        old_object, new_object, nullptr, now_);
  });
}

void Scheduler::WriteStorageObject(const api::StorageWrite& write) {
  ApplyStorageWrite(write);
  volume_controller_runs_.insert(now_ + scenario_.volume_binding_latency_ms);
}

void Scheduler::RunVolumeController() {
  for (const api::StorageWrite& w : api::CompleteVolumeBindings(storage_, nodes_)) {
    ApplyStorageWrite(w);
  }
}

schedref::Status Scheduler::ApplyEvent(const api::Event& event, size_t index) {
  auto where = [&]() {
    return scenario_.file + ": timeline[" + std::to_string(index) + "]";
  };
  // Storage objects: the informer's handler requeues by the hints.
  const bool storage = api::ApplyStorageEvent(
      event, &storage_, [&](const auto* old_obj, const auto* new_obj) {
        using T = std::decay_t<decltype(*old_obj)>;
        const framework::ActionType action =
            old_obj == nullptr ? framework::kAdd
                               : new_obj == nullptr ? framework::kDelete : framework::kUpdate;
        framework::EventObject old_object, new_object;
        if (old_obj != nullptr) old_object = *old_obj;
        if (new_obj != nullptr) new_object = *new_obj;
        queue_->MoveAllToActiveOrBackoffQueue(
            framework::StorageEvent(framework::StorageEventResource<T>(), action), old_object,
            new_object, nullptr, now_);
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
      } else if (const auto* pdb =
                     std::get_if<api::PodDisruptionBudget>(&event.object)) {
        pdbs_.push_back(*pdb);
      } else if (const auto* ns = std::get_if<api::Namespace>(&event.object)) {
        namespaces_[ns->name] = ns->labels;
      }
      return schedref::Status::Ok();
    case api::Event::Op::kUpdate:
      if (const auto* node = std::get_if<api::Node>(&event.object)) {
        auto it = nodes_.find(node->name);
        if (it == nodes_.end()) {
          return schedref::Status::Invalid(where() + ": Node " + node->name +
                                           " does not exist");
        }
        UpdateNode(api::Node(it->second), *node);
      } else if (const auto* pod = std::get_if<api::Pod>(&event.object)) {
        auto it = pods_.find(pod->Key());
        auto terminated = terminated_pods_.find(pod->Key());
        if (it == pods_.end() && terminated == terminated_pods_.end()) {
          // The decoder checks that the pod exists by the timeline; it can
          // still be gone here (preempted, or finished and collected): the
          // API server answers NotFound and the scheduler sees nothing.
          trace_.records.push_back(
              api::Note{now_, "updateIgnored", pod->Key(), "pod no longer exists"});
          return schedref::Status::Ok();
        }
        const api::Pod& current = it != pods_.end() ? it->second : terminated->second;
        const api::Pod updated = api::ApplyPodUpdate(current, *pod);
        // An update that changes nothing is no write: the API server keeps
        // the resourceVersion and sends no watch event.
        if (updated == current) return schedref::Status::Ok();
        if (it == pods_.end()) {
          // Out of a terminal phase: the pod matches the informers'
          // selector again, so they see it appear (an add).
          terminated_pods_.erase(terminated);
          CreatePod(updated);
        } else if (updated.Terminated()) {
          // The pod stops matching the informers' selector: a delete.
          DeletePod(api::Pod(it->second));
          terminated_pods_[updated.Key()] = updated;
        } else {
          UpdatePod(it->second, updated);
        }
      } else if (const auto* pdb =
                     std::get_if<api::PodDisruptionBudget>(&event.object)) {
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
        if (it == nodes_.end()) {
          return schedref::Status::Invalid(where() + ": Node " + event.name +
                                           " does not exist");
        }
        DeleteNode(api::Node(it->second));
      } else if (event.kind == "Pod") {
        // A finished pod goes without the informers noticing.
        if (terminated_pods_.erase(event.name) != 0) return schedref::Status::Ok();
        auto it = pods_.find(event.name);
        if (it == pods_.end()) {
          // The decoder rejects deletes of pods the scenario never defines;
          // a pod can still be gone here because preemption deleted it.
          // The API server answers such a delete with NotFound, so the
          // scheduler sees nothing; the trace notes it.
          trace_.records.push_back(
              api::Note{now_, "deleteIgnored", event.name, "pod no longer exists"});
          return schedref::Status::Ok();
        }
        DeletePod(api::Pod(it->second));
      } else if (event.kind == "PodDisruptionBudget") {
        pdbs_.erase(std::remove_if(pdbs_.begin(), pdbs_.end(),
                                   [&](const api::PodDisruptionBudget& p) {
                                     return p.ns + "/" + p.name == event.name;
                                   }),
                    pdbs_.end());
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
        trace_.records.push_back(
            api::Note{now_, "notWaiting", event.name, "pod no longer exists"});
        return schedref::Status::Ok();
      }
      auto fwk = profiles_.find(it->second.scheduler_name);
      bool done = fwk != profiles_.end() &&
                  (event.op == api::Event::Op::kAllow
                       ? fwk->second->Allow(it->second.uid, event.plugin)
                       : fwk->second->Reject(it->second.uid, event.plugin,
                                             "rejected by " + event.plugin));
      if (!done) {
        trace_.records.push_back(
            api::Note{now_, "notWaiting", event.name,
                      "pod is not waiting on plugin " + event.plugin});
      }
      return schedref::Status::Ok();
    }
  }
  return schedref::Status::Ok();
}

// --- The loop -----------------------------------------------------------------

framework::PreemptionPick Scheduler::ChoosePreemption(
    const framework::PreemptionChoice& choice) {
  framework::PreemptionChoice at_cycle = choice;
  at_cycle.cycle = queue_->SchedulingCycle();
  framework::PreemptionPick pick = choices_.Preemption(at_cycle);
  if (pick.offset < 0 || (choice.num_offsets > 0 && pick.offset >= choice.num_offsets)) {
    Crash("the preemption choice's offset " + std::to_string(pick.offset) +
          " is not among " + std::to_string(choice.num_offsets) +
          " potential nodes");
  }
  return pick;
}

uint64_t Scheduler::NextRandom() {
  // SplitMix64 (docs/deviations.md "Random numbers").
  rng_state_ += 0x9E3779B97F4A7C15ull;
  uint64_t z = rng_state_;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

StatusOr<api::Trace> Scheduler::Run() {
  now_ = 0;
  // The initial cluster arrives through the informers before scheduling
  // starts: namespaces and PDBs, nodes, then pods, each in manifest order.
  for (const api::Namespace& ns : scenario_.initial.namespaces) {
    namespaces_[ns.name] = ns.labels;
  }
  pdbs_ = scenario_.initial.pdbs;
  storage_ = api::StorageObjects::From(scenario_.initial);
  selectors_ = api::SelectorObjects::From(scenario_.initial);
  for (const api::Node& node : scenario_.initial.nodes) AddNode(node);
  for (const api::Pod& pod : scenario_.initial.pods) CreatePod(pod);

  api::TimeMs stop_at = 0;
  for (const api::Event& e : scenario_.timeline) {
    stop_at = std::max(stop_at, e.at);
  }
  size_t next_event = 0;
  while (true) {
    // 1. Timeline events due now.
    while (next_event < scenario_.timeline.size() &&
           scenario_.timeline[next_event].at <= now_) {
      SCHEDREF_RETURN_IF_ERROR(
          ApplyEvent(scenario_.timeline[next_event], next_event));
      ++next_event;
    }
    // The PV controller model, when due.
    while (!volume_controller_runs_.empty() && *volume_controller_runs_.begin() <= now_) {
      volume_controller_runs_.erase(volume_controller_runs_.begin());
      RunVolumeController();
    }
    // Graceful deletions whose grace period ends now.
    FinishTerminations();
    // Pods whose lifetime ends now.
    FinishLifetimes();
    // 2. Permit deadlines due now.
    for (auto& [name, fwk] : profiles_) fwk->ExpireWaitingPods(now_);
    // 3. Binding cycles that can go on (Bind completions, resumed waiting
    //    pods), in the order of their scheduling cycles.
    for (size_t i = 0; i < bindings_.size();) {
      if (AdvanceBinding(bindings_[i])) {
        bindings_.erase(bindings_.begin() + static_cast<long>(i));
      } else {
        ++i;
      }
    }
    // 4. Periodic flushes.
    if (now_ % kBackoffFlushPeriodMs == 0) queue_->FlushBackoffQCompleted(now_);
    if (now_ % kUnschedulableFlushPeriodMs == 0) {
      queue_->FlushUnschedulablePodsLeftover(now_);
    }
    // 5. Scheduling cycles.
    while (std::optional<framework::QueuedPodInfo> info = queue_->Pop(choices_)) {
      ScheduleOne(std::move(*info));
    }

    // Next instant: the earliest of the next event, the next flush, the
    // next bind completion or Permit deadline.
    api::TimeMs next = NextMultiple(now_, kBackoffFlushPeriodMs);
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
        // A deadline of now (a 0 s timeout set by this instant's cycles)
        // fires at this same instant, as upstream's time.AfterFunc(0) does.
        for (const auto& [plugin, deadline] : wp.pending) {
          next = std::min(next, std::max(deadline, now_));
        }
      }
    }
    if (options_.on_instant) options_.on_instant(now_, trace_);
    if (next > stop_at) break;
    now_ = next;
  }

  for (const auto& [key, pod] : pods_) trace_.placements[key] = pod.node_name;
  trace_.warnings = api::UnmodelledWarnings(scenario_);
  return trace_;
}

}  // namespace internal
}  // namespace schedref::reference
