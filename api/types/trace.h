// The trace: what an implementation did with a scenario, and what conformance
// compares. Format (canonical JSON, one record per line, versioned) in
// docs/trace-format.md; encoding in api/codec/trace_codec.h.
#ifndef SCHEDREF_API_TRACE_H_
#define SCHEDREF_API_TRACE_H_

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "api/types/objects.h"

namespace schedref::api {

inline constexpr int kTraceFormatVersion = 1;

// The code a plugin rejected a node with: upstream's framework Code
// (pkg/scheduler/framework/interface.go), the values a Diagnosis can hold.
// kNone belongs to the empty rejection only and is written as no code.
// Wire names in one table, api/codec/trace_codec.cc.
enum class RejectionCode {
  kNone,
  kError,
  kUnschedulable,
  kUnschedulableAndUnresolvable,
  kPending,
};

// One plugin's rejection of one node. An immutable value whose copies
// share one representation: a failed attempt over thousands of nodes
// records thousands of rejections that are mostly the same few, so an
// implementation that keeps one NodeRejection per distinct rejection and
// copies it pays one reference count per node instead of a plugin name, a
// reasons list and its strings (docs/trace-format.md describes the
// encoding, which is unaffected). Copies may be read from several threads.
class NodeRejection {
 public:
  // The empty rejection (no plugin, no code, no reasons).
  NodeRejection();
  NodeRejection(std::string plugin, RejectionCode code, std::vector<std::string> reasons);

  const std::string& plugin() const { return rep_->plugin; }
  RejectionCode code() const { return rep_->code; }
  const std::vector<std::string>& reasons() const { return rep_->reasons; }

  // Equal iff plugin, code and reasons are.
  friend bool operator==(const NodeRejection& a, const NodeRejection& b) {
    return a.rep_ == b.rep_ || (a.plugin() == b.plugin() && a.code() == b.code() &&
                                a.reasons() == b.reasons());
  }

 private:
  struct Rep {
    std::string plugin;
    RejectionCode code = RejectionCode::kNone;
    std::vector<std::string> reasons;
  };
  // Never null.
  std::shared_ptr<const Rep> rep_;
};

inline NodeRejection::NodeRejection() {
  static const std::shared_ptr<const Rep> kEmpty = std::make_shared<const Rep>();
  rep_ = kEmpty;
}

inline NodeRejection::NodeRejection(std::string plugin, RejectionCode code,
                                    std::vector<std::string> reasons)
    : rep_(std::make_shared<const Rep>(
          Rep{std::move(plugin), code, std::move(reasons)})) {}

// Node -> rejection for one attempt, in node-name order, each node once.
// A sorted vector rather than a map: a failed attempt over thousands of
// nodes records them all, and both implementations record them in name
// order, so each insertion is an append (one allocation per attempt
// instead of one per node).
class NodeRejections {
 public:
  using Entry = std::pair<std::string, NodeRejection>;
  using const_iterator = std::vector<Entry>::const_iterator;

  // The rejection of `node`, inserted (the empty rejection) if absent.
  NodeRejection& operator[](const std::string& node) { return *Place(node); }
  // Sets the rejection of `node`, inserting it if absent.
  void Set(const std::string& node, NodeRejection rejection) {
    // The usual case, an append, builds no empty rejection first.
    if (entries_.empty() || entries_.back().first < node) {
      entries_.emplace_back(node, std::move(rejection));
      return;
    }
    *Place(node) = std::move(rejection);
  }
  // nullptr iff `node` has no rejection.
  const NodeRejection* Find(const std::string& node) const {
    auto it = LowerBound(node);
    return it != entries_.end() && it->first == node ? &it->second : nullptr;
  }
  const_iterator begin() const { return entries_.begin(); }
  const_iterator end() const { return entries_.end(); }
  size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  void clear() { entries_.clear(); }
  void reserve(size_t n) { entries_.reserve(n); }
  friend bool operator==(const NodeRejections&, const NodeRejections&) = default;

