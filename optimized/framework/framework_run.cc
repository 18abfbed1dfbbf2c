// The extension-point runners of Framework (framework.h); construction is in
// framework.cc.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <string>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "api/gocompat/go_duration.h"
#include "optimized/framework/framework.h"
#include "optimized/framework/vectorize.h"

namespace schedref::optimized::framework {
namespace {

// Permit waits are capped (upstream framework.go maxTimeout).
// RunScorePlugins' unit of work (see kFilterRun).
constexpr int64_t kScoreRun = 64;

constexpr int64_t kMaxPermitTimeoutMs = 15 * 60 * 1000;

Status Wrapped(const std::string& what, const std::string& plugin, const Status& s) {
  Status err = Status::Error("running " + what + " plugin \"" + plugin + "\": " + s.Message());
  err.WithPlugin(plugin);
  return err;
}

std::string JoinPlugins(const std::set<std::string>& names) {
  if (names.size() == 1) return "node(s) didn't satisfy plugin " + *names.begin();
  std::string out = "node(s) didn't satisfy plugin(s) [";
  bool first = true;
  for (const std::string& n : names) {
    out += (first ? "" : " ") + n;
    first = false;
  }
  return out + "] simultaneously";
}

// Whether `pl`'s AddPod/RemovePod run for `state`: it has them and its
// filter was not skipped.
bool ExtensionsRun(const PreFilterPlugin& pl, const CycleState& state) {
  return pl.HasPreFilterExtensions() && !state.skip_filter_plugins.contains(pl.Name());
}

// A PreFilter plugin's result as full-detail traces write it.
std::string PreFilterVerdict(const PreFilterOutput& out) {
  if (out.status.IsSkip()) return "Skip";
  if (!out.status.IsSuccess()) {
    return std::string(CodeName(out.status.code())) + ": " + out.status.Message();
  }
  if (!out.result.has_value()) return "Success";
  std::string nodes;
  for (const std::string& n : *out.result) nodes += (nodes.empty() ? "" : ", ") + n;
  return "Success: nodes " + (nodes.empty() ? std::string("(none)") : nodes);
}

}  // namespace

PreFilterOutput Framework::RunPreFilterPlugins(
    CycleState& state, const PodInfo& pod, const std::vector<NodeInfo*>& nodes,
    std::set<std::string>* plugins_with_nodes,
    std::vector<std::pair<std::string, std::string>>* verdicts) {
  state.skip_filter_plugins.clear();
  plugins_with_nodes->clear();
  PreFilterResult result;
  Status unschedulable;
  for (size_t k = 0; k < pre_filter_.size(); ++k) {
    PreFilterPlugin* pl = pre_filter_[k];
    PreFilterOutput out = pl->PreFilter(state, pod, nodes);
    if (verdicts != nullptr) verdicts->emplace_back(pl->Name(), PreFilterVerdict(out));
    if (out.status.IsSkip()) {
      state.skip_filter_plugins.insert(pre_filter_names_[k], static_cast<int>(k));
      continue;
    }
    if (!out.status.IsSuccess()) {
      out.status.WithPlugin(pl->Name());
      if (out.status.code() == Code::kUnschedulableAndUnresolvable) {
        return PreFilterOutput{std::nullopt, out.status};
      }
      if (out.status.code() == Code::kUnschedulable) {
        // Later PreFilters still run so that preemption has their state.
        unschedulable = out.status;
        continue;
      }
      return PreFilterOutput{std::nullopt, Wrapped("PreFilter", pl->Name(), out.status)};
    }
    if (out.result) {
      plugins_with_nodes->insert(pl->Name());
      if (!result) {
        result = std::move(out.result);
      } else {
        std::erase_if(*result, [&](const std::string& n) { return !out.result->contains(n); });
      }
    }
    if (result && result->empty()) {
      return PreFilterOutput{
          result, Status(Code::kUnschedulableAndUnresolvable, JoinPlugins(*plugins_with_nodes))};
    }
  }
  return PreFilterOutput{result, unschedulable};
}

Status Framework::RunPreFilterExtensionAddPod(const FilterPlan& plan, CycleState& state,
                                              const PodInfo& pod_to_schedule,
                                              const PodInfo& pod_to_add, const NodeInfo& node) {
  return RunAddPodExtensions(plan.extension_plugins, state, pod_to_schedule, pod_to_add, node);
}

Status Framework::RunAddPodExtensions(const std::vector<PreFilterPlugin*>& extensions,
                                      CycleState& state, const PodInfo& pod_to_schedule,
                                      const PodInfo& pod_to_add, const NodeInfo& node) {
  for (PreFilterPlugin* pl : extensions) {
    Status s = pl->AddPod(state, pod_to_schedule, pod_to_add, node);
    if (!s.IsSuccess()) {
      return Status::Error("running AddPod on PreFilter plugin \"" + pl->Name() +
                           "\": " + s.Message());
    }
  }
  return Status::Success();
}

Status Framework::RunPreFilterExtensionRemovePod(const FilterPlan& plan, CycleState& state,
                                                 const PodInfo& pod_to_schedule,
                                                 const PodInfo& pod_to_remove,
                                                 const NodeInfo& node) {
  for (PreFilterPlugin* pl : plan.extension_plugins) {
    Status s = pl->RemovePod(state, pod_to_schedule, pod_to_remove, node);
    if (!s.IsSuccess()) {
      return Status::Error("running RemovePod on PreFilter plugin \"" + pl->Name() +
                           "\": " + s.Message());
    }
  }
  return Status::Success();
}

std::vector<const FilterPlugin*> Framework::ActiveFilters(const CycleState& state) const {
  if (state.skip_filter_plugins.empty()) return {filter_.begin(), filter_.end()};
  std::vector<const FilterPlugin*> out;
  out.reserve(filter_.size());  // one allocation, not one per doubling
  for (size_t k = 0; k < filter_.size(); ++k) {
    if (!state.skip_filter_plugins.contains(filter_names_[k], filter_skip_slot_[k])) {
      out.push_back(filter_[k]);
    }
  }
  return out;
}

namespace {

// Whether upstream's nominated-pods rule adds `other` when filtering for
// `pod`: a pod of equal or higher priority, other than pod itself.
bool NominatedPodCounts(const PodInfo& pod, const PodInfo& other) {
  return other.priority >= pod.priority && other.uid() != pod.uid();
}

bool AnyNominatedPodCounts(const PodInfo& pod, const std::vector<PodInfoPtr>& nominated) {
  return std::any_of(nominated.begin(), nominated.end(),
                     [&pod](const PodInfoPtr& other) { return NominatedPodCounts(pod, *other); });
}

// RunFilterPluginsMany's unit of work: small enough that the nodes' hot
// lines stay in the L1 cache from the first filter to the last.
constexpr size_t kFilterRun = 64;

}  // namespace

const std::string& Framework::FilterName(const FilterPlugin* pl) const {
  for (size_t i = 0; i < filter_.size(); ++i) {
    if (filter_[i] == pl) return filter_names_[i];
  }
  std::abort();  // a broken precondition: pl is not a filter of this framework
}

void Framework::AttributeFilterStatus(const FilterPlugin* pl, Status& s) const {
  const std::string& name = FilterName(pl);
  if (!s.IsRejected()) s = Status::Error("running \"" + name + "\" filter plugin: " + s.Message());
  s.WithPlugin(name);
}

Status Framework::RunFilterPlugins(const std::vector<const FilterPlugin*>& active,
                                   const CycleState& state, const PodInfo& pod,
                                   const NodeInfo& node, FilterDetail* detail) const {
  for (const FilterPlugin* pl : active) {
    Status s = pl->Filter(state, pod, node);
    if (s.IsSuccess()) {
      if (detail != nullptr) detail->emplace_back(pl->Name(), s);
      continue;
    }
    AttributeFilterStatus(pl, s);
    if (detail != nullptr) detail->emplace_back(pl->Name(), s);
    return s;
  }
  return Status::Success();
}

Framework::HotPlan Framework::PlanHotCheck(const std::vector<const FilterPlugin*>& active,
                                           const CycleState& state, const PodInfo& pod) const {
  HotPlan plan;
  for (const FilterPlugin* pl : active) {
    if (!pl->NarrowHotCheck(state, pod, &plan.check)) plan.rest.push_back(pl);
  }
  return plan;
}

void Framework::RunFilterPluginsMany(const std::vector<const FilterPlugin*>& active,
                                     const CycleState& state, const PodInfo& pod,
                                     const NodeInfo* const* nodes, size_t n, uint8_t* pass,
                                     Status* statuses) const {
  for (size_t b = 0; b < n; b += kFilterRun) {
    const size_t len = std::min(kFilterRun, n - b);
    size_t running = 0;
    for (size_t i = 0; i < len; ++i) {
      PrefetchNode(nodes[b + i]);
      running += pass[b + i];
    }
    if (running == 0) continue;
    // Filter by filter over the run; a node leaves the running at its
    // first rejection, with that filter's status, as in RunFilterPlugins.
    for (const FilterPlugin* pl : active) {
      uint8_t before[kFilterRun];
      std::copy_n(pass + b, len, before);
      const size_t cleared = pl->FilterPass(state, pod, nodes + b, len, pass + b, statuses + b);
      if (cleared == 0) continue;
      for (size_t i = 0; i < len; ++i) {
        if (before[i] != 0 && pass[b + i] == 0) AttributeFilterStatus(pl, statuses[b + i]);
      }
      running -= cleared;
      if (running == 0) break;
    }
  }
}

Status Framework::RunFilterPluginsWithNominatedPods(
    const std::vector<const FilterPlugin*>& active, const CycleState& state,
    const PodInfo& pod, const NodeInfo& node, const std::vector<PodInfoPtr>& nominated,
    FilterDetail* detail) const {
  // The common case, no nominated pod that counts: one pass, and no clones
  // (not even empty ones: this runs for every node of every cycle).
  if (!AnyNominatedPodCounts(pod, nominated)) {
    return RunFilterPlugins(active, state, pod, node, detail);
  }
  return RunFilterPluginsWithCountedNominatedPods(active, ExtensionPlugins(state), state, pod,
                                                  node, nominated, detail);
}

std::vector<PreFilterPlugin*> Framework::ExtensionPlugins(const CycleState& state) const {
  std::vector<PreFilterPlugin*> out;
  for (PreFilterPlugin* pl : pre_filter_) {
    if (ExtensionsRun(*pl, state)) out.push_back(pl);
  }
  return out;
}

template <typename Ask>
std::optional<Status> Framework::VerdictWithoutCopies(
    const std::vector<const FilterPlugin*>& filters, Ask ask) const {
  for (const FilterPlugin* pl : filters) {
    std::optional<Status> s = ask(pl);
    if (!s.has_value()) return std::nullopt;
    if (s->IsSuccess()) continue;
    AttributeFilterStatus(pl, *s);
    return s;
  }
  return Status::Success();
}

Status Framework::RunFilterPluginsWithCountedNominatedPods(
    const std::vector<const FilterPlugin*>& active,
    const std::vector<PreFilterPlugin*>& extensions, const CycleState& state,
    const PodInfo& pod, const NodeInfo& node, const std::vector<PodInfoPtr>& nominated,
    FilterDetail* detail) const {
  // Pass 1 without copies when that is known: no PreFilter extension runs
  // (the copied state would equal `state`) and every filter answers
  // FilterWithPods. Detail needs each filter's verdict, so it copies.
  if (extensions.empty() && detail == nullptr) {
    std::vector<const PodInfo*> added;
    for (const PodInfoPtr& other : nominated) {
      if (NominatedPodCounts(pod, *other)) added.push_back(other.get());
    }
    const std::optional<Status> with_added = VerdictWithoutCopies(
        active, [&](const FilterPlugin* pl) { return pl->FilterWithPods(state, pod, node, added); });
    if (with_added.has_value()) {
      // Pass 2 as below.
      return with_added->IsSuccess() ? RunFilterPlugins(active, state, pod, node, nullptr)
                                     : *with_added;
    }
  }
  // Pass 1: with every nominated pod of equal or higher priority added.
  NodeInfo with_nominated = node;
  CycleState state_with_nominated = state;
  for (const PodInfoPtr& other : nominated) {
    if (!NominatedPodCounts(pod, *other)) continue;
    with_nominated.AddPod(other);
    // AddPod extensions mutate only the clone.
    Status s = RunAddPodExtensions(extensions, state_with_nominated, pod, *other, with_nominated);
    if (!s.IsSuccess()) return s;
  }
  Status first = RunFilterPlugins(active, state_with_nominated, pod, with_nominated, detail);
  if (!first.IsSuccess()) return first;
  // Pass 2: without them, since some filters (affinity) may need them absent.
  if (detail != nullptr) detail->clear();
  return RunFilterPlugins(active, state, pod, node, detail);
}

FilterPlan Framework::PlanFilters(const CycleState& state) const {
  std::vector<PreFilterPlugin*> extensions = ExtensionPlugins(state);
  const bool any = !extensions.empty();
  return FilterPlan{ActiveFilters(state), any, std::move(extensions)};
}

Status Framework::RunFilterPluginsWithNominatedPods(const FilterPlan& plan,
                                                    const CycleState& state,
                                                    const PodInfo& pod, const NodeInfo& node,
                                                    const std::vector<PodInfoPtr>& nominated) {
  if (!AnyNominatedPodCounts(pod, nominated)) {
    return RunFilterPlugins(plan.filters, state, pod, node, nullptr);
  }
  return RunFilterPluginsWithCountedNominatedPods(plan.filters, plan.extension_plugins, state, pod,
                                                  node, nominated, nullptr);
}

std::optional<Status> Framework::RunFilterPluginsWithoutPods(
    const FilterPlan& plan, const CycleState& state, const PodInfo& pod, const NodeInfo& node,
    const std::vector<const PodInfo*>& removed, const std::vector<PodInfoPtr>& nominated) const {
  // With no extension to run, the copied state would equal `state`; with no
  // nominated pod that counts, the filters run once, on the copied node.
  if (plan.extensions || AnyNominatedPodCounts(pod, nominated)) return std::nullopt;
  return VerdictWithoutCopies(plan.filters, [&](const FilterPlugin* pl) {
    return pl->FilterWithoutPods(state, pod, node, removed);
  });
}

std::optional<Status> Framework::RunFilterPluginsWithoutAllPods(
    const FilterPlan& plan, const CycleState& state, const PodInfo& pod, const NodeInfo& node,
    const std::vector<PodInfoPtr>& nominated) const {
  if (plan.extensions || AnyNominatedPodCounts(pod, nominated)) return std::nullopt;
  return VerdictWithoutCopies(plan.filters, [&](const FilterPlugin* pl) {
    return pl->FilterWithoutAllPods(state, pod, node);
  });
}

PostFilterOutput Framework::RunPostFilterPlugins(CycleState& state, const PodInfo& pod,
                                                 const NodeToStatus& statuses) {
  std::optional<PostFilterResult> result;
  std::vector<std::string> reasons;
  std::string rejector;
  for (PostFilterPlugin* pl : post_filter_) {
    PostFilterOutput out = pl->PostFilter(state, pod, statuses);
    if (out.status.IsSuccess()) return out;
    if (out.status.code() == Code::kUnschedulableAndUnresolvable) {
      out.status.WithPlugin(pl->Name());
      return out;
    }
    if (!out.status.IsRejected()) {
      Status err = Status::Error(out.status.Message());
      err.WithPlugin(pl->Name());
      return PostFilterOutput{std::nullopt, err};
    }
    if (out.result && out.result->nominated_node_name) result = out.result;
    reasons.insert(reasons.end(), out.status.reasons().begin(), out.status.reasons().end());
    if (rejector.empty()) rejector = pl->Name();
  }
  Status s(Code::kUnschedulable, reasons);
  s.WithPlugin(rejector);
  return PostFilterOutput{result, s};
}

Status Framework::RunPreScorePlugins(CycleState& state, const PodInfo& pod,
                                     const std::vector<const NodeInfo*>& nodes) {
  state.skip_score_plugins.clear();
  for (size_t k = 0; k < pre_score_.size(); ++k) {
    PreScorePlugin* pl = pre_score_[k];
    Status s = pl->PreScore(state, pod, nodes);
    if (s.IsSkip()) {
      state.skip_score_plugins.insert(pre_score_names_[k], static_cast<int>(k));
      continue;
    }
    if (!s.IsSuccess()) return Wrapped("PreScore", pl->Name(), s);
  }
  return Status::Success();
}

namespace {

// Upstream's error for a score outside [0, 100] after normalizing.
schedref::Status InvalidScore(const std::string& plugin, int64_t score) {
  return schedref::Status::Invalid("applying score defaultWeights on Score plugins: plugin \"" +
                                   plugin + "\" returns an invalid score " +
                                   std::to_string(score) +
                                   ", it should in the range of [0, 100] after normalizing");
}

// totals[i] = base + the sum over k of weight_k * scores_k[positions[i]],
// for i in [0, n); one or two plugins (NodeResourcesFit and
// BalancedAllocation) in one pass. Returns the highest total (INT64_MIN
// for n = 0), found in the same pass.
template <typename ByPosition>
int64_t AddByPosition(const ByPosition* b, size_t count, const int32_t* positions, size_t n,
                      int64_t base, int64_t* totals) {
  if (count == 0) {
    std::fill_n(totals, n, base);
    return n == 0 ? INT64_MIN : base;
  }
  // (Two running maxima: one would make every step wait for the last.)
  int64_t m0 = INT64_MIN, m1 = INT64_MIN;
  if (count == 2) {
    const uint8_t *s0 = b[0].scores, *s1 = b[1].scores;
    const int64_t w0 = b[0].weight, w1 = b[1].weight;
    size_t i = 0;
    for (; i + 2 <= n; i += 2) {
      const int32_t p = positions[i], q = positions[i + 1];
      const int64_t t = base + s0[p] * w0 + s1[p] * w1;
      const int64_t u = base + s0[q] * w0 + s1[q] * w1;
      totals[i] = t;
      totals[i + 1] = u;
      m0 = std::max(m0, t);
      m1 = std::max(m1, u);
    }
    for (; i < n; ++i) {
      const int32_t p = positions[i];
      totals[i] = base + s0[p] * w0 + s1[p] * w1;
      m0 = std::max(m0, totals[i]);
    }
    return std::max(m0, m1);
  }
  const uint8_t* s0 = b[0].scores;
  const int64_t w0 = b[0].weight;
  for (size_t i = 0; i < n; ++i) totals[i] = base + s0[positions[i]] * w0;
  for (size_t k = 1; k < count; ++k) {
    const uint8_t* sk = b[k].scores;
    const int64_t wk = b[k].weight;
    for (size_t i = 0; i < n; ++i) totals[i] += sk[positions[i]] * wk;
  }
  for (size_t i = 0; i < n; ++i) m0 = std::max(m0, totals[i]);
  return m0;
}

// AddByPosition for two plugins, which also writes the positions holding
// the highest total, ascending, to ties (room for n) and returns their
// number in *num_ties. The highest so far rarely changes after the first
// nodes, so the branch that restarts the list is well predicted.
// (Not inlined: inside RunScorePlugins the loop's values do not all fit in
// registers.) kUnitWeights: both weights are 1 (the default profile's), and
// the multiplications are left out.
template <bool kUnitWeights>
[[gnu::noinline]] int64_t AddTwoByPositionWithTies(const uint8_t* s0, int64_t w0,
                                                   const uint8_t* s1, int64_t w1,
                                                   const int32_t* positions, size_t n,
                                                   int64_t base, int64_t* totals,
                                                   uint32_t* ties, size_t* num_ties) {
  int64_t best = INT64_MIN;
  size_t num = 0;
  for (size_t i = 0; i < n; ++i) {
    const int32_t p = positions[i];
    const int64_t t = kUnitWeights ? base + (s0[p] + s1[p]) : base + s0[p] * w0 + s1[p] * w1;
    totals[i] = t;
    if (__builtin_expect(t > best, 0)) {
      best = t;
      num = 0;
    }
    ties[num] = static_cast<uint32_t>(i);
    num += t == best ? 1 : 0;
  }
  *num_ties = num;
  return best;
}

// Whether positions[i] = positions[0] + i for every i in [0, n): the
// feasible nodes of a scan in which every node passed (the usual case),
// whose scores then lie side by side in a by-position array.
SCHEDREF_VECTORIZE bool Consecutive(const int32_t* __restrict positions, size_t n) {
  if (n == 0) return false;
  if (n > static_cast<size_t>(INT32_MAX)) return false;
  const int32_t first = positions[0];
  const auto m = static_cast<int32_t>(n);
  int32_t differ = 0;
  for (int32_t i = 0; i < m; ++i) differ |= (positions[i] - i) ^ first;
  return differ == 0;
}

#if defined(__SSE2__)
// For each 4-bit mask: the indexes of its set bits, ascending (then
// zeros), and how many there are. Appending the set bits of a mask four
// at a time with these takes no branch: a tie list has no pattern a branch
// predictor could learn.
struct NibbleTable {
  alignas(16) uint32_t indexes[16][4] = {};
  uint8_t counts[16] = {};
};
constexpr NibbleTable kNibbles = [] {
  NibbleTable t;
  for (uint32_t m = 0; m < 16; ++m) {
    for (uint32_t b = 0; b < 4; ++b) {
      if ((m >> b & 1u) != 0) t.indexes[m][t.counts[m]++] = b;
    }
  }
  return t;
}();
#endif

// AddTwoByPositionWithTies<true> for the consecutive positions of
// Consecutive: s0 and s1 point at the first one's scores; ties has room
// for n. A score is at most kMaxNodeScore, so the sum of two fits a
// byte: sixteen nodes' sums, their maximum and the ties among them take a
// few vector instructions (SSE2, which every x86-64 processor has;
// elsewhere the scalar loops at the end do all of it, with the same
// result).
static_assert(2 * kMaxNodeScore <= UINT8_MAX);
[[gnu::noinline]] int64_t AddTwoConsecutiveWithTies(const uint8_t* s0, const uint8_t* s1,
                                                    size_t n, int64_t base, int64_t* totals,
                                                    uint32_t* ties, size_t* num_ties) {
  if (n == 0) {
    *num_ties = 0;
    return INT64_MIN;
  }
  unsigned best = 0;
  size_t i = 0;
#if defined(__SSE2__)
  {
    const __m128i zero = _mm_setzero_si128();
    const __m128i vbase = _mm_set1_epi64x(base);
    __m128i vbest = zero;
    // The sums, their running maximum and totals = base + sum (each byte
    // widened to 64 bits in three unpacking steps).
    for (; i + 16 <= n; i += 16) {
      const __m128i sum =
          _mm_add_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s0 + i)),
                       _mm_loadu_si128(reinterpret_cast<const __m128i*>(s1 + i)));
      vbest = _mm_max_epu8(vbest, sum);
      const __m128i w16[2] = {_mm_unpacklo_epi8(sum, zero), _mm_unpackhi_epi8(sum, zero)};
      for (int h = 0; h < 2; ++h) {
        const __m128i w32[2] = {_mm_unpacklo_epi16(w16[h], zero),
                                _mm_unpackhi_epi16(w16[h], zero)};
        for (int q = 0; q < 2; ++q) {
          __m128i* out = reinterpret_cast<__m128i*>(totals + i + 8 * h + 4 * q);
          _mm_storeu_si128(out, _mm_add_epi64(vbase, _mm_unpacklo_epi32(w32[q], zero)));
          _mm_storeu_si128(out + 1, _mm_add_epi64(vbase, _mm_unpackhi_epi32(w32[q], zero)));
        }
      }
    }
    // The maximum of vbest's sixteen bytes.
    vbest = _mm_max_epu8(vbest, _mm_srli_si128(vbest, 8));
    vbest = _mm_max_epu8(vbest, _mm_srli_si128(vbest, 4));
    vbest = _mm_max_epu8(vbest, _mm_srli_si128(vbest, 2));
    vbest = _mm_max_epu8(vbest, _mm_srli_si128(vbest, 1));
    best = static_cast<unsigned>(_mm_cvtsi128_si32(vbest)) & 0xFFu;
  }
