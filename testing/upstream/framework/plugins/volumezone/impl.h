// The VolumeZone plugin the upstream-transcribed tests run against, chosen
// by SCHEDREF_IMPL_REFERENCE or SCHEDREF_IMPL_OPTIMIZED
// (bazel/upstream_test.bzl), with PreFilter + Filter, the three queueing
// hints and EventsToRegister in each implementation's calling shape.
#ifndef SCHEDREF_TESTING_UPSTREAM_FRAMEWORK_PLUGINS_VOLUMEZONE_IMPL_H_
#define SCHEDREF_TESTING_UPSTREAM_FRAMEWORK_PLUGINS_VOLUMEZONE_IMPL_H_

#include <vector>

#include "api/types/objects.h"

#if defined(SCHEDREF_IMPL_REFERENCE)
#include "reference/framework/plugins/volumezone/volume_zone.h"
#include "reference/framework/testing/fake_handle.h"
#include "reference/framework/testing/wrappers.h"
#define SCHEDREF_VOLUMEZONE_NS schedref::reference::framework::plugins::volumezone
#elif defined(SCHEDREF_IMPL_OPTIMIZED)
#include "optimized/framework/plugins/volumezone/volume_zone.h"
#include "optimized/framework/testing/fixtures.h"
#include "testing/st/wrappers.h"
#define SCHEDREF_VOLUMEZONE_NS schedref::optimized::framework::plugins::volumezone
#else
#error "define SCHEDREF_IMPL_REFERENCE or SCHEDREF_IMPL_OPTIMIZED"
#endif

namespace SCHEDREF_VOLUMEZONE_NS {

#if defined(SCHEDREF_IMPL_REFERENCE)
using FakeHandle = framework::st::FakeHandle;
using framework::st::MakeNodeInfo;
#else
using FakeHandle = framework::testing::FakeHandle;
using framework::testing::MakeNodeInfo;
#endif

struct FilterRun {
  Status pre_filter;
  bool pre_filter_result = false;  // PreFilter returned a node set
  Status filter;
};

// PreFilter, then Filter of `pod` on `node` whatever PreFilter returned (as
// upstream's unit tests do), with `storage` as the listers.
inline FilterRun RunFilter(const api::StorageObjects& storage, const api::Pod& pod,
                           const api::Node& node) {
  FakeHandle handle;
  handle.storage = storage;
  VolumeZone plugin(&handle);
  CycleState state;
  const NodeInfo info = MakeNodeInfo(node);
  FilterRun run;
#if defined(SCHEDREF_IMPL_REFERENCE)
  const PreFilterOutput pre = plugin.PreFilter(state, pod, {});
  run.filter = plugin.Filter(state, pod, info);
#else
  const PodInfoPtr p = NewPodInfo(pod);
  const PreFilterOutput pre = plugin.PreFilter(state, *p, {});
  run.filter = plugin.Filter(state, *p, info);
#endif
  run.pre_filter = pre.status;
  run.pre_filter_result = pre.result.has_value();
  return run;
}

inline std::vector<ClusterEventWithHint> EventsToRegister() {
  FakeHandle handle;
  return VolumeZone(&handle).EventsToRegister();
}

// The hints on typed objects; nullptr is "no object" (an add's old one).
inline StatusOr<QueueingHint> PvcChangeHint(const api::Pod& pod,
                                            const api::PersistentVolumeClaim* old_pvc,
                                            const api::PersistentVolumeClaim* new_pvc) {
#if defined(SCHEDREF_IMPL_REFERENCE)
  const auto obj = [](const api::PersistentVolumeClaim* c) {
    return c ? EventObject(*c) : EventObject(std::monostate{});
  };
  return VolumeZone::IsSchedulableAfterPersistentVolumeClaimChange(pod, obj(old_pvc),
                                                                   obj(new_pvc));
#else
  EventObjects objects;
  objects.old_pvc = old_pvc;
  objects.new_pvc = new_pvc;
  return VolumeZone::IsSchedulableAfterPersistentVolumeClaimChange(pod, objects);
#endif
}

inline StatusOr<QueueingHint> StorageClassAddedHint(const api::Pod& pod,
                                                    const api::StorageClass& added) {
#if defined(SCHEDREF_IMPL_REFERENCE)
  return VolumeZone::IsSchedulableAfterStorageClassAdded(pod, std::monostate{},
                                                         EventObject(added));
#else
  EventObjects objects;
  objects.new_class = &added;
  return VolumeZone::IsSchedulableAfterStorageClassAdded(pod, objects);
#endif
}

inline StatusOr<QueueingHint> PvChangeHint(const api::Pod& pod,
                                           const api::PersistentVolume* old_pv,
                                           const api::PersistentVolume* new_pv) {
#if defined(SCHEDREF_IMPL_REFERENCE)
  const auto obj = [](const api::PersistentVolume* v) {
    return v ? EventObject(*v) : EventObject(std::monostate{});
  };
  return VolumeZone::IsSchedulableAfterPersistentVolumeChange(pod, obj(old_pv), obj(new_pv));
#else
  EventObjects objects;
  objects.old_pv = old_pv;
  objects.new_pv = new_pv;
  return VolumeZone::IsSchedulableAfterPersistentVolumeChange(pod, objects);
#endif
}

}  // namespace SCHEDREF_VOLUMEZONE_NS

#endif  // SCHEDREF_TESTING_UPSTREAM_FRAMEWORK_PLUGINS_VOLUMEZONE_IMPL_H_
