// scheduleOne and what it calls (upstream pkg/scheduler/schedule_one.go,
// v1.32), with the reference's pinned rules (docs/deviations.md) and the
// optimized implementation's shortcuts (docs/optimized.md).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/crash.h"
#include "api/extender/protocol.h"
#include "optimized/framework/vectorize.h"
#include "optimized/scheduler/scheduler.h"

namespace schedref::optimized::internal {
namespace {

constexpr int64_t kMinFeasibleNodesToFind = 100;
constexpr int64_t kMinFeasibleNodesPercentageToFind = 5;
constexpr size_t kNumberOfHighestScoredNodesToReport = 3;
// Filter batches never shrink below this, so a batch is worth spreading
// over threads even when only a few more feasible nodes are wanted.
constexpr int64_t kMinFilterBatch = 64;
// A thread's share of a filter batch is handed out in runs of this many.
constexpr int64_t kFilterChunk = 64;

const backend::queue::NominatingInfo kClearNominatedNode{backend::queue::NominatingInfo::kOverride, ""};

// A node's rejection as the trace records it. Only a rejecting code can
// get here; any other is a broken invariant.
api::RejectionCode ToRejectionCode(framework::Code code) {
  switch (code) {
    case framework::Code::kError: return api::RejectionCode::kError;
    case framework::Code::kUnschedulable: return api::RejectionCode::kUnschedulable;
    case framework::Code::kUnschedulableAndUnresolvable:
      return api::RejectionCode::kUnschedulableAndUnresolvable;
    case framework::Code::kPending: return api::RejectionCode::kPending;
    default: Crash(std::string("a node rejected with code ") + framework::CodeName(code));
  }
}

api::NodeRejection ToRejection(const framework::Status& s) {
  return api::NodeRejection{s.plugin(), ToRejectionCode(s.code()), s.reasons()};
}

// Whether two rejections record the same trace rejection.
bool SameRejection(const framework::Status& a, const framework::Status& b) {
  // The same reasons object means the same rep, plugin included.
  return a.code() == b.code() && (&a.reasons() == &b.reasons() ||
                                  (a.plugin() == b.plugin() && a.reasons() == b.reasons()));
}

// `entries` ordered by the name ranks of their positions; empty when some
// entry's position is out of range or shared with another entry (its hint
// then cannot order it).
std::vector<const framework::NodeToStatus::Entry*> InRankOrder(
    const std::vector<framework::NodeToStatus::Entry>& entries, const std::vector<int32_t>& ranks) {
  std::vector<const framework::NodeToStatus::Entry*> by_rank(ranks.size(), nullptr);
  for (const framework::NodeToStatus::Entry& e : entries) {
    if (e.index < 0 || static_cast<size_t>(e.index) >= ranks.size() ||
        by_rank[ranks[e.index]] != nullptr) {
      return {};
    }
    by_rank[ranks[e.index]] = &e;
  }
  std::erase(by_rank, nullptr);
  return by_rank;
}

// pass[i] = whether batch[i] passes `check`, for i in [0, len); appends
// the positions that fail to *failed. With `summaries` (the snapshot's,
// when batch[i] is List()[(first + i) mod list_size]), the nodes of a
// block whose summary passes are set without looking at them: every node
// of the block passes, so every run of them does, whole block or not (the
// batch's first and last runs usually are not).
// (Out of line, with its own registers: FindNodesThatPassFilters keeps
// its locals in memory.)
[[gnu::noinline]] void CheckHot(const framework::HotCheck& check,
                                const framework::NodeInfo* const* batch, int64_t len,
                                uint8_t* pass, std::vector<int64_t>* failed,
                                const std::vector<framework::HotSummary>* summaries,
                                int64_t first, int64_t list_size) {
  constexpr auto kBlock = static_cast<int64_t>(framework::Snapshot::kSummaryBlock);
  const framework::HotCheck c = check;
  auto one_by_one = [&](int64_t from, int64_t to) {
    for (int64_t i = from; i < to; ++i) {
      const bool p = c.Passes(batch[i]->hot());
      pass[i] = p ? 1 : 0;
      if (!p) failed->push_back(i);
    }
  };
  if (summaries == nullptr) {
    one_by_one(0, len);
    return;
  }
  // at: the list position of batch[i]; one division, then kept by adding.
  int64_t at = first % list_size;
  int64_t i = 0;
  while (i < len) {
    const int64_t block = at / kBlock;
    const int64_t run = std::min(std::min((block + 1) * kBlock, list_size) - at, len - i);
    if (c.PassesAll((*summaries)[static_cast<size_t>(block)])) {
      // The same fill either way; a whole block's constant size is two
      // vector stores, where a run's variable size is a library call.
      if (run == kBlock) {
        std::memset(pass + i, 1, kBlock);
      } else {
        std::memset(pass + i, 1, static_cast<size_t>(run));
      }
    } else {
      one_by_one(i, i + run);
    }
    i += run;
    at += run;
    if (at == list_size) at = 0;
  }
}

// Copies batch[i] to found[num_found++] for i = from, from + 1, ... while
// pass[i] is set, i < len and num_found < to_find; returns the first i it
// did not copy. With `found_at`, also found_at[num_found] = the position
// of batch[i] in a list of `list_size` nodes whose position `first` is
// batch[0].
[[gnu::noinline]] SCHEDREF_VECTORIZE int64_t AppendPassing(const uint8_t* pass,
                                        const framework::NodeInfo* const* batch, int64_t from,
                                        int64_t len, const framework::NodeInfo** found,
                                        int64_t* num_found, int64_t to_find, int32_t* found_at,
                                        int64_t first, int64_t list_size) {
  const int64_t limit = std::min(len - from, to_find - *num_found);
  if (limit <= 0) return from;
  const void* zero = std::memchr(pass + from, 0, static_cast<size_t>(limit));
  const int64_t m = zero == nullptr ? limit : static_cast<const uint8_t*>(zero) - (pass + from);
  std::memcpy(found + *num_found, batch + from, static_cast<size_t>(m) * sizeof(*batch));
  if (found_at != nullptr) {
    // Consecutive positions, wrapping once at most (m <= list_size).
    int32_t* out = found_at + *num_found;
    const auto at = static_cast<int32_t>((first + from) % list_size);
    const int64_t head = std::min(m, list_size - at);
    for (int64_t j = 0; j < head; ++j) out[j] = at + static_cast<int32_t>(j);
    for (int64_t j = head; j < m; ++j) out[j] = static_cast<int32_t>(j - head);
  }
  *num_found += m;
  return from + m;
}

std::string DetailString(const framework::Status& s) {
  if (s.IsSuccess()) return "Success";
  return std::string(framework::CodeName(s.code())) + ": " + s.Message();
}

}  // namespace

int64_t Scheduler::NumFeasibleNodesToFind(std::optional<int32_t> percentage,
                                          int64_t num_all_nodes) const {
  if (num_all_nodes < kMinFeasibleNodesToFind) return num_all_nodes;
  int64_t p = percentage.value_or(scenario_.config.percentage_of_nodes_to_score);
  if (p == 0) p = std::max<int64_t>(50 - num_all_nodes / 125, kMinFeasibleNodesPercentageToFind);
  return std::max(num_all_nodes * p / 100, kMinFeasibleNodesToFind);
}

std::vector<const framework::NodeInfo*> Scheduler::FindNodesThatPassFilters(
    framework::Framework& fwk, const framework::CycleState& state,
    const framework::PodInfo& pod, framework::Diagnosis& diagnosis,
    const std::vector<const framework::NodeInfo*>& nodes, int64_t start,
    api::Attempt* attempt, framework::Status* error) {
  feasible_positions_.clear();
  const int64_t n = static_cast<int64_t>(nodes.size());
  int64_t to_find = NumFeasibleNodesToFind(fwk.PercentageOfNodesToScore(), n);
  // hasExtenderFilters and hasScoring.
  if (!extenders_->HasFilter() && !fwk.HasScorePlugins() && !extenders_->HasPrioritizer()) {
    to_find = 1;
  }
  // The last cycle's list, when SchedulePod gave it back: its storage is
  // reused, and resizing it down writes nothing.
  std::vector<const framework::NodeInfo*> feasible = std::move(spare_feasible_);
  spare_feasible_.clear();
  if (n == 0) {
    feasible.clear();
    return feasible;
  }
  // The start index counts over all nodes; a PreFilterResult may have
  // restricted `nodes` to fewer (the reference takes it modulo too).
  start %= n;
  if (!fwk.HasFilterPlugins()) {
    feasible.clear();
    for (int64_t i = 0; i < to_find; ++i) feasible.push_back(nodes[(start + i) % n]);
    return feasible;
  }
  const std::vector<const framework::FilterPlugin*> active = fwk.ActiveFilters(state);
  // Usually there are none.
  const framework::NominatedPodsByNode& nominated = NominatedPodsOnSnapshot();
  const bool detail = attempt != nullptr && options_.full_detail;
  // Whether position i of `nodes` is the snapshot's List()[i], whose
  // Hot-line summaries the scan may then use.
  const bool from_snapshot = &nodes == &snapshot_.ConstList() &&
                             snapshot_.HotSummaries().size() ==
                                 (nodes.size() + framework::Snapshot::kSummaryBlock - 1) /
                                     framework::Snapshot::kSummaryBlock;
  const framework::Framework::HotPlan hot = fwk.PlanHotCheck(active, state, pod);
  filter_statuses_.resize(static_cast<size_t>(n));
  filter_pass_.resize(static_cast<size_t>(n));
  if (detail) filter_details_.assign(static_cast<size_t>(n), {});
  // The feasible nodes are written in place: at most to_find of them.
  feasible.resize(static_cast<size_t>(std::min(to_find, n)));
  const framework::NodeInfo** found = feasible.data();
  int64_t num_found = 0;
  // The found nodes' positions in the snapshot's list, when `nodes` is it.
  feasible_positions_.resize(from_snapshot ? feasible.size() : 0);
  int32_t* const found_at = from_snapshot ? feasible_positions_.data() : nullptr;

  // The code and plugin of the last status recorded in the diagnosis (the
  // plugin string lives in the status's heap part, or is a static empty
  // string, so it stays put when the list reallocates).
  framework::Code last_code = framework::Code::kSuccess;
  static const std::string kNoPlugin;
  const std::string* last_plugin = &kNoPlugin;

  // Batches of consecutive positions from `start` are filtered in parallel,
  // then scanned in order: the scan stops exactly where the one-by-one loop
  // of the reference stops, and nodes filtered beyond that point are
  // ignored (Filter has no side effects), so the result, the diagnosis and
  // the evaluated count do not depend on the batch size or thread count.
  int64_t pos = 0;
  bool reserved = false;
  while (pos < n) {
    const int64_t found_before = num_found;
    const int64_t want = to_find - found_before;
    const int64_t len = std::min(n - pos, std::max(want, kMinFilterBatch));
    // The batch's nodes, in position order: position i is node
    // (start + i) mod n, so the batch is one run of `nodes`, read in place,
    // or two, copied side by side.
    const framework::NodeInfo* const* batch = nullptr;
    {
      const int64_t first = (start + pos) % n;
      const int64_t head = std::min(len, n - first);
      if (head == len) {
        batch = nodes.data() + first;
      } else {
        filter_batch_.resize(static_cast<size_t>(len));
        std::copy_n(nodes.begin() + first, head, filter_batch_.begin());
        std::copy_n(nodes.begin(), len - head, filter_batch_.begin() + head);
        batch = filter_batch_.data();
      }
    }
    uint8_t* const pass = filter_pass_.data() + pos;
    framework::Status* const statuses = filter_statuses_.data() + pos;
    auto with_nominated = [&](int64_t i) {  // i: index into the batch
      const framework::NodeInfo& node = *batch[i];
      static const std::vector<framework::PodInfoPtr> kNone;
      auto it = nominated.empty() ? nominated.end() : nominated.find(&node);
      statuses[i] = fwk.RunFilterPluginsWithNominatedPods(
          active, state, pod, node, it == nominated.end() ? kNone : it->second,
          detail ? &filter_details_[pos + i] : nullptr);
      pass[i] = statuses[i].IsSuccess() ? 1 : 0;
    };
    if (detail) {
      parallel_.For(0, len, with_nominated);
    } else {
      // A node that passes the cycle's HotCheck passes every filter but
      // `hot.rest`, which RunFilterPluginsMany runs over whole runs of such
      // nodes (RunFilterPluginsWithNominatedPods is RunFilterPlugins for a
      // node without nominated pods); nodes failing the check go through
      // every filter; the few with nominated pods are filtered again.
      filter_slow_at_.clear();
      CheckHot(hot.check, batch, len, pass, &filter_slow_at_,
               from_snapshot ? &snapshot_.HotSummaries() : nullptr, (start + pos) % n, n);
      if (!hot.rest.empty()) {
        parallel_.ForChunks(len, kFilterChunk, [&](int64_t b, int64_t e) {
          fwk.RunFilterPluginsMany(hot.rest, state, pod, batch + b, static_cast<size_t>(e - b),
                                   pass + b, statuses + b);
        });
      }
      // The nodes failing the check go through every filter, gathered into
      // runs of their own (RunFilterPluginsMany again: a filter then reads
      // its cycle state once a run, not once a node).
      if (!filter_slow_at_.empty()) {
        const size_t m = filter_slow_at_.size();
        filter_slow_nodes_.resize(m);
        filter_slow_pass_.assign(m, 1);
        filter_slow_statuses_.resize(m);
        for (size_t k = 0; k < m; ++k) filter_slow_nodes_[k] = batch[filter_slow_at_[k]];
        parallel_.ForChunks(static_cast<int64_t>(m), kFilterChunk, [&](int64_t b, int64_t e) {
          fwk.RunFilterPluginsMany(active, state, pod, filter_slow_nodes_.data() + b,
                                   static_cast<size_t>(e - b), filter_slow_pass_.data() + b,
                                   filter_slow_statuses_.data() + b);
        });
        for (size_t k = 0; k < m; ++k) {
          const int64_t i = filter_slow_at_[k];
          pass[i] = filter_slow_pass_[k];
          if (pass[i] == 0) statuses[i] = std::move(filter_slow_statuses_[k]);
        }
      }
      // Nodes with nominated pods are filtered again, alone (Filter has no
      // side effects).
      if (!nominated.empty()) {
        filter_slow_at_.clear();
        for (int64_t i = 0; i < len; ++i) {
          if (nominated.contains(batch[i])) filter_slow_at_.push_back(i);
        }
        parallel_.For(0, static_cast<int64_t>(filter_slow_at_.size()),
                      [&](int64_t k) { with_nominated(filter_slow_at_[k]); });
      }
    }
    // The scan in position order. A passing node only joins `feasible`
    // (the common case, kept to a tight loop); a rejected one goes to the
    // diagnosis.
    for (int64_t i = 0; i < len; ++i) {
      if (!detail) {
        i = AppendPassing(pass, batch, i, len, found, &num_found, to_find, found_at,
                          (start + pos) % n, n);
        if (num_found >= to_find) break;
        if (i == len) break;
      }
      const framework::NodeInfo* node = batch[i];
      if (detail) {
        for (const auto& [plugin, st] : filter_details_[pos + i]) {
          attempt->detail[node->Name()].filter[plugin] = DetailString(st);
        }
      }
      if (pass[i] != 0) {
        if (found_at != nullptr) found_at[num_found] = static_cast<int32_t>((start + pos + i) % n);
        found[num_found++] = node;
        if (num_found >= to_find) break;
        continue;
      }
      framework::Status& s = statuses[i];
      if (s.code() == framework::Code::kError) {
        *error = std::move(s);
        feasible.resize(static_cast<size_t>(num_found));
        if (from_snapshot) feasible_positions_.resize(feasible.size());
        return feasible;
      }
      // Recording the same (plugin, code) twice changes nothing; most
      // rejected nodes repeat the previous one.
      if (s.code() != last_code || s.plugin() != *last_plugin) {
        diagnosis.AddPluginStatus(s);
      }
      diagnosis.node_to_status.Add(node->Name(), node->index, std::move(s), node);
      const framework::Status& added = diagnosis.node_to_status.statuses.back().status;
      last_code = added.code();
      last_plugin = &added.plugin();
    }
    if (num_found >= to_find) break;
    const bool mostly_rejected = num_found - found_before < len / 2;
    pos += len;
    if (mostly_rejected && !reserved) {
      reserved = true;
      // Room for a status per remaining node, once: the list would
      // otherwise be moved a dozen times on its way to thousands.
      diagnosis.node_to_status.statuses.reserve(diagnosis.node_to_status.statuses.size() +
                                                static_cast<size_t>(n - pos));
    }
  }
  feasible.resize(static_cast<size_t>(num_found));
  if (from_snapshot) feasible_positions_.resize(feasible.size());
  return feasible;
}

const framework::NodeInfo* Scheduler::SelectHost(
    const std::vector<const framework::NodeInfo*>& nodes, const framework::ScoreResult& scores,
    std::vector<api::NodeScore>* top) {
  // The reference's rule without its sorts: the tied top nodes in feasible
  // order, one RNG draw iff there is a tie, then the report (chosen node
  // first, the rest by score descending, ties in feasible order).
  // The highest total and the positions holding it come from the score
  // pass, which found them while writing the totals.
  const std::vector<int64_t>& totals = scores.totals;
  const size_t n = totals.size();
  const std::span<const uint32_t> ties(scores.ties);
  size_t chosen = ties[0];
  if (ties.size() > 1) chosen = ties[NextRandom() % ties.size()];
  static_assert(kNumberOfHighestScoredNodesToReport == 3);
  top->reserve(kNumberOfHighestScoredNodesToReport);
  top->push_back(api::NodeScore{nodes[chosen]->Name(), totals[chosen]});
  // The next best, by (score descending, position ascending), excluding
  // the chosen node.
  if (ties.size() >= 3) {
    // They are the first two other tied positions: every tie has the top
    // score, and `ties` is in position order.
    size_t reported = 0;
    for (size_t i : ties) {
      if (i == chosen) continue;
      top->push_back(api::NodeScore{nodes[i]->Name(), totals[i]});
      if (++reported == 2) break;
    }
    return nodes[chosen];
  }
  // Fewer than three ties: the others come from the highest scores below
  // the top, each at its lowest positions. A branch-free pass finds the
  // next score down; a search from the front, which stops at the first
  // hit, finds where it is.
  auto next_below = [&](int64_t bound, int64_t* out) {
    int64_t m0 = INT64_MIN, m1 = INT64_MIN;
    int any = 0;  // an int: `|` of two comparisons, no branch
    size_t i = 0;
    for (; i + 2 <= n; i += 2) {
      const int64_t a = totals[i], b = totals[i + 1];
      m0 = std::max(m0, a < bound ? a : INT64_MIN);
      m1 = std::max(m1, b < bound ? b : INT64_MIN);
      any |= static_cast<int>(a < bound) | static_cast<int>(b < bound);
    }
    for (; i < n; ++i) {
      m0 = std::max(m0, totals[i] < bound ? totals[i] : INT64_MIN);
      any |= static_cast<int>(totals[i] < bound);
    }
    *out = std::max(m0, m1);
    return any != 0;
  };
  auto find_from = [&](int64_t score, size_t from) {
    size_t i = from;
    while (i < n && totals[i] != score) ++i;
    return i;
  };
  auto report = [&](size_t i) { top->push_back(api::NodeScore{nodes[i]->Name(), totals[i]}); };
  if (ties.size() == 2) report(ties[0] == chosen ? ties[1] : ties[0]);
  int64_t second_score = 0;
  if (next_below(scores.best, &second_score)) {
    const size_t first = find_from(second_score, 0);
    report(first);
    if (ties.size() == 1) {
      const size_t again = find_from(second_score, first + 1);
      int64_t third_score = 0;
      if (again < n) {
        report(again);
      } else if (next_below(second_score, &third_score)) {
        report(find_from(third_score, 0));
      }
    }
  }
  return nodes[chosen];
}

void Scheduler::RecordRejections(const framework::NodeToStatus& statuses,
                                 api::Attempt& attempt) const {
  const std::vector<framework::NodeToStatus::Entry>& entries = statuses.statuses;
  if (entries.empty()) return;
  // In name order, each insertion is an append to the (so far empty)
  // api::NodeRejections: thousands of rejected nodes per attempt.
  // Every entry is a node of this cycle's snapshot at its position (each
  // at most once, NodeToStatus), so the snapshot's name ranks order them
  // without comparing names; an index out of range or met twice falls back
  // to comparing names (and a wrong rank would only cost searches: Set
  // keeps the list sorted whatever the order).
  // A few entries are sorted by name directly: the ranks cost a pass over
  // every position, and a sort of them after each node list change.
  constexpr size_t kFew = 32;
  std::vector<const framework::NodeToStatus::Entry*> by_name;
  if (entries.size() > kFew) by_name = InRankOrder(entries, snapshot_.NameRanks());
  if (by_name.empty()) {
    for (const framework::NodeToStatus::Entry& e : entries) by_name.push_back(&e);
    std::sort(by_name.begin(), by_name.end(),
              [](const auto* a, const auto* b) { return a->node < b->node; });
  }
  // The distinct rejections are few (a handful of plugins and reasons):
  // nodes with the same one share its api::NodeRejection.
  constexpr size_t kMaxDistinct = 8;
  std::vector<std::pair<const framework::Status*, api::NodeRejection>> distinct;
  attempt.rejections.reserve(attempt.rejections.size() + by_name.size());
  for (const framework::NodeToStatus::Entry* e : by_name) {
    auto it = std::find_if(distinct.begin(), distinct.end(),
                           [&](const auto& d) { return SameRejection(*d.first, e->status); });
    if (it == distinct.end()) {
      if (distinct.size() == kMaxDistinct) distinct.pop_back();
      distinct.emplace(distinct.begin(), &e->status, ToRejection(e->status));
      it = distinct.begin();
    }
    attempt.rejections.Set(e->node, it->second);
  }
}

Scheduler::CycleOutcome Scheduler::SchedulePod(framework::Framework& fwk,
                                               framework::CycleState& state,
                                               const framework::PodInfo& pod,
                                               api::Attempt& attempt) {
  CycleOutcome out;
  cache_.UpdateSnapshot(snapshot_);
  if (snapshot_.NumNodes() == 0) {
    out.status = framework::Status(framework::Code::kUnschedulableAndUnresolvable,
                                   "no nodes available to schedule pods");
    out.nominating_info = kClearNominatedNode;
    return out;
  }
  const std::vector<framework::NodeInfo*>& all = snapshot_.List();
  const std::vector<const framework::NodeInfo*>& all_nodes = snapshot_.ConstList();

  framework::Diagnosis diagnosis;
  // The plugins that returned a PreFilterResult start the cycle's
  // UnschedulablePlugins.
  std::vector<std::pair<std::string, std::string>> pre_filter;
  framework::PreFilterOutput pre =
      fwk.RunPreFilterPlugins(state, pod, all, &diagnosis.unschedulable_plugins,
                              options_.full_detail ? &pre_filter : nullptr);
  for (auto& [plugin, status] : pre_filter) {
    attempt.pre_filter.push_back(api::PreFilterVerdict{plugin, std::move(status)});
  }
  std::vector<const framework::NodeInfo*> feasible;
  if (!pre.status.IsSuccess()) {
    if (!pre.status.IsRejected()) {
      out.status = framework::Status::Error(pre.status.Message());
      out.nominating_info = kClearNominatedNode;
      return out;
    }
    diagnosis.node_to_status.absent_status = pre.status;
    diagnosis.pre_filter_msg = pre.status.Message();
    diagnosis.AddPluginStatus(pre.status);
  } else {
    bool done = false;
    // evaluateNominatedNode: a nominated node that fails keeps its rejection
    // in the cycle's NodeToStatus (upstream's Diagnosis is passed by value
    // but its NodeToStatus is a pointer). It is recorded after the search
    // below, unless that search checked the node again (same status), so
    // that each node has one entry.
    std::vector<framework::NodeToStatus::Entry> nominated_rejections;
    if (!pod.pod.nominated_node_name.empty()) {
      if (const framework::NodeInfo* nominated = snapshot_.Get(pod.pod.nominated_node_name)) {
        framework::Diagnosis scratch = diagnosis;
        framework::Status err;
        std::vector<const framework::NodeInfo*> one = FindNodesThatPassFilters(
            fwk, state, pod, scratch, {nominated}, 0, nullptr, &err);
        // The extenders see the nominated node too; an error (theirs or
        // the filters') is dropped and the full search follows.
        if (err.IsSuccess() && !FindNodesThatPassExtenders(pod.pod, one, scratch.node_to_status,
                                                           nullptr)
                                    .IsSuccess()) {
          one.clear();
        }
        if (!one.empty()) {
          feasible = std::move(one);
          done = true;
        } else {
          nominated_rejections = std::move(scratch.node_to_status.statuses);
        }
        // Upstream's by-value Diagnosis shares its UnschedulablePlugins set
        // (a Go map) with this cycle's, so the plugins that rejected the
        // nominated node stay; its PendingPlugins is nil there and is lost.
        diagnosis.unschedulable_plugins = std::move(scratch.unschedulable_plugins);
      }
    }
    if (!done) {
      std::vector<const framework::NodeInfo*> nodes;
      if (pre.result) {
        // Snapshot order (docs/deviations.md "PreFilterResult order").
        for (const framework::NodeInfo* n : all_nodes) {
          if (pre.result->contains(n->Name())) nodes.push_back(n);
        }
        // The set upstream prints is the cycle's UnschedulablePlugins: the
        // PreFilterResult plugins and whatever rejected the nominated node.
        std::string plugins;
        for (const std::string& p : diagnosis.unschedulable_plugins) {
          plugins += (plugins.empty() ? "" : " ") + p;
        }
        diagnosis.node_to_status.absent_status =
            framework::Status(framework::Code::kUnschedulableAndUnresolvable,
                              "node(s) didn't satisfy plugin(s) [" + plugins + "]");
      }
      const std::vector<const framework::NodeInfo*>& search = pre.result ? nodes : all_nodes;
      framework::Status filter_error;
      feasible = FindNodesThatPassFilters(fwk, state, pod, diagnosis, search,
                                          next_start_node_index_, &attempt, &filter_error);
      for (framework::NodeToStatus::Entry& rejection : nominated_rejections) {
        std::vector<framework::NodeToStatus::Entry>& entries = diagnosis.node_to_status.statuses;
        const bool checked_again =
            std::any_of(entries.begin(), entries.end(), [&](const framework::NodeToStatus::Entry& e) {
              return e.node == rejection.node;
            });
        if (!checked_again) entries.push_back(std::move(rejection));
      }
      const int64_t processed =
          static_cast<int64_t>(feasible.size() + diagnosis.node_to_status.statuses.size());
      next_start_node_index_ =
          (next_start_node_index_ + processed) % static_cast<int64_t>(all_nodes.size());
      if (!filter_error.IsSuccess()) {
        out.status = framework::Status::Error(filter_error.Message());
        out.nominating_info = kClearNominatedNode;
        return out;
      }
      if (!extenders_->empty()) {
        const size_t before = feasible.size();
        const framework::Status ext = FindNodesThatPassExtenders(
            pod.pod, feasible, diagnosis.node_to_status, options_.full_detail ? &attempt : nullptr);
        if (!ext.IsSuccess()) {
          out.status = ext;
          out.nominating_info = kClearNominatedNode;
          return out;
        }
        // A pod the extenders narrowed down waits for any cluster event.
        if (feasible.size() != before) {
          diagnosis.unschedulable_plugins.insert(api::extender::kExtenderName);
        }
      }
    }
  }
  RecordRejections(diagnosis.node_to_status, attempt);
  attempt.feasible = static_cast<int64_t>(feasible.size());
  if (options_.record_feasible_nodes) {
    for (const framework::NodeInfo* node : feasible) {
      attempt.feasible_nodes.emplace_back(node->Name());
    }
  }
  attempt.evaluated =
      static_cast<int64_t>(feasible.size() + diagnosis.node_to_status.statuses.size());

  if (feasible.empty()) {
    out.status = framework::Status(framework::Code::kUnschedulable, std::vector<std::string>{});
    out.fit_error = framework::FitError{snapshot_.NumNodes(), std::move(diagnosis)};
    return out;
  }
  if (feasible.size() == 1) {
    out.result.suggested_host = feasible[0]->Name();
    out.result.suggested_node = feasible[0];
    return out;
  }
  framework::Status pre_score = fwk.RunPreScorePlugins(state, pod, feasible);
  if (!pre_score.IsSuccess()) {
    out.status = pre_score;
    out.nominating_info = kClearNominatedNode;
    return out;
  }
  StatusOr<framework::ScoreResult> scores =
      fwk.RunScorePlugins(state, pod, feasible, options_.full_detail,
                          feasible_positions_.size() == feasible.size()
                              ? feasible_positions_.data()
                              : nullptr);
  if (!scores.ok()) {
    out.status = framework::Status::Error(scores.status().message());
    out.nominating_info = kClearNominatedNode;
    return out;
  }
  if (!extenders_->empty()) AddExtenderScores(pod.pod, feasible, *scores);
  if (options_.full_detail) {
    for (size_t i = 0; i < feasible.size(); ++i) {
      for (const auto& [plugin, ps] : scores->detail[i]) {
        attempt.detail[feasible[i]->Name()].scores[plugin] =
            api::PluginScore{ps.raw, ps.normalized, ps.weighted};
      }
    }
  }
  out.result.suggested_node =
      SelectHost(feasible, *scores, &out.result.top_scores);
  out.result.suggested_host = out.result.suggested_node->Name();
  fwk.RecycleScores(std::move(*scores));
  spare_feasible_ = std::move(feasible);
  return out;
}

framework::Status Scheduler::FindNodesThatPassExtenders(
    const api::Pod& pod, std::vector<const framework::NodeInfo*>& feasible,
    framework::NodeToStatus& statuses, api::Attempt* attempt) {
  // statuses.Set: a node keeps one entry, the latest status.
  auto set = [&](const std::string& name, framework::Status status) {
    for (framework::NodeToStatus::Entry& e : statuses.statuses) {
      if (e.node == name) {
        e.status = std::move(status);
        return;
      }
    }
    const framework::NodeInfo* info = snapshot_.Get(name);
    statuses.Add(name, info != nullptr ? info->index : -1, std::move(status), info);
  };
  for (const api::extender::HttpExtender* x : extenders_->extenders()) {
    if (feasible.empty()) break;
    if (!x->IsInterested(pod)) continue;
    std::vector<const api::Node*> nodes;
    nodes.reserve(feasible.size());
    for (const framework::NodeInfo* n : feasible) nodes.push_back(n->node());
    StatusOr<api::extender::HttpExtender::Filtered> got = x->Filter(pod, nodes);
    if (!got.ok()) {
      if (x->IsIgnorable()) continue;
      return framework::Status::Error(got.status().message());
    }
    // failedAndUnresolvableNodes take precedence over failedNodes.
    for (const auto& [name, reason] : got->failed_and_unresolvable) {
      set(name, framework::Status(framework::Code::kUnschedulableAndUnresolvable, reason));
    }
    for (const auto& [name, reason] : got->failed) {
      if (got->failed_and_unresolvable.contains(name)) continue;
      set(name, framework::Status(framework::Code::kUnschedulable, reason));
    }
    std::map<std::string_view, const framework::NodeInfo*> by_name;
    for (const framework::NodeInfo* n : feasible) by_name.emplace(n->Name(), n);
    std::vector<const framework::NodeInfo*> passing;
    passing.reserve(got->feasible.size());
    std::set<std::string_view> passed;
    for (const std::string& name : got->feasible) {
      passing.push_back(by_name.at(name));
      passed.insert(name);
    }
    if (attempt != nullptr) {
      for (const framework::NodeInfo* n : feasible) {
        std::string verdict = "Success";
        if (!passed.contains(n->Name())) {
          const framework::Status& s = statuses.Of(n->Name());
          verdict = s.IsSuccess() || &s == &statuses.absent_status
                        ? std::string("Unschedulable: ")
                        : std::string(framework::CodeName(s.code())) + ": " + s.Message();
        }
        attempt->detail[n->Name()].filter[x->Name()] = std::move(verdict);
      }
    }
    // The list is the extender's now: the search's positions no longer
    // describe it.
    feasible_positions_.clear();
    feasible = std::move(passing);
  }
  return framework::Status();
}

void Scheduler::AddExtenderScores(const api::Pod& pod,
                                  const std::vector<const framework::NodeInfo*>& nodes,
                                  framework::ScoreResult& scores) {
  std::vector<const api::Node*> objects;
  objects.reserve(nodes.size());
  for (const framework::NodeInfo* n : nodes) objects.push_back(n->node());
  std::map<std::string_view, size_t> position;
  for (size_t i = 0; i < nodes.size(); ++i) position.emplace(nodes[i]->Name(), i);
  const bool detail = scores.detail.size() == nodes.size();
  bool changed = false;
  for (const api::extender::HttpExtender* x : extenders_->extenders()) {
    if (!x->IsInterested(pod)) continue;
    // An extender's error only means it gives no scores.
    StatusOr<std::vector<api::extender::HostPriority>> list = x->Prioritize(pod, objects);
    if (!list.ok()) continue;
    const int64_t weight = x->IsPrioritizer() ? x->Weight() : 0;
    for (const api::extender::HostPriority& hp : *list) {
      auto at = position.find(hp.host);
      if (at == position.end()) continue;  // a node not scored: ignored
      const int64_t scaled = api::extender::ScaleExtenderScore(hp.score, weight);
      scores.totals[at->second] = api::extender::WrappingAdd(scores.totals[at->second], scaled);
      changed = true;
      if (detail) {
        framework::PluginNodeScore& d = scores.detail[at->second][x->Name()];
        d.raw = api::extender::WrappingAdd(d.raw, hp.score);
        d.normalized = d.raw;
        d.weighted = api::extender::WrappingAdd(d.weighted, scaled);
      }
    }
  }
  if (!changed) return;
  scores.best = INT64_MIN;
  scores.ties.clear();
  for (size_t i = 0; i < scores.totals.size(); ++i) {
    if (scores.totals[i] > scores.best) {
      scores.best = scores.totals[i];
      scores.ties.clear();
    }
    if (scores.totals[i] == scores.best) scores.ties.push_back(static_cast<uint32_t>(i));
  }
}

}  // namespace schedref::optimized::internal
