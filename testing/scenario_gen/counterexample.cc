#include "testing/scenario_gen/counterexample.h"

#include <cstdlib>
#include <fstream>

#include "api/codec/scenario_decode.h"
#include "api/codec/scenario_encode.h"
#include "api/codec/trace_codec.h"
#include "api/status.h"
#include "api/types/trace.h"

namespace schedref::testing::scenario_gen {

std::string CounterexampleDir() {
  const char* dir = std::getenv("TEST_UNDECLARED_OUTPUTS_DIR");
  return dir != nullptr && *dir != '\0' ? dir : "/tmp";
}

std::string WriteCounterexample(const Counterexample& what,
                                const api::Scenario& scenario,
                                api::Scheduler& reference) {
  api::Scenario golden = scenario;
  golden.name = what.name;
  golden.description = what.description;
  golden.upstream_test = what.upstream;
  golden.expected_trace.clear();
  const StatusOr<api::Trace> trace = reference.Run(scenario, {});
  if (trace.ok()) golden.expected_trace = api::EncodeTraceLines(*trace);
  const std::string path = CounterexampleDir() + "/" + what.name + ".yaml";
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << api::EncodeScenario(golden);
  out.close();
  if (!out) return "scenario not written: cannot write " + path;
  if (!trace.ok()) {
    return "scenario written to " + path +
           " without expectedTrace: " + trace.status().message();
  }
  return "scenario written to " + path;
}

}  // namespace schedref::testing::scenario_gen
