// PodInfo and NodeInfo: a pod with everything the plugins would otherwise
// recompute on every call, and a node with the running aggregates of the
// pods on it. Specification: upstream pkg/scheduler/framework/types.go
// (PodInfo, NodeInfo, HostPortInfo, AffinityTerm), v1.32.
//
// Unlike the reference, which recomputes from the pods each time, NodeInfo
// here carries upstream's aggregates (Requested, NonZeroRequested, UsedPorts,
// PodsWithAffinity, PodsWithRequiredAntiAffinity) and a generation number,
// updated on every AddPod/RemovePod. Why that is equivalent: every aggregate
// is a sum (or a filtered list) over `pods`, and AddPod/RemovePod are the
// only mutators of `pods`; docs/optimized.md.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_TYPES_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_TYPES_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "api/types/objects.h"
#include "optimized/framework/resource.h"

namespace schedref::optimized::framework {

// One pod (anti-)affinity term with its namespaces resolved
// (upstream AffinityTerm, newAffinityTerm).
struct AffinityTerm {
  // Namespaces listed by the term, or the pod's own namespace when the term
  // lists none and has no namespaceSelector.
  std::set<std::string> namespaces;
  // nullopt: matches no pod (an absent labelSelector). matchLabelKeys /
  // mismatchLabelKeys are already merged in (see MakeAffinityTerm).
  std::optional<api::LabelSelector> selector;
  // nullopt: selects no namespace; an empty selector selects all.
  std::optional<api::LabelSelector> namespace_selector;
  std::string topology_key;
};

struct WeightedAffinityTerm {
  AffinityTerm term;
  int32_t weight = 0;
};

// upstream newAffinityTerm for `term` of `pod` (affinity_term.cc).
[[nodiscard]] AffinityTerm MakeAffinityTerm(const api::Pod& pod,
                                            const api::PodAffinityTerm& term);

// What a PodInfo derives from its pod (PodInfo's base, so that a PodInfo
// of a changed pod can take them over: ChangedPodInfo).
//
// Layout: what loops over many pods read (preemption's priority test, the
// requests NodeInfo and NodeResourcesFit add up) comes first.
struct PodInfoDerived {
  // spec.priority, 0 when unset (corev1helpers.PodPriority).
  int32_t priority = 0;
  // cpu and memory with a container's missing request counted as 100m /
  // 200Mi (NodeInfo.NonZeroRequested).
  int64_t non_zero_milli_cpu = 0;
  int64_t non_zero_memory = 0;
  // The aggregated requests NodeResourcesFit and NodeInfo.Requested use.
  Resource requests;
  std::string key;  // "namespace/name"
  // Ports of regular containers with a hostPort > 0, in spec order
  // (upstream NodeInfo.updateUsedPorts reads spec.containers only).
  std::vector<api::ContainerPort> host_ports;
  std::vector<AffinityTerm> required_affinity_terms;
  std::vector<AffinityTerm> required_anti_affinity_terms;
  std::vector<WeightedAffinityTerm> preferred_affinity_terms;
  std::vector<WeightedAffinityTerm> preferred_anti_affinity_terms;
};

// A pod and what is derived from its spec. Immutable once built: an update
// builds a new PodInfo, so snapshots and queue entries may share it.
//
// The pod object is either owned (shared by the PodInfo's copies, as it
// never changes) or borrowed from an object that outlives the PodInfo and
// every copy of it (BorrowingPodInfo: the scenario's own pods, which a run
// would otherwise copy once per pod).
struct PodInfo : PodInfoDerived {
  // Owns `pod`; the derived members are left for the caller to fill.
  explicit PodInfo(api::Pod pod)
      : owned_(std::make_shared<const api::Pod>(std::move(pod))), pod(*owned_) {}
  // Borrows *pod.
  explicit PodInfo(const api::Pod* pod) : pod(*pod) {}
  // Owns `pod`, with `derived`'s derived members.
  // REQUIRES: they are `pod`'s (the pods differ only where nothing derived
  // is read from).
  PodInfo(const PodInfoDerived& derived, api::Pod pod)
      : PodInfoDerived(derived),
        owned_(std::make_shared<const api::Pod>(std::move(pod))),
        pod(*owned_) {}
  // `unbound`'s pod bound to `node`: the same pod object (shared or
  // borrowed alike) and derived members, with node_name() = node while
  // pod.node_name stays as it was (BoundPodInfo).
  // REQUIRES: `node` is not empty.
  PodInfo(const PodInfo& unbound, std::string node)
      : PodInfoDerived(unbound),
        owned_(unbound.owned_),
        pod(unbound.pod),
        bound_node_(std::move(node)),
        bound_(true) {}
  // A copy refers to the same pod object (and shares it when owned).
  PodInfo(const PodInfo&) = default;
  PodInfo& operator=(const PodInfo&) = delete;

