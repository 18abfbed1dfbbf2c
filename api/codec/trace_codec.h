// The canonical text form of api::Trace: JSON lines, one record per line.
// Specification: docs/trace-format.md.
//
// Conformance compares traces line by line, so the encoding is canonical:
// for a given Trace there is exactly one text. Every implementation (ours or
// someone else's) writes this form; DecodeTrace reads it back and is the
// gate external traces pass through before they are compared.
//
//   line 1      {"format":"schedref-trace","kind":"header","version":1}
//   lines 2..n  one "attempt", "binding" or "note" record each, in order
//   then        {"kind":"placements","placements":{...}}
//   last lines  one "warning" each (api::Trace::warnings; usually none)
#ifndef SCHEDREF_API_TRACE_CODEC_H_
#define SCHEDREF_API_TRACE_CODEC_H_

#include <string>
#include <string_view>
#include <vector>

#include "api/status.h"
#include "api/types/trace.h"

namespace schedref::api {

// The "format" value of the header record.
inline constexpr char kTraceFormatName[] = "schedref-trace";

// The wire names of the outcomes ("scheduled", "bound", ...), listed in
// docs/trace-format.md: what the encoding writes and the decoding accepts.
[[nodiscard]] std::string_view OutcomeName(AttemptOutcome outcome);
[[nodiscard]] std::string_view OutcomeName(BindingOutcome outcome);
// A rejection's code as written ("Unschedulable", ...); "" for kNone.
[[nodiscard]] std::string_view CodeName(RejectionCode code);

// One canonical line per record, header first, then the records, the
// placements and the warnings, without line terminators.
// Strings must be UTF-8; invalid bytes are written as U+FFFD.
[[nodiscard]] std::vector<std::string> EncodeTraceLines(const Trace& trace);

// `lines` (a trace's, as EncodeTraceLines writes them) without the warning
// lines that end it: what conformance compares. Warnings say what schedref
// does not model; they are not decisions.
[[nodiscard]] std::vector<std::string> WithoutWarningLines(std::vector<std::string> lines);

// EncodeTraceLines joined with "\n", with a final "\n".
[[nodiscard]] std::string EncodeTrace(const Trace& trace);

// Parses a trace. `source` names the text in messages (a file name, or
// "<engine> output").
//
// Accepts any JSON whose records carry the documented fields (key order and
// whitespace inside a line are free; a final newline is optional), so that
// external traces can be decoded and re-encoded before comparison.
//
// Errors (Invalid), always "<source>:<line>: <problem>" or
// "<source>:<line>: <field.path>: <problem>":
//   - a line that is not a JSON object;
//   - a missing or malformed header, an unknown format or version;
//   - an unknown "kind", an unknown field, a field of the wrong type, a
//     missing required field, an outcome that is not one of OutcomeName's;
//   - a record other than a warning after the placements record, a warning
//     before it, or no placements record.
[[nodiscard]] StatusOr<Trace> DecodeTrace(std::string_view text,
                                          const std::string& source);

}  // namespace schedref::api

#endif  // SCHEDREF_API_TRACE_CODEC_H_
