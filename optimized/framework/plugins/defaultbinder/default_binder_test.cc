#include "optimized/framework/plugins/defaultbinder/default_binder.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "optimized/framework/testing/fixtures.h"
#include "testing/st/wrappers.h"

namespace schedref::optimized::framework::plugins::defaultbinder {
namespace {

// The reference's table (upstream default_binder_test.go TestDefaultBinder):
// a successful bind posts ns/name to the node; a failing bind call is an
// Error status carrying the call's message.
TEST(DefaultBinderTest, Bind) {
  const PodInfoPtr pod =
      NewPodInfo(st::MakePod().Namespace("ns").Name("foo").UID("foo").Obj());
  struct Case {
    std::string name;
    std::optional<std::string> bind_error;
    Status want;
    std::vector<std::string> want_binds;
  };
  const std::vector<Case> cases = {
      {"successful", std::nullopt, Status::Success(),
       {"ns/foo -> foohost.kubernetes.mydomain.com"}},
      {"binding error", "binding error", Status::Error("binding error"), {}},
  };
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    testing::FakeHandle handle;
    handle.bind_error = tc.bind_error;
    auto plugin = DefaultBinder::New(nlohmann::json::object(), &handle);
    ASSERT_TRUE(plugin.ok());
    EXPECT_EQ((*plugin)->Name(), "DefaultBinder");
    auto* binder = dynamic_cast<BindPlugin*>(plugin->get());
    ASSERT_NE(binder, nullptr);
    CycleState state;
    EXPECT_EQ(binder->Bind(state, *pod, "foohost.kubernetes.mydomain.com"),
              tc.want);
    EXPECT_EQ(handle.binds, tc.want_binds);
  }
}

TEST(DefaultBinderTest, NeedsHandle) {
  auto plugin = DefaultBinder::New(nlohmann::json::object(), nullptr);
  ASSERT_FALSE(plugin.ok());
  EXPECT_TRUE(plugin.status().IsFailedPrecondition());
}

}  // namespace
}  // namespace schedref::optimized::framework::plugins::defaultbinder
