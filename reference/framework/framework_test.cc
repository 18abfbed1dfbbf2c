// Tests for Framework::New (placing the plugins ExpandPlugins lists, whose
// own table is api/config/plugin_expansion_test.cc) and the Run* rules. Cases
// adapted from upstream pkg/scheduler/framework/runtime/framework_test.go
// (TestNewFrameworkMultiPointExpansion, TestRunPreFilterPlugins,
// TestRunScorePlugins).
#include "reference/framework/framework.h"

#include "api/gocompat/go_duration.h"

#include <gtest/gtest.h>

namespace schedref::reference::framework {
namespace {

// A configurable fake implementing every extension point the test asks for.
class FakeQueueSort : public QueueSortPlugin {
 public:
  explicit FakeQueueSort(std::string name) : name_(std::move(name)) {}
  std::string Name() const override { return name_; }
  bool Less(const QueuedPodInfo&, const QueuedPodInfo&) const override {
    return false;
  }

 private:
  std::string name_;
};

class FakeFilterScore : public FilterPlugin,
                        public ScorePlugin,
                        public PreFilterPlugin {
 public:
  FakeFilterScore(std::string name, int64_t score, Status filter,
                  PreFilterOutput pre = {})
      : name_(std::move(name)),
        score_(score),
        filter_(std::move(filter)),
        pre_(std::move(pre)) {}
  std::string Name() const override { return name_; }
  PreFilterOutput PreFilter(CycleState&, const api::Pod&,
                            const std::vector<const NodeInfo*>&) override {
    return pre_;
  }
  Status Filter(CycleState&, const api::Pod&, const NodeInfo&) override {
    return filter_;
  }
  ScoreOutput Score(CycleState&, const api::Pod&, const NodeInfo&) override {
    return {score_, Status::Success()};
  }

 private:
  std::string name_;
  int64_t score_;
  Status filter_;
  PreFilterOutput pre_;
};

class FakeBind : public BindPlugin {
 public:
  explicit FakeBind(std::string name) : name_(std::move(name)) {}
  std::string Name() const override { return name_; }
  Status Bind(CycleState&, const api::Pod&, const std::string&) override {
    return Status::Success();
  }

