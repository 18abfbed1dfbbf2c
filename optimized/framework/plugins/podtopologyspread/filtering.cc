// PodTopologySpread PreFilter, its AddPod/RemovePod extensions, and Filter
// (upstream podtopologyspread/filtering.go).
#include <algorithm>
#include <climits>
#include <string>
#include <utility>

#include "optimized/framework/plugins/podtopologyspread/pod_topology_spread.h"

namespace schedref::optimized::framework::plugins::podtopologyspread {

const int PreFilterState::kKey = CycleState::NewKey();

namespace {

Status MissingPreFilterState() {
  return Status::Error(std::string("reading \"") + kPreFilterStateKey +
                       "\" from cycleState: not found");
}

bool Contains(const std::vector<int32_t>& v, int32_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

}  // namespace

int32_t PreFilterState::Count(size_t c, int32_t domain) const {
  if (domain < 0) return 0;
  const std::vector<int32_t>& base = shared->counts[c];
  int32_t v = domain < static_cast<int32_t>(base.size()) ? base[domain] : 0;
  for (const auto& [d, change] : per_constraint[c].delta) {
    if (d == domain) return v + change;
  }
  return v;
}

bool PreFilterState::Registered(size_t c, int32_t domain) const {
  const std::vector<uint8_t>& base = shared->registered[c];
  if (domain < static_cast<int32_t>(base.size()) && base[domain]) return true;
  return Contains(per_constraint[c].extra_registered, domain);
}

int32_t PreFilterState::NumDomains(size_t c) const {
  return shared->num_registered[c] +
         static_cast<int32_t>(per_constraint[c].extra_registered.size());
}

int32_t PreFilterState::DomainOf(size_t c, const NodeInfo& node) const {
  const PreFilterShared& sh = *shared;
  if (sh.Indexed(node)) {
    return sh.node_domains[static_cast<size_t>(node.index) * sh.constraints.size() + c];
  }
  const api::Labels& labels = node.node()->labels;
  auto label = labels.find(sh.constraints[c].topology_key);
  if (label == labels.end()) return kNoKey;
  auto it = sh.domain_ids[c].find(label->second);
  if (it != sh.domain_ids[c].end()) return it->second;
  const std::vector<std::string>& extra = per_constraint[c].extra_values;
  auto e = std::find(extra.begin(), extra.end(), label->second);
  if (e == extra.end()) return kNoDomain;
  return static_cast<int32_t>(sh.domain_values[c].size() + (e - extra.begin()));
}

void PreFilterState::RecomputeMinimum(size_t c) {
  PerConstraint& pc = per_constraint[c];
  if (NumDomains(c) < shared->constraints[c].min_domains) {
    // Fewer eligible domains than minDomains: the global minimum is 0.
    pc.min_match = 0;
    return;
  }
  // The domains whose count differs from PreFilter's, or that it did not
  // count: the minimum over the others comes from PreFilter's two smallest.
  std::vector<int32_t> changed = pc.extra_registered;
  for (const auto& [d, change] : pc.delta) {
    if (!Contains(changed, d)) changed.push_back(d);
  }
  const PreFilterShared::Minimum& base = shared->minimum[c];
  int32_t min = INT32_MAX;
  if (!Contains(changed, base.arg1)) {
    min = base.min1;
  } else if (!Contains(changed, base.arg2)) {
    min = base.min2;
  } else {
    const std::vector<uint8_t>& registered = shared->registered[c];
    for (int32_t d = 0; d < static_cast<int32_t>(registered.size()); ++d) {
      if (registered[d] && !Contains(changed, d)) {
        min = std::min(min, shared->counts[c][d]);
      }
    }
  }
  for (int32_t d : changed) {
    if (Registered(c, d)) min = std::min(min, Count(c, d));
  }
  pc.min_match = min;
}

void PreFilterState::UpdateWithPod(const PodInfo& incoming, const PodInfo& pod,
                                   const NodeInfo& node, int32_t delta) {
  if (pod.pod.ns != incoming.pod.ns) return;
  const PreFilterShared& sh = *shared;
  const size_t num = sh.constraints.size();
  for (size_t c = 0; c < num; ++c) {
    if (DomainOf(c, node) == kNoKey) return;
  }
  const bool indexed = sh.Indexed(node);
  for (size_t c = 0; c < num; ++c) {
    const Constraint& constraint = sh.constraints[c];
    // Unlike the counting in PreFilter, an empty selector is matched here
    // as it is (it matches every pod), as upstream does.
    if (!SelectorMatches(constraint.selector, pod.pod.labels)) continue;
    const bool eligible =
        indexed ? sh.node_eligible[static_cast<size_t>(node.index) * num + c] != 0
                : MatchNodeInclusionPolicies(constraint, incoming.pod, *node.node());
    if (!eligible) continue;
    PerConstraint& pc = per_constraint[c];
    int32_t domain = DomainOf(c, node);
    if (domain == kNoDomain) {
      pc.extra_values.push_back(node.node()->labels.at(constraint.topology_key));
      domain = static_cast<int32_t>(sh.domain_values[c].size() +
                                    pc.extra_values.size() - 1);
    }
    if (!Registered(c, domain)) pc.extra_registered.push_back(domain);
    auto it = std::find_if(pc.delta.begin(), pc.delta.end(),
                           [domain](const auto& e) { return e.first == domain; });
    if (it == pc.delta.end()) {
      pc.delta.emplace_back(domain, delta);
    } else if ((it->second += delta) == 0) {
      *it = pc.delta.back();
      pc.delta.pop_back();
    }
    RecomputeMinimum(c);
  }
}

std::map<std::string, int> PreFilterState::Counts(size_t c) const {
  std::map<std::string, int> out;
  const PreFilterShared& sh = *shared;
  const int32_t base = static_cast<int32_t>(sh.domain_values[c].size());
  auto value = [&](int32_t d) {
    return d < base ? std::string(sh.domain_values[c][d])
                    : per_constraint[c].extra_values[d - base];
  };
  for (int32_t d = 0; d < base; ++d) {
    if (sh.registered[c][d]) out[value(d)] = Count(c, d);
  }
  for (int32_t d : per_constraint[c].extra_registered) out[value(d)] = Count(c, d);
  return out;
}

PreFilterOutput PodTopologySpread::PreFilter(CycleState& state, const PodInfo& pod,
                                             const std::vector<NodeInfo*>& /*nodes*/) {
  std::vector<Constraint> constraints = GetConstraints(pod.pod);
  if (constraints.empty()) return {std::nullopt, Status::Skip()};
  const std::vector<NodeInfo*>& list = handle_->SnapshotSharedLister().List();
  const size_t n = list.size();
  const size_t num = constraints.size();
  auto sh = std::make_shared<PreFilterShared>();
  sh->constraints = std::move(constraints);
  bool any_affinity = false, any_taints = false;
  for (const Constraint& c : sh->constraints) {
    sh->self_match.push_back(SelectorMatches(c.selector, pod.pod.labels) ? 1 : 0);
    any_affinity |= c.honor_node_affinity;
    any_taints |= c.honor_node_taints;
  }

  // Per node: each key's value, eligibility and matching pods (-1: not
  // counted).
  sh->nodes.resize(n);
  std::vector<const std::string*> values(n * num, nullptr);
  std::vector<int32_t> matching(n * num, -1);
  handle_->Parallel().For(0, static_cast<int64_t>(n), [&](int64_t i) {
    const NodeInfo& info = *list[i];
    const api::Node& node = *info.node();
    sh->nodes[i] = &node;
    bool all_keys = true;
    for (size_t c = 0; c < num; ++c) {
      auto label = node.labels.find(sh->constraints[c].topology_key);
      if (label == node.labels.end()) {
        all_keys = false;
      } else {
        values[i * num + c] = &label->second;
      }
    }
    // Only nodes carrying every topology key are counted.
    if (!all_keys) return;
    const bool affinity_ok = !any_affinity || PodMatchesNodeAffinity(pod.pod, node);
    const bool taints_ok = !any_taints || PodToleratesNodeTaints(pod.pod, node);
    for (size_t c = 0; c < num; ++c) {
      const Constraint& constraint = sh->constraints[c];
      if ((constraint.honor_node_affinity && !affinity_ok) ||
          (constraint.honor_node_taints && !taints_ok)) {
        continue;
      }
      matching[i * num + c] =
          CountPodsMatchSelector(info.pods(), constraint.selector, pod.pod.ns);
    }
  });

  // Domains and counts, merged in node order. Every eligible node's domain
  // is registered, even with no matching pod.
  sh->node_domains.assign(n * num, kNoKey);
  sh->node_eligible.assign(n * num, 0);
  sh->domain_ids.resize(num);
  sh->domain_values.resize(num);
  sh->counts.resize(num);
  sh->registered.resize(num);
  for (size_t i = 0; i < n; ++i) {
    for (size_t c = 0; c < num; ++c) {
      const std::string* value = values[i * num + c];
      if (value == nullptr) continue;
      auto [it, inserted] = sh->domain_ids[c].try_emplace(
          *value, static_cast<int32_t>(sh->domain_values[c].size()));
      if (inserted) {
        sh->domain_values[c].push_back(*value);
        sh->counts[c].push_back(0);
        sh->registered[c].push_back(0);
      }
      sh->node_domains[i * num + c] = it->second;
      if (int32_t m = matching[i * num + c]; m >= 0) {
        sh->node_eligible[i * num + c] = 1;
        sh->registered[c][it->second] = 1;
        sh->counts[c][it->second] += m;
      }
    }
  }
  sh->num_registered.assign(num, 0);
  sh->minimum.resize(num);
  for (size_t c = 0; c < num; ++c) {
    PreFilterShared::Minimum& m = sh->minimum[c];
    for (int32_t d = 0; d < static_cast<int32_t>(sh->counts[c].size()); ++d) {
      if (!sh->registered[c][d]) continue;
      ++sh->num_registered[c];
      const int32_t count = sh->counts[c][d];
      if (m.arg1 < 0 || count < m.min1) {
        m.min2 = m.min1;
        m.arg2 = m.arg1;
        m.min1 = count;
        m.arg1 = d;
      } else if (m.arg2 < 0 || count < m.min2) {
        m.min2 = count;
        m.arg2 = d;
      }
    }
  }

  auto s = std::make_unique<PreFilterState>();
  s->shared = std::move(sh);
  s->per_constraint.resize(num);
  for (size_t c = 0; c < num; ++c) s->RecomputeMinimum(c);
  state.Write(PreFilterState::kKey, std::move(s));
  return {std::nullopt, Status::Success()};
}

Status PodTopologySpread::AddPod(CycleState& state, const PodInfo& pod_to_schedule,
                                 const PodInfo& pod_to_add, const NodeInfo& node) {
  auto* s = state.ReadAs<PreFilterState>(PreFilterState::kKey);
  if (s == nullptr) return MissingPreFilterState();
  s->UpdateWithPod(pod_to_schedule, pod_to_add, node, 1);
  return Status::Success();
}

Status PodTopologySpread::RemovePod(CycleState& state,
                                    const PodInfo& pod_to_schedule,
                                    const PodInfo& pod_to_remove,
                                    const NodeInfo& node) {
  auto* s = state.ReadAs<PreFilterState>(PreFilterState::kKey);
  if (s == nullptr) return MissingPreFilterState();
  s->UpdateWithPod(pod_to_schedule, pod_to_remove, node, -1);
  return Status::Success();
}

Status PodTopologySpread::Filter(const CycleState& state, const PodInfo& /*pod*/,
                                 const NodeInfo& node) const {
  const auto* s = state.ReadAs<PreFilterState>(PreFilterState::kKey);
  if (s == nullptr) return MissingPreFilterState();
  const PreFilterShared& sh = *s->shared;
  const size_t num = sh.constraints.size();
  const int32_t* row = sh.Indexed(node)
                           ? sh.node_domains.data() + static_cast<size_t>(node.index) * num
                           : nullptr;
  for (size_t c = 0; c < num; ++c) {
    const int32_t domain = row != nullptr ? row[c] : s->DomainOf(c, node);
    if (domain == kNoKey) {
      return Status(Code::kUnschedulableAndUnresolvable, kErrReasonNodeLabelNotMatch);
    }
    // Existing matching pods + (the pod matches itself) - global minimum
    // must not exceed maxSkew.
    const int64_t skew = static_cast<int64_t>(s->Count(c, domain)) +
                         sh.self_match[c] - s->MinMatchNum(c);
    if (skew > sh.constraints[c].max_skew) {
      return Status(Code::kUnschedulable, kErrReasonConstraintsNotMatch);
    }
  }
  return Status::Success();
}

}  // namespace schedref::optimized::framework::plugins::podtopologyspread
