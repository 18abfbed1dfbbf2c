// Machine-readable reports of a `schedref check` run: JSON for scripts and
// JUnit XML for CI systems. One entry per scenario and engine, with its
// outcome, time and message. Formats: docs/conformance.md, "Reports".
#ifndef SCHEDREF_CONFORMANCE_REPORT_H_
#define SCHEDREF_CONFORMANCE_REPORT_H_

#include <string>
#include <vector>

#include "conformance/runner.h"

namespace schedref::conformance {

// {"format":"schedref-check-report","version":1,"mode":"strict",
//  "summary":{"passed":N,"failed":M,"skipped":K},
//  "results":[{"implementation","file","scenario","outcome","seconds",
//              "message"}, ...]}
// outcome is "pass", "fail" or "skip"; message is the result line's message
// followed by the explanation lines (joined with "\n"), "" when there is
// none.
[[nodiscard]] std::string JsonReport(const std::vector<CheckResult>& results,
                                     Mode mode);

// <testsuites> with one <testsuite> per engine, one <testcase> per scenario
// (classname: the file's directory with "/" as "."; name: the file name),
// <failure message="..."> with the explanation as text, <skipped
// message="...">.
[[nodiscard]] std::string JunitReport(const std::vector<CheckResult>& results,
                                      Mode mode);

// The message and the explanation, as one text.
[[nodiscard]] std::string FullMessage(const CheckResult& result);

}  // namespace schedref::conformance

#endif  // SCHEDREF_CONFORMANCE_REPORT_H_
