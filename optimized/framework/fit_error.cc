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

void ReasonHistogram::Add(const Status& status) {
  const std::vector<std::string>& reasons = status.reasons();
  // Statuses that share a rep (most rejections) share the reasons object.
  if (run_ != nullptr && (run_ == &reasons || reasons == *run_)) {
    ++run_length_;
    return;
  }
  Flush();
  run_ = &reasons;
  run_length_ = 1;
}

void ReasonHistogram::AddAbsent(int count, const Status& absent) {
  if (count <= 0) return;
  for (const std::string& reason : absent.reasons()) counts_[reason] += count;
}

void ReasonHistogram::Flush() {
  if (run_ == nullptr) return;
  for (const std::string& reason : *run_) counts_[reason] += run_length_;
  run_ = nullptr;
  run_length_ = 0;
}

std::vector<std::string> ReasonHistogram::Entries() {
  Flush();
  std::vector<std::string> entries;
  entries.reserve(counts_.size());
  for (const auto& [reason, count] : counts_) {
    entries.push_back(std::to_string(count) + " " + reason);
  }
  std::sort(entries.begin(), entries.end());
  return entries;
}

std::string FitErrorMessage(int num_all_nodes, ReasonHistogram& histogram,
                            const std::string& pre_filter_msg, const std::string& post_filter_msg) {
  std::string msg = "0/" + std::to_string(num_all_nodes) + " nodes are available:";
  if (!pre_filter_msg.empty()) {
    msg += " " + pre_filter_msg + ".";
  } else {
    const std::vector<std::string> entries = histogram.Entries();
    for (size_t i = 0; i < entries.size(); ++i) msg += (i == 0 ? " " : ", ") + entries[i];
    if (!entries.empty()) msg += ".";
  }
  if (!post_filter_msg.empty()) msg += " " + post_filter_msg;
  return msg;
}

std::string FitError::Error() const {
  ReasonHistogram histogram;
  if (diagnosis.pre_filter_msg.empty()) {
    const NodeToStatus& nts = diagnosis.node_to_status;
    for (const NodeToStatus::Entry& entry : nts.statuses) histogram.Add(entry.status);
    histogram.AddAbsent(num_all_nodes - static_cast<int>(nts.statuses.size()),
                        nts.absent_status);
  }
  return FitErrorMessage(num_all_nodes, histogram, diagnosis.pre_filter_msg,
                         diagnosis.post_filter_msg);
}

}  // namespace schedref::optimized::framework
