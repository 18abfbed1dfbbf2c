// scheduleOne and everything it calls: upstream pkg/scheduler/schedule_one.go
// (v1.32), single-threaded. Where upstream runs Filter in parallel and stops
// early, the reference checks nodes one by one in snapshot order from the
// round-robin start index and stops at the same count; where upstream breaks
// score ties at random, the reference draws from the scenario's seeded RNG
// (docs/deviations.md).
#include <algorithm>
#include <utility>

#include "reference/scheduler/parallel_search.h"
#include "reference/scheduler/scheduler.h"

namespace schedref::reference::internal {
namespace {

// Upstream constants (schedule_one.go).
constexpr int64_t kMinFeasibleNodesToFind = 100;
constexpr int64_t kMinFeasibleNodesPercentageToFind = 5;
constexpr size_t kNumberOfHighestScoredNodesToReport = 3;

const queue::NominatingInfo kClearNominatedNode{
    queue::NominatingInfo::kOverride, ""};

api::NodeRejection ToRejection(const framework::Status& s) {
  return api::NodeRejection{s.plugin(), framework::CodeName(s.code()),
                            s.reasons()};
}

std::string DetailString(const framework::Status& s) {
  if (s.IsSuccess()) return "Success";
  return std::string(framework::CodeName(s.code())) + ": " + s.Message();
}

}  // namespace

int64_t Scheduler::NumFeasibleNodesToFind(std::optional<int32_t> percentage,
                                          int64_t num_all_nodes) const {
  if (num_all_nodes < kMinFeasibleNodesToFind) return num_all_nodes;
  int64_t p = percentage.value_or(scenario_.config.percentage_of_nodes_to_score);
  if (p == 0) {
    p = 50 - num_all_nodes / 125;
    if (p < kMinFeasibleNodesPercentageToFind) {
      p = kMinFeasibleNodesPercentageToFind;
    }
  }
  int64_t n = num_all_nodes * p / 100;
  return n < kMinFeasibleNodesToFind ? kMinFeasibleNodesToFind : n;
}

int64_t Scheduler::NodesToFind(framework::Framework& fwk,
                               int64_t num_all_nodes) const {
  if (!fwk.HasScorePlugins()) return 1;  // no extenders in the reference
  return NumFeasibleNodesToFind(fwk.PercentageOfNodesToScore(), num_all_nodes);
}

void Scheduler::RecordIllegalChoice(const std::string& message) {
  trace_.records.push_back(
      {std::nullopt, std::nullopt, api::Note{now_, "illegalChoice", "", message}});
}

bool Scheduler::ApplyForcedSearch(
    framework::Framework& fwk, framework::CycleState& state,
    const api::Pod& pod, framework::Diagnosis& diagnosis,
    const std::vector<const framework::NodeInfo*>& nodes, api::Attempt& attempt,
    std::vector<const framework::NodeInfo*>* feasible) {
  const int64_t cycle = queue_->SchedulingCycle();
  auto forced = options_.forced.searches.find(cycle);
  if (forced == options_.forced.searches.end() || nodes.empty()) return false;
  const std::string what = "cycle " + std::to_string(cycle) +
                           ": feasible-node search not accepted: ";
  if (!fwk.HasFilterPlugins()) {
    RecordIllegalChoice(what +
                        "the profile has no Filter plugins, so upstream takes "
                        "the nodes from the start index without a search");
    return false;
  }
  // Every node's verdict, in check order.
  const int64_t num_all = static_cast<int64_t>(nodes.size());
  std::vector<CheckedNode> checked;
  std::map<std::string, framework::Status> statuses;
  std::map<std::string, std::map<std::string, framework::Status>> details;
  std::map<std::string, const framework::NodeInfo*> by_name;
  for (int64_t i = 0; i < num_all; ++i) {
    const framework::NodeInfo* node =
        nodes[(next_start_node_index_ + i) % num_all];
    framework::Status s = fwk.RunFilterPluginsWithNominatedPods(
        state, pod, *node, options_.full_detail ? &details[node->Name()] : nullptr);
    if (s.code() == framework::Code::kError) {
      RecordIllegalChoice(what + "a filter fails with an error on node " +
                          node->Name() + " (" + s.Message() + ")");
      return false;
    }
    checked.push_back({node->Name(), s.IsSuccess()});
    statuses.emplace(node->Name(), std::move(s));
    by_name[node->Name()] = node;
  }
  const int64_t to_find = NodesToFind(fwk, num_all);
  const int32_t parallelism = scenario_.config.parallelism;
  std::string why = WhyNotReachable(checked, to_find, parallelism,
                                    forced->second.feasible,
                                    forced->second.rejected);
  // A nominated node that failed before the search (evaluateNominatedNode)
  // is rejected whether or not the search checked it again.
  const std::string& nominated = pod.nominated_node_name;
  if (!why.empty() && forced->second.rejected.count(nominated) > 0 &&
      diagnosis.node_to_status.statuses.count(nominated) > 0) {
    std::set<std::string> searched = forced->second.rejected;
    searched.erase(nominated);
    if (WhyNotReachable(checked, to_find, parallelism, forced->second.feasible,
                        searched)
            .empty()) {
      why.clear();
    }
  }
  if (!why.empty()) {
    RecordIllegalChoice(what + why);
    return false;
  }
  auto record_detail = [&](const std::string& name) {
    if (!options_.full_detail) return;
    for (const auto& [plugin, st] : details[name]) {
      attempt.detail[name].filter[plugin] = DetailString(st);
    }
  };
  for (const std::string& name : forced->second.feasible) {
    feasible->push_back(by_name.at(name));
    record_detail(name);
  }
  for (const std::string& name : forced->second.rejected) {
    auto s = statuses.find(name);
    // Not among the searched nodes: the nominated node, recorded already.
    if (s == statuses.end()) continue;
    diagnosis.node_to_status.statuses[name] = s->second;
    diagnosis.AddPluginStatus(s->second);
    record_detail(name);
  }
  return true;
}

std::vector<const framework::NodeInfo*> Scheduler::FindNodesThatPassFilters(
    framework::Framework& fwk, framework::CycleState& state,
    const api::Pod& pod, framework::Diagnosis& diagnosis,
    const std::vector<const framework::NodeInfo*>& nodes,
    api::Attempt& attempt, framework::Status* error) {
  const int64_t num_all = static_cast<int64_t>(nodes.size());
  const int64_t to_find = NodesToFind(fwk, num_all);
  std::vector<const framework::NodeInfo*> feasible;
  if (num_all == 0) return feasible;
  if (!fwk.HasFilterPlugins()) {
    for (int64_t i = 0; i < to_find; ++i) {
      feasible.push_back(nodes[(next_start_node_index_ + i) % num_all]);
    }
    return feasible;
  }
  for (int64_t i = 0; i < num_all; ++i) {
    const framework::NodeInfo* node = nodes[(next_start_node_index_ + i) % num_all];
    std::map<std::string, framework::Status> detail;
    framework::Status s = fwk.RunFilterPluginsWithNominatedPods(
        state, pod, *node, options_.full_detail ? &detail : nullptr);
    if (options_.full_detail) {
      for (const auto& [plugin, st] : detail) {
        attempt.detail[node->Name()].filter[plugin] = DetailString(st);
      }
    }
    if (s.code() == framework::Code::kError) {
      *error = s;
      return feasible;
    }
    if (s.IsSuccess()) {
      feasible.push_back(node);
      if (static_cast<int64_t>(feasible.size()) >= to_find) break;
    } else {
      diagnosis.node_to_status.statuses[node->Name()] = s;
      diagnosis.AddPluginStatus(s);
    }
  }
  return feasible;
}

std::string Scheduler::SelectHost(
    const std::vector<framework::NodeScoreResult>& scores,
    std::vector<api::NodeScore>* top) {
  // Order: score descending, ties in feasible-list order (stable sort).
  std::vector<size_t> order(scores.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return scores[a].total_score > scores[b].total_score;
  });
  size_t ties = 1;
  while (ties < order.size() &&
         scores[order[ties]].total_score == scores[order[0]].total_score) {
    ++ties;
  }
  // Note: upstream picks uniformly among the tied nodes with math/rand
  // (reservoir sampling); the reference draws once from the seeded RNG, and
  // only when there is a tie (docs/deviations.md "selectHost").
  size_t chosen = 0;
  if (ties > 1) chosen = static_cast<size_t>(NextRandom() % ties);
  auto forced = options_.forced.choices.find(queue_->SchedulingCycle());
  if (forced != options_.forced.choices.end()) {
    bool legal = false;
    for (size_t i = 0; i < ties; ++i) {
      if (scores[order[i]].name == forced->second) {
        chosen = i;
        legal = true;
      }
    }
    if (!legal) {
      RecordIllegalChoice("cycle " + std::to_string(forced->first) + ": node " +
                          forced->second +
                          " does not tie for the highest score");
    }
  }
  std::swap(order[0], order[chosen]);
  // The report: the chosen node, then the rest by score.
  std::stable_sort(order.begin() + 1, order.end(), [&](size_t a, size_t b) {
    if (scores[a].total_score != scores[b].total_score) {
      return scores[a].total_score > scores[b].total_score;
    }
    return a < b;
  });
  for (size_t i = 0; i < order.size() && i < kNumberOfHighestScoredNodesToReport;
       ++i) {
    top->push_back(api::NodeScore{scores[order[i]].name,
                                  scores[order[i]].total_score});
  }
  return scores[order[0]].name;
}