 private:
  std::vector<Entry>::const_iterator LowerBound(const std::string& node) const {
    return std::lower_bound(entries_.begin(), entries_.end(), node,
                            [](const Entry& e, const std::string& n) { return e.first < n; });
  }
  NodeRejection* Place(const std::string& node) {
    if (entries_.empty() || entries_.back().first < node) {
      entries_.emplace_back(node, NodeRejection());
      return &entries_.back().second;
    }
    auto it = entries_.begin() + (LowerBound(node) - entries_.cbegin());
    if (it == entries_.end() || it->first != node) it = entries_.emplace(it, node, NodeRejection());
    return &it->second;
  }
  std::vector<Entry> entries_;  // sorted by node, unique
};

struct NodeScore {
  std::string node;
  int64_t score = 0;
  friend bool operator==(const NodeScore&, const NodeScore&) = default;
};

// Full-detail only: what each plugin said about one node.
struct PluginScore {
  int64_t raw = 0;
  int64_t normalized = 0;
  int64_t weighted = 0;
  friend bool operator==(const PluginScore&, const PluginScore&) = default;
};
struct NodeDetail {
  // Filter plugin -> "Success" or "<code>: <reasons>"; plugins that were not
  // run (an earlier one rejected, or PreFilter skipped them) are absent.
  std::map<std::string, std::string> filter;
  std::map<std::string, PluginScore> scores;
  friend bool operator==(const NodeDetail&, const NodeDetail&) = default;
};

// Full-detail only: one PreFilter plugin's result, as it ran.
struct PreFilterVerdict {
  std::string plugin;
  // "Success", "Success: nodes a, b" (a PreFilterResult: only these nodes
  // are filtered), "Skip" (the plugin's Filter is skipped this cycle), or
  // "<code>: <message>".
  std::string status;
  friend bool operator==(const PreFilterVerdict&, const PreFilterVerdict&) = default;
};

// Full-detail only: a node on which the preemptor fits once `victims` are
// gone (a candidate of the preemption dry run).
struct PreemptionCandidate {
  std::string node;
  std::vector<std::string> victims;  // pod keys, most important first
  int64_t pdb_violations = 0;       // victims whose PDB forbids the eviction
  friend bool operator==(const PreemptionCandidate&, const PreemptionCandidate&) = default;
};

struct Preemption {
  std::string nominated_node;  // empty: no candidate
  std::vector<std::string> victims;  // pod keys, in deletion order
  // Full-detail traces only: the dry run's candidates, the ones violating
  // no PDB first, each kind in dry-run order; the nominated node is the
  // best of them (pickOneNodeForPreemption).
  std::vector<PreemptionCandidate> candidates;
  friend bool operator==(const Preemption&, const Preemption&) = default;
};

// What became of a scheduling attempt. The wire names (docs/trace-format.md)
// are spelled in one place, api/codec/trace_codec.h's OutcomeName.
enum class AttemptOutcome {
  kScheduled,      // a node was chosen (and the binding cycle starts)
  kUnschedulable,  // a FitError, or a plugin rejected the pod
  kError,          // a plugin or the scheduler failed
  kSkipped,        // skipPodSchedule: the pod is being deleted or already assumed
  kWaiting,        // a node was chosen and a Permit plugin said Wait
};

// What became of a binding cycle; wire names as for AttemptOutcome.
enum class BindingOutcome {
  kBound,
  kFailed,    // any other failure of the binding cycle (PreBind, Bind, ...)
  kRejected,  // a Permit rejection or timeout
};

// One scheduling attempt (one Pop of the queue).
struct Attempt {
  TimeMs at = 0;
  int64_t cycle = 0;
  std::string pod;      // namespace/name
  std::string profile;  // schedulerName
  // Both implementations set it on every path; the default is only what a
  // value-initialised Attempt holds.
  AttemptOutcome outcome = AttemptOutcome::kScheduled;
  std::string node;  // chosen node, when one was chosen
  int64_t evaluated = 0;
  int64_t feasible = 0;
  // The feasible nodes, in feasible-list order: only in traces run with
  // RunOptions::record_feasible_nodes (legal-choice conformance), for every
  // attempt whose feasible-node search found at least one.
  std::vector<std::string> feasible_nodes;
  // Node -> rejection, for every node with a recorded status.
  NodeRejections rejections;
  // Up to three highest-scored nodes, chosen node first (upstream's report).
  std::vector<NodeScore> top_scores;
  // The status message: upstream's FitError text for unschedulable pods,
  // the error text otherwise.
  std::string message;
  std::optional<Preemption> preemption;
  // Full-detail traces only: the PreFilter plugins that ran, in run order
  // (a plugin after one that returned UnschedulableAndUnresolvable or an
  // error did not run), and each node's filter verdicts and scores.
  std::vector<PreFilterVerdict> pre_filter;
  std::map<std::string, NodeDetail> detail;
  friend bool operator==(const Attempt&, const Attempt&) = default;
};

// Drops what only full-detail runs record (RunOptions::full_detail).
inline void ClearFullDetail(Attempt& a) {
  a.pre_filter.clear();
  a.detail.clear();
  if (a.preemption) a.preemption->candidates.clear();
}

// The end of a binding cycle.
struct Binding {
  TimeMs at = 0;
  int64_t cycle = 0;
  std::string pod;
  std::string node;
  BindingOutcome outcome = BindingOutcome::kBound;
  std::string message;
  friend bool operator==(const Binding&, const Binding&) = default;
};

// Anything else the scheduler did that conformance should see: a victim
// deleted by preemption, a pod dropped because its profile is unknown.
struct Note {
  TimeMs at = 0;
  std::string what;  // "victimDeleted", "unknownProfile", ...
  std::string pod;
  std::string message;
  friend bool operator==(const Note&, const Note&) = default;
};

// A limit of schedref said out loud: the pod's answer depends on something
// schedref does not model (a field the v1.32 scheduler reads and schedref
// ignores, a schedulerName no profile has). Informational: conformance does
// not compare warnings (docs/trace-format.md), and both built-in
// implementations take them from one function, api/types/unmodelled.h.
struct Warning {
  std::string pod;      // namespace/name
  std::string feature;  // "DynamicResourceAllocation", "unknownProfile", ...
  std::string message;  // one sentence naming the fields and what it means
  friend bool operator==(const Warning&, const Warning&) = default;
};

struct Trace {
  // One record: an attempt, a binding or a note. Read it with AsAttempt,
  // AsBinding and AsNote below (or std::visit).
  using Record = std::variant<Attempt, Binding, Note>;
  // Records in the order they happened.
  std::vector<Record> records;
  // Final state: every pod that still exists -> its node ("" if pending).
  std::map<std::string, std::string> placements;
  // Sorted by (pod, feature), each pair once. Not compared by conformance.
  std::vector<Warning> warnings;
  friend bool operator==(const Trace&, const Trace&) = default;
};

// The record's attempt, binding or note; nullptr iff it holds another
// kind. Not callable on a temporary record, whose alternative would dangle.
inline const Attempt* AsAttempt(const Trace::Record& r) { return std::get_if<Attempt>(&r); }
inline Attempt* AsAttempt(Trace::Record& r) { return std::get_if<Attempt>(&r); }
void AsAttempt(const Trace::Record&&) = delete;
inline const Binding* AsBinding(const Trace::Record& r) { return std::get_if<Binding>(&r); }
inline Binding* AsBinding(Trace::Record& r) { return std::get_if<Binding>(&r); }
void AsBinding(const Trace::Record&&) = delete;
inline const Note* AsNote(const Trace::Record& r) { return std::get_if<Note>(&r); }
inline Note* AsNote(Trace::Record& r) { return std::get_if<Note>(&r); }
void AsNote(const Trace::Record&&) = delete;

}  // namespace schedref::api

#endif  // SCHEDREF_API_TRACE_H_
