// A plain model of the scheduling queue and the operations stateful tests
// apply to it, for every implementation: the reference's
// (reference/backend/queue/scheduling_queue.h) and the optimized one
// (optimized/backend/queue/scheduling_queue.h). Specification:
// docs/semantics/queue.md. testonly; depends on no implementation.
//
// One model, one command set, two drivers, any number of implementations:
// the RapidCheck stateful test (queue_property.h, run by each
// implementation's scheduling_queue_model_test) chooses operations from
// generators and shrinks failures; the libFuzzer target
// (fuzz/queue_ops_fuzz.cc) decodes them from bytes. Both call IsValid /
// Apply / Show here and QueueHarness::RunAndCheck (queue_harness.h), which
// drives an implementation through its QueueUnderTest adapter
// (queue_under_test.h).
//
// The model restates the rules rather than the code. Where the queue keeps
// one list of in-flight markers and events, the model gives every in-flight
// pod the list of events received since it was popped. Where the queue runs
// hint functions in a loop with early exits, the model takes the strongest
// strategy over a set (Skip < AfterBackoff < Immediately).
//
// Fixture (one profile, "default-scheduler"), which every adapter builds
// from its implementation's plugins and the Fixture* functions below:
//   QueueSort        the real PrioritySort;
//   PreEnqueue       the real SchedulingGates (gated iff spec.schedulingGates
//                    is not empty), with its hint;
//   FakeNodeFit      Node/Add|UpdateNodeLabel: Queue iff the new node has
//                    label fit=true;
//   FakePodLabel     Pod/UpdatePodLabel: Queue iff the updated pod is the pod
//                    itself and is labelled ready=true;
//   FakePodDelete    Pod/Delete: Queue (no hint function);
//                    Pod/UpdatePodTolerations: the hint fails, which counts
//                    as Queue;
//   FakeNoEvents     registers nothing: only wildcard events help.
// Pods are default/p0 .. default/p4; a pod added again after it left gets a
// new UID ("default/p1#2"). Node events concern node n1; NodeTaintChange is
// registered by no plugin.
//
// Validity follows the informer and the scheduling loop: a pod is added only
// when the queue holds no pod of that name, Done / AddUnschedulableIfNotPresent
// only for a pod in flight, updates never add scheduling gates, and a deleted
// pod in flight is only ever Done.
#ifndef SCHEDREF_TESTING_MODELS_QUEUE_MODEL_H_
#define SCHEDREF_TESTING_MODELS_QUEUE_MODEL_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "api/types/objects.h"

namespace schedref::testing::models {

// --- fixture names ------------------------------------------------------------

inline constexpr char kFakeNodeFit[] = "FakeNodeFit";
inline constexpr char kFakePodLabel[] = "FakePodLabel";
inline constexpr char kFakePodDelete[] = "FakePodDelete";
inline constexpr char kFakeNoEvents[] = "FakeNoEvents";
// The real PreEnqueue plugin's registry name (the rejector it records).
inline constexpr char kSchedulingGates[] = "SchedulingGates";
inline constexpr char kProfileName[] = "default-scheduler";
// The plugins an attempt may report as rejecting a pod (SchedulingGates only
// ever rejects at PreEnqueue).
const std::vector<std::string>& ModelRejectorPlugins();
// p0 .. p4, all in namespace "default".
const std::vector<std::string>& ModelPodNames();
std::string ModelPodKey(const std::string& name);

// --- operations ---------------------------------------------------------------

// Informer Add of a new pending pod.
struct AddOp {
  std::string name;
  int32_t priority = 0;
  bool ready = false;  // label ready=true
  int gates = 0;       // scheduling gates g0 .. g<gates-1>
  bool nominated = false;  // status.nominatedNodeName = n1
};
// Informer Update of a pending pod.
struct UpdateOp {
  std::string name;
  bool toggle_ready = false;
  int remove_gates = 0;  // 0: none, 1: the last one, 2: all
  bool add_toleration = false;
  std::optional<int32_t> priority;
};
// Informer Delete.
struct DeleteOp {
  std::string name;
};
struct PopOp {};
// The attempt ended without requeueing (bound, or skipped).
struct DoneOp {
  std::string name;
};
// The attempt failed: AddUnschedulableIfNotPresent with these rejectors
// (Unschedulable and Pending plugins; disjoint).
struct FailOp {
  std::string name;
  std::set<std::string> unschedulable;
  std::set<std::string> pending;
};
enum class EventKind {
  kNodeAdd,           // Node/Add, new node n1
  kNodeLabelChange,   // Node/UpdateNodeLabel, n1 gains label fit
  kNodeTaintChange,   // Node/UpdateNodeTaint: no plugin registered it
  kAssignedPodDelete, // Pod/Delete of a bound pod
  kWildCard,          // */All without objects
};
// MoveAllToActiveOrBackoffQueue(event).
struct EventOp {
  EventKind kind = EventKind::kNodeAdd;
  bool fit = false;  // the new node's label fit=true (node events)
};
struct ActivateOp {
  std::string name;
};
struct FlushBackoffOp {};
struct FlushUnschedulableOp {};
// Only the clock moves, to the op's `at`: upstream's queue changes with time
// only when its flush loops run (the two ops above), so nothing may move; a
// long jump lets the next flush cross backoff and unschedulable timeouts.
struct AdvanceClockOp {};
// AddNominatedPod: override to `node` ("" clears) or, without override, the
// pod's status.nominatedNodeName.
struct NominateOp {
  std::string name;
  bool override_node = false;
  std::string node;
};
struct ClearNominationOp {
  std::string name;
};

using QueueOpBody =
    std::variant<AddOp, UpdateOp, DeleteOp, PopOp, DoneOp, FailOp, EventOp,
                 ActivateOp, FlushBackoffOp, FlushUnschedulableOp, AdvanceClockOp,
                 NominateOp, ClearNominationOp>;

// An operation at virtual time `at`; the clock first moves to `at`. Carrying
// the absolute time keeps a shrunk sequence's times unchanged.
struct QueueOp {
  api::TimeMs at = 0;
  QueueOpBody body;
};

// "t=1.5s add pod default/p1 prio=5 ready gates=1": one line of an event log.
std::string Show(const QueueOp& op);

// --- the fixture, for the adapters ---------------------------------------------

// FakeNodeFit's hint: Queue iff `node` is labelled fit=true.
bool FixtureNodeFits(const api::Node& node);
// FakePodLabel's hint for `pod`: Queue iff `updated` is `pod` itself (same
// UID) and is labelled ready=true.
bool FixturePodLabelQueues(const api::Pod& pod, const api::Pod& updated);
// The objects an EventOp carries: NodeAdd a new n1 (old: none);
// NodeLabelChange / NodeTaintChange n1 before and after; AssignedPodDelete
// the bound pod default/bound (new: none); WildCard none.
struct FixtureEventObjects {
  std::optional<api::Node> old_node;
  std::optional<api::Node> new_node;
  std::optional<api::Pod> old_pod;
};
FixtureEventObjects EventObjectsFor(const EventOp& op);

// --- the model ----------------------------------------------------------------

// How a pod that may have become schedulable is requeued, weakest first.
enum class ModelStrategy { kSkip, kAfterBackoff, kImmediately };

// The parts of a pod update the fixture's hints tell apart (upstream's
// PodSchedulingPropertiesChange events; the fixture never changes requests,
// so there is no scale-down).
enum PodUpdateBits : uint32_t {
  kUpdatePodLabel = 1u << 0,
  kUpdatePodSchedulingGatesEliminated = 1u << 1,
  kUpdatePodTolerations = 1u << 2,
  kUpdatePodOther = 1u << 3,
};

// A cluster event as far as the fixture's hints can tell.
struct ModelEvent {
  enum Kind {
    kNodeAdd,
    kNodeLabelChange,
    kAssignedPodDelete,
    kWildCard,
    kUnschedulableTimeout,
    kForceActivate,  // aimed at target_uid
    kPodUpdate,      // of target_uid, with these update bits
  };
  Kind kind = kWildCard;
  bool fit = false;            // node events: the new node has fit=true
  std::string target_uid;      // kForceActivate, kPodUpdate
  uint32_t bits = 0;           // kPodUpdate: PodUpdateBits
  bool ready = false;          // kPodUpdate: the new pod has ready=true
};

struct QueueModel {
  struct Config {
    int64_t initial_backoff_ms = 1000;
    int64_t max_backoff_ms = 10000;
    int64_t max_in_unschedulable_ms = 60000;
  };
  enum class Loc { kActive, kBackoff, kUnschedulable, kInFlight };

