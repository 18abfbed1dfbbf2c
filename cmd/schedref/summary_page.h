// The cluster summary (summary.h) as HTML: inline SVG charts of the
// cluster over virtual time (requested vs allocatable cpu and memory,
// pending and running pods with nodes in use, fragmentation) and the same
// samples as a table beside them, so that nothing is read from a colour or
// a line alone. `schedref summarize --html FILE` writes SummaryPage;
// what a reader sees: docs/html-view.md and docs/summaries.md.
#ifndef SCHEDREF_CMD_SCHEDREF_SUMMARY_PAGE_H_
#define SCHEDREF_CMD_SCHEDREF_SUMMARY_PAGE_H_

#include <string>
#include <string_view>

#include "cmd/schedref/summary.h"

namespace schedref::cmd {

// The charts and the samples' table as one <section> (HTML; names
// escaped). Four charts sharing the time axis (seconds of virtual time):
// cpu in cores, memory in GiB, pods and nodes as counts, stranded free
// capacity in percent. The table (id "summary-cluster") has one row per
// sample, named by its time.
[[nodiscard]] std::string SummaryChart(const Summary& summary);

// A whole page: the totals, SummaryChart and the pods' table.
// `implementation` names who ran the scenario.
[[nodiscard]] std::string SummaryPage(const Summary& summary, std::string_view implementation);

}  // namespace schedref::cmd

#endif  // SCHEDREF_CMD_SCHEDREF_SUMMARY_PAGE_H_
