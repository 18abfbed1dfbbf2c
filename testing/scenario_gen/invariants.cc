#include "testing/scenario_gen/invariants.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <variant>
#include <vector>

#include "api/apiserver/pod_deletion.h"
#include "api/apiserver/pod_update.h"
#include "api/codec/trace_codec.h"
#include "api/types/labels.h"

namespace schedref::testing::scenario_gen {
namespace {

using api::Scenario;
using api::TimeMs;
using api::Trace;

int64_t Get(const api::ResourceList& list, const std::string& name) {
  auto it = list.find(name);
  return it == list.end() ? 0 : it->second;
}

std::string Show(const api::ResourceList& r) {
  std::ostringstream out;
  bool first = true;
  for (const auto& [name, q] : r) {
    out << (first ? "" : " ") << name << "=" << q;
    first = false;
  }
  return "{" + out.str() + "}";
}

// The API server's objects as the scenario's timeline changes them. Events
// due at an instant are applied before anything the scheduler does at that
// instant (event-loop.md step 1), so before the trace records of that
// instant; the caller applies what the trace says (victims deleted).
class Cluster {
 public:
  explicit Cluster(const Scenario& s) : s_(s) {
    for (const api::Node& n : s.initial.nodes) nodes_[n.name] = n;
    for (const api::Pod& p : s.initial.pods) pods_[p.Key()] = p;
  }

  // Applies every event due at or before `t`, showing each to `on_event`
  // first.
  template <typename F>
  void AdvanceTo(TimeMs t, F on_event) {
    while (next_ < s_.timeline.size() && s_.timeline[next_].at <= t) {
      const api::Event& e = s_.timeline[next_++];
      on_event(e);
      Apply(e);
    }
  }
  void AdvanceTo(TimeMs t) {
    AdvanceTo(t, [](const api::Event&) {});
  }
  void Finish() {
    if (!s_.timeline.empty()) AdvanceTo(s_.timeline.back().at);
  }

  void DeletePod(const std::string& key) { pods_.erase(key); }

  // What a preemption note says happened to a victim: deleted at once or at
  // the end of its grace period (gone), or deleted gracefully (terminating,
  // with the DisruptionTarget condition). Returns true iff the pod is gone.
  bool ApplyVictimNote(const api::Note& note) {
    if (note.what == "victimDeleted" || note.what == "victimTerminated") {
      pods_.erase(note.pod);
      return true;
    }
    if (note.what == "victimTerminating") {
      auto it = pods_.find(note.pod);
      if (it != pods_.end()) {
        api::UpdatePodCondition(it->second.conditions, api::PreemptionByScheduler());
        if (!it->second.deletion_timestamp) it->second.deletion_timestamp = note.at;
      }
    }
    return false;
  }

  const std::map<std::string, api::Node>& nodes() const { return nodes_; }
  const std::map<std::string, api::Pod>& pods() const { return pods_; }

 private:
  void Apply(const api::Event& e) {
    using Op = api::Event::Op;
    if (e.op == Op::kCreate || e.op == Op::kUpdate) {
      if (const auto* n = std::get_if<api::Node>(&e.object)) {
        nodes_[n->name] = *n;
      }
      if (const auto* p = std::get_if<api::Pod>(&e.object)) {
        auto old = pods_.find(p->Key());
        pods_[p->Key()] = old != pods_.end() ? api::ApplyPodUpdate(old->second, *p) : *p;
      }
    } else if (e.op == Op::kDelete) {
      if (e.kind == "Node") nodes_.erase(e.name);
      if (e.kind == "Pod") pods_.erase(e.name);
    }
  }

