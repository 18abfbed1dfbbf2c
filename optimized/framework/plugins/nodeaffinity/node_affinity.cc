#include "optimized/framework/plugins/nodeaffinity/node_affinity.h"

#include <memory>
#include <set>
#include <utility>

#include "api/config/pluginargs/json_args.h"
#include "api/types/labels.h"
#include "optimized/framework/cycle_state.h"
#include "optimized/framework/plugins/helper/normalize_score.h"
#include "optimized/framework/plugins/names/names.h"
#include "optimized/framework/snapshot.h"

namespace schedref::optimized::framework::plugins::nodeaffinity {
namespace {

using api::pluginargs::AggregateMessage;
using api::pluginargs::FieldPath;
using api::pluginargs::IndexPath;

// The pod's required node selector, written by PreFilter.
struct PreFilterState final : StateData {
  // nullptr iff the pod has no required node affinity.
  std::shared_ptr<const CompiledNodeSelector> required;
  // Filter may use the plugin's verdicts for this epoch.
  bool verdicts = false;
  uint32_t epoch = 0;
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PreFilterState>(*this);
  }
};

// The pod's parsed preferred terms, written by PreScore.
struct PreScoreState final : StateData {
  // nullptr iff the pod lists no preferred term.
  std::shared_ptr<const std::vector<CompiledPreferredTerm>> preferred;
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PreScoreState>(*this);
  }
};

const int kPreFilterKey = CycleState::NewKey();
const int kPreScoreKey = CycleState::NewKey();

const api::NodeSelector* RequiredSelector(const api::Pod& pod) {
  if (pod.affinity && pod.affinity->node_affinity &&
      pod.affinity->node_affinity->required) {
    return &*pod.affinity->node_affinity->required;
  }
  return nullptr;
}

// nullptr when the pod lists no preferred term (upstream: a nil list).
const std::vector<api::PreferredSchedulingTerm>* PreferredTerms(
    const api::Pod& pod) {
  if (pod.affinity && pod.affinity->node_affinity &&
      !pod.affinity->node_affinity->preferred.empty()) {
    return &pod.affinity->node_affinity->preferred;
  }
  return nullptr;
}

bool MatchesNodeSelectorMap(const api::Labels& selector,
                            const api::Node& node) {
  for (const auto& [key, value] : selector) {
    const auto it = node.labels.find(key);
    if (it == node.labels.end() || it->second != value) return false;
  }
  return true;
}

// nodeaffinity.RequiredNodeAffinity.Match with its error: false and an
// error when no term matched and some term did not parse. Only queueing
// hints call this, so it works on the api objects directly.
StatusOr<bool> RequiredMatch(const api::Pod& pod, const api::Node& node) {
  if (!MatchesNodeSelectorMap(pod.node_selector, node)) return false;
  const api::NodeSelector* required = RequiredSelector(pod);
  if (required == nullptr) return true;
  std::vector<std::string> errors;
  for (size_t i = 0; i < required->terms.size(); ++i) {
    const api::NodeSelectorTerm& term = required->terms[i];
    if (api::IsEmptyNodeSelectorTerm(term)) continue;
    if (std::optional<api::FieldProblem> p =
            api::NodeSelectorTermParseError(term)) {
      errors.push_back(FieldPath(IndexPath("nodeSelectorTerms", i), p->field) +
                       ": " + p->problem);
      continue;
    }
    if (api::NodeSelectorTermMatches(term, node)) return true;
  }
  if (!errors.empty()) {
    return schedref::Status::Invalid(AggregateMessage(errors));
  }
  return false;
}

}  // namespace

StatusOr<std::vector<CompiledPreferredTerm>> CompilePreferredTerms(
    const std::vector<api::PreferredSchedulingTerm>& terms) {
  std::vector<CompiledPreferredTerm> compiled;
  std::vector<std::string> errors;
  for (size_t i = 0; i < terms.size(); ++i) {
    const api::PreferredSchedulingTerm& t = terms[i];
    if (t.weight == 0 || api::IsEmptyNodeSelectorTerm(t.preference)) continue;
    if (std::optional<api::FieldProblem> p =
            api::NodeSelectorTermParseError(t.preference)) {
      errors.push_back(FieldPath(IndexPath("", i), p->field) + ": " +
                       p->problem);
      continue;
    }
    std::optional<CompiledTerm> term = CompiledTerm::Compile(t.preference);
    // Compile fails only for empty or unparsable terms, both excluded above.
    if (!term.has_value()) continue;
    compiled.push_back({*std::move(term), t.weight});
  }
  if (!errors.empty()) {
    return schedref::Status::Invalid(AggregateMessage(errors));
  }
  return compiled;
}

StatusOr<std::unique_ptr<Plugin>> NodeAffinity::New(const nlohmann::json& args,
                                                    Handle* handle) {
  StatusOr<NodeAffinityArgs> decoded =
      api::pluginargs::DecodeNodeAffinityArgs(args);
  if (!decoded.ok()) return decoded.status();
  return std::unique_ptr<Plugin>(new NodeAffinity(*decoded, handle));
}