Scheduler::CycleOutcome Scheduler::SchedulePod(framework::Framework& fwk,
                                               framework::CycleState& state,
                                               const api::Pod& pod,
                                               api::Attempt& attempt) {
  CycleOutcome out;
  snapshot_ = cache_.UpdateSnapshot();
  if (snapshot_.NumNodes() == 0) {
    out.status = framework::Status(framework::Code::kUnschedulableAndUnresolvable,
                                   "no nodes available to schedule pods");
    out.nominating_info = kClearNominatedNode;
    return out;
  }
  std::vector<const framework::NodeInfo*> all_nodes;
  for (const framework::NodeInfo& n : snapshot_.List()) all_nodes.push_back(&n);

  framework::Diagnosis diagnosis;
  // The plugins that returned a PreFilterResult start the cycle's
  // UnschedulablePlugins (upstream assigns the set RunPreFilterPlugins
  // returns).
  framework::PreFilterOutput pre = fwk.RunPreFilterPlugins(
      state, pod, all_nodes, &diagnosis.unschedulable_plugins);
  std::vector<const framework::NodeInfo*> feasible;
  framework::Status filter_error;
  if (!pre.status.IsSuccess()) {
    if (!pre.status.IsRejected()) {
      out.status = framework::Status::Error(pre.status.Message());
      out.nominating_info = kClearNominatedNode;
      return out;
    }
    diagnosis.node_to_status.absent_status = pre.status;
    diagnosis.pre_filter_msg = pre.status.Message();
    diagnosis.AddPluginStatus(pre.status);
  } else {
    bool done = false;
    if (!pod.nominated_node_name.empty()) {
      // evaluateNominatedNode: a nominated node that fails keeps its
      // rejection in the cycle's NodeToStatus (upstream passes the Diagnosis
      // by value, but its NodeToStatus is a pointer), so it counts among the
      // processed nodes even when the search below stops before checking it
      // again. Its filter details are not recorded.
      const framework::NodeInfo* nominated =
          snapshot_.Get(pod.nominated_node_name);
      if (nominated != nullptr) {
        api::Attempt scratch_attempt;
        framework::Status err;
        // The Diagnosis upstream passes by value shares its
        // UnschedulablePlugins set (a Go map) with this one, so plugins
        // that reject the nominated node count; its PendingPlugins is nil
        // and a Pending plugin recorded here is lost.
        const std::set<std::string> pending_before = diagnosis.pending_plugins;
        std::vector<const framework::NodeInfo*> one = FindNodesThatPassFilters(
            fwk, state, pod, diagnosis, {nominated}, scratch_attempt, &err);
        diagnosis.pending_plugins = pending_before;
        if (!one.empty()) {
          feasible = one;
          done = true;
        }
      }
    }
    if (!done) {
      std::vector<const framework::NodeInfo*> nodes = all_nodes;
      if (pre.result.has_value()) {
        // Note: upstream iterates a Go set here; the reference keeps
        // snapshot order (docs/deviations.md "PreFilterResult order").
        nodes.clear();
        for (const framework::NodeInfo* n : all_nodes) {
          if (pre.result->count(n->Name()) != 0) nodes.push_back(n);
        }
        // Upstream prints the cycle's UnschedulablePlugins, the same set:
        // the PreFilterResult plugins and whatever rejected the nominated
        // node above.
        std::string plugins;
        for (const std::string& p : diagnosis.unschedulable_plugins) {
          plugins += (plugins.empty() ? "" : " ") + p;
        }
        diagnosis.node_to_status.absent_status = framework::Status(
            framework::Code::kUnschedulableAndUnresolvable,
            "node(s) didn't satisfy plugin(s) [" + plugins + "]");
      }
      if (!ApplyForcedSearch(fwk, state, pod, diagnosis, nodes, attempt,
                             &feasible)) {
        feasible = FindNodesThatPassFilters(fwk, state, pod, diagnosis, nodes,
                                            attempt, &filter_error);
      }
      int64_t processed =
          static_cast<int64_t>(feasible.size() +
                               diagnosis.node_to_status.statuses.size());
      next_start_node_index_ =
          (next_start_node_index_ + processed) %
          static_cast<int64_t>(all_nodes.size());
      if (!filter_error.IsSuccess()) {
        out.status = framework::Status::Error(filter_error.Message());
        out.nominating_info = kClearNominatedNode;
        return out;
      }
    }
  }
  for (const auto& [node, status] : diagnosis.node_to_status.statuses) {
    attempt.rejections[node] = ToRejection(status);
  }
  attempt.feasible = static_cast<int64_t>(feasible.size());
  if (options_.record_feasible_nodes) {
    for (const framework::NodeInfo* n : feasible) {
      attempt.feasible_nodes.push_back(n->Name());
    }
  }
  attempt.evaluated = static_cast<int64_t>(
      feasible.size() + diagnosis.node_to_status.statuses.size());

  if (feasible.empty()) {
    framework::FitError fit{snapshot_.NumNodes(), diagnosis};
    out.status = framework::Status(framework::Code::kUnschedulable,
                                   std::vector<std::string>{});
    out.fit_error = fit;
    return out;
  }
  if (feasible.size() == 1) {
    out.result.suggested_host = feasible[0]->Name();
    out.result.evaluated_nodes = attempt.evaluated;
    out.result.feasible_nodes = 1;
    return out;
  }
  // prioritizeNodes: without score plugins every node scores 1 (upstream);
  // FindNodesThatPassFilters already stopped at one node in that case.
  framework::Status pre_score = fwk.RunPreScorePlugins(state, pod, feasible);
  if (!pre_score.IsSuccess()) {
    out.status = pre_score;
    out.nominating_info = kClearNominatedNode;
    return out;
  }
  StatusOr<std::vector<framework::NodeScoreResult>> scores =
      fwk.RunScorePlugins(state, pod, feasible);
  if (!scores.ok()) {
    out.status = framework::Status::Error(scores.status().message());
    out.nominating_info = kClearNominatedNode;
    return out;
  }
  if (options_.full_detail) {
    for (const framework::NodeScoreResult& r : *scores) {
      for (const auto& [plugin, ps] : r.plugin_scores) {
        attempt.detail[r.name].scores[plugin] =
            api::PluginScore{ps.raw, ps.normalized, ps.weighted};
      }
    }
  }
  out.result.suggested_host = SelectHost(*scores, &out.result.top_scores);
  out.result.evaluated_nodes = attempt.evaluated;
  out.result.feasible_nodes = attempt.feasible;
  return out;
}