 private:
  std::shared_ptr<const api::Pod> owned_;  // null iff borrowed

 public:
  // The pod object. Its spec.nodeName is node_name(), not pod.node_name,
  // which a bound PodInfo does not change: read node_name().
  const api::Pod& pod;

  const std::string& uid() const { return pod.uid; }
  // spec.nodeName.
  const std::string& node_name() const { return bound_ ? bound_node_ : pod.node_name; }
  // True iff node_name() is not pod.node_name: a BoundPodInfo, whose pod
  // object must not be handed on where its node name is read (an event's
  // objects, a copy of the pod); MaterializedPod gives one that can be.
  bool binds_node() const { return bound_; }

 private:
  std::string bound_node_;
  bool bound_ = false;
};

using PodInfoPtr = std::shared_ptr<const PodInfo>;

[[nodiscard]] PodInfoPtr NewPodInfo(const api::Pod& pod);
[[nodiscard]] PodInfoPtr NewPodInfo(api::Pod&& pod);
// A PodInfo that borrows `pod` instead of copying it.
// REQUIRES: `pod` outlives the PodInfo and every copy of it.
[[nodiscard]] PodInfoPtr BorrowingPodInfo(const api::Pod& pod);
// `info`'s pod bound to `node` without copying the pod object: what the
// scheduling cycle assumes and the binding stores. A pod copied for each
// binding was most of a cycle's allocations (docs/optimized.md).
// REQUIRES: `node` is not empty.
[[nodiscard]] PodInfoPtr BoundPodInfo(const PodInfo& info, const std::string& node);
// The pod with spec.nodeName = info.node_name(): a copy of info.pod when
// info binds a node, else info.pod itself (*scratch unused).
[[nodiscard]] const api::Pod& MaterializedPod(const PodInfo& info, std::optional<api::Pod>* scratch);

// The host ports used on a node (upstream HostPortInfo): (ip, protocol,
// port) triples with an empty IP stored as 0.0.0.0 and an empty protocol as
// TCP; ports <= 0 are never recorded. Each triple counts the pods using it,
// so a port stays used while any pod on the node uses it — the reference's
// rule (it recomputes from the pods). Note: upstream's map of sets frees the
// triple when the first of two such pods goes (docs/deviations.md "Host
// ports").
// A set of (ip, protocol, port), as upstream's: Add of a present triple
// and Remove of an absent one change nothing.
// Note: upstream's quirk reproduced (docs/deviations.md, "Upstream quirks
// reproduced"): being a set, not a count, RemovePod of one of two pods on
// a node that declare the same triple frees it although the other pod
// still declares it, until a pod declaring it is added again.
class HostPortInfo {
 public:
  void Add(const std::string& ip, const std::string& protocol, int32_t port);
  void Remove(const std::string& ip, const std::string& protocol, int32_t port);
  // True iff (ip, protocol, port) conflicts: same protocol and port on the
  // same IP, or either side on 0.0.0.0.
  bool CheckConflict(const std::string& ip, const std::string& protocol,
                     int32_t port) const;
  bool empty() const { return entries_.empty(); }

