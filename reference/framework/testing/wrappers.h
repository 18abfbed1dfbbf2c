// The reference's test fixtures: the shared api-object builders of
// testing/st/wrappers.h (st::MakePod(), st::MakeNode(), ...) plus NodeInfo and
// QueuedPodInfo helpers for the reference's own types. testonly.
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_TESTING_WRAPPERS_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_TESTING_WRAPPERS_H_

#include <vector>

#include "api/types/objects.h"
#include "reference/framework/interface.h"
#include "reference/framework/node_info.h"
#include "testing/st/wrappers.h"

namespace schedref::reference::framework::st {

using schedref::st::MakeNode;
using schedref::st::MakeNodeSelector;
using schedref::st::MakePod;
using schedref::st::NodeSelectorWrapper;
using schedref::st::NodeWrapper;
using schedref::st::ParseResourceList;
using schedref::st::PodWrapper;
using schedref::st::ResourceStrings;

// A NodeInfo holding `node` and `pods` (in that order).
NodeInfo MakeNodeInfo(const api::Node& node, std::vector<api::Pod> pods = {});
// A node-less NodeInfo (upstream framework.NewNodeInfo(pods...) without
// SetNode), as the accounting tests use.
NodeInfo MakeNodeInfoWithoutNode(std::vector<api::Pod> pods);

// A QueuedPodInfo for queue and QueueSort tests.
QueuedPodInfo MakeQueuedPodInfo(const api::Pod& pod, api::TimeMs timestamp);

}  // namespace schedref::reference::framework::st

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_TESTING_WRAPPERS_H_