Scheduler::CycleOutcome Scheduler::SchedulingCycle(
    framework::Framework& fwk, framework::CycleState& state,
    framework::QueuedPodInfo& pod_info, api::Attempt& attempt) {
  const api::Pod& pod = pod_info.pod;
  CycleOutcome out = SchedulePod(fwk, state, pod, attempt);
  if (out.fit_error.has_value() && fwk.HasPostFilterPlugins()) {
    preemption_victims_.clear();
    framework::PostFilterOutput post = fwk.RunPostFilterPlugins(
        state, pod, out.fit_error->diagnosis.node_to_status);
    out.fit_error->diagnosis.post_filter_msg = post.status.Message();
    api::Preemption preemption;
    if (post.result.has_value() &&
        post.result->nominated_node_name.has_value()) {
      out.nominating_info = queue::NominatingInfo{
          queue::NominatingInfo::kOverride, *post.result->nominated_node_name};
      preemption.nominated_node = *post.result->nominated_node_name;
    }
    preemption.victims = preemption_victims_;
    attempt.preemption = preemption;
  }
  if (!out.status.IsSuccess() || out.fit_error.has_value()) return out;

  const std::string& host = out.result.suggested_host;
  // assume
  api::Pod assumed = pod;
  assumed.node_name = host;
  schedref::Status assume_err = cache_.AssumePod(assumed);
  if (!assume_err.ok()) {
    out.status = framework::Status::Error(assume_err.message());
    out.nominating_info = kClearNominatedNode;
    return out;
  }
  queue_->DeleteNominatedPodIfExists(assumed);

  auto reject_on_node = [&](const framework::Status& s) {
    framework::FitError fit;
    fit.num_all_nodes = 1;
    fit.diagnosis.node_to_status.statuses[host] = s;
    fit.diagnosis.AddPluginStatus(s);
    out.fit_error = fit;
    out.status = framework::Status(s.code(), std::vector<std::string>{});
    out.nominating_info = kClearNominatedNode;
  };
  framework::Status reserve = fwk.RunReservePluginsReserve(state, assumed, host);
  if (!reserve.IsSuccess()) {
    fwk.RunReservePluginsUnreserve(state, assumed, host);
    schedref::Status forget = cache_.ForgetPod(assumed);
    (void)forget;
    if (reserve.IsRejected()) {
      reject_on_node(reserve);
    } else {
      out.status = reserve;
      out.nominating_info = kClearNominatedNode;
    }
    return out;
  }
  framework::Status permit = fwk.RunPermitPlugins(state, assumed, host, now_);
  if (!permit.IsWait() && !permit.IsSuccess()) {
    fwk.RunReservePluginsUnreserve(state, assumed, host);
    schedref::Status forget = cache_.ForgetPod(assumed);
    (void)forget;
    if (permit.IsRejected()) {
      reject_on_node(permit);
    } else {
      out.status = permit;
      out.nominating_info = kClearNominatedNode;
    }
    return out;
  }
  if (permit.IsWait()) out.status = permit;  // success, but the pod waits
  if (!state.pods_to_activate.empty()) {
    Activate(state.pods_to_activate);
    state.pods_to_activate.clear();
  }
  pod_info.pod = assumed;
  return out;
}

