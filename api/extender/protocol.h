// The scheduler extender protocol: the JSON bodies of
// k8s.io/kube-scheduler/extender/v1 (types.go) that kube-scheduler's
// HTTPExtender (pkg/scheduler/extender.go, v1.32) posts and reads. The Go
// types carry no json tags, so the keys are the Go field names ("Pod",
// "NodeNames", "FailedAndUnresolvableNodes"), and reading matches keys as
// encoding/json does: an exact match first, else one equal under case
// folding; unknown keys are ignored.
//
// Encoding is what upstream sends; decoding is what upstream reads, with
// the errors encoding/json would report for a value of the wrong type.
// The server side (the declared extenders of api/extender/declared_server.h)
// uses the inverse pairs.
#ifndef SCHEDREF_API_EXTENDER_PROTOCOL_H_
#define SCHEDREF_API_EXTENDER_PROTOCOL_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/status.h"
#include "api/types/objects.h"

namespace schedref::api::extender {

// extenderv1.MinExtenderPriority / MaxExtenderPriority.
inline constexpr int64_t kMinExtenderPriority = 0;
inline constexpr int64_t kMaxExtenderPriority = 10;

// framework.ExtenderName: the pseudo-plugin put among a pod's unschedulable
// plugins when extenders filtered nodes out; every cluster event wakes it.
inline constexpr char kExtenderName[] = "Extender";

// prioritizeNodes' finalscore: score * weight * (MaxNodeScore /
// MaxExtenderPriority), in Go's wrapping int64 arithmetic.
[[nodiscard]] inline int64_t ScaleExtenderScore(int64_t score, int64_t weight) {
  constexpr uint64_t kFactor = 100 / kMaxExtenderPriority;  // MaxNodeScore 100
  return static_cast<int64_t>(static_cast<uint64_t>(score) *
                              static_cast<uint64_t>(weight) * kFactor);
}
// a + b as Go adds int64s (wrapping).
[[nodiscard]] inline int64_t WrappingAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) +
                              static_cast<uint64_t>(b));
}

// FailedNodesMap: node name -> failure reason.
using FailedNodes = std::map<std::string, std::string>;

// ExtenderFilterResult. `nodes` holds the names of Nodes.items (the
// scheduler keeps its own node objects); nullopt is a null or absent list.
struct FilterResult {
  std::optional<std::vector<std::string>> nodes;
  std::optional<std::vector<std::string>> node_names;
  FailedNodes failed_nodes;
  FailedNodes failed_and_unresolvable_nodes;
  std::string error;
  friend bool operator==(const FilterResult&, const FilterResult&) = default;
};

// HostPriority; a HostPriorityList is a vector of them, in reply order.
struct HostPriority {
  std::string host;
  int64_t score = 0;
  friend bool operator==(const HostPriority&, const HostPriority&) = default;
};

// MetaVictims: the victims of one candidate node, by pod UID.
struct MetaVictims {
  std::vector<std::string> pod_uids;
  int64_t num_pdb_violations = 0;
  friend bool operator==(const MetaVictims&, const MetaVictims&) = default;
};

// Victims: the pods themselves.
struct Victims {
  std::vector<const Pod*> pods;
  int64_t num_pdb_violations = 0;
};

// --- What the scheduler sends ----------------------------------------------

// ExtenderArgs: the pod, and the nodes as a NodeList (Nodes) or, for a
// nodeCacheCapable extender, their names (NodeNames); the other is null.
[[nodiscard]] nlohmann::json EncodeArgs(const Pod& pod,
                                        const std::vector<const Node*>& nodes,
                                        bool node_cache_capable);

// ExtenderBindingArgs.
[[nodiscard]] nlohmann::json EncodeBindingArgs(const Pod& pod,
                                               const std::string& node);

// ExtenderPreemptionArgs: NodeNameToVictims with whole pods, or, for a
// nodeCacheCapable extender, NodeNameToMetaVictims with UIDs.
[[nodiscard]] nlohmann::json EncodePreemptionArgs(
    const Pod& pod, const std::map<std::string, Victims>& victims,
    bool node_cache_capable);

// --- What the scheduler reads ----------------------------------------------
// Errors: Invalid, with encoding/json's wording ("json: cannot unmarshal
// string into Go struct field HostPriority.Score of type int64").

[[nodiscard]] StatusOr<FilterResult> DecodeFilterResult(
    const nlohmann::json& reply);
[[nodiscard]] StatusOr<std::vector<HostPriority>> DecodeHostPriorityList(
    const nlohmann::json& reply);
// ExtenderBindingResult: its Error ("" when none).
[[nodiscard]] StatusOr<std::string> DecodeBindingResult(
    const nlohmann::json& reply);
// ExtenderPreemptionResult.NodeNameToMetaVictims; a null entry is kept as
// nullopt (upstream then finds no victims on that node).
[[nodiscard]] StatusOr<std::map<std::string, std::optional<MetaVictims>>>
DecodePreemptionResult(const nlohmann::json& reply);

// --- The server side ----------------------------------------------------------

// What a server reads of ExtenderArgs: the pod as sent, and each node's
// name with its labels (empty when only names were sent).
struct ReceivedArgs {
  nlohmann::json pod;
  bool names_only = false;
  std::vector<std::string> node_names;
  std::vector<Labels> node_labels;
};
[[nodiscard]] StatusOr<ReceivedArgs> DecodeArgs(const nlohmann::json& body);
// The candidate nodes of ExtenderPreemptionArgs, with their victims' UIDs,
// whichever of the two maps was sent.
[[nodiscard]] StatusOr<std::map<std::string, MetaVictims>>
DecodePreemptionArgs(const nlohmann::json& body);

[[nodiscard]] nlohmann::json EncodeFilterResult(const FilterResult& result);
[[nodiscard]] nlohmann::json EncodeHostPriorityList(
    const std::vector<HostPriority>& list);
[[nodiscard]] nlohmann::json EncodeBindingResult(const std::string& error);
[[nodiscard]] nlohmann::json EncodePreemptionResult(
    const std::map<std::string, MetaVictims>& victims);

}  // namespace schedref::api::extender

#endif  // SCHEDREF_API_EXTENDER_PROTOCOL_H_
