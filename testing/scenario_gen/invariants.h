// System invariants of one scheduler run: checks on a scenario and the trace
// an implementation produced for it, true of every run that follows
// docs/semantics/ (event-loop.md, cycle.md) on the scenarios GenScenario
// produces. They read the trace only through api/types/trace.h, so they apply to
// any engine's trace, not just the reference's.
//
// The checks recompute what they need with their own plain code (pod
// requests, taints, host ports) or with api/types/labels.h, never with the code
// of an implementation: an oracle must not share the bugs it looks for.
//
// Each check returns nullopt iff the invariant holds, otherwise one line
// naming the time, cycle, pod and node concerned. Each states why it is
// exactly true; a statement that is only usually true is not a check.
//
// REQUIRES (every check): `scenario` satisfies GenScenario's guarantees
// (scenario_gen.h): names never reused, one profile or two with the
// default plugins (pods may also name a scheduler that is no profile),
// bound pods in `objects` fit, node updates leave allocatable alone, pod
// updates only lift gates, host IPs empty; and `trace` is the trace of a
// run of it.
#ifndef SCHEDREF_TESTING_SCENARIO_GEN_INVARIANTS_H_
#define SCHEDREF_TESTING_SCENARIO_GEN_INVARIANTS_H_

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "api/types/objects.h"
#include "api/types/scenario.h"
#include "api/types/trace.h"