void Scheduler::Activate(const std::set<std::string>& pod_keys) {
  std::vector<api::Pod> pods;
  for (const std::string& key : pod_keys) {
    auto it = pods_.find(key);
    if (it != pods_.end()) pods.push_back(it->second);
  }
  queue_->Activate(pods, now_);
}

void Scheduler::ScheduleOne(framework::QueuedPodInfo pod_info) {
  const api::Pod pod = pod_info.pod;
  api::Attempt attempt;
  attempt.at = now_;
  attempt.cycle = queue_->SchedulingCycle();
  attempt.pod = pod.Key();
  attempt.profile = pod.scheduler_name;

  auto fwk_it = profiles_.find(pod.scheduler_name);
  if (fwk_it == profiles_.end()) {
    // Cannot happen: the queue only receives pods of known profiles.
    queue_->Done(pod.uid);
    return;
  }
  framework::Framework& fwk = *fwk_it->second;
  // skipPodSchedule: a pod being deleted, or one already assumed.
  if (pod.deletion_timestamp.has_value() || cache_.IsAssumedPod(pod)) {
    attempt.outcome = "skipped";
    attempt.message = pod.deletion_timestamp.has_value()
                          ? "skip schedule deleting pod: " + pod.Key()
                          : "pod is already assumed";
    trace_.records.push_back({attempt, std::nullopt, std::nullopt});
    queue_->Done(pod.uid);
    return;
  }

  framework::CycleState state;
  // Notes raised during the cycle (preemption victims) follow the attempt
  // record that caused them.
  const size_t attempt_index = trace_.records.size();
  auto record_attempt = [&]() {
    trace_.records.insert(trace_.records.begin() +
                              static_cast<std::ptrdiff_t>(attempt_index),
                          {attempt, std::nullopt, std::nullopt});
  };
  CycleOutcome out = SchedulingCycle(fwk, state, pod_info, attempt);
  bool failed = out.fit_error.has_value() ||
                (!out.status.IsSuccess() && !out.status.IsWait());
  if (failed) {
    attempt.node.clear();
    if (out.fit_error.has_value()) {
      attempt.outcome = "unschedulable";
      attempt.message = out.fit_error->Error();
    } else {
      attempt.outcome = out.status.IsRejected() ? "unschedulable" : "error";
      attempt.message = out.status.Message();
    }
    record_attempt();
    HandleSchedulingFailure(fwk, pod_info, out.fit_error, out.nominating_info,
                            attempt.outcome == "unschedulable",
                            attempt.message);
    return;
  }
  attempt.node = out.result.suggested_host;
  attempt.top_scores = out.result.top_scores;
  attempt.outcome = out.status.IsWait() ? "waiting" : "scheduled";
  if (out.status.IsWait()) attempt.message = out.status.Message();
  record_attempt();

  InFlightBinding binding;
  binding.assumed = pod_info;
  binding.state = std::move(state);
  binding.fwk = &fwk;
  binding.node = out.result.suggested_host;
  binding.cycle = attempt.cycle;
  bindings_.push_back(std::move(binding));
  // With no Permit wait and no bind latency the binding cycle completes
  // before the next scheduling cycle (docs/semantics/event-loop.md).
  if (AdvanceBinding(bindings_.back())) bindings_.pop_back();
}

