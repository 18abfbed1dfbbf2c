// The exec engine against small shell scripts standing in for external
// implementations: well-behaved, failing in each way the protocol names.
#include "conformance/exec_engine.h"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "api/types/scenario.h"

namespace schedref::conformance {
namespace {

using std::chrono::milliseconds;

constexpr char kHandshake[] =
    R"(read hello; echo '{"protocol":"schedref-conformance","version":1,)"
    R"("name":"fake","capabilities":{"unsupported":["preemption"]}}')";
constexpr char kEmptyTrace[] =
    R"(echo '{"format":"schedref-trace","kind":"header","version":1}'; )"
    R"(echo '{"kind":"placements","placements":{}}')";

std::string TempDir() {
  const char* dir = std::getenv("TEST_TMPDIR");
  return dir != nullptr ? dir : "/tmp";
}

// Writes `body` to a fresh script and returns the command that runs it.
std::string Script(const std::string& name, const std::string& body) {
  std::string path = TempDir() + "/" + name + "-" +
                     std::to_string(getpid()) + ".sh";
  std::ofstream(path) << body << "\n";
  return "sh " + path;
}

class ExecEngineTest : public ::testing::Test {
 protected:
  ScenarioInput Input() { return ScenarioInput{"s.yaml", "name: s\n", &scenario_}; }
  api::Scenario scenario_;
};

TEST_F(ExecEngineTest, HandshakesAndRunsScenarios) {
  std::string cmd = Script(
      "good", std::string(kHandshake) + "\nwhile read req; do " + kEmptyTrace +
                  "; done");
  StatusOr<std::unique_ptr<ExecEngine>> engine =
      ExecEngine::Start(cmd, milliseconds(10'000));
  ASSERT_TRUE(engine.ok()) << engine.status().message();
  EXPECT_EQ((*engine)->Name(), "fake");
  EXPECT_EQ((*engine)->Unsupported(), std::set<std::string>{"preemption"});
  for (int i = 0; i < 3; ++i) {
    StatusOr<api::Trace> trace = (*engine)->Run(Input());
    ASSERT_TRUE(trace.ok()) << trace.status().message();
    EXPECT_EQ(*trace, api::Trace{});
  }
}

TEST_F(ExecEngineTest, SendsTheRunRequest) {
  // The fake writes the request it got to a file, then answers.
  std::string seen = TempDir() + "/seen-" + std::to_string(getpid());
  std::string cmd = Script(
      "record", std::string(kHandshake) + "\nread -r req; printf '%s\\n' \"$req\" > " +
                    seen + "; " + kEmptyTrace + "; read eof");
  StatusOr<std::unique_ptr<ExecEngine>> engine =
      ExecEngine::Start(cmd, milliseconds(10'000));
  ASSERT_TRUE(engine.ok()) << engine.status().message();
  ASSERT_TRUE((*engine)->Run(Input()).ok());
  std::ifstream in(seen);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line,
            R"({"file":"s.yaml","kind":"run","options":{},"scenario":"name: s\n"})");
}

TEST_F(ExecEngineTest, AnErrorLineFailsTheScenarioOnly) {
  std::string cmd = Script(
      "error", std::string(kHandshake) +
                   "\nread req; echo '{\"kind\":\"error\",\"message\":\"boom\"}'"
                   "\nwhile read req; do " + kEmptyTrace + "; done");
  StatusOr<std::unique_ptr<ExecEngine>> engine =
      ExecEngine::Start(cmd, milliseconds(10'000));
  ASSERT_TRUE(engine.ok()) << engine.status().message();
  StatusOr<api::Trace> first = (*engine)->Run(Input());
  ASSERT_FALSE(first.ok());
  EXPECT_EQ(first.status().message(), "implementation error: boom");
  EXPECT_TRUE((*engine)->Run(Input()).ok());  // the same process goes on
}

TEST_F(ExecEngineTest, ATimeoutKillsAndTheNextScenarioRestarts) {
  // The first process hangs; its successor (a marker file says so) answers.
  std::string marker = TempDir() + "/hung-" + std::to_string(getpid());
  std::string cmd = Script(
      "hang", std::string(kHandshake) + "\nif [ -e " + marker +
                  " ]; then while read req; do " + kEmptyTrace +
                  "; done; else touch " + marker + "; sleep 60; fi");
  StatusOr<std::unique_ptr<ExecEngine>> engine =
      ExecEngine::Start(cmd, milliseconds(500));
  ASSERT_TRUE(engine.ok()) << engine.status().message();
  auto start = std::chrono::steady_clock::now();
  StatusOr<api::Trace> first = (*engine)->Run(Input());
  ASSERT_FALSE(first.ok());
  EXPECT_EQ(first.status().message(),
            "timed out after 0.5 s without a placements line (0 trace lines "
            "received); it was stopped and is restarted for the next "
            "scenario");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  StatusOr<api::Trace> second = (*engine)->Run(Input());
  EXPECT_TRUE(second.ok()) << second.status().message();
}

TEST_F(ExecEngineTest, AnImplementationThatExitsMidTrace) {
  std::string cmd = Script(
      "crash",
      std::string(kHandshake) +
          "\nread req; echo "
          "'{\"format\":\"schedref-trace\",\"kind\":\"header\",\"version\":1}'"
          "; exit 3");
  StatusOr<std::unique_ptr<ExecEngine>> engine =
      ExecEngine::Start(cmd, milliseconds(10'000));
  ASSERT_TRUE(engine.ok()) << engine.status().message();
  StatusOr<api::Trace> trace = (*engine)->Run(Input());
  ASSERT_FALSE(trace.ok());
  EXPECT_EQ(trace.status().message(),
            "the implementation exited with status 3 before the placements "
            "line (1 trace lines received); it was stopped and is restarted "
            "for the next scenario");
}

TEST_F(ExecEngineTest, ALineThatIsNotJsonIsAProtocolViolation) {
  std::string cmd = Script(
      "garbage", std::string(kHandshake) +
                     "\nread req; echo 'Loading model...'; sleep 60");
  StatusOr<std::unique_ptr<ExecEngine>> engine =
      ExecEngine::Start(cmd, milliseconds(10'000));
  ASSERT_TRUE(engine.ok()) << engine.status().message();
  StatusOr<api::Trace> trace = (*engine)->Run(Input());
  ASSERT_FALSE(trace.ok());
  EXPECT_EQ(trace.status().message(),
            "protocol violation: response line 1 is not a JSON object: "
            "Loading model...; it was stopped and is restarted for the next "
            "scenario");
}

TEST_F(ExecEngineTest, ATraceThatDoesNotDecode) {
  std::string cmd = Script(
      "badtrace",
      std::string(kHandshake) +
          "\nwhile read req; do echo "
          "'{\"format\":\"schedref-trace\",\"kind\":\"header\",\"version\":1}'"
          "; echo '{\"kind\":\"attempt\",\"colour\":\"red\"}'; echo "
          "'{\"kind\":\"placements\",\"placements\":{}}'; done");
  StatusOr<std::unique_ptr<ExecEngine>> engine =
      ExecEngine::Start(cmd, milliseconds(10'000));
  ASSERT_TRUE(engine.ok()) << engine.status().message();
  StatusOr<api::Trace> trace = (*engine)->Run(Input());
  ASSERT_FALSE(trace.ok());
  EXPECT_EQ(trace.status().message().rfind("fake output:2: ", 0), 0u)
      << trace.status().message();
}

TEST_F(ExecEngineTest, OutputAfterTheLastLineIsAProtocolViolation) {
  std::string cmd = Script(
      "chatty", std::string(kHandshake) + "\nwhile read req; do " +
                    kEmptyTrace + "; echo '{\"kind\":\"note\"}'; done");
  StatusOr<std::unique_ptr<ExecEngine>> engine =
      ExecEngine::Start(cmd, milliseconds(10'000));
  ASSERT_TRUE(engine.ok()) << engine.status().message();
  ASSERT_TRUE((*engine)->Run(Input()).ok());
  std::this_thread::sleep_for(milliseconds(200));  // the stray line arrives
  StatusOr<api::Trace> second = (*engine)->Run(Input());
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().message(),
            "protocol violation: output after the previous answer's last line "
            "({\"kind\":\"note\"}); it was stopped and is restarted for the "
            "next scenario");
}

TEST_F(ExecEngineTest, AnImplementationThatExitsAfterEachAnswerIsRestarted) {
  std::string cmd = Script(
      "oneshot", std::string(kHandshake) + "\nread req; " + kEmptyTrace);
  StatusOr<std::unique_ptr<ExecEngine>> engine =
      ExecEngine::Start(cmd, milliseconds(10'000));
  ASSERT_TRUE(engine.ok()) << engine.status().message();
  ASSERT_TRUE((*engine)->Run(Input()).ok());
  std::this_thread::sleep_for(milliseconds(200));  // it has exited
  StatusOr<api::Trace> second = (*engine)->Run(Input());
  EXPECT_TRUE(second.ok()) << second.status().message();
}

TEST_F(ExecEngineTest, StartFailures) {
  struct Case {
    std::string name, body, error;
  };
  const Case cases[] = {
      {"v2",
       "read hello; echo "
       "'{\"protocol\":\"schedref-conformance\",\"version\":2,\"name\":\"x\"}'",
       "--exec: implementation speaks protocol version 2; this runner speaks "
       "version 1"},
      {"silent-exit", "read hello; exit 4", ""},
      {"refuse",
       "read hello; echo '{\"kind\":\"error\",\"message\":\"too old\"}'",
       "--exec: implementation refused the handshake: too old"},
  };
  for (const Case& c : cases) {
    std::string cmd = Script(c.name, c.body);
    StatusOr<std::unique_ptr<ExecEngine>> engine =
        ExecEngine::Start(cmd, milliseconds(10'000));
    ASSERT_FALSE(engine.ok()) << c.name;
    std::string want =
        c.error.empty() ? "--exec: the implementation exited with status 4 "
                          "before answering the handshake (command: " +
                              cmd + ")"
                        : c.error;
    EXPECT_EQ(engine.status().message(), want) << c.name;
  }
}

TEST_F(ExecEngineTest, HandshakeTimeout) {
  StatusOr<std::unique_ptr<ExecEngine>> engine =
      ExecEngine::Start("sleep 60", milliseconds(300));
  ASSERT_FALSE(engine.ok());
  EXPECT_EQ(engine.status().message(),
            "--exec: no handshake answer within 0.3 s");
}

}  // namespace
}  // namespace schedref::conformance