 private:
  struct Entry {
    std::string ip;
    std::string protocol;
    int32_t port;
  };
  std::vector<Entry> entries_;
};

// A NodeInfo's list of pods. Its copy-assignment leaves alone the elements
// that already hold the same PodInfo: the cache copies each changed node
// into the snapshot, usually after one of its pods was added or replaced,
// and a plain vector assignment would update every element's (atomic)
// reference count twice.
class PodInfoList : public std::vector<PodInfoPtr> {
 public:
  PodInfoList() = default;
  PodInfoList(const PodInfoList&) = default;
  PodInfoList(PodInfoList&&) noexcept = default;
  PodInfoList& operator=(const PodInfoList& other);
  PodInfoList& operator=(PodInfoList&&) noexcept = default;
  ~PodInfoList() = default;
};

// A node and the pods the scheduler believes run on it (bound and assumed).
class NodeInfo;

// Hints the CPU to start loading what Filter and Score read first of a
// node: loops over scattered NodeInfos are bound by memory latency, so they
// call this a few nodes ahead. Purely a performance hint.
void PrefetchNode(const NodeInfo* node);
void PrefetchNodeStamp(const NodeInfo* node);

// Layout: what the per-node Filter and Score fast paths read
// (NodeResourcesFit and the resource scorers for cpu, memory and the pod
// count, NodeUnschedulable, TaintToleration, ImageLocality) is duplicated
// into the first bytes (Hot, one cache line when the NodeInfo is 64-byte
// aligned, as the snapshot's are), so that a scan over nodes whose pods and
// taints need no closer look loads one line per node. The type itself is
// not over-aligned: NodeInfos on the stack (tests, preemption's copies)
// would then depend on every allocator honouring it, and ASan's fake stack
// does not.
class NodeInfo {
 public:
  // The first cache line. Every field is derived: from requested(),
  // allocatable(), the non-zero sums, pods().size() and the node object.
  struct Hot {
    int64_t requested_milli_cpu = 0;
    int64_t requested_memory = 0;
    int64_t allocatable_milli_cpu = 0;
    int64_t allocatable_memory = 0;
    int64_t non_zero_milli_cpu = 0;
    int64_t non_zero_memory = 0;
    int64_t allowed_pod_number = 0;
    int32_t num_pods = 0;
    uint32_t flags = 0;  // HotFlag bits
  };
  // Hot::flags, cached from the node object (see has_node() and the
  // accessors after it).
  enum HotFlag : uint32_t {
    kUnschedulable = 1,
    kHardTaints = 2,
    kPreferTaints = 4,
    kImages = 8,
    kHasNode = 16,
  };

  NodeInfo() = default;
  explicit NodeInfo(std::shared_ptr<const api::Node> node) { SetNode(std::move(node)); }

  // nullptr for a ghost: a node deleted while pods were still on it.
  const api::Node* node() const { return node_.get(); }
  // The node object's name. REQUIRES: node() != nullptr.
  const std::string& Name() const { return name_; }
  void SetNode(std::shared_ptr<const api::Node> node);
  void RemoveNode();

  // In the order they were added; RemovePod moves the last pod into the
  // removed one's slot, as upstream does.
  const std::vector<PodInfoPtr>& pods() const { return pods_; }
  const std::vector<PodInfoPtr>& pods_with_affinity() const { return pods_with_affinity_; }
  const std::vector<PodInfoPtr>& pods_with_required_anti_affinity() const {
    return pods_with_required_anti_affinity_;
  }
  const Resource& requested() const { return requested_; }
  // The highest priority among pods() (INT32_MIN without pods): a
  // preemptor of higher priority may take every pod off the node.
  int32_t max_pod_priority() const { return max_pod_priority_; }
  int64_t non_zero_milli_cpu() const { return hot_.non_zero_milli_cpu; }
  int64_t non_zero_memory() const { return hot_.non_zero_memory; }
  // status.allocatable (allowed_pod_number from "pods").
  const Resource& allocatable() const { return allocatable_; }
  const HostPortInfo& used_ports() const { return used_ports_; }
  const Hot& hot() const { return hot_; }