bool Scheduler::AdvanceBinding(InFlightBinding& b) {
  framework::Framework& fwk = *b.fwk;
  const api::Pod& pod = b.assumed.pod;
  if (b.bind_completes_at.has_value()) {
    if (*b.bind_completes_at > now_) return false;
    FinishBind(b, fwk.RunBindPlugins(b.state, pod, b.node));
    return true;
  }
  // WaitOnPermit.
  auto waiting = fwk.WaitingPods().find(pod.uid);
  if (waiting != fwk.WaitingPods().end()) {
    if (!waiting->second.result.has_value()) return false;
    framework::Status result = *waiting->second.result;
    fwk.WaitingPods().erase(waiting);
    if (!result.IsSuccess()) {
      framework::Status s = result;
      HandleBindingCycleError(b, s);
      return true;
    }
  }
  framework::Status pre_bind = fwk.RunPreBindPlugins(b.state, pod, b.node);
  if (!pre_bind.IsSuccess()) {
    HandleBindingCycleError(b, pre_bind);
    return true;
  }
  // PreBind is the last point that can make the pod unschedulable: from
  // here on it is no longer in flight (upstream bindingCycle).
  queue_->Done(pod.uid);
  auto latency = bind_latency_ms_.find(pod.Key());
  int64_t delay = latency == bind_latency_ms_.end() ? default_bind_latency_ms_
                                                    : latency->second;
  if (delay > 0) {
    b.bind_completes_at = now_ + delay;
    return false;
  }
  FinishBind(b, fwk.RunBindPlugins(b.state, pod, b.node));
  return true;
}

