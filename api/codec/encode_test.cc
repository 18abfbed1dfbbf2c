#include "api/codec/encode.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "api/codec/decode.h"
#include "api/types/objects.h"

namespace schedref::api {
namespace {

using nlohmann::json;

TEST(EncodeObjectTest, NodeShape) {
  Node node;
  node.name = "n1";
  node.labels = {{"zone", "a"}};
  node.capacity = {{"cpu", 4000}, {"memory", 1024}};
  node.allocatable = {{"cpu", 3500}, {"memory", 1000}};
  node.taints = {{"k", "", "NoSchedule"}};
  EXPECT_EQ(EncodeObject(node), json::parse(R"({
    "apiVersion": "v1", "kind": "Node",
    "metadata": {"name": "n1", "labels": {"zone": "a"}},
    "spec": {"taints": [{"key": "k", "effect": "NoSchedule"}]},
    "status": {"capacity": {"cpu": "4000m", "memory": "1024"},
               "allocatable": {"cpu": "3500m", "memory": "1000"}}
  })"));
}

TEST(EncodeObjectTest, PodShape) {
  Pod pod;
  pod.ns = "ns";
  pod.name = "p";
  pod.uid = "ns/p";
  pod.scheduler_name = "default-scheduler";
  pod.creation_timestamp = 1714557625000;
  pod.priority = 7;
  Container c;
  c.name = "c";
  c.requests = {{"cpu", 250}};
  c.ports = {{80, 0, "TCP", ""}};
  pod.containers = {c};
  pod.tolerations = {{"", "Exists", "", "", std::nullopt}};
  pod.nominated_node_name = "n1";
  EXPECT_EQ(EncodeObject(pod), json::parse(R"({
    "apiVersion": "v1", "kind": "Pod",
    "metadata": {"name": "p", "namespace": "ns", "uid": "ns/p",
                 "creationTimestamp": "2024-05-01T10:00:25Z"},
    "spec": {"schedulerName": "default-scheduler", "priority": 7,
             "containers": [{"name": "c",
                             "resources": {"requests": {"cpu": "250m"}},
                             "ports": [{"containerPort": 80, "protocol": "TCP"}]}],
             "tolerations": [{"operator": "Exists"}]},
    "status": {"nominatedNodeName": "n1"}
  })"));
}

TEST(EncodeObjectTest, OtherKindsRoundTrip) {
  const std::vector<AnyObject> objects = {
      PodDisruptionBudget{"ns", "pdb", LabelSelector{{{"a", "b"}}, {}}, 2,
                          {"p1", "p2"}},
      PodDisruptionBudget{"ns", "no-selector", std::nullopt, 0, {}},
      PriorityClass{"high", 1000000, true, "Never"},
      PriorityClass{"low", -5, false, std::nullopt},
      Namespace{"ns", {{"kubernetes.io/metadata.name", "ns"}, {"team", "x"}}},
  };
  for (const AnyObject& o : objects) {
    StatusOr<AnyObject> back = DecodeObject(EncodeObject(o), "encoded", 1);
    ASSERT_TRUE(back.ok()) << back.status().message();
    EXPECT_EQ(*back, o) << EncodeObject(o).dump();
  }
}

TEST(EncodeListTest, DecodesToTheSameObjects) {
  Objects objects;
  objects.namespaces = {{"ns", {{"kubernetes.io/metadata.name", "ns"}}}};
  objects.nodes = {Node{"n1", "", {}, {{"pods", 10}}, {{"pods", 10}}, {}, true, {}}};
  Pod pod;
  pod.ns = "ns";
  pod.name = "p";
  pod.uid = "u";
  pod.scheduler_name = "s";
  Container c;
  c.name = "c";
  pod.containers = {c};
  objects.pods = {pod};
  StatusOr<Objects> back = DecodeManifests(EncodeList(objects).dump(), "list.json");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(*back, objects);
}

}  // namespace
}  // namespace schedref::api
