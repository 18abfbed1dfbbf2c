#include "testing/models/queue_property.h"

#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include <rapidcheck.h>
#include <rapidcheck/state.h>

#include "testing/models/queue_harness.h"
#include "testing/models/queue_model.h"
#include "testing/models/show.h"

namespace schedref::testing::models {

// How RapidCheck prints a generated Config in a counterexample (found by
// argument-dependent lookup, hence outside the unnamed namespace).
void showValue(const QueueModel::Config& c, std::ostream& os) {
  os << "initial backoff " << ShowTime(c.initial_backoff_ms) << ", max backoff "
     << ShowTime(c.max_backoff_ms) << ", max in unschedulable "
     << ShowTime(c.max_in_unschedulable_ms);
}

namespace {

namespace gen = rc::gen;
using Loc = QueueModel::Loc;

// --- generators -----------------------------------------------------------------

// Mostly no time passes; sometimes less than a backoff, sometimes more than
// the longest backoff or the unschedulable timeout.
api::TimeMs NextTime(const QueueModel& s0) {
  return s0.now + *gen::element<api::TimeMs>(0, 0, 0, 0, 0, 0, 100, 1000,
                                             2500, 10000, 61000);
}

// A name whose pod satisfies `pred`; discards the command if there is none.
template <typename Pred>
std::string NameWhere(const QueueModel& s0, Pred pred) {
  std::vector<std::string> names;
  for (const std::string& name : ModelPodNames()) {
    auto it = s0.pods.find(ModelPodKey(name));
    if (it != s0.pods.end() && pred(it->second)) names.push_back(name);
  }
  RC_PRE(!names.empty());
  return *gen::elementOf(names);
}

bool Live(const QueueModel::Pod& p) { return !p.deleted; }

// --- commands -------------------------------------------------------------------

struct QueueCommand : rc::state::Command<QueueModel, QueueHarness> {
  QueueOp op;

