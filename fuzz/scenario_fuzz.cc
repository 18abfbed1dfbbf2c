// Fuzz target for api/codec/scenario_decode.h: any bytes either decode to a
// scenario or fail with a Status (never a crash or a hang), and a decoded
// scenario survives EncodeScenario -> DecodeScenario unchanged.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "api/codec/scenario_decode.h"
#include "api/codec/scenario_encode.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  schedref::StatusOr<schedref::api::Scenario> scenario =
      schedref::api::DecodeScenario(text, "fuzz.yaml");
  if (!scenario.ok()) return 0;
  std::string encoded = schedref::api::EncodeScenario(*scenario);
  schedref::StatusOr<schedref::api::Scenario> again =
      schedref::api::DecodeScenario(encoded, "fuzz.yaml");
  if (!again.ok()) abort();
  // The source file name is not part of the encoding.
  again->file = scenario->file;
  if (!(*again == *scenario)) abort();
  return 0;
}
