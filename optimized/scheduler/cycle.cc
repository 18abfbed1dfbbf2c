// The rest of a pod's attempt after the node is chosen (assume, Reserve,
// Permit), the binding cycle, and the failure handler: upstream
// schedule_one.go (schedulingCycle, bindingCycle, handleSchedulingFailure),
// on the same virtual-time rules as the reference.
#include <optional>
#include <type_traits>
#include <utility>

#include "api/crash.h"
#include "optimized/scheduler/scheduler.h"

namespace schedref::optimized::internal {
namespace {

const backend::queue::NominatingInfo kClearNominatedNode{backend::queue::NominatingInfo::kOverride, ""};

// The assumed pod's PodInfo back to the pod it was before AssumePod.
framework::PodInfoPtr WithoutNodeName(const framework::PodInfo& info) {
  return ChangedPodInfo(info, [](api::Pod& p) { p.node_name.clear(); });
}

// Records are appended one per attempt, binding and note; growing the
// vector must move them, never copy (an attempt may hold a rejection per
// node).
static_assert(std::is_nothrow_move_constructible_v<api::Trace::Record>);

}  // namespace

Scheduler::CycleOutcome Scheduler::SchedulingCycle(framework::Framework& fwk,
                                                   framework::CycleState& state,
                                                   framework::QueuedPodInfo& pod_info,
                                                   api::Attempt& attempt) {
  const framework::PodInfo& pod = *pod_info.pod_info;
  CycleOutcome out = SchedulePod(fwk, state, pod, attempt);
  if (out.fit_error && fwk.HasPostFilterPlugins()) {
    preemption_victims_.clear();
    preemption_candidates_.clear();
    framework::PostFilterOutput post =
        fwk.RunPostFilterPlugins(state, pod, out.fit_error->diagnosis.node_to_status);
    out.fit_error->diagnosis.post_filter_msg = post.status.Message();
    api::Preemption preemption;
    if (post.result && post.result->nominated_node_name) {
      out.nominating_info =
          backend::queue::NominatingInfo{backend::queue::NominatingInfo::kOverride, *post.result->nominated_node_name};
      preemption.nominated_node = *post.result->nominated_node_name;
    }
    preemption.victims = preemption_victims_;
    preemption.candidates = std::move(preemption_candidates_);
    preemption_candidates_.clear();
    attempt.preemption = preemption;
  }
  if (!out.status.IsSuccess() || out.fit_error) return out;

  const std::string host = out.result.suggested_host;
  // (The pod object is shared, not copied: framework::BoundPodInfo.)
  framework::PodInfoPtr assumed = framework::BoundPodInfo(pod, host);
  schedref::Status assume_err = cache_.AssumePod(assumed, out.result.suggested_node);
  if (!assume_err.ok()) {
    out.status = framework::Status::Error(assume_err.message());
    out.nominating_info = kClearNominatedNode;
    return out;
  }
  queue_->DeleteNominatedPodIfExists(assumed->pod);

  auto reject_on_node = [&](const framework::Status& s) {
    framework::FitError fit;
    fit.num_all_nodes = 1;
    fit.diagnosis.node_to_status.Add(host, -1, s);
    fit.diagnosis.AddPluginStatus(s);
    out.fit_error = std::move(fit);
    out.status = framework::Status(s.code(), std::vector<std::string>{});
    out.nominating_info = kClearNominatedNode;
  };
  auto undo = [&](const framework::Status& s) {
    fwk.RunReservePluginsUnreserve(state, *assumed, host);
    CheckOk(cache_.ForgetPod(*assumed), "the cache forgets the pod it assumed");
    if (s.IsRejected()) {
      reject_on_node(s);
    } else {
      out.status = s;
      out.nominating_info = kClearNominatedNode;
    }
  };
  framework::Status reserve = fwk.RunReservePluginsReserve(state, *assumed, host);
  if (!reserve.IsSuccess()) {
    undo(reserve);
    return out;
  }
  framework::Status permit = fwk.RunPermitPlugins(state, *assumed, host, now_);
  if (!permit.IsWait() && !permit.IsSuccess()) {
    undo(permit);
    return out;
  }
  if (permit.IsWait()) out.status = permit;  // success, but the pod waits
  if (!state.pods_to_activate.empty()) {
    Activate(state.pods_to_activate);
    state.pods_to_activate.clear();
  }
  pod_info.pod_info = assumed;
  return out;
}

void Scheduler::Activate(const std::set<std::string>& pod_keys) {
  std::vector<api::Pod> pods;
  for (const std::string& key : pod_keys) {
    auto it = pods_.find(key);
    if (it != pods_.end()) {
      std::optional<api::Pod> bound;
      pods.push_back(framework::MaterializedPod(*it->second, &bound));
    }
  }
  queue_->Activate(pods, now_);
}

void Scheduler::ScheduleOne(framework::QueuedPodInfo pod_info) {
  const framework::PodInfoPtr pod_ptr = pod_info.pod_info;
  const api::Pod& pod = pod_ptr->pod;
  api::Attempt attempt;
  attempt.at = now_;
  attempt.cycle = queue_->SchedulingCycle();
  attempt.pod = pod_ptr->key;
  attempt.profile = pod.scheduler_name;

  auto fwk_it = profiles_.find(pod.scheduler_name);
  if (fwk_it == profiles_.end()) {  // the queue only holds known profiles' pods
    queue_->Done(pod.uid);
    return;
  }
  framework::Framework& fwk = *fwk_it->second;
  if (pod.deletion_timestamp || cache_.IsAssumedPod(pod)) {
    attempt.outcome = api::AttemptOutcome::kSkipped;
    attempt.message = pod.deletion_timestamp ? "skip schedule deleting pod: " + pod_ptr->key
                                             : "pod is already assumed";
    trace_.records.push_back(std::move(attempt));
    queue_->Done(pod.uid);
    return;
  }

  framework::CycleState state;
  // Notes raised during the cycle (preemption victims) follow the attempt.
  // The attempt is moved into its record: it is not read afterwards.
  const size_t attempt_index = trace_.records.size();
  auto record_attempt = [&] {
    if (attempt_index == trace_.records.size()) {
      // Built in place: an Attempt is some thirty members to move.
      trace_.records.emplace_back(std::move(attempt));
      return;
    }
    api::Trace::Record record(std::move(attempt));
    trace_.records.insert(trace_.records.begin() + static_cast<std::ptrdiff_t>(attempt_index),
                          std::move(record));
  };
  CycleOutcome out = SchedulingCycle(fwk, state, pod_info, attempt);
  if (out.fit_error || (!out.status.IsSuccess() && !out.status.IsWait())) {
    attempt.node.clear();
    if (out.fit_error) {
      attempt.outcome = api::AttemptOutcome::kUnschedulable;
      attempt.message = out.fit_error->Error();
    } else {
      attempt.outcome = out.status.IsRejected() ? api::AttemptOutcome::kUnschedulable
                                                : api::AttemptOutcome::kError;
      attempt.message = out.status.Message();
    }
    // Read before the attempt is moved into its record.
    const bool rejected = attempt.outcome == api::AttemptOutcome::kUnschedulable;
    std::string message = attempt.message;
    record_attempt();
    HandleSchedulingFailure(pod_info, out.fit_error, out.nominating_info, rejected, message);
    return;
  }
  attempt.node = out.result.suggested_host;
  attempt.top_scores = std::move(out.result.top_scores);
  attempt.outcome =
      out.status.IsWait() ? api::AttemptOutcome::kWaiting : api::AttemptOutcome::kScheduled;
  if (out.status.IsWait()) attempt.message = out.status.Message();
  const int64_t cycle = attempt.cycle;
  record_attempt();

  // Made in place: a binding holds the cycle state and the pod, a dozen
  // members to move.
  InFlightBinding& binding = bindings_.emplace_back();
  binding.assumed = std::move(pod_info);
  binding.popped = pod_ptr;
  binding.state = std::move(state);
  binding.fwk = &fwk;
  binding.node = std::move(out.result.suggested_host);
  binding.cycle = cycle;
  // No Permit wait and no bind latency: the binding cycle completes before
  // the next scheduling cycle (docs/semantics/event-loop.md).
  if (AdvanceBinding(bindings_.back())) bindings_.pop_back();
}

bool Scheduler::AdvanceBinding(InFlightBinding& b) {
  framework::Framework& fwk = *b.fwk;
  const framework::PodInfo& pod = *b.assumed.pod_info;
  if (b.bind_completes_at) {
    if (*b.bind_completes_at > now_) return false;
    FinishBind(b, RunBindPlugins(b));
    return true;
  }
  if (b.pre_bind_retry_at) {
    if (*b.pre_bind_retry_at > now_) return false;
    b.pre_bind_retry_at.reset();
    return ContinuePreBind(b);
  }
  auto waiting = fwk.WaitingPods().find(pod.uid());
  if (waiting != fwk.WaitingPods().end()) {
    if (!waiting->second.result) return false;
    framework::Status result = *waiting->second.result;
    fwk.WaitingPods().erase(waiting);
    if (!result.IsSuccess()) {
      HandleBindingCycleError(b, result);
      return true;
    }
  }
  return ContinuePreBind(b);
}

bool Scheduler::ContinuePreBind(InFlightBinding& b) {
  framework::Framework& fwk = *b.fwk;
  const framework::PodInfo& pod = *b.assumed.pod_info;
  // VolumeBinding's poll period (1 s), the only PreBind that waits.
  constexpr api::TimeMs kPreBindPollPeriodMs = 1000;
  framework::Status pre_bind = fwk.RunPreBindPlugins(b.state, pod, b.node, &b.pre_bind_next);
  if (pre_bind.IsWait()) {
    b.pre_bind_retry_at = now_ + kPreBindPollPeriodMs;
    return false;
  }
  if (!pre_bind.IsSuccess()) {
    HandleBindingCycleError(b, pre_bind);
    return true;
  }
  // Not in flight after PreBind, the last point that can reject (upstream
  // bindingCycle: Done after PreBind, before Bind).
  queue_->Done(pod.uid());
  auto latency = bind_latency_ms_.empty() ? bind_latency_ms_.end() : bind_latency_ms_.find(pod.key);
  const int64_t delay =
      latency == bind_latency_ms_.end() ? default_bind_latency_ms_ : latency->second;
  if (delay > 0) {
    b.bind_completes_at = now_ + delay;
    return false;
  }
  FinishBind(b, RunBindPlugins(b));
  return true;
}

framework::Status Scheduler::RunBindPlugins(InFlightBinding& b) {
  binding_in_progress_ = &b;
  const api::Pod& pod = b.assumed.pod_info->pod;
  // extendersBinding first: the first interested binder extender binds
  // instead of the plugins; an ignorable one's error passes the turn on.
  for (const api::extender::HttpExtender* x : extenders_->extenders()) {
    if (!x->IsBinder() || !x->IsInterested(pod)) continue;
    const schedref::Status bound = x->Bind(pod, b.node);
    if (!bound.ok() && x->IsIgnorable()) continue;
    framework::Status status;
    if (!bound.ok()) {
      status = framework::Status::Error(bound.message());
    } else {
      // The extender wrote the Binding: the API server's answer is what it
      // would have reported.
      const schedref::Status api = BindPod(pod, b.node);
      if (!api.ok()) status = framework::Status::Error(api.message());
    }
    binding_in_progress_ = nullptr;
    return status;
  }
  framework::Status status = b.fwk->RunBindPlugins(b.state, *b.assumed.pod_info, b.node);
  binding_in_progress_ = nullptr;
  return status;
}

void Scheduler::FinishBind(InFlightBinding& b, const framework::Status& status) {
  const framework::PodInfo& pod = *b.assumed.pod_info;
  CheckOk(cache_.FinishBinding(pod.pod, now_),
          "the cache finishes binding the pod it assumed");
  if (!status.IsSuccess()) {
    HandleBindingCycleError(b, status);
    return;
  }
  trace_.records.emplace_back(
      api::Binding{now_, b.cycle, pod.key, b.node, api::BindingOutcome::kBound, ""});
  b.fwk->RunPostBindPlugins(b.state, pod, b.node);
  if (!b.state.pods_to_activate.empty()) Activate(b.state.pods_to_activate);
}

void Scheduler::HandleBindingCycleError(InFlightBinding& b, const framework::Status& status) {
  framework::Framework& fwk = *b.fwk;
  const framework::PodInfoPtr assumed = b.assumed.pod_info;
  trace_.records.push_back(api::Binding{now_, b.cycle, assumed->key, b.node,
                                        status.IsRejected() ? api::BindingOutcome::kRejected
                                                            : api::BindingOutcome::kFailed,
                                        status.Message()});
  fwk.RunReservePluginsUnreserve(b.state, *assumed, b.node);
  schedref::Status forget = cache_.ForgetPod(*assumed);
  // The assumed pod with its spec.nodeName, for the events' objects.
  std::optional<api::Pod> bound_copy;
  const api::Pod& bound = framework::MaterializedPod(*assumed, &bound_copy);
  bool move_after = false;
  if (forget.ok()) {
    if (status.IsRejected()) {
      move_after = true;  // deferred, and not for the pod itself
    } else {
      framework::EventObjects objs;
      objs.old_pod = &bound;
      queue_->MoveAllToActiveOrBackoffQueue(framework::AssignedPodDelete(), objs, nullptr, now_);
    }
  }
  std::optional<framework::FitError> fit;
  if (status.IsRejected()) {
    framework::FitError f;
    f.num_all_nodes = 1;
    f.diagnosis.node_to_status.Add(b.node, -1, status);
    f.diagnosis.unschedulable_plugins.insert(status.plugin());
    fit = std::move(f);
  }
  framework::QueuedPodInfo info = b.assumed;
  info.pod_info = WithoutNodeName(*assumed);
  const std::string message = fit ? fit->Error() : status.Message();
  HandleSchedulingFailure(info, fit, kClearNominatedNode, status.IsRejected(), message);
  if (move_after) {
    const std::string uid = assumed->uid();
    framework::EventObjects objs;
    objs.old_pod = &bound;
    queue_->MoveAllToActiveOrBackoffQueue(
        framework::AssignedPodDelete(), objs,
        [uid](const api::Pod& p) { return p.uid != uid; }, now_);
  }
}

void Scheduler::HandleSchedulingFailure(framework::QueuedPodInfo& pod_info,
                                        const std::optional<framework::FitError>& fit,
                                        const std::optional<backend::queue::NominatingInfo>& nominating_info,
                                        bool rejected, const std::string& message) {
  if (fit) {
    pod_info.unschedulable_plugins = fit->diagnosis.unschedulable_plugins;
    pod_info.pending_plugins = fit->diagnosis.pending_plugins;
  } else {
    pod_info.unschedulable_plugins.clear();
    pod_info.pending_plugins.clear();
  }
  // Re-read the pod: gone or bound meanwhile => not requeued.
  auto it = pods_.find(pod_info.pod_info->key);
  const bool requeue = it != pods_.end() && it->second->uid() == pod_info.pod_info->uid() &&
                       it->second->node_name().empty();
  framework::PodInfoPtr nominated;
  if (requeue) {
    // The stored object itself: PodInfos are immutable.
    pod_info.pod_info = it->second;
    nominated = it->second;
    CheckOk(queue_->AddUnschedulableIfNotPresent(
                std::move(pod_info), queue_->SchedulingCycle(), now_),
            "the queue takes back a pod that failed");
  } else {
    nominated = pod_info.pod_info;
    queue_->Done(nominated->uid());
  }
  queue_->AddNominatedPod(nominated, nominating_info);
  // The status patch (upstream updatePod): the PodScheduled=False condition
  // and, in Override mode, nominatedNodeName, written only when one of them
  // changes; the informer delivers it at once (for a pending pod whose
  // nomination stayed: the queue's UpdatePodOther event).
  if (it == pods_.end()) return;
  std::pair<std::string, std::string> condition{rejected ? "Unschedulable" : "SchedulerError",
                                                message};
  auto written = pod_scheduled_.find(it->second->uid());
  const bool condition_changed = written == pod_scheduled_.end() || written->second != condition;
  const bool nomination_changed =
      nominating_info && nominating_info->mode == backend::queue::NominatingInfo::kOverride &&
      it->second->pod.nominated_node_name != nominating_info->nominated_node_name;
  if (!condition_changed && !nomination_changed) return;
  pod_scheduled_[it->second->uid()] = std::move(condition);
  if (nomination_changed) {
    UpdatePod(it->second, ChangedPodInfo(*it->second, [&](api::Pod& p) {
                p.nominated_node_name = nominating_info->nominated_node_name;
              }));
  } else {
    UpdatePod(it->second, it->second);
  }
}

}  // namespace schedref::optimized::internal
