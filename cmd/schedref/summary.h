// A run's summary metrics, joined from its scenario and its trace: per pod
// the wait from creation to binding, attempts and preemptions suffered; per
// node and for the cluster over virtual time the requested and allocatable
// resources, nodes in use, fragmentation and pending pods; percentiles.
// What each metric means exactly is in docs/summaries.md; `schedref
// summarize` and `schedref compare` print it.
#ifndef SCHEDREF_CMD_SCHEDREF_SUMMARY_H_
#define SCHEDREF_CMD_SCHEDREF_SUMMARY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "api/types/objects.h"
#include "api/types/scenario.h"
#include "api/types/trace.h"

namespace schedref::cmd {

// One pod, from its creation to its end (a pod created again under the
// same name is another PodSummary).
struct PodSummary {
  std::string pod;  // namespace/name
  api::TimeMs created = 0;
  std::optional<api::TimeMs> bound;  // its Binding's completion
  std::string node;
  int64_t attempts = 0;
  int64_t preemptions = 0;  // times it was chosen as a preemption victim
  std::optional<api::TimeMs> ended;
  // "pending", "running" (at the end of the run), "finished" (its
  // lifetime), "deleted", "preempted", "terminal" (an update to a
  // terminal phase).
  std::string state = "pending";
  // bound - created, iff bound.
  std::optional<int64_t> WaitMs() const {
    if (!bound) return std::nullopt;
    return *bound - created;
  }
};

// The cluster at one instant: after everything that happened at `at`.
struct ClusterSample {
  api::TimeMs at = 0;
  int64_t pending = 0;  // pods created and not bound (nor gone)
  int64_t running = 0;  // pods bound and not gone
  int64_t nodes = 0;
  int64_t nodes_in_use = 0;  // nodes with at least one pod
  // cpu in millicores, memory in bytes.
  int64_t requested_cpu = 0, allocatable_cpu = 0;
  int64_t requested_memory = 0, allocatable_memory = 0;
  // Of the free cpu (memory), the share on nodes where no pending pod's
  // requests fit (docs/summaries.md, "Fragmentation"); 0 without pending
  // pods or free capacity.
  double stranded_cpu = 0, stranded_memory = 0;
};

struct NodeSample {
  api::TimeMs at = 0;
  std::string node;
  int64_t pods = 0;
  int64_t requested_cpu = 0, allocatable_cpu = 0;
  int64_t requested_memory = 0, allocatable_memory = 0;
};

// Nearest-rank percentiles of a sample (all 0 when count == 0).
struct Percentiles {
  int64_t count = 0;
  double mean = 0;
  int64_t p50 = 0, p90 = 0, p99 = 0, max = 0;
};
[[nodiscard]] Percentiles PercentilesOf(std::vector<int64_t> values);

struct Summary {
  std::string scenario;
  api::TimeMs end = 0;  // the last instant the summary covers
  std::vector<PodSummary> pods;            // in creation order
  std::vector<ClusterSample> cluster;      // every interval, and at `end`
  std::vector<NodeSample> nodes;           // the same instants, per node by name
  // Over the pods that were bound.
  Percentiles wait_ms;
  // Over every pod.
  Percentiles attempts;
  int64_t pods_bound = 0, pods_never_bound = 0, pods_finished = 0, preemptions = 0;
  // Time averages over the cluster samples.
  double mean_cpu_utilization = 0, mean_memory_utilization = 0;
  double mean_stranded_cpu = 0;
  double mean_pending = 0;
  int64_t peak_pending = 0, peak_nodes_in_use = 0;
};

// The last instant a summary of the run covers: the later of the last
// timeline event and the last record.
[[nodiscard]] api::TimeMs SummaryEnd(const api::Scenario& scenario, const api::Trace& trace);

// REQUIRES: `trace` is a run of `scenario`; interval_ms > 0.
[[nodiscard]] Summary Summarize(const api::Scenario& scenario, const api::Trace& trace,
                                api::TimeMs interval_ms);

// The summary as one JSON document (docs/summaries.md gives its shape).
[[nodiscard]] std::string SummaryJson(const Summary& summary);
// One table as CSV with a header line: "pods", "cluster" or "nodes".
// REQUIRES: `table` is one of those.
[[nodiscard]] std::string SummaryCsv(const Summary& summary, const std::string& table);

}  // namespace schedref::cmd

#endif  // SCHEDREF_CMD_SCHEDREF_SUMMARY_H_
