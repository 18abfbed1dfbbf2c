// The scheduling queue the upstream-transcribed queue tests run against,
// chosen by SCHEDREF_IMPL_REFERENCE or SCHEDREF_IMPL_OPTIMIZED
// (bazel/upstream_test.bzl), and the calls whose shapes differ between the
// two: the optimized queue holds shared PodInfos and takes an event's
// objects as one struct, the reference holds api::Pod values.
#ifndef SCHEDREF_TESTING_UPSTREAM_BACKEND_QUEUE_IMPL_H_
#define SCHEDREF_TESTING_UPSTREAM_BACKEND_QUEUE_IMPL_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#if defined(SCHEDREF_IMPL_REFERENCE)
#include "reference/backend/queue/backoff.h"
#include "reference/backend/queue/scheduling_queue.h"
#include "reference/framework/plugins/queuesort/priority_sort.h"
#include "reference/framework/testing/wrappers.h"
#define SCHEDREF_QUEUE_NS schedref::reference::queue
#elif defined(SCHEDREF_IMPL_OPTIMIZED)
#include "optimized/backend/queue/backoff.h"
#include "optimized/backend/queue/scheduling_queue.h"
#include "optimized/framework/plugins/queuesort/priority_sort.h"
#include "testing/st/wrappers.h"
#define SCHEDREF_QUEUE_NS schedref::optimized::backend::queue
#else
#error "define SCHEDREF_IMPL_REFERENCE or SCHEDREF_IMPL_OPTIMIZED"
#endif

namespace SCHEDREF_QUEUE_NS {

using PreCheck = std::function<bool(const api::Pod&)>;

#if defined(SCHEDREF_IMPL_REFERENCE)
namespace st = framework::st;

inline const api::Pod& PodOf(const framework::QueuedPodInfo& info) {
  return info.pod;
}
inline void SetPod(framework::QueuedPodInfo& info, const api::Pod& pod) {
  info.pod = pod;
}
inline std::optional<framework::QueuedPodInfo> Get(const SchedulingQueue& q,
                                                   const std::string& key) {
  return q.Get(key);
}
inline void MoveAll(SchedulingQueue& q, const framework::ClusterEvent& event,
                    PreCheck pre_check, api::TimeMs now) {
  q.MoveAllToActiveOrBackoffQueue(event, {}, {}, std::move(pre_check), now);
}
inline void MoveAllWithNewNode(SchedulingQueue& q,
                               const framework::ClusterEvent& event,
                               const api::Node* node, api::TimeMs now) {
  framework::EventObject new_obj;
  if (node != nullptr) new_obj = *node;
  q.MoveAllToActiveOrBackoffQueue(event, {}, new_obj, nullptr, now);
}
inline void MoveAllWithNewPod(SchedulingQueue& q,
                              const framework::ClusterEvent& event,
                              const api::Pod& pod, api::TimeMs now) {
  q.MoveAllToActiveOrBackoffQueue(event, {}, pod, nullptr, now);
}
inline std::vector<api::Pod> NominatedPods(const SchedulingQueue& q,
                                           const std::string& node) {
  return q.NominatedPodsForNode(node);
}
inline void Nominate(SchedulingQueue& q, const api::Pod& pod,
                     const std::optional<NominatingInfo>& info) {
  q.AddNominatedPod(pod, info);
}
#else
inline const api::Pod& PodOf(const framework::QueuedPodInfo& info) {
  return info.pod();
}
inline void SetPod(framework::QueuedPodInfo& info, const api::Pod& pod) {
  info.pod_info = framework::NewPodInfo(pod);
}
inline std::optional<framework::QueuedPodInfo> Get(const SchedulingQueue& q,
                                                   const std::string& key) {
  const framework::QueuedPodInfo* info = q.Get(key);
  if (info == nullptr) return std::nullopt;
  return *info;
}
inline void MoveAll(SchedulingQueue& q, const framework::ClusterEvent& event,
                    const PreCheck& pre_check, api::TimeMs now) {
  q.MoveAllToActiveOrBackoffQueue(event, {}, pre_check, now);
}
inline void MoveAllWithNewNode(SchedulingQueue& q,
                               const framework::ClusterEvent& event,
                               const api::Node* node, api::TimeMs now) {
  q.MoveAllToActiveOrBackoffQueue(
      event, framework::EventObjects{nullptr, nullptr, nullptr, node}, nullptr,
      now);
}
inline void MoveAllWithNewPod(SchedulingQueue& q,
                              const framework::ClusterEvent& event,
                              const api::Pod& pod, api::TimeMs now) {
  q.MoveAllToActiveOrBackoffQueue(
      event, framework::EventObjects{nullptr, &pod, nullptr, nullptr}, nullptr,
      now);
}
inline std::vector<api::Pod> NominatedPods(const SchedulingQueue& q,
                                           const std::string& node) {
  std::vector<api::Pod> pods;
  for (const framework::PodInfoPtr& p : q.NominatedPodsForNode(node)) {
    pods.push_back(p->pod);
  }
  return pods;
}
inline void Nominate(SchedulingQueue& q, const api::Pod& pod,
                     const std::optional<NominatingInfo>& info) {
  q.AddNominatedPod(framework::NewPodInfo(pod), info);
}
#endif

}  // namespace SCHEDREF_QUEUE_NS

#endif  // SCHEDREF_TESTING_UPSTREAM_BACKEND_QUEUE_IMPL_H_
