// Differential test: the optimized queue against the reference queue (the
// executable specification) on random operation sequences, with and without
// QueueingHints. Both queues get the same profile (PrioritySort, two
// PreEnqueue plugins, hint functions that decide from the event's objects
// and may fail), and after every operation the test compares everything
// observable: the three queues in their pinned orders, the in-flight list,
// nominations and NominatedPodsForNode, SchedulingCycle, Locate and the full
// QueuedPodInfo of every pod, Pop results, AddUnschedulableIfNotPresent
// statuses, and the sequence of PreEnqueue and hint calls. A failure prints
// the seed and the operation log.
//
// It lives here, not beside the optimized queue, because optimized/ never
// depends on reference/, not even in its tests.
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "optimized/backend/queue/pod_events.h"
#include "optimized/backend/queue/scheduling_queue.h"
#include "reference/backend/queue/pod_events.h"
#include "reference/backend/queue/scheduling_queue.h"
#include "testing/st/wrappers.h"

namespace {

namespace ref = schedref::reference;
namespace opt = schedref::optimized;
namespace api = schedref::api;
using schedref::StatusOr;

std::vector<std::string> g_ref_log, g_opt_log;

// --- sort ---
struct RefSort : ref::framework::QueueSortPlugin {
  std::string Name() const override { return "PrioritySort"; }
  bool Less(const ref::framework::QueuedPodInfo& a,
            const ref::framework::QueuedPodInfo& b) const override {
    int32_t pa = a.pod.priority.value_or(0), pb = b.pod.priority.value_or(0);
    return pa > pb || (pa == pb && a.timestamp < b.timestamp);
  }
};
struct OptSort : opt::framework::QueueSortPlugin {
  std::string Name() const override { return "PrioritySort"; }
  bool Less(const opt::framework::QueuedPodInfo& a,
            const opt::framework::QueuedPodInfo& b) const override {
    int32_t pa = a.pod().priority.value_or(0), pb = b.pod().priority.value_or(0);
    return pa > pb || (pa == pb && a.timestamp < b.timestamp);
  }
};

// --- pre-enqueue ---
bool Gates(const api::Pod& p) { return !p.scheduling_gates.empty(); }
bool Blocked(const api::Pod& p) {
  auto it = p.labels.find("block");
  return it != p.labels.end() && it->second == "1";
}
struct RefGates : ref::framework::PreEnqueuePlugin {
  std::string Name() const override { return "SchedulingGates"; }
  ref::framework::Status PreEnqueue(const api::Pod& p) override {
    g_ref_log.push_back("pre:SchedulingGates:" + p.name);
    return Gates(p) ? ref::framework::Status(ref::framework::Code::kUnschedulableAndUnresolvable,
                                             "gated")
                    : ref::framework::Status();
  }
};
struct OptGates : opt::framework::PreEnqueuePlugin {
  std::string Name() const override { return "SchedulingGates"; }
  opt::framework::Status PreEnqueue(const api::Pod& p) override {
    g_opt_log.push_back("pre:SchedulingGates:" + p.name);
    return Gates(p) ? opt::framework::Status(opt::framework::Code::kUnschedulableAndUnresolvable,
                                             "gated")
                    : opt::framework::Status();
  }
};
struct RefAllow : ref::framework::PreEnqueuePlugin {
  std::string Name() const override { return "Allow"; }
  ref::framework::Status PreEnqueue(const api::Pod& p) override {
    g_ref_log.push_back("pre:Allow:" + p.name);
    return Blocked(p) ? ref::framework::Status(ref::framework::Code::kUnschedulable, "blocked")
                      : ref::framework::Status();
  }
};
struct OptAllow : opt::framework::PreEnqueuePlugin {
  std::string Name() const override { return "Allow"; }
  opt::framework::Status PreEnqueue(const api::Pod& p) override {
    g_opt_log.push_back("pre:Allow:" + p.name);
    return Blocked(p) ? opt::framework::Status(opt::framework::Code::kUnschedulable, "blocked")
                      : opt::framework::Status();
  }
};

// --- hints: one decision function for both ---
struct Objs {
  const api::Pod* old_pod;
  const api::Pod* new_pod;
  const api::Node* old_node;
  const api::Node* new_node;
};
// 0 skip, 1 queue, 2 error
int Decide(const std::string& plugin, const api::Pod& pod, const Objs& o) {
  if (plugin == "A")
    return (o.new_node && o.new_node->name == "n1") ? 1
           : (o.new_pod && o.new_pod->name == "a0") ? 2
                                                    : 0;
  if (plugin == "B") {
    if (o.new_pod) {
      auto it = o.new_pod->labels.find("app");
      return it != o.new_pod->labels.end() && it->second == "web";
    }
    return o.new_node && o.old_node && o.new_node->labels != o.old_node->labels ? 1 : 2;
  }
  if (plugin == "C") return (pod.name.back() - '0') % 2 == 0 ? 1 : 0;
  if (plugin == "SchedulingGates")
    return (o.new_pod && o.new_pod->uid == pod.uid && o.new_pod->scheduling_gates.empty()) ? 1 : 0;
  if (plugin == "Allow") return (o.new_pod && !Blocked(*o.new_pod)) ? 1 : 0;
  return 1;
}
Objs FromRef(const ref::framework::EventObject& o, const ref::framework::EventObject& n) {
  return {std::get_if<api::Pod>(&o), std::get_if<api::Pod>(&n), std::get_if<api::Node>(&o),
          std::get_if<api::Node>(&n)};
}

struct Reg {
  int resource;
  uint32_t action;
  std::string label;
  std::string plugin;
  bool has_fn;
};
std::vector<Reg> Regs() {
  using namespace opt::framework;
  return {
      {(int)EventResource::kNode, kAdd, "NodeAdd", "A", true},
      {(int)EventResource::kPod, kAdd, "AssignedPodAdd", "A", false},
      {(int)EventResource::kNode, kUpdateNodeLabel, "NodeLabel", "B", true},
      {(int)EventResource::kPod, kUpdatePodLabel, "PodLabel", "B", true},
      {(int)EventResource::kWildCard, kAdd, "*Add", "C", true},
      {(int)EventResource::kPod, kUpdate, "PodUpdate", "C", true},
      {(int)EventResource::kPod, kDelete, "PodDelete", "C", false},
      {(int)EventResource::kPod, kUpdatePodSchedulingGatesEliminated, "Ungated", "SchedulingGates",
       true},
      {(int)EventResource::kPod, kUpdatePodLabel, "PodLabel", "Allow", true},
      {(int)EventResource::kNode, kAdd, "NodeAdd", "Allow", true},
  };
}

struct Cluster {
  std::map<std::string, api::Pod> pods;  // by key
  std::optional<api::Pod> Get(const std::string& key) const {
    auto it = pods.find(key);
    if (it == pods.end()) return std::nullopt;
    return it->second;
  }
};

struct Harness {
  Cluster cluster;
  RefSort rsort;
  OptSort osort;
  RefGates rgates;
  OptGates ogates;
  RefAllow rallow;
  OptAllow oallow;
  std::unique_ptr<ref::queue::SchedulingQueue> r;
  std::unique_ptr<opt::backend::queue::SchedulingQueue> o;
  std::map<std::string, ref::framework::QueuedPodInfo> r_flight;  // by uid
  std::map<std::string, opt::framework::QueuedPodInfo> o_flight;

