#include "conformance/protocol.h"

#include <nlohmann/json.hpp>

namespace schedref::conformance {
namespace {

using Json = nlohmann::json;

// Compact JSON; invalid UTF-8 (a scenario file is user input) becomes
// U+FFFD instead of an exception.
std::string Dump(const Json& j) {
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// A short excerpt of a line for messages.
std::string Excerpt(std::string_view line) {
  constexpr size_t kMax = 120;
  if (line.size() <= kMax) return std::string(line);
  return std::string(line.substr(0, kMax)) + "...";
}

}  // namespace

std::string HandshakeRequest() {
  Json j = {{"protocol", kProtocolName}, {"version", kProtocolVersion}};
  return Dump(j);
}

StatusOr<Handshake> ParseHandshake(std::string_view line) {
  Json j = Json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    return Status::Invalid("handshake answer is not a JSON object: " +
                           Excerpt(line));
  }
  if (auto kind = j.find("kind"); kind != j.end() && *kind == "error") {
    auto message = j.find("message");
    return Status::Invalid(
        "implementation refused the handshake: " +
        (message != j.end() && message->is_string()
             ? message->get<std::string>()
             : std::string("(no message)")));
  }
  auto protocol = j.find("protocol");
  if (protocol == j.end() || !protocol->is_string() ||
      protocol->get<std::string>() != kProtocolName) {
    return Status::Invalid(std::string("handshake answer: protocol: want \"") +
                           kProtocolName + "\"");
  }
  auto version = j.find("version");
  if (version == j.end() || !version->is_number_integer()) {
    return Status::Invalid("handshake answer: version: missing or not an integer");
  }
  if (version->get<int64_t>() != kProtocolVersion) {
    return Status::Invalid(
        "implementation speaks protocol version " +
        std::to_string(version->get<int64_t>()) +
        "; this runner speaks version " + std::to_string(kProtocolVersion));
  }
  Handshake h;
  auto name = j.find("name");
  if (name == j.end() || !name->is_string() ||
      name->get<std::string>().empty()) {
    return Status::Invalid("handshake answer: name: missing or empty");
  }
  h.name = name->get<std::string>();
  if (auto caps = j.find("capabilities"); caps != j.end() && !caps->is_null()) {
    if (!caps->is_object()) {
      return Status::Invalid("handshake answer: capabilities: not an object");
    }
    if (auto unsup = caps->find("unsupported");
        unsup != caps->end() && !unsup->is_null()) {
      if (!unsup->is_array()) {
        return Status::Invalid(
            "handshake answer: capabilities.unsupported: not a list");
      }
      for (const Json& tag : *unsup) {
        if (!tag.is_string()) {
          return Status::Invalid(
              "handshake answer: capabilities.unsupported: not a list of "
              "strings");
        }
        h.unsupported.insert(tag.get<std::string>());
      }
    }
  }
  return h;
}

std::string RunRequest(const std::string& file,
                       const std::string& scenario_text, bool feasible_nodes) {
  Json options = Json::object();
  if (feasible_nodes) options["feasibleNodes"] = true;
  Json j = {{"kind", "run"},
            {"file", file},
            {"scenario", scenario_text},
            {"options", std::move(options)}};
  return Dump(j);
}

ResponseLine ClassifyResponseLine(std::string_view line) {
  Json j = Json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    return {ResponseLine::Kind::kMalformed,
            "not a JSON object: " + Excerpt(line)};
  }
  auto kind = j.find("kind");
  if (kind != j.end() && *kind == "error") {
    auto message = j.find("message");
    return {ResponseLine::Kind::kError,
            message != j.end() && message->is_string()
                ? message->get<std::string>()
                : std::string("(no message)")};
  }
  if (kind != j.end() && *kind == "placements") {
    return {ResponseLine::Kind::kPlacements, ""};
  }
  return {ResponseLine::Kind::kTrace, ""};
}

}  // namespace schedref::conformance
