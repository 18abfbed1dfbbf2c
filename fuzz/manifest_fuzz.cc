// Fuzz target for the manifest decoder (api/codec/decode.h, api/codec/manifest.h).
//
// Properties, for any input bytes:
//  - DecodeManifests returns (ok or an error) without crashing or throwing;
//  - whatever it decodes survives EncodeObject -> DecodeObject unchanged;
//  - and, when the decoded strings are valid UTF-8 (so that JSON text can
//    hold them), EncodeList -> JSON text -> DecodeManifests gives the same
//    Objects again.
// A violation aborts, which libFuzzer and the replay test report.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "api/codec/decode.h"
#include "api/codec/encode.h"
#include "api/types/objects.h"

namespace {

using schedref::api::AnyObject;
using schedref::api::Objects;

[[noreturn]] void Fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "manifest_fuzz: %s\n%s\n", what, detail.c_str());
  std::abort();
}

template <typename T>
void CheckObject(const T& object) {
  const nlohmann::json encoded = schedref::api::EncodeObject(AnyObject(object));
  auto decoded = schedref::api::DecodeObject(encoded, "encoded", 1);
  if (!decoded.ok()) Fail("encoded object does not decode", decoded.status().message());
  if (!(*decoded == AnyObject(object))) {
    Fail("object changed in a round trip",
         encoded.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto objects = schedref::api::DecodeManifests(text, "fuzz");
  if (!objects.ok()) return 0;

  for (const auto& o : objects->nodes) CheckObject(o);
  for (const auto& o : objects->pods) CheckObject(o);
  for (const auto& o : objects->pdbs) CheckObject(o);
  for (const auto& o : objects->priority_classes) CheckObject(o);
  for (const auto& o : objects->namespaces) CheckObject(o);

  std::string json_text;
  try {
    json_text = schedref::api::EncodeList(*objects).dump();
  } catch (const nlohmann::json::type_error&) {
    return 0;  // YAML let bytes through that JSON text cannot carry
  }
  auto again = schedref::api::DecodeManifests(json_text, "encoded.json");
  if (!again.ok()) Fail("encoded list does not decode", again.status().message());
  if (!(*again == *objects)) Fail("objects changed in a round trip", json_text);
  return 0;
}
