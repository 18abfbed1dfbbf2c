#include "cmd/schedref/summary_page.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <vector>

#include "view/html.h"

namespace schedref::cmd {
namespace {

using view::Escape;

// A number with at most `decimals` decimals, trailing zeros dropped.
std::string Fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  std::string s = buf;
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  if (s == "-0") s = "0";
  return s;
}

std::string Percent(double share) { return Fixed(share * 100.0, 1) + "%"; }

// One line of a chart: its values per sample and how it is drawn. Lines
// differ by dash pattern and marker as well as by colour.
struct Series {
  std::string label;
  std::function<double(const ClusterSample&)> value;
  const char* colour;
  const char* dash;    // stroke-dasharray, "" for solid
  const char* marker;  // "circle", "square" or "none"
};

struct ChartSpec {
  std::string id;
  std::string title;  // also the y axis's quantity
  std::string unit;   // the y axis's unit
  std::vector<Series> series;
  double y_max_floor = 1;  // the y axis reaches at least this
};

constexpr double kWidth = 640, kHeight = 210;
constexpr double kLeft = 70, kRight = 16, kTop = 14, kBottom = 44;

std::string LegendSample(const Series& s) {
  std::string out = "<svg width=\"34\" height=\"12\" aria-hidden=\"true\"><line x1=\"1\" y1=\"6\" "
                    "x2=\"33\" y2=\"6\" stroke=\"" + std::string(s.colour) +
                    "\" stroke-width=\"2\"";
  if (*s.dash) out += " stroke-dasharray=\"" + std::string(s.dash) + "\"";
  out += "></line>";
  if (std::string_view(s.marker) == "circle") {
    out += "<circle cx=\"17\" cy=\"6\" r=\"3\" fill=\"" + std::string(s.colour) + "\"></circle>";
  } else if (std::string_view(s.marker) == "square") {
    out += "<rect x=\"14\" y=\"3\" width=\"6\" height=\"6\" fill=\"" + std::string(s.colour) +
           "\"></rect>";
  }
  return out + "</svg>";
}

std::string Chart(const Summary& summary, const ChartSpec& spec) {
  const double x_span = std::max<double>(1, static_cast<double>(summary.end));
  double y_max = spec.y_max_floor;
  for (const Series& s : spec.series) {
    for (const ClusterSample& c : summary.cluster) y_max = std::max(y_max, s.value(c));
  }
  const double plot_w = kWidth - kLeft - kRight, plot_h = kHeight - kTop - kBottom;
  auto x_of = [&](api::TimeMs t) { return kLeft + plot_w * static_cast<double>(t) / x_span; };
  auto y_of = [&](double v) { return kTop + plot_h * (1.0 - v / y_max); };

  std::string out = "<figure class=\"chart\"><svg id=\"" + Escape(spec.id) +
                    "\" viewBox=\"0 0 " + Fixed(kWidth, 0) + " " + Fixed(kHeight, 0) +
                    "\" width=\"" + Fixed(kWidth, 0) + "\" height=\"" + Fixed(kHeight, 0) +
                    "\" role=\"img\" aria-labelledby=\"" + Escape(spec.id) + "-title\">";
  out += "<title id=\"" + Escape(spec.id) + "-title\">" + Escape(spec.title) + " (" +
         Escape(spec.unit) + ") over virtual time (s); the table below lists the values</title>";
  // Axes, gridlines and ticks: y at 0, half and the maximum; x at 0, half
  // and the end.
  const std::string x0 = Fixed(kLeft, 1), x1 = Fixed(kLeft + plot_w, 1);
  const std::string y0 = Fixed(kTop + plot_h, 1);
  out += "<g font-size=\"11\" fill=\"#333\">";
  for (double f : {0.0, 0.5, 1.0}) {
    const double v = y_max * f;
    const std::string y = Fixed(y_of(v), 1);
    out += "<line x1=\"" + x0 + "\" y1=\"" + y + "\" x2=\"" + x1 + "\" y2=\"" + y +
           "\" stroke=\"#ddd\"></line>";
    out += "<text x=\"" + Fixed(kLeft - 6, 1) + "\" y=\"" + Fixed(y_of(v) + 4, 1) +
           "\" text-anchor=\"end\">" + Fixed(v, 2) + "</text>";
    const double t = x_span * f;
    const std::string x = Fixed(kLeft + plot_w * f, 1);
    out += "<line x1=\"" + x + "\" y1=\"" + y0 + "\" x2=\"" + x + "\" y2=\"" +
           Fixed(kTop + plot_h + 4, 1) + "\" stroke=\"#333\"></line>";
    out += "<text x=\"" + x + "\" y=\"" + Fixed(kTop + plot_h + 16, 1) +
           "\" text-anchor=\"middle\">" + Fixed(t / 1000.0, 1) + "</text>";
  }
  out += "<line x1=\"" + x0 + "\" y1=\"" + Fixed(kTop, 1) + "\" x2=\"" + x0 + "\" y2=\"" + y0 +
         "\" stroke=\"#333\"></line>";
  out += "<line x1=\"" + x0 + "\" y1=\"" + y0 + "\" x2=\"" + x1 + "\" y2=\"" + y0 +
         "\" stroke=\"#333\"></line>";
  out += "<text x=\"" + Fixed(kLeft + plot_w / 2, 1) + "\" y=\"" + Fixed(kHeight - 6, 1) +
         "\" text-anchor=\"middle\">virtual time (s)</text>";
  out += "<text transform=\"translate(14 " + Fixed(kTop + plot_h / 2, 1) +
         ") rotate(-90)\" text-anchor=\"middle\">" + Escape(spec.unit) + "</text>";
  out += "</g>";
  for (const Series& s : spec.series) {
    std::string points;
    std::string marks;
    for (const ClusterSample& c : summary.cluster) {
      const std::string x = Fixed(x_of(c.at), 1), y = Fixed(y_of(s.value(c)), 1);
      if (!points.empty()) points += " ";
      points += x + "," + y;
      if (std::string_view(s.marker) == "circle") {
        marks += "<circle cx=\"" + x + "\" cy=\"" + y + "\" r=\"2.5\"></circle>";
      } else if (std::string_view(s.marker) == "square") {
        marks += "<rect x=\"" + Fixed(x_of(c.at) - 2.5, 1) + "\" y=\"" +
                 Fixed(y_of(s.value(c)) - 2.5, 1) + "\" width=\"5\" height=\"5\"></rect>";
      }
    }
    out += "<g class=\"series\" data-series=\"" + Escape(s.label) + "\" fill=\"" + s.colour +
           "\"><polyline fill=\"none\" stroke=\"" + s.colour + "\" stroke-width=\"2\"";
    if (*s.dash) out += " stroke-dasharray=\"" + std::string(s.dash) + "\"";
    out += " points=\"" + points + "\"></polyline>" + marks + "</g>";
  }
  out += "</svg><figcaption class=\"legend\"><b>" + Escape(spec.title) + "</b> (" +
         Escape(spec.unit) + "): ";
  for (const Series& s : spec.series) {
    out += "<span>" + LegendSample(s) + " " + Escape(s.label) + "</span>";
  }
  return out + "</figcaption></figure>\n";
}

double Cores(int64_t millicores) { return static_cast<double>(millicores) / 1000.0; }
double GiB(int64_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0); }

}  // namespace