 private:
  std::string name_;
};

Registry TestRegistry() {
  Registry r;
  auto add = [&r](const std::string& name, PluginFactory f) {
    EXPECT_TRUE(r.Register(name, std::move(f)).ok());
  };
  add("Sort", [](const nlohmann::json&, Handle*) -> StatusOr<std::unique_ptr<Plugin>> {
    return std::unique_ptr<Plugin>(new FakeQueueSort("Sort"));
  });
  add("Bind", [](const nlohmann::json&, Handle*) -> StatusOr<std::unique_ptr<Plugin>> {
    return std::unique_ptr<Plugin>(new FakeBind("Bind"));
  });
  for (const char* name : {"A", "B", "C"}) {
    std::string n = name;
    add(n, [n](const nlohmann::json&, Handle*) -> StatusOr<std::unique_ptr<Plugin>> {
      return std::unique_ptr<Plugin>(new FakeFilterScore(n, 10, Status::Success()));
    });
  }
  add("Renamed", [](const nlohmann::json&, Handle*) -> StatusOr<std::unique_ptr<Plugin>> {
    return std::unique_ptr<Plugin>(
        new FakeFilterScore("Other", 10, Status::Success()));
  });
  return r;
}

api::PluginSet Enabled(std::vector<api::PluginRef> refs) {
  api::PluginSet s;
  s.enabled = std::move(refs);
  return s;
}

api::Plugins Base() {
  api::Plugins p;
  p.queue_sort = Enabled({{"Sort", 0}});
  p.bind = Enabled({{"Bind", 0}});
  return p;
}

TEST(FrameworkNewTest, PlacesExpandedPlugins) {
  struct Case {
    std::string name;
    api::Plugins plugins;
    std::map<std::string, std::vector<std::string>> want_lists;
    std::map<std::string, int64_t> want_weights;
    std::string want_error;
  };
  std::vector<Case> cases;
  {
    // "plugin reconfigured in specific extension point" upstream case:
    // explicit entries first, then MultiPoint, then the rest.
    api::Plugins p = Base();
    p.multi_point = Enabled({{"A", 1}, {"B", 2}, {"C", 3}});
    p.filter = Enabled({{"C", 0}});
    p.score = Enabled({{"B", 5}});
    cases.push_back({"override order and weight", p,
                     {{"queueSort", {"Sort"}},
                      {"preFilter", {"A", "B", "C"}},
                      {"filter", {"C", "A", "B"}},
                      {"score", {"B", "A", "C"}},
                      {"bind", {"Bind"}}},
                     {{"A", 1}, {"B", 5}, {"C", 3}}, ""});
  }
  {
    api::Plugins p = Base();
    p.filter = Enabled({{"Nope", 0}});
    cases.push_back({"configuration errors are ExpandPlugins'", p, {}, {},
                     "FilterPlugin \"Nope\" does not exist"});
  }
  {
    // Registered as "Renamed", but its Name() is "Other": upstream looks
    // the weight up under Name().
    api::Plugins p = Base();
    p.score = Enabled({{"Renamed", 2}});
    cases.push_back({"weight looked up under the plugin's Name()", p, {}, {},
                     "score plugin \"Other\" is not configured with weight"});
  }
  Registry registry = TestRegistry();
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    api::Profile profile;
    StatusOr<std::unique_ptr<Framework>> f =
        Framework::New(registry, profile, c.plugins, nullptr);
    if (!c.want_error.empty()) {
      ASSERT_FALSE(f.ok());
      EXPECT_EQ(f.status().message(), c.want_error);
      continue;
    }
    ASSERT_TRUE(f.ok()) << f.status().message();
    EXPECT_EQ((*f)->ListPlugins(), c.want_lists);
    for (const auto& [name, weight] : c.want_weights) {
      EXPECT_EQ((*f)->ScoreWeight(name), weight) << name;
    }
  }
}

TEST(FrameworkRunTest, PreFilterResultIntersectionAndMessages) {
  Registry r;
  auto pre = [](std::set<std::string> nodes) {
    return PreFilterOutput{PreFilterResult(std::move(nodes)), Status()};
  };
  ASSERT_TRUE(r.Register("Sort", [](const nlohmann::json&, Handle*)
                                     -> StatusOr<std::unique_ptr<Plugin>> {
                 return std::unique_ptr<Plugin>(new FakeQueueSort("Sort"));
               }).ok());
  ASSERT_TRUE(r.Register("Bind", [](const nlohmann::json&, Handle*)
                                     -> StatusOr<std::unique_ptr<Plugin>> {
                 return std::unique_ptr<Plugin>(new FakeBind("Bind"));
               }).ok());
  ASSERT_TRUE(r.Register("P1", [&](const nlohmann::json&, Handle*)
                                   -> StatusOr<std::unique_ptr<Plugin>> {
                 return std::unique_ptr<Plugin>(new FakeFilterScore(
                     "P1", 0, Status(), pre({"n1", "n2"})));
               }).ok());
  ASSERT_TRUE(r.Register("P2", [&](const nlohmann::json&, Handle*)
                                   -> StatusOr<std::unique_ptr<Plugin>> {
                 return std::unique_ptr<Plugin>(new FakeFilterScore(
                     "P2", 0, Status(), pre({"n3"})));
               }).ok());
  api::Plugins p = Base();
  p.pre_filter = Enabled({{"P1", 0}, {"P2", 0}});
  StatusOr<std::unique_ptr<Framework>> f =
      Framework::New(r, api::Profile{}, p, nullptr);
  ASSERT_TRUE(f.ok()) << f.status().message();
  CycleState state;
  std::set<std::string> with_nodes;
  PreFilterOutput out =
      (*f)->RunPreFilterPlugins(state, api::Pod{}, {}, &with_nodes);
  EXPECT_EQ(out.status.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(out.status.Message(),
            "node(s) didn't satisfy plugin(s) [P1 P2] simultaneously");
  EXPECT_EQ(with_nodes, (std::set<std::string>{"P1", "P2"}));
}

TEST(FormatGoDurationTest, MatchesGo) {
  EXPECT_EQ(api::FormatDurationMs(0), "0s");
  EXPECT_EQ(api::FormatDurationMs(500), "500ms");
  EXPECT_EQ(api::FormatDurationMs(1500), "1.5s");
  EXPECT_EQ(api::FormatDurationMs(10000), "10s");
  EXPECT_EQ(api::FormatDurationMs(60000), "1m0s");
  EXPECT_EQ(api::FormatDurationMs(900000), "15m0s");
  EXPECT_EQ(api::FormatDurationMs(3723001), "1h2m3.001s");
}

}  // namespace
}  // namespace schedref::reference::framework
