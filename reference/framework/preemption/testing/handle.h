// A framework::Handle for the tests of the inter-pod plugins and preemption:
// a snapshot built from pods and nodes (upstream cache.NewSnapshot), a
// fixed clock, namespace labels, PDBs, nominated pods, and recorders for
// what preemption does through the handle. testonly.
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_PREEMPTION_TESTING_HANDLE_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_PREEMPTION_TESTING_HANDLE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "api/status.h"
#include "api/types/objects.h"
#include "reference/framework/interface.h"
#include "reference/framework/node_info.h"
#include "reference/framework/snapshot.h"
#include "reference/framework/testing/fake_handle.h"

namespace schedref::reference::framework::preemption::testing {

// Upstream cache.NewSnapshot(pods, nodes): one NodeInfo per node, in the
// given order, holding the pods whose spec.nodeName names it (in the given
// order). Pods on unknown nodes are dropped.
inline Snapshot MakeSnapshot(const std::vector<api::Pod>& pods,
                             const std::vector<api::Node>& nodes) {
  std::vector<NodeInfo> infos;
  for (const api::Node& node : nodes) {
    NodeInfo info;
    info.node = node;
    for (const api::Pod& pod : pods) {
      if (pod.node_name == node.name) info.AddPod(pod);
    }
    infos.push_back(std::move(info));
  }
  return Snapshot(std::move(infos));
}

// The shared plugin-test handle (reference/framework/testing/fake_handle.h).
using TestHandle = st::FakeHandle;

}  // namespace schedref::reference::framework::preemption::testing

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_PREEMPTION_TESTING_HANDLE_H_
