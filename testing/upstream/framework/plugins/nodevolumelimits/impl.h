// The NodeVolumeLimits plugin the upstream-transcribed tests run against,
// chosen by SCHEDREF_IMPL_REFERENCE or SCHEDREF_IMPL_OPTIMIZED
// (bazel/upstream_test.bzl), with PreFilter + Filter and the two queueing
// hints in each implementation's calling shape.
#ifndef SCHEDREF_TESTING_UPSTREAM_FRAMEWORK_PLUGINS_NODEVOLUMELIMITS_IMPL_H_
#define SCHEDREF_TESTING_UPSTREAM_FRAMEWORK_PLUGINS_NODEVOLUMELIMITS_IMPL_H_

#include <vector>

#include "api/types/objects.h"

#if defined(SCHEDREF_IMPL_REFERENCE)
#include "reference/framework/plugins/nodevolumelimits/csi.h"
#include "reference/framework/testing/fake_handle.h"
#include "reference/framework/testing/wrappers.h"
#define SCHEDREF_NODEVOLUMELIMITS_NS \
  schedref::reference::framework::plugins::nodevolumelimits
#elif defined(SCHEDREF_IMPL_OPTIMIZED)
#include "optimized/framework/plugins/nodevolumelimits/csi.h"
#include "optimized/framework/testing/fixtures.h"
#include "testing/st/wrappers.h"
#define SCHEDREF_NODEVOLUMELIMITS_NS \
  schedref::optimized::framework::plugins::nodevolumelimits
#else
#error "define SCHEDREF_IMPL_REFERENCE or SCHEDREF_IMPL_OPTIMIZED"
#endif

namespace SCHEDREF_NODEVOLUMELIMITS_NS {

struct FilterRun {
  Status pre_filter;
  Status filter;  // Success when PreFilter skipped (Filter is not called)
};

// PreFilter, then (unless it skipped) Filter of `pod` on `node` holding
// `existing`, with `storage` as the listers.
inline FilterRun RunFilter(const api::StorageObjects& storage, const api::Pod& pod,
                           const std::vector<api::Pod>& existing, const api::Node& node) {
  FilterRun run;
  CycleState state;
#if defined(SCHEDREF_IMPL_REFERENCE)
  framework::st::FakeHandle handle;
  handle.storage = storage;
  CSILimits plugin(&handle);
  const NodeInfo info = framework::st::MakeNodeInfo(node, existing);
  run.pre_filter = plugin.PreFilter(state, pod, {}).status;
  if (run.pre_filter.code() != Code::kSkip) run.filter = plugin.Filter(state, pod, info);
#else
  framework::testing::FakeHandle handle;
  handle.storage = storage;
  CSILimits plugin(&handle);
  const NodeInfo info = framework::testing::MakeNodeInfo(node, existing);
  const PodInfoPtr p = NewPodInfo(pod);
  run.pre_filter = plugin.PreFilter(state, *p, {}).status;
  if (run.pre_filter.code() != Code::kSkip) run.filter = plugin.Filter(state, *p, info);
#endif
  return run;
}

inline StatusOr<QueueingHint> PodDeletedHint(const api::Pod& pod, const api::Pod& deleted) {
#if defined(SCHEDREF_IMPL_REFERENCE)
  return CSILimits::IsSchedulableAfterPodDeleted(pod, EventObject(deleted), std::monostate{});
#else
  EventObjects objects;
  objects.old_pod = &deleted;
  return CSILimits::IsSchedulableAfterPodDeleted(pod, objects);
#endif
}

inline StatusOr<QueueingHint> PvcAddedHint(const api::Pod& pod,
                                           const api::PersistentVolumeClaim& added) {
#if defined(SCHEDREF_IMPL_REFERENCE)
  return CSILimits::IsSchedulableAfterPVCAdded(pod, std::monostate{}, EventObject(added));
#else
  EventObjects objects;
  objects.new_pvc = &added;
  return CSILimits::IsSchedulableAfterPVCAdded(pod, objects);
#endif
}

}  // namespace SCHEDREF_NODEVOLUMELIMITS_NS

#endif  // SCHEDREF_TESTING_UPSTREAM_FRAMEWORK_PLUGINS_NODEVOLUMELIMITS_IMPL_H_
