// The NodeAffinity plugin the upstream-transcribed tests run against,
// chosen by SCHEDREF_IMPL_REFERENCE or SCHEDREF_IMPL_OPTIMIZED
// (bazel/upstream_test.bzl), and a Filter run in each implementation's
// calling shape (the optimized plugin takes a shared PodInfo).
#ifndef SCHEDREF_TESTING_UPSTREAM_FRAMEWORK_PLUGINS_NODEAFFINITY_IMPL_H_
#define SCHEDREF_TESTING_UPSTREAM_FRAMEWORK_PLUGINS_NODEAFFINITY_IMPL_H_

#include "api/config/pluginargs/nodeaffinity_args.h"

#if defined(SCHEDREF_IMPL_REFERENCE)
#include "reference/framework/plugins/nodeaffinity/node_affinity.h"
#include "reference/framework/testing/wrappers.h"
#define SCHEDREF_NODEAFFINITY_NS \
  schedref::reference::framework::plugins::nodeaffinity
#elif defined(SCHEDREF_IMPL_OPTIMIZED)
#include "optimized/framework/plugins/nodeaffinity/node_affinity.h"
#include "optimized/framework/testing/fixtures.h"
#include "testing/st/wrappers.h"
#define SCHEDREF_NODEAFFINITY_NS \
  schedref::optimized::framework::plugins::nodeaffinity
#else
#error "define SCHEDREF_IMPL_REFERENCE or SCHEDREF_IMPL_OPTIMIZED"
#endif

namespace SCHEDREF_NODEAFFINITY_NS {

inline schedref::Status ValidateArgs(const NodeAffinityArgs& args) {
  return api::pluginargs::ValidateNodeAffinityArgs(args);
}

// PreFilter then Filter on one CycleState, and Filter on a fresh one.
struct FilterRun {
  PreFilterOutput pre;
  Status after_pre_filter;
  Status fresh;
};

inline FilterRun RunFilter(const NodeAffinityArgs& args, const api::Pod& pod,
                           const api::Node& node) {
  NodeAffinity plugin(args);
  FilterRun run;
  CycleState state;
#if defined(SCHEDREF_IMPL_REFERENCE)
  const NodeInfo info = framework::st::MakeNodeInfo(node);
  CycleState fresh;
  run.pre = plugin.PreFilter(state, pod, {});
  run.after_pre_filter = plugin.Filter(state, pod, info);
  run.fresh = plugin.Filter(fresh, pod, info);
#else
  const NodeInfo info = framework::testing::MakeNodeInfo(node);
  const PodInfoPtr p = NewPodInfo(pod);
  run.pre = plugin.PreFilter(state, *p, {});
  run.after_pre_filter = plugin.Filter(state, *p, info);
  run.fresh = plugin.Filter(CycleState(), *p, info);
#endif
  return run;
}

}  // namespace SCHEDREF_NODEAFFINITY_NS

#endif  // SCHEDREF_TESTING_UPSTREAM_FRAMEWORK_PLUGINS_NODEAFFINITY_IMPL_H_
