#include "api/codec/trace_codec.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

#include "api/codec/manifest.h"

namespace schedref::api {
namespace {

using nlohmann::json;

// --- Outcome names
// -------------------------------------------------------------------

// Each enumerator once, with its wire name: OutcomeName reads it one way,
// the decoder the other.
constexpr std::pair<AttemptOutcome, std::string_view> kAttemptOutcomeNames[] = {
    {AttemptOutcome::kScheduled, "scheduled"},
    {AttemptOutcome::kUnschedulable, "unschedulable"},
    {AttemptOutcome::kError, "error"},
    {AttemptOutcome::kSkipped, "skipped"},
    {AttemptOutcome::kWaiting, "waiting"},
};
constexpr std::pair<BindingOutcome, std::string_view> kBindingOutcomeNames[] = {
    {BindingOutcome::kBound, "bound"},
    {BindingOutcome::kFailed, "failed"},
    {BindingOutcome::kRejected, "rejected"},
};
// kNone has no wire name: the empty rejection is written without a code.
constexpr std::pair<RejectionCode, std::string_view> kRejectionCodeNames[] = {
    {RejectionCode::kError, "Error"},
    {RejectionCode::kUnschedulable, "Unschedulable"},
    {RejectionCode::kUnschedulableAndUnresolvable, "UnschedulableAndUnresolvable"},
    {RejectionCode::kPending, "Pending"},
};

template <typename E, size_t N>
std::string_view NameIn(const std::pair<E, std::string_view> (&table)[N], E value) {
  for (const auto& [e, name] : table) {
    if (e == value) return name;
  }
  // Only a value outside the enum (a cast) gets here.
  assert(false && "enumerator without a wire name");
  return "";
}

// Reads the string field `key` into `out`, which must be one of the
// table's names; an absent field is an error unless `absent` is given,
// which it then means. `what` names the field's kind in the error.
template <typename E, size_t N>
Status DecodeName(const FieldReader& r, std::string_view key,
                  const std::pair<E, std::string_view> (&table)[N], E* out,
                  std::string_view what = "outcome", std::optional<E> absent = std::nullopt) {
  StatusOr<FieldReader> f = r.Field(key);
  if (!f.ok()) return f.status();
  if (!f->present()) {
    if (!absent) return f->Error("required field is missing");
    *out = *absent;
    return Status::Ok();
  }
  std::string name;
  SCHEDREF_RETURN_IF_ERROR(f->AsString(&name));
  std::string known;
  for (const auto& [e, n] : table) {
    if (n == name) {
      *out = e;
      return Status::Ok();
    }
    known += known.empty() ? "" : ", ";
    known += n;
  }
  return f->Error("unknown " + std::string(what) + " \"" + name + "\" (want one of " + known + ")");
}

// --- Encoding
// -------------------------------------------------------------------

// The canonical rule: an empty string, map or list is written as nothing.
void PutString(json& out, const char* key, const std::string& value) {
  if (!value.empty()) out[key] = value;
}
void PutStrings(json& out, const char* key,
                const std::vector<std::string>& values) {
  if (!values.empty()) out[key] = values;
}
void PutObject(json& out, const char* key, json value) {
  if (!value.empty()) out[key] = std::move(value);
}

json EncodeRejection(const NodeRejection& r) {
  json out = json::object();
  PutString(out, "plugin", r.plugin());
  if (r.code() != RejectionCode::kNone) {
    out["code"] = std::string(NameIn(kRejectionCodeNames, r.code()));
  }
  PutStrings(out, "reasons", r.reasons());
  return out;
}

json EncodeDetail(const NodeDetail& d) {
  json out = json::object();
  json filter = json::object();
  for (const auto& [plugin, status] : d.filter) filter[plugin] = status;
  PutObject(out, "filter", std::move(filter));
  json scores = json::object();
  for (const auto& [plugin, s] : d.scores) {
    scores[plugin] = {
        {"raw", s.raw}, {"normalized", s.normalized}, {"weighted", s.weighted}};
  }
  PutObject(out, "scores", std::move(scores));
  return out;
}

json EncodeAttempt(const Attempt& a) {
  // t, cycle, pod, outcome, evaluated and feasible are always written: they
  // are what every reader of an attempt looks at first.
  json out = {{"kind", "attempt"},     {"t", a.at},
              {"cycle", a.cycle},      {"pod", a.pod},
              {"outcome", std::string(OutcomeName(a.outcome))},
              {"evaluated", a.evaluated},
              {"feasible", a.feasible}};
  PutString(out, "profile", a.profile);
  PutString(out, "node", a.node);
  PutStrings(out, "feasibleNodes", a.feasible_nodes);
  json rejections = json::object();
  for (const auto& [node, r] : a.rejections) {
    rejections[node] = EncodeRejection(r);
  }
  PutObject(out, "rejections", std::move(rejections));
  if (!a.top_scores.empty()) {
    json top = json::array();
    for (const NodeScore& s : a.top_scores) {
      json entry = {{"score", s.score}};
      PutString(entry, "node", s.node);
      top.push_back(std::move(entry));
    }
    out["topScores"] = std::move(top);
  }
  PutString(out, "message", a.message);
  if (a.preemption.has_value()) {
    // Present but empty ({}) still says "PostFilter ran and found nothing".
    json p = json::object();
    PutString(p, "nominatedNode", a.preemption->nominated_node);
    PutStrings(p, "victims", a.preemption->victims);
    if (!a.preemption->candidates.empty()) {
      json candidates = json::array();
      for (const PreemptionCandidate& c : a.preemption->candidates) {
        json entry = {{"pdbViolations", c.pdb_violations}};
        PutString(entry, "node", c.node);
        PutStrings(entry, "victims", c.victims);
        candidates.push_back(std::move(entry));
      }
      p["candidates"] = std::move(candidates);
    }
    out["preemption"] = std::move(p);
  }
  if (!a.pre_filter.empty()) {
    json pre = json::array();
    for (const PreFilterVerdict& v : a.pre_filter) {
      pre.push_back({{"plugin", v.plugin}, {"status", v.status}});
    }
    out["preFilter"] = std::move(pre);
  }
  json detail = json::object();
  for (const auto& [node, d] : a.detail) detail[node] = EncodeDetail(d);
  PutObject(out, "detail", std::move(detail));
  return out;
}

json EncodeBinding(const Binding& b) {
  json out = {{"kind", "binding"}, {"t", b.at}, {"cycle", b.cycle}};
  PutString(out, "pod", b.pod);
  PutString(out, "node", b.node);
  out["outcome"] = std::string(OutcomeName(b.outcome));
  PutString(out, "message", b.message);
  return out;
}

json EncodeNote(const Note& n) {
  json out = {{"kind", "note"}, {"t", n.at}};
  PutString(out, "what", n.what);
  PutString(out, "pod", n.pod);
  PutString(out, "message", n.message);
  return out;
}

json EncodeWarning(const Warning& w) {
  json out = {{"kind", "warning"}};
  PutString(out, "pod", w.pod);
  PutString(out, "feature", w.feature);
  PutString(out, "message", w.message);
  return out;
}

// Compact, keys sorted (nlohmann's object is a std::map), non-ASCII kept
// as UTF-8; invalid UTF-8 is replaced rather than thrown on.
std::string Dump(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

// --- Decoding
// -------------------------------------------------------------------

// Fails on the first key of `r` that is not in `known`. Traces are
// machine-written, so an unknown key is a bug in the writer (or a newer
// format), never something to skip silently.
Status CheckKnownFields(const FieldReader& r,
                        std::initializer_list<std::string_view> known) {
  if (!r.present() || !r.json().is_object()) return Status::Ok();
  for (auto it = r.json().begin(); it != r.json().end(); ++it) {
    if (std::find(known.begin(), known.end(), it.key()) != known.end()) {
      continue;
    }
    StatusOr<FieldReader> field = r.Field(it.key());
    if (!field.ok()) return field.status();
    return field->Error("unknown field");
  }
  return Status::Ok();
}

// A string that must be present but may be empty (the encoder always
// writes it, even when empty).
Status PresentString(const FieldReader& r, std::string_view key,
                     std::string* out) {
  StatusOr<FieldReader> f = r.Field(key);
  if (!f.ok()) return f.status();
  if (!f->present()) return f->Error("required field is missing");
  return f->AsString(out);
}

StatusOr<NodeRejection> DecodeRejection(const FieldReader& r) {
  SCHEDREF_RETURN_IF_ERROR(r.ExpectObject());
  SCHEDREF_RETURN_IF_ERROR(CheckKnownFields(r, {"plugin", "code", "reasons"}));
  std::string plugin;
  RejectionCode code = RejectionCode::kNone;
  std::vector<std::string> reasons;
  SCHEDREF_RETURN_IF_ERROR(r.String("plugin", &plugin));
  SCHEDREF_RETURN_IF_ERROR(
      DecodeName(r, "code", kRejectionCodeNames, &code, "code", std::optional(RejectionCode::kNone)));
  SCHEDREF_RETURN_IF_ERROR(r.StringList("reasons", &reasons));
  return NodeRejection(std::move(plugin), code, std::move(reasons));
}

StatusOr<NodeDetail> DecodeDetail(const FieldReader& r) {
  SCHEDREF_RETURN_IF_ERROR(r.ExpectObject());
  SCHEDREF_RETURN_IF_ERROR(CheckKnownFields(r, {"filter", "scores"}));
  NodeDetail out;
  SCHEDREF_RETURN_IF_ERROR(r.StringMap("filter", &out.filter));
  StatusOr<std::vector<std::pair<std::string, FieldReader>>> scores =
      r.Entries("scores");
  if (!scores.ok()) return scores.status();
  for (const auto& [plugin, s] : *scores) {
    SCHEDREF_RETURN_IF_ERROR(s.ExpectObject());
    SCHEDREF_RETURN_IF_ERROR(
        CheckKnownFields(s, {"raw", "normalized", "weighted"}));
    PluginScore score;
    SCHEDREF_RETURN_IF_ERROR(s.RequiredInt64("raw", &score.raw));
    SCHEDREF_RETURN_IF_ERROR(s.RequiredInt64("normalized", &score.normalized));
    SCHEDREF_RETURN_IF_ERROR(s.RequiredInt64("weighted", &score.weighted));
    out.scores[plugin] = score;
  }
  return out;
}

StatusOr<Attempt> DecodeAttempt(const FieldReader& r) {
  SCHEDREF_RETURN_IF_ERROR(
      CheckKnownFields(r, {"kind", "t", "cycle", "pod", "profile", "outcome",
                           "node", "evaluated", "feasible", "feasibleNodes",
                           "rejections", "topScores", "message", "preemption",
                           "preFilter", "detail"}));
  Attempt out;
  SCHEDREF_RETURN_IF_ERROR(r.RequiredInt64("t", &out.at));
  SCHEDREF_RETURN_IF_ERROR(r.RequiredInt64("cycle", &out.cycle));
  SCHEDREF_RETURN_IF_ERROR(PresentString(r, "pod", &out.pod));
  SCHEDREF_RETURN_IF_ERROR(r.String("profile", &out.profile));
  SCHEDREF_RETURN_IF_ERROR(DecodeName(r, "outcome", kAttemptOutcomeNames, &out.outcome));
  SCHEDREF_RETURN_IF_ERROR(r.String("node", &out.node));
  SCHEDREF_RETURN_IF_ERROR(r.RequiredInt64("evaluated", &out.evaluated));
  SCHEDREF_RETURN_IF_ERROR(r.RequiredInt64("feasible", &out.feasible));
  SCHEDREF_RETURN_IF_ERROR(r.StringList("feasibleNodes", &out.feasible_nodes));

  StatusOr<std::vector<std::pair<std::string, FieldReader>>> rejections =
      r.Entries("rejections");
  if (!rejections.ok()) return rejections.status();
  for (const auto& [node, value] : *rejections) {
    StatusOr<NodeRejection> rejection = DecodeRejection(value);
    if (!rejection.ok()) return rejection.status();
    out.rejections.Set(node, std::move(rejection).value());
  }

  StatusOr<std::vector<FieldReader>> top = r.Array("topScores");
  if (!top.ok()) return top.status();
  for (const FieldReader& entry : *top) {
    SCHEDREF_RETURN_IF_ERROR(entry.ExpectObject());
    SCHEDREF_RETURN_IF_ERROR(CheckKnownFields(entry, {"node", "score"}));
    NodeScore score;
    SCHEDREF_RETURN_IF_ERROR(entry.String("node", &score.node));
    SCHEDREF_RETURN_IF_ERROR(entry.RequiredInt64("score", &score.score));
    out.top_scores.push_back(std::move(score));
  }

  SCHEDREF_RETURN_IF_ERROR(r.String("message", &out.message));

  StatusOr<FieldReader> preemption = r.Object("preemption");
  if (!preemption.ok()) return preemption.status();
  if (preemption->present()) {
    SCHEDREF_RETURN_IF_ERROR(
        CheckKnownFields(*preemption, {"nominatedNode", "victims", "candidates"}));
    Preemption p;
    SCHEDREF_RETURN_IF_ERROR(
        preemption->String("nominatedNode", &p.nominated_node));
    SCHEDREF_RETURN_IF_ERROR(preemption->StringList("victims", &p.victims));
    StatusOr<std::vector<FieldReader>> candidates = preemption->Array("candidates");
    if (!candidates.ok()) return candidates.status();
    for (const FieldReader& c : *candidates) {
      SCHEDREF_RETURN_IF_ERROR(c.ExpectObject());
      SCHEDREF_RETURN_IF_ERROR(CheckKnownFields(c, {"node", "victims", "pdbViolations"}));
      PreemptionCandidate candidate;
      SCHEDREF_RETURN_IF_ERROR(c.String("node", &candidate.node));
      SCHEDREF_RETURN_IF_ERROR(c.StringList("victims", &candidate.victims));
      SCHEDREF_RETURN_IF_ERROR(c.RequiredInt64("pdbViolations", &candidate.pdb_violations));
      p.candidates.push_back(std::move(candidate));
    }
    out.preemption = std::move(p);
  }

  StatusOr<std::vector<FieldReader>> pre_filter = r.Array("preFilter");
  if (!pre_filter.ok()) return pre_filter.status();
  for (const FieldReader& v : *pre_filter) {
    SCHEDREF_RETURN_IF_ERROR(v.ExpectObject());
    SCHEDREF_RETURN_IF_ERROR(CheckKnownFields(v, {"plugin", "status"}));
    PreFilterVerdict verdict;
    SCHEDREF_RETURN_IF_ERROR(v.String("plugin", &verdict.plugin));
    SCHEDREF_RETURN_IF_ERROR(v.String("status", &verdict.status));
    out.pre_filter.push_back(std::move(verdict));
  }
  StatusOr<std::vector<std::pair<std::string, FieldReader>>> detail =
      r.Entries("detail");
  if (!detail.ok()) return detail.status();
  for (const auto& [node, value] : *detail) {
    StatusOr<NodeDetail> d = DecodeDetail(value);
    if (!d.ok()) return d.status();
    out.detail[node] = std::move(d).value();
  }
  return out;
}

StatusOr<Binding> DecodeBinding(const FieldReader& r) {
  SCHEDREF_RETURN_IF_ERROR(CheckKnownFields(
      r, {"kind", "t", "cycle", "pod", "node", "outcome", "message"}));
  Binding out;
  SCHEDREF_RETURN_IF_ERROR(r.RequiredInt64("t", &out.at));
  SCHEDREF_RETURN_IF_ERROR(r.RequiredInt64("cycle", &out.cycle));
  SCHEDREF_RETURN_IF_ERROR(r.String("pod", &out.pod));
  SCHEDREF_RETURN_IF_ERROR(r.String("node", &out.node));
  SCHEDREF_RETURN_IF_ERROR(DecodeName(r, "outcome", kBindingOutcomeNames, &out.outcome));
  SCHEDREF_RETURN_IF_ERROR(r.String("message", &out.message));
  return out;
}

StatusOr<Note> DecodeNote(const FieldReader& r) {
  SCHEDREF_RETURN_IF_ERROR(
      CheckKnownFields(r, {"kind", "t", "what", "pod", "message"}));
  Note out;
  SCHEDREF_RETURN_IF_ERROR(r.RequiredInt64("t", &out.at));
  SCHEDREF_RETURN_IF_ERROR(r.String("what", &out.what));
  SCHEDREF_RETURN_IF_ERROR(r.String("pod", &out.pod));
  SCHEDREF_RETURN_IF_ERROR(r.String("message", &out.message));
  return out;
}

StatusOr<Warning> DecodeWarning(const FieldReader& r) {
  SCHEDREF_RETURN_IF_ERROR(CheckKnownFields(r, {"kind", "pod", "feature", "message"}));
  Warning out;
  SCHEDREF_RETURN_IF_ERROR(r.String("pod", &out.pod));
  SCHEDREF_RETURN_IF_ERROR(r.String("feature", &out.feature));
  SCHEDREF_RETURN_IF_ERROR(r.String("message", &out.message));
  return out;
}

Status DecodeHeader(const FieldReader& r) {
  SCHEDREF_RETURN_IF_ERROR(CheckKnownFields(r, {"kind", "format", "version"}));
  std::string format;
  SCHEDREF_RETURN_IF_ERROR(r.RequiredString("format", &format));
  if (format != kTraceFormatName) {
    StatusOr<FieldReader> f = r.Field("format");
    if (!f.ok()) return f.status();
    return f->Error("unknown trace format \"" + format + "\" (want \"" +
                    kTraceFormatName + "\")");
  }
  int64_t version = 0;
  SCHEDREF_RETURN_IF_ERROR(r.RequiredInt64("version", &version));
  if (version != kTraceFormatVersion) {
    StatusOr<FieldReader> f = r.Field("version");
    if (!f.ok()) return f.status();
    return f->Error("unsupported trace version " + std::to_string(version) +
                    " (want " + std::to_string(kTraceFormatVersion) + ")");
  }
  return Status::Ok();
}

std::vector<std::string_view> SplitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

}  // namespace

std::string_view OutcomeName(AttemptOutcome outcome) {
  return NameIn(kAttemptOutcomeNames, outcome);
}
std::string_view OutcomeName(BindingOutcome outcome) {
  return NameIn(kBindingOutcomeNames, outcome);
}
std::string_view CodeName(RejectionCode code) {
  return code == RejectionCode::kNone ? "" : NameIn(kRejectionCodeNames, code);
}

std::vector<std::string> EncodeTraceLines(const Trace& trace) {
  std::vector<std::string> lines;
  lines.reserve(trace.records.size() + 2);
  lines.push_back(Dump({{"kind", "header"},
                        {"format", kTraceFormatName},
                        {"version", kTraceFormatVersion}}));
  for (const Trace::Record& record : trace.records) {
    lines.push_back(Dump(std::visit(
        [](const auto& r) {
          using R = std::decay_t<decltype(r)>;
          if constexpr (std::is_same_v<R, Attempt>) return EncodeAttempt(r);
          if constexpr (std::is_same_v<R, Binding>) return EncodeBinding(r);
          if constexpr (std::is_same_v<R, Note>) return EncodeNote(r);
        },
        record)));
  }
  // The placements map is the record's only payload, so it is written even
  // when empty (no pods left).
  json placements = json::object();
  for (const auto& [pod, node] : trace.placements) placements[pod] = node;
  lines.push_back(
      Dump({{"kind", "placements"}, {"placements", std::move(placements)}}));
  for (const Warning& w : trace.warnings) lines.push_back(Dump(EncodeWarning(w)));
  return lines;
}

std::vector<std::string> WithoutWarningLines(std::vector<std::string> lines) {
  while (!lines.empty()) {
    const json j = json::parse(lines.back(), nullptr, /*allow_exceptions=*/false);
    if (!j.is_object() || j.value("kind", json()) != "warning") break;
    lines.pop_back();
  }
  return lines;
}

std::string EncodeTrace(const Trace& trace) {
  std::string out;
  for (const std::string& line : EncodeTraceLines(trace)) {
    out += line;
    out += '\n';
  }
  return out;
}

StatusOr<Trace> DecodeTrace(std::string_view text, const std::string& source) {
  const std::vector<std::string_view> lines = SplitLines(text);
  Trace trace;
  bool have_placements = false;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string where = source + ":" + std::to_string(i + 1);
    const json document = json::parse(lines[i], nullptr,
                                      /*allow_exceptions=*/false);
    if (document.is_discarded()) {
      return Status::Invalid(where + ": not a JSON value");
    }
    if (!document.is_object()) {
      return Status::Invalid(where + ": expected object, got " +
                             JsonTypeName(document));
    }
    const FieldReader r(document, where, "");
    std::string kind;
    SCHEDREF_RETURN_IF_ERROR(r.RequiredString("kind", &kind));

    if (i == 0) {
      if (kind != "header") {
        return Status::Invalid(
            where + ": kind: expected \"header\" first, got \"" + kind + "\"");
      }
      SCHEDREF_RETURN_IF_ERROR(DecodeHeader(r));
      continue;
    }
    if (have_placements) {
      if (kind != "warning") {
        return Status::Invalid(where + ": record after the placements record");
      }
      StatusOr<Warning> w = DecodeWarning(r);
      if (!w.ok()) return w.status();
      trace.warnings.push_back(std::move(w).value());
      continue;
    }
    if (kind == "attempt") {
      StatusOr<Attempt> a = DecodeAttempt(r);
      if (!a.ok()) return a.status();
      trace.records.emplace_back(std::move(a).value());
    } else if (kind == "binding") {
      StatusOr<Binding> b = DecodeBinding(r);
      if (!b.ok()) return b.status();
      trace.records.emplace_back(std::move(b).value());
    } else if (kind == "note") {
      StatusOr<Note> n = DecodeNote(r);
      if (!n.ok()) return n.status();
      trace.records.emplace_back(std::move(n).value());
    } else if (kind == "placements") {
      SCHEDREF_RETURN_IF_ERROR(CheckKnownFields(r, {"kind", "placements"}));
      StatusOr<FieldReader> p = r.Field("placements");
      if (!p.ok()) return p.status();
      if (!p->present()) return p->Error("required field is missing");
      SCHEDREF_RETURN_IF_ERROR(r.StringMap("placements", &trace.placements));
      have_placements = true;
      continue;
    } else if (kind == "header") {
      return Status::Invalid(where + ": kind: a second header");
    } else if (kind == "warning") {
      return Status::Invalid(where + ": kind: a warning before the placements record");
    } else {
      return Status::Invalid(where + ": kind: unknown record kind \"" + kind +
                             "\"");
    }
  }
  if (lines.empty()) {
    return Status::Invalid(source + ":1: missing header record");
  }
  if (!have_placements) {
    return Status::Invalid(source + ":" + std::to_string(lines.size() + 1) +
                           ": missing placements record");
  }
  return trace;
}

}  // namespace schedref::api