#endif
  for (size_t j = i; j < n; ++j) {
    const unsigned sum = s0[j] + s1[j];
    totals[j] = base + sum;
    best = std::max(best, sum);
  }
  // The ties: a mask of the sixteen sums equal to the best, whose set
  // bits are appended a nibble at a time. Each nibble's four indexes are
  // written whole, past the last tie, but within the list: before nibble
  // k of the block at i there are at most i + 4k ties, so the four slots
  // written end at i + 4k + 3 <= i + 15 < n.
  size_t num = 0;
  i = 0;
#if defined(__SSE2__)
  {
    const __m128i vbest = _mm_set1_epi8(static_cast<char>(best));
    const __m128i four = _mm_set1_epi32(4);
    __m128i at = _mm_setzero_si128();  // i + 4k in every lane
    for (; i + 16 <= n; i += 16) {
      const __m128i sum =
          _mm_add_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s0 + i)),
                       _mm_loadu_si128(reinterpret_cast<const __m128i*>(s1 + i)));
      const auto mask = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(sum, vbest)));
#pragma GCC unroll 4
      for (unsigned k = 0; k < 4; ++k) {
        const unsigned nibble = (mask >> (4 * k)) & 0xFu;
        const __m128i indexes =
            _mm_load_si128(reinterpret_cast<const __m128i*>(kNibbles.indexes[nibble]));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(ties + num), _mm_add_epi32(indexes, at));
        num += kNibbles.counts[nibble];
        at = _mm_add_epi32(at, four);
      }
    }
  }
