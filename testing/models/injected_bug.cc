#include "testing/models/injected_bug.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <ostream>
#include <regex>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "testing/models/faulty_queue.h"
#include "testing/models/queue_property.h"

namespace schedref::testing::models {

// How gtest prints a verdict (found by argument-dependent lookup, hence
// outside the unnamed namespace).
void PrintTo(QueuePropertyRun::Verdict v, std::ostream* os) {
  switch (v) {
    case QueuePropertyRun::Verdict::kPassed:
      *os << "passed";
      return;
    case QueuePropertyRun::Verdict::kFalsified:
      *os << "falsified";
      return;
    case QueuePropertyRun::Verdict::kGaveUp:
      *os << "gave up";
      return;
    case QueuePropertyRun::Verdict::kError:
      *os << "error";
      return;
  }
}

namespace {

using Verdict = QueuePropertyRun::Verdict;

constexpr uint64_t kSeed = 1;
// RapidCheck's default, as each implementation's model test runs.
constexpr int kCases = 100;
// The shortest trace that can show the bug has four commands: a pod must be
// added, popped and failed with rejectors to reach unschedulable (a gated
// pod is not moved by events, a failure without rejectors goes to backoffQ),
// then an event must move it. With kSeed the shrunk trace is exactly that
// (docs/fuzzing.md shows it); two more allow a change of generators or
// weights to find a slightly longer minimum without this test failing,
// while an unshrunk or barely shrunk trace, usually far longer, still fails
// it.
constexpr size_t kMinTrace = 4;
constexpr size_t kMaxTrace = 6;

}  // namespace

void ExpectPropertyCatchesPodLostOnMove(const QueueFactory& make) {
  {
  const QueuePropertyRun run =
      RunQueueProperty(WithPodDroppedOnMove(make), kSeed, kCases);
  ASSERT_EQ(run.verdict, Verdict::kFalsified) << run.report;
  EXPECT_GT(run.shrinks, 0) << run.report;
  EXPECT_GE(run.commands.size(), kMinTrace) << run.report;
  EXPECT_LE(run.commands.size(), kMaxTrace) << run.report;
  ASSERT_FALSE(run.commands.empty()) << run.report;
  // The shrunk trace, for the test log (docs/fuzzing.md quotes it).
  std::printf("%s\n", run.report.c_str());

  // The last command is the event that lost the pod, and the failure names
  // the broken invariant: a pod the trace added is absent from the queue
  // where the model has it in activeQ or backoffQ (harness: every pod in
  // exactly one place, the model's).
  const std::string& last = run.commands.back();
  EXPECT_NE(last.find(" event "), std::string::npos) << run.report;
  std::smatch m;
  const std::regex lost("after \"([^\"]*)\": (default/p[0-9]) is absent, "
                        "model: (activeQ|backoffQ)$");
  ASSERT_TRUE(std::regex_search(run.message, m, lost)) << run.report;
  EXPECT_EQ(m[1].str(), last) << run.report;
  const std::string added = "add pod " + m[2].str() + " ";
  EXPECT_NE(run.commands.front().find(added), std::string::npos) << run.report;

  // Deterministic: the same arguments give the same shrunk trace.
  const QueuePropertyRun again =
      RunQueueProperty(WithPodDroppedOnMove(make), kSeed, kCases);
  EXPECT_EQ(again.commands, run.commands);
  EXPECT_EQ(again.config, run.config);
  EXPECT_EQ(again.shrinks, run.shrinks);
}
  {
  const QueuePropertyRun run = RunQueueProperty(make, kSeed, kCases);
  EXPECT_EQ(run.verdict, Verdict::kPassed) << run.report;
  EXPECT_EQ(run.passed_cases, kCases) << run.report;
  }
}

}  // namespace schedref::testing::models