void Scheduler::FinishBind(InFlightBinding& b, const framework::Status& status) {
  const api::Pod& pod = b.assumed.pod;
  schedref::Status fin = cache_.FinishBinding(pod, now_);
  (void)fin;
  if (!status.IsSuccess()) {
    HandleBindingCycleError(b, status);
    return;
  }
  trace_.records.push_back(
      {std::nullopt,
       api::Binding{now_, b.cycle, pod.Key(), b.node, "bound", ""},
       std::nullopt});
  b.fwk->RunPostBindPlugins(b.state, pod, b.node);
  if (!b.state.pods_to_activate.empty()) Activate(b.state.pods_to_activate);
}

void Scheduler::HandleBindingCycleError(InFlightBinding& b,
                                        const framework::Status& status) {
  framework::Framework& fwk = *b.fwk;
  api::Pod assumed = b.assumed.pod;
  trace_.records.push_back(
      {std::nullopt,
       api::Binding{now_, b.cycle, assumed.Key(), b.node,
                    status.IsRejected() ? "rejected" : "failed",
                    status.Message()},
       std::nullopt});
  fwk.RunReservePluginsUnreserve(b.state, assumed, b.node);
  schedref::Status forget = cache_.ForgetPod(assumed);
  bool move_after = false;
  if (forget.ok()) {
    if (status.IsRejected()) {
      move_after = true;  // deferred, and not for the pod itself
    } else {
      queue_->MoveAllToActiveOrBackoffQueue(framework::AssignedPodDelete(),
                                            assumed, {}, nullptr, now_);
    }
  }
  std::optional<framework::FitError> fit;
  if (status.IsRejected()) {
    framework::FitError f;
    f.num_all_nodes = 1;
    f.diagnosis.node_to_status.statuses[b.node] = status;
    f.diagnosis.unschedulable_plugins.insert(status.plugin());
    fit = f;
  }
  framework::QueuedPodInfo info = b.assumed;
  info.pod.node_name.clear();
  HandleSchedulingFailure(fwk, info, fit, kClearNominatedNode,
                          status.IsRejected(),
                          fit.has_value() ? fit->Error() : status.Message());
  if (move_after) {
    std::string uid = assumed.uid;
    queue_->MoveAllToActiveOrBackoffQueue(
        framework::AssignedPodDelete(), assumed, {},
        [uid](const api::Pod& p) { return p.uid != uid; }, now_);
  }
}

