// A scenario built from a real cluster: the output of `kubectl get -o yaml`
// (or `-o json`) plus, optionally, a KubeSchedulerConfiguration file exactly
// as kube-scheduler's --config reads it. Specification: docs/cluster-input.md.
//
// What the dump becomes:
//   - the kinds api/codec/decode.h decodes (Node, Pod, Namespace,
//     PriorityClass, PodDisruptionBudget, the storage kinds, Service,
//     ReplicationController, ReplicaSet, StatefulSet) are read as decode.h
//     reads them; every other kind (Deployment, Event, ConfigMap, custom
//     resources, ...) is skipped with one warning per kind;
//   - bound pods (spec.nodeName set) are initial objects, as are pending
//     pods that name no profile's schedulerName (the scheduler ignores
//     them, as upstream's informer filter does);
//   - pods in phase Succeeded or Failed are dropped: upstream's pod
//     informer selects status.phase!=Succeeded,status.phase!=Failed;
//   - pending pods of a profile arrive on the timeline one millisecond
//     apart from t=0, in the order upstream's queue pops pods it received
//     at their creation (PrioritySort): higher spec.priority first, then
//     earlier metadata.creationTimestamp, then namespace/name;
//   - a pod with metadata.deletionTimestamp is deleted by the timeline at
//     that time (the end of its grace period), but not before the last
//     pending pod has arrived;
//   - the run starts at the latest creationTimestamp of the dump's pods
//     (the dump was taken no earlier) and lasts until one minute after the
//     last arrival or deletion;
//   - a pod whose priorityClassName names no PriorityClass of the dump (nor
//     a built-in system class), or whose spec.priority / preemptionPolicy
//     disagree with its class, keeps what admission gave it when it was
//     created: its spec.priority and preemptionPolicy stay and the class
//     name is dropped (one warning per class).
// The result is the decoded form of EncodeScenario(built): what `schedref
// scenario` writes is exactly what runs.
#ifndef SCHEDREF_API_CODEC_CLUSTER_DUMP_H_
#define SCHEDREF_API_CODEC_CLUSTER_DUMP_H_

#include <string>
#include <vector>

#include "api/status.h"
#include "api/types/scenario.h"

namespace schedref::api {

struct ClusterInput {
  // Dump files, or directories standing for their *.yaml, *.yml and *.json
  // files (not recursive), read in name order. REQUIRES: not empty.
  std::vector<std::string> files;
  // A KubeSchedulerConfiguration file; empty: the v1.32 defaults.
  std::string config_file;
  // "namespace/name" of a pod to schedule as if it were pending: a bound
  // pod is taken off its node and arrives first. Empty: none.
  std::string as_pending;
  // Also write ClusterScenario::text (YAML; slow for large clusters).
  bool want_text = true;
};

struct ClusterScenario {
  // The scenario that runs: decoded from `text`.
  Scenario scenario;
  // EncodeScenario's YAML for it, what `schedref scenario` writes (empty
  // unless ClusterInput::want_text).
  std::string text;
  // One line per message for stderr, each starting "warning: " or "note: ".
  std::vector<std::string> messages;
  // Every file read (dump files found in directories included, and the
  // configuration), as opened.
  std::vector<std::string> inputs;
};

// Reads the dump and the configuration and builds the scenario. Errors are
// Invalid (NotFound for a missing file) and name the file, the object and
// the field path:
//   dump.yaml: Pod default/web-0: items[3].spec.containers[0].resources.requests.cpu: ...
//   sched.yaml: profiles[0].plugins.score: expected object, got string
//   dump.yaml: Pod default/web-0: defined twice (here and in other.yaml)
[[nodiscard]] StatusOr<ClusterScenario> BuildClusterScenario(
    const ClusterInput& input);

// Reads a KubeSchedulerConfiguration file as kube-scheduler's --config does:
// one document whose apiVersion (kubescheduler.config.k8s.io/v1) and kind
// (KubeSchedulerConfiguration) are required.
[[nodiscard]] StatusOr<SchedulerConfiguration> ReadSchedulerConfigFile(
    const std::string& path);

}  // namespace schedref::api

#endif  // SCHEDREF_API_CODEC_CLUSTER_DUMP_H_