  explicit Harness(bool hints) {
    ref::queue::SchedulingQueue::Options ro;
    opt::backend::queue::SchedulingQueue::Options oo;
    ro.queueing_hints_enabled = oo.queueing_hints_enabled = hints;
    ro.pod_lister = [this](const std::string& k) { return cluster.Get(k); };
    oo.pod_lister = [this](const std::string& k) { return cluster.Get(k); };
    auto ns = [](const std::string& ns) {
      return ns == "ns1" ? api::Labels{{"team", "a"}} : api::Labels{};
    };
    ro.namespace_labels = ns;
    oo.namespace_labels = ns;
    ref::queue::SchedulingQueue::Profile rp;
    opt::backend::queue::SchedulingQueue::Profile op;
    rp.pre_enqueue = {&rgates, &rallow};
    op.pre_enqueue = {&ogates, &oallow};
    for (const Reg& reg : Regs()) {
      ref::framework::ClusterEvent re{(ref::framework::EventResource)reg.resource, reg.action,
                                      reg.label};
      opt::framework::ClusterEvent oe{(opt::framework::EventResource)reg.resource, reg.action,
                                      reg.label};
      ref::framework::QueueingHintFn rf;
      opt::framework::QueueingHintFn of;
      if (reg.has_fn) {
        std::string plugin = reg.plugin, label = reg.label;
        rf = [plugin, label](
                 const api::Pod& pod, const ref::framework::EventObject& a,
                 const ref::framework::EventObject& b) -> StatusOr<ref::framework::QueueingHint> {
          g_ref_log.push_back("hint:" + plugin + ":" + label + ":" + pod.name);
          int d = Decide(plugin, pod, FromRef(a, b));
          if (d == 2) return schedref::Status::Invalid("err");
          return d ? ref::framework::QueueingHint::kQueue : ref::framework::QueueingHint::kSkip;
        };
        of = [plugin, label](
                 const api::Pod& pod,
                 const opt::framework::EventObjects& x) -> StatusOr<opt::framework::QueueingHint> {
          g_opt_log.push_back("hint:" + plugin + ":" + label + ":" + pod.name);
          int d = Decide(plugin, pod, Objs{x.old_pod, x.new_pod, x.old_node, x.new_node});
          if (d == 2) return schedref::Status::Invalid("err");
          return d ? opt::framework::QueueingHint::kQueue : opt::framework::QueueingHint::kSkip;
        };
      }
      rp.queueing_hints[reg.plugin].push_back({re, rf});
      op.queueing_hints[reg.plugin].push_back({oe, of});
    }
    std::map<std::string, ref::queue::SchedulingQueue::Profile> rps{{"default-scheduler", rp}};
    std::map<std::string, opt::backend::queue::SchedulingQueue::Profile> ops{
        {"default-scheduler", op}};
    r = std::make_unique<ref::queue::SchedulingQueue>(ro, &rsort, rps);
    o = std::make_unique<opt::backend::queue::SchedulingQueue>(oo, &osort, ops);
  }
};

std::string Show(const std::vector<std::string>& v) {
  std::string s = "[";
  for (auto& x : v) s += x + ",";
  return s + "]";
}
std::string Show(const std::set<std::string>& v) {
  return Show(std::vector<std::string>(v.begin(), v.end()));
}

bool Same(const ref::framework::QueuedPodInfo& a, const opt::framework::QueuedPodInfo& b,
          std::string* why) {
  std::ostringstream w;
  if (!(a.pod == b.pod())) w << "pod ";
  if (a.timestamp != b.timestamp) w << "timestamp " << a.timestamp << "/" << b.timestamp << " ";
  if (a.attempts != b.attempts) w << "attempts " << a.attempts << "/" << b.attempts << " ";
  if (a.initial_attempt_timestamp != b.initial_attempt_timestamp) w << "initial ";
  if (a.unschedulable_plugins != b.unschedulable_plugins)
    w << "unsched " << Show(a.unschedulable_plugins) << "/" << Show(b.unschedulable_plugins) << " ";
  if (a.pending_plugins != b.pending_plugins) w << "pending ";
  if (a.gated != b.gated) w << "gated " << a.gated << "/" << b.gated << " ";
  *why = w.str();
  return why->empty();
}

bool Compare(Harness& h, const std::vector<std::string>& keys, std::string* why) {
  auto& r = *h.r;
  auto& o = *h.o;
  if (r.ActivePodKeys() != o.ActivePodKeys()) {
    *why = "active " + Show(r.ActivePodKeys()) + " vs " + Show(o.ActivePodKeys());
    return false;
  }
  if (r.BackoffPodKeys() != o.BackoffPodKeys()) {
    *why = "backoff " + Show(r.BackoffPodKeys()) + " vs " + Show(o.BackoffPodKeys());
    return false;
  }
  if (r.UnschedulablePodKeys() != o.UnschedulablePodKeys()) {
    *why = "unsched " + Show(r.UnschedulablePodKeys()) + " vs " + Show(o.UnschedulablePodKeys());
    return false;
  }
  if (r.InFlightPodKeys() != o.InFlightPodKeys()) {
    *why = "inflight";
    return false;
  }
  if (r.InFlightEntries() != o.InFlightEntries()) {
    *why = "entries " + Show(r.InFlightEntries()) + " vs " + Show(o.InFlightEntries());
    return false;
  }
  if (r.NominatedPodKeysByNode() != o.NominatedPodKeysByNode()) {
    *why = "nominated";
    return false;
  }
  if (r.SchedulingCycle() != o.SchedulingCycle()) {
    *why = "cycle";
    return false;
  }
  if (r.HasPodsInFlight() != o.HasPodsInFlight()) {
    *why = "hasinflight";
    return false;
  }
  for (const char* node : {"n1", "n2", ""}) {
    std::vector<api::Pod> rp = r.NominatedPodsForNode(node);
    std::vector<api::Pod> op;
    for (auto& p : o.NominatedPodsForNode(node)) op.push_back(p->pod);
    if (rp != op) {
      *why = "nominatedpods " + std::string(node);
      return false;
    }
  }
  for (const std::string& k : keys) {
    if ((int)r.Locate(k) != (int)o.Locate(k)) {
      *why = "locate " + k + " " + std::to_string((int)r.Locate(k)) + "/" +
             std::to_string((int)o.Locate(k));
      return false;
    }
    auto ri = r.Get(k);
    auto oi = o.Get(k);
    if (ri.has_value() != (oi != nullptr)) {
      *why = "get " + k;
      return false;
    }
    if (ri.has_value() && !Same(*ri, *oi, why)) {
      *why = "info " + k + ": " + *why;
      return false;
    }
  }
  if (g_ref_log != g_opt_log) {
    *why = "call log differs:\n ref " + Show(g_ref_log) + "\n opt " + Show(g_opt_log);
    return false;
  }
  return true;
}

struct Rng {
  std::mt19937_64 g;
  int Int(int n) { return std::uniform_int_distribution<int>(0, n - 1)(g); }
  bool Coin() { return Int(2) == 0; }
  template <class T>
  const T& Pick(const std::vector<T>& v) {
    return v[Int((int)v.size())];
  }
};

api::Pod MakePending(Rng& g, int i) {
  auto w = schedref::st::MakePod()
               .Name("p" + std::to_string(i))
               .Namespace("ns1")
               .UID("u" + std::to_string(i));
  w.Priority(g.Pick(std::vector<int>{0, 10, 100}));
  if (g.Int(4) == 0) w.Label("app", "web");
  if (g.Int(5) == 0) w.Label("block", "1");
  if (g.Int(4) == 0) w.SchedulingGates({"g"});
  if (g.Int(3) == 0) w.Req({{"cpu", g.Coin() ? "100m" : "200m"}});
  if (g.Int(4) == 0) w.NominatedNodeName(g.Pick(std::vector<std::string>{"n1", "n2"}));
  if (g.Int(6) == 0) w.PodAffinityExists("app", "zone");
  if (g.Int(12) == 0) w.SchedulerName("other");
  return w.Obj();
}

api::Pod Mutate(Rng& g, api::Pod p) {
  switch (g.Int(7)) {
    case 0:
      p.labels["app"] = g.Coin() ? "web" : "db";
      break;
    case 1:
      p.scheduling_gates.clear();
      break;
    case 2:
      p.labels.erase("block");
      break;
    case 3:
      p.tolerations.push_back({"k", "Exists", "", "", {}});
      break;
    case 4:
      p.nominated_node_name = g.Pick(std::vector<std::string>{"", "n1", "n2"});
      break;
    case 5:
      if (!p.containers.empty()) p.containers[0].requests.clear();
      break;
    default:
      p.start_time = g.Int(100);
      break;
  }
  return p;
}

api::Node MakeNode(Rng& g) {
  return schedref::st::MakeNode()
      .Name(g.Pick(std::vector<std::string>{"n1", "n2", "n3"}))
      .Label("zone", g.Coin() ? "a" : "b")
      .Obj();
}
api::Pod MakeAssigned(Rng& g) {
  auto w = schedref::st::MakePod()
               .Name("a" + std::to_string(g.Int(3)))
               .Namespace(g.Coin() ? "ns1" : "ns2")
               .Node("n1");
  if (g.Coin()) w.Label("app", "web");
  if (g.Coin()) w.Req({{"cpu", g.Coin() ? "100m" : "300m"}});
  return w.Obj();
}

bool RunSequence(uint64_t seed, bool hints, int steps) {
  Rng g{std::mt19937_64(seed)};
  g_ref_log.clear();
  g_opt_log.clear();
  Harness h(hints);
  api::TimeMs now = 1'000'000;
  std::vector<std::string> keys;
  for (int i = 0; i < 8; ++i) keys.push_back("ns1/p" + std::to_string(i));
  std::ostringstream log;
  for (int step = 0; step < steps; ++step) {
    auto& r = *h.r;
    auto& o = *h.o;
    int i = g.Int(8);
    std::string key = keys[i];
    switch (g.Int(20)) {
      case 0:
      case 1: {
        api::Pod p = MakePending(g, i);
        h.cluster.pods[key] = p;
        log << "Add " << key << "\n";
        (void)r.Add(p, now);
        (void)o.Add(p, now);
        break;
      }
      case 2:
      case 3: {
        auto it = h.cluster.pods.find(key);
        api::Pod old_pod = it != h.cluster.pods.end() ? it->second : MakePending(g, i);
        api::Pod new_pod = Mutate(g, old_pod);
        if (g.Int(5) == 0) new_pod = Mutate(g, new_pod);
        h.cluster.pods[key] = new_pod;
        log << "Update " << key << "\n";
        // The update's events and isPodUpdated agree first.
        std::string re, oe;
        for (const auto& e : ref::queue::PodSchedulingPropertiesChange(new_pod, old_pod)) {
          re += e.label + "/" + std::to_string(e.action) + " ";
        }
        for (const auto& e : opt::backend::queue::PodSchedulingPropertiesChange(new_pod, old_pod)) {
          oe += e.label + "/" + std::to_string(e.action) + " ";
        }
        if (re != oe || ref::queue::IsPodUpdated(old_pod, new_pod) !=
                            opt::backend::queue::IsPodUpdated(old_pod, new_pod)) {
          std::fprintf(stderr, "pod events %s / %s\n", re.c_str(), oe.c_str());
          goto fail;
        }
        (void)r.Update(old_pod, new_pod, now);
        (void)o.Update(old_pod, new_pod, now);
        break;
      }
      case 4: {
        auto it = h.cluster.pods.find(key);
        api::Pod p = it != h.cluster.pods.end() ? it->second : MakePending(g, i);
        h.cluster.pods.erase(key);
        log << "Delete " << key << "\n";
        (void)r.Delete(p);
        (void)o.Delete(p);
        break;
      }
      case 5:
      case 6:
      case 7: {
        auto a = r.Pop();
        auto b = o.Pop();
        log << "Pop " << (a ? a->pod.Key() : "-") << "\n";
        if (a.has_value() != b.has_value()) {
          std::fprintf(stderr, "pop presence\n");
          goto fail;
        }
        if (a) {
          std::string why;
          if (!Same(*a, *b, &why)) {
            std::fprintf(stderr, "pop info %s\n", why.c_str());
            goto fail;
          }
          h.r_flight[a->pod.uid] = *a;
          h.o_flight[a->pod.uid] = *b;
        }
        break;
      }
      case 8:
      case 9: {
        if (h.r_flight.empty()) break;
        auto it = std::next(h.r_flight.begin(), g.Int((int)h.r_flight.size()));
        std::string uid = it->first;
        auto ri = it->second;
        auto oi = h.o_flight.at(uid);
        std::set<std::string> un, pe;
        for (const char* pl : {"A", "B", "C", "SchedulingGates", "Allow", "Other"}) {
          if (g.Int(4) == 0) un.insert(pl);
          if (g.Int(8) == 0) pe.insert(pl);
        }
        ri.unschedulable_plugins = un;
        oi.unschedulable_plugins = un;
        ri.pending_plugins = pe;
        oi.pending_plugins = pe;
        if (g.Int(4) == 0) {  // the pod object changed meanwhile
          auto c = h.cluster.pods.find(ri.pod.Key());
          if (c != h.cluster.pods.end()) {
            ri.pod = c->second;
            oi.pod_info = opt::framework::NewPodInfo(c->second);
          }
        }
        int64_t cycle = r.SchedulingCycle() - g.Int(3);
        log << "Fail " << ri.pod.Key() << " un=" << Show(un) << " pe=" << Show(pe) << "\n";
        auto sa = r.AddUnschedulableIfNotPresent(ri, cycle, now);
        auto sb = o.AddUnschedulableIfNotPresent(oi, cycle, now);
        if (sa.ok() != sb.ok() || sa.message() != sb.message()) {
          std::fprintf(stderr, "fail status %s / %s\n", sa.message().c_str(), sb.message().c_str());
          goto fail;
        }
        h.r_flight.erase(uid);
        h.o_flight.erase(uid);
        break;
      }
      case 10: {
        if (h.r_flight.empty()) break;
        auto it = std::next(h.r_flight.begin(), g.Int((int)h.r_flight.size()));
        std::string uid = it->first;
        log << "Done " << uid << "\n";
        r.Done(uid);
        o.Done(uid);
        h.r_flight.erase(uid);
        h.o_flight.erase(uid);
        break;
      }
      case 11:
      case 12: {
        using namespace opt::framework;
        int kind = g.Int(10);
        api::Node n1 = MakeNode(g), n2 = MakeNode(g);
        n2.name = n1.name;
        api::Pod a1 = MakeAssigned(g), a2 = MakeAssigned(g);
        a2.name = a1.name;
        a2.ns = a1.ns;
        a2.uid = a1.uid;
        api::Pod target = h.cluster.pods.count(key) ? h.cluster.pods[key] : MakePending(g, i);
        ref::framework::EventObject ro, rn;
        EventObjects oo;
        ClusterEvent oe;
        ref::framework::ClusterEvent re;
        auto set = [&](ClusterEvent e) {
          oe = e;
          re = {(ref::framework::EventResource)e.resource, e.action, e.label};
        };
        switch (kind) {
          case 0:
            set(NodeAdd());
            rn = n1;
            oo.new_node = &n1;
            break;
          case 1:
            set({EventResource::kNode, kUpdateNodeLabel, "NodeLabelChange"});
            ro = n1;
            rn = n2;
            oo.old_node = &n1;
            oo.new_node = &n2;
            break;
          case 2:
            set(AssignedPodAdd());
            rn = a1;
            oo.new_pod = &a1;
            break;
          case 3:
            set(AssignedPodDelete());
            ro = a1;
            oo.old_pod = &a1;
            break;
          case 4:
            set(AssignedPodUpdate());
            ro = a1;
            rn = a2;
            oo.old_pod = &a1;
            oo.new_pod = &a2;
            break;
          case 5:
            set(UnschedulableTimeout());
            break;
          case 6:
            set({EventResource::kWildCard, kAll, "WildCard"});
            rn = n1;
            oo.new_node = &n1;
            break;
          case 7:
            set(ForceActivate());
            rn = target;
            oo.new_pod = &target;
            break;
          case 8:
            set({EventResource::kNamespace, kAdd, "NamespaceAdd"});
            break;
          default:
            set({EventResource::kPod, kUpdatePodLabel, "AssignedPodUpdatePodLabel"});
            ro = a1;
            rn = a2;
            oo.old_pod = &a1;
            oo.new_pod = &a2;
            break;
        }
        bool pre = g.Int(4) == 0;
        int thr = g.Pick(std::vector<int>{0, 10, 100});
        log << "MoveAll " << oe.label << (pre ? " pre" : "") << "\n";
        if (pre) {
          auto pc = [thr](const api::Pod& p) { return p.priority.value_or(0) >= thr; };
          r.MoveAllToActiveOrBackoffQueue(re, ro, rn, pc, now);
          o.MoveAllToActiveOrBackoffQueue(oe, oo, pc, now);
        } else {
          r.MoveAllToActiveOrBackoffQueue(re, ro, rn, nullptr, now);
          o.MoveAllToActiveOrBackoffQueue(oe, oo, nullptr, now);
        }
        break;
      }
      case 13: {
        std::vector<api::Pod> pods;
        for (int k = 0; k < 1 + g.Int(2); ++k) {
          std::string kk = keys[g.Int(8)];
          pods.push_back(h.cluster.pods.count(kk) ? h.cluster.pods[kk] : MakePending(g, g.Int(8)));
        }
        log << "Activate\n";
        r.Activate(pods, now);
        o.Activate(pods, now);
        break;
      }
      case 14:
        log << "FlushBackoff\n";
        r.FlushBackoffQCompleted(now);
        o.FlushBackoffQCompleted(now);
        break;
      case 15:
        log << "FlushUnsched\n";
        r.FlushUnschedulablePodsLeftover(now);
        o.FlushUnschedulablePodsLeftover(now);
        break;
      case 16: {
        int64_t dt = g.Pick(std::vector<int64_t>{0, 500, 1000, 2000, 5000, 20000, 400000});
        now += dt;
        log << "Advance " << dt << "\n";
        break;
      }
      case 17: {
        api::Pod p = h.cluster.pods.count(key) ? h.cluster.pods[key] : MakePending(g, i);
        std::optional<ref::queue::NominatingInfo> ri;
        std::optional<opt::backend::queue::NominatingInfo> oi;
        int m = g.Int(3);
        std::string node = g.Pick(std::vector<std::string>{"", "n1", "n2"});
        if (m == 1) {
          ri = ref::queue::NominatingInfo{ref::queue::NominatingInfo::kNoop, node};
          oi =
              opt::backend::queue::NominatingInfo{opt::backend::queue::NominatingInfo::kNoop, node};
        }
        if (m == 2) {
          ri = ref::queue::NominatingInfo{ref::queue::NominatingInfo::kOverride, node};
          oi = opt::backend::queue::NominatingInfo{opt::backend::queue::NominatingInfo::kOverride,
                                                   node};
        }
        log << "Nominate " << key << "\n";
        if (g.Int(4) == 0) {
          r.DeleteNominatedPodIfExists(p);
          o.DeleteNominatedPodIfExists(p);
        } else {
          r.AddNominatedPod(p, ri);
          o.AddNominatedPod(opt::framework::NewPodInfo(p), oi);
        }
        break;
      }
      case 18: {
        api::Pod a = MakeAssigned(g);
        log << "AssignedPodAdded\n";
        r.AssignedPodAdded(a, now);
        o.AssignedPodAdded(a, now);
        break;
      }
      default: {
        api::Pod a1 = MakeAssigned(g), a2 = MakeAssigned(g);
        a2.name = a1.name;
        a2.ns = a1.ns;
        a2.uid = a1.uid;
        log << "AssignedPodUpdated\n";
        r.AssignedPodUpdated(a1, a2, now);
        o.AssignedPodUpdated(a1, a2, now);
        break;
      }
    }
    {
      std::string why;
      if (!Compare(h, keys, &why)) {
        std::fprintf(stderr, "seed %llu hints %d step %d: %s\n", (unsigned long long)seed, hints,
                     step, why.c_str());
        goto fail;
      }
    }
    continue;
  fail:
    std::fprintf(stderr, "log:\n%s", log.str().c_str());
    return false;
  }
  return true;
}

// Seeds 1 to 200 in ten blocks of 20, one test each, so that Bazel's shards
// (shard_count in BUILD) split them.
class QueueDifferentialTest : public ::testing::TestWithParam<int> {};

TEST_P(QueueDifferentialTest, RandomSequencesMatchTheReference) {
  const uint64_t first = 1 + 20 * static_cast<uint64_t>(GetParam());
  for (uint64_t seed = first; seed < first + 20; ++seed) {
    for (bool hints : {true, false}) {
      ASSERT_TRUE(RunSequence(seed, hints, 300)) << "seed " << seed << " hints " << hints;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(SeedBlocks, QueueDifferentialTest, ::testing::Range(0, 10));

}  // namespace
