// PodTopologySpread PreFilter, its AddPod/RemovePod extensions, and Filter
// (upstream podtopologyspread/filtering.go).
#include <algorithm>
#include <climits>
#include <string>
#include <utility>

#include "optimized/framework/plugins/names/names.h"
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
  const int32_t id = sh.domains[c]->Find(label->second);
  if (id >= 0 && id < sh.num_domains[c]) return id;
  const std::vector<std::string>& extra = per_constraint[c].extra_values;
  auto e = std::find(extra.begin(), extra.end(), label->second);
  if (e == extra.end()) return kNoDomain;
  return sh.num_domains[c] + static_cast<int32_t>(e - extra.begin());
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
      domain = sh.num_domains[c] + static_cast<int32_t>(pc.extra_values.size() - 1);
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
  const int32_t base = sh.num_domains[c];
  auto value = [&](int32_t d) {
    return d < base ? sh.domains[c]->Value(d) : per_constraint[c].extra_values[d - base];
  };
  for (int32_t d = 0; d < base; ++d) {
    if (sh.registered[c][d]) out[value(d)] = Count(c, d);
  }
  for (int32_t d : per_constraint[c].extra_registered) out[value(d)] = Count(c, d);
  return out;
}

void PodTopologySpread::Memo::Contribute(size_t pos, int32_t sign) {
  const size_t num = keys.size();
  if (num == 0 || !all_keys[pos * num]) return;
  for (size_t c = 0; c < num; ++c) {
    const size_t d = static_cast<size_t>(domain[pos * num + c]);
    if (nodes_in[c].size() <= d) {
      nodes_in[c].resize(d + 1, 0);
      matching_in[c].resize(d + 1, 0);
    }
    nodes_in[c][d] += sign;
    matching_in[c][d] += sign * matching[pos * num + c];
  }
}

void PodTopologySpread::RefreshMemo(const std::vector<Constraint>& constraints,
                                    const std::string& ns) {
  Memo& m = memo_;
  const Snapshot& snapshot = handle_->SnapshotSharedLister();
  const std::vector<NodeInfo*>& list = snapshot.List();
  const size_t n = list.size();
  const size_t num = constraints.size();
  m.nodes.Begin(snapshot);
  bool same_inputs = m.keys.size() == num && m.ns == ns;
  for (size_t c = 0; c < num && same_inputs; ++c) {
    same_inputs = m.keys[c] == constraints[c].topology_key &&
                  m.selectors[c] == constraints[c].selector;
  }
  if (!same_inputs) {
    m.nodes.Clear();
    m.keys.clear();
    m.selectors.clear();
    m.tables.clear();
    for (const Constraint& c : constraints) {
      m.keys.push_back(c.topology_key);
      m.selectors.push_back(c.selector);
      std::shared_ptr<DomainTable>& table = domain_tables_[c.topology_key];
      if (!table) table = std::make_shared<DomainTable>();
      m.tables.push_back(table);
    }
    m.ns = ns;
  }
  const bool resized = m.node.size() != n;
  m.domain.resize(n * num, kNoKey);
  m.matching.resize(n * num, 0);
  m.all_keys.resize(n * num, 0);
  m.node.resize(n, nullptr);

  // The nodes that changed since they were last looked at: their values and
  // matching pods on the workers, their domain ids interned in node order.
  std::vector<size_t>& stale = m.stale;
  stale.clear();
  m.nodes.StalePositions(list, &stale);
  if (stale.empty() && same_inputs && !resized) return;
  // The totals follow the changed nodes when they are few and every other
  // position's share is the one already counted; otherwise they are
  // recounted over every position below.
  const bool incremental = same_inputs && !resized && stale.size() * 8 < n;
  if (incremental) {
    for (size_t i : stale) m.Contribute(i, -1);
  }
  std::vector<const std::string*> values(stale.size() * num, nullptr);
  handle_->Parallel().For(0, static_cast<int64_t>(stale.size()), [&](int64_t k) {
    const size_t i = stale[k];
    const NodeInfo& info = *list[i];
    const api::Labels& labels = info.node()->labels;
    bool all_keys = true;
    for (size_t c = 0; c < num; ++c) {
      auto label = labels.find(m.keys[c]);
      if (label == labels.end()) {
        all_keys = false;
      } else {
        values[k * num + c] = &label->second;
      }
    }
    // Only nodes carrying every topology key are ever counted.
    for (size_t c = 0; c < num; ++c) {
      m.matching[i * num + c] =
          all_keys ? CountPodsMatchSelector(info.pods(), m.selectors[c], m.ns) : 0;
      m.all_keys[i * num + c] = all_keys ? 1 : 0;
    }
  });
  for (size_t k = 0; k < stale.size(); ++k) {
    const size_t i = stale[k];
    for (size_t c = 0; c < num; ++c) {
      const std::string* value = values[k * num + c];
      m.domain[i * num + c] = value == nullptr ? kNoKey : m.tables[c]->Intern(*value);
    }
    m.node[i] = list[i]->node();
    m.nodes.Set(i, *list[i]);
  }
  if (incremental) {
    for (size_t i : stale) m.Contribute(i, 1);
  } else {
    m.nodes_in.assign(num, {});
    m.matching_in.assign(num, {});
    for (size_t i = 0; i < n; ++i) m.Contribute(i, 1);
  }
}

