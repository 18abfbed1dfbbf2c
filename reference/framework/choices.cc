#include "reference/framework/choices.h"

namespace schedref::reference::framework {

std::string PinnedChoices::Pop(const PopChoice& choice) { return choice.head; }

SearchOutcome PinnedChoices::Search(const SearchChoice& choice) {
  SearchOutcome out;
  const size_t n = choice.nodes.size();
  if (!choice.has_filters) {
    for (size_t i = 0; i < n && static_cast<int64_t>(i) < choice.to_find; ++i) {
      out.feasible.push_back(i);
    }
    return out;
  }
  out.rejected.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    Status s = choice.filter(*choice.nodes[i]);
    if (s.code() == Code::kError) {
      out.error = std::move(s);
      out.error_at = i;
      return out;
    }
    if (s.IsSuccess()) {
      out.feasible.push_back(i);
      if (static_cast<int64_t>(out.feasible.size()) >= choice.to_find) break;
    } else {
      out.rejected.emplace_back(i, std::move(s));
    }
  }
  return out;
}

size_t PinnedChoices::SelectHost(const HostChoice& choice) {
  return choice.drawn;
}

PreemptionPick PinnedChoices::Preemption(const PreemptionChoice& choice) {
  return {choice.drawn_offset, choice.best.empty() ? "" : choice.best.front()};
}

}  // namespace schedref::reference::framework