  void checkPreconditions(const QueueModel& s0) const override {
    RC_PRE(IsValid(s0, op));
  }
  void apply(QueueModel& s0) const override { Apply(s0, op); }
  void run(const QueueModel& s0, QueueHarness& sut) const override {
    if (std::optional<std::string> error = sut.RunAndCheck(s0, op)) {
      RC_FAIL("after \"" + Show(op) + "\": " + *error);
    }
  }
  void show(std::ostream& os) const override { os << Show(op); }
};

struct AddCommand : QueueCommand {
  explicit AddCommand(const QueueModel& s0) {
    AddOp o;
    std::vector<std::string> free;
    for (const std::string& name : ModelPodNames()) {
      if (s0.pods.count(ModelPodKey(name)) == 0) free.push_back(name);
    }
    RC_PRE(!free.empty());
    o.name = *gen::elementOf(free);
    o.priority = *gen::element<int32_t>(0, 5, 10);
    o.ready = *gen::arbitrary<bool>();
    o.gates = *gen::weightedElement<int>({{4, 0}, {1, 1}, {1, 2}});
    o.nominated = *gen::weightedElement<bool>({{5, false}, {1, true}});
    op = {NextTime(s0), o};
  }
};

struct UpdateCommand : QueueCommand {
  explicit UpdateCommand(const QueueModel& s0) {
    UpdateOp o;
    o.name = NameWhere(s0, Live);
    o.toggle_ready = *gen::weightedElement<bool>({{3, true}, {1, false}});
    o.remove_gates = *gen::element<int>(0, 1, 2);
    o.add_toleration = *gen::arbitrary<bool>();
    if (*gen::arbitrary<bool>()) {
      o.priority = *gen::element<int32_t>(0, 5, 10);
    }
    op = {NextTime(s0), o};
  }
};

struct DeleteCommand : QueueCommand {
  explicit DeleteCommand(const QueueModel& s0) {
    op = {NextTime(s0), DeleteOp{NameWhere(s0, Live)}};
  }
};

struct PopCommand : QueueCommand {
  explicit PopCommand(const QueueModel& s0) { op = {NextTime(s0), PopOp{}}; }
};

struct DoneCommand : QueueCommand {
  explicit DoneCommand(const QueueModel& s0) {
    op = {NextTime(s0), DoneOp{NameWhere(s0, [](const QueueModel::Pod& p) {
            return p.loc == Loc::kInFlight;
          })}};
  }
};

struct FailCommand : QueueCommand {
  explicit FailCommand(const QueueModel& s0) {
    FailOp o;
    o.name = NameWhere(s0, [](const QueueModel::Pod& p) {
      return p.loc == Loc::kInFlight && !p.deleted;
    });
    // Each plugin: passed, Unschedulable or Pending.
    for (const std::string& plugin : ModelRejectorPlugins()) {
      switch (*gen::weightedElement<int>({{3, 0}, {2, 1}, {1, 2}})) {
        case 1:
          o.unschedulable.insert(plugin);
          break;
        case 2:
          o.pending.insert(plugin);
          break;
        default:
          break;
      }
    }
    op = {NextTime(s0), o};
  }
};

struct EventCommand : QueueCommand {
  explicit EventCommand(const QueueModel& s0) {
    EventOp o;
    o.kind = *gen::element(EventKind::kNodeAdd, EventKind::kNodeLabelChange,
                           EventKind::kNodeTaintChange,
                           EventKind::kAssignedPodDelete, EventKind::kWildCard);
    o.fit = *gen::arbitrary<bool>();
    op = {NextTime(s0), o};
  }
};

struct ActivateCommand : QueueCommand {
  explicit ActivateCommand(const QueueModel& s0) {
    op = {NextTime(s0), ActivateOp{NameWhere(s0, [](const QueueModel::Pod&) {
            return true;
          })}};
  }
};

struct FlushBackoffCommand : QueueCommand {
  explicit FlushBackoffCommand(const QueueModel& s0) {
    op = {NextTime(s0), FlushBackoffOp{}};
  }
};

struct FlushUnschedulableCommand : QueueCommand {
  explicit FlushUnschedulableCommand(const QueueModel& s0) {
    op = {NextTime(s0), FlushUnschedulableOp{}};
  }
};

// Jumps far enough to cross the backoff cap (up to 10 s in GenConfig) or the
// unschedulable timeout (20 s or 60 s) at once.
struct AdvanceClockCommand : QueueCommand {
  explicit AdvanceClockCommand(const QueueModel& s0) {
    op = {s0.now + *gen::element<api::TimeMs>(1000, 10000, 61000),
          AdvanceClockOp{}};
  }
};

struct NominateCommand : QueueCommand {
  explicit NominateCommand(const QueueModel& s0) {
    NominateOp o;
    o.name = NameWhere(s0, Live);
    o.override_node = *gen::weightedElement<bool>({{3, true}, {1, false}});
    o.node = *gen::element<std::string>("n1", "n2", "");
    op = {NextTime(s0), o};
  }
};

struct ClearNominationCommand : QueueCommand {
  explicit ClearNominationCommand(const QueueModel& s0) {
    op = {NextTime(s0),
          ClearNominationOp{NameWhere(s0, [](const QueueModel::Pod&) {
            return true;
          })}};
  }
};

rc::Gen<QueueModel::Config> GenConfig() {
  return gen::apply(
      [](int64_t initial, int64_t max_factor, int64_t max_in_unschedulable) {
        QueueModel::Config c;
        c.initial_backoff_ms = initial;
        c.max_backoff_ms = initial * max_factor;
        c.max_in_unschedulable_ms = max_in_unschedulable;
        return c;
      },
      gen::element<int64_t>(1000, 500), gen::element<int64_t>(10, 1, 4),
      gen::element<int64_t>(60000, 20000));
}

// RunQueueProperty reports through its result, not through a listener.
class SilentListener final : public rc::detail::TestListener {
 public:
  void onTestCaseFinished(const rc::detail::CaseDescription&) override {}
  void onShrinkTried(const rc::detail::CaseDescription&, bool) override {}
  void onTestFinished(const rc::detail::TestMetadata&,
                      const rc::detail::TestResult&) override {}
};

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

}  // namespace

void CheckQueueAgainstModel(const QueueFactory& make) {
  const QueueModel::Config config = *GenConfig();
  QueueHarness sut(make(config));
  // Repeated entries weigh the operations of the scheduling loop.
  rc::state::check(
      QueueModel(config), sut,
      rc::state::gen::execOneOfWithArgs<
          AddCommand, AddCommand, AddCommand, UpdateCommand, UpdateCommand,
          UpdateCommand, DeleteCommand,
          PopCommand, PopCommand, PopCommand, DoneCommand, FailCommand,
          FailCommand, FailCommand, EventCommand, EventCommand,
          ActivateCommand, FlushBackoffCommand, FlushBackoffCommand,
          FlushUnschedulableCommand, AdvanceClockCommand, NominateCommand,
          ClearNominationCommand>());
}

QueuePropertyRun RunQueueProperty(const QueueFactory& make, uint64_t seed,
                                  int max_success) {
  using rc::detail::FailureResult;
  using rc::detail::GaveUpResult;
  using rc::detail::SuccessResult;
  rc::detail::TestParams params;
  params.seed = seed;
  params.maxSuccess = max_success;
  rc::detail::TestMetadata metadata;
  metadata.id = "RunQueueProperty";
  metadata.description = metadata.id;
  SilentListener listener;
  // rc::detail is RapidCheck's own entry point below rc::check; it is the
  // one that returns the result (and takes the parameters) instead of
  // printing and reading RC_PARAMS. An empty reproduce map: never replay.
  const rc::detail::TestResult result = rc::detail::checkProperty(
      rc::detail::toProperty([&make] { CheckQueueAgainstModel(make); }),
      metadata, params, listener, {});

  QueuePropertyRun run;
  std::ostringstream report;
  rc::detail::printResultMessage(result, report);
  run.report = report.str();
  if (result.is<SuccessResult>()) {
    run.verdict = QueuePropertyRun::Verdict::kPassed;
    run.passed_cases = result.get<SuccessResult>().numSuccess;
  } else if (result.is<FailureResult>()) {
    const FailureResult& failure = result.get<FailureResult>();
    run.verdict = QueuePropertyRun::Verdict::kFalsified;
    run.passed_cases = failure.numSuccess;
    run.message = failure.description;
    run.shrinks = static_cast<int>(failure.reproduce.shrinkPath.size());
    // The property draws two values: the configuration, then the commands.
    if (failure.counterExample.size() == 2) {
      run.config = failure.counterExample[0].second;
      run.commands = Lines(failure.counterExample[1].second);
    }
  } else if (result.is<GaveUpResult>()) {
    run.verdict = QueuePropertyRun::Verdict::kGaveUp;
    run.passed_cases = result.get<GaveUpResult>().numSuccess;
    run.message = result.get<GaveUpResult>().description;
  } else {
    run.verdict = QueuePropertyRun::Verdict::kError;
    run.message = result.get<rc::detail::Error>().description;
  }
  return run;
}

}  // namespace schedref::testing::models