#endif
  for (; i < n; ++i) {
    ties[num] = static_cast<uint32_t>(i);
    num += s0[i] + s1[i] == best ? 1 : 0;
  }
  *num_ties = num;
  return base + best;
}

// The positions i with totals[i] == best, ascending, in one branch-free
// pass (the scores of a cycle's nodes are often close, and a branch on
// each would be mispredicted).
void CollectTies(const int64_t* totals, size_t n, int64_t best, std::vector<uint32_t>* ties) {
  ties->resize(n);
  uint32_t* const slots = ties->data();
  size_t num = 0;
  for (size_t i = 0; i < n; ++i) {
    slots[num] = static_cast<uint32_t>(i);
    num += totals[i] == best ? 1 : 0;
  }
  ties->resize(num);
}

}  // namespace

StatusOr<ScoreResult> Framework::RunScorePlugins(CycleState& state, const PodInfo& pod,
                                                 const std::vector<const NodeInfo*>& nodes,
                                                 bool with_detail,
                                                 const int32_t* positions) {
  const size_t n = nodes.size();
  std::vector<size_t> active;  // indexes into score_, of plugins that score node by node
  // What the plugins giving every node the same score add to each total
  // (ScorePlugin::UniformScore; not used for a detailed result, which
  // lists every plugin's raw score per node).
  int64_t uniform_total = 0;
  // The plugins read by position (ScorePlugin::ScoresByPosition): their
  // scores are final and in range, so each adds its weighted score.
  struct ByPosition {
    const uint8_t* scores;
    int64_t weight;
  };
  std::vector<ByPosition> by_position;
  by_position.reserve(score_.size());
  // The nodes' flags; for the snapshot's own nodes, those of every node of
  // the snapshot (a superset, kept by the snapshot: a plugin may then see
  // a flag none of `nodes` has and only miss a shortcut).
  const uint32_t flags = with_detail           ? 0
                         : positions != nullptr ? handle_->SnapshotSharedLister().AnyHotFlags()
                                                : HotFlagsOf(nodes.data(), n);
  for (size_t p = 0; p < score_.size(); ++p) {
    if (state.skip_score_plugins.contains(score_names_[p], score_skip_slot_[p])) continue;
    std::optional<int64_t> uniform;
    if (!with_detail) uniform = score_[p]->UniformScore(state, pod, flags);
    if (!uniform) {
      const uint8_t* scores = positions != nullptr && !with_detail
                                  ? score_[p]->ScoresByPosition(state)
                                  : nullptr;
      if (scores != nullptr) {
        by_position.push_back({scores, score_weight_[p]});
      } else {
        active.push_back(p);
      }
      continue;
    }
    if (*uniform > kMaxNodeScore || *uniform < kMinNodeScore) {
      return InvalidScore(score_[p]->Name(), *uniform);
    }
    uniform_total += *uniform * score_weight_[p];
  }
  // scores[k * n + i]: active plugin k, node i. Each node is written by one
  // task only. The reported failure is the first in (plugin, node) order, as
  // a plugin-by-plugin loop would meet it.
  std::vector<int64_t>& scores = raw_scores_;
  scores.resize(active.size() * n);
  // Runs of nodes are scored plugin by plugin (ScorePlugin::ScoreMany). A
  // run stops at its first failure, the first in (plugin, node) order within
  // the run, since the run's nodes passed every earlier plugin; the reported
  // failure is the least of the runs' in that order, as a plugin-by-plugin
  // loop over all nodes would meet it.
  struct Failure {
    size_t plugin = 0, node = 0;
    Status status;
  };
  std::vector<Failure> failures;
  std::mutex failures_mu;
  if (!active.empty()) handle_->Parallel().ForChunks(static_cast<int64_t>(n), kScoreRun, [&](int64_t b, int64_t e) {
    const size_t len = static_cast<size_t>(e - b);
    for (int64_t i = b; i < e; ++i) {
      PrefetchNode(nodes[i]);
      PrefetchNodeStamp(nodes[i]);
    }
    for (size_t k = 0; k < active.size(); ++k) {
      Status failure;
      const size_t at = score_[active[k]]->ScoreMany(state, pod, nodes.data() + b, len,
                                                     scores.data() + k * n + b, &failure);
      if (at < len) {
        std::lock_guard<std::mutex> lock(failures_mu);
        failures.push_back({k, static_cast<size_t>(b) + at, std::move(failure)});
        return;
      }
    }
  });
  if (!failures.empty()) {
    const Failure& first = *std::min_element(
        failures.begin(), failures.end(), [](const Failure& a, const Failure& b) {
          return a.plugin != b.plugin ? a.plugin < b.plugin : a.node < b.node;
        });
    return schedref::Status::Invalid("running Score plugins: plugin \"" +
                                     score_[active[first.plugin]]->Name() +
                                     "\" failed with: " + first.status.Message());
  }
  ScoreResult result;
  result.totals = std::move(spare_totals_);
  result.totals.resize(n);  // every element is written next
  result.ties = std::move(spare_ties_);
  // The common case (NodeResourcesFit and BalancedAllocation read by
  // position, every other plugin uniform or skipped) finds the ties in the
  // same pass as the totals.
  const bool ties_in_pass = by_position.size() == 2 && active.empty();
  if (ties_in_pass) {
    result.ties.resize(n);
    size_t num_ties = 0;
    const ByPosition& a = by_position[0];
    const ByPosition& b = by_position[1];
    const bool unit_weights = a.weight == 1 && b.weight == 1;
    if (unit_weights && Consecutive(positions, n)) {
      result.best = AddTwoConsecutiveWithTies(a.scores + positions[0], b.scores + positions[0], n,
                                              uniform_total, result.totals.data(),
                                              result.ties.data(), &num_ties);
    } else {
      auto* add = unit_weights ? &AddTwoByPositionWithTies<true> : &AddTwoByPositionWithTies<false>;
      result.best = add(a.scores, a.weight, b.scores, b.weight, positions, n, uniform_total,
                        result.totals.data(), result.ties.data(), &num_ties);
    }
    result.ties.resize(num_ties);
  } else {
    result.best = AddByPosition(by_position.data(), by_position.size(), positions, n,
                                uniform_total, result.totals.data());
  }
  if (with_detail) result.detail.resize(n);
  std::vector<int64_t>& plugin_scores = plugin_scores_;
  for (size_t k = 0; k < active.size(); ++k) {
    ScorePlugin* pl = score_[active[k]];
    const int64_t* raw = scores.data() + k * n;
    const int64_t* normalized = raw;  // without NormalizeScore, the raw scores
    if (pl->HasScoreExtensions()) {
      plugin_scores.assign(raw, raw + n);
      Status s = pl->NormalizeScore(state, pod, nodes, plugin_scores);
      if (!s.IsSuccess()) {
        return schedref::Status::Invalid("running Normalize on Score plugins: plugin \"" +
                                         pl->Name() + "\" failed with: " + s.Message());
      }
      normalized = plugin_scores.data();
    }
    const int64_t weight = score_weight_[active[k]];
    // The weighted sum and the range check in one branch-free pass; the
    // first bad score in node order, the one reported, is looked for only
    // when there is one (the totals are then dropped).
    // (count: a copy of n, whose address the parallel loop above took, so
    // that the loop need not reload it after every store.)
    const size_t count = n;
    int64_t* totals = result.totals.data();
    bool out_of_range = false;
    for (size_t i = 0; i < count; ++i) {
      const int64_t score = normalized[i];
      out_of_range |= (score < kMinNodeScore) | (score > kMaxNodeScore);
      totals[i] += score * weight;
    }
    if (out_of_range) {
      for (size_t i = 0; i < count; ++i) {
        const int64_t score = normalized[i];
        if (score > kMaxNodeScore || score < kMinNodeScore) return InvalidScore(pl->Name(), score);
      }
    }
    if (with_detail) {
      for (size_t i = 0; i < count; ++i) {
        const int64_t score = normalized[i];
        result.detail[i][pl->Name()] = PluginNodeScore{raw[i], score, score * weight};
      }
    }
  }
  if (!active.empty()) {
    result.best = n == 0 ? INT64_MIN : *std::max_element(result.totals.begin(), result.totals.end());
  }
  if (!ties_in_pass) CollectTies(result.totals.data(), n, result.best, &result.ties);
  return result;
}

