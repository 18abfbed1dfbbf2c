// scheduleOne and everything it calls: upstream pkg/scheduler/schedule_one.go
// (v1.32), single-threaded, with the same functions in the same order
// (schedulePod -> findNodesThatFitPod -> evaluateNominatedNode ->
// findNodesThatPassFilters -> prioritizeNodes -> selectHost). Where
// upstream's parallel search or random tie-break may do more than one thing,
// the cycle asks its choice points (reference/framework/choices.h).
#include <algorithm>
#include <utility>

#include "api/crash.h"
#include "reference/scheduler/scheduler.h"

namespace schedref::reference::internal {
namespace {

// Upstream constants (schedule_one.go).
constexpr int64_t kMinFeasibleNodesToFind = 100;
constexpr int64_t kMinFeasibleNodesPercentageToFind = 5;
constexpr size_t kNumberOfHighestScoredNodesToReport = 3;

const queue::NominatingInfo kClearNominatedNode{
    queue::NominatingInfo::kOverride, ""};

// A node's rejection as the trace records it. Only a rejecting code can
// get here; any other is a broken invariant.
api::RejectionCode ToRejectionCode(framework::Code code) {
  switch (code) {
    case framework::Code::kError: return api::RejectionCode::kError;
    case framework::Code::kUnschedulable: return api::RejectionCode::kUnschedulable;
    case framework::Code::kUnschedulableAndUnresolvable:
      return api::RejectionCode::kUnschedulableAndUnresolvable;
    case framework::Code::kPending: return api::RejectionCode::kPending;
    default: Crash(std::string("a node rejected with code ") + framework::CodeName(code));
  }
}

api::NodeRejection ToRejection(const framework::Status& s) {
  return api::NodeRejection{s.plugin(), ToRejectionCode(s.code()), s.reasons()};
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
  // hasExtenderFilters and hasScoring.
  const bool scoring = fwk.HasScorePlugins() || extenders_->HasPrioritizer();
  if (!extenders_->HasFilter() && !scoring) return 1;
  return NumFeasibleNodesToFind(fwk.PercentageOfNodesToScore(), num_all_nodes);
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
  FilterDetail filter_detail;
  std::vector<std::pair<std::string, std::string>> pre_filter;
  Fit fit = FindNodesThatFitPod(fwk, state, pod,
                                options_.full_detail ? &filter_detail : nullptr,
                                options_.full_detail ? &pre_filter : nullptr);
  for (auto& [plugin, status] : pre_filter) {
    attempt.pre_filter.push_back(api::PreFilterVerdict{plugin, std::move(status)});
  }
  RecordFilterDetail(filter_detail, attempt);
  if (!fit.error.IsSuccess()) {
    out.status = framework::Status::Error(fit.error.Message());
    out.nominating_info = kClearNominatedNode;
    return out;
  }
  RecordFit(fit, attempt);
  if (fit.feasible.empty()) {
    out.status = framework::Status(framework::Code::kUnschedulable,
                                   std::vector<std::string>{});
    out.fit_error = framework::FitError{snapshot_.NumNodes(), fit.diagnosis};
    return out;
  }
  out.result.evaluated_nodes = attempt.evaluated;
  out.result.feasible_nodes = attempt.feasible;
  if (fit.feasible.size() == 1) {
    out.result.suggested_host = fit.feasible[0]->Name();
    return out;
  }
  StatusOr<std::vector<framework::NodeScoreResult>> scores =
      PrioritizeNodes(fwk, state, pod, fit.feasible);
  if (!scores.ok()) {
    out.status = framework::Status::Error(scores.status().message());
    out.nominating_info = kClearNominatedNode;
    return out;
  }
  if (options_.full_detail) RecordScores(*scores, attempt);
  out.result.suggested_host = SelectHost(*scores, &out.result.top_scores);
  return out;
}

Scheduler::Fit Scheduler::FindNodesThatFitPod(framework::Framework& fwk,
                                              framework::CycleState& state,
                                              const api::Pod& pod,
                                              FilterDetail* detail,
                                              std::vector<std::pair<std::string, std::string>>* pre_filter) {
  Fit fit;
  framework::Diagnosis& diagnosis = fit.diagnosis;
  std::vector<const framework::NodeInfo*> all_nodes;
  for (const framework::NodeInfo& n : snapshot_.List()) all_nodes.push_back(&n);
  // The plugins that returned a PreFilterResult start the cycle's
  // UnschedulablePlugins (upstream assigns the set RunPreFilterPlugins
  // returns).
  framework::PreFilterOutput pre = fwk.RunPreFilterPlugins(
      state, pod, all_nodes, &diagnosis.unschedulable_plugins, pre_filter);
  if (!pre.status.IsSuccess()) {
    if (!pre.status.IsRejected()) {
      fit.error = framework::Status::Error(pre.status.Message());
      return fit;
    }
    diagnosis.node_to_status.absent_status = pre.status;
    diagnosis.pre_filter_msg = pre.status.Message();
    diagnosis.AddPluginStatus(pre.status);
    return fit;
  }
  if (!pod.nominated_node_name.empty()) {
    fit.feasible = EvaluateNominatedNode(fwk, state, pod, diagnosis);
    if (!fit.feasible.empty()) return fit;
  }
  std::vector<const framework::NodeInfo*> nodes = all_nodes;
  if (pre.result.has_value()) {
    // Note: upstream iterates a Go set here; the reference keeps
    // snapshot order (docs/deviations.md "PreFilterResult order").
    nodes.clear();
    for (const framework::NodeInfo* n : all_nodes) {
      if (pre.result->count(n->Name()) != 0) nodes.push_back(n);
    }
    // Upstream prints the cycle's UnschedulablePlugins, the same set: the
    // PreFilterResult plugins and whatever rejected the nominated node.
    std::string plugins;
    for (const std::string& p : diagnosis.unschedulable_plugins) {
      plugins += (plugins.empty() ? "" : " ") + p;
    }
    diagnosis.node_to_status.absent_status = framework::Status(
        framework::Code::kUnschedulableAndUnresolvable,
        "node(s) didn't satisfy plugin(s) [" + plugins + "]");
  }
  fit.feasible = FindNodesThatPassFilters(fwk, state, pod, diagnosis, nodes,
                                          choices_, detail, &fit.error);
  // The start index moves on whether or not the search failed.
  const int64_t processed = static_cast<int64_t>(
      fit.feasible.size() + diagnosis.node_to_status.statuses.size());
  next_start_node_index_ = (next_start_node_index_ + processed) %
                           static_cast<int64_t>(all_nodes.size());
  if (!fit.error.IsSuccess()) {
    fit.feasible.clear();
    return fit;
  }
  const size_t before = fit.feasible.size();
  fit.error = FindNodesThatPassExtenders(pod, fit.feasible,
                                         diagnosis.node_to_status, detail);
  if (!fit.error.IsSuccess()) {
    fit.feasible.clear();
    return fit;
  }
  // Extenders register no events of their own: a pod they narrowed down
  // has the pseudo-plugin "Extender" among its unschedulable plugins, which
  // every cluster event wakes (upstream's defaultEnqueueExtension).
  if (fit.feasible.size() != before) {
    diagnosis.unschedulable_plugins.insert(api::extender::kExtenderName);
  }
  return fit;
}

framework::Status Scheduler::FindNodesThatPassExtenders(
    const api::Pod& pod, std::vector<const framework::NodeInfo*>& feasible,
    framework::NodeToStatus& statuses, FilterDetail* detail) {
  for (const api::extender::HttpExtender* x : extenders_->extenders()) {
    if (feasible.empty()) break;
    if (!x->IsInterested(pod)) continue;
    std::vector<const api::Node*> nodes;
    for (const framework::NodeInfo* n : feasible) nodes.push_back(&*n->node);
    StatusOr<api::extender::HttpExtender::Filtered> got = x->Filter(pod, nodes);
    if (!got.ok()) {
      // An ignorable extender's error skips it (upstream logs it).
      if (x->IsIgnorable()) continue;
      return framework::Status::Error(got.status().message());
    }
    // failedAndUnresolvableNodes take precedence over failedNodes.
    for (const auto& [name, reason] : got->failed_and_unresolvable) {
      statuses.statuses[name] = framework::Status(
          framework::Code::kUnschedulableAndUnresolvable, reason);
    }
    for (const auto& [name, reason] : got->failed) {
      if (got->failed_and_unresolvable.count(name) != 0) continue;
      statuses.statuses[name] =
          framework::Status(framework::Code::kUnschedulable, reason);
    }
    std::vector<const framework::NodeInfo*> passing;
    for (const std::string& name : got->feasible) {
      for (const framework::NodeInfo* n : feasible) {
        if (n->Name() == name) {
          passing.push_back(n);
          break;
        }
      }
    }
    if (detail != nullptr) {
      for (const framework::NodeInfo* n : feasible) {
        const bool passes =
            std::find(got->feasible.begin(), got->feasible.end(), n->Name()) !=
            got->feasible.end();
        auto st = statuses.statuses.find(n->Name());
        (*detail)[n->Name()][x->Name()] =
            passes ? framework::Status()
                   : (st != statuses.statuses.end()
                          ? st->second
                          : framework::Status(framework::Code::kUnschedulable,
                                              std::vector<std::string>{}));
      }
    }
    feasible = std::move(passing);
  }
  return framework::Status();
}

std::vector<const framework::NodeInfo*> Scheduler::EvaluateNominatedNode(
    framework::Framework& fwk, framework::CycleState& state,
    const api::Pod& pod, framework::Diagnosis& diagnosis) {
  // A nominated node that fails keeps its rejection in the cycle's
  // NodeToStatus (upstream passes the Diagnosis by value, but its
  // NodeToStatus is a pointer), so it counts among the processed nodes even
  // when the search that follows stops before checking it again.
  const framework::NodeInfo* nominated = snapshot_.Get(pod.nominated_node_name);
  if (nominated == nullptr) return {};
  // The Diagnosis upstream passes by value shares its UnschedulablePlugins
  // set (a Go map) with the caller's, so plugins that reject the nominated
  // node count; its PendingPlugins is nil and a Pending plugin recorded
  // here is lost.
  const std::set<std::string> pending_before = diagnosis.pending_plugins;
  // One node: upstream's search has a single outcome, nothing to choose. An
  // error is dropped (upstream logs it) and the full search follows.
  framework::PinnedChoices one_node;
  framework::Status error;
  std::vector<const framework::NodeInfo*> feasible = FindNodesThatPassFilters(
      fwk, state, pod, diagnosis, {nominated}, one_node, nullptr, &error);
  diagnosis.pending_plugins = pending_before;
  if (!error.IsSuccess()) return {};
  // The extenders see the nominated node too; their error is dropped like
  // the filters'.
  if (!FindNodesThatPassExtenders(pod, feasible, diagnosis.node_to_status,
                                  nullptr)
           .IsSuccess()) {
    return {};
  }
  return feasible;
}

std::vector<const framework::NodeInfo*> Scheduler::FindNodesThatPassFilters(
    framework::Framework& fwk, framework::CycleState& state,
    const api::Pod& pod, framework::Diagnosis& diagnosis,
    const std::vector<const framework::NodeInfo*>& nodes,
    framework::Choices& choices, FilterDetail* detail,
    framework::Status* error) {
  const int64_t num_all = static_cast<int64_t>(nodes.size());
  std::vector<const framework::NodeInfo*> feasible;
  if (num_all == 0) return feasible;
  framework::SearchChoice search;
  search.cycle = queue_->SchedulingCycle();
  search.nodes.reserve(nodes.size());
  for (int64_t i = 0; i < num_all; ++i) {
    search.nodes.push_back(nodes[(next_start_node_index_ + i) % num_all]);
  }
  search.to_find = NodesToFind(fwk, num_all);
  search.parallelism = scenario_.config.parallelism;
  search.has_filters = fwk.HasFilterPlugins();
  if (diagnosis.node_to_status.statuses.count(pod.nominated_node_name) != 0) {
    search.rejected_before = pod.nominated_node_name;
  }
  search.filter = [&](const framework::NodeInfo& node) {
    return fwk.RunFilterPluginsWithNominatedPods(
        state, pod, node, detail != nullptr ? &(*detail)[node.Name()] : nullptr);
  };
  framework::SearchOutcome outcome = choices.Search(search);
  for (size_t i : outcome.feasible) feasible.push_back(search.nodes.at(i));
  for (auto& [i, status] : outcome.rejected) {
    diagnosis.AddPluginStatus(status);
    diagnosis.node_to_status.statuses[search.nodes.at(i)->Name()] =
        std::move(status);
  }
  if (outcome.error.code() == framework::Code::kError) *error = outcome.error;
  if (detail != nullptr) {
    // Only the nodes of the outcome: a search may check more.
    FilterDetail kept;
    auto keep = [&](size_t i) {
      const std::string& name = search.nodes.at(i)->Name();
      kept[name] = std::move((*detail)[name]);
    };
    for (size_t i : outcome.feasible) keep(i);
    for (const auto& [i, status] : outcome.rejected) keep(i);
    if (!error->IsSuccess()) keep(outcome.error_at);
    *detail = std::move(kept);
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
  framework::HostChoice choice;
  choice.cycle = queue_->SchedulingCycle();
  for (size_t i = 0; i < order.size() &&
                     scores[order[i]].total_score == scores[order[0]].total_score;
       ++i) {
    choice.tied.push_back(scores[order[i]].name);
  }
  // Note: upstream picks uniformly among the tied nodes with math/rand
  // (reservoir sampling); the reference draws once from the seeded RNG, and
  // only when there is a tie (docs/deviations.md "selectHost").
  if (choice.tied.size() > 1) {
    choice.drawn = static_cast<size_t>(NextRandom() % choice.tied.size());
  }
  const size_t chosen = choices_.SelectHost(choice);
  if (chosen >= choice.tied.size()) {
    Crash("selectHost's choice " + std::to_string(chosen) + " is not among " +
          std::to_string(choice.tied.size()) + " tied nodes");
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

void Scheduler::RecordFilterDetail(const FilterDetail& detail,
                                   api::Attempt& attempt) const {
  for (const auto& [node, verdicts] : detail) {
    for (const auto& [plugin, status] : verdicts) {
      attempt.detail[node].filter[plugin] = DetailString(status);
    }
  }
}

void Scheduler::RecordFit(const Fit& fit, api::Attempt& attempt) const {
  for (const auto& [node, status] : fit.diagnosis.node_to_status.statuses) {
    attempt.rejections[node] = ToRejection(status);
  }
  attempt.feasible = static_cast<int64_t>(fit.feasible.size());
  if (options_.record_feasible_nodes) {
    for (const framework::NodeInfo* n : fit.feasible) {
      attempt.feasible_nodes.push_back(n->Name());
    }
  }
  attempt.evaluated = static_cast<int64_t>(
      fit.feasible.size() + fit.diagnosis.node_to_status.statuses.size());
}

void Scheduler::RecordScores(
    const std::vector<framework::NodeScoreResult>& scores,
    api::Attempt& attempt) const {
  for (const framework::NodeScoreResult& r : scores) {
    for (const auto& [plugin, ps] : r.plugin_scores) {
      attempt.detail[r.name].scores[plugin] =
          api::PluginScore{ps.raw, ps.normalized, ps.weighted};
    }
  }
}

StatusOr<std::vector<framework::NodeScoreResult>> Scheduler::PrioritizeNodes(
    framework::Framework& fwk, framework::CycleState& state,
    const api::Pod& pod, const std::vector<const framework::NodeInfo*>& nodes) {
  if (extenders_->empty() && !fwk.HasScorePlugins()) {
    // Every node scores 1.
    std::vector<framework::NodeScoreResult> ones;
    for (const framework::NodeInfo* n : nodes) {
      framework::NodeScoreResult r;
      r.name = n->Name();
      r.total_score = 1;
      ones.push_back(std::move(r));
    }
    return ones;
  }
  framework::Status pre_score = fwk.RunPreScorePlugins(state, pod, nodes);
  if (!pre_score.IsSuccess()) {
    return schedref::Status::FailedPrecondition(pre_score.Message());
  }
  StatusOr<std::vector<framework::NodeScoreResult>> scores =
      fwk.RunScorePlugins(state, pod, nodes);
  if (!scores.ok() || extenders_->empty()) return scores;
  std::vector<const api::Node*> objects;
  for (const framework::NodeInfo* n : nodes) objects.push_back(&*n->node);
  // Each interested extender's scores, scaled to the plugins' range and
  // added to the totals of the nodes they name (upstream runs the
  // extenders concurrently; the sums do not depend on the order). An
  // extender's error only means it gives no scores.
  std::map<std::string, int64_t> added;
  std::map<std::string, std::map<std::string, api::PluginScore>> detail;
  for (const api::extender::HttpExtender* x : extenders_->extenders()) {
    if (!x->IsInterested(pod)) continue;
    StatusOr<std::vector<api::extender::HostPriority>> list =
        x->Prioritize(pod, objects);
    if (!list.ok()) continue;
    const int64_t weight = x->IsPrioritizer() ? x->Weight() : 0;
    for (const api::extender::HostPriority& hp : *list) {
      const int64_t scaled = api::extender::ScaleExtenderScore(hp.score, weight);
      added[hp.host] = api::extender::WrappingAdd(added[hp.host], scaled);
      api::PluginScore& d = detail[hp.host][x->Name()];
      d.raw = api::extender::WrappingAdd(d.raw, hp.score);
      d.normalized = d.raw;
      d.weighted = api::extender::WrappingAdd(d.weighted, scaled);
    }
  }
  for (framework::NodeScoreResult& r : *scores) {
    auto a = added.find(r.name);
    if (a == added.end()) continue;
    r.total_score = api::extender::WrappingAdd(r.total_score, a->second);
    for (const auto& [name, d] : detail[r.name]) {
      r.plugin_scores[name] =
          framework::PluginNodeScore{d.raw, d.normalized, d.weighted};
    }
  }
  return scores;
}

Scheduler::CycleOutcome Scheduler::SchedulingCycle(
    framework::Framework& fwk, framework::CycleState& state,
    framework::QueuedPodInfo& pod_info, api::Attempt& attempt) {
  const api::Pod& pod = pod_info.pod;
  CycleOutcome out = SchedulePod(fwk, state, pod, attempt);
  if (out.fit_error.has_value() && fwk.HasPostFilterPlugins()) {
    preemption_victims_.clear();
    preemption_candidates_.clear();
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
    preemption.candidates = std::move(preemption_candidates_);
    preemption_candidates_.clear();
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
    CheckOk(cache_.ForgetPod(assumed), "the cache forgets the pod it assumed");
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
    CheckOk(cache_.ForgetPod(assumed), "the cache forgets the pod it assumed");
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
    Crash("popped pod " + pod.Key() + " names profile \"" + pod.scheduler_name +
          "\", which the queue never takes");
  }
  framework::Framework& fwk = *fwk_it->second;
  // skipPodSchedule: a pod being deleted, or one already assumed.
  if (pod.deletion_timestamp.has_value() || cache_.IsAssumedPod(pod)) {
    attempt.outcome = api::AttemptOutcome::kSkipped;
    attempt.message = pod.deletion_timestamp.has_value()
                          ? "skip schedule deleting pod: " + pod.Key()
                          : "pod is already assumed";
    trace_.records.push_back(attempt);
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
                          api::Trace::Record(attempt));
  };
  CycleOutcome out = SchedulingCycle(fwk, state, pod_info, attempt);
  bool failed = out.fit_error.has_value() ||
                (!out.status.IsSuccess() && !out.status.IsWait());
  if (failed) {
    attempt.node.clear();
    if (out.fit_error.has_value()) {
      attempt.outcome = api::AttemptOutcome::kUnschedulable;
      attempt.message = out.fit_error->Error();
    } else {
      attempt.outcome = out.status.IsRejected() ? api::AttemptOutcome::kUnschedulable
                                                : api::AttemptOutcome::kError;
      attempt.message = out.status.Message();
    }
    record_attempt();
    HandleSchedulingFailure(pod_info, out.fit_error, out.nominating_info,
                            attempt.outcome == api::AttemptOutcome::kUnschedulable,
                            attempt.message);
    return;
  }
  attempt.node = out.result.suggested_host;
  attempt.top_scores = out.result.top_scores;
  attempt.outcome = out.status.IsWait() ? api::AttemptOutcome::kWaiting
                                         : api::AttemptOutcome::kScheduled;
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
    FinishBind(b, Bind(b));
    return true;
  }
  if (b.pre_bind_retry_at.has_value()) {
    if (*b.pre_bind_retry_at > now_) return false;
    b.pre_bind_retry_at.reset();
    return ContinuePreBind(b);
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
  return ContinuePreBind(b);
}

bool Scheduler::ContinuePreBind(InFlightBinding& b) {
  framework::Framework& fwk = *b.fwk;
  const api::Pod& pod = b.assumed.pod;
  // How often a waiting PreBind plugin is called again: VolumeBinding's
  // poll period (upstream's wait.PollUntilContextTimeout with 1 s), the
  // only PreBind that waits.
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
  FinishBind(b, Bind(b));
  return true;
}

framework::Status Scheduler::Bind(InFlightBinding& b) {
  const api::Pod& pod = b.assumed.pod;
  // extendersBinding: the first interested binder extender binds instead
  // of the Bind plugins; an ignorable one's error passes the turn on.
  for (const api::extender::HttpExtender* x : extenders_->extenders()) {
    if (!x->IsBinder() || !x->IsInterested(pod)) continue;
    const schedref::Status bound = x->Bind(pod, b.node);
    if (!bound.ok() && x->IsIgnorable()) continue;
    if (!bound.ok()) return framework::Status::Error(bound.message());
    // The extender wrote the Binding; the API server's answer to it is
    // what the extender would have reported.
    const schedref::Status api = BindPod(pod, b.node);
    if (!api.ok()) return framework::Status::Error(api.message());
    return framework::Status();
  }
  return b.fwk->RunBindPlugins(b.state, pod, b.node);
}

void Scheduler::FinishBind(InFlightBinding& b, const framework::Status& status) {
  const api::Pod& pod = b.assumed.pod;
  CheckOk(cache_.FinishBinding(pod, now_),
          "the cache finishes binding the pod it assumed");
  if (!status.IsSuccess()) {
    HandleBindingCycleError(b, status);
    return;
  }
  trace_.records.push_back(api::Binding{now_, b.cycle, pod.Key(), b.node,
                                        api::BindingOutcome::kBound, ""});
  b.fwk->RunPostBindPlugins(b.state, pod, b.node);
  if (!b.state.pods_to_activate.empty()) Activate(b.state.pods_to_activate);
}

void Scheduler::HandleBindingCycleError(InFlightBinding& b,
                                        const framework::Status& status) {
  framework::Framework& fwk = *b.fwk;
  api::Pod assumed = b.assumed.pod;
  trace_.records.push_back(
      api::Binding{now_, b.cycle, assumed.Key(), b.node,
                   status.IsRejected() ? api::BindingOutcome::kRejected
                                       : api::BindingOutcome::kFailed,
                   status.Message()});
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
  HandleSchedulingFailure(info, fit, kClearNominatedNode,
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
    framework::QueuedPodInfo& pod_info,
    const std::optional<framework::FitError>& fit,
    const std::optional<queue::NominatingInfo>& nominating_info,
    bool rejected, const std::string& message) {
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
    // The pod was popped, so it is in no queue.
    CheckOk(queue_->AddUnschedulableIfNotPresent(
                pod_info, queue_->SchedulingCycle(), now_),
            "the queue takes back a pod that failed");
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
