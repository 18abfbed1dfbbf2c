#include "reference/framework/fit_error.h"

#include <algorithm>
#include <map>
#include <vector>

namespace schedref::reference::framework {

void Diagnosis::AddPluginStatus(const Status& status) {
  if (status.plugin().empty()) return;
  if (status.IsRejected()) unschedulable_plugins.insert(status.plugin());
  if (status.code() == Code::kPending) pending_plugins.insert(status.plugin());
}

std::string FitError::Error() const {
  std::string msg =
      "0/" + std::to_string(num_all_nodes) + " nodes are available:";
  if (!diagnosis.pre_filter_msg.empty()) {
    msg += " " + diagnosis.pre_filter_msg + ".";
  } else {
    std::map<std::string, int> histogram;
    for (const auto& [node, status] : diagnosis.node_to_status.statuses) {
      for (const std::string& reason : status.reasons()) ++histogram[reason];
    }
    int explicit_nodes =
        static_cast<int>(diagnosis.node_to_status.statuses.size());
    if (explicit_nodes < num_all_nodes) {
      for (const std::string& reason :
           diagnosis.node_to_status.absent_status.reasons()) {
        histogram[reason] += num_all_nodes - explicit_nodes;
      }
    }
    // Entries are sorted as plain strings, count first: "10 x" < "2 y".
    std::vector<std::string> entries;
    for (const auto& [reason, count] : histogram) {
      entries.push_back(std::to_string(count) + " " + reason);
    }
    std::sort(entries.begin(), entries.end());
    if (!entries.empty()) {
      msg += " ";
      for (size_t i = 0; i < entries.size(); ++i) {
        if (i > 0) msg += ", ";
        msg += entries[i];
      }
      msg += ".";
    }
  }
  if (!diagnosis.post_filter_msg.empty()) {
    msg += " " + diagnosis.post_filter_msg;
  }
  return msg;
}

std::string TruncateEventMessage(const std::string& message) {
  constexpr size_t kLimit = 1024;
  if (message.size() <= kLimit) return message;
  return message.substr(0, kLimit - 4) + " ...";
}

}  // namespace schedref::reference::framework