  const Scenario& s_;
  size_t next_ = 0;
  std::map<std::string, api::Node> nodes_;
  std::map<std::string, api::Pod> pods_;
};

TimeMs RecordTime(const Trace::Record& r) {
  return std::visit([](const auto& record) { return record.at; }, r);
}

// Every pod the scenario ever defines, as first defined (updates only lift
// gates).
std::map<std::string, api::Pod> AllPods(const Scenario& s) {
  std::map<std::string, api::Pod> out;
  for (const api::Pod& p : s.initial.pods) out.emplace(p.Key(), p);
  for (const api::Event& e : s.timeline) {
    if (const auto* p = std::get_if<api::Pod>(&e.object)) {
      out.emplace(p->Key(), *p);
    }
  }
  return out;
}

std::vector<api::PodAffinityTerm> RequiredAntiAffinity(const api::Pod& pod) {
  if (!pod.affinity || !pod.affinity->pod_anti_affinity) return {};
  return pod.affinity->pod_anti_affinity->required;
}

// Why `pod` may not go to `node` by required anti-affinity (interpodaffinity
// satisfyPodAntiAffinity and satisfyExistingPodsAntiAffinity), or nullopt.
// `on_node`: the pods on each node; nodes absent from `nodes` are ignored.
std::optional<std::string> AntiAffinityViolation(
    const api::Pod& pod, const api::Node& node,
    const std::map<std::string, api::Node>& nodes,
    const std::map<std::string, std::set<std::string>>& on_node,
    const std::map<std::string, api::Pod>& all) {
  auto same_domain = [&](const api::Node& other, const std::string& key) {
    auto mine = node.labels.find(key);
    auto theirs = other.labels.find(key);
    return mine != node.labels.end() && theirs != other.labels.end() &&
           mine->second == theirs->second;
  };
  for (const auto& [name, keys] : on_node) {
    auto other = nodes.find(name);
    if (other == nodes.end()) continue;
    for (const std::string& key : keys) {
      const api::Pod& existing = all.at(key);
      for (const api::PodAffinityTerm& term : RequiredAntiAffinity(pod)) {
        if (same_domain(other->second, term.topology_key) &&
            AffinityTermMatches(term, pod.ns, existing)) {
          return "its anti-affinity (" + term.topology_key + ") matches " +
                 key + " on " + name;
        }
      }
      for (const api::PodAffinityTerm& term : RequiredAntiAffinity(existing)) {
        if (same_domain(other->second, term.topology_key) &&
            AffinityTermMatches(term, existing.ns, pod)) {
          return "the anti-affinity (" + term.topology_key + ") of " + key +
                 " on " + name + " matches it";
        }
      }
    }
  }
  return std::nullopt;
}

}  // namespace

// --- Independent restatements of upstream rules
// --------------------------------

api::ResourceList PodRequests(const api::Pod& pod) {
  api::ResourceList reqs;
  for (const api::Container& c : pod.containers) {
    for (const auto& [name, q] : c.requests) reqs[name] += q;
  }
  api::ResourceList sidecars, init_peak;
  for (const api::Container& c : pod.init_containers) {
    const bool sidecar = c.restart_policy == "Always";
    api::ResourceList running = sidecars;
    for (const auto& [name, q] : c.requests) {
      running[name] += q;
      if (sidecar) {
        reqs[name] += q;
        sidecars[name] += q;
      }
    }
    for (const auto& [name, q] : running) {
      init_peak[name] = std::max(init_peak[name], q);
    }
  }
  for (const auto& [name, q] : init_peak) reqs[name] = std::max(reqs[name], q);
  for (const auto& [name, q] : pod.overhead) reqs[name] += q;
  return reqs;
}

std::set<std::pair<std::string, int32_t>> HostPorts(const api::Pod& pod) {
  std::set<std::pair<std::string, int32_t>> out;
  for (const api::Container& c : pod.containers) {
    for (const api::ContainerPort& p : c.ports) {
      if (p.host_port > 0) out.emplace(p.protocol, p.host_port);
    }
  }
  return out;
}

bool NodeUnschedulableAdmits(const api::Pod& pod, const api::Node& node) {
  return !node.unschedulable ||
         api::TolerationsTolerateTaint(
             pod.tolerations,
             {"node.kubernetes.io/unschedulable", "", "NoSchedule"});
}

bool TaintsTolerated(const api::Pod& pod, const api::Node& node) {
  for (const api::Taint& t : node.taints) {
    if (t.effect == "PreferNoSchedule") continue;
    if (!api::TolerationsTolerateTaint(pod.tolerations, t)) return false;
  }
  return true;
}

bool AffinityTermMatches(const api::PodAffinityTerm& term,
                         const std::string& owner_ns, const api::Pod& pod) {
  if (term.namespace_selector.has_value() || !term.label_selector) return false;
  const bool ns_ok =
      term.namespaces.empty()
          ? pod.ns == owner_ns
          : std::find(term.namespaces.begin(), term.namespaces.end(), pod.ns) !=
                term.namespaces.end();
  return ns_ok && api::Matches(*term.label_selector, pod.labels);
}

// --- Invariants
// -------------------------------------------------------------------

std::optional<std::string> CheckTraceShape(const Scenario& scenario,
                                           const Trace& trace) {
  const TimeMs end =
      scenario.timeline.empty() ? 0 : scenario.timeline.back().at;
  Cluster cluster(scenario);
  std::set<std::string> bound;
  for (const api::Pod& p : scenario.initial.pods) {
    if (!p.node_name.empty()) bound.insert(p.Key());
  }
  TimeMs last = 0;
  int64_t cycle = 0;
  for (const Trace::Record& r : trace.records) {
    const TimeMs t = RecordTime(r);
    if (t < last) {
      return "t=" + std::to_string(t) +
             "ms comes after t=" + std::to_string(last) + "ms";
    }
    if (t > end) {
      return "a record at t=" + std::to_string(t) +
             "ms, after the last timeline event (t=" + std::to_string(end) +
             "ms)";
    }
    last = t;
    cluster.AdvanceTo(t);
    if (const api::Note* n = api::AsNote(r)) cluster.ApplyVictimNote(*n);
    if (const api::Binding* b = api::AsBinding(r);
        b != nullptr && b->outcome == api::BindingOutcome::kBound) {
      bound.insert(b->pod);
    }
    if (api::AsAttempt(r) == nullptr) continue;
    const api::Attempt& a = *api::AsAttempt(r);
    const std::string where = "t=" + std::to_string(t) + "ms cycle " +
                              std::to_string(a.cycle) + ": " + a.pod + ": ";
    if (a.cycle != ++cycle) {
      return where + "expected cycle " + std::to_string(cycle);
    }
    auto pod = cluster.pods().find(a.pod);
    if (pod == cluster.pods().end()) return where + "the pod does not exist";
    if (bound.contains(a.pod)) return where + "the pod is already bound";
    if (pod->second.scheduler_name != a.profile) {
      return where + "profile " + a.profile +
             ", but the pod's schedulerName is " + pod->second.scheduler_name;
    }
  }
  return std::nullopt;
}

std::optional<std::string> CheckNoNodeOvercommitted(const Scenario& scenario,
                                                    const Trace& trace) {
  Cluster cluster(scenario);
  cluster.Finish();
  const std::map<std::string, api::Pod> all = AllPods(scenario);
  std::map<std::string, api::ResourceList> used;
  for (const auto& [key, node] : trace.placements) {
    auto pod = all.find(key);
    if (node.empty() || pod == all.end()) continue;
    api::ResourceList& u = used[node];
    for (const auto& [name, q] : PodRequests(pod->second)) u[name] += q;
    u[api::kResourcePods] += 1;
  }
  for (const auto& [name, u] : used) {
    auto node = cluster.nodes().find(name);
    if (node == cluster.nodes().end()) continue;  // deleted: pods linger
    for (const char* r :
         {api::kResourceCpu, api::kResourceMemory, api::kResourcePods}) {
      if (Get(u, r) > Get(node->second.allocatable, r)) {
        return "node " + name + " is over-committed in " + r +
               " at the end: requests " + Show(u) + ", allocatable " +
               Show(node->second.allocatable);
      }
    }
  }
  return std::nullopt;
}

std::optional<std::string> CheckDecisionsPassedFilters(const Scenario& scenario,
                                                       const Trace& trace) {
  Cluster cluster(scenario);
  const std::map<std::string, api::Pod> all = AllPods(scenario);
  // node -> keys of the pods the cache holds there, as far as the replay
  // knows.
  std::map<std::string, std::set<std::string>> on_node;
  for (const api::Pod& p : scenario.initial.pods) {
    if (!p.node_name.empty()) on_node[p.node_name].insert(p.Key());
  }
  auto remove_everywhere = [&](const std::string& key) {
    for (auto& [node, keys] : on_node) keys.erase(key);
  };
  for (const Trace::Record& r : trace.records) {
    cluster.AdvanceTo(RecordTime(r), [&](const api::Event& e) {
      if (e.op == api::Event::Op::kDelete && e.kind == "Pod") {
        remove_everywhere(e.name);
      }
    });
    const api::Note* n = api::AsNote(r);
    if (n != nullptr && cluster.ApplyVictimNote(*n)) remove_everywhere(n->pod);
    if (const api::Binding* b = api::AsBinding(r);
        b != nullptr && b->outcome != api::BindingOutcome::kBound) {
      on_node[b->node].erase(b->pod);
    }
    if (api::AsAttempt(r) == nullptr || api::AsAttempt(r)->node.empty()) continue;
    const api::Attempt& a = *api::AsAttempt(r);
    const std::string where = "t=" + std::to_string(a.at) + "ms cycle " +
                              std::to_string(a.cycle) + ": " + a.pod +
                              " onto " + a.node + ": ";
    auto pod_it = cluster.pods().find(a.pod);
    if (pod_it == cluster.pods().end()) return where + "the pod does not exist";
    auto node_it = cluster.nodes().find(a.node);
    if (node_it == cluster.nodes().end()) {
      return where + "the node does not exist";
    }
    const api::Pod& pod = pod_it->second;
    const api::Node& node = node_it->second;
    if (!pod.node_name.empty() && pod.node_name != node.name) {
      return where + "NodeName: the pod names node " + pod.node_name;
    }
    if (!NodeUnschedulableAdmits(pod, node)) {
      return where + "NodeUnschedulable: the node is cordoned";
    }
    if (!TaintsTolerated(pod, node)) {
      return where +
             "TaintToleration: a NoSchedule or NoExecute taint is "
             "not tolerated";
    }
    if (!api::RequiredNodeAffinityMatches(pod, node)) {
      return where +
             "NodeAffinity: nodeSelector or required terms do not "
             "match";
    }
    api::ResourceList used;
    std::set<std::pair<std::string, int32_t>> ports;
    int64_t count = 0;
    for (const std::string& key : on_node[node.name]) {
      const api::Pod& other = all.at(key);
      for (const auto& [name, q] : PodRequests(other)) used[name] += q;
      for (const auto& port : HostPorts(other)) ports.insert(port);
      ++count;
    }
    if (count + 1 > Get(node.allocatable, api::kResourcePods)) {
      return where + "NodeResourcesFit: " + std::to_string(count) +
             " pods already there, allocatable " + Show(node.allocatable);
    }
    const api::ResourceList want = PodRequests(pod);
    for (const char* res : {api::kResourceCpu, api::kResourceMemory}) {
      const int64_t q = Get(want, res);
      if (q > 0 && Get(used, res) + q > Get(node.allocatable, res)) {
        return where + "NodeResourcesFit: " + res + " " + std::to_string(q) +
               " requested, " + Show(used) + " used, allocatable " +
               Show(node.allocatable);
      }
    }
    for (const auto& port : HostPorts(pod)) {
      if (ports.contains(port)) {
        return where + "NodePorts: " + port.first + "/" +
               std::to_string(port.second) + " is taken";
      }
    }
    if (std::optional<std::string> v =
            AntiAffinityViolation(pod, node, cluster.nodes(), on_node, all)) {
      return where + "InterPodAffinity: " + *v;
    }
    on_node[node.name].insert(a.pod);
  }
  return std::nullopt;
}

std::optional<std::string> CheckBindingsAgreeWithPlacements(
    const Scenario& scenario, const Trace& trace) {
  Cluster cluster(scenario);
  std::map<std::string, std::string> bound_to;
  std::map<int64_t, const api::Attempt*> decisions;  // by cycle
  for (const Trace::Record& r : trace.records) {
    cluster.AdvanceTo(RecordTime(r));
    if (const api::Note* n = api::AsNote(r)) cluster.ApplyVictimNote(*n);
    if (const api::Attempt* a = api::AsAttempt(r); a != nullptr && !a->node.empty()) {
      decisions[a->cycle] = a;
    }
    if (api::AsBinding(r) == nullptr) continue;
    const api::Binding& b = *api::AsBinding(r);
    auto d = decisions.find(b.cycle);
    if (d == decisions.end() || d->second->pod != b.pod ||
        d->second->node != b.node) {
      return "t=" + std::to_string(b.at) + "ms: the binding of " + b.pod +
             " to " + b.node + " in cycle " + std::to_string(b.cycle) +
             " ends no decision of that cycle";
    }
    if (b.outcome != api::BindingOutcome::kBound) continue;
    auto [earlier, first] = bound_to.emplace(b.pod, b.node);
    if (!first) {
      return b.pod + " is bound twice: to " + earlier->second +
             ", then at t=" + std::to_string(b.at) + "ms to " + b.node;
    }
  }
  cluster.Finish();
  for (const auto& [key, pod] : cluster.pods()) {
    if (!trace.placements.contains(key)) {
      return key + " still exists but has no placement";
    }
  }
  for (const auto& [key, node] : trace.placements) {
    auto pod = cluster.pods().find(key);
    if (pod == cluster.pods().end()) {
      return key + " has a placement but no longer exists";
    }
    auto bound = bound_to.find(key);
    const std::string want =
        bound != bound_to.end() ? bound->second : pod->second.node_name;
    if (node != want) {
      return key + " is placed on \"" + node + "\", its binding says \"" +
             want + "\"";
    }
  }
  return std::nullopt;
}

std::optional<std::string> CheckHigherPriorityTriedFirst(
    const Scenario& scenario, const Trace& trace) {
  const std::map<std::string, api::Pod> all = AllPods(scenario);
  auto priority = [&](const std::string& key) {
    auto it = all.find(key);
    return it == all.end() ? 0 : it->second.priority.value_or(0);
  };
  std::set<std::string> profiles;
  for (const api::Profile& profile : scenario.config.profiles) {
    profiles.insert(profile.scheduler_name);
  }
  // t -> E(t).
  std::map<TimeMs, std::set<std::string>> entering;
  std::set<std::string> gated;
  for (const api::Pod& p : scenario.initial.pods) {
    if (!profiles.contains(p.scheduler_name)) continue;
    if (!p.scheduling_gates.empty()) gated.insert(p.Key());
    if (p.node_name.empty() && p.scheduling_gates.empty()) {
      entering[0].insert(p.Key());
    }
  }
  for (const api::Event& e : scenario.timeline) {
    const auto* p = std::get_if<api::Pod>(&e.object);
    if (p != nullptr && !profiles.contains(p->scheduler_name)) continue;
    if (p != nullptr && e.op == api::Event::Op::kCreate) {
      if (!p->scheduling_gates.empty()) {
        gated.insert(p->Key());
      } else if (p->node_name.empty()) {
        entering[e.at].insert(p->Key());
      }
    }
    if (p != nullptr && e.op == api::Event::Op::kUpdate &&
        p->scheduling_gates.empty() && gated.erase(p->Key()) != 0) {
      entering[e.at].insert(p->Key());
    }
    if (e.op == api::Event::Op::kDelete && e.kind == "Pod") {
      entering[e.at].erase(e.name);
      gated.erase(e.name);
    }
  }
  std::map<TimeMs, std::vector<std::string>> attempted;  // in trace order
  for (const Trace::Record& r : trace.records) {
    if (const api::Attempt* a = api::AsAttempt(r)) attempted[a->at].push_back(a->pod);
  }
  for (const auto& [t, keys] : entering) {
    const std::vector<std::string>& tried = attempted[t];
    for (const std::string& x : keys) {
      auto first = std::find(tried.begin(), tried.end(), x);
      if (first == tried.end()) {
        return x + " entered activeQ at t=" + std::to_string(t) +
               "ms but was not attempted then";
      }
      for (auto y = tried.begin(); y != first; ++y) {
        if (priority(*y) < priority(x)) {
          return "at t=" + std::to_string(t) + "ms " + *y + " (priority " +
                 std::to_string(priority(*y)) + ") was attempted before " + x +
                 " (priority " + std::to_string(priority(x)) +
                 "), which was in activeQ";
        }
      }
    }
  }
  return std::nullopt;
}

std::optional<std::string> CheckRejectionsAreTruthful(const Scenario& scenario,
                                                      const Trace& trace) {
  Cluster cluster(scenario);
  for (const Trace::Record& r : trace.records) {
    cluster.AdvanceTo(RecordTime(r));
    if (const api::Note* n = api::AsNote(r)) cluster.ApplyVictimNote(*n);
    if (api::AsAttempt(r) == nullptr) continue;
    const api::Attempt& a = *api::AsAttempt(r);
    auto pod_it = cluster.pods().find(a.pod);
    if (pod_it == cluster.pods().end()) {
      if (a.rejections.empty()) continue;
      return "t=" + std::to_string(a.at) + "ms: " + a.pod +
             " has rejections but does not exist";
    }
    const api::Pod& pod = pod_it->second;
    for (const auto& [name, rejection] : a.rejections) {
      const std::string where = "t=" + std::to_string(a.at) + "ms cycle " +
                                std::to_string(a.cycle) + ": " + a.pod +
                                " rejected by " + name + ": ";
      auto node_it = cluster.nodes().find(name);
      if (node_it == cluster.nodes().end()) {
        return where + "the node does not exist";
      }
      const api::Node& node = node_it->second;
      // The first of the node-only filters that fails, in profile order.
      std::string first;
      if (!NodeUnschedulableAdmits(pod, node)) {
        first = "NodeUnschedulable";
      } else if (!TaintsTolerated(pod, node)) {
        first = "TaintToleration";
      } else if (!api::RequiredNodeAffinityMatches(pod, node)) {
        first = "NodeAffinity";
      }
      if (!first.empty() && rejection.plugin() != first) {
        return where + first + " fails first, but " + rejection.plugin() +
               " is recorded";
      }
      if (first.empty() && (rejection.plugin() == "NodeUnschedulable" ||
                            rejection.plugin() == "TaintToleration" ||
                            rejection.plugin() == "NodeAffinity")) {
        return where + rejection.plugin() + " is recorded, but it passes";
      }
      if (!first.empty() && rejection.code() != api::RejectionCode::kUnschedulableAndUnresolvable) {
        return where + first + " rejected with code " + std::string(api::CodeName(rejection.code()));
      }
    }
  }
  return std::nullopt;
}

// --- Storage invariants
// ----------------------------------------------------------

namespace {

// Replays the decisions as CheckDecisionsPassedFilters does and calls
// `check(pod, node, on_node)` for each decision, before the decided pod
// joins its node, with the pods on the nodes that exist then; returns the
// first violation.
template <typename F>
std::optional<std::string> ReplayDecisions(const Scenario& scenario, const Trace& trace,
                                           F check) {
  Cluster cluster(scenario);
  std::map<std::string, std::set<std::string>> on_node;
  for (const api::Pod& p : scenario.initial.pods) {
    if (!p.node_name.empty()) on_node[p.node_name].insert(p.Key());
  }
  auto remove_everywhere = [&](const std::string& key) {
    for (auto& [node, keys] : on_node) keys.erase(key);
  };
  for (const Trace::Record& r : trace.records) {
    cluster.AdvanceTo(RecordTime(r), [&](const api::Event& e) {
      if (e.op == api::Event::Op::kDelete && e.kind == "Pod") remove_everywhere(e.name);
    });
    const api::Note* n = api::AsNote(r);
    if (n != nullptr && cluster.ApplyVictimNote(*n)) remove_everywhere(n->pod);
    if (const api::Binding* b = api::AsBinding(r);
        b != nullptr && b->outcome != api::BindingOutcome::kBound) {
      on_node[b->node].erase(b->pod);
    }
    const api::Attempt* a = api::AsAttempt(r);
    if (a == nullptr || a->node.empty()) continue;
    auto pod = cluster.pods().find(a->pod);
    auto node = cluster.nodes().find(a->node);
    if (pod == cluster.pods().end() || node == cluster.nodes().end()) {
      on_node[a->node].insert(a->pod);  // CheckDecisionsPassedFilters' business
      continue;
    }
    const std::string where = "t=" + std::to_string(a->at) + "ms cycle " +
                              std::to_string(a->cycle) + ": " + a->pod + " onto " + a->node +
                              ": ";
    // Pods on deleted nodes are left out, as the snapshot leaves them out
    // (fewer pods: a weaker check).
    std::map<std::string, std::set<std::string>> live;
    for (const auto& [name, keys] : on_node) {
      if (cluster.nodes().contains(name)) live[name] = keys;
    }
    if (std::optional<std::string> v = check(pod->second, node->second, live)) {
      return where + *v;
    }
    on_node[a->node].insert(a->pod);
  }
  return std::nullopt;
}

bool HasMode(const api::PersistentVolumeClaim& claim, const std::string& mode) {
  for (const std::string& m : claim.spec.access_modes) {
    if (m == mode) return true;
  }
  return false;
}

// "driver/handle" of every bound CSI PV the claims of `pod` use, by driver.
std::map<std::string, std::set<std::string>> CsiHandles(const api::Pod& pod,
                                                        const api::StorageObjects& storage) {
  std::map<std::string, std::set<std::string>> out;
  for (const api::PersistentVolumeClaim* claim : PodClaims(pod, storage)) {
    if (claim->spec.volume_name.empty()) continue;
    const api::PersistentVolume* pv = storage.Volume(claim->spec.volume_name);
    if (pv == nullptr || pv->source.kind != "csi") continue;
    out[pv->source.driver].insert(pv->source.driver + "/" + pv->source.volume_handle);
  }
  return out;
}

}  // namespace

std::vector<const api::PersistentVolumeClaim*> PodClaims(const api::Pod& pod,
                                                         const api::StorageObjects& storage) {
  std::vector<const api::PersistentVolumeClaim*> out;
  for (const api::Volume& v : pod.volumes) {
    const api::PersistentVolumeClaim* claim = nullptr;
    if (v.source.kind == "persistentVolumeClaim") {
      claim = storage.Claim(pod.ns, v.source.claim_name);
    } else if (v.source.kind == "ephemeral") {
      claim = storage.Claim(pod.ns, pod.name + "-" + v.name);
    }
    if (claim != nullptr) out.push_back(claim);
  }
  return out;
}

std::optional<std::string> CheckReadWriteOncePodExclusive(const Scenario& scenario,
                                                          const Trace& trace) {
  const api::StorageObjects storage = api::StorageObjects::From(scenario.initial);
  const std::map<std::string, api::Pod> all = AllPods(scenario);
  return ReplayDecisions(
      scenario, trace,
      [&](const api::Pod& pod, const api::Node&,
          const std::map<std::string, std::set<std::string>>& on_node)
          -> std::optional<std::string> {
        for (const api::PersistentVolumeClaim* claim : PodClaims(pod, storage)) {
          if (!HasMode(*claim, api::kReadWriteOncePod)) continue;
          for (const auto& [node, keys] : on_node) {
            for (const std::string& key : keys) {
              if (key == pod.Key()) continue;
              for (const api::PersistentVolumeClaim* c : PodClaims(all.at(key), storage)) {
                if (c == claim) {
                  return "VolumeRestrictions: ReadWriteOncePod claim " + claim->Key() +
                         " is already used by " + key + " on " + node;
                }
              }
            }
          }
        }
        return std::nullopt;
      });
}

std::optional<std::string> CheckCsiAttachLimits(const Scenario& scenario, const Trace& trace) {
  const api::StorageObjects storage = api::StorageObjects::From(scenario.initial);
  const std::map<std::string, api::Pod> all = AllPods(scenario);
  return ReplayDecisions(
      scenario, trace,
      [&](const api::Pod& pod, const api::Node& node,
          const std::map<std::string, std::set<std::string>>& on_node)
          -> std::optional<std::string> {
        const api::CSINode* csi_node = storage.CsiNode(node.name);
        if (csi_node == nullptr) return std::nullopt;
        std::map<std::string, std::set<std::string>> handles = CsiHandles(pod, storage);
        if (handles.empty()) return std::nullopt;
        auto here = on_node.find(node.name);
        if (here != on_node.end()) {
          for (const std::string& key : here->second) {
            for (const auto& [driver, set] : CsiHandles(all.at(key), storage)) {
              handles[driver].insert(set.begin(), set.end());
            }
          }
        }
        for (const api::CSINodeDriver& d : csi_node->drivers) {
          if (!d.allocatable_count) continue;
          auto it = handles.find(d.name);
          if (it == handles.end()) continue;
          if (static_cast<int64_t>(it->second.size()) > *d.allocatable_count) {
            return "NodeVolumeLimits: " + std::to_string(it->second.size()) +
                   " unique volumes of driver " + d.name + ", limit " +
                   std::to_string(*d.allocatable_count);
          }
        }
        return std::nullopt;
      });
}

std::optional<std::string> CheckBoundVolumeNodeAffinity(const Scenario& scenario,
                                                        const Trace& trace) {
  const api::StorageObjects storage = api::StorageObjects::From(scenario.initial);
  return ReplayDecisions(
      scenario, trace,
      [&](const api::Pod& pod, const api::Node& node,
          const std::map<std::string, std::set<std::string>>&) -> std::optional<std::string> {
        for (const api::PersistentVolumeClaim* claim : PodClaims(pod, storage)) {
          if (claim->spec.volume_name.empty()) continue;
          const api::PersistentVolume* pv = storage.Volume(claim->spec.volume_name);
          if (pv == nullptr || !pv->node_affinity) continue;
          if (!api::NodeSelectorMatches(*pv->node_affinity, node)) {
            return "VolumeBinding: the node affinity of " + pv->name + " (bound to " +
                   claim->Key() + ") does not match the node";
          }
        }
        return std::nullopt;
      });
}

}  // namespace schedref::testing::scenario_gen
