// Diagnosis and FitError: why a pod fits no node, and the FailedScheduling
// message. Specification: upstream pkg/scheduler/framework/types.go
// (Diagnosis, FitError.Error), v1.31+ form.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_FIT_ERROR_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_FIT_ERROR_H_

#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "optimized/framework/interface.h"

namespace schedref::optimized::framework {

struct Diagnosis {
  NodeToStatus node_to_status;
  std::set<std::string> unschedulable_plugins;
  std::set<std::string> pending_plugins;
  std::string pre_filter_msg;
  std::string post_filter_msg;

  // Records the rejecting plugin (upstream Diagnosis.AddPluginStatus).
  void AddPluginStatus(const Status& status);
};

// FitError.Error's histogram of reasons, fed one node's status at a time.
class ReasonHistogram {
 public:
  // One node rejected with `status`. Runs of nodes rejected for the same
  // reasons (the common case: every node short of the same resource) are
  // counted once per run, not hashed node by node.
  // REQUIRES: `status` outlives the next Add or Entries call.
  void Add(const Status& status);
  // `count` nodes (if > 0) with no recorded status, counted with `absent`.
  void AddAbsent(int count, const Status& absent);
  // "<count> <reason>" entries in plain string order ("10 x" before "2 y").
  std::vector<std::string> Entries();

 private:
  void Flush();
  std::unordered_map<std::string, int> counts_;
  const std::vector<std::string>* run_ = nullptr;  // the current run's reasons
  int run_length_ = 0;
};

// "0/<n> nodes are available:" + " <pre_filter_msg>." if that is set, else
// the histogram's entries ", "-joined and "."; then " <post_filter_msg>".
std::string FitErrorMessage(int num_all_nodes, ReasonHistogram& histogram,
                            const std::string& pre_filter_msg, const std::string& post_filter_msg);

struct FitError {
  int num_all_nodes = 0;
  Diagnosis diagnosis;

  // "0/<n> nodes are available: " + the PreFilter message, or the reason
  // histogram ("<count> <reason>" entries sorted as strings, absent nodes
  // counted with the absent status), "." and " <PostFilter message>".
  std::string Error() const;
};

}  // namespace schedref::optimized::framework

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_FIT_ERROR_H_
