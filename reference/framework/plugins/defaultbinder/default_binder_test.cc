#include "reference/framework/plugins/defaultbinder/default_binder.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "reference/framework/testing/fake_handle.h"
#include "reference/framework/testing/wrappers.h"

namespace schedref::reference::framework::plugins::defaultbinder {
namespace {

// Transcribed from upstream default_binder_test.go TestDefaultBinder: a
// successful bind posts ns/name to the node; an injected "binding error" is
// returned as an Error status with that message.
TEST(DefaultBinderTest, UpstreamDefaultBinder) {
  const api::Pod pod =
      st::MakePod().Namespace("ns").Name("foo").UID("foo").Obj();
  struct Case {
    std::string name;
    bool inject_err;
    Status want;
  };
  for (const Case& tc :
       {Case{"successful", false, Status::Success()},
        Case{"binding error", true, Status::Error("binding error")}}) {
    SCOPED_TRACE(tc.name);
    st::FakeHandle handle;
    handle.bind_error = "binding error";
    if (tc.inject_err) handle.fail_binding.insert("ns/foo");
    auto plugin = DefaultBinder::New(nlohmann::json::object(), &handle);
    ASSERT_TRUE(plugin.ok());
    auto* binder = dynamic_cast<BindPlugin*>(plugin->get());
    ASSERT_NE(binder, nullptr);
    CycleState state;
    EXPECT_EQ(binder->Bind(state, pod, "foohost.kubernetes.mydomain.com"),
              tc.want);
    EXPECT_EQ(handle.bind_calls,
              (std::vector<std::pair<std::string, std::string>>{
                  {"ns/foo", "foohost.kubernetes.mydomain.com"}}));
  }
}

TEST(DefaultBinderTest, NeedsHandle) {
  EXPECT_FALSE(DefaultBinder::New(nlohmann::json::object(), nullptr).ok());
}

}  // namespace
}  // namespace schedref::reference::framework::plugins::defaultbinder