PreFilterOutput PodTopologySpread::PreFilter(CycleState& state, const PodInfo& pod,
                                             const std::vector<NodeInfo*>& /*nodes*/) {
  std::vector<Constraint> constraints = GetConstraints(pod.pod);
  if (constraints.empty()) return {std::nullopt, Status::Skip()};
  RefreshMemo(constraints, pod.pod.ns);
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
  for (const std::shared_ptr<DomainTable>& table : memo_.tables) {
    sh->domains.push_back(table);
    sh->num_domains.push_back(table->size());
  }

  // The inclusion policies, per node carrying every key (on the workers):
  // only a pod with a nodeSelector or required node affinity can fail the
  // affinity half.
  const bool check_affinity = any_affinity && PodHasRequiredNodeAffinity(pod.pod);
  const std::vector<int32_t>& domain = memo_.domain;
  auto all_keys = [&](size_t i) {
    for (size_t c = 0; c < num; ++c) {
      if (domain[i * num + c] == kNoKey) return false;
    }
    return true;
  };
  // Bit 0: affinity ok; bit 1: taints ok.
  std::vector<uint8_t> policies;
  if (check_affinity || any_taints) {
    policies.assign(n, 0);
    handle_->Parallel().For(0, static_cast<int64_t>(n), [&](int64_t i) {
      if (!all_keys(i)) return;
      const NodeInfo& info = *list[i];
      const bool affinity_ok =
          !check_affinity || PodMatchesNodeAffinity(pod.pod, *info.node());
      const bool taints_ok = !any_taints || PodToleratesNodeTaints(pod.pod, *info.node());
      policies[i] = (affinity_ok ? 1 : 0) | (taints_ok ? 2 : 0);
    });
  }

  // Domains and counts, in node order. Every eligible node's domain is
  // registered, even with no matching pod.
  sh->nodes = memo_.node;
  sh->node_domains = memo_.domain;
  sh->counts.resize(num);
  sh->registered.resize(num);
  for (size_t c = 0; c < num; ++c) {
    sh->counts[c].assign(sh->num_domains[c], 0);
    sh->registered[c].assign(sh->num_domains[c], 0);
  }
  if (policies.empty()) {
    // Eligible iff carrying every key: the memo's totals are the counts.
    sh->node_eligible = memo_.all_keys;
    for (size_t c = 0; c < num; ++c) {
      const std::vector<int32_t>& nodes_in = memo_.nodes_in[c];
      const std::vector<int32_t>& matching_in = memo_.matching_in[c];
      for (size_t d = 0; d < nodes_in.size(); ++d) {
        if (nodes_in[d] == 0) continue;
        sh->registered[c][d] = 1;
        sh->counts[c][d] = matching_in[d];
      }
    }
  } else {
    sh->node_eligible.assign(n * num, 0);
    for (size_t i = 0; i < n; ++i) {
      if (!all_keys(i)) continue;
      const uint8_t ok = policies[i];
      for (size_t c = 0; c < num; ++c) {
        const Constraint& constraint = sh->constraints[c];
        if ((constraint.honor_node_affinity && !(ok & 1)) ||
            (constraint.honor_node_taints && !(ok & 2))) {
          continue;
        }
        const int32_t d = domain[i * num + c];
        sh->node_eligible[i * num + c] = 1;
        sh->registered[c][d] = 1;
        sh->counts[c][d] += memo_.matching[i * num + c];
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
      return SharedRejectionOf<Code::kUnschedulableAndUnresolvable, kErrReasonNodeLabelNotMatch,
                               names::kPodTopologySpread>();
    }
    // Existing matching pods + (the pod matches itself) - global minimum
    // must not exceed maxSkew.
    const int64_t skew = static_cast<int64_t>(s->Count(c, domain)) +
                         sh.self_match[c] - s->MinMatchNum(c);
    if (skew > sh.constraints[c].max_skew) {
      return SharedRejectionOf<Code::kUnschedulable, kErrReasonConstraintsNotMatch,
                               names::kPodTopologySpread>();
    }
  }
  return Status::Success();
}

}  // namespace schedref::optimized::framework::plugins::podtopologyspread
