#include "conformance/runner.h"

#include <fstream>
#include <sstream>

#include "api/scenario_decode.h"
#include "api/trace_codec.h"

namespace schedref::conformance {

StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::NotFound(path + ": cannot open file");
  std::stringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

CheckResult CheckScenario(api::Scheduler& impl, const std::string& path) {
  CheckResult result;
  result.path = path;
  StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) {
    result.message = text.status().message();
    return result;
  }
  StatusOr<api::Scenario> scenario = api::DecodeScenario(*text, path);
  if (!scenario.ok()) {
    result.message = scenario.status().message();
    return result;
  }
  if (scenario->expected_trace.empty()) {
    result.outcome = CheckResult::Outcome::kSkip;
    result.message = "no expectedTrace";
    return result;
  }
  StatusOr<api::Trace> trace = impl.Run(*scenario, api::RunOptions{});
  if (!trace.ok()) {
    result.message = impl.Name() + ": " + trace.status().message();
    return result;
  }
  std::vector<std::string> got = api::EncodeTraceLines(*trace);
  const std::vector<std::string>& want = scenario->expected_trace;
  size_t i = 0;
  while (i < got.size() && i < want.size() && got[i] == want[i]) ++i;
  if (i == got.size() && i == want.size()) {
    result.outcome = CheckResult::Outcome::kPass;
    return result;
  }
  result.message = "first difference at trace line " + std::to_string(i + 1) +
                   "\n  expected: " + (i < want.size() ? want[i] : "<end>") +
                   "\n  actual:   " + (i < got.size() ? got[i] : "<end>");
  return result;
}

std::string WithExpectedTrace(const std::string& text,
                              const std::vector<std::string>& trace_lines) {
  std::string body = text;
  size_t pos = body.find("\nexpectedTrace:");
  if (pos != std::string::npos) body.resize(pos + 1);
  if (!body.empty() && body.back() != '\n') body += '\n';
  body += "expectedTrace: |\n";
  for (const std::string& line : trace_lines) body += "  " + line + "\n";
  return body;
}

}  // namespace schedref::conformance
