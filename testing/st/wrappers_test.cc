#include "testing/st/wrappers.h"

#include <gtest/gtest.h>

namespace schedref::st {
namespace {

TEST(PodWrapperTest, FillsDecoderDefaults) {
  api::Pod p = MakePod().Name("p").Obj();
  EXPECT_EQ(p.ns, "default");
  EXPECT_EQ(p.uid, "default/p");
  EXPECT_EQ(p.scheduler_name, "default-scheduler");
  EXPECT_EQ(MakePod().Namespace("ns").Name("p").UID("u").Obj().uid, "u");
}

TEST(PodWrapperTest, RequestsAreParsedQuantities) {
  api::Pod p = MakePod()
                   .Req({{"cpu", "100m"}, {"memory", "1Gi"}})
                   .Req({{"cpu", "2"}})
                   .InitReq({{"cpu", "1.5"}})
                   .SidecarReq({{"memory", "1Ki"}})
                   .Overhead({{"cpu", "10m"}})
                   .Obj();
  ASSERT_EQ(p.containers.size(), 2u);
  EXPECT_EQ(p.containers[0].name, "con0");
  EXPECT_EQ(p.containers[0].requests.at("cpu"), 100);
  EXPECT_EQ(p.containers[0].requests.at("memory"), int64_t{1} << 30);
  EXPECT_EQ(p.containers[1].name, "con1");
  EXPECT_EQ(p.containers[1].requests.at("cpu"), 2000);
  ASSERT_EQ(p.init_containers.size(), 2u);
  EXPECT_EQ(p.init_containers[0].requests.at("cpu"), 1500);
  EXPECT_EQ(p.init_containers[0].restart_policy, "");
  EXPECT_EQ(p.init_containers[1].restart_policy, "Always");
  EXPECT_EQ(p.overhead.at("cpu"), 10);
}

TEST(PodWrapperTest, NodeAffinityGoesIntoEveryRequiredTerm) {
  api::Pod p = MakePod()
                   .NodeAffinityIn("zone", {"a", "b"})
                   .NodeAffinityNotIn("metadata.name", {"n1"},
                                      NodeSelectorType::kMatchFields)
                   .Obj();
  const api::NodeSelector& sel = *p.affinity->node_affinity->required;
  ASSERT_EQ(sel.terms.size(), 1u);
  EXPECT_EQ(sel.terms[0].match_expressions[0].op, "In");
  EXPECT_EQ(sel.terms[0].match_fields[0].op, "NotIn");
}

TEST(NodeWrapperTest, CapacitySetsAllocatable) {
  api::Node n = MakeNode()
                    .Name("n")
                    .Capacity({{"cpu", "4"}, {"pods", "110"}})
                    .Images({{"img", 10}})
                    .Obj();
  EXPECT_EQ(n.allocatable.at("cpu"), 4000);
  EXPECT_EQ(n.allocatable.at("pods"), 110);
  EXPECT_EQ(n.capacity, n.allocatable);
  EXPECT_EQ(MakeNode().Capacity({{"cpu", "1"}}).Obj().allocatable.at("pods"),
            32);
  ASSERT_EQ(n.images.size(), 1u);
  EXPECT_EQ(n.images[0].names[0], "img");
}

}  // namespace
}  // namespace schedref::st