Status Framework::RunReservePluginsReserve(CycleState& state, const PodInfo& pod,
                                           const std::string& node_name) {
  for (ReservePlugin* pl : reserve_) {
    Status s = pl->Reserve(state, pod, node_name);
    if (s.IsSuccess()) continue;
    if (s.IsRejected()) return s.WithPlugin(pl->Name());
    return Status::Error("running Reserve plugin \"" + pl->Name() + "\": " + s.Message());
  }
  return Status::Success();
}

void Framework::RunReservePluginsUnreserve(CycleState& state, const PodInfo& pod,
                                           const std::string& node_name) {
  for (auto it = reserve_.rbegin(); it != reserve_.rend(); ++it) {
    (*it)->Unreserve(state, pod, node_name);
  }
}

Status Framework::RunPermitPlugins(CycleState& state, const PodInfo& pod,
                                   const std::string& node_name, api::TimeMs now) {
  std::map<std::string, api::TimeMs> waits;
  std::map<std::string, int64_t> timeouts;
  for (PermitPlugin* pl : permit_) {
    PermitOutput out = pl->Permit(state, pod, node_name);
    if (out.status.IsSuccess()) continue;
    if (out.status.IsRejected()) return out.status.WithPlugin(pl->Name());
    if (out.status.IsWait()) {
      timeouts[pl->Name()] = std::min(out.timeout_ms, kMaxPermitTimeoutMs);
      waits[pl->Name()] = now + timeouts[pl->Name()];
      continue;
    }
    return Wrapped("Permit", pl->Name(), out.status);
  }
  if (waits.empty()) return Status::Success();
  waiting_pods_[pod.uid()] =
      WaitingPod{std::make_shared<const PodInfo>(pod), node_name, std::move(waits),
                 std::move(timeouts), std::nullopt};
  return Status(Code::kWait,
                "one or more plugins asked to wait and no plugin rejected pod \"" +
                    pod.pod.name + "\"");
}

