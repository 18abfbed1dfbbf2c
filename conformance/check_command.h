// `schedref check`: runs golden scenarios against one or more engines (the
// built-in implementations and/or an external command) and prints one line
// per scenario and the closing line "N passed, M failed, K skipped"; with
// `update`, regenerates expectedTrace from the reference instead. The
// command line itself is parsed in cmd/schedref/main.cc; this is everything
// after parsing. User documentation: docs/conformance.md.
#ifndef SCHEDREF_CONFORMANCE_CHECK_COMMAND_H_
#define SCHEDREF_CONFORMANCE_CHECK_COMMAND_H_

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "conformance/runner.h"

namespace schedref::conformance {

struct CheckCommandOptions {
  // Scenario files, or directories standing for every *.yaml under them
  // (in path order); empty: the directory golden/ under the current one.
  std::vector<std::string> files;
  // Scenarios held in memory, checked after `files`: (label, scenario
  // text with its expectedTrace). When some are given and `files` is
  // empty, golden/ is not checked.
  std::vector<std::pair<std::string, std::string>> texts;
  // Built-in implementations (conformance/implementations.h). Empty and no
  // `exec`: every built-in implementation.
  std::vector<std::string> impls;
  // An external implementation's command (docs/conformance-protocol.md);
  // empty: none.
  std::string exec;
  Mode mode = Mode::kStrict;
  // "json", "junit", "html" (view/check_page.h), or empty for no report;
  // written to report_file.
  std::string report_format;
  std::string report_file;
  // Regenerate expectedTrace with the reference (`impls` empty or
  // {"reference"}; any other implementation is a usage error) and print a
  // line diff of each changed trace.
  bool update = false;
  // Per scenario, for external implementations (and their handshake).
  double timeout_seconds = 60;
  // A run in which every scenario was skipped checked nothing and fails,
  // unless this is set.
  bool allow_skips = false;
};

// Exit codes, as cmd/schedref/main.cc documents them.
inline constexpr int kCheckPassed = 0;
inline constexpr int kCheckFailed = 1;  // a failed scenario, or bad input
inline constexpr int kCheckUsage = 2;   // options that do not go together

// Runs the command. Results go to `out`; warnings and errors (an external
// implementation that cannot start, an unwritable report) to `err`.
int RunCheckCommand(const CheckCommandOptions& options, std::ostream& out,
                    std::ostream& err);

}  // namespace schedref::conformance

#endif  // SCHEDREF_CONFORMANCE_CHECK_COMMAND_H_
