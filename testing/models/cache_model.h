// A plain model of the scheduler cache and its node tree, and the operations
// stateful tests apply to it, for every implementation: the reference's
// (reference/backend/cache/cache.h, node_tree.h) and the optimized one
// (optimized/backend/cache/cache.h). Specification:
// docs/semantics/cache.md. testonly; depends on no implementation.
//
// One model, one command set, two drivers, any number of implementations:
// the RapidCheck stateful test (cache_property.h, run by each
// implementation's cache_model_test) chooses operations from generators and
// shrinks failures; the libFuzzer target (fuzz/cache_ops_fuzz.cc) decodes
// them from bytes. Both call IsValid / Apply / Show here and
// CacheHarness::RunAndCheck (cache_harness.h), which drives an
// implementation through its CacheUnderTest adapter (cache_under_test.h).
//
// Every operation is valid in every state except where the informer could
// not deliver it: AddNode of a node the cache holds, UpdateNode of a node it
// does not, AddPod of a pod bound to no node. Illegal pod transitions
// (assume twice, forget what is not assumed, update or remove what is
// unknown, add what is already added, update or remove naming another node)
// are ordinary operations whose specified outcome is an error that changes
// nothing; the model says which.
//
// Fixture: nodes n0 .. n3, pods u0 .. u5 (UID = name, namespace "default").
// A node's zone comes from one of five label sets (none, topology zone za or
// zb, deprecated beta zone za, or beta zb beside topology zc: the beta label
// wins), optionally with region r1. So that what a NodeInfo aggregates is
// not trivially empty, every object carries what ModelPod / ModelNode
// give it: requests that grow with the pod's version, host ports (u2 and u3
// share one), pod (anti-)affinity terms, node capacity that grows with the
// node's version, and images.
#ifndef SCHEDREF_TESTING_MODELS_CACHE_MODEL_H_
#define SCHEDREF_TESTING_MODELS_CACHE_MODEL_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "api/types/objects.h"

namespace schedref::testing::models {

const std::vector<std::string>& ModelNodeNames();  // n0 .. n3
const std::vector<std::string>& ModelPodUids();    // u0 .. u5

// --- operations ---------------------------------------------------------------

// Node labels, see the file comment.
struct NodeLabels {
  int zone = 0;  // 0 none, 1 za, 2 zb, 3 beta za, 4 beta zb + topology zc
  bool region = false;
  int version = 0;  // label v, so that an update is visible
};
struct AddNodeOp {
  std::string name;
  NodeLabels labels;
};
struct UpdateNodeOp {
  std::string name;
  NodeLabels labels;
};
struct RemoveNodeOp {
  std::string name;
};

// Which node a pod operation names.
struct NodeChoice {
  enum Kind {
    kCached,  // the cached pod's node (n0 if the pod is unknown)
    kNamed,   // `name`
    kEmpty,   // "" (RemovePod: "the cached pod, wherever it is")
  };
  Kind kind = kCached;
  std::string name;
};

struct AssumePodOp {
  std::string uid;  // may be "" (rejected)
  std::string node;
};
struct FinishBindingOp {
  std::string uid;
};
struct ForgetPodOp {
  std::string uid;
  NodeChoice node;
};
// The informer saw the pod bound to `node` (confirms an assumed pod).
struct AddPodOp {
  std::string uid;
  NodeChoice node;
  int version = 0;
};
struct UpdatePodOp {
  std::string uid;
  NodeChoice node;
  int version = 0;
};
struct RemovePodOp {
  std::string uid;
  NodeChoice node;
};
struct CleanupOp {};
struct SnapshotOp {};

using CacheOpBody =
    std::variant<AddNodeOp, UpdateNodeOp, RemoveNodeOp, AssumePodOp,
                 FinishBindingOp, ForgetPodOp, AddPodOp, UpdatePodOp,
                 RemovePodOp, CleanupOp, SnapshotOp>;

// An operation at virtual time `at` (the clock first moves there).
struct CacheOp {
  api::TimeMs at = 0;
  CacheOpBody body;
};

// "t=2s assume pod u1 on n2": one line of an event log.
std::string Show(const CacheOp& op);

struct CacheModel;

// The pod object(s) a pod operation passes to the cache, built from the
// state before it. Shared by the model and the harness so that both see the
// same objects.
struct PodArgs {
  api::Pod pod;
  api::Pod new_pod;  // UpdatePod only
};
PodArgs ArgsFor(const CacheModel& m, const CacheOpBody& body);

// --- the model ----------------------------------------------------------------

struct CacheModel {
  struct Config {
    int64_t assumed_pod_ttl_ms = 0;  // 0: assumed pods never expire (v1.32)
  };
  struct Pod {
    api::Pod pod;  // pod.node_name is the node it is on
    bool assumed = false;
    bool binding_finished = false;
    std::optional<api::TimeMs> deadline;  // TTL != 0 only
  };
  // A node the cache holds: with its object, or a ghost that still has pods.
  struct Node {
    std::optional<api::Node> node;
    // UIDs in NodeInfo order: appended; a removed pod's slot takes the last.
    std::vector<std::string> pods;
  };

  CacheModel() = default;
  explicit CacheModel(Config c) : config(c) {}

  Config config;
  api::TimeMs now = 0;
  std::map<std::string, Pod> pods;    // by UID
  std::map<std::string, Node> nodes;  // by name; exists iff node or pods
  // The node tree: zone keys in order of first appearance (a zone that
  // empties is dropped), and each zone's nodes in insertion order.
  std::vector<std::string> zones;
  std::map<std::string, std::vector<std::string>> zone_nodes;
  // The node order of the last snapshot.
  std::vector<std::string> snapshot_order;

  // Round-robin over zones: every zone's first node, then every second ...
  std::vector<std::string> TreeOrder() const;
  std::set<std::string> AssumedUids() const;
  // What the next snapshot lists, in order (updates nothing).
  std::vector<std::string> NextSnapshotOrder() const;
};

// Upstream's zone key: "" without zone and region, else region ":\0:" zone;
// each read from the deprecated beta label if present, else the topology one.
std::string ModelZoneKey(const api::Node& node);
// The node object an AddNodeOp / UpdateNodeOp passes.
api::Node ModelNode(const std::string& name, const NodeLabels& labels);
// The pod object with this UID ("" for none) bound or assumed to `node`, at
// `version` (label v).
api::Pod ModelPod(const std::string& uid, const std::string& node, int version);

// Whether `op` may happen in state `m`.
bool IsValid(const CacheModel& m, const CacheOp& op);
// The state after `op`; returns whether the cache must accept it (false: it
// must return an error, and `m` is unchanged). REQUIRES: IsValid(m, op).
bool Apply(CacheModel& m, const CacheOp& op);

}  // namespace schedref::testing::models

#endif  // SCHEDREF_TESTING_MODELS_CACHE_MODEL_H_
