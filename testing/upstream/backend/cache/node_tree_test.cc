// Transcribed from upstream pkg/scheduler/internal/cache/node_tree_test.go
// (kubernetes/kubernetes@15b08666fae3c54f934d362f493ca9448aa62719; the file
// is unchanged in substance in v1.32's backend/cache), run against both
// implementations' node trees (impl.h).
#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "testing/upstream/backend/cache/impl.h"

namespace SCHEDREF_CACHE_NS {
namespace {

std::string Key(const std::string& region, const std::string& zone) {
  return region + std::string(":\0:", 3) + zone;
}

// upstream allNodes
const std::vector<api::Node>& AllNodes() {
  static const std::vector<api::Node> nodes = {
      // Node 0: a node without any region-zone label
      st::MakeNode().Name("node-0").Obj(),
      // Node 1: a node with region label only
      st::MakeNode()
          .Name("node-1")
          .Label(kLabelTopologyRegion, "region-1")
          .Obj(),
      // Node 2: a node with zone label only
      st::MakeNode().Name("node-2").Label(kLabelTopologyZone, "zone-2").Obj(),
      // Node 3-4: proper region and zone labels
      st::MakeNode()
          .Name("node-3")
          .Label(kLabelTopologyRegion, "region-1")
          .Label(kLabelTopologyZone, "zone-2")
          .Obj(),
      st::MakeNode()
          .Name("node-4")
          .Label(kLabelTopologyRegion, "region-1")
          .Label(kLabelTopologyZone, "zone-2")
          .Obj(),
      // Node 5: a different zone, same region as above
      st::MakeNode()
          .Name("node-5")
          .Label(kLabelTopologyRegion, "region-1")
          .Label(kLabelTopologyZone, "zone-3")
          .Obj(),
      // Node 6-8: a new region and zone
      st::MakeNode()
          .Name("node-6")
          .Label(kLabelTopologyRegion, "region-2")
          .Label(kLabelTopologyZone, "zone-2")
          .Obj(),
      st::MakeNode()
          .Name("node-7")
          .Label(kLabelTopologyRegion, "region-2")
          .Label(kLabelTopologyZone, "zone-2")
          .Obj(),
      st::MakeNode()
          .Name("node-8")
          .Label(kLabelTopologyRegion, "region-2")
          .Label(kLabelTopologyZone, "zone-2")
          .Obj(),
      // Node 9: zone + region label and the deprecated zone + region label
      st::MakeNode()
          .Name("node-9")
          .Label(kLabelTopologyRegion, "region-2")
          .Label(kLabelTopologyZone, "zone-2")
          .Label(kLabelFailureDomainBetaRegion, "region-2")
          .Label(kLabelFailureDomainBetaZone, "zone-2")
          .Obj(),
      // Node 10: only the deprecated zone + region labels
      st::MakeNode()
          .Name("node-10")
          .Label(kLabelFailureDomainBetaRegion, "region-2")
          .Label(kLabelFailureDomainBetaZone, "zone-3")
          .Obj(),
  };
  return nodes;
}

std::vector<api::Node> Slice(size_t from, size_t to) {
  return std::vector<api::Node>(AllNodes().begin() + from,
                                AllNodes().begin() + to);
}

using Tree = std::map<std::string, std::vector<std::string>>;

// upstream verifyNodeTree
void VerifyNodeTree(const NodeTree& nt, const Tree& expected) {
  int expected_num = 0;
  for (const auto& [zone, names] : expected) {
    expected_num += static_cast<int>(names.size());
  }
  EXPECT_EQ(nt.NumNodes(), expected_num);
  EXPECT_EQ(TreeOf(nt), expected);
  EXPECT_EQ(nt.Zones().size(), expected.size());
  for (const std::string& zone : nt.Zones()) {
    EXPECT_EQ(expected.count(zone), 1u) << "unexpected zone " << zone;
  }
}

// upstream TestNodeTree_AddNode
TEST(NodeTreeTest, AddNode) {
  struct Case {
    std::string name;
    std::vector<api::Node> nodes_to_add;
    Tree expected;
  };
  const std::vector<Case> cases = {
      {"single node no labels", Slice(0, 1), {{"", {"node-0"}}}},
      {"same node specified twice",
       {AllNodes()[0], AllNodes()[0]},
       {{"", {"node-0"}}}},
      {"mix of nodes with and without proper labels",
       Slice(0, 4),
       {{"", {"node-0"}},
        {Key("region-1", ""), {"node-1"}},
        {Key("", "zone-2"), {"node-2"}},
        {Key("region-1", "zone-2"), {"node-3"}}}},
      {"mix of nodes with and without proper labels and some zones with "
       "multiple nodes",
       Slice(0, 7),
       {{"", {"node-0"}},
        {Key("region-1", ""), {"node-1"}},
        {Key("", "zone-2"), {"node-2"}},
        {Key("region-1", "zone-2"), {"node-3", "node-4"}},
        {Key("region-1", "zone-3"), {"node-5"}},
        {Key("region-2", "zone-2"), {"node-6"}}}},
      {"nodes also using deprecated zone/region label",
       Slice(9, 11),
       {{Key("region-2", "zone-2"), {"node-9"}},
        {Key("region-2", "zone-3"), {"node-10"}}}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    NodeTree nt;
    for (const api::Node& n : c.nodes_to_add) nt.AddNode(n);
    VerifyNodeTree(nt, c.expected);
  }
}

// upstream TestNodeTree_RemoveNode
TEST(NodeTreeTest, RemoveNode) {
  struct Case {
    std::string name;
    std::vector<api::Node> existing;
    std::vector<api::Node> to_remove;
    Tree expected;
    bool expect_error = false;
  };
  const std::vector<Case> cases = {
      {"remove a single node with no labels",
       Slice(0, 7),
       Slice(0, 1),
       {{Key("region-1", ""), {"node-1"}},
        {Key("", "zone-2"), {"node-2"}},
        {Key("region-1", "zone-2"), {"node-3", "node-4"}},
        {Key("region-1", "zone-3"), {"node-5"}},
        {Key("region-2", "zone-2"), {"node-6"}}}},
      {"remove a few nodes including one from a zone with multiple nodes",
       Slice(0, 7),
       Slice(1, 4),
       {{"", {"node-0"}},
        {Key("region-1", "zone-2"), {"node-4"}},
        {Key("region-1", "zone-3"), {"node-5"}},
        {Key("region-2", "zone-2"), {"node-6"}}}},
      {"remove all nodes", Slice(0, 7), Slice(0, 7), {}},
      {"remove non-existing node", {}, Slice(0, 5), {}, true},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    NodeTree nt(c.existing);
    for (const api::Node& n : c.to_remove) {
      schedref::Status s = nt.RemoveNode(n);
      EXPECT_EQ(s.ok(), !c.expect_error) << s.message();
    }
    VerifyNodeTree(nt, c.expected);
  }
}

TEST(NodeTreeTest, RemoveNodeErrorMessage) {
  NodeTree nt;
  schedref::Status s = nt.RemoveNode(AllNodes()[3]);
  EXPECT_TRUE(s.IsNotFound());
  EXPECT_EQ(s.message(),
            "node \"node-3\" in group \"region-1:\\x00:zone-2\" was not found");
}

// upstream TestNodeTree_UpdateNode
TEST(NodeTreeTest, UpdateNode) {
  struct Case {
    std::string name;
    std::vector<api::Node> existing;
    api::Node to_update;
    Tree expected;
  };
  const std::vector<Case> cases = {
      {"update a node without label",
       Slice(0, 7),
       st::MakeNode()
           .Name("node-0")
           .Label(kLabelTopologyRegion, "region-1")
           .Label(kLabelTopologyZone, "zone-2")
           .Obj(),
       {{Key("region-1", ""), {"node-1"}},
        {Key("", "zone-2"), {"node-2"}},
        {Key("region-1", "zone-2"), {"node-3", "node-4", "node-0"}},
        {Key("region-1", "zone-3"), {"node-5"}},
        {Key("region-2", "zone-2"), {"node-6"}}}},
      {"update the only existing node",
       Slice(0, 1),
       st::MakeNode()
           .Name("node-0")
           .Label(kLabelTopologyRegion, "region-1")
           .Label(kLabelTopologyZone, "zone-2")
           .Obj(),
       {{Key("region-1", "zone-2"), {"node-0"}}}},
      {"update non-existing node",
       Slice(0, 1),
       st::MakeNode()
           .Name("node-new")
           .Label(kLabelTopologyRegion, "region-1")
           .Label(kLabelTopologyZone, "zone-2")
           .Obj(),
       {{"", {"node-0"}}, {Key("region-1", "zone-2"), {"node-new"}}}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    NodeTree nt(c.existing);
    api::Node old_node = st::MakeNode().Name("nonexisting-node").Obj();
    for (const api::Node& n : AllNodes()) {
      if (n.name == c.to_update.name) {
        old_node = n;
        break;
      }
    }
    nt.UpdateNode(old_node, c.to_update);
    VerifyNodeTree(nt, c.expected);
  }
}

// upstream TestNodeTree_List
TEST(NodeTreeTest, List) {
  struct Case {
    std::string name;
    std::vector<api::Node> nodes;
    std::vector<std::string> expected;
  };
  const std::vector<Case> cases = {
      {"empty tree", {}, {}},
      {"one node", Slice(0, 1), {"node-0"}},
      {"four nodes", Slice(0, 4), {"node-0", "node-1", "node-2", "node-3"}},
      {"all nodes",
       Slice(0, 9),
       {"node-0", "node-1", "node-2", "node-3", "node-5", "node-6", "node-4",
        "node-7", "node-8"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(NodeTree(c.nodes).List(), c.expected);
  }
}

// upstream TestNodeTreeMultiOperations
TEST(NodeTreeTest, MultiOperations) {
  struct Case {
    std::string name;
    std::vector<api::Node> to_add;
    std::vector<api::Node> to_remove;
    std::vector<std::string> operations;
    std::vector<std::string> expected;
  };
  std::vector<api::Node> exhausted = Slice(4, 9);
  exhausted.push_back(AllNodes()[3]);
  std::vector<api::Node> remove_zone = Slice(3, 5);
  remove_zone.push_back(AllNodes()[6]);
  remove_zone.push_back(AllNodes()[7]);
  const std::vector<Case> cases = {
      {"add and remove all nodes",
       Slice(2, 9),
       Slice(2, 9),
       {"add", "add", "add", "remove", "remove", "remove"},
       {}},
      {"add and remove some nodes",
       Slice(2, 9),
       Slice(2, 9),
       {"add", "add", "add", "remove"},
       {"node-3", "node-4"}},
      {"remove three nodes",
       Slice(2, 9),
       Slice(2, 9),
       {"add", "add", "add", "remove", "remove", "remove", "add"},
       {"node-5"}},
      {"add more nodes to an exhausted zone",
       exhausted,
       {},
       {"add", "add", "add", "add", "add", "add"},
       {"node-4", "node-5", "node-6", "node-3", "node-7", "node-8"}},
      {"remove zone and add new",
       remove_zone,
       Slice(3, 5),
       {"add", "add", "remove", "add", "add", "remove"},
       {"node-6", "node-7"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    NodeTree nt;
    size_t add_index = 0;
    size_t remove_index = 0;
    for (const std::string& op : c.operations) {
      if (op == "add") {
        ASSERT_LT(add_index, c.to_add.size());
        nt.AddNode(c.to_add[add_index++]);
      } else {
        ASSERT_LT(remove_index, c.to_remove.size());
        schedref::Status s = nt.RemoveNode(c.to_remove[remove_index++]);
        (void)s;
      }
    }
    EXPECT_EQ(nt.List(), c.expected);
  }
}

// GetZoneKey: the deprecated label wins when present, even if empty
// (component-helpers topology.GetZoneKey reads it with a presence check).
TEST(NodeTreeTest, GetZoneKey) {
  EXPECT_EQ(GetZoneKey(AllNodes()[0]), "");
  EXPECT_EQ(GetZoneKey(AllNodes()[9]), Key("region-2", "zone-2"));
  EXPECT_EQ(GetZoneKey(st::MakeNode()
                           .Name("n")
                           .Label(kLabelFailureDomainBetaZone, "")
                           .Label(kLabelTopologyZone, "z")
                           .Label(kLabelTopologyRegion, "r")
                           .Obj()),
            Key("r", ""));
}

}  // namespace
}  // namespace SCHEDREF_CACHE_NS
