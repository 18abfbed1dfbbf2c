#include "cmd/schedref/summary.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <utility>
#include <variant>

#include <nlohmann/json.hpp>

#include "api/types/resource.h"

namespace schedref::cmd {
namespace {

struct Requests {
  int64_t cpu = 0;
  int64_t memory = 0;
  friend auto operator<=>(const Requests&, const Requests&) = default;
};

Requests RequestsOf(const api::Pod& pod) {
  const api::ResourceList r = api::PodRequestList(pod);
  Requests out;
  if (auto it = r.find(api::kResourceCpu); it != r.end()) out.cpu = it->second;
  if (auto it = r.find(api::kResourceMemory); it != r.end()) out.memory = it->second;
  return out;
}

int64_t Get(const api::ResourceList& r, const char* name) {
  auto it = r.find(name);
  return it == r.end() ? 0 : it->second;
}

struct NodeState {
  int64_t allocatable_cpu = 0, allocatable_memory = 0, allocatable_pods = 0;
  int64_t requested_cpu = 0, requested_memory = 0, pods = 0;
};

// The cluster as the trace and the timeline say it was, replayed in order.
class Replay {
 public:
  explicit Replay(Summary* out) : out_(*out) {}

  void AddNode(const api::Node& node) {
    NodeState& n = nodes_[node.name];
    n.allocatable_cpu = Get(node.allocatable, api::kResourceCpu);
    n.allocatable_memory = Get(node.allocatable, api::kResourceMemory);
    n.allocatable_pods = Get(node.allocatable, api::kResourcePods);
  }
  void DeleteNode(const std::string& name) { nodes_.erase(name); }

  void CreatePod(const api::Pod& pod, api::TimeMs at) {
    if (pod.Terminated()) return;
    PodSummary s;
    s.pod = pod.Key();
    s.created = at;
    const size_t index = out_.pods.size();
    out_.pods.push_back(std::move(s));
    Live& live = live_[pod.Key()];
    live = Live{index, RequestsOf(pod), ""};
    if (pod.node_name.empty()) {
      ++pending_[live.requests];
    } else {
      Place(live, pod.node_name);
      out_.pods[index].state = "running";
    }
  }

  void UpdatePod(const api::Pod& pod) {
    auto it = live_.find(pod.Key());
    if (it == live_.end()) return;
    if (pod.Terminated()) {
      Remove(pod.Key(), "terminal", now_);
      return;
    }
    if (!pod.node_name.empty() && it->second.node.empty()) Bind(pod.Key(), pod.node_name, false);
  }

  void Bind(const std::string& key, const std::string& node, bool by_scheduler) {
    auto it = live_.find(key);
    if (it == live_.end() || !it->second.node.empty()) return;
    Live& live = it->second;
    if (--pending_[live.requests] == 0) pending_.erase(live.requests);
    Place(live, node);
    PodSummary& s = out_.pods[live.index];
    s.state = "running";
    s.node = node;
    if (by_scheduler) s.bound = now_;
  }

  void Attempted(const std::string& key) {
    if (auto it = live_.find(key); it != live_.end()) ++out_.pods[it->second.index].attempts;
  }
  void Preempted(const std::string& key) {
    if (auto it = live_.find(key); it != live_.end()) ++out_.pods[it->second.index].preemptions;
  }

  void Remove(const std::string& key, const std::string& why, api::TimeMs at) {
    auto it = live_.find(key);
    if (it == live_.end()) return;
    Live& live = it->second;
    if (live.node.empty()) {
      if (--pending_[live.requests] == 0) pending_.erase(live.requests);
    } else if (auto n = nodes_.find(live.node); n != nodes_.end()) {
      n->second.requested_cpu -= live.requests.cpu;
      n->second.requested_memory -= live.requests.memory;
      --n->second.pods;
    }
    if (!live.node.empty()) --running_;
    PodSummary& s = out_.pods[live.index];
    s.state = why;
    s.ended = at;
    live_.erase(it);
  }

  void SetNow(api::TimeMs t) { now_ = t; }

