// WriteCounterexample on real inputs (hand-written and generated scenarios,
// one or two profiles, the reference's trace): the file it writes, where it
// writes it, and the line it returns for the user. The written file must be
// a golden as golden/README.md wants one: it decodes, carries a
// description, an upstream and the reference's trace as expectedTrace, and
// passes `schedref check --impl reference` (strict mode), run as the real
// command (argv[1]).
#include "testing/scenario_gen/counterexample.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "api/codec/scenario_decode.h"
#include "api/codec/scenario_encode.h"
#include "api/codec/trace_codec.h"
#include "api/scheduler.h"
#include "api/status.h"
#include "api/types/scenario.h"
#include "api/types/trace.h"
#include "gtest/gtest.h"
#include "reference/scheduler/scheduler.h"
#include "testing/scenario_gen/scenario_gen.h"

namespace schedref::testing::scenario_gen {
namespace {

namespace fs = std::filesystem;

const char* g_schedref = nullptr;  // argv[1]: the schedref binary

constexpr char kOutputsVar[] = "TEST_UNDECLARED_OUTPUTS_DIR";

// --- Fixtures
// -----------------------------------------------------------------

// One node, and one pod that fits on it.
constexpr char kBound[] = R"(schedref: scenario/v1
name: input
objects:
- apiVersion: v1
  kind: Node
  metadata: {name: n1}
  status: {allocatable: {cpu: "4", memory: 8Gi, pods: "10"}}
- apiVersion: v1
  kind: Pod
  metadata: {name: p1, namespace: default}
  spec: {containers: [{name: c, image: pause, resources: {requests: {cpu: "1"}}}]}
)";

// A pod too large for the one node, retried after a node event.
constexpr char kUnschedulable[] = R"(schedref: scenario/v1
name: input
seed: 3
objects:
- apiVersion: v1
  kind: Node
  metadata: {name: n1}
  status: {allocatable: {cpu: "2", memory: 8Gi, pods: "10"}}
- apiVersion: v1
  kind: Pod
  metadata: {name: big, namespace: default}
  spec: {containers: [{name: c, image: pause, resources: {requests: {cpu: "3"}}}]}
timeline:
- at: 5s
  create:
    apiVersion: v1
    kind: Node
    metadata: {name: n2}
    status: {allocatable: {cpu: "4", memory: 8Gi, pods: "10"}}
- at: 20s
  advance: {}
)";

api::Scenario Decoded(const char* text) {
  StatusOr<api::Scenario> s = api::DecodeScenario(text, "input.yaml");
  EXPECT_TRUE(s.ok()) << s.status().message();
  return s.ok() ? *s : api::Scenario{};
}

// A scenario of GenScenario, drawn outside a property from a fixed seed.
api::Scenario Generated(uint64_t seed, Options options = {}) {
  return GenScenario(options)(rc::Random(seed), 50).value();
}

// A reference that cannot run anything.
class FailingScheduler : public api::Scheduler {
 public:
  std::string Name() const override { return "failing"; }
  StatusOr<api::Trace> Run(const api::Scenario&, const api::RunOptions&) override {
    return Status::FailedPrecondition("cannot run this scenario");
  }
};

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<fs::path> FilesIn(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir)) files.push_back(entry.path());
  return files;
}

// A fresh empty directory under the test's temporary directory.
fs::path FreshDir(const std::string& name) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const fs::path dir = fs::path(tmp != nullptr ? tmp : "/tmp") / "counterexample_test" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// Sets (or, with nullopt, unsets) the outputs variable for one scope.
class OutputsDir {
 public:
  explicit OutputsDir(const std::optional<std::string>& value) {
    if (const char* old = std::getenv(kOutputsVar)) old_ = old;
    if (value) {
      setenv(kOutputsVar, value->c_str(), /*overwrite=*/1);
    } else {
      unsetenv(kOutputsVar);
    }
  }
  ~OutputsDir() {
    if (old_) {
      setenv(kOutputsVar, old_->c_str(), 1);
    } else {
      unsetenv(kOutputsVar);
    }
  }

 private:
  std::optional<std::string> old_;
};

struct CommandResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr
};

// `schedref check --impl reference <path>`, in strict mode (its default).
CommandResult CheckWithReference(const std::string& path) {
  const std::string command =
      std::string("'") + g_schedref + "' check --impl reference '" + path + "' 2>&1";
  CommandResult result;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) result.output.append(buffer, n);
  const int status = pclose(pipe);
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  return result;
}

// --- The written file
// ---------------------------------------------------------

struct FileCase {
  std::string name;
  api::Scenario scenario;
  Counterexample what;
};

