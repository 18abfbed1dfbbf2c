// The node tree: nodes grouped by zone and listed zone by zone in
// round-robin, the order the snapshot's node list follows. Specification:
// upstream pkg/scheduler/backend/cache/node_tree.go and
// k8s.io/component-helpers/node/topology GetZoneKey, v1.32
// (docs/semantics/cache.md "The node tree").
//
// Model: zone key -> node names in insertion order, and the zones in order
// of first appearance; a zone that loses its last node is dropped and, if it
// comes back, goes to the end. A name appears at most once per zone (a node
// updated with an old object naming the wrong zone can end up in two zones,
// as upstream's can; List() then lists it twice).
//
// Cost: AddNode and the membership test are O(1) expected; RemoveNode is
// O(nodes in the zone) (it keeps the order of the others); List() is
// O(nodes). The cache calls List() only when the node set changed.
#ifndef SCHEDREF_OPTIMIZED_BACKEND_CACHE_NODE_TREE_H_
#define SCHEDREF_OPTIMIZED_BACKEND_CACHE_NODE_TREE_H_

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "api/status.h"
#include "api/types/objects.h"

namespace schedref::optimized::backend::cache {

inline constexpr char kLabelTopologyZone[] = "topology.kubernetes.io/zone";
inline constexpr char kLabelTopologyRegion[] = "topology.kubernetes.io/region";
inline constexpr char kLabelFailureDomainBetaZone[] =
    "failure-domain.beta.kubernetes.io/zone";
inline constexpr char kLabelFailureDomainBetaRegion[] =
    "failure-domain.beta.kubernetes.io/region";

// "" iff the node has neither a zone nor a region, else
// region + ":\x00:" + zone. Each of zone and region comes from the
// deprecated failure-domain.beta label if that label is present (even
// empty), else from the topology.kubernetes.io label.
std::string GetZoneKey(const api::Node& node);

class NodeTree {
 public:
  NodeTree() = default;
  // Adds `nodes` in order (upstream newNodeTree).
  explicit NodeTree(const std::vector<api::Node>& nodes);

  // Appends the node to the zone its labels name; no-op iff it is already
  // listed there.
  void AddNode(const api::Node& node);
  // Removes the node from the zone its labels name, keeping the order of
  // the others. Errors with NotFound ("node %q in group %q was not found",
  // Go quoting) iff it is not listed there.
  schedref::Status RemoveNode(const api::Node& node);
  // Iff the zone key changed: RemoveNode(old_node) (its error ignored), then
  // AddNode(new_node), so the node goes to the end of its new zone.
  void UpdateNode(const api::Node& old_node, const api::Node& new_node);

  // Round-robin over zones: the first node of every zone (zone order), then
  // the second of every zone that has one, and so on.
  std::vector<std::string> List() const;
  // Names listed, counting a name once per zone it is in.
  int NumNodes() const { return num_nodes_; }
  // Zone keys in order of first appearance (introspection).
  const std::vector<std::string>& Zones() const { return zones_; }
  // The names listed in `zone`, in order; empty for an unknown zone.
  const std::vector<std::string>& NodesInZone(const std::string& zone) const;

 private:
  struct Zone {
    std::vector<std::string> names;      // insertion order
    std::unordered_set<std::string> members;
  };

  std::unordered_map<std::string, Zone> tree_;  // zone key -> its nodes
  std::vector<std::string> zones_;             // order of first appearance
  int num_nodes_ = 0;
};

}  // namespace schedref::optimized::backend::cache

#endif  // SCHEDREF_OPTIMIZED_BACKEND_CACHE_NODE_TREE_H_
