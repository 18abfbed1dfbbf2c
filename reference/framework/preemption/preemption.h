// The preemption evaluator: what a PostFilter plugin does to make room for
// a pod by evicting lower-priority pods. Specification: upstream
// pkg/scheduler/framework/preemption/preemption.go read at
// 98be7dfc5da8533f62c063206c5751e884d6294d (v1.31; v1.32's is the same
// with async preemption, alpha and off by default, left out), with
// NodeToStatus.NodesForStatusCode from framework/types.go (v1.31+).
//
// Preempt(pod, statuses):
//  0. Re-read the pod from the API server (Handle::GetPod).
//  1. Not eligible (Interface::PodEligibleToPreemptOthers) -> Unschedulable
//     with the reason, no result (the nomination is kept).
//  2. Potential nodes: those whose filter status is Unschedulable (nodes
//     absent from `statuses` take its absent status). None -> the pod's
//     nomination is cleared and the result is a FitError over all nodes,
//     each "Preemption is not helpful for scheduling".
//  3. Dry run (DryRunPreemption) from a random offset over the potential
//     nodes, until enough candidates are found.
//  4. No candidate -> FitError: the dry run's statuses for the nodes it
//     tried, "Preemption is not helpful for scheduling" for the others;
//     result nominating "" (clear). Errors and no candidate -> Error.
//  5. Best candidate: the choice point Handle::ChoosePreemption among the
//     best candidates (BestCandidates) of the dry run from an offset; the
//     pinned choice is the drawn offset and PickOneNodeForPreemption's
//     candidate. Its victims are preempted
//     and lower-priority pods nominated to that node lose their nomination
//     (PrepareCandidate); result nominating the node, Success.
//
// Nondeterminism upstream has and this reference pins (docs/deviations.md
// "Preemption"):
//  - the offset is Handle::NextRandom() % #potential nodes (rand.Int31n);
//  - the dry run is sequential, in potential-node order from the offset,
//    and stops right after the candidate that satisfies the stop rule
//    (upstream checks nodes in parallel and cancels);
//  - potential nodes are in snapshot order (upstream iterates a map when
//    the absent status is not Unschedulable);
//  - the last tie in PickOneNodeForPreemption goes to the first candidate
//    in candidate-list order (upstream iterates a map);
//  - victims are preempted one after another, most important first.
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_PREEMPTION_PREEMPTION_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_PREEMPTION_PREEMPTION_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "api/types/objects.h"
#include "reference/framework/interface.h"

namespace schedref::reference::framework::preemption {

inline constexpr char kPreemptionNotHelpful[] =
    "Preemption is not helpful for scheduling";

// extenderv1.Victims.
struct Victims {
  // Most important first.
  std::vector<api::Pod> pods;
  int64_t num_pdb_violations = 0;

  friend bool operator==(const Victims&, const Victims&) = default;
};

// A node on which the preemptor fits once `victims` are gone.
struct Candidate {
  std::string name;
  Victims victims;

  friend bool operator==(const Candidate&, const Candidate&) = default;
};

struct SelectVictimsResult {
  std::vector<api::Pod> victims;
  int num_violating_victims = 0;
  Status status;
};

// What a preemption plugin supplies (upstream preemption.Interface, minus
// the extender and custom-score hooks, which default preemption leaves
// empty).
class Interface {
 public:
  virtual ~Interface() = default;
  // (offset into the potential nodes, number of candidates to look for).
  virtual std::pair<int32_t, int32_t> GetOffsetAndNumCandidates(
      int32_t num_nodes) = 0;
  // (eligible, reason when not).
  virtual std::pair<bool, std::string> PodEligibleToPreemptOthers(
      const api::Pod& pod, const Status& nominated_node_status) = 0;
  // The victims on `node` (a copy the call may change, as it may `state`).
  virtual SelectVictimsResult SelectVictimsOnNode(
      CycleState& state, const api::Pod& pod, NodeInfo& node,
      const std::vector<api::PodDisruptionBudget>& pdbs) = 0;
};

// upstream NodeToStatus.Get: the node's status, else the absent status.
Status NodeStatus(const NodeToStatus& m, const std::string& node_name);

// upstream NodeToStatus.NodesForStatusCode: the snapshot's nodes whose
// status has `code`, in snapshot order.
std::vector<const NodeInfo*> NodesForStatusCode(const NodeToStatus& m,
                                                const Snapshot& snapshot,
                                                Code code);

// upstream pickOneNodeForPreemption with the default score functions, in
// order, each keeping the candidates with the best score: fewest PDB
// violations; lowest priority of the most important victim; lowest sum
// over victims of (priority + 2^31); fewest victims; latest earliest start
// time among the highest-priority victims. BestCandidates returns the
// candidates left after the last of them, in list order (upstream takes
// one of them in map order); empty iff `candidates` is.
std::vector<std::string> BestCandidates(const std::vector<Candidate>& candidates,
                                        api::TimeMs now);
// The first of BestCandidates: the remaining tie goes to the first
// candidate in list order. "" iff `candidates` is empty.
std::string PickOneNodeForPreemption(const std::vector<Candidate>& candidates,
                                     api::TimeMs now);

struct DryRunResult {
  // Candidates that violate no PDB, then those that do, each in dry-run
  // order.
  std::vector<Candidate> candidates;
  // Statuses of the nodes tried that are not candidates.
  NodeToStatus node_statuses;
  // Messages of the Error statuses met.
  std::vector<std::string> errors;
};

class Evaluator {
 public:
  // REQUIRES: handle and iface outlive the evaluator.
  Evaluator(Handle* handle, Interface* iface);

  // See the file comment. `state` is the cycle state after PreFilter; it
  // is not changed (the dry runs work on copies).
  PostFilterOutput Preempt(CycleState& state, const api::Pod& pod,
                           const NodeToStatus& statuses);

  // Tries potential_nodes[(offset + i) % n] for i = 0, 1, ... on copies of
  // the node and of `state`. A node with victims is a candidate; at most
  // `num_candidates` of each kind (PDB-violating or not) are kept. Stops
  // once there is a non-violating candidate and at least `num_candidates`
  // candidates in all. A node without victims records its status (Success
  // without victims becomes the Error "expected at least one victim pod on
  // node %q").
  // callExtenders: each interested extender that supports preemption
  // narrows `candidates` (ProcessPreemption); the result lists them by node
  // name. Error iff a non-ignorable extender failed or left a node without
  // victims.
  Status CallExtenders(const api::Pod& pod, std::vector<Candidate>* candidates);
  DryRunResult DryRunPreemption(
      CycleState& state, const api::Pod& pod,
      const std::vector<const NodeInfo*>& potential_nodes,
      const std::vector<api::PodDisruptionBudget>& pdbs, int32_t offset,
      int32_t num_candidates);

  // Preempts the candidate's victims (Handle::PreemptVictim, which rejects
  // a victim waiting at Permit instead of deleting it), then clears the
  // nomination of every pod nominated to the candidate's node with a lower
  // priority than `pod`.
  Status PrepareCandidate(const Candidate& candidate, const api::Pod& pod);

 private:
  // Constant after construction.
  Handle* handle_;
  Interface* iface_;
};

}  // namespace schedref::reference::framework::preemption

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_PREEMPTION_PREEMPTION_H_