TEST(WriteCounterexampleTest, WritesAGoldenThatPassesAStrictCheck) {
  api::Scenario two_profiles;
  for (uint64_t seed = 1; two_profiles.config.profiles.size() != 2; ++seed) {
    Options options;
    options.second_profile_percent = 100;
    two_profiles = Generated(seed, options);
  }
  const std::vector<FileCase> cases = {
      {"bound pod",
       Decoded(kBound),
       {"gen-bound-pod", "Found by a test of testing/scenario_gen: one pod bound.\n",
        kGeneratedUpstream}},
      {"unschedulable pod, a description that looks like YAML",
       Decoded(kUnschedulable),
       {"gen-unschedulable",
        "Found by a test:\nrecord 3:\n  base:    {\"kind\":\"attempt\",\"pod\":\"default/big\"}\n"
        "expectedTrace: |\n# not a comment: 'quoted' \"too\"\n",
        "pkg/scheduler/schedule_one.go ScheduleOne; fit.go Filter"}},
      {"generated", Generated(17), {"gen-generated", "Found by a generated case.\nwhy\n", "x"}},
      {"generated, two profiles",
       two_profiles,
       {"gen-two-profiles", "Found by a generated case with two profiles.\n", kGeneratedUpstream}},
  };
  for (const FileCase& c : cases) {
    SCOPED_TRACE(c.name);
    const fs::path dir = FreshDir(c.what.name);
    const OutputsDir env(dir.string());
    reference::ReferenceScheduler reference;
    const std::string message = WriteCounterexample(c.what, c.scenario, reference);

    // Where, and what the user is told.
    const fs::path path = dir / (c.what.name + ".yaml");
    EXPECT_EQ(message, "scenario written to " + path.string());
    ASSERT_EQ(FilesIn(dir), std::vector<fs::path>{path});

    // A golden: it decodes, with the metadata golden/README.md asks for.
    StatusOr<api::Scenario> golden = api::DecodeScenario(ReadFile(path), path.string());
    ASSERT_TRUE(golden.ok()) << golden.status().message();
    EXPECT_EQ(golden->name, c.what.name);
    EXPECT_EQ(golden->description, c.what.description);
    EXPECT_EQ(golden->upstream_test, c.what.upstream);
    EXPECT_FALSE(golden->upstream_test.empty());

    // Its expectedTrace is the reference's trace of the input.
    StatusOr<api::Trace> trace = reference::ReferenceScheduler().Run(c.scenario, {});
    ASSERT_TRUE(trace.ok()) << trace.status().message();
    ASSERT_FALSE(trace->records.empty());
    EXPECT_EQ(golden->expected_trace, api::EncodeTraceLines(*trace));

    // And it is the input scenario, nothing lost or added but the metadata.
    api::Scenario expected = c.scenario;
    expected.name = golden->name;
    expected.description = golden->description;
    expected.upstream_test = golden->upstream_test;
    expected.expected_trace = golden->expected_trace;
    expected.file = golden->file;
    EXPECT_TRUE(*golden == expected) << api::EncodeScenario(*golden);

    const CommandResult check = CheckWithReference(path.string());
    EXPECT_EQ(check.exit_code, 0) << check.output;
    EXPECT_NE(check.output.find("1 passed, 0 failed, 0 skipped"), std::string::npos)
        << check.output;
  }
}

// --- Where it goes, and what the user is told
// -----------------------------------------

struct PlaceCase {
  std::string name;
  // The outputs variable: unset, or its value ("<fresh>": a fresh directory).
  std::optional<std::string> outputs;
  bool reference_fails = false;
  std::string dir;      // where the file must be ("<fresh>" as above)
  std::string message;  // after "<path>" is replaced by the file's path
  bool written = true;
  bool has_trace = true;
};

TEST(WriteCounterexampleTest, WritesWhereItSaysAndSaysWhere) {
  const std::vector<PlaceCase> cases = {
      {"outputs dir", "<fresh>", false, "<fresh>", "scenario written to <path>"},
      {"no outputs dir: /tmp", std::nullopt, false, "/tmp", "scenario written to <path>"},
      {"empty outputs dir: /tmp", "", false, "/tmp", "scenario written to <path>"},
      {"outputs dir missing", "<fresh>/missing", false, "<fresh>/missing",
       "scenario not written: cannot write <path>", false, false},
      {"reference fails", "<fresh>", true, "<fresh>",
       "scenario written to <path> without expectedTrace: cannot run this scenario", true,
       false},
  };
  const api::Scenario scenario = Decoded(kBound);
  int i = 0;
  for (const PlaceCase& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string fresh = FreshDir("place" + std::to_string(i++)).string();
    auto expand = [&fresh](std::string s) {
      const size_t at = s.find("<fresh>");
      if (at != std::string::npos) s.replace(at, 7, fresh);
      return s;
    };
    // Unique, so that the /tmp cases neither meet another run's file nor
    // leave one behind.
    const std::string name = "gen-counterexample-test-" + std::to_string(getpid()) + "-" +
                             std::to_string(i);
    const std::optional<std::string> outputs =
        c.outputs ? std::optional<std::string>(expand(*c.outputs)) : std::nullopt;
    const OutputsDir env(outputs);
    const fs::path path = fs::path(expand(c.dir)) / (name + ".yaml");
    EXPECT_EQ(CounterexampleDir(), expand(c.dir));

    reference::ReferenceScheduler reference;
    FailingScheduler failing;
    api::Scheduler& ref = c.reference_fails ? static_cast<api::Scheduler&>(failing) : reference;
    const std::string message = WriteCounterexample(
        {name, "Found by counterexample_test, case " + c.name + ".\n", kGeneratedUpstream},
        scenario, ref);

    std::string want = c.message;
    want.replace(want.find("<path>"), 6, path.string());
    EXPECT_EQ(message, want);
    ASSERT_EQ(fs::exists(path), c.written);
    if (!c.written) continue;
    StatusOr<api::Scenario> golden = api::DecodeScenario(ReadFile(path), path.string());
    fs::remove(path);
    ASSERT_TRUE(golden.ok()) << golden.status().message();
    EXPECT_EQ(golden->name, name);
    EXPECT_EQ(golden->expected_trace.empty(), !c.has_trace);
  }
}

}  // namespace
}  // namespace schedref::testing::scenario_gen

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (argc != 2) {
    fprintf(stderr, "usage: %s [gtest flags] <path of the schedref binary>\n", argv[0]);
    return 2;
  }
  schedref::testing::scenario_gen::g_schedref = argv[1];
  return RUN_ALL_TESTS();
}
