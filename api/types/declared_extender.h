// A scenario's declared extender: a scheduler extender's behaviour written
// as data, which schedref serves over real HTTP on 127.0.0.1 for the length
// of a run (api/extender/declared_server.h), so that goldens go through the
// same client as a real extender. The format is in docs/scenario-format.md
// ("extenders"), the semantics in docs/semantics/extender.md.
#ifndef SCHEDREF_API_TYPES_DECLARED_EXTENDER_H_
#define SCHEDREF_API_TYPES_DECLARED_EXTENDER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "api/types/objects.h"

namespace schedref::api {

// The nodes a rule applies to: those named, and those whose labels match
// the selector (only when the scheduler sends node objects, i.e. the
// extender is not nodeCacheCapable; decoding enforces it).
struct DeclaredNodes {
  std::vector<std::string> names;
  std::optional<LabelSelector> selector;
  friend bool operator==(const DeclaredNodes&, const DeclaredNodes&) = default;
};

// How one verb answers, whatever it computes.
struct DeclaredReply {
  // Virtual time before the reply; at least the extender's httpTimeout is
  // a timeout (no wall-clock wait).
  int64_t delay_ms = 0;
  // An HTTP status other than 200 (the body is then "{}").
  int32_t status = 200;
  // The reply's Error field (filter and bind results).
  std::string error;
  // A body sent as is instead of the computed one (malformed replies).
  std::optional<std::string> body;
  friend bool operator==(const DeclaredReply&, const DeclaredReply&) = default;
};

struct DeclaredReject {
  DeclaredNodes nodes;
  std::string reason;
  // failedAndUnresolvableNodes instead of failedNodes.
  bool unresolvable = false;
  friend bool operator==(const DeclaredReject&, const DeclaredReject&) = default;
};

struct DeclaredScore {
  DeclaredNodes nodes;
  int64_t score = 0;
  friend bool operator==(const DeclaredScore&, const DeclaredScore&) = default;
};

// filter: every node sent passes unless a reject rule (first match) names it.
struct DeclaredFilter {
  DeclaredReply reply;
  std::vector<DeclaredReject> reject;
  friend bool operator==(const DeclaredFilter&, const DeclaredFilter&) = default;
};

// prioritize: each node sent gets the score of the first rule naming it,
// else `default_score`.
struct DeclaredPrioritize {
  DeclaredReply reply;
  std::vector<DeclaredScore> scores;
  int64_t default_score = 0;
  friend bool operator==(const DeclaredPrioritize&,
                         const DeclaredPrioritize&) = default;
};

// preempt: the candidates sent come back with their victims, except those
// `drop` names; `keep_victims` (when set) keeps only the first N victims of
// each candidate.
struct DeclaredPreempt {
  DeclaredReply reply;
  std::vector<std::string> drop;
  std::optional<int64_t> keep_victims;
  friend bool operator==(const DeclaredPreempt&, const DeclaredPreempt&) = default;
};

struct DeclaredExtender {
  // The config.extenders[] entry it plays, by urlPrefix.
  std::string url_prefix;
  std::optional<DeclaredFilter> filter;
  std::optional<DeclaredPrioritize> prioritize;
  // bind: the reply alone (its error, status, delay or body).
  std::optional<DeclaredReply> bind;
  std::optional<DeclaredPreempt> preempt;
  friend bool operator==(const DeclaredExtender&,
                         const DeclaredExtender&) = default;
};

}  // namespace schedref::api

#endif  // SCHEDREF_API_TYPES_DECLARED_EXTENDER_H_
