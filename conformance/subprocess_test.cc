#include "conformance/subprocess.h"

#include <signal.h>
#include <sys/types.h>

#include <chrono>
#include <fstream>
#include <memory>
#include <string>
#include <thread>

#include <gtest/gtest.h>

namespace schedref::conformance {
namespace {

using Io = Subprocess::Io;
using Clock = Subprocess::Clock;
using std::chrono::milliseconds;
using std::chrono::seconds;

std::unique_ptr<Subprocess> MustStart(const std::string& command) {
  StatusOr<std::unique_ptr<Subprocess>> child = Subprocess::Start(command);
  EXPECT_TRUE(child.ok()) << child.status().message();
  return child.ok() ? std::move(*child) : nullptr;
}

Clock::time_point In(milliseconds d) { return Clock::now() + d; }

// Whether `pid` is gone (or a zombie nobody has reaped yet).
bool Gone(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  if (!stat) return true;
  std::string line;
  std::getline(stat, line);
  size_t paren = line.rfind(')');
  return paren != std::string::npos && paren + 2 < line.size() &&
         line[paren + 2] == 'Z';
}

TEST(SubprocessTest, EchoesLinesAndReportsACleanExit) {
  auto child = MustStart("cat");
  ASSERT_NE(child, nullptr);
  ASSERT_EQ(child->WriteLine("hello", In(seconds(10))), Io::kOk);
  ASSERT_EQ(child->WriteLine("world", In(seconds(10))), Io::kOk);
  std::string line;
  ASSERT_EQ(child->ReadLine(&line, In(seconds(10))), Io::kOk);
  EXPECT_EQ(line, "hello");
  ASSERT_EQ(child->ReadLine(&line, In(seconds(10))), Io::kOk);
  EXPECT_EQ(line, "world");
  EXPECT_EQ(child->Finish(In(seconds(10))), "exited with status 0");
}

TEST(SubprocessTest, ReturnsAnUnterminatedLastLineThenClosed) {
  auto child = MustStart("printf 'a\\nb'");
  ASSERT_NE(child, nullptr);
  std::string line;
  ASSERT_EQ(child->ReadLine(&line, In(seconds(10))), Io::kOk);
  EXPECT_EQ(line, "a");
  ASSERT_EQ(child->ReadLine(&line, In(seconds(10))), Io::kOk);
  EXPECT_EQ(line, "b");
  EXPECT_EQ(child->ReadLine(&line, In(seconds(10))), Io::kClosed);
}

TEST(SubprocessTest, ReportsExitStatus) {
  auto child = MustStart("exit 3");
  ASSERT_NE(child, nullptr);
  std::string line;
  EXPECT_EQ(child->ReadLine(&line, In(seconds(10))), Io::kClosed);
  EXPECT_EQ(child->Finish(In(seconds(10))), "exited with status 3");
}

TEST(SubprocessTest, AMissingCommandExitsWith127) {
  auto child = MustStart("schedref-no-such-command-for-this-test 2>/dev/null");
  ASSERT_NE(child, nullptr);
  std::string line;
  EXPECT_EQ(child->ReadLine(&line, In(seconds(10))), Io::kClosed);
  EXPECT_EQ(child->Finish(In(seconds(10))), "exited with status 127");
}

TEST(SubprocessTest, ReadTimesOutAndKillKillsTheChild) {
  auto child = MustStart("sleep 30");
  ASSERT_NE(child, nullptr);
  auto start = Clock::now();
  std::string line;
  EXPECT_EQ(child->ReadLine(&line, In(milliseconds(200))), Io::kTimeout);
  EXPECT_EQ(child->ExitDescription(), "running");
  EXPECT_EQ(child->Kill(), "killed by signal 9 (SIGKILL)");
  EXPECT_LT(Clock::now() - start, seconds(10));
}

TEST(SubprocessTest, KillReachesTheWholeProcessGroup) {
  // The shell starts a grandchild and tells us its pid.
  auto child = MustStart("sleep 30 & echo $!; wait");
  ASSERT_NE(child, nullptr);
  std::string line;
  ASSERT_EQ(child->ReadLine(&line, In(seconds(10))), Io::kOk);
  pid_t grandchild = static_cast<pid_t>(std::stol(line));
  ASSERT_FALSE(Gone(grandchild));
  child->Kill();
  auto deadline = In(seconds(5));
  while (!Gone(grandchild) && Clock::now() < deadline) {
    std::this_thread::sleep_for(milliseconds(10));
  }
  EXPECT_TRUE(Gone(grandchild));
}

TEST(SubprocessTest, WritingToAChildThatClosedItsInputIsClosedNotSigpipe) {
  auto child = MustStart("exec 0<&-; sleep 30");
  ASSERT_NE(child, nullptr);
  // Until the shell has closed its stdin the first writes may succeed.
  Io io = Io::kOk;
  auto deadline = In(seconds(10));
  const std::string big(1 << 16, 'x');
  while (io == Io::kOk && Clock::now() < deadline) {
    io = child->WriteLine(big, deadline);
  }
  EXPECT_EQ(io, Io::kClosed);
  child->Kill();
}

TEST(SubprocessTest, WriteTimesOutWhenTheChildDoesNotRead) {
  auto child = MustStart("sleep 30");
  ASSERT_NE(child, nullptr);
  const std::string big(4 << 20, 'x');  // more than any pipe buffer
  EXPECT_EQ(child->WriteLine(big, In(milliseconds(300))), Io::kTimeout);
  child->Kill();
}

TEST(SubprocessTest, AChildThatWritesBeforeReadingDoesNotDeadlock) {
  // The child writes 1 MiB before it reads anything; we write 4 MiB before
  // we read anything. Without draining while writing, both would block.
  auto child = MustStart("head -c 1048576 /dev/zero | tr '\\0' y; echo; cat");
  ASSERT_NE(child, nullptr);
  const std::string big(4 << 20, 'x');
  ASSERT_EQ(child->WriteLine(big, In(seconds(30))), Io::kOk);
  std::string line;
  ASSERT_EQ(child->ReadLine(&line, In(seconds(30))), Io::kOk);
  EXPECT_EQ(line, std::string(1 << 20, 'y'));
  ASSERT_EQ(child->ReadLine(&line, In(seconds(30))), Io::kOk);
  EXPECT_EQ(line, big);
  EXPECT_EQ(child->Finish(In(seconds(10))), "exited with status 0");
}

TEST(SubprocessTest, FinishKillsAChildThatIgnoresEndOfInput) {
  auto child = MustStart("sleep 30");
  ASSERT_NE(child, nullptr);
  auto start = Clock::now();
  EXPECT_EQ(child->Finish(In(milliseconds(200))),
            "killed by signal 9 (SIGKILL)");
  EXPECT_LT(Clock::now() - start, seconds(10));
}

}  // namespace
}  // namespace schedref::conformance
