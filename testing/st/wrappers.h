// Fixture builders for tests: MakePod() / MakeNode() in the style of
// upstream's pkg/scheduler/testing/wrappers.go (st.MakePod(), st.MakeNode()).
// testonly: never linked into a scheduler.
//
//   api::Pod p = st::MakePod().Namespace("ns").Name("p").Priority(10)
//                    .Req({{"cpu", "100m"}, {"memory", "1Gi"}}).Obj();
//   api::Node n = st::MakeNode().Name("n").Label("zone", "a")
//                     .Capacity({{"cpu", "4"}, {"pods", "110"}}).Obj();
//
// Quantities are strings parsed with api::Quantity: "cpu" is stored in
// millicores, every other resource in whole units (api/types/objects.h). A string
// that does not parse is a bug in the test: the builder prints it and aborts.
//
// Defaults differ from upstream's empty objects on purpose: Obj() fills what
// the manifest decoder (api/codec/decode.h) would fill, so a fixture looks like a
// decoded object: namespace "default", schedulerName "default-scheduler", and
// uid "<namespace>/<name>" unless UID() was called.
//
// They build api objects only, so every implementation's tests share them;
// each implementation adds its own NodeInfo/QueuedPodInfo helpers.
//
// Note: the namespace is `st` (upstream's import alias for this package), not
// one mirroring the path: a nested `testing` namespace would shadow gtest's
// ::testing for unqualified `testing::` in every test.
#ifndef SCHEDREF_TESTING_ST_WRAPPERS_H_
#define SCHEDREF_TESTING_ST_WRAPPERS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "api/types/objects.h"

namespace schedref::st {

// Resource name -> quantity string, e.g. {{"cpu", "100m"}, {"memory", "1Gi"}}.
using ResourceStrings = std::map<std::string, std::string>;

// Parses every quantity ("cpu" as millicores, the rest as whole units).
// Aborts on a malformed quantity.
api::ResourceList ParseResourceList(const ResourceStrings& resources);

// Builds a core/v1 NodeSelector. Each call adds a requirement to the single
// term being built (upstream st.MakeNodeSelector()).
class NodeSelectorWrapper {
 public:
  NodeSelectorWrapper& In(const std::string& key,
                          std::vector<std::string> values);
  NodeSelectorWrapper& NotIn(const std::string& key,
                             std::vector<std::string> values);
  NodeSelectorWrapper& Exists(const std::string& key);
  NodeSelectorWrapper& DoesNotExist(const std::string& key);
  NodeSelectorWrapper& Gt(const std::string& key, const std::string& value);
  NodeSelectorWrapper& Lt(const std::string& key, const std::string& value);
  // matchFields metadata.name In values.
  NodeSelectorWrapper& NameIn(std::vector<std::string> names);
  // Starts a new (ORed) term.
  NodeSelectorWrapper& NewTerm();
  api::NodeSelector Obj() const;

 private:
  api::NodeSelectorTerm& Current();
  api::NodeSelector selector_;
};
NodeSelectorWrapper MakeNodeSelector();

// Which part of a NodeSelectorTerm NodeAffinityIn/NotIn write to
// (upstream st.NodeSelectorType).
enum class NodeSelectorType { kMatchExpressions, kMatchFields };

class PodWrapper {
 public:
  // The pod, with the decoder's defaults filled (see the file comment).
  api::Pod Obj() const;

  // --- metadata ---
  PodWrapper& Namespace(std::string ns);
  PodWrapper& Name(std::string name);
  PodWrapper& UID(std::string uid);
  PodWrapper& Label(const std::string& key, const std::string& value);
  PodWrapper& Labels(const api::Labels& labels);  // merged into existing
  PodWrapper& CreationTimestamp(api::TimeMs t);
  // Sets deletionTimestamp (upstream Terminating()).
  PodWrapper& Terminating(api::TimeMs t = 1);

  // --- spec ---
  PodWrapper& Priority(int32_t priority);
  PodWrapper& PriorityClassName(std::string name);
  PodWrapper& PreemptionPolicy(std::string policy);
  PodWrapper& SchedulerName(std::string name);
  // spec.nodeName (upstream Node()).
  PodWrapper& NodeName(std::string node);
  PodWrapper& Node(std::string node) { return NodeName(std::move(node)); }
  PodWrapper& SchedulingGates(std::vector<std::string> gates);

