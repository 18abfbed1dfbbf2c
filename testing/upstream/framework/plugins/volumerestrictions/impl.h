// The VolumeRestrictions plugin the upstream-transcribed tests run against,
// chosen by SCHEDREF_IMPL_REFERENCE or SCHEDREF_IMPL_OPTIMIZED
// (bazel/upstream_test.bzl): a plugin over a one-node snapshot with its
// extension points, the two queueing hints and EventsToRegister in each
// implementation's calling shape. The optimized plugin takes shared
// PodInfos and the candidate nodes; the reference takes api::Pod values
// and reads the handle's snapshot.
#ifndef SCHEDREF_TESTING_UPSTREAM_FRAMEWORK_PLUGINS_VOLUMERESTRICTIONS_IMPL_H_
#define SCHEDREF_TESTING_UPSTREAM_FRAMEWORK_PLUGINS_VOLUMERESTRICTIONS_IMPL_H_

#include <memory>
#include <string>
#include <vector>

#include "api/types/objects.h"

#if defined(SCHEDREF_IMPL_REFERENCE)
#include "reference/framework/plugins/volumerestrictions/volume_restrictions.h"
#include "reference/framework/snapshot.h"
#include "reference/framework/testing/fake_handle.h"
#include "reference/framework/testing/wrappers.h"
#define SCHEDREF_VOLUMERESTRICTIONS_NS \
  schedref::reference::framework::plugins::volumerestrictions
#elif defined(SCHEDREF_IMPL_OPTIMIZED)
#include "optimized/framework/plugins/volumerestrictions/volume_restrictions.h"
#include "optimized/framework/testing/fixtures.h"
#include "testing/st/wrappers.h"
#define SCHEDREF_VOLUMERESTRICTIONS_NS \
  schedref::optimized::framework::plugins::volumerestrictions
#else
#error "define SCHEDREF_IMPL_REFERENCE or SCHEDREF_IMPL_OPTIMIZED"
#endif

namespace SCHEDREF_VOLUMERESTRICTIONS_NS {

#if defined(SCHEDREF_IMPL_REFERENCE)
using FakeHandle = framework::st::FakeHandle;
using framework::st::MakeNodeInfo;
#else
using FakeHandle = framework::testing::FakeHandle;
using framework::testing::MakeNodeInfo;
#endif

// A node without pods, for the dry run's AddPod/RemovePod.
inline NodeInfo EmptyNode(const std::string& name) {
  return MakeNodeInfo(st::MakeNode().Name(name).Obj());
}

// A VolumeRestrictions plugin whose handle's snapshot is one node `node`
// holding `existing` (whatever node they name) and whose listers hold
// `pvcs`.
class Env {
 public:
  Env(const std::vector<api::Pod>& existing,
      const std::vector<api::PersistentVolumeClaim>& pvcs, const std::string& node = "node-1") {
    std::vector<api::Pod> placed = existing;
    for (api::Pod& p : placed) p.node_name = node;
    const api::Node n = st::MakeNode().Name(node).Obj();
#if defined(SCHEDREF_IMPL_REFERENCE)
    handle_.SetSnapshot(Snapshot({MakeNodeInfo(n, placed)}));
#else
    handle_.SetSnapshot(framework::testing::MakeSnapshot({n}, placed));
#endif
    api::Objects objects;
    objects.persistent_volume_claims = pvcs;
    handle_.storage = api::StorageObjects::From(objects);
    plugin_ = std::make_unique<VolumeRestrictions>(&handle_);
  }
  Env(const Env&) = delete;
  Env& operator=(const Env&) = delete;

  // The snapshot's one node.
  const NodeInfo& Node() const {
#if defined(SCHEDREF_IMPL_REFERENCE)
    return handle_.SnapshotSharedLister().List()[0];
#else
    return *handle_.SnapshotSharedLister().List()[0];
#endif
  }

#if defined(SCHEDREF_IMPL_REFERENCE)
  Status PreFilter(CycleState& state, const api::Pod& pod) {
    return plugin_->PreFilter(state, pod, {}).status;
  }
  Status Filter(CycleState& state, const api::Pod& pod, const NodeInfo& node) {
    return plugin_->Filter(state, pod, node);
  }
  Status AddPod(CycleState& state, const api::Pod& pod, const api::Pod& add,
                const NodeInfo& node) {
    return plugin_->AddPod(state, pod, add, node);
  }
  Status RemovePod(CycleState& state, const api::Pod& pod, const api::Pod& remove,
                   const NodeInfo& node) {
    return plugin_->RemovePod(state, pod, remove, node);
  }
#else
  Status PreFilter(CycleState& state, const api::Pod& pod) {
    return plugin_->PreFilter(state, *NewPodInfo(pod), handle_.SnapshotSharedLister().List())
        .status;
  }
  Status Filter(CycleState& state, const api::Pod& pod, const NodeInfo& node) {
    return plugin_->Filter(state, *NewPodInfo(pod), node);
  }
  Status AddPod(CycleState& state, const api::Pod& pod, const api::Pod& add,
                const NodeInfo& node) {
    return plugin_->AddPod(state, *NewPodInfo(pod), *NewPodInfo(add), node);
  }
  Status RemovePod(CycleState& state, const api::Pod& pod, const api::Pod& remove,
                   const NodeInfo& node) {
    return plugin_->RemovePod(state, *NewPodInfo(pod), *NewPodInfo(remove), node);
  }
#endif
  Status Filter(CycleState& state, const api::Pod& pod) { return Filter(state, pod, Node()); }

  std::vector<ClusterEventWithHint> EventsToRegister() const {
    return plugin_->EventsToRegister();
  }

 private:
  FakeHandle handle_;
  std::unique_ptr<VolumeRestrictions> plugin_;
};

inline StatusOr<QueueingHint> PodDeletedHint(const api::Pod& pod, const api::Pod& deleted) {
#if defined(SCHEDREF_IMPL_REFERENCE)
  return VolumeRestrictions::IsSchedulableAfterPodDeleted(pod, EventObject(deleted),
                                                          std::monostate{});
#else
  EventObjects objects;
  objects.old_pod = &deleted;
  return VolumeRestrictions::IsSchedulableAfterPodDeleted(pod, objects);
#endif
}

inline StatusOr<QueueingHint> PvcAddedHint(const api::Pod& pod,
                                           const api::PersistentVolumeClaim& added) {
#if defined(SCHEDREF_IMPL_REFERENCE)
  return VolumeRestrictions::IsSchedulableAfterPersistentVolumeClaimAdded(pod, std::monostate{},
                                                                          EventObject(added));
#else
  EventObjects objects;
  objects.new_pvc = &added;
  return VolumeRestrictions::IsSchedulableAfterPersistentVolumeClaimAdded(pod, objects);
#endif
}

}  // namespace SCHEDREF_VOLUMERESTRICTIONS_NS

#endif  // SCHEDREF_TESTING_UPSTREAM_FRAMEWORK_PLUGINS_VOLUMERESTRICTIONS_IMPL_H_
