#include "optimized/framework/plugins/defaultpreemption/default_preemption.h"

#include <algorithm>
#include <climits>
#include <limits>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "api/extender/extender_set.h"
#include "api/gocompat/go_sort.h"
#include "api/types/labels.h"
#include "optimized/framework/fit_error.h"
#include "optimized/framework/plugins/names/names.h"

namespace schedref::optimized::framework::plugins::defaultpreemption {
namespace {

api::TimeMs StartTime(const PodInfo& p, api::TimeMs now) {
  return p.pod.start_time.value_or(now);
}

// upstream util.MoreImportantPod: higher priority, then earlier start (a pod
// without a start time counts as starting now); of two pods of equal
// priority without a start time, the first argument (upstream reads
// time.Now() for each, the first's earlier).
bool MoreImportant(const PodInfo& a, const PodInfo& b, api::TimeMs now) {
  if (a.priority != b.priority) return a.priority > b.priority;
  if (!a.pod.start_time.has_value() && !b.pod.start_time.has_value()) return true;
  return StartTime(a, now) < StartTime(b, now);
}

// upstream podTerminatingByPreemption: deletionTimestamp set, and the first
// DisruptionTarget condition True with reason PreemptionByScheduler.
bool TerminatingByPreemption(const api::Pod& pod) {
  if (!pod.deletion_timestamp) return false;
  for (const api::PodCondition& c : pod.conditions) {
    if (c.type == "DisruptionTarget") {
      return c.status == "True" && c.reason == "PreemptionByScheduler";
    }
  }
  return false;
}

// upstream's sort.Slice with MoreImportantPod, call for call (api/gocompat/go_sort.h).
void SortByImportance(std::vector<PodInfoPtr>& pods, api::TimeMs now) {
  api::GoSortSlice(
      pods.size(), [&](size_t i, size_t j) { return MoreImportant(*pods[i], *pods[j], now); },
      [&](size_t i, size_t j) { std::swap(pods[i], pods[j]); });
}

// utilerrors.NewAggregate: the one message, or "[m1, m2]" without repeats.
std::string Aggregate(const std::vector<std::string>& errors) {
  std::vector<std::string> unique;
  std::set<std::string> seen;
  for (const std::string& e : errors) {
    if (seen.insert(e).second) unique.push_back(e);
  }
  if (unique.size() == 1) return unique[0];
  std::string out = "[";
  for (size_t i = 0; i < unique.size(); ++i) out += (i ? ", " : "") + unique[i];
  return out + "]";
}


// The dry run's batch size with more than one thread, when fewer candidates
// are still wanted: a batch is cut into the Parallelizer's chunks of 32.
constexpr size_t kMinDryRunBatch = 64;

// Starts loading what the dry run of a node reads first: the NodeInfo
// (its first lines) of `later`, issued two nodes ahead; and for `next`, whose
// NodeInfo was asked for one node earlier, the PodInfos' priorities unless
// every pod is lower than `priority` (PodInfos are large and scattered, so
// each read is a cache miss; with every pod lower, the pods are read only
// if the pod fits without them). Purely a performance hint.
void PrefetchDryRun(const NodeInfo* next, const NodeInfo* later, int32_t priority) {
  if (later != nullptr) {
    for (int line = 0; line < 4; ++line) {
      __builtin_prefetch(reinterpret_cast<const char*>(later) + 64 * line);
    }
  }
  if (next == nullptr) return;
  if (next->max_pod_priority() >= priority) {
    for (const PodInfoPtr& p : next->pods()) __builtin_prefetch(&p->priority);
  }
}

// The nodes whose filter status is Unschedulable, in snapshot order. One
// pass over the status map marks the nodes it holds by snapshot position
// (NodeInfo::index); the others take the absent status. Same list as looking
// each node up in the map, without the per-node string comparisons.
std::vector<const NodeInfo*> PotentialNodes(const Snapshot& snapshot, const NodeToStatus& m) {
  const std::vector<NodeInfo*>& list = snapshot.List();
  enum : uint8_t { kAbsent, kPotential, kOther };
  std::vector<uint8_t> mark(list.size(), kAbsent);
  for (const NodeToStatus::Entry& e : m.statuses) {
    // Statuses come from this cycle, so a recorded NodeInfo at its index
    // is the node (interface.h); others are checked by name.
    const bool at_index = e.index >= 0 && static_cast<size_t>(e.index) < list.size() &&
                          (e.info != nullptr ? list[e.index] == e.info
                                             : list[e.index]->Name() == e.node);
    const NodeInfo* info = at_index ? list[e.index] : snapshot.Get(e.node);
    if (info == nullptr) continue;  // not a node of this snapshot
    mark[static_cast<size_t>(info->index)] =
        e.status.code() == Code::kUnschedulable ? kPotential : kOther;
  }
  const uint8_t absent = m.absent_status.code() == Code::kUnschedulable ? kPotential : kOther;
  std::vector<const NodeInfo*> out;
  for (size_t i = 0; i < list.size(); ++i) {
    if ((mark[i] == kAbsent ? absent : mark[i]) == kPotential) out.push_back(list[i]);
  }
  return out;
}

}  // namespace

std::pair<std::vector<PodInfoPtr>, std::vector<PodInfoPtr>> FilterPodsWithPDBViolation(
    const std::vector<PodInfoPtr>& pods, const std::vector<api::PodDisruptionBudget>& pdbs) {
  if (pdbs.empty()) return {{}, pods};
  std::vector<int64_t> budget;
  budget.reserve(pdbs.size());
  for (const api::PodDisruptionBudget& pdb : pdbs) budget.push_back(pdb.disruptions_allowed);
  std::vector<PodInfoPtr> violating, non_violating;
  for (const PodInfoPtr& p : pods) {
    bool violated = false;
    if (!p->pod.labels.empty()) {  // a pod without labels matches no PDB
      for (size_t i = 0; i < pdbs.size(); ++i) {
        const api::PodDisruptionBudget& pdb = pdbs[i];
        if (pdb.ns != p->pod.ns || !pdb.selector) continue;
        if (pdb.selector->match_labels.empty() && pdb.selector->match_expressions.empty()) continue;
        if (!api::Matches(*pdb.selector, p->pod.labels)) continue;
        if (std::find(pdb.disrupted_pods.begin(), pdb.disrupted_pods.end(), p->pod.name) !=
            pdb.disrupted_pods.end()) {
          continue;  // already counted by the API server
        }
        if (--budget[i] < 0) violated = true;
      }
    }
    (violated ? violating : non_violating).push_back(p);
  }
  return {std::move(violating), std::move(non_violating)};
}

size_t PickOneNodeForPreemption(const std::vector<Candidate>& candidates, api::TimeMs now) {
  // Each criterion maps a candidate to a score, higher is better; the best
  // survive to the next criterion.
  auto earliest_start_of_top = [now](const Candidate& c) {
    int32_t top = c.victims[0]->priority;
    api::TimeMs earliest = StartTime(*c.victims[0], now);
    for (const PodInfoPtr& v : c.victims) {
      if (v->priority > top) {
        top = v->priority;
        earliest = StartTime(*v, now);
      } else if (v->priority == top) {
        earliest = std::min(earliest, StartTime(*v, now));
      }
    }
    return earliest;
  };
  const std::function<int64_t(const Candidate&)> criteria[] = {
      [](const Candidate& c) { return -c.num_pdb_violations; },
      [](const Candidate& c) { return -static_cast<int64_t>(c.victims[0]->priority); },
      [](const Candidate& c) {
        int64_t sum = 0;
        for (const PodInfoPtr& v : c.victims) sum += int64_t{v->priority} + int64_t{INT32_MAX} + 1;
        return -sum;
      },
      [](const Candidate& c) { return -static_cast<int64_t>(c.victims.size()); },
      earliest_start_of_top,
  };
  std::vector<size_t> remaining(candidates.size());
  for (size_t i = 0; i < remaining.size(); ++i) remaining[i] = i;
  for (const auto& score : criteria) {
    int64_t best = std::numeric_limits<int64_t>::min();
    std::vector<size_t> kept;
    for (size_t i : remaining) {
      const int64_t s = score(candidates[i]);
      if (s > best) {
        best = s;
        kept.clear();
      }
      if (s == best) kept.push_back(i);
    }
    if (kept.size() == 1) return kept[0];
    remaining = std::move(kept);
  }
  return remaining[0];
}

StatusOr<std::unique_ptr<Plugin>> DefaultPreemption::New(const nlohmann::json& args,
                                                         Handle* handle) {
  if (handle == nullptr) return schedref::Status::Invalid("DefaultPreemption needs a handle");
  StatusOr<api::pluginargs::DefaultPreemptionArgs> decoded =
      api::pluginargs::DecodeDefaultPreemptionArgs(args);
  if (!decoded.ok()) return decoded.status();
  return std::unique_ptr<Plugin>(new DefaultPreemption(*decoded, handle));
}

std::string DefaultPreemption::Name() const { return names::kDefaultPreemption; }

Status DefaultPreemption::PreEnqueue(const api::Pod&) { return Status::Success(); }

int32_t DefaultPreemption::NumCandidates(int32_t num_nodes) const {
  int32_t n = num_nodes * args_.min_candidate_nodes_percentage / 100;
  n = std::max(n, args_.min_candidate_nodes_absolute);
  return std::min(n, num_nodes);
}

PostFilterOutput DefaultPreemption::PostFilter(CycleState& state, const PodInfo& pod,
                                               const NodeToStatus& statuses) {
  PostFilterOutput out = Preempt(state, pod, statuses);
  const std::string msg = out.status.Message();
  if (!msg.empty()) out.status = Status(out.status.code(), "preemption: " + msg);
  return out;
}

bool DefaultPreemption::EligibleToPreemptOthers(const api::Pod& pod,
                                                const Status& nominated_status,
                                                std::string* reason) const {
  if (pod.preemption_policy && *pod.preemption_policy == "Never") {
    *reason = kNotEligibleNever;
    return false;
  }
  if (pod.nominated_node_name.empty() ||
      nominated_status.code() == Code::kUnschedulableAndUnresolvable) {
    return true;
  }
  const int32_t priority = pod.priority.value_or(0);
  if (const NodeInfo* info = handle_->SnapshotSharedLister().Get(pod.nominated_node_name)) {
    for (const PodInfoPtr& p : info->pods()) {
      if (p->priority < priority && TerminatingByPreemption(p->pod)) {
        *reason = kNotEligibleTerminating;
        return false;
      }
    }
  }
  return true;
}

// Constant during one Preempt call's dry run: the nominator and the
// snapshot do not change before prepareCandidate.
struct DefaultPreemption::DryRun {
  // nullptr: the pod's profile has no framework (every node fails).
  PluginsRunner* runner;
  // runner->PlanFilters(state); empty without a runner.
  FilterPlan plan;
  const PodInfo& pod;
  // The cycle state every node's dry run starts from.
  const CycleState& state;
  api::TimeMs now;
  const std::vector<api::PodDisruptionBudget>& pdbs;
  // The snapshot nodes' nominated pods, collected once: the dry run
  // changes no nomination.
  const NominatedPodsByNode& nominated;
};

PostFilterOutput DefaultPreemption::Preempt(CycleState& state, const PodInfo& pod_in,
                                            const NodeToStatus& statuses) {
  std::optional<api::Pod> fetched = handle_->GetPod(pod_in.key);
  if (!fetched) return {std::nullopt, Status::Error("pod \"" + pod_in.pod.name + "\" not found")};
  // The preemptor as the API server holds it now.
  const PodInfoPtr pod = NewPodInfo(*fetched);
  std::string reason;
  if (!EligibleToPreemptOthers(pod->pod, statuses.Of(pod->pod.nominated_node_name),
                               &reason)) {
    return {std::nullopt, Status(Code::kUnschedulable, reason)};
  }
  const Snapshot& snapshot = handle_->SnapshotSharedLister();
  if (snapshot.NumNodes() == 0) return {std::nullopt, Status::Error("no nodes available")};
  const std::vector<const NodeInfo*> potential = PotentialNodes(snapshot, statuses);
  std::vector<Candidate> non_violating, violating;
  // The nodes that are not candidates, in dry-run order, with their
  // statuses; they become the FitError's statuses iff no node is a
  // candidate, so the map is built only then.
  std::vector<std::pair<const NodeInfo*, Status>> rejected;
  rejected.reserve(potential.size());
  std::vector<std::string> errors;
  if (potential.empty()) {
    if (!pod->pod.nominated_node_name.empty()) handle_->ClearNominatedNodeName(pod->pod);
  } else {
    const size_t n = potential.size();
    const size_t offset = handle_->NextRandom() % n;
    const size_t capacity =
        static_cast<size_t>(std::max(0, NumCandidates(static_cast<int32_t>(n))));
    PluginsRunner* runner = handle_->RunnerFor(pod->pod);
    const NominatedPodsByNode& nominated = handle_->NominatedPodsOnSnapshot();
    const DryRun run{runner,
                     runner != nullptr ? runner->PlanFilters(state) : FilterPlan{},
                     *pod,
                     state,
                     handle_->Now(),
                     handle_->PodDisruptionBudgets(),
                     nominated};
    // Takes node's dry-run result in dry-run order; true iff the sequential
    // dry run stops after this node.
    auto take = [&](const NodeInfo& node, Status& s, Candidate& c) {
      if (s.IsSuccess() && !c.victims.empty()) {
        c.node = node.Name();
        std::vector<Candidate>& list = c.num_pdb_violations == 0 ? non_violating : violating;
        if (list.size() < capacity) list.push_back(std::move(c));
        return !non_violating.empty() && non_violating.size() + violating.size() >= capacity;
      }
      if (s.IsSuccess()) {
        s = Status::Error("expected at least one victim pod on node \"" + node.Name() + "\"");
      }
      if (s.code() == Code::kError) errors.push_back(s.Message());
      rejected.emplace_back(&node, std::move(s));
      return false;
    };
    auto node_at = [&](size_t i) -> const NodeInfo& { return *potential[(offset + i) % n]; };
    // The dry run of dry-run position i, with the next two nodes prefetched.
    auto dry_run = [&](size_t i, Scratch& s, Candidate* c) {
      PrefetchDryRun(i + 1 < n ? &node_at(i + 1) : nullptr,
                     i + 2 < n ? &node_at(i + 2) : nullptr, pod->priority);
      return SelectVictimsOnNode(run, node_at(i), s, c);
    };
    // With one thread, node by node. With more, batches of consecutive
    // dry-run positions run in parallel, each on its own scratch, and are
    // taken in order up to the stop point; what lies beyond it is dropped
    // (docs/optimized.md "Preemption").
    Parallelizer& parallel = handle_->Parallel();
    std::vector<Scratch>& scratch = scratch_;
    std::vector<std::pair<Status, Candidate>>& slots = slots_;
    bool stop = false;
    if (parallel.threads() == 1) {
      if (scratch.empty()) scratch.resize(1);
      for (size_t i = 0; i < n && !stop; ++i) {
        Candidate c;
        Status s = dry_run(i, scratch[0], &c);
        stop = take(node_at(i), s, c);
      }
    } else {
      for (size_t done = 0; done < n && !stop;) {
        const size_t found = non_violating.size() + violating.size();
        const size_t wanted = capacity > found ? capacity - found : 1;
        const size_t batch = std::min(n - done, std::max(wanted, kMinDryRunBatch));
        if (scratch.size() < batch) scratch.resize(batch);
        slots.assign(batch, {});
        parallel.For(0, static_cast<int64_t>(batch), [&](int64_t k) {
          slots[k].first = dry_run(done + static_cast<size_t>(k), scratch[k], &slots[k].second);
        });
        for (size_t k = 0; k < batch && !stop; ++k) {
          stop = take(node_at(done + k), slots[k].first, slots[k].second);
        }
        done += batch;
      }
    }
    if (!errors.empty() && non_violating.empty() && violating.empty()) {
      return {std::nullopt, Status::Error(Aggregate(errors))};
    }
  }
  std::vector<Candidate> candidates = std::move(non_violating);
  for (Candidate& c : violating) candidates.push_back(std::move(c));
  if (candidates.empty()) {
    // FitError{NumNodes, the rejected nodes' statuses, absent nodes
    // kPreemptionNotHelpful}.Error(), without building its node map.
    ReasonHistogram histogram;
    for (const auto& [node, s] : rejected) histogram.Add(s);
    histogram.AddAbsent(snapshot.NumNodes() - static_cast<int>(rejected.size()),
                        Status(Code::kUnschedulableAndUnresolvable, kPreemptionNotHelpful));
    return {PostFilterResult{std::string()},
            Status(Code::kUnschedulable,
                   FitErrorMessage(snapshot.NumNodes(), histogram, std::string(), std::string()))};
  }
  if (const api::extender::ExtenderSet* set = handle_->Extenders();
      set != nullptr && !set->empty()) {
    Status called = CallExtenders(*set, pod->pod, &candidates);
    if (!called.IsSuccess()) return {std::nullopt, std::move(called)};
    if (candidates.empty()) {
      return {std::nullopt, Status(Code::kUnschedulable, "no candidate node for preemption")};
    }
  }
  std::vector<api::PreemptionCandidate> noted;
  for (const Candidate& c : candidates) {
    api::PreemptionCandidate n{c.node, {}, c.num_pdb_violations};
    for (const PodInfoPtr& v : c.victims) n.victims.push_back(v->pod.Key());
    noted.push_back(std::move(n));
  }
  handle_->NotePreemptionCandidates(std::move(noted));
  const Candidate& best =
      candidates[candidates.size() == 1 ? 0 : PickOneNodeForPreemption(candidates, handle_->Now())];
  // prepareCandidate: victims one after another, most important first, all
  // of them even after one failed (a failure fails the preemption); then
  // lower-priority pods nominated to the node lose their nomination.
  Status failed = Status::Success();
  for (const PodInfoPtr& victim : best.victims) {
    Status s = handle_->PreemptVictim(victim->pod, pod->pod);
    if (!s.IsSuccess() && failed.IsSuccess()) failed = std::move(s);
  }
  if (!failed.IsSuccess()) return {std::nullopt, std::move(failed)};
  for (const PodInfoPtr& nominated : handle_->NominatedPodsForNode(best.node)) {
    if (nominated->priority < pod->priority) handle_->ClearNominatedNodeName(nominated->pod);
  }
  return {PostFilterResult{best.node}, Status::Success()};
}

Status DefaultPreemption::CallExtenders(const api::extender::ExtenderSet& set,
                                        const api::Pod& pod,
                                        std::vector<Candidate>* candidates) const {
  // CandidatesToVictimsMap, by node name.
  std::map<std::string, Candidate> victims;
  for (Candidate& c : *candidates) {
    std::string name = c.node;
    victims.emplace(std::move(name), std::move(c));
  }
  const Snapshot& snapshot = handle_->SnapshotSharedLister();
  // The snapshot's pods by node, and each one's PodInfo, for the replies.
  std::map<std::string, std::vector<const api::Pod*>> pods_on;
  std::map<const api::Pod*, PodInfoPtr> info_of;
  api::extender::HttpExtender::PodsOnNode pods_on_node =
      [&](const std::string& name) -> const std::vector<const api::Pod*>* {
    const NodeInfo* node = snapshot.Get(name);
    if (node == nullptr) return nullptr;
    auto [it, added] = pods_on.try_emplace(name);
    if (added) {
      for (const PodInfoPtr& p : node->pods()) {
        it->second.push_back(&p->pod);
        info_of.emplace(&p->pod, p);
      }
    }
    return &it->second;
  };
  for (const api::extender::HttpExtender* x : set.extenders()) {
    if (!x->SupportsPreemption() || !x->IsInterested(pod)) continue;
    std::map<std::string, api::extender::Victims> sent;
    for (const auto& [name, c] : victims) {
      api::extender::Victims& v = sent[name];
      v.num_pdb_violations = c.num_pdb_violations;
      for (const PodInfoPtr& p : c.victims) {
        v.pods.push_back(&p->pod);
        info_of.emplace(&p->pod, p);
      }
    }
    StatusOr<std::map<std::string, api::extender::Victims>> got =
        x->ProcessPreemption(pod, sent, pods_on_node);
    if (!got.ok()) {
      if (x->IsIgnorable()) continue;
      return Status::Error(got.status().message());
    }
    std::map<std::string, Candidate> next;
    for (const auto& [name, v] : *got) {
      if (v.pods.empty()) {
        if (x->IsIgnorable()) continue;
        return Status::Error("expected at least one victim pod on node \"" + name + "\"");
      }
      Candidate c;
      c.node = name;
      c.num_pdb_violations = v.num_pdb_violations;
      for (const api::Pod* p : v.pods) c.victims.push_back(info_of.at(p));
      next.emplace(name, std::move(c));
    }
    victims = std::move(next);
    if (victims.empty()) break;
  }
  // By node name: upstream's order is a Go map's (docs/deviations.md
  // "Preemption").
  candidates->clear();
  for (auto& [name, c] : victims) candidates->push_back(std::move(c));
  return Status::Success();
}

namespace {

constexpr char kNoPlugin[] = "";

// SelectVictimsOnNode's verdict for a node without lower-priority pods: most
// nodes of a hopeless preemptor get it, so it is one shared status rather
// than an allocation per node (the framework never attributes it).
Status NoVictims() {
  return SharedRejectionOf<Code::kUnschedulableAndUnresolvable, kNoVictims, kNoPlugin>();
}

}  // namespace

Status DefaultPreemption::SelectVictimsOnNode(const DryRun& run, const NodeInfo& node,
                                              Scratch& scratch, Candidate* out) const {
  if (run.runner == nullptr) return Status::Error("no framework for pod " + run.pod.key);
  PluginsRunner& runner = *run.runner;
  const PodInfo& pod = run.pod;
  // Every pod with lower priority, in the node's pod order; read from the
  // node itself, so that a node without any is rejected before anything is
  // copied (the reference copies, removes nothing, and rejects it).
  if (node.pods().empty()) return NoVictims();
  // The node's nominated pods stay the same through the dry run. `node` is
  // a snapshot node (Preempt's potential nodes).
  static const std::vector<PodInfoPtr> kNone;
  const auto found = run.nominated.find(&node);
  const std::vector<PodInfoPtr>& nominated = found == run.nominated.end() ? kNone : found->second;
  // Whether the pod fits with every potential victim gone, asked first
  // without copying the node: most nodes of a hopeless preemptor are
  // rejected here (docs/optimized.md "Preemption"). When every pod is
  // lower, the question is asked before the pods are read.
  std::vector<const PodInfo*>& lower = scratch.lower;
  lower.clear();
  std::optional<Status> without_all;
  if (node.max_pod_priority() < pod.priority) {
    without_all = runner.RunFilterPluginsWithoutAllPods(run.plan, run.state, pod, node, nominated);
    if (without_all.has_value() && !without_all->IsSuccess()) return *without_all;
    for (const PodInfoPtr& p : node.pods()) lower.push_back(p.get());
  } else {
    for (const PodInfoPtr& p : node.pods()) {
      if (p->priority < pod.priority) lower.push_back(p.get());
    }
    if (lower.empty()) return NoVictims();
    without_all = runner.RunFilterPluginsWithoutPods(run.plan, run.state, pod, node, lower, nominated);
    if (without_all.has_value() && !without_all->IsSuccess()) return *without_all;
  }
  std::vector<PodInfoPtr>& potential = scratch.potential;
  potential.clear();
  for (const PodInfoPtr& p : node.pods()) {
    if (p->priority < pod.priority) potential.push_back(p);
  }
  scratch.node = node;
  NodeInfo& copy = scratch.node;
  // Without extensions, removing and adding pods leaves the state as it
  // is: the filters read the run's own.
  const bool extensions = run.plan.extensions;
  if (extensions) scratch.state = run.state;
  const CycleState& state = extensions ? scratch.state : run.state;
  auto remove = [&](const PodInfoPtr& p) {
    copy.RemovePod(p->uid());
    if (!extensions) return Status::Success();
    return runner.RunPreFilterExtensionRemovePod(run.plan, scratch.state, pod, *p, copy);
  };
  auto add = [&](const PodInfoPtr& p) {
    copy.AddPod(p);
    if (!extensions) return Status::Success();
    return runner.RunPreFilterExtensionAddPod(run.plan, scratch.state, pod, *p, copy);
  };
  auto fits = [&] {
    return runner.RunFilterPluginsWithNominatedPods(run.plan, state, pod, copy, nominated);
  };
  for (const PodInfoPtr& p : potential) {
    Status s = remove(p);
    if (!s.IsSuccess()) return Status::Error(s.Message());
  }
  if (!without_all.has_value()) {
    Status fit = fits();
    if (!fit.IsSuccess()) return fit;
  }
  SortByImportance(potential, run.now);
  // Without PDBs every pod is non-violating; no split copies.
  std::vector<PodInfoPtr> violating, split;
  if (!run.pdbs.empty()) std::tie(violating, split) = FilterPodsWithPDBViolation(potential, run.pdbs);
  const std::vector<PodInfoPtr>& non_violating = run.pdbs.empty() ? potential : split;
  // Add each back, most important first; it stays iff the pod still fits.
  auto reprieve = [&](const PodInfoPtr& p, bool* kept) -> Status {
    Status s = add(p);
    if (!s.IsSuccess()) return Status::Error(s.Message());
    *kept = fits().IsSuccess();
    if (!*kept) {
      Status r = remove(p);
      if (!r.IsSuccess()) return Status::Error(r.Message());
      out->victims.push_back(p);
    }
    return Status::Success();
  };
  for (const PodInfoPtr& p : violating) {
    bool kept = false;
    Status s = reprieve(p, &kept);
    if (!s.IsSuccess()) return s;
    if (!kept) ++out->num_pdb_violations;
  }
  for (const PodInfoPtr& p : non_violating) {
    bool kept = false;
    Status s = reprieve(p, &kept);
    if (!s.IsSuccess()) return s;
  }
  if (!violating.empty() && !non_violating.empty()) SortByImportance(out->victims, run.now);
  return Status::Success();
}

}  // namespace schedref::optimized::framework::plugins::defaultpreemption
