#include "view/run_page.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <set>
#include <variant>
#include <vector>

#include "api/codec/trace_codec.h"
#include "api/types/resource.h"
#include "view/html.h"

namespace schedref::view {
namespace {

using api::TimeMs;

// One stretch of a pod's life, drawn as a segment of its timeline bar.
struct Segment {
  TimeMs from = 0, to = 0;
  const char* kind;  // a class of the style: queued, backoff, unsched, binding, bound
  std::string title;
};

struct PodLife {
  TimeMs created = 0;
  bool in_initial = false;
  bool bound_at_start = false;
  std::optional<TimeMs> deleted;
  std::vector<const api::Trace::Record*> records;
};

std::string Ms(TimeMs t) { return "t=" + std::to_string(t) + " ms"; }

// The backoff upstream's queue applies after a pod's `attempts`-th attempt
// (calculateBackoffDuration): the initial backoff doubled per attempt after
// the first, at most the maximum.
TimeMs Backoff(const api::SchedulerConfiguration& config, int64_t attempts) {
  TimeMs d = config.pod_initial_backoff_seconds * 1000;
  const TimeMs max = config.pod_max_backoff_seconds * 1000;
  for (int64_t i = 1; i < attempts && d < max; ++i) d *= 2;
  return std::min(d, max);
}

std::string Percent(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", x);
  return buf;
}

// A quantity as kubectl would write it, close enough to read: cpu in
// cores or millicores, byte quantities with a binary suffix.
std::string Amount(const std::string& resource, int64_t v) {
  if (resource == api::kResourceCpu) {
    return v % 1000 == 0 ? std::to_string(v / 1000) : std::to_string(v) + "m";
  }
  const bool bytes = resource == api::kResourceMemory ||
                     resource == api::kResourceEphemeralStorage ||
                     api::IsHugePageResourceName(resource);
  if (!bytes) return std::to_string(v);
  const char* units[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  double x = static_cast<double>(v);
  int u = 0;
  while (x >= 1024 && u < 6) {
    x /= 1024;
    ++u;
  }
  char buf[48];
  if (x == static_cast<double>(static_cast<int64_t>(x))) {
    std::snprintf(buf, sizeof buf, "%lld%s", static_cast<long long>(x), units[u]);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f%s", x, units[u]);
  }
  return buf;
}

std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// The final state of the cluster's nodes and pods: the initial objects
// with the timeline applied.
struct FinalObjects {
  std::map<std::string, api::Node> nodes;
  std::map<std::string, api::Pod> pods;
};

FinalObjects Final(const api::Scenario& s) {
  FinalObjects f;
  for (const api::Node& n : s.initial.nodes) f.nodes[n.name] = n;
  for (const api::Pod& p : s.initial.pods) f.pods[p.Key()] = p;
  for (const api::Event& e : s.timeline) {
    if (e.op == api::Event::Op::kCreate || e.op == api::Event::Op::kUpdate) {
      if (const auto* n = std::get_if<api::Node>(&e.object)) f.nodes[n->name] = *n;
      if (const auto* p = std::get_if<api::Pod>(&e.object)) f.pods[p->Key()] = *p;
    } else if (e.op == api::Event::Op::kDelete) {
      if (e.kind == "Node") f.nodes.erase(e.name);
    }
  }
  return f;
}

std::string Timeline(const std::vector<Segment>& segments,
                     const std::vector<std::pair<TimeMs, bool>>& attempts, TimeMs end) {
  const double span = static_cast<double>(std::max<TimeMs>(end, 1));
  std::string out = "<div class=\"tl\" aria-hidden=\"true\">";
  for (const Segment& s : segments) {
    out += "<span class=\"" + std::string(s.kind) + "\" style=\"left:" +
           Percent(100.0 * static_cast<double>(s.from) / span) + "%;width:" +
           Percent(100.0 * static_cast<double>(s.to - s.from) / span) + "%\" title=\"" +
           Escape(s.title) + "\"></span>";
  }
  for (const auto& [t, ok] : attempts) {
    out += "<span class=\"att" + std::string(ok ? "" : " failed") + "\" style=\"left:" +
           Percent(100.0 * static_cast<double>(t) / span) + "%\"></span>";
  }
  return out + "</div>";
}

}  // namespace

std::string RunPage(const api::Scenario& scenario, const api::Trace& trace,
                    std::string_view implementation, std::string_view sections) {
  // Every pod's life, from the scenario and the trace.
  std::map<std::string, PodLife> pods;
  for (const api::Pod& p : scenario.initial.pods) {
    PodLife& life = pods[p.Key()];
    life.in_initial = true;
    life.bound_at_start = !p.node_name.empty();
  }
  TimeMs end = 0;
  for (const api::Event& e : scenario.timeline) {
    end = std::max(end, e.at);
    if (const auto* p = std::get_if<api::Pod>(&e.object);
        p != nullptr && e.op == api::Event::Op::kCreate) {
      PodLife& life = pods[p->Key()];
      if (!life.in_initial && life.records.empty()) life.created = e.at;
    }
    if (e.op == api::Event::Op::kDelete && e.kind == "Pod") {
      pods[e.name].deleted = e.at;
    }
  }
  int64_t attempts_total = 0;
  for (const api::Trace::Record& r : trace.records) {
    std::string pod;
    TimeMs at = 0;
    if (const api::Attempt* a = api::AsAttempt(r)) {
      pod = a->pod;
      at = a->at;
      ++attempts_total;
    } else if (const api::Binding* b = api::AsBinding(r)) {
      pod = b->pod;
      at = b->at;
    } else if (const api::Note* n = api::AsNote(r)) {
      pod = n->pod;
      at = n->at;
      if (n->what == "victimDeleted" || n->what == "victimTerminated") pods[pod].deleted = at;
    }
    end = std::max(end, at);
    if (!pod.empty()) pods[pod].records.push_back(&r);
  }
  const TimeMs last_event = end;
  // The bars' scale runs a little past the last event, so that what
  // happens then stays visible.
  end = std::max<TimeMs>(end + std::max<TimeMs>(end / 20, 1), 1);

  int64_t bound = 0, pending = 0;
  for (const auto& [pod, node] : trace.placements) (node.empty() ? pending : bound) += 1;

  std::string body = "<header><h1>Run of " + Escape(scenario.name.empty() ? scenario.file
                                                                          : scenario.name) +
                     "</h1><dl class=\"facts\">";
  body += "<dt>Scenario</dt><dd class=\"mono\">" + Escape(scenario.file) + "</dd>";
  if (!scenario.description.empty()) {
    body += "<dt>Pins</dt><dd>" + Escape(scenario.description) + "</dd>";
  }
  if (!scenario.upstream_test.empty()) {
    body += "<dt>Upstream test</dt><dd>" + Escape(scenario.upstream_test) + "</dd>";
  }
  body += "<dt>Implementation</dt><dd>" + Escape(implementation) + "</dd>";
  body += "<dt>Seed</dt><dd>" + std::to_string(scenario.seed) + "</dd>";
  body += "<dt>Outcome</dt><dd>" + Count(bound, "pod") + " bound, " +
          std::to_string(pending) + " pending at the end; " +
          Count(attempts_total, "scheduling attempt") + "; the last event at t=" +
          std::to_string(last_event) + " ms</dd>";
  for (const api::Warning& w : trace.warnings) {
    body += "<dt>\u26a0 Warning</dt><dd>" + Escape(w.pod) + ": " + Escape(w.message) + "</dd>";
  }
  body += "</dl></header>\n<main>\n";

  // --- The pods' timelines ---------------------------------------------------
  body += "<section id=\"timeline\"><h2>Pods on the virtual clock</h2>";
  body += "<p class=\"legend\"><span><i class=\"q\" style=\"background:#d7dde8\"></i>queued "
          "(activeQ)</span><span><i style=\"background:repeating-linear-gradient(45deg,"
          "#f0a95c 0 4px,#fbe0c0 4px 8px)\"></i>backoff (the earliest retry: "
          "podInitialBackoffSeconds doubled per attempt, at most "
          "podMaxBackoffSeconds)</span><span><i style=\"background:#f1b8b5\"></i>"
          "unschedulable (waiting for a cluster event or the flush)</span><span><i "
          "style=\"background:#9cc9f0\"></i>binding cycle</span><span><i "
          "style=\"background:#8fd19e\"></i>bound</span><span><i style=\"background:#f5d76e\">"
          "</i>nominated (after preemption)</span><span><i style=\"background:repeating-linear-"
          "gradient(45deg,#8fd19e 0 4px,#e9e9e9 4px 8px)\"></i>terminating victim</span>"
          "<span>| attempt (red: failed)</span></p>";
  body += TableOpen({"pods", "Each pod's life: the bar is drawn to the run's time scale; the "
                             "list says the same in words",
                     "pod name"});
  body += "<thead><tr><th scope=\"col\" data-sort=\"text\">Pod</th>"
          "<th scope=\"col\" class=\"num\" data-sort=\"num\">Attempts</th>"
          "<th scope=\"col\">Timeline <span class=\"axis\"><span>0 ms</span><span>" +
          std::to_string(end) + " ms</span></span></th><th scope=\"col\">Events</th>"
          "<th scope=\"col\" data-sort=\"text\">At the end</th></tr></thead><tbody>";
  for (const auto& [key, life] : pods) {
    std::vector<Segment> segments;
    std::vector<std::pair<TimeMs, bool>> marks;
    std::vector<std::string> events;
    if (life.bound_at_start) {
      events.push_back(Ms(0) + ": bound from the start");
    } else {
      events.push_back(Ms(life.created) + ": created");
    }
    TimeMs cursor = life.created;
    const char* state = life.bound_at_start ? "bound" : "queued";
    std::string state_title = life.bound_at_start ? "bound" : "queued";
    TimeMs backoff_until = -1;
    int64_t attempts = 0;
    auto close = [&](TimeMs t) {
      const std::string waiting(state);
      if (backoff_until > cursor && (waiting == "unsched" || waiting == "nominated")) {
        const TimeMs b = std::min(t, backoff_until);
        segments.push_back({cursor, b, "backoff", "backoff until " + Ms(backoff_until)});
        cursor = b;
      }
      if (t > cursor || segments.empty()) {
        segments.push_back({cursor, t, state, state_title + " from " + Ms(cursor)});
      }
      cursor = t;
    };
    for (const api::Trace::Record* r : life.records) {
      if (const api::Attempt* a = api::AsAttempt(*r)) {
        close(a->at);
        ++attempts;
        const std::string outcome(api::OutcomeName(a->outcome));
        const bool ok = a->outcome == api::AttemptOutcome::kScheduled ||
                        a->outcome == api::AttemptOutcome::kWaiting;
        marks.emplace_back(a->at, ok);
        std::string line = Ms(a->at) + ": cycle " + std::to_string(a->cycle) + " " +
                           (ok ? "\u2713 " : "\u2717 ") + outcome;
        if (!a->node.empty()) line += " on " + a->node;
        line += " (" + std::to_string(a->evaluated) + " evaluated, " +
                std::to_string(a->feasible) + " feasible)";
        if (!a->message.empty()) line += ": " + a->message;
        events.push_back(line);
        if (a->preemption) {
          if (a->preemption->nominated_node.empty()) {
            events.push_back(Ms(a->at) + ": preemption found no candidate");
          } else {
            events.push_back(Ms(a->at) + ": \u2691 nominated " + a->preemption->nominated_node +
                             "; victims " +
                             (a->preemption->victims.empty() ? std::string("none")
                                                             : Join(a->preemption->victims)));
          }
        }
        if (ok) {
          state = "binding";
          state_title = "binding cycle on " + a->node;
        } else if (a->outcome != api::AttemptOutcome::kSkipped) {
          state = "unsched";
          state_title = a->outcome == api::AttemptOutcome::kError ? "waiting to retry after an error"
                                                                  : "unschedulable";
          if (a->preemption && !a->preemption->nominated_node.empty()) {
            state = "nominated";
            state_title = "nominated to " + a->preemption->nominated_node +
                          ", waiting for room there";
          }
          backoff_until = a->at + Backoff(scenario.config, attempts);
        }
      } else if (const api::Binding* b = api::AsBinding(*r)) {
        close(b->at);
        const bool ok = b->outcome == api::BindingOutcome::kBound;
        std::string line = Ms(b->at) + ": " + (ok ? "\u2713 bound to " : "\u2717 binding ") +
                           (ok ? b->node : std::string(api::OutcomeName(b->outcome)) +
                                               " on " + b->node);
        if (!b->message.empty()) line += ": " + b->message;
        events.push_back(line);
        if (ok) {
          state = "bound";
          state_title = "bound to " + b->node;
        } else {
          state = "unsched";
          state_title = "back in the queue after the binding cycle failed";
          backoff_until = b->at + Backoff(scenario.config, std::max<int64_t>(attempts, 1));
        }
      } else if (const api::Note* n = api::AsNote(*r)) {
        if (n->what == "victimTerminating") {
          close(n->at);
          state = "terminating";
          state_title = "terminating (a preemption victim in its grace period)";
        }
        events.push_back(Ms(n->at) + ": " + n->what + (n->message.empty() ? "" : ": " + n->message));
      }
    }
    const TimeMs last = life.deleted ? std::max(*life.deleted, cursor) : end;
    close(last);
    if (life.deleted) events.push_back(Ms(*life.deleted) + ": deleted");
    std::string final_state;
    if (auto it = trace.placements.find(key); it != trace.placements.end()) {
      final_state = it->second.empty() ? "\u25cb pending" : "\u2713 on " + it->second;
    } else {
      final_state = "\u2013 gone";
    }
    body += "<tr data-name=\"" + Escape(key) + "\"><th scope=\"row\">" + Escape(key) +
            "</th><td class=\"num\" data-v=\"" + std::to_string(attempts) + "\">" +
            std::to_string(attempts) + "</td><td>" + Timeline(segments, marks, end) +
            "</td><td><ol class=\"events\">";
    for (const std::string& e : events) body += "<li>" + Escape(e) + "</li>";
    body += "</ol></td><td>" + Escape(final_state) + "</td></tr>";
  }
  body += TableClose();
  body += "</section>\n";

  // --- The cluster at the end --------------------------------------------------
  const FinalObjects final_objects = Final(scenario);
  std::map<std::string, api::ResourceList> requested;
  for (const auto& [pod, node] : trace.placements) {
    if (node.empty()) continue;
    api::ResourceList& r = requested[node];
    r[api::kResourcePods] += 1;
    auto p = final_objects.pods.find(pod);
    if (p == final_objects.pods.end()) continue;
    for (const auto& [name, v] : api::PodRequestList(p->second)) r[name] += v;
  }
  std::set<std::string> others;
  for (const auto& [name, node] : final_objects.nodes) {
    for (const auto& [r, v] : node.allocatable) others.insert(r);
  }
  for (const auto& [node, list] : requested) {
    for (const auto& [r, v] : list) others.insert(r);
  }
  std::vector<std::string> resources = {api::kResourceCpu, api::kResourceMemory,
                                        api::kResourcePods};
  for (const std::string& r : resources) others.erase(r);
  resources.insert(resources.end(), others.begin(), others.end());

  body += "<section id=\"cluster\"><h2>The cluster at the end</h2>";
  body += TableOpen({"nodes", "Per node: requested / allocatable (the bar is the share "
                              "requested; red: over allocatable)",
                     "node name"});
  body += "<thead><tr><th scope=\"col\" data-sort=\"text\">Node</th>";
  for (const std::string& r : resources) {
    body += "<th scope=\"col\" data-sort=\"num\">" + Escape(r) + "</th>";
  }
  body += "</tr></thead><tbody>";
  for (const auto& [name, node] : final_objects.nodes) {
    body += "<tr data-name=\"" + Escape(name) + "\"><th scope=\"row\">" + Escape(name) +
            (node.unschedulable ? " <small>(unschedulable)</small>" : "") + "</th>";
    const api::ResourceList& used = requested[name];
    for (const std::string& r : resources) {
      auto a = node.allocatable.find(r);
      auto u = used.find(r);
      const int64_t alloc = a == node.allocatable.end() ? 0 : a->second;
      const int64_t req = u == used.end() ? 0 : u->second;
      if (alloc == 0 && req == 0) {
        body += "<td class=\"nr\" data-v=\"-1\">\u2014</td>";
        continue;
      }
      const double share = alloc > 0 ? static_cast<double>(req) / static_cast<double>(alloc)
                                     : (req > 0 ? 2.0 : 0.0);
      const std::string pct = alloc > 0 ? std::to_string(static_cast<int64_t>(share * 100 + 0.5)) + "%"
                                        : "no allocatable";
      body += "<td data-v=\"" + Percent(share) + "\"><span class=\"bar" +
              std::string(share > 1.0 ? " over" : "") + "\" aria-hidden=\"true\"><span style=\"width:" +
              Percent(std::min(share, 1.0) * 100) + "%\"></span></span>" +
              Escape(Amount(r, req)) + " / " + Escape(Amount(r, alloc)) + " <small>" + pct +
              (share > 1.0 ? " \u26a0 over" : "") + "</small></td>";
    }
    body += "</tr>";
  }
  body += TableClose();
  body += "</section>\n";
  body += sections;
  body += "</main>\n";
  return Page("schedref run: " + (scenario.name.empty() ? scenario.file : scenario.name), body);
}

}  // namespace schedref::view
