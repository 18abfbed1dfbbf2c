#include "cmd/schedref/bare_loop.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "testing/st/wrappers.h"

namespace schedref::cmd {
namespace {

// upstream numFeasibleNodesToFind with the adaptive percentage: all nodes
// below 100, else max(5%, 50% - n/125) of them, at least 100.
TEST(BareLoopTest, NodesToFindFollowUpstream) {
  struct Case {
    int64_t nodes, want;
  };
  for (const Case& c : std::vector<Case>{
           {0, 0}, {50, 50}, {99, 99}, {100, 100}, {1000, 420}, {5000, 500},
           {6000, 300}, {10000, 500}}) {
    EXPECT_EQ(BareLoopNodesToFind(c.nodes), c.want) << c.nodes << " nodes";
  }
}

std::vector<api::Node> Nodes(const std::vector<std::string>& cpus) {
  std::vector<api::Node> nodes;
  for (size_t i = 0; i < cpus.size(); ++i) {
    nodes.push_back(st::MakeNode()
                        .Name("n" + std::to_string(i))
                        .Capacity({{"cpu", cpus[i]}, {"memory", "4Gi"}, {"pods", "2"}})
                        .Obj());
  }
  return nodes;
}

std::vector<int32_t> Place(const std::vector<api::Node>& nodes,
                           const std::vector<std::string>& cpus) {
  std::vector<api::Pod> pods;
  for (size_t i = 0; i < cpus.size(); ++i) {
    pods.push_back(st::MakePod()
                       .Name("p" + std::to_string(i))
                       .Req({{"cpu", cpus[i]}, {"memory", "1Gi"}})
                       .Obj());
  }
  std::vector<const api::Pod*> pointers;
  for (const api::Pod& p : pods) pointers.push_back(&p);
  return RunBareLoop(nodes, pointers, 1).chosen;
}

TEST(BareLoopTest, PlacesOnTheLeastAllocatedNodeThatFits) {
  struct Case {
    std::string name;
    std::vector<std::string> node_cpus, pod_cpus;
    std::vector<int32_t> want;
  };
  const std::vector<Case> cases = {
      // Equal nodes: the first; a node that no longer fits is passed over.
      {"equal nodes fill in turn", {"1", "1", "1"}, {"600m", "600m", "600m", "600m"},
       {0, 1, 2, -1}},
      // The bigger node keeps more room free.
      {"least allocated wins", {"1", "4"}, {"500m"}, {1}},
      // allocatable pods: 2 per node.
      {"pod count", {"8"}, {"1", "1", "1"}, {0, 0, -1}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(Place(Nodes(c.node_cpus), c.pod_cpus), c.want);
  }
}

}  // namespace
}  // namespace schedref::cmd