Status Framework::RunPreBindPlugins(CycleState& state, const PodInfo& pod,
                                    const std::string& node_name, size_t* next_plugin) {
  for (size_t i = next_plugin == nullptr ? 0 : *next_plugin; i < pre_bind_.size(); ++i) {
    PreBindPlugin* pl = pre_bind_[i];
    Status s = pl->PreBind(state, pod, node_name);
    if (s.IsSuccess()) continue;
    if (s.IsWait() && next_plugin != nullptr) {
      *next_plugin = i;
      return s.WithPlugin(pl->Name());
    }
    if (s.IsRejected()) return s.WithPlugin(pl->Name());
    return Status::Error("running PreBind plugin \"" + pl->Name() + "\": " + s.Message());
  }
  return Status::Success();
}

Status Framework::RunBindPlugins(CycleState& state, const PodInfo& pod,
                                 const std::string& node_name) {
  Status status = Status::Skip();
  for (BindPlugin* pl : bind_) {
    status = pl->Bind(state, pod, node_name);
    if (status.IsSkip()) continue;
    if (status.IsSuccess()) return status;
    if (status.IsRejected()) return status.WithPlugin(pl->Name());
    return Status::Error("running Bind plugin \"" + pl->Name() + "\": " + status.Message());
  }
  return status;
}

