// A scenario: the initial cluster, the scheduler configuration, a seed and a
// timeline of events at virtual times, plus (in golden files) the expected
// trace. The file format is specified in docs/scenario-format.md; decoding
// lives in api/codec/scenario_decode.h.
#ifndef SCHEDREF_API_SCENARIO_H_
#define SCHEDREF_API_SCENARIO_H_

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "api/config/config.h"
#include "api/types/declared_extender.h"
#include "api/types/objects.h"

namespace schedref::api {

inline constexpr int kScenarioFormatVersion = 1;

// One timeline entry. `at` is virtual time in milliseconds from the start of
// the run (the clock starts at Scenario::start_time).
struct Event {
  enum class Op {
    kCreate,  // object: add a Node, Pod, PDB, PriorityClass, Namespace or
              // storage object
    kUpdate,  // object: replace the object with the same key
    kDelete,  // kind + name: remove it
    kAdvance, // nothing happens; the run lasts at least until `at`
    // Injected failures and latencies for the binding cycle.
    kFailBind,        // the next `count` Bind calls for `name` fail
    kSetBindLatency,  // Bind for `name` (or every pod when name is empty)
                      // completes `duration_ms` after it starts
    // Responses for the test Permit plugin: allow or reject a waiting pod.
    kAllow,
    kReject,
  };
  TimeMs at = 0;
  Op op = Op::kAdvance;
  // kCreate / kUpdate: exactly one object.
  std::variant<std::monostate, Node, Pod, PodDisruptionBudget, PriorityClass, Namespace,
               PersistentVolume, PersistentVolumeClaim, StorageClass, CSINode, CSIDriver,
               CSIStorageCapacity, Service, ReplicationController, ReplicaSet, StatefulSet>
      object;
  // kDelete and the pod-directed ops: "Pod", "Node", ...
  std::string kind;
  // Pods: "namespace/name"; Nodes and cluster-scoped kinds: the name.
  std::string name;
  int32_t count = 1;
  int64_t duration_ms = 0;
  std::string plugin;  // kAllow / kReject: the waiting plugin's name
  friend bool operator==(const Event&, const Event&) = default;
};

struct Scenario {
  int version = kScenarioFormatVersion;
  std::string name;
  // What upstream behaviour the scenario pins, and the upstream test it comes
  // from where one exists. Free text; carried into reports.
  std::string description;
  std::string upstream_test;
  // Seeds the scheduler's RNG (docs/deviations.md says where it is drawn).
  uint64_t seed = 0;
  // Virtual wall-clock time at t=0 (milliseconds since the epoch); pods
  // created by the timeline get creationTimestamp = start_time + at.
  TimeMs start_time = 0;
  // Bind latency applied to every pod unless an event overrides it.
  int64_t bind_latency_ms = 0;
  // How long after a write to a PersistentVolume or claim the PV controller
  // (and provisioner) model completes the bindings it can
  // (api/apiserver/volume_binding_controller.h).
  int64_t volume_binding_latency_ms = 0;
  Objects initial;
  SchedulerConfiguration config;
  // Extenders played by schedref itself, each for a config.extenders[]
  // entry of the same urlPrefix (api/types/declared_extender.h).
  std::vector<DeclaredExtender> extenders;
  std::vector<Event> timeline;
  // Golden files only: the expected trace, one JSON record per element,
  // kept as text so comparisons are byte-for-byte.
  std::vector<std::string> expected_trace;
  // Source file name, for error messages.
  std::string file;
  friend bool operator==(const Scenario&, const Scenario&) = default;
};

}  // namespace schedref::api

#endif  // SCHEDREF_API_SCENARIO_H_
