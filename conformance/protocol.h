// The messages of the schedref-conformance protocol, version 1: how the
// runner talks to an external implementation over its stdin and stdout.
// Specification: docs/conformance-protocol.md. Pure functions over lines;
// the process side is conformance/exec_engine.h.
//
//   runner -> impl   {"protocol":"schedref-conformance","version":1}
//   impl -> runner   {"protocol":"schedref-conformance","version":1,
//                     "name":"...","capabilities":{"unsupported":[...]}}
//   then, per scenario:
//   runner -> impl   {"kind":"run","file":"...","scenario":"...","options":{...}}
//   impl -> runner   the trace, header line to placements line
//                    (docs/trace-format.md), or {"kind":"error","message":...}
#ifndef SCHEDREF_CONFORMANCE_PROTOCOL_H_
#define SCHEDREF_CONFORMANCE_PROTOCOL_H_

#include <set>
#include <string>
#include <string_view>

#include "api/status.h"

namespace schedref::conformance {

inline constexpr char kProtocolName[] = "schedref-conformance";
inline constexpr int kProtocolVersion = 1;

// The runner's first line.
[[nodiscard]] std::string HandshakeRequest();

// What the implementation said about itself.
struct Handshake {
  std::string name;
  // Feature tags (conformance/features.h) it does not support, as declared;
  // tags this runner does not know are kept (the caller warns about them).
  std::set<std::string> unsupported;
  friend bool operator==(const Handshake&, const Handshake&) = default;
};

// Parses the implementation's answer to the handshake.
// Errors (Invalid, the message says what is wrong):
//   - not a JSON object;
//   - {"kind":"error","message":M}: "implementation refused the handshake: M";
//   - protocol missing or not "schedref-conformance";
//   - version missing, not an integer, or not kProtocolVersion ("speaks
//     protocol version 2; this runner speaks version 1");
//   - name missing, empty or not a string;
//   - capabilities not an object, capabilities.unsupported not a list of
//     strings.
// Unknown keys are ignored, so later versions can add fields.
[[nodiscard]] StatusOr<Handshake> ParseHandshake(std::string_view line);

// The request for one scenario. `file` names it (for the implementation's
// messages); `scenario_text` is the scenario document without expectedTrace;
// `feasible_nodes` asks for each attempt's feasible nodes (options
// {"feasibleNodes":true}; otherwise options is {}).
[[nodiscard]] std::string RunRequest(const std::string& file,
                                     const std::string& scenario_text,
                                     bool feasible_nodes = false);

// What one line of an implementation's answer to a run request is.
struct ResponseLine {
  enum class Kind {
    kTrace,       // a trace line other than the last
    kPlacements,  // the placements line: the trace is complete
    kError,       // {"kind":"error","message":...}: the run failed
    kMalformed,   // not a JSON object: the stream cannot be trusted
  };
  Kind kind = Kind::kMalformed;
  // kError: the implementation's message; kMalformed: what is wrong.
  std::string message;
};
[[nodiscard]] ResponseLine ClassifyResponseLine(std::string_view line);

}  // namespace schedref::conformance

#endif  // SCHEDREF_CONFORMANCE_PROTOCOL_H_
