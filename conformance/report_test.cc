#include "conformance/report.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace schedref::conformance {
namespace {

std::vector<CheckResult> Results() {
  CheckResult pass;
  pass.path = "golden/a/ok.yaml";
  pass.scenario = "ok";
  pass.engine = "reference";
  pass.outcome = CheckResult::Outcome::kPass;
  pass.seconds = 0.0123;
  CheckResult fail;
  fail.path = "golden/a/bad.yaml";
  fail.scenario = "bad";
  fail.engine = "reference";
  fail.outcome = CheckResult::Outcome::kFail;
  fail.message = "node <a> & \"b\"";
  fail.details = {"  expected: x", "  actual:   y"};
  fail.seconds = 1.5;
  CheckResult skip;
  skip.path = "top.yaml";
  skip.scenario = "top";
  skip.engine = "mine";
  skip.outcome = CheckResult::Outcome::kSkip;
  skip.message = "needs unsupported feature preemption";
  return {pass, fail, skip};
}

TEST(ReportTest, Json) {
  EXPECT_EQ(JsonReport(Results(), Mode::kLegalChoice), R"({
  "format": "schedref-check-report",
  "mode": "legal-choice",
  "results": [
    {
      "file": "golden/a/ok.yaml",
      "implementation": "reference",
      "message": "",
      "outcome": "pass",
      "scenario": "ok",
      "seconds": 0.012
    },
    {
      "file": "golden/a/bad.yaml",
      "implementation": "reference",
      "message": "node <a> & \"b\"\n  expected: x\n  actual:   y",
      "outcome": "fail",
      "scenario": "bad",
      "seconds": 1.5
    },
    {
      "file": "top.yaml",
      "implementation": "mine",
      "message": "needs unsupported feature preemption",
      "outcome": "skip",
      "scenario": "top",
      "seconds": 0.0
    }
  ],
  "summary": {
    "failed": 1,
    "passed": 1,
    "skipped": 1
  },
  "version": 1
}
)");
}

TEST(ReportTest, Junit) {
  EXPECT_EQ(JunitReport(Results(), Mode::kStrict),
            R"xml(<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="schedref check (strict)" tests="3" failures="1" skipped="1" time="1.512">
  <testsuite name="reference" tests="2" failures="1" errors="0" skipped="0" time="1.512">
    <testcase classname="golden.a" name="ok.yaml" file="golden/a/ok.yaml" time="0.012"/>
    <testcase classname="golden.a" name="bad.yaml" file="golden/a/bad.yaml" time="1.500">
      <failure message="node &lt;a&gt; &amp; &quot;b&quot;">node &lt;a&gt; &amp; &quot;b&quot;
  expected: x
  actual:   y</failure>
    </testcase>
  </testsuite>
  <testsuite name="mine" tests="1" failures="0" errors="0" skipped="1" time="0.000">
    <testcase classname="" name="top.yaml" file="top.yaml" time="0.000">
      <skipped message="needs unsupported feature preemption"/>
    </testcase>
  </testsuite>
</testsuites>
)xml");
}

}  // namespace
}  // namespace schedref::conformance
