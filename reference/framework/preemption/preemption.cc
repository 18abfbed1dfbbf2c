#include "reference/framework/preemption/preemption.h"

#include <climits>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

#include "api/extender/extender_set.h"
#include "reference/framework/fit_error.h"
#include "reference/framework/preemption/importance.h"

namespace schedref::reference::framework::preemption {
namespace {

// utilerrors.NewAggregate(errs).Error(): the message itself for one error,
// "[e1, e2, ...]" for several, duplicates dropped.
std::string AggregateErrors(const std::vector<std::string>& errors) {
  std::vector<std::string> unique;
  std::set<std::string> seen;
  for (const std::string& e : errors) {
    if (seen.insert(e).second) unique.push_back(e);
  }
  if (unique.size() == 1) return unique[0];
  std::string out = "[";
  for (size_t i = 0; i < unique.size(); ++i) {
    if (i > 0) out += ", ";
    out += unique[i];
  }
  return out + "]";
}

// A FitError's message over `num_all_nodes` nodes with `statuses`; nodes
// without a status get kPreemptionNotHelpful.
std::string PreemptionFitError(int num_all_nodes, NodeToStatus statuses) {
  FitError fit;
  fit.num_all_nodes = num_all_nodes;
  statuses.absent_status =
      Status(Code::kUnschedulableAndUnresolvable, kPreemptionNotHelpful);
  fit.diagnosis.node_to_status = std::move(statuses);
  return fit.Error();
}

}  // namespace

Status NodeStatus(const NodeToStatus& m, const std::string& node_name) {
  auto it = m.statuses.find(node_name);
  return it == m.statuses.end() ? m.absent_status : it->second;
}

std::vector<const NodeInfo*> NodesForStatusCode(const NodeToStatus& m,
                                                const Snapshot& snapshot,
                                                Code code) {
  std::vector<const NodeInfo*> nodes;
  for (const NodeInfo& info : snapshot.List()) {
    if (NodeStatus(m, info.Name()).code() == code) nodes.push_back(&info);
  }
  return nodes;
}

std::vector<std::string> BestCandidates(const std::vector<Candidate>& candidates,
                                        api::TimeMs now) {
  if (candidates.empty()) return {};
  using ScoreFunc = std::function<int64_t(const Victims&)>;
  const std::vector<ScoreFunc> score_funcs = {
      // Fewest PDB violations.
      [](const Victims& v) { return -v.num_pdb_violations; },
      // Lowest priority of the most important victim.
      [](const Victims& v) {
        return -static_cast<int64_t>(PodPriority(v.pods[0]));
      },
      // Lowest sum of priorities, each shifted by 2^31 so that several
      // negative-priority victims do not beat fewer of them.
      [](const Victims& v) {
        int64_t sum = 0;
        for (const api::Pod& p : v.pods) {
          sum += static_cast<int64_t>(PodPriority(p)) +
                 (static_cast<int64_t>(INT32_MAX) + 1);
        }
        return -sum;
      },
      // Fewest victims.
      [](const Victims& v) { return -static_cast<int64_t>(v.pods.size()); },
      // Latest start among the highest-priority victims.
      [now](const Victims& v) {
        std::optional<api::TimeMs> t = EarliestPodStartTime(v.pods, now);
        return t ? *t : std::numeric_limits<int64_t>::min();
      },
  };
  std::vector<const Candidate*> remaining;
  for (const Candidate& c : candidates) remaining.push_back(&c);
  for (const ScoreFunc& f : score_funcs) {
    std::vector<const Candidate*> selected;
    int64_t max_score = std::numeric_limits<int64_t>::min();
    for (const Candidate* c : remaining) {
      const int64_t score = f(c->victims);
      if (score > max_score) {
        max_score = score;
        selected.clear();
      }
      if (score == max_score) selected.push_back(c);
    }
    remaining = std::move(selected);
    if (remaining.size() == 1) break;
  }
  std::vector<std::string> names;
  for (const Candidate* c : remaining) names.push_back(c->name);
  return names;
}

std::string PickOneNodeForPreemption(const std::vector<Candidate>& candidates,
                                     api::TimeMs now) {
  std::vector<std::string> best = BestCandidates(candidates, now);
  // Note: upstream's candidate order comes from a map iteration, so this
  // last tie is random there; here it is the first in candidate-list order
  // (docs/deviations.md "Preemption").
  return best.empty() ? "" : best[0];
}

Evaluator::Evaluator(Handle* handle, Interface* iface)
    : handle_(handle), iface_(iface) {}

PostFilterOutput Evaluator::Preempt(CycleState& state, const api::Pod& pod_in,
                                    const NodeToStatus& statuses) {
  // 0) The latest version of the pod.
  std::optional<api::Pod> fetched = handle_->GetPod(pod_in.Key());
  if (!fetched) {
    return {std::nullopt,
            Status::Error("pod \"" + pod_in.name + "\" not found")};
  }
  const api::Pod& pod = *fetched;

  // 1) Eligibility.
  auto [eligible, reason] = iface_->PodEligibleToPreemptOthers(
      pod, NodeStatus(statuses, pod.nominated_node_name));
  if (!eligible) return {std::nullopt, Status(Code::kUnschedulable, reason)};

  // 2) Candidates.
  const Snapshot& snapshot = handle_->SnapshotSharedLister();
  const int num_all_nodes = snapshot.NumNodes();
  if (num_all_nodes == 0) {
    return {std::nullopt, Status::Error("no nodes available")};
  }
  std::vector<const NodeInfo*> potential =
      NodesForStatusCode(statuses, snapshot, Code::kUnschedulable);
  const std::vector<api::PodDisruptionBudget>& pdbs =
      handle_->PodDisruptionBudgets();
  DryRunResult dry;
  int32_t offset = 0, num_candidates = 0;
  if (potential.empty()) {
    // Preemption cannot help anywhere: the pod's nomination is cleared.
    if (!pod.nominated_node_name.empty()) handle_->ClearNominatedNodeName(pod);
  } else {
    std::tie(offset, num_candidates) =
        iface_->GetOffsetAndNumCandidates(static_cast<int32_t>(potential.size()));
    dry = DryRunPreemption(state, pod, potential, pdbs, offset, num_candidates);
    if (!dry.errors.empty() && dry.candidates.empty()) {
      return {std::nullopt, Status::Error(AggregateErrors(dry.errors))};
    }
  }
  // 3) Extenders (callExtenders), on the dry run's candidates.
  if (!dry.candidates.empty()) {
    Status called = CallExtenders(pod, &dry.candidates);
    if (!called.IsSuccess()) return {std::nullopt, called};
    // SelectCandidate finds none.
    if (dry.candidates.empty()) {
      return {std::nullopt,
              Status(Code::kUnschedulable, "no candidate node for preemption")};
    }
  }
  // 4) The best candidate: the dry run's start and the last tie are choice
  // points.
  PreemptionChoice choice;
  choice.num_offsets = static_cast<int32_t>(potential.size());
  choice.drawn_offset = offset;
  if (!dry.candidates.empty()) {
    choice.best = BestCandidates(dry.candidates, handle_->Now());
  }
  // The latest dry run from another offset: a choice that looks through
  // offsets picks the one it looked at last.
  std::optional<std::pair<int32_t, DryRunResult>> last_run;
  choice.best_from = [&](int32_t from) -> std::vector<std::string> {
    if (potential.empty()) return {};
    last_run.emplace(from, DryRunPreemption(state, pod, potential, pdbs, from,
                                            num_candidates));
    if (!last_run->second.candidates.empty() &&
        !CallExtenders(pod, &last_run->second.candidates).IsSuccess()) {
      last_run->second.candidates.clear();
    }
    return BestCandidates(last_run->second.candidates, handle_->Now());
  };
  const PreemptionPick pick = handle_->ChoosePreemption(choice);
  if (dry.candidates.empty()) {
    // No offset finds one: a dry run without candidates tried every node.
    return {PostFilterResult{std::string()},
            Status(Code::kUnschedulable,
                   PreemptionFitError(num_all_nodes,
                                      std::move(dry.node_statuses)))};
  }
  if (pick.offset != offset) {
    if (last_run && last_run->first == pick.offset) {
      dry = std::move(last_run->second);
    } else {
      dry = DryRunPreemption(state, pod, potential, pdbs, pick.offset,
                             num_candidates);
      if (!dry.candidates.empty()) {
        Status called = CallExtenders(pod, &dry.candidates);
        if (!called.IsSuccess()) return {std::nullopt, called};
      }
    }
  }
  std::vector<api::PreemptionCandidate> noted;
  for (const Candidate& c : dry.candidates) {
    api::PreemptionCandidate n{c.name, {}, c.victims.num_pdb_violations};
    for (const api::Pod& v : c.victims.pods) n.victims.push_back(v.Key());
    noted.push_back(std::move(n));
  }
  handle_->NotePreemptionCandidates(std::move(noted));
  const Candidate* best = nullptr;
  for (const Candidate& c : dry.candidates) {
    if (c.name == pick.node) best = &c;
  }
  if (best == nullptr || best->name.empty()) {
    return {std::nullopt,
            Status(Code::kUnschedulable, "no candidate node for preemption")};
  }
  // 5) Evict the victims.
  Status prepared = PrepareCandidate(*best, pod);
  if (!prepared.IsSuccess()) return {std::nullopt, prepared};
  return {PostFilterResult{best->name}, Status::Success()};
}

Status Evaluator::CallExtenders(const api::Pod& pod,
                                std::vector<Candidate>* candidates) {
  const api::extender::ExtenderSet* set = handle_->Extenders();
  if (set == nullptr || set->empty()) return Status::Success();
  // CandidatesToVictimsMap.
  std::map<std::string, Victims> victims;
  for (const Candidate& c : *candidates) victims[c.name] = c.victims;
  if (victims.empty()) return Status::Success();
  const Snapshot& snapshot = handle_->SnapshotSharedLister();
  std::map<std::string, std::vector<const api::Pod*>> pods_on;
  api::extender::HttpExtender::PodsOnNode pods_on_node =
      [&](const std::string& name) -> const std::vector<const api::Pod*>* {
    const NodeInfo* node = snapshot.Get(name);
    if (node == nullptr) return nullptr;
    auto [it, added] = pods_on.try_emplace(name);
    if (added) {
      for (const api::Pod& p : node->pods) it->second.push_back(&p);
    }
    return &it->second;
  };
  for (const api::extender::HttpExtender* x : set->extenders()) {
    if (!x->SupportsPreemption() || !x->IsInterested(pod)) continue;
    std::map<std::string, api::extender::Victims> sent;
    for (const auto& [name, v] : victims) {
      api::extender::Victims& s = sent[name];
      s.num_pdb_violations = v.num_pdb_violations;
      for (const api::Pod& p : v.pods) s.pods.push_back(&p);
    }
    StatusOr<std::map<std::string, api::extender::Victims>> got =
        x->ProcessPreemption(pod, sent, pods_on_node);
    if (!got.ok()) {
      if (x->IsIgnorable()) continue;
      return Status::Error(got.status().message());
    }
    std::map<std::string, Victims> next;
    for (const auto& [name, v] : *got) {
      if (v.pods.empty()) {
        // A node without victims: an ignorable extender's is dropped.
        if (x->IsIgnorable()) continue;
        return Status::Error("expected at least one victim pod on node \"" +
                             name + "\"");
      }
      Victims& out = next[name];
      out.num_pdb_violations = v.num_pdb_violations;
      for (const api::Pod* p : v.pods) out.pods.push_back(*p);
    }
    victims = std::move(next);
    if (victims.empty()) break;
  }
  // Note: upstream rebuilds the candidates from a Go map, in random order;
  // schedref lists them by node name (docs/deviations.md "Preemption").
  candidates->clear();
  for (auto& [name, v] : victims) {
    candidates->push_back(Candidate{name, std::move(v)});
  }
  return Status::Success();
}

DryRunResult Evaluator::DryRunPreemption(
    CycleState& state, const api::Pod& pod,
    const std::vector<const NodeInfo*>& potential_nodes,
    const std::vector<api::PodDisruptionBudget>& pdbs, int32_t offset,
    int32_t num_candidates) {
  DryRunResult out;
  std::vector<Candidate> non_violating;
  std::vector<Candidate> violating;
  const size_t n = potential_nodes.size();
  const size_t capacity = num_candidates < 0 ? 0 : static_cast<size_t>(num_candidates);
  // Note: sequential in potential-node order from the offset; upstream runs
  // the nodes in parallel and cancels (docs/deviations.md "Preemption").
  for (size_t i = 0; i < n; ++i) {
    NodeInfo node_copy = *potential_nodes[(static_cast<size_t>(offset) + i) % n];
    CycleState state_copy = state;
    SelectVictimsResult r =
        iface_->SelectVictimsOnNode(state_copy, pod, node_copy, pdbs);
    if (r.status.IsSuccess() && !r.victims.empty()) {
      Candidate c{node_copy.Name(),
                  Victims{std::move(r.victims), r.num_violating_victims}};
      // Upstream's candidate lists have room for num_candidates each and
      // drop the rest.
      std::vector<Candidate>& list =
          r.num_violating_victims == 0 ? non_violating : violating;
      if (list.size() < capacity) list.push_back(std::move(c));
      if (!non_violating.empty() &&
          non_violating.size() + violating.size() >= capacity) {
        break;
      }
      continue;
    }
    Status status = r.status;
    if (status.IsSuccess()) {
      status = Status::Error("expected at least one victim pod on node \"" +
                             node_copy.Name() + "\"");
    }
    if (status.code() == Code::kError) out.errors.push_back(status.Message());
    out.node_statuses.statuses[node_copy.Name()] = status;
  }
  out.candidates = std::move(non_violating);
  for (Candidate& c : violating) out.candidates.push_back(std::move(c));
  return out;
}

Status Evaluator::PrepareCandidate(const Candidate& candidate,
                                   const api::Pod& pod) {
  // Note: upstream preempts the victims in parallel; here one after
  // another, most important first, every one of them even after one
  // failed (docs/deviations.md "Preemption"). A failure fails the
  // preemption, and no nomination is cleared.
  Status failed = Status::Success();
  for (const api::Pod& victim : candidate.victims.pods) {
    Status s = handle_->PreemptVictim(victim, pod);
    if (!s.IsSuccess() && failed.IsSuccess()) failed = std::move(s);
  }
  if (!failed.IsSuccess()) return failed;
  // Lower-priority pods nominated to this node may no longer fit there;
  // clearing their nomination sends them back to look elsewhere.
  const int32_t priority = PodPriority(pod);
  for (const api::Pod& nominated :
       handle_->NominatedPodsForNode(candidate.name)) {
    if (PodPriority(nominated) < priority) {
      handle_->ClearNominatedNodeName(nominated);
    }
  }
  return Status::Success();
}

}  // namespace schedref::reference::framework::preemption