  void Sample(api::TimeMs at) {
    ClusterSample c;
    c.at = at;
    for (const auto& [shape, count] : pending_) c.pending += count;
    c.running = running_;
    c.nodes = static_cast<int64_t>(nodes_.size());
    int64_t free_cpu = 0, free_memory = 0, stranded_cpu = 0, stranded_memory = 0;
    for (const auto& [name, n] : nodes_) {
      if (n.pods > 0) ++c.nodes_in_use;
      c.requested_cpu += n.requested_cpu;
      c.requested_memory += n.requested_memory;
      c.allocatable_cpu += n.allocatable_cpu;
      c.allocatable_memory += n.allocatable_memory;
      const int64_t fc = std::max<int64_t>(0, n.allocatable_cpu - n.requested_cpu);
      const int64_t fm = std::max<int64_t>(0, n.allocatable_memory - n.requested_memory);
      free_cpu += fc;
      free_memory += fm;
      bool fits = false;
      if (n.pods < n.allocatable_pods) {
        for (const auto& [shape, count] : pending_) {
          if (shape.cpu <= fc && shape.memory <= fm) {
            fits = true;
            break;
          }
        }
      }
      if (!fits) {
        stranded_cpu += fc;
        stranded_memory += fm;
      }
      NodeSample ns;
      ns.at = at;
      ns.node = name;
      ns.pods = n.pods;
      ns.requested_cpu = n.requested_cpu;
      ns.allocatable_cpu = n.allocatable_cpu;
      ns.requested_memory = n.requested_memory;
      ns.allocatable_memory = n.allocatable_memory;
      out_.nodes.push_back(std::move(ns));
    }
    if (c.pending > 0) {
      if (free_cpu > 0) c.stranded_cpu = static_cast<double>(stranded_cpu) / free_cpu;
      if (free_memory > 0) {
        c.stranded_memory = static_cast<double>(stranded_memory) / free_memory;
      }
    }
    out_.cluster.push_back(c);
  }

  // Pods still there at the end keep their state ("pending", "running").
 private:
  struct Live {
    size_t index = 0;
    Requests requests;
    std::string node;
  };
  void Place(Live& live, const std::string& node) {
    live.node = node;
    ++running_;
    if (auto n = nodes_.find(node); n != nodes_.end()) {
      n->second.requested_cpu += live.requests.cpu;
      n->second.requested_memory += live.requests.memory;
      ++n->second.pods;
    }
  }