std::string SummaryChart(const Summary& summary) {
  const std::vector<ChartSpec> charts = {
      {"chart-cpu", "CPU requested and allocatable", "cores",
       {{"requested", [](const ClusterSample& c) { return Cores(c.requested_cpu); }, "#1f5fa8",
         "", "circle"},
        {"allocatable", [](const ClusterSample& c) { return Cores(c.allocatable_cpu); },
         "#555", "6 3", "none"}}},
      {"chart-memory", "Memory requested and allocatable", "GiB",
       {{"requested", [](const ClusterSample& c) { return GiB(c.requested_memory); },
         "#1f5fa8", "", "circle"},
        {"allocatable", [](const ClusterSample& c) { return GiB(c.allocatable_memory); },
         "#555", "6 3", "none"}}},
      {"chart-pods", "Pods and nodes", "count",
       {{"pending pods", [](const ClusterSample& c) { return double(c.pending); }, "#c0392b",
         "", "square"},
        {"running pods", [](const ClusterSample& c) { return double(c.running); }, "#2e7d32",
         "", "circle"},
        {"nodes in use", [](const ClusterSample& c) { return double(c.nodes_in_use); },
         "#7a4fa0", "2 3", "none"}}},
      {"chart-stranded", "Free capacity stranded (fragmentation)", "% of free",
       {{"cpu", [](const ClusterSample& c) { return c.stranded_cpu * 100.0; }, "#1f5fa8", "",
         "circle"},
        {"memory", [](const ClusterSample& c) { return c.stranded_memory * 100.0; }, "#b8860b",
         "6 3", "square"}},
       100},
  };
  std::string out = "<section id=\"summary\"><h2>The cluster over virtual time</h2>";
  out += "<p>" + view::Count(static_cast<int64_t>(summary.cluster.size()), "sample") +
         " from t=0 to t=" + std::to_string(summary.end) +
         " ms, each after everything that happened at its instant (docs/summaries.md). "
         "The charts are drawn from the table below them.</p>";
  for (const ChartSpec& spec : charts) out += Chart(summary, spec);
  out += view::TableOpen({"summary-cluster",
                          "The cluster at each sample (cpu in millicores, memory in bytes)",
                          "time (ms)"});
  out += "<thead><tr>";
  for (const char* h : {"t (ms)", "Pending", "Running", "Nodes", "Nodes in use",
                        "Requested cpu (m)", "Allocatable cpu (m)", "Requested memory (bytes)",
                        "Allocatable memory (bytes)", "Stranded cpu", "Stranded memory"}) {
    out += "<th scope=\"col\" class=\"num\" data-sort=\"num\">" + Escape(h) + "</th>";
  }
  out += "</tr></thead><tbody>";
  for (const ClusterSample& c : summary.cluster) {
    auto num = [](int64_t v) {
      return "<td class=\"num\" data-v=\"" + std::to_string(v) + "\">" + std::to_string(v) +
             "</td>";
    };
    auto share = [](double v) {
      return "<td class=\"num\" data-v=\"" + Fixed(v, 6) + "\">" + Percent(v) + "</td>";
    };
    out += "<tr data-name=\"" + std::to_string(c.at) + "\"><th scope=\"row\" class=\"num\" "
           "data-v=\"" + std::to_string(c.at) + "\">" + std::to_string(c.at) + "</th>";
    out += num(c.pending) + num(c.running) + num(c.nodes) + num(c.nodes_in_use) +
           num(c.requested_cpu) + num(c.allocatable_cpu) + num(c.requested_memory) +
           num(c.allocatable_memory) + share(c.stranded_cpu) + share(c.stranded_memory);
    out += "</tr>";
  }
  out += "</tbody></table></div>\n</section>\n";
  return out;
}