namespace schedref::testing::scenario_gen {

// --- Independent restatements of upstream rules
// --------------------------------

// component-helpers resource.PodRequests (v1.32, no in-place resize): the
// containers' sum; each init container on top of the sidecars started
// before it, the largest of those if larger; sidecars added; overhead.
api::ResourceList PodRequests(const api::Pod& pod);

// (protocol, hostPort) of every container port with a host port.
std::set<std::pair<std::string, int32_t>> HostPorts(const api::Pod& pod);

// nodeunschedulable.Filter: an uncordoned node, or the pod tolerates the
// node.kubernetes.io/unschedulable:NoSchedule taint.
bool NodeUnschedulableAdmits(const api::Pod& pod, const api::Node& node);

// tainttoleration.Filter: every NoSchedule and NoExecute taint tolerated.
bool TaintsTolerated(const api::Pod& pod, const api::Node& node);

// True iff the required pod (anti-)affinity term `term`, written in a pod
// of namespace `owner_ns`, matches `pod` (interpodaffinity AffinityTerm
// Matches): the namespace is listed (an empty list means owner_ns) and the
// label selector matches. A term with a namespaceSelector matches nothing
// here (no namespace objects are generated); callers use this only where
// matching fewer pods makes a check weaker, never unsound.
bool AffinityTermMatches(const api::PodAffinityTerm& term,
                         const std::string& owner_ns, const api::Pod& pod);

// --- Invariants
// -------------------------------------------------------------------

// The trace has the shape of the event loop: record times never decrease
// and none is after the last timeline event (the run ends at the last
// instant not later than it); attempts carry cycles 1, 2, 3, ... in order
// (one per Pop); every attempt is of a pod that exists then, is not bound,
// and belongs to the attempt's profile.
//
// Exactly true: the virtual clock only moves forward (event-loop.md "Next
// instant and end"); Pop increments the scheduling cycle and every pop is
// recorded; the queue holds only existing unbound pods of known profiles
// (deletions in step 1 remove them; a bound pod leaves the queue for good).
std::optional<std::string> CheckTraceShape(const api::Scenario& scenario,
                                           const api::Trace& trace);

// No node that exists at the end is over-committed: the requests of the
// pods placed on it fit its allocatable cpu, memory and pods.
//
// Exactly true: NodeResourcesFit admits a pod only if it fits next to every
// pod the cache holds on the node (bound and assumed; nominated pods of
// equal or higher priority only make the check stricter); deleting pods
// only frees room; allocatable never shrinks and a deleted node never comes
// back (generator); pods bound in `objects` fit.
std::optional<std::string> CheckNoNodeOvercommitted(
    const api::Scenario& scenario, const api::Trace& trace);

// Every scheduling decision (an attempt that chose a node) passed, against
// the cluster as it was at that instant, the filters recomputed here:
// NodeName, NodeUnschedulable, TaintToleration, NodeAffinity (nodeSelector
// and required terms, api/types/labels.h), and against the pods the cache held:
// NodeResourcesFit (cpu, memory, pods) and NodePorts on the node, and
// InterPodAffinity's required anti-affinity in both directions (no pod in
// the node's domain matches the pod's terms; no pod's term matches the pod
// within that pod's domain).
//
// Exactly true: a cycle filters the snapshot taken at its start, after the
// instant's timeline events (event-loop.md step 1) and with every earlier
// decision assumed. The replay of the node's pods is a subset of the
// cache's: pods bound in `objects` and every decision for the node, minus
// pods the timeline deleted, preemption victims once gone ("victimDeleted",
// "victimTerminated") and failed
// or rejected bindings (Forget). A pod deleted while its binding is in
// flight leaves the replay at once but the cache only when its binding
// fails, so the replay never holds more than the cache; resource, port and
// anti-affinity checks only get weaker with fewer pods, so they stay
// necessary conditions. (Required affinity and spread constraints are not
// monotone in the pods, so they are not checked.) Pods on deleted nodes
// are ignored, as the snapshot ignores them. The check is at the decision,
// not at the bind: upstream does not filter again when a delayed Bind lands.
std::optional<std::string> CheckDecisionsPassedFilters(
    const api::Scenario& scenario, const api::Trace& trace);

// Rejections tell the truth about the filters that look at the node alone.
// Filters run in profile order (NodeUnschedulable, NodeName,
// TaintToleration, NodeAffinity, then the rest) and the first failure is
// recorded, so for every rejection of a node that exists at the attempt:
// NodeUnschedulable iff that filter fails; TaintToleration iff the first
// passes and it fails; NodeAffinity iff both pass and it fails; any later
// plugin only if all three pass; and the first three with code
// UnschedulableAndUnresolvable.
//
// Exactly true: these filters read only the pod and the node object (not
// the node's pods, so nominated pods change nothing), and the node as the
// snapshot holds it is the node after the instant's timeline events.
std::optional<std::string> CheckRejectionsAreTruthful(
    const api::Scenario& scenario, const api::Trace& trace);

// Bindings agree with decisions and placements: a pod is bound at most
// once; every binding record ends the binding cycle of a decision for the
// same pod and node in the same cycle; the placements list exactly the pods
// that still exist (objects and creations, minus timeline deletions and
// preemption victims); a pod bound by the scheduler is placed on its
// binding's node, a pod bound in `objects` on its node, others nowhere.
//
// Exactly true: names are never reused, so a key is one pod; Bind refuses
// a pod that is already assigned; nothing unbinds a pod (deleting a node
// leaves its pods assigned).
std::optional<std::string> CheckBindingsAgreeWithPlacements(
    const api::Scenario& scenario, const api::Trace& trace);

// A higher-priority pending pod is never passed over by a lower one, in
// the form the trace lets us check exactly. Let E(t) be the pods that enter
// activeQ at instant t in step 1 of the event loop, before any scheduling
// cycle: pending pods of a profile (their schedulerName is one of the
// configuration's; the informers ignore the others) without scheduling
// gates created at t (or in `objects`, for t = 0), and gated pods whose
// last gate an update lifts at t, unless the timeline deletes them at t.
// Then every x in E(t)
//   (1) is attempted at t: step 5 pops until activeQ is empty, and nothing
//       at t takes x out of activeQ but its own pop (pod deletions and
//       updates come only from the timeline, in step 1; preemption deletes
//       only bound pods);
//   (2) before x's first attempt at t, every attempt at t is of a pod whose
//       priority is at least x's, whatever the profiles of the two: x is in
//       activeQ during each of those pops, and Pop takes the head of
//       activeQ in PrioritySort order, priority first. There is one activeQ
//       for all profiles, and every profile sorts it with the same
//       QueueSort plugin (upstream validation, validateCommonQueueSort;
//       api/config/config_decode.cc), so a pod of one profile does not go ahead
//       of a higher-priority pod of another.
// Gate lifting puts the pod straight into activeQ because the generator's
// gated pods are gated from creation, so never attempted, and v1.32 gives a
// pod with no attempts no backoff (calculateBackoffDuration).
// Pods that enter activeQ later in the instant (moved by a binding or a
// victim's deletion) or from backoffQ (step 4) are not in E(t): where they
// are depends on queueing hints and backoff that this check does not
// recompute. Nothing is claimed among equal priorities.
std::optional<std::string> CheckHigherPriorityTriedFirst(
    const api::Scenario& scenario, const api::Trace& trace);

// --- Storage invariants (the volume plugins) --------------------------------
// These read the storage objects of `objects` only (GenScenario's storage
// knob, Options::storage_percent, puts storage objects there and never on
// the timeline), and hold only for a profile that runs VolumeRestrictions,
// NodeVolumeLimits and VolumeBinding. Like CheckDecisionsPassedFilters,
// each replays the decisions against the pods the cache holds (pods bound
// in `objects` and every decision, minus deleted pods, victims once gone
// and failed or rejected bindings), a subset of the cache's, so that every
// check is a necessary condition.

// The claims of `pod` (its persistentVolumeClaim volumes, and the claims
// "<pod>-<volume>" of its ephemeral volumes), by key, as `storage` holds
// them; claims that do not exist are left out.
std::vector<const api::PersistentVolumeClaim*> PodClaims(const api::Pod& pod,
                                                         const api::StorageObjects& storage);

// No decision puts a pod using a ReadWriteOncePod claim on a node while
// another pod the cache holds (on any node) uses the same claim.
//
// Exactly true: VolumeRestrictions PreFilter counts, cluster-wide, the pods
// of the snapshot (bound and assumed) that use each of the pod's
// ReadWriteOncePod claims and rejects the pod if any does
// (volume_restrictions.go, isReadWriteOncePodAccessModeConflict); the
// replay holds no more pods than the snapshot.
std::optional<std::string> CheckReadWriteOncePodExclusive(const api::Scenario& scenario,
                                                          const api::Trace& trace);

// No decision puts a node above a CSI driver's attach limit: the unique
// volume handles ("driver/handle") of the bound CSI PersistentVolumes that
// the pods the cache holds there use, with the new pod's, are at most the
// driver's CSINode allocatable.count, for every driver whose CSINode entry
// has a count.
//
// Exactly true: NodeVolumeLimits (nodevolumelimits/csi.go) counts the
// attached unique volumes of the node's pods (bound and assumed) per
// driver, from the same PVC -> PV -> spec.csi path, and rejects the pod
// when a driver's count with the pod's new volumes exceeds the limit,
// which is the CSINode count when the node reports no attachable-volumes-
// key (generated nodes report none). It also counts volumes this replay
// does not (unbound claims, translated in-tree volumes), which only makes
// its check stricter.
std::optional<std::string> CheckCsiAttachLimits(const api::Scenario& scenario,
                                                const api::Trace& trace);

// No decision puts a pod on a node that the node affinity of a PV bound to
// one of its claims (claim spec.volumeName names the PV) does not match.
//
// Exactly true: VolumeBinding Filter (checkBoundClaims, binder.go) checks
// every fully bound claim's PV against the node; a claim with volumeName
// but no bind-completed annotation is not fully bound, and PreFilter
// rejects its pod on every node as an unbound Immediate claim, so such a
// pod is never placed at all.
std::optional<std::string> CheckBoundVolumeNodeAffinity(const api::Scenario& scenario,
                                                        const api::Trace& trace);

}  // namespace schedref::testing::scenario_gen

#endif  // SCHEDREF_TESTING_SCENARIO_GEN_INVARIANTS_H_