void Scheduler::HandleSchedulingFailure(
    framework::Framework& fwk, framework::QueuedPodInfo& pod_info,
    const std::optional<framework::FitError>& fit,
    const std::optional<queue::NominatingInfo>& nominating_info,
    bool rejected, const std::string& message) {
  (void)fwk;
  if (fit.has_value()) {
    pod_info.unschedulable_plugins = fit->diagnosis.unschedulable_plugins;
    pod_info.pending_plugins = fit->diagnosis.pending_plugins;
  } else {
    pod_info.unschedulable_plugins.clear();
    pod_info.pending_plugins.clear();
  }
  // Re-read the pod from the informer: gone or bound meanwhile => not
  // requeued.
  auto it = pods_.find(pod_info.pod.Key());
  bool requeued = false;
  if (it != pods_.end() && it->second.uid == pod_info.pod.uid &&
      it->second.node_name.empty()) {
    pod_info.pod = it->second;
    schedref::Status s = queue_->AddUnschedulableIfNotPresent(
        pod_info, queue_->SchedulingCycle(), now_);
    (void)s;
    requeued = true;
  }
  if (!requeued) queue_->Done(pod_info.pod.uid);
  queue_->AddNominatedPod(pod_info.pod, nominating_info);
  // The status patch (upstream updatePod): the PodScheduled=False condition
  // and, in Override mode, nominatedNodeName, written only when one of them
  // changes. The informer delivers it at once: for a pending pod whose
  // nomination stayed, an update with no scheduling property changed, the
  // queue's UpdatePodOther event (it moves pods rejected by plugins that
  // register it, such as plugins without EnqueueExtensions).
  if (it == pods_.end()) return;
  const std::pair<std::string, std::string> condition{
      rejected ? "Unschedulable" : "SchedulerError", message};
  auto written = pod_scheduled_.find(it->second.uid);
  const bool condition_changed =
      written == pod_scheduled_.end() || written->second != condition;
  const bool nomination_changed =
      nominating_info.has_value() &&
      nominating_info->mode == queue::NominatingInfo::kOverride &&
      it->second.nominated_node_name != nominating_info->nominated_node_name;
  if (!condition_changed && !nomination_changed) return;
  pod_scheduled_[it->second.uid] = condition;
  api::Pod updated = it->second;
  if (nomination_changed) {
    updated.nominated_node_name = nominating_info->nominated_node_name;
  }
  UpdatePod(it->second, updated);
}

}  // namespace schedref::reference::internal