  Summary& out_;
  api::TimeMs now_ = 0;
  std::map<std::string, NodeState> nodes_;
  std::map<std::string, Live> live_;
  std::map<Requests, int64_t> pending_;  // pending pods by requests
  int64_t running_ = 0;
};

double Ratio(int64_t a, int64_t b) { return b > 0 ? static_cast<double>(a) / b : 0.0; }

nlohmann::json PercentilesJson(const Percentiles& p) {
  return {{"count", p.count}, {"mean", p.mean}, {"p50", p.p50},
          {"p90", p.p90},     {"p99", p.p99},   {"max", p.max}};
}

nlohmann::json Optional(const std::optional<int64_t>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string CsvOptional(const std::optional<int64_t>& v) {
  return v ? std::to_string(*v) : "";
}

}  // namespace

Percentiles PercentilesOf(std::vector<int64_t> values) {
  Percentiles p;
  p.count = static_cast<int64_t>(values.size());
  if (values.empty()) return p;
  std::sort(values.begin(), values.end());
  double sum = 0;
  for (int64_t v : values) sum += static_cast<double>(v);
  p.mean = sum / static_cast<double>(values.size());
  // Nearest rank: the smallest value with at least q% of the sample at or
  // below it.
  auto rank = [&values](int q) {
    const size_t n = values.size();
    size_t r = (static_cast<size_t>(q) * n + 99) / 100;
    return values[std::max<size_t>(r, 1) - 1];
  };
  p.p50 = rank(50);
  p.p90 = rank(90);
  p.p99 = rank(99);
  p.max = values.back();
  return p;
}

api::TimeMs SummaryEnd(const api::Scenario& scenario, const api::Trace& trace) {
  api::TimeMs end = 0;
  for (const api::Event& e : scenario.timeline) end = std::max(end, e.at);
  for (const api::Trace::Record& r : trace.records) {
    std::visit([&end](const auto& rec) { end = std::max(end, rec.at); }, r);
  }
  return end;
}

Summary Summarize(const api::Scenario& scenario, const api::Trace& trace,
                  api::TimeMs interval_ms) {
  Summary out;
  out.scenario = scenario.name;
  Replay replay(&out);
  for (const api::Node& node : scenario.initial.nodes) replay.AddNode(node);
  for (const api::Pod& pod : scenario.initial.pods) replay.CreatePod(pod, 0);

  const api::TimeMs end = SummaryEnd(scenario, trace);
  out.end = end;

  size_t next_event = 0, next_record = 0;
  auto record_at = [&trace](size_t i) {
    return std::visit([](const auto& rec) { return rec.at; }, trace.records[i]);
  };
  // Everything up to and including `t`: at one instant the timeline's
  // events come before what the scheduler did (docs/semantics/event-loop.md).
  auto advance_to = [&](api::TimeMs t) {
    while (true) {
      const bool event = next_event < scenario.timeline.size() &&
                         scenario.timeline[next_event].at <= t;
      const bool record = next_record < trace.records.size() && record_at(next_record) <= t;
      if (!event && !record) return;
      if (event && (!record || scenario.timeline[next_event].at <= record_at(next_record))) {
        const api::Event& e = scenario.timeline[next_event++];
        replay.SetNow(e.at);
        if (e.op == api::Event::Op::kCreate) {
          if (const auto* node = std::get_if<api::Node>(&e.object)) replay.AddNode(*node);
          if (const auto* pod = std::get_if<api::Pod>(&e.object)) replay.CreatePod(*pod, e.at);
        } else if (e.op == api::Event::Op::kUpdate) {
          if (const auto* node = std::get_if<api::Node>(&e.object)) replay.AddNode(*node);
          if (const auto* pod = std::get_if<api::Pod>(&e.object)) replay.UpdatePod(*pod);
        } else if (e.op == api::Event::Op::kDelete) {
          if (e.kind == "Node") replay.DeleteNode(e.name);
          if (e.kind == "Pod") replay.Remove(e.name, "deleted", e.at);
        }
        continue;
      }
      const api::Trace::Record& r = trace.records[next_record++];
      if (const api::Attempt* a = api::AsAttempt(r)) {
        replay.SetNow(a->at);
        replay.Attempted(a->pod);
      } else if (const api::Binding* b = api::AsBinding(r)) {
        replay.SetNow(b->at);
        if (b->outcome == api::BindingOutcome::kBound) replay.Bind(b->pod, b->node, true);
      } else if (const api::Note* n = api::AsNote(r)) {
        replay.SetNow(n->at);
        if (n->what == "victimDeleted") {
          replay.Preempted(n->pod);
          replay.Remove(n->pod, "preempted", n->at);
        } else if (n->what == "victimTerminating" || n->what == "victimRejectedAtPermit") {
          replay.Preempted(n->pod);
        } else if (n->what == "victimTerminated") {
          replay.Remove(n->pod, "preempted", n->at);
        } else if (n->what == "podFinished") {
          replay.Remove(n->pod, "finished", n->at);
        }
      }
    }
  };
  for (api::TimeMs t = 0;; t += interval_ms) {
    const api::TimeMs at = std::min(t, end);
    advance_to(at);
    replay.Sample(at);
    if (at == end) break;
  }

  std::vector<int64_t> waits, attempts;
  for (const PodSummary& p : out.pods) {
    attempts.push_back(p.attempts);
    out.preemptions += p.preemptions;
    if (p.bound) {
      waits.push_back(*p.WaitMs());
      ++out.pods_bound;
    } else if (p.node.empty()) {
      ++out.pods_never_bound;
    }
    if (p.state == "finished") ++out.pods_finished;
  }
  out.wait_ms = PercentilesOf(std::move(waits));
  out.attempts = PercentilesOf(std::move(attempts));
  for (const ClusterSample& c : out.cluster) {
    out.mean_cpu_utilization += Ratio(c.requested_cpu, c.allocatable_cpu);
    out.mean_memory_utilization += Ratio(c.requested_memory, c.allocatable_memory);
    out.mean_stranded_cpu += c.stranded_cpu;
    out.mean_pending += static_cast<double>(c.pending);
    out.peak_pending = std::max(out.peak_pending, c.pending);
    out.peak_nodes_in_use = std::max(out.peak_nodes_in_use, c.nodes_in_use);
  }
  if (!out.cluster.empty()) {
    const double n = static_cast<double>(out.cluster.size());
    out.mean_cpu_utilization /= n;
    out.mean_memory_utilization /= n;
    out.mean_stranded_cpu /= n;
    out.mean_pending /= n;
  }
  return out;
}

std::string SummaryJson(const Summary& s) {
  nlohmann::json pods = nlohmann::json::array();
  for (const PodSummary& p : s.pods) {
    pods.push_back({{"pod", p.pod},
                    {"created", p.created},
                    {"bound", Optional(p.bound)},
                    {"waitMs", Optional(p.WaitMs())},
                    {"node", p.node},
                    {"attempts", p.attempts},
                    {"preemptions", p.preemptions},
                    {"ended", Optional(p.ended)},
                    {"state", p.state}});
  }
  nlohmann::json cluster = nlohmann::json::array();
  for (const ClusterSample& c : s.cluster) {
    cluster.push_back({{"t", c.at},
                       {"pending", c.pending},
                       {"running", c.running},
                       {"nodes", c.nodes},
                       {"nodesInUse", c.nodes_in_use},
                       {"requestedCpu", c.requested_cpu},
                       {"allocatableCpu", c.allocatable_cpu},
                       {"requestedMemory", c.requested_memory},
                       {"allocatableMemory", c.allocatable_memory},
                       {"strandedCpu", c.stranded_cpu},
                       {"strandedMemory", c.stranded_memory}});
  }
  // Per node: the peak and time-averaged use over the samples.
  struct NodeAggregate {
    int64_t samples = 0, peak_pods = 0;
    double cpu = 0, memory = 0, peak_cpu = 0;
  };
  std::map<std::string, NodeAggregate> by_node;
  for (const NodeSample& n : s.nodes) {
    NodeAggregate& a = by_node[n.node];
    ++a.samples;
    a.peak_pods = std::max(a.peak_pods, n.pods);
    const double cpu = Ratio(n.requested_cpu, n.allocatable_cpu);
    a.cpu += cpu;
    a.peak_cpu = std::max(a.peak_cpu, cpu);
    a.memory += Ratio(n.requested_memory, n.allocatable_memory);
  }
  nlohmann::json nodes = nlohmann::json::array();
  for (const auto& [name, a] : by_node) {
    nodes.push_back({{"node", name},
                     {"samples", a.samples},
                     {"peakPods", a.peak_pods},
                     {"meanCpuUtilization", a.cpu / a.samples},
                     {"peakCpuUtilization", a.peak_cpu},
                     {"meanMemoryUtilization", a.memory / a.samples}});
  }
  nlohmann::json doc = {
      {"format", "schedref-summary"},
      {"version", 1},
      {"scenario", s.scenario},
      {"end", s.end},
      {"totals",
       {{"pods", static_cast<int64_t>(s.pods.size())},
        {"bound", s.pods_bound},
        {"neverBound", s.pods_never_bound},
        {"finished", s.pods_finished},
        {"preemptions", s.preemptions},
        {"waitMs", PercentilesJson(s.wait_ms)},
        {"attempts", PercentilesJson(s.attempts)},
        {"meanCpuUtilization", s.mean_cpu_utilization},
        {"meanMemoryUtilization", s.mean_memory_utilization},
        {"meanStrandedCpu", s.mean_stranded_cpu},
        {"meanPending", s.mean_pending},
        {"peakPending", s.peak_pending},
        {"peakNodesInUse", s.peak_nodes_in_use}}},
      {"pods", std::move(pods)},
      {"cluster", std::move(cluster)},
      {"nodes", std::move(nodes)},
  };
  return doc.dump(2) + "\n";
}

std::string SummaryCsv(const Summary& s, const std::string& table) {
  std::ostringstream out;
  if (table == "pods") {
    out << "pod,created,bound,wait_ms,node,attempts,preemptions,ended,state\n";
    for (const PodSummary& p : s.pods) {
      out << CsvField(p.pod) << "," << p.created << "," << CsvOptional(p.bound) << ","
          << CsvOptional(p.WaitMs()) << "," << CsvField(p.node) << "," << p.attempts << ","
          << p.preemptions << "," << CsvOptional(p.ended) << "," << p.state << "\n";
    }
  } else if (table == "cluster") {
    out << "t,pending,running,nodes,nodes_in_use,requested_cpu,allocatable_cpu,"
           "requested_memory,allocatable_memory,stranded_cpu,stranded_memory\n";
    for (const ClusterSample& c : s.cluster) {
      out << c.at << "," << c.pending << "," << c.running << "," << c.nodes << ","
          << c.nodes_in_use << "," << c.requested_cpu << "," << c.allocatable_cpu << ","
          << c.requested_memory << "," << c.allocatable_memory << "," << c.stranded_cpu << ","
          << c.stranded_memory << "\n";
    }
  } else {
    out << "t,node,pods,requested_cpu,allocatable_cpu,requested_memory,allocatable_memory\n";
    for (const NodeSample& n : s.nodes) {
      out << n.at << "," << CsvField(n.node) << "," << n.pods << "," << n.requested_cpu << ","
          << n.allocatable_cpu << "," << n.requested_memory << "," << n.allocatable_memory
          << "\n";
    }
  }
  return out.str();
}

}  // namespace schedref::cmd