NodeAffinity::NodeAffinity(const NodeAffinityArgs& args, Handle* handle)
    : handle_(handle) {
  if (!args.added_affinity) return;
  if (args.added_affinity->required) {
    added_node_selector_.emplace(*args.added_affinity->required);
  }
  const auto& preferred = args.added_affinity->preferred;
  has_added_pref_terms_ = !preferred.empty();
  // Validated args parse; an error here would break the REQUIRES.
  StatusOr<std::vector<CompiledPreferredTerm>> compiled =
      CompilePreferredTerms(preferred);
  if (compiled.ok()) added_pref_terms_ = *std::move(compiled);
}

std::string NodeAffinity::Name() const { return names::kNodeAffinity; }

PreFilterOutput NodeAffinity::PreFilter(CycleState& state, const PodInfo& pod,
                                        const std::vector<NodeInfo*>& /*nodes*/) {
  const api::NodeSelector* required = RequiredSelector(pod.pod);
  // Note: upstream tells a nil nodeSelector map from an empty one; our
  // objects cannot, and both filter the same way (docs/deviations.md).
  if (required == nullptr && !added_node_selector_ &&
      pod.pod.node_selector.empty()) {
    return {std::nullopt, Status::Skip()};
  }
  auto s = std::make_unique<PreFilterState>();
  if (required != nullptr) {
    s->required = std::make_shared<const CompiledNodeSelector>(*required);
  }
  if (handle_ != nullptr) {
    s->verdicts = true;
    s->epoch = BeginVerdicts(pod);
  }
  state.Write(kPreFilterKey, std::move(s));
  if (required == nullptr || required->terms.empty()) {
    return {std::nullopt, Status::Success()};
  }

  std::set<std::string> node_names;
  for (const api::NodeSelectorTerm& term : required->terms) {
    // The intersection of this term's `metadata.name In` lists; nullopt if
    // it has none.
    std::optional<std::set<std::string>> term_names;
    for (const api::NodeSelectorRequirement& r : term.match_fields) {
      if (r.key != "metadata.name" || r.op != "In") continue;
      if (!term_names) {
        term_names.emplace(r.values.begin(), r.values.end());
        continue;
      }
      std::set<std::string> both;
      for (const std::string& v : r.values) {
        if (term_names->contains(v)) both.insert(v);
      }
      *term_names = std::move(both);
    }
    // The terms are ORed: one without a name requirement admits all nodes.
    if (!term_names) return {std::nullopt, Status::Success()};
    node_names.merge(*term_names);
  }
  if (node_names.empty()) {
    return {std::nullopt,
            Status(Code::kUnschedulableAndUnresolvable, kErrReasonConflict)};
  }
  return {std::move(node_names), Status::Success()};
}

uint32_t NodeAffinity::BeginVerdicts(const PodInfo& pod) {
  const size_t n = static_cast<size_t>(handle_->SnapshotSharedLister().NumNodes());
  if (n != num_verdicts_) {
    verdicts_ = std::make_unique<std::atomic<uint64_t>[]>(n);  // all 0: empty
    num_verdicts_ = n;
  }
  const api::NodeSelector* required = RequiredSelector(pod.pod);
  const bool same = last_node_selector_ == pod.pod.node_selector &&
                    (required == nullptr ? !last_required_.has_value()
                                         : last_required_ == *required);
  if (!same) {
    last_node_selector_ = pod.pod.node_selector;
    last_required_.reset();
    if (required != nullptr) last_required_ = *required;
    if (++epoch_ == (1u << kEpochBits)) {
      // The epoch wraps: no slot may keep an old selector's verdict.
      epoch_ = 0;
      for (size_t i = 0; i < num_verdicts_; ++i) {
        verdicts_[i].store(0, std::memory_order_relaxed);
      }
    }
  }
  return epoch_;
}

int NodeAffinity::FilterNode(const PodInfo& pod, const CompiledNodeSelector* required,
                             const api::Node& node) const {
  if (!MatchesAddedSelector(node)) return kEnforcedMismatch;
  if (!MatchesNodeSelectorMap(pod.pod.node_selector, node) ||
      (required != nullptr && !required->Matches(node))) {
    return kPodMismatch;
  }
  return kMatch;
}

namespace {
Status VerdictStatus(uint64_t verdict) {
  if (verdict == NodeAffinity::kEnforcedMismatch) {
    return SharedRejectionOf<Code::kUnschedulableAndUnresolvable, kErrReasonEnforced,
                             names::kNodeAffinity>();
  }
  if (verdict == NodeAffinity::kPodMismatch) {
    return SharedRejectionOf<Code::kUnschedulableAndUnresolvable, kErrReasonPod,
                             names::kNodeAffinity>();
  }
  return Status::Success();
}
}  // namespace