std::string SummaryPage(const Summary& summary, std::string_view implementation) {
  std::string body = "<header><h1>Summary of " + Escape(summary.scenario) + "</h1>";
  body += "<dl class=\"facts\">";
  body += "<dt>Implementation</dt><dd>" + Escape(implementation) + "</dd>";
  body += "<dt>Pods</dt><dd>" + std::to_string(summary.pods.size()) + ": " +
          std::to_string(summary.pods_bound) + " bound by the scheduler, " +
          std::to_string(summary.pods_never_bound) + " never placed, " +
          std::to_string(summary.pods_finished) + " finished, " +
          view::Count(summary.preemptions, "preemption") + "</dd>";
  body += "<dt>Wait (ms)</dt><dd>mean " + Fixed(summary.wait_ms.mean, 1) + ", p50 " +
          std::to_string(summary.wait_ms.p50) + ", p90 " + std::to_string(summary.wait_ms.p90) +
          ", p99 " + std::to_string(summary.wait_ms.p99) + ", max " +
          std::to_string(summary.wait_ms.max) + " over " +
          view::Count(summary.wait_ms.count, "bound pod") + "</dd>";
  body += "<dt>Time averages</dt><dd>cpu requested/allocatable " +
          Percent(summary.mean_cpu_utilization) + ", memory " +
          Percent(summary.mean_memory_utilization) + ", stranded cpu " +
          Percent(summary.mean_stranded_cpu) + ", pending " + Fixed(summary.mean_pending, 2) +
          "</dd>";
  body += "<dt>Peaks</dt><dd>" + std::to_string(summary.peak_pending) + " pending, " +
          std::to_string(summary.peak_nodes_in_use) + " nodes in use</dd>";
  body += "</dl></header>\n<main>\n";
  body += SummaryChart(summary);
  body += "<section id=\"pods\"><h2>Pods</h2>";
  body += view::TableOpen({"summary-pods", "Each pod from its creation to its end (ms)",
                           "pod name"});
  body += "<thead><tr><th scope=\"col\" data-sort=\"text\">Pod</th>";
  for (const char* h : {"Created", "Bound", "Wait"}) {
    body += "<th scope=\"col\" class=\"num\" data-sort=\"num\">" + std::string(h) + "</th>";
  }
  body += "<th scope=\"col\" data-sort=\"text\">Node</th>";
  for (const char* h : {"Attempts", "Preemptions", "Ended"}) {
    body += "<th scope=\"col\" class=\"num\" data-sort=\"num\">" + std::string(h) + "</th>";
  }
  body += "<th scope=\"col\" data-sort=\"text\">State</th></tr></thead><tbody>";
  auto optional = [](const std::optional<int64_t>& v) {
    if (!v) return std::string("<td class=\"num\">\u2014</td>");
    return "<td class=\"num\" data-v=\"" + std::to_string(*v) + "\">" + std::to_string(*v) +
           "</td>";
  };
  for (const PodSummary& p : summary.pods) {
    body += "<tr data-name=\"" + Escape(p.pod) + "\"><th scope=\"row\">" + Escape(p.pod) +
            "</th><td class=\"num\" data-v=\"" + std::to_string(p.created) + "\">" +
            std::to_string(p.created) + "</td>" + optional(p.bound) + optional(p.WaitMs()) +
            "<td>" + (p.node.empty() ? std::string("\u2014") : Escape(p.node)) + "</td>" +
            "<td class=\"num\">" + std::to_string(p.attempts) + "</td><td class=\"num\">" +
            std::to_string(p.preemptions) + "</td>" + optional(p.ended) + "<td>" +
            Escape(p.state) + "</td></tr>";
  }
  body += view::TableClose() + "</section>\n</main>\n";
  return view::Page("schedref summary: " + summary.scenario, body);
}

}  // namespace schedref::cmd
