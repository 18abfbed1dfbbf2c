#include "optimized/framework/fit_error.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

namespace schedref::optimized::framework {

void Diagnosis::AddPluginStatus(const Status& status) {
  if (status.plugin().empty()) return;
  if (status.IsRejected()) unschedulable_plugins.insert(status.plugin());
  if (status.code() == Code::kPending) pending_plugins.insert(status.plugin());
}

std::string FitError::Error() const {
  std::string msg = "0/" + std::to_string(num_all_nodes) + " nodes are available:";
  if (!diagnosis.pre_filter_msg.empty()) {
    msg += " " + diagnosis.pre_filter_msg + ".";
  } else {
    std::unordered_map<std::string, int> counts;
    const NodeToStatus& nts = diagnosis.node_to_status;
    // Runs of nodes rejected for the same reasons (the common case: every
    // node short of the same resource) are counted once per run, not
    // hashed node by node.
    const std::vector<std::string>* run = nullptr;
    int run_length = 0;
    auto flush = [&] {
      if (run == nullptr) return;
      for (const std::string& reason : *run) counts[reason] += run_length;
    };
    for (const NodeToStatus::Entry& entry : nts.statuses) {
      const std::vector<std::string>& reasons = entry.status.reasons();
      if (run != nullptr && reasons == *run) {
        ++run_length;
        continue;
      }
      flush();
      run = &reasons;
      run_length = 1;
    }
    flush();
    const int absent = num_all_nodes - static_cast<int>(nts.statuses.size());
    if (absent > 0) {
      for (const std::string& reason : nts.absent_status.reasons()) counts[reason] += absent;
    }
    std::vector<std::string> entries;
    entries.reserve(counts.size());
    for (const auto& [reason, count] : counts) {
      entries.push_back(std::to_string(count) + " " + reason);
    }
    // Plain string order, count included: "10 x" sorts before "2 y".
    std::sort(entries.begin(), entries.end());
    for (size_t i = 0; i < entries.size(); ++i) msg += (i == 0 ? " " : ", ") + entries[i];
    if (!entries.empty()) msg += ".";
  }
  if (!diagnosis.post_filter_msg.empty()) msg += " " + diagnosis.post_filter_msg;
  return msg;
}

}  // namespace schedref::optimized::framework