  struct Pod {
    api::Pod pod;  // the latest object the informer delivered
    Loc loc = Loc::kActive;
    int attempts = 0;
    api::TimeMs timestamp = 0;
    std::optional<api::TimeMs> initial_attempt_timestamp;
    bool gated = false;
    std::set<std::string> unschedulable_plugins;
    std::set<std::string> pending_plugins;
    // kBackoff: when it was put there.
    api::TimeMs placed_in_backoff_at = 0;
    // kInFlight: deleted by the informer while being scheduled.
    bool deleted = false;
    // kInFlight: the order it was popped in, and the events received since.
    int64_t pop_seq = 0;
    std::vector<ModelEvent> events_since_pop;
  };

  QueueModel() = default;
  explicit QueueModel(Config c) : config(c) {}

  Config config;
  api::TimeMs now = 0;
  // Pods the queue holds or has in flight, by key.
  std::map<std::string, Pod> pods;
  // Name -> how many pods of that name were added (for fresh UIDs).
  std::map<std::string, int> incarnations;
  int64_t pops = 0;
  // The nominator: UID -> node, and node -> (UID, key) in nomination order.
  std::map<std::string, std::string> nominated_node;
  std::map<std::string, std::vector<std::pair<std::string, std::string>>>
      nominations;

  // v1.32: 0 for a pod never attempted, else
  // min(initial * 2^(attempts-1), max), after `timestamp`.
  api::TimeMs BackoffExpiry(const Pod& p) const;
  // Keys in the order the queue must list them.
  std::vector<std::string> ActiveKeys() const;         // pop order
  std::vector<std::string> BackoffKeys() const;        // expiry, then pop order
  std::vector<std::string> UnschedulableKeys() const;  // by key
  std::vector<std::string> InFlightKeys() const;       // pop order
  std::map<std::string, std::vector<std::string>> NominatedKeysByNode() const;
};

const char* LocName(QueueModel::Loc loc);

// activeQ order (the queue's QueueSort as the model has it): priority,
// higher first, then timestamp, then key.
bool ActiveQueueLess(const api::Pod& a, api::TimeMs a_timestamp,
                     const api::Pod& b, api::TimeMs b_timestamp);

// Whether `op` may happen in state `m` (see the file comment).
bool IsValid(const QueueModel& m, const QueueOp& op);
// The state after `op`. REQUIRES: IsValid(m, op).
void Apply(QueueModel& m, const QueueOp& op);

}  // namespace schedref::testing::models

#endif  // SCHEDREF_TESTING_MODELS_QUEUE_MODEL_H_