  // Cached from the node object (false for a ghost): whether there is
  // one (node() != nullptr); spec.unschedulable; whether spec.taints has a
  // NoSchedule or NoExecute taint, or a PreferNoSchedule one; whether
  // status.images is non-empty.
  bool has_node() const { return hot_.flags & kHasNode; }
  bool unschedulable() const { return hot_.flags & kUnschedulable; }
  bool has_no_schedule_or_no_execute_taints() const { return hot_.flags & kHardTaints; }
  bool has_prefer_no_schedule_taints() const { return hot_.flags & kPreferTaints; }
  bool has_images() const { return hot_.flags & kImages; }

  void AddPod(PodInfoPtr pod);
  // Removes the pod with this UID. Returns false iff it was not there.
  bool RemovePod(const std::string& uid);
  // What RemovePod(pod.uid()) then AddPod of the same PodInfo does: the
  // aggregates stay, the pod moves to the end of each list it is on.
  // REQUIRES: `pod` itself (this object, not one with its UID) is on this
  // node.
  void MoveToBack(const PodInfo& pod);

 private:
  // Re-derives hot_'s resource fields and pod count.
  void SyncHot();

  Hot hot_;  // cache line 0

 public:
  // Position in the snapshot's node list (-1 outside a snapshot). Plugins
  // index their per-node precomputed state by it.
  int32_t index = -1;

 private:
  // Beside index, in the line after hot_, with node_ and pods_.
  int32_t max_pod_priority_ = INT32_MIN;

 public:
  // Bumped on every change; the cache copies a node into the snapshot iff
  // its generation is newer than the snapshot's.
  int64_t generation = 0;

 private:
  std::shared_ptr<const api::Node> node_;
  // node_->name, kept here, in the second line with index and generation:
  // loops that record rejected nodes by name then load no node object.
  std::string name_;
  PodInfoList pods_;
  Resource requested_;
  Resource allocatable_;
  PodInfoList pods_with_affinity_;
  PodInfoList pods_with_required_anti_affinity_;
  HostPortInfo used_ports_;

 public:
  // The cache's handle on the NodeInfo this one is (a copy of); -1: none.
  // A hint: the cache checks it before use (Cache::AssumePod).
  int32_t cache_id = -1;

  // For each name in the node object's status.images, how many of the
  // snapshot's nodes listed it when this copy was last made: set by
  // Snapshot::Rebuild for the copies handed out since the rebuild before,
  // as upstream's NodeInfo.Snapshot freezes ImageStateSummary.NumNodes
  // into a copy that UpdateSnapshot remakes only when the node changed.
  // Empty when not taken (a copy outside a snapshot).
  std::vector<std::pair<std::string, int32_t>> image_num_nodes;
};

static_assert(sizeof(NodeInfo::Hot) == 64, "Hot is one cache line");

// The union of nodes[0, n)'s Hot flags: a run of nodes none of which has a
// flag needs no per-node look at what the flag stands for.
inline uint32_t HotFlagsOf(const NodeInfo* const* nodes, size_t n) {
  uint32_t flags = 0;
  for (size_t i = 0; i < n; ++i) flags |= nodes[i]->hot().flags;
  return flags;
}

inline void PrefetchNode(const NodeInfo* node) { __builtin_prefetch(node); }
// The line after the hot one: index, generation and the node object, what
// per-node memos (plugins/helper/node_memo.h) compare.
inline void PrefetchNodeStamp(const NodeInfo* node) {
  __builtin_prefetch(reinterpret_cast<const char*>(node) + sizeof(NodeInfo::Hot));
}

}  // namespace schedref::optimized::framework

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_TYPES_H_