Status NodeAffinity::Filter(const CycleState& state, const PodInfo& pod,
                            const NodeInfo& node_info) const {
  const api::Node& node = *node_info.node();
  const auto* s = state.ReadAs<PreFilterState>(kPreFilterKey);
  if (s == nullptr) {
    // Without PreFilter's state, the pod's terms compiled here.
    const api::NodeSelector* required = RequiredSelector(pod.pod);
    if (required == nullptr) return VerdictStatus(FilterNode(pod, nullptr, node));
    const CompiledNodeSelector compiled(*required);
    return VerdictStatus(FilterNode(pod, &compiled, node));
  }
  if (!s->verdicts) return VerdictStatus(FilterNode(pod, s->required.get(), node));
  const Snapshot& snapshot = handle_->SnapshotSharedLister();
  const int32_t pos = node_info.index;
  if (snapshot.generation <= 0 || pos < 0 || static_cast<size_t>(pos) >= num_verdicts_ ||
      pos >= snapshot.NumNodes() || snapshot.List()[pos] != &node_info ||
      node_info.generation <= 0) {
    return VerdictStatus(FilterNode(pod, s->required.get(), node));
  }
  const uint64_t key = ((static_cast<uint64_t>(node_info.generation) << kEpochBits) |
                        s->epoch) << 2;
  const uint64_t slot = verdicts_[pos].load(std::memory_order_relaxed);
  if ((slot & ~uint64_t{3}) == key && (slot & 3) != 0) return VerdictStatus(slot & 3);
  const int verdict = FilterNode(pod, s->required.get(), node);
  verdicts_[pos].store(key | static_cast<uint64_t>(verdict), std::memory_order_relaxed);
  return VerdictStatus(static_cast<uint64_t>(verdict));
}

Status NodeAffinity::PreScore(CycleState& state, const PodInfo& pod,
                              const std::vector<const NodeInfo*>& /*nodes*/) {
  const std::vector<api::PreferredSchedulingTerm>* terms =
      PreferredTerms(pod.pod);
  auto s = std::make_unique<PreScoreState>();
  if (terms != nullptr) {
    StatusOr<std::vector<CompiledPreferredTerm>> compiled =
        CompilePreferredTerms(*terms);
    if (!compiled.ok()) return Status::Error(compiled.status().message());
    s->preferred = std::make_shared<const std::vector<CompiledPreferredTerm>>(
        *std::move(compiled));
  }
  if (terms == nullptr && !has_added_pref_terms_) return Status::Skip();
  state.Write(kPreScoreKey, std::move(s));
  return Status::Success();
}

ScoreOutput NodeAffinity::Score(const CycleState& state, const PodInfo& pod,
                                const NodeInfo& node_info) const {
  const api::Node& node = *node_info.node();
  int64_t count = ScorePreferred(added_pref_terms_, node);
  if (const auto* s = state.ReadAs<PreScoreState>(kPreScoreKey)) {
    if (s->preferred != nullptr) count += ScorePreferred(*s->preferred, node);
  } else if (const auto* terms = PreferredTerms(pod.pod)) {
    StatusOr<std::vector<CompiledPreferredTerm>> compiled =
        CompilePreferredTerms(*terms);
    if (!compiled.ok()) return {0, Status::Error(compiled.status().message())};
    count += ScorePreferred(*compiled, node);
  }
  return {count, Status::Success()};
}

Status NodeAffinity::NormalizeScore(const CycleState& /*state*/,
                                    const PodInfo& /*pod*/,
                                    const std::vector<const NodeInfo*>& /*nodes*/,
                                    std::vector<int64_t>& scores) {
  helper::DefaultNormalizeScore(kMaxNodeScore, /*reverse=*/false, scores);
  return Status::Success();
}

std::vector<ClusterEventWithHint> NodeAffinity::EventsToRegister() const {
  return {{{EventResource::kNode, kAdd | kUpdateNodeLabel,
            "NodeAdd|UpdateNodeLabel"},
           [this](const api::Pod& pod, const EventObjects& objects) {
             return IsSchedulableAfterNodeChange(pod, objects);
           }}};
}

StatusOr<QueueingHint> NodeAffinity::IsSchedulableAfterNodeChange(
    const api::Pod& pod, const EventObjects& objects) const {
  if (objects.new_node == nullptr) return QueueingHint::kSkip;
  const api::Node& modified = *objects.new_node;
  if (!MatchesAddedSelector(modified)) return QueueingHint::kSkip;
  StatusOr<bool> is_matched = RequiredMatch(pod, modified);
  if (!is_matched.ok()) return is_matched.status();
  if (!*is_matched) return QueueingHint::kSkip;
  if (objects.old_node == nullptr) return QueueingHint::kQueue;
  // An update matters only if it turned a non-matching node into a
  // matching one.
  StatusOr<bool> was_matched = RequiredMatch(pod, *objects.old_node);
  if (!was_matched.ok()) return was_matched.status();
  return *was_matched ? QueueingHint::kSkip : QueueingHint::kQueue;
}

}  // namespace schedref::optimized::framework::plugins::nodeaffinity
