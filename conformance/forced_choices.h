// Legal-choice mode's answers to the reference's choice points
// (reference/framework/choices.h): an implementation's decisions imposed on
// the oracle one scheduling cycle at a time. The oracle takes a forced
// decision iff upstream kube-scheduler could legally have made it; otherwise
// it answers as the pinned reference does and keeps the refusal, saying why.
// Specification: docs/conformance.md "Which freedoms are accepted".
#ifndef SCHEDREF_CONFORMANCE_FORCED_CHOICES_H_
#define SCHEDREF_CONFORMANCE_FORCED_CHOICES_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "api/scheduler.h"
#include "api/status.h"
#include "api/types/scenario.h"
#include "api/types/trace.h"
#include "reference/framework/choices.h"
#include "reference/scheduler/scheduler.h"

namespace schedref::conformance {

// The outcome of a cycle's feasible-node search.
struct ForcedSearch {
  // The feasible nodes, in feasible-list order (Attempt::feasible_nodes).
  std::vector<std::string> feasible;
  // The nodes whose rejection was recorded (the keys of
  // Attempt::rejections).
  std::set<std::string> rejected;
  friend bool operator==(const ForcedSearch&, const ForcedSearch&) = default;
};

// The decisions to impose, by scheduling cycle.
struct ForcedDecisions {
  // selectHost: the chosen node, legal iff it ties for the highest total
  // score. The RNG is drawn as without forcing.
  std::map<int64_t, std::string> choices;
  // findNodesThatPassFilters: legal iff upstream's parallel search
  // (parallelism workers over chunks of the node list from the round-robin
  // start) can end with it (parallel_search.h).
  std::map<int64_t, ForcedSearch> searches;
  // DefaultPreemption: the nominated node, legal iff it is the choice of
  // pickOneNodeForPreemption, final tie included, for the candidates of the
  // dry run from some offset.
  std::map<int64_t, std::string> nominations;
  // The scheduling queue: the popped pod (namespace/name), legal iff it is
  // in activeQ and ties with activeQ's head under QueueSort.
  std::map<int64_t, std::string> pops;
  bool empty() const {
    return choices.empty() && searches.empty() && nominations.empty() &&
           pops.empty();
  }
  friend bool operator==(const ForcedDecisions&,
                         const ForcedDecisions&) = default;
};

class ForcedChoices : public reference::framework::Choices {
 public:
  explicit ForcedChoices(ForcedDecisions forced);

  std::string Pop(const reference::framework::PopChoice& choice) override;
  reference::framework::SearchOutcome Search(
      const reference::framework::SearchChoice& choice) override;
  size_t SelectHost(const reference::framework::HostChoice& choice) override;
  reference::framework::PreemptionPick Preemption(
      const reference::framework::PreemptionChoice& choice) override;

  // Why the first refused decision was refused ("cycle 3: node b does not
  // tie for the highest score"), or nullopt iff every decision consulted
  // was taken.
  const std::optional<std::string>& refusal() const { return refusal_; }

 private:
  void Refuse(std::string why);

  const ForcedDecisions forced_;
  reference::framework::PinnedChoices pinned_;
  std::optional<std::string> refusal_;
};

// The oracle's trace of `scenario` with `forced` imposed; `*refusal` gets
// ForcedChoices::refusal(). Errors: the reference's own.
[[nodiscard]] StatusOr<api::Trace> RunForced(
    reference::ReferenceScheduler& oracle, const api::Scenario& scenario,
    const api::RunOptions& options, const ForcedDecisions& forced,
    std::optional<std::string>* refusal = nullptr);

}  // namespace schedref::conformance

#endif  // SCHEDREF_CONFORMANCE_FORCED_CHOICES_H_
