// The node tree: nodes grouped by zone, listed zone by zone in round-robin,
// so that a scheduling cycle that examines only some nodes spreads over
// zones. Specification: upstream pkg/scheduler/backend/cache/node_tree.go
// and k8s.io/component-helpers/node/topology GetZoneKey, v1.32.
//
// Model: zone key -> node names in insertion order, and the zones in order of
// first appearance. A zone that loses its last node is dropped from the zone
// order and, if it comes back, goes to the end.
#ifndef SCHEDREF_REFERENCE_BACKEND_CACHE_NODE_TREE_H_
#define SCHEDREF_REFERENCE_BACKEND_CACHE_NODE_TREE_H_

#include <map>
#include <string>
#include <vector>

#include "api/status.h"
#include "api/types/objects.h"

namespace schedref::reference::cache {

inline constexpr char kLabelTopologyZone[] = "topology.kubernetes.io/zone";
inline constexpr char kLabelTopologyRegion[] = "topology.kubernetes.io/region";
inline constexpr char kLabelFailureDomainBetaZone[] =
    "failure-domain.beta.kubernetes.io/zone";
inline constexpr char kLabelFailureDomainBetaRegion[] =
    "failure-domain.beta.kubernetes.io/region";

// "" if the node has neither a zone nor a region, else
// region + ":\x00:" + zone. Each of zone and region is read from the
// deprecated failure-domain.beta label if that label is present (even if
// empty), else from the topology.kubernetes.io label.
std::string GetZoneKey(const api::Node& node);

class NodeTree {
 public:
  NodeTree() = default;
  // Adds `nodes` in order (upstream newNodeTree).
  explicit NodeTree(const std::vector<api::Node>& nodes);

  // Appends the node to its zone; no-op if it is already there.
  void AddNode(const api::Node& node);
  // Removes the node from the zone its labels name. Errors (NotFound,
  // upstream's message "node %q in group %q was not found") iff it is not
  // there.
  schedref::Status RemoveNode(const api::Node& node);
  // Moves the node to the end of its new zone iff the zone key changed
  // (RemoveNode of old_node, ignoring errors, then AddNode of new_node).
  void UpdateNode(const api::Node& old_node, const api::Node& new_node);

  // Round-robin over zones: the first node of every zone (in zone order),
  // then the second of every zone that has one, and so on.
  std::vector<std::string> List() const;
  int NumNodes() const { return num_nodes_; }

  // Introspection (tests).
  const std::map<std::string, std::vector<std::string>>& Tree() const {
    return tree_;
  }
  const std::vector<std::string>& Zones() const { return zones_; }

 private:
  void RemoveZone(const std::string& zone);

  std::map<std::string, std::vector<std::string>> tree_;  // zone -> names
  std::vector<std::string> zones_;  // order of first appearance
  int num_nodes_ = 0;
};

}  // namespace schedref::reference::cache

#endif  // SCHEDREF_REFERENCE_BACKEND_CACHE_NODE_TREE_H_