void Framework::RunPostBindPlugins(CycleState& state, const PodInfo& pod,
                                   const std::string& node_name) {
  for (PostBindPlugin* pl : post_bind_) pl->PostBind(state, pod, node_name);
}

bool Framework::Allow(const std::string& uid, const std::string& plugin) {
  auto it = waiting_pods_.find(uid);
  if (it == waiting_pods_.end() || it->second.result) return false;
  if (it->second.pending.erase(plugin) == 0) return false;
  if (it->second.pending.empty()) it->second.result = Status::Success();
  return true;
}

bool Framework::Reject(const std::string& uid, const std::string& plugin,
                       const std::string& message) {
  auto it = waiting_pods_.find(uid);
  if (it == waiting_pods_.end() || it->second.result) return false;
  // Any plugin may reject, pending or not, and so may the scheduler with
  // plugin "" (upstream waitingPod.Reject).
  it->second.result = Status(Code::kUnschedulable, message).WithPlugin(plugin);
  return true;
}

void Framework::ExpireWaitingPods(api::TimeMs now) {
  for (auto& [uid, wp] : waiting_pods_) {
    if (wp.result) continue;
    // The earliest deadline rejects first; equal deadlines go by plugin name.
    auto first = wp.pending.end();
    for (auto it = wp.pending.begin(); it != wp.pending.end(); ++it) {
      if (it->second <= now && (first == wp.pending.end() || it->second < first->second)) {
        first = it;
      }
    }
    if (first == wp.pending.end()) continue;
    wp.result = Status(Code::kUnschedulable,
                       "rejected due to timeout after waiting " +
                           api::FormatDurationMs(wp.timeouts_ms[first->first]) +
                           " at plugin " + first->first)
                    .WithPlugin(first->first);
  }
}

}  // namespace schedref::optimized::framework
