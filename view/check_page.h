// The HTML page of `schedref check --report=html FILE`: the conformance
// report. Every scenario and engine with pass, fail or skip; for a failure,
// the first divergence side by side (the expected and the actual trace
// line, the fields that differ) above the reference's explanation of that
// attempt (view/explain_page.h), the expected and actual choices marked.
// What a reader sees: docs/html-view.md.
#ifndef SCHEDREF_VIEW_CHECK_PAGE_H_
#define SCHEDREF_VIEW_CHECK_PAGE_H_

#include <string>
#include <vector>

#include "conformance/runner.h"

namespace schedref::view {

[[nodiscard]] std::string CheckPage(const std::vector<conformance::CheckResult>& results,
                                    conformance::Mode mode);

}  // namespace schedref::view

#endif  // SCHEDREF_VIEW_CHECK_PAGE_H_
