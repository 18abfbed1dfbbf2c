#include "reference/framework/plugins/registry.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "reference/framework/testing/fake_handle.h"

namespace schedref::reference::framework::plugins {
namespace {

const std::vector<std::string> kInTree = {
    "PrioritySort",     "SchedulingGates", "NodeUnschedulable",
    "NodeName",         "TaintToleration", "NodeAffinity",
    "NodePorts",        "NodeResourcesFit", "NodeResourcesBalancedAllocation",
    "ImageLocality",    "DefaultBinder"};

TEST(RegistryTest, EveryInTreePluginBuildsWithDefaultArgsAndKnowsItsName) {
  Registry registry = NewInTreeRegistry();
  st::FakeHandle handle;
  for (const std::string& name : kInTree) {
    SCOPED_TRACE(name);
    const PluginFactory* factory = registry.Find(name);
    ASSERT_NE(factory, nullptr);
    auto plugin = (*factory)(nlohmann::json::object(), &handle);
    ASSERT_TRUE(plugin.ok()) << plugin.status().message();
    EXPECT_EQ((*plugin)->Name(), name);
  }
  EXPECT_EQ(registry.Find("TestPermit"), nullptr);
}

TEST(RegistryTest, ArgsErrorsComeFromTheFactory) {
  Registry registry = NewInTreeRegistry();
  st::FakeHandle handle;
  auto fit = (*registry.Find("NodeResourcesFit"))(
      nlohmann::json::parse(R"({"scoringStrategy": {"type": "Foo"}})"), &handle);
  ASSERT_FALSE(fit.ok());
  EXPECT_TRUE(fit.status().IsInvalid());
  auto balanced = (*registry.Find("NodeResourcesBalancedAllocation"))(
      nlohmann::json::parse(R"({"resources": [{"name": "cpu", "weight": 2}]})"),
      &handle);
  EXPECT_FALSE(balanced.ok());
  auto affinity = (*registry.Find("NodeAffinity"))(
      nlohmann::json::parse(R"({"addedAffinity": {"foo": 1}})"), &handle);
  EXPECT_FALSE(affinity.ok());
}

TEST(RegistryTest, TestPlugins) {
  Registry registry = NewInTreeRegistry();
  ASSERT_TRUE(RegisterTestPlugins(&registry).ok());
  st::FakeHandle handle;
  for (const std::string name :
       {"TestPermit", "TestReserve", "TestPreBind", "TestBind"}) {
    SCOPED_TRACE(name);
    const PluginFactory* factory = registry.Find(name);
    ASSERT_NE(factory, nullptr);
    auto plugin = (*factory)(nlohmann::json::object(), &handle);
    ASSERT_TRUE(plugin.ok());
    EXPECT_EQ((*plugin)->Name(), name);
  }
  // Registering twice fails.
  EXPECT_FALSE(RegisterTestPlugins(&registry).ok());
}

}  // namespace
}  // namespace schedref::reference::framework::plugins