  // Appends a container "con<N>" with these requests (upstream Req).
  PodWrapper& Req(const ResourceStrings& requests);
  // Appends a container with these requests and limits (upstream Res sets
  // both to the same map; here they may differ).
  PodWrapper& ReqLim(const ResourceStrings& requests,
                     const ResourceStrings& limits);
  // Appends an init container "init-con<N>" with these requests.
  PodWrapper& InitReq(const ResourceStrings& requests);
  // Appends a restartable init container (restartPolicy Always): a sidecar.
  PodWrapper& SidecarReq(const ResourceStrings& requests);
  PodWrapper& Overhead(const ResourceStrings& overhead);
  // Appends a container "con<N>" running `image` (upstream Container(s)).
  PodWrapper& Container(const std::string& image);
  // Appends an init container "init-con<N>" running `image`.
  PodWrapper& InitContainerImage(const std::string& image);
  // Appends a fully specified container / init container.
  PodWrapper& Container(api::Container container);
  PodWrapper& InitContainer(api::Container container);
  // Image of the first container (adds one if there is none).
  PodWrapper& Image(const std::string& image);
  // Appends a container exposing `port` as host port and container port,
  // protocol TCP (upstream HostPort).
  PodWrapper& HostPort(int32_t port);
  // Appends a container with these ports (upstream ContainerPort).
  PodWrapper& ContainerPort(std::vector<api::ContainerPort> ports);

  PodWrapper& NodeSelector(const api::Labels& selector);
  // Adds `key In values` to every required term (creating one term if there
  // is none) -- upstream NodeAffinityIn(key, vals, type).
  PodWrapper& NodeAffinityIn(
      const std::string& key, std::vector<std::string> values,
      NodeSelectorType type = NodeSelectorType::kMatchExpressions);
  PodWrapper& NodeAffinityNotIn(
      const std::string& key, std::vector<std::string> values,
      NodeSelectorType type = NodeSelectorType::kMatchExpressions);
  // Replaces the required node selector.
  PodWrapper& RequiredNodeAffinity(api::NodeSelector selector);
  // Appends a preferred term.
  PodWrapper& PreferredNodeAffinity(int32_t weight,
                                    api::NodeSelectorTerm preference);

  // Adds {key, Exists, effect NoSchedule} (upstream Toleration(key)).
  PodWrapper& Toleration(const std::string& key);
  PodWrapper& Toleration(api::Toleration toleration);
  PodWrapper& Tolerations(std::vector<api::Toleration> tolerations);

  // Required / preferred pod (anti-)affinity with a single `labelKey Exists`
  // selector (upstream PodAffinityExists / PodAntiAffinityExists).
  PodWrapper& PodAffinityExists(const std::string& label_key,
                                const std::string& topology_key);
  PodWrapper& PodAntiAffinityExists(const std::string& label_key,
                                    const std::string& topology_key);
  PodWrapper& PreferredPodAffinityExists(int32_t weight,
                                         const std::string& label_key,
                                         const std::string& topology_key);
  PodWrapper& PreferredPodAntiAffinityExists(int32_t weight,
                                             const std::string& label_key,
                                             const std::string& topology_key);
  PodWrapper& PodAffinityTerm(api::PodAffinityTerm term);
  PodWrapper& PodAntiAffinityTerm(api::PodAffinityTerm term);
  PodWrapper& SpreadConstraint(api::TopologySpreadConstraint constraint);
  PodWrapper& Volume(api::Volume volume);

  // --- status ---
  PodWrapper& NominatedNodeName(std::string node);
  PodWrapper& StartTime(api::TimeMs t);
  // Appends a status condition (upstream Condition(type, status, reason)).
  PodWrapper& Condition(std::string type, std::string status, std::string reason);

 private:
  api::NodeAffinity& MutableNodeAffinity();
  api::PodAffinity& MutablePodAffinity();
  api::PodAffinity& MutablePodAntiAffinity();
  std::string NextContainerName() const;
  std::string NextInitContainerName() const;

  api::Pod pod_;
  bool uid_set_ = false;
};
PodWrapper MakePod();

// Note: upstream's MakeNode() starts with capacity/allocatable {pods: 32};
// ours starts empty (other tests already rely on that). Call Capacity({})
// for upstream's starting point.
class NodeWrapper {
 public:
  api::Node Obj() const { return node_; }

  NodeWrapper& Name(std::string name);
  NodeWrapper& UID(std::string uid);
  NodeWrapper& Label(const std::string& key, const std::string& value);
  NodeWrapper& Labels(const api::Labels& labels);  // merged into existing
  // Sets both capacity and allocatable (upstream Capacity): "pods" is 32
  // unless `capacity` names it.
  NodeWrapper& Capacity(const ResourceStrings& capacity);
  // Sets allocatable only (call after Capacity to make them differ).
  NodeWrapper& Allocatable(const ResourceStrings& allocatable);
  NodeWrapper& Taints(std::vector<api::Taint> taints);
  NodeWrapper& Taint(api::Taint taint);
  NodeWrapper& Unschedulable(bool unschedulable);
  // One ContainerImage per entry, named by the key (upstream Images).
  NodeWrapper& Images(const std::map<std::string, int64_t>& images);
  NodeWrapper& Image(api::ContainerImage image);

 private:
  api::Node node_;
};
NodeWrapper MakeNode();

}  // namespace schedref::st

#endif  // SCHEDREF_TESTING_ST_WRAPPERS_H_
