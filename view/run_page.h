// The HTML page of `schedref run --html`: a whole run on the virtual
// clock. Per pod a timeline (created, each attempt and its outcome, the
// backoff and unschedulable periods between attempts, nomination and
// victims, binding, deletion) drawn as a bar and listed as text; the
// cluster at the end as requested vs allocatable per node and resource,
// drawn as bars. What a reader sees: docs/html-view.md.
#ifndef SCHEDREF_VIEW_RUN_PAGE_H_
#define SCHEDREF_VIEW_RUN_PAGE_H_

#include <string>
#include <string_view>

#include "api/types/scenario.h"
#include "api/types/trace.h"

namespace schedref::view {

// `trace` is `implementation`'s run of `scenario` (any detail level: the
// page reads the attempts' outcomes, nominations and victims, the
// bindings, the notes, the placements and the warnings). `sections`: more
// HTML sections, placed after the cluster (`run --html` adds the summary's
// charts, cmd/schedref/summary_page.h).
[[nodiscard]] std::string RunPage(const api::Scenario& scenario, const api::Trace& trace,
                                  std::string_view implementation,
                                  std::string_view sections = {});

}  // namespace schedref::view

#endif  // SCHEDREF_VIEW_RUN_PAGE_H_
