#include "testing/models/queue_harness.h"

#include <map>
#include <utility>
#include <variant>
#include <vector>

#include "testing/models/show.h"

namespace schedref::testing::models {
namespace {

using Loc = QueueModel::Loc;

const char* WhereName(QueueWhere where) {
  switch (where) {
    case QueueWhere::kActive:
      return "activeQ";
    case QueueWhere::kBackoff:
      return "backoffQ";
    case QueueWhere::kUnschedulable:
      return "unschedulable";
    case QueueWhere::kInFlight:
      return "in flight";
    case QueueWhere::kAbsent:
      return "absent";
  }
  return "?";
}

QueueWhere ToWhere(Loc loc) {
  switch (loc) {
    case Loc::kActive:
      return QueueWhere::kActive;
    case Loc::kBackoff:
      return QueueWhere::kBackoff;
    case Loc::kUnschedulable:
      return QueueWhere::kUnschedulable;
    case Loc::kInFlight:
      return QueueWhere::kInFlight;
  }
  return QueueWhere::kAbsent;
}

std::optional<std::string> CheckPop(const QueueUnderTest& queue,
                                    const QueueModel& before,
                                    const QueueModel& after,
                                    const std::optional<QueuedPodView>& got) {
  if (after.pops == before.pops) {
    if (got.has_value()) {
      return "pop returned " + got->pod.Key() +
             " but the model's activeQ is empty";
    }
    return std::nullopt;
  }
  const std::string want = before.ActiveKeys().front();
  if (!got.has_value()) return "pop returned nothing, model pops " + want;
  const std::string key = got->pod.Key();
  if (key != want) {
    return "pop returned " + key + ", model pops " + want +
           " (QueueSort: priority, then timestamp, then key)";
  }
  // QueueSort, checked on the queue's own data: nothing left in activeQ
  // sorts before what was popped.
  for (const std::string& other : queue.ActivePodKeys()) {
    std::optional<QueuedPodView> o2 = queue.Get(other);
    if (o2.has_value() && queue.SortLess(*o2, *got)) {
      return "pop returned " + key + " although " + other + " sorts before it";
    }
  }
  // The next attempt records its own rejectors.
  if (!got->unschedulable_plugins.empty() || !got->pending_plugins.empty() ||
      got->gated) {
    return "popped " + key + " still carries rejectors " +
           Join(got->unschedulable_plugins) + " pending " +
           Join(got->pending_plugins) + (got->gated ? " and is gated" : "");
  }
  const QueueModel::Pod& p = after.pods.at(key);
  if (got->attempts != p.attempts || got->timestamp != p.timestamp) {
    return "popped " + key + " with attempts=" + std::to_string(got->attempts) +
           " timestamp=" + ShowTime(got->timestamp) +
           ", model attempts=" + std::to_string(p.attempts) +
           " timestamp=" + ShowTime(p.timestamp);
  }
  return std::nullopt;
}

// A pod leaves backoffQ iff its backoff ended, and goes to activeQ; checked
// on the queue's own data.
std::optional<std::string> FlushBackoffAndCheck(QueueUnderTest& queue,
                                                api::TimeMs now) {
  std::map<std::string, api::TimeMs> expiry;
  for (const std::string& key : queue.BackoffPodKeys()) {
    expiry[key] = queue.BackoffExpiry(key);
  }
  queue.FlushBackoffQCompleted(now);
  for (const auto& [key, e] : expiry) {
    const QueueWhere where = queue.Locate(key);
    if (e <= now && where != QueueWhere::kActive) {
      return key + " (backoff until " + ShowTime(e) + ") stayed in " +
             WhereName(where) + " at " + ShowTime(now);
    }
    if (e > now && where != QueueWhere::kBackoff) {
      return key + " (backoff until " + ShowTime(e) + ") left backoffQ early, at " +
             ShowTime(now);
    }
  }
  return std::nullopt;
}

std::string ShowNominations(
    const std::map<std::string, std::vector<std::string>>& by_node) {
  std::string out;
  for (const auto& [node, keys] : by_node) out += " \"" + node + "\":" + Join(keys);
  return out;
}

}  // namespace

QueueWhere ModelWhere(const QueueModel& m, const std::string& key) {
  auto it = m.pods.find(key);
  return it == m.pods.end() ? QueueWhere::kAbsent : ToWhere(it->second.loc);
}

QueueHarness::QueueHarness(std::unique_ptr<QueueUnderTest> queue)
    : queue_(std::move(queue)) {}

std::optional<std::string> QueueHarness::RunAndCheck(const QueueModel& before,
                                                     const QueueOp& op) {
  QueueModel after = before;
  Apply(after, op);
  const api::TimeMs now = op.at;
  auto pod_in = [](const QueueModel& m, const std::string& name) {
    return m.pods.at(ModelPodKey(name)).pod;
  };
  QueueUnderTest& q = *queue_;

  std::optional<std::string> error = std::visit(
      Overloaded{
          [&](const AddOp& o) -> std::optional<std::string> {
            q.Add(pod_in(after, o.name), now);
            return std::nullopt;
          },
          [&](const UpdateOp& o) -> std::optional<std::string> {
            q.Update(pod_in(before, o.name), pod_in(after, o.name), now);
            return std::nullopt;
          },
          [&](const DeleteOp& o) -> std::optional<std::string> {
            q.Delete(pod_in(before, o.name));
            return std::nullopt;
          },
          [&](const PopOp&) { return CheckPop(q, before, after, q.Pop()); },
          [&](const DoneOp& o) -> std::optional<std::string> {
            q.Done(before.pods.at(ModelPodKey(o.name)).pod.uid);
            return std::nullopt;
          },
          [&](const FailOp& o) {
            const std::string key = ModelPodKey(o.name);
            return q.Fail(key, before.pods.at(key).pod, o.unschedulable,
                          o.pending, now);
          },
          [&](const EventOp& o) -> std::optional<std::string> {
            q.MoveAllOnEvent(o, now);
            return std::nullopt;
          },
          [&](const ActivateOp& o) -> std::optional<std::string> {
            q.Activate(pod_in(before, o.name), now);
            return std::nullopt;
          },
          [&](const FlushBackoffOp&) { return FlushBackoffAndCheck(q, now); },
          [&](const FlushUnschedulableOp&) -> std::optional<std::string> {
            q.FlushUnschedulablePodsLeftover(now);
            return std::nullopt;
          },
          // The queue is not called: Check below finds any pod that moved.
          [&](const AdvanceClockOp&) -> std::optional<std::string> {
            return std::nullopt;
          },
          [&](const NominateOp& o) -> std::optional<std::string> {
            q.AddNominatedPod(pod_in(before, o.name),
                              o.override_node ? std::optional<std::string>(o.node)
                                              : std::nullopt);
            return std::nullopt;
          },
          [&](const ClearNominationOp& o) -> std::optional<std::string> {
            q.DeleteNominatedPodIfExists(pod_in(before, o.name));
            return std::nullopt;
          },
      },
      op.body);
  if (error) return error;
  return Check(after);
}

std::optional<std::string> QueueHarness::Check(const QueueModel& m) const {
  const QueueUnderTest& q = *queue_;
  // Every pod is where the model says, and in exactly one place.
  for (const std::string& name : ModelPodNames()) {
    const std::string key = ModelPodKey(name);
    const QueueWhere want = ModelWhere(m, key);
    const QueueWhere got = q.Locate(key);
    if (got != want) {
      return key + " is " + WhereName(got) + ", model: " + WhereName(want);
    }
  }
  const std::vector<std::string> active = q.ActivePodKeys();
  const std::vector<std::string> backoff = q.BackoffPodKeys();
  const std::vector<std::string> unschedulable = q.UnschedulablePodKeys();
  const std::vector<std::string> in_flight = q.InFlightPodKeys();
  std::map<std::string, int> seen;
  for (const auto* list : {&active, &backoff, &unschedulable, &in_flight}) {
    for (const std::string& key : *list) {
      if (++seen[key] > 1) return key + " is in two places at once";
    }
  }
  if (seen.size() != m.pods.size()) {
    return "the queue holds " + std::to_string(seen.size()) + " pods, the model " +
           std::to_string(m.pods.size());
  }
  auto compare = [](const char* what, const std::vector<std::string>& got,
                    const std::vector<std::string>& want)
      -> std::optional<std::string> {
    if (got == want) return std::nullopt;
    return std::string(what) + " is " + Join(got) + ", model: " + Join(want);
  };
  if (auto e = compare("activeQ (pop order)", active, m.ActiveKeys())) return e;
  if (auto e = compare("backoffQ (flush order)", backoff, m.BackoffKeys())) {
    return e;
  }
  if (auto e = compare("unschedulable", unschedulable, m.UnschedulableKeys())) {
    return e;
  }
  if (auto e = compare("in flight", in_flight, m.InFlightKeys())) return e;
  if (q.HasPodsInFlight() != !in_flight.empty()) {
    return std::string("HasPodsInFlight disagrees with InFlightPodKeys");
  }

  // Each queued pod's QueuedPodInfo.
  for (const auto& [key, p] : m.pods) {
    if (p.loc == Loc::kInFlight) continue;
    std::optional<QueuedPodView> info = q.Get(key);
    if (!info.has_value()) return key + ": Get found nothing";
    if (!(info->pod == p.pod)) return key + ": the queue holds a stale object";
    if (info->attempts != p.attempts) {
      return key + ": attempts=" + std::to_string(info->attempts) +
             ", model: " + std::to_string(p.attempts);
    }
    if (info->timestamp != p.timestamp) {
      return key + ": timestamp=" + ShowTime(info->timestamp) +
             ", model: " + ShowTime(p.timestamp);
    }
    if (info->initial_attempt_timestamp != p.initial_attempt_timestamp) {
      return key + ": initial attempt timestamp differs from the model";
    }
    if (info->gated != p.gated) {
      return key + ": gated=" + (info->gated ? "true" : "false") +
             ", model: " + (p.gated ? "true" : "false");
    }
    if (info->gated && p.loc != Loc::kUnschedulable) {
      return key + " is gated but in " + LocName(p.loc);
    }
    if (info->unschedulable_plugins != p.unschedulable_plugins ||
        info->pending_plugins != p.pending_plugins) {
      return key + ": rejectors " + Join(info->unschedulable_plugins) +
             " pending " + Join(info->pending_plugins) + ", model: " +
             Join(p.unschedulable_plugins) + " pending " +
             Join(p.pending_plugins);
    }
    if (p.loc == Loc::kBackoff) {
      const api::TimeMs expiry = q.BackoffExpiry(key);
      if (expiry != m.BackoffExpiry(p)) {
        return key + ": backoff until " + ShowTime(expiry) + ", model: " +
               ShowTime(m.BackoffExpiry(p));
      }
      if (expiry <= p.placed_in_backoff_at) {
        return key + " was put in backoffQ at " +
               ShowTime(p.placed_in_backoff_at) +
               " although its backoff ended at " + ShowTime(expiry);
      }
    }
  }

  const auto nominated = q.NominatedPodKeysByNode();
  const auto want_nominated = m.NominatedKeysByNode();
  if (nominated != want_nominated) {
    return "nominations{" + ShowNominations(nominated) + " }, model: {" +
           ShowNominations(want_nominated) + " }";
  }
  return std::nullopt;
}

}  // namespace schedref::testing::models
