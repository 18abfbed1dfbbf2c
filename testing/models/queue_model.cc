#include "testing/models/queue_model.h"

#include <algorithm>
#include <functional>
#include <sstream>
#include <tuple>
#include <utility>

#include "testing/models/show.h"
#include "testing/st/wrappers.h"

namespace schedref::testing::models {
namespace {

using Loc = QueueModel::Loc;

constexpr char kNode[] = "n1";
constexpr char kReadyLabel[] = "ready";
constexpr char kFitLabel[] = "fit";

bool IsReady(const api::Pod& pod) {
  auto it = pod.labels.find(kReadyLabel);
  return it != pod.labels.end() && it->second == "true";
}

// --- fixture objects -----------------------------------------------------------

api::Pod NewPod(const AddOp& op, int incarnation) {
  st::PodWrapper w = st::MakePod();
  w.Namespace("default")
      .Name(op.name)
      .UID(ModelPodKey(op.name) + "#" + std::to_string(incarnation))
      .Priority(op.priority);
  if (op.ready) w.Label(kReadyLabel, "true");
  std::vector<std::string> gates;
  for (int i = 0; i < op.gates; ++i) gates.push_back("g" + std::to_string(i));
  if (!gates.empty()) w.SchedulingGates(gates);
  if (op.nominated) w.NominatedNodeName(kNode);
  return w.Obj();
}

api::Pod UpdatedPod(const api::Pod& old_pod, const UpdateOp& op) {
  api::Pod pod = old_pod;
  if (op.toggle_ready) {
    if (IsReady(pod)) {
      pod.labels.erase(kReadyLabel);
    } else {
      pod.labels[kReadyLabel] = "true";
    }
  }
  if (op.remove_gates == 1 && !pod.scheduling_gates.empty()) {
    pod.scheduling_gates.pop_back();
  } else if (op.remove_gates == 2) {
    pod.scheduling_gates.clear();
  }
  if (op.add_toleration) {
    api::Toleration t;
    t.key = "t" + std::to_string(pod.tolerations.size());
    t.op = "Exists";
    pod.tolerations.push_back(t);
  }
  if (op.priority.has_value()) pod.priority = *op.priority;
  return pod;
}

api::Node NodeN1(bool labelled, bool fit) {
  st::NodeWrapper w = st::MakeNode();
  w.Name(kNode);
  if (labelled) w.Label(kFitLabel, fit ? "true" : "false");
  return w.Obj();
}

api::Pod BoundPod() {
  return st::MakePod().Namespace("default").Name("bound").NodeName(kNode).Obj();
}

// The update events of an unscheduled pod, in upstream's order
// (PodSchedulingPropertiesChange), each aimed at the pod: the fixture never
// changes requests, so there is no scale-down.
std::vector<ModelEvent> UpdateEvents(const api::Pod& old_pod,
                                     const api::Pod& new_pod) {
  std::vector<ModelEvent> events;
  auto add = [&](uint32_t bits) {
    ModelEvent e;
    e.kind = ModelEvent::kPodUpdate;
    e.target_uid = new_pod.uid;
    e.bits = bits;
    e.ready = IsReady(new_pod);
    events.push_back(e);
  };
  if (old_pod.labels != new_pod.labels) add(kUpdatePodLabel);
  if (!old_pod.scheduling_gates.empty() && new_pod.scheduling_gates.empty()) {
    add(kUpdatePodSchedulingGatesEliminated);
  }
  if (old_pod.tolerations.size() != new_pod.tolerations.size()) {
    add(kUpdatePodTolerations);
  }
  if (events.empty()) add(kUpdatePodOther);
  return events;
}

// --- the fixture's hints, restated -------------------------------------------

// Whether `plugin`, having rejected the pod with `uid`, says Queue for `e`.
// Events nobody registered for never reach here with a Queue.
bool PluginQueues(const std::string& plugin, const ModelEvent& e,
                  const std::string& uid) {
  if (plugin == kSchedulingGates) {
    return e.kind == ModelEvent::kPodUpdate &&
           (e.bits & kUpdatePodSchedulingGatesEliminated) != 0 &&
           e.target_uid == uid;
  }
  if (plugin == kFakeNodeFit) {
    return (e.kind == ModelEvent::kNodeAdd ||
            e.kind == ModelEvent::kNodeLabelChange) &&
           e.fit;
  }
  if (plugin == kFakePodLabel) {
    return e.kind == ModelEvent::kPodUpdate &&
           (e.bits & kUpdatePodLabel) != 0 &&
           e.target_uid == uid && e.ready;
  }
  if (plugin == kFakePodDelete) {
    return e.kind == ModelEvent::kAssignedPodDelete ||
           (e.kind == ModelEvent::kPodUpdate &&
            (e.bits & kUpdatePodTolerations) != 0);
  }
  return false;  // FakeNoEvents
}

ModelStrategy Worth(const QueueModel::Pod& p, const ModelEvent& e) {
  std::set<std::string> rejectors = p.unschedulable_plugins;
  rejectors.insert(p.pending_plugins.begin(), p.pending_plugins.end());
  // A failure no plugin explains: always worth another try.
  if (rejectors.empty()) return ModelStrategy::kAfterBackoff;
  switch (e.kind) {
    case ModelEvent::kWildCard:
    case ModelEvent::kUnschedulableTimeout:
      return ModelStrategy::kAfterBackoff;
    case ModelEvent::kForceActivate:
      return e.target_uid == p.pod.uid ? ModelStrategy::kAfterBackoff
                                       : ModelStrategy::kSkip;
    default:
      break;
  }
  ModelStrategy strategy = ModelStrategy::kSkip;
  for (const std::string& plugin : rejectors) {
    if (!PluginQueues(plugin, e, p.pod.uid)) continue;
    if (p.pending_plugins.count(plugin) != 0) {
      return ModelStrategy::kImmediately;
    }
    strategy = ModelStrategy::kAfterBackoff;
  }
  return strategy;
}

bool OfInterest(EventKind kind) { return kind != EventKind::kNodeTaintChange; }

ModelEvent ToModelEvent(const EventOp& op) {
  ModelEvent e;
  e.fit = op.fit;
  switch (op.kind) {
    case EventKind::kNodeAdd:
      e.kind = ModelEvent::kNodeAdd;
      break;
    case EventKind::kNodeLabelChange:
      e.kind = ModelEvent::kNodeLabelChange;
      break;
    case EventKind::kAssignedPodDelete:
      e.kind = ModelEvent::kAssignedPodDelete;
      break;
    case EventKind::kNodeTaintChange:  // never recorded: not of interest
    case EventKind::kWildCard:
      e.kind = ModelEvent::kWildCard;
      break;
  }
  return e;
}

// --- the nominator, restated ----------------------------------------------

void NomDelete(QueueModel& m, const std::string& uid) {
  auto held = m.nominated_node.find(uid);
  if (held == m.nominated_node.end()) return;
  auto& list = m.nominations[held->second];
  list.erase(std::remove_if(list.begin(), list.end(),
                            [&](const auto& e) { return e.first == uid; }),
             list.end());
  if (list.empty()) m.nominations.erase(held->second);
  m.nominated_node.erase(held);
}

// Override: nominate to that node; otherwise to status.nominatedNodeName, if
// any. The old nomination goes first; the new one is last on its node.
void NomAdd(QueueModel& m, const api::Pod& pod,
            const std::optional<std::string>& override_node) {
  NomDelete(m, pod.uid);
  std::string node;
  if (override_node.has_value()) {
    node = *override_node;
  } else {
    if (pod.nominated_node_name.empty()) return;
    node = pod.nominated_node_name;
  }
  m.nominated_node[pod.uid] = node;
  m.nominations[node].push_back({pod.uid, pod.Key()});
}

// A nomination held only in memory survives an update that names none.
void NomUpdate(QueueModel& m, const api::Pod& old_pod,
               const api::Pod& new_pod) {
  std::optional<std::string> keep;
  auto held = m.nominated_node.find(old_pod.uid);
  if (old_pod.nominated_node_name.empty() &&
      new_pod.nominated_node_name.empty() && held != m.nominated_node.end()) {
    keep = held->second;
  }
  NomDelete(m, old_pod.uid);
  NomAdd(m, new_pod, keep);
}

// --- moving pods, restated --------------------------------------------------

enum class Entry { kPodAdd, kPodUpdate, kOther };

// PreEnqueue, then activeQ. Gated: unschedulable, unless the pod already sits
// in activeQ or backoffQ (`current`), where it stays.
Loc Enqueue(QueueModel& m, QueueModel::Pod& p, Entry entry,
            std::optional<Loc> current) {
  if (!p.pod.scheduling_gates.empty()) {
    p.gated = true;
    p.unschedulable_plugins.insert(kSchedulingGates);
    if (current == Loc::kActive || current == Loc::kBackoff) return *current;
    return Loc::kUnschedulable;
  }
  p.gated = false;
  if (!p.initial_attempt_timestamp.has_value()) {
    p.initial_attempt_timestamp = m.now;
  }
  if (entry != Entry::kOther) NomAdd(m, p.pod, std::nullopt);
  return Loc::kActive;
}

Loc Requeue(QueueModel& m, QueueModel::Pod& p, ModelStrategy s,
            std::optional<Loc> current) {
  if (s == ModelStrategy::kSkip) return Loc::kUnschedulable;
  if (s == ModelStrategy::kAfterBackoff && m.BackoffExpiry(p) > m.now) {
    p.placed_in_backoff_at = m.now;
    return Loc::kBackoff;
  }
  return Enqueue(m, p, Entry::kOther, current);
}

void RecordInFlight(QueueModel& m, const ModelEvent& e) {
  for (auto& [key, p] : m.pods) {
    if (p.loc == Loc::kInFlight) p.events_since_pop.push_back(e);
  }
}

// Unschedulable pods in `keys` that the event may help leave; gated pods
// wait for their own update.
void MoveUnschedulable(QueueModel& m, const std::vector<std::string>& keys,
                       const ModelEvent& e) {
  for (const std::string& key : keys) {
    QueueModel::Pod& p = m.pods.at(key);
    if (p.gated && p.unschedulable_plugins.count(kSchedulingGates)) {
      continue;
    }
    ModelStrategy s = Worth(p, e);
    if (s == ModelStrategy::kSkip) continue;
    p.loc = Requeue(m, p, s, std::nullopt);
  }
  RecordInFlight(m, e);
}

const QueueModel::Pod* Find(const QueueModel& m, const std::string& name) {
  auto it = m.pods.find(ModelPodKey(name));
  return it == m.pods.end() ? nullptr : &it->second;
}

bool ModelActiveLess(const QueueModel::Pod& a, const QueueModel::Pod& b) {
  return ActiveQueueLess(a.pod, a.timestamp, b.pod, b.timestamp);
}

std::vector<std::string> KeysAt(
    const QueueModel& m, Loc loc,
    const std::function<bool(const QueueModel::Pod&, const QueueModel::Pod&)>&
        less) {
  std::vector<const QueueModel::Pod*> pods;
  for (const auto& [key, p] : m.pods) {
    if (p.loc == loc) pods.push_back(&p);
  }
  std::stable_sort(pods.begin(), pods.end(),
                   [&](const auto* a, const auto* b) { return less(*a, *b); });
  std::vector<std::string> keys;
  for (const auto* p : pods) keys.push_back(p->pod.Key());
  return keys;
}

}  // namespace

// --- names and showing --------------------------------------------------------

const std::vector<std::string>& ModelRejectorPlugins() {
  static const std::vector<std::string> plugins = {
      kFakeNodeFit, kFakePodLabel, kFakePodDelete, kFakeNoEvents};
  return plugins;
}

const std::vector<std::string>& ModelPodNames() {
  static const std::vector<std::string> names = {"p0", "p1", "p2", "p3",
                                                 "p4"};
  return names;
}

std::string ModelPodKey(const std::string& name) { return "default/" + name; }

const char* LocName(Loc loc) {
  switch (loc) {
    case Loc::kActive:
      return "activeQ";
    case Loc::kBackoff:
      return "backoffQ";
    case Loc::kUnschedulable:
      return "unschedulable";
    case Loc::kInFlight:
      return "in flight";
  }
  return "?";
}

std::string Show(const QueueOp& op) {
  std::ostringstream os;
  os << "t=" << ShowTime(op.at) << " ";
  std::visit(
      Overloaded{
          [&](const AddOp& o) {
            os << "add pod " << ModelPodKey(o.name) << " prio=" << o.priority;
            if (o.ready) os << " ready";
            if (o.gates > 0) os << " gates=" << o.gates;
            if (o.nominated) os << " nominated=" << kNode;
          },
          [&](const UpdateOp& o) {
            os << "update pod " << ModelPodKey(o.name);
            if (o.toggle_ready) os << " toggle-ready";
            if (o.remove_gates == 1) os << " remove-a-gate";
            if (o.remove_gates == 2) os << " remove-all-gates";
            if (o.add_toleration) os << " add-toleration";
            if (o.priority.has_value()) os << " prio=" << *o.priority;
          },
          [&](const DeleteOp& o) {
            os << "delete pod " << ModelPodKey(o.name);
          },
          [&](const PopOp&) { os << "pop"; },
          [&](const DoneOp& o) { os << "done " << ModelPodKey(o.name); },
          [&](const FailOp& o) {
            os << "fail " << ModelPodKey(o.name)
               << " unschedulable=" << Join(o.unschedulable);
            if (!o.pending.empty()) os << " pending=" << Join(o.pending);
          },
          [&](const EventOp& o) {
            os << "event ";
            switch (o.kind) {
              case EventKind::kNodeAdd:
                os << "NodeAdd n1 fit=" << (o.fit ? "true" : "false");
                break;
              case EventKind::kNodeLabelChange:
                os << "NodeLabelChange n1 fit=" << (o.fit ? "true" : "false");
                break;
              case EventKind::kNodeTaintChange:
                os << "NodeTaintChange n1";
                break;
              case EventKind::kAssignedPodDelete:
                os << "AssignedPodDelete default/bound";
                break;
              case EventKind::kWildCard:
                os << "WildCard";
                break;
            }
          },
          [&](const ActivateOp& o) {
            os << "activate " << ModelPodKey(o.name);
          },
          [&](const FlushBackoffOp&) { os << "flush backoffQ"; },
          [&](const FlushUnschedulableOp&) {
            os << "flush unschedulable leftovers";
          },
          [&](const AdvanceClockOp&) { os << "advance clock"; },
          [&](const NominateOp& o) {
            os << "nominate " << ModelPodKey(o.name);
            if (o.override_node) {
              os << " -> \"" << o.node << "\"";
            } else {
              os << " (from status)";
            }
          },
          [&](const ClearNominationOp& o) {
            os << "clear nomination " << ModelPodKey(o.name);
          },
      },
      op.body);
  return os.str();
}

// --- the fixture ----------------------------------------------------------------

bool FixtureNodeFits(const api::Node& node) {
  auto it = node.labels.find(kFitLabel);
  return it != node.labels.end() && it->second == "true";
}

bool FixturePodLabelQueues(const api::Pod& pod, const api::Pod& updated) {
  return updated.uid == pod.uid && IsReady(updated);
}

FixtureEventObjects EventObjectsFor(const EventOp& op) {
  FixtureEventObjects objects;
  switch (op.kind) {
    case EventKind::kNodeAdd:
      objects.new_node = NodeN1(true, op.fit);
      break;
    case EventKind::kNodeLabelChange:
      objects.old_node = NodeN1(false, false);
      objects.new_node = NodeN1(true, op.fit);
      break;
    case EventKind::kNodeTaintChange:
      objects.old_node = NodeN1(false, false);
      objects.new_node = NodeN1(false, false);
      break;
    case EventKind::kAssignedPodDelete:
      objects.old_pod = BoundPod();
      break;
    case EventKind::kWildCard:
      break;
  }
  return objects;
}

// --- the model ----------------------------------------------------------------

api::TimeMs QueueModel::BackoffExpiry(const Pod& p) const {
  if (p.attempts == 0) return p.timestamp;
  const int shift = p.attempts - 1;
  const __int128 doubled =
      shift >= 64 ? static_cast<__int128>(config.max_backoff_ms)
                  : static_cast<__int128>(config.initial_backoff_ms) << shift;
  return p.timestamp +
         static_cast<int64_t>(std::min<__int128>(doubled, config.max_backoff_ms));
}

bool ActiveQueueLess(const api::Pod& a, api::TimeMs a_timestamp,
                     const api::Pod& b, api::TimeMs b_timestamp) {
  return std::make_tuple(-static_cast<int64_t>(a.priority.value_or(0)),
                         a_timestamp, a.Key()) <
         std::make_tuple(-static_cast<int64_t>(b.priority.value_or(0)),
                         b_timestamp, b.Key());
}

std::vector<std::string> QueueModel::ActiveKeys() const {
  return KeysAt(*this, Loc::kActive, ModelActiveLess);
}

std::vector<std::string> QueueModel::BackoffKeys() const {
  return KeysAt(*this, Loc::kBackoff, [this](const Pod& a, const Pod& b) {
    if (BackoffExpiry(a) != BackoffExpiry(b)) {
      return BackoffExpiry(a) < BackoffExpiry(b);
    }
    return ModelActiveLess(a, b);
  });
}

std::vector<std::string> QueueModel::UnschedulableKeys() const {
  return KeysAt(*this, Loc::kUnschedulable,
                [](const Pod& a, const Pod& b) {
                  return a.pod.Key() < b.pod.Key();
                });
}

std::vector<std::string> QueueModel::InFlightKeys() const {
  return KeysAt(*this, Loc::kInFlight, [](const Pod& a, const Pod& b) {
    return a.pop_seq < b.pop_seq;
  });
}

std::map<std::string, std::vector<std::string>>
QueueModel::NominatedKeysByNode() const {
  std::map<std::string, std::vector<std::string>> out;
  for (const auto& [node, list] : nominations) {
    for (const auto& [uid, key] : list) out[node].push_back(key);
  }
  return out;
}

bool IsValid(const QueueModel& m, const QueueOp& op) {
  if (op.at < m.now) return false;
  return std::visit(
      Overloaded{
          [&](const AddOp& o) {
            return Find(m, o.name) == nullptr && o.gates >= 0 && o.gates <= 2;
          },
          [&](const UpdateOp& o) {
            const QueueModel::Pod* p = Find(m, o.name);
            return p != nullptr && !p->deleted;
          },
          [&](const DeleteOp& o) {
            const QueueModel::Pod* p = Find(m, o.name);
            return p != nullptr && !p->deleted;
          },
          [&](const PopOp&) { return true; },
          [&](const DoneOp& o) {
            const QueueModel::Pod* p = Find(m, o.name);
            return p != nullptr && p->loc == Loc::kInFlight;
          },
          [&](const FailOp& o) {
            const QueueModel::Pod* p = Find(m, o.name);
            for (const std::string& plugin : o.pending) {
              if (o.unschedulable.count(plugin) != 0) return false;
            }
            return p != nullptr && p->loc == Loc::kInFlight && !p->deleted;
          },
          [&](const EventOp&) { return true; },
          [&](const ActivateOp& o) { return Find(m, o.name) != nullptr; },
          [&](const FlushBackoffOp&) { return true; },
          [&](const FlushUnschedulableOp&) { return true; },
          [&](const AdvanceClockOp&) { return true; },
          [&](const NominateOp& o) {
            const QueueModel::Pod* p = Find(m, o.name);
            return p != nullptr && !p->deleted;
          },
          [&](const ClearNominationOp& o) { return Find(m, o.name) != nullptr; },
      },
      op.body);
}

void Apply(QueueModel& m, const QueueOp& op) {
  m.now = op.at;
  std::visit(
      Overloaded{
          [&](const AddOp& o) {
            const int incarnation = ++m.incarnations[o.name];
            QueueModel::Pod p;
            p.pod = NewPod(o, incarnation);
            p.timestamp = m.now;
            p.loc = Enqueue(m, p, Entry::kPodAdd, std::nullopt);
            m.pods[p.pod.Key()] = std::move(p);
          },
          [&](const UpdateOp& o) {
            QueueModel::Pod& p = m.pods.at(ModelPodKey(o.name));
            const api::Pod old_pod = p.pod;
            p.pod = UpdatedPod(old_pod, o);
            if (p.loc == Loc::kInFlight) {
              // One event per changed property, recorded for every pod in
              // flight; replayed if one fails.
              for (const ModelEvent& e : UpdateEvents(old_pod, p.pod)) {
                RecordInFlight(m, e);
              }
              return;
            }
            NomUpdate(m, old_pod, p.pod);
            if (p.loc != Loc::kUnschedulable) return;  // updated in place
            for (const ModelEvent& e : UpdateEvents(old_pod, p.pod)) {
              ModelStrategy s = Worth(p, e);
              // Once out of unschedulable, a Skip leaves it where it went.
              if (p.loc != Loc::kUnschedulable && s == ModelStrategy::kSkip) {
                continue;
              }
              p.loc = Requeue(m, p, s, p.loc);
              if (p.loc == Loc::kActive) break;
            }
          },
          [&](const DeleteOp& o) {
            auto it = m.pods.find(ModelPodKey(o.name));
            NomDelete(m, it->second.pod.uid);
            if (it->second.loc == Loc::kInFlight) {
              it->second.deleted = true;
            } else {
              m.pods.erase(it);
            }
          },
          [&](const PopOp&) {
            std::vector<std::string> active = m.ActiveKeys();
            if (active.empty()) return;
            QueueModel::Pod& p = m.pods.at(active.front());
            ++p.attempts;
            p.loc = Loc::kInFlight;
            p.unschedulable_plugins.clear();
            p.pending_plugins.clear();
            p.events_since_pop.clear();
            p.pop_seq = ++m.pops;
          },
          [&](const DoneOp& o) { m.pods.erase(ModelPodKey(o.name)); },
          [&](const FailOp& o) {
            QueueModel::Pod& p = m.pods.at(ModelPodKey(o.name));
            p.timestamp = m.now;
            p.unschedulable_plugins = o.unschedulable;
            p.pending_plugins = o.pending;
            ModelStrategy s = ModelStrategy::kSkip;
            if (o.unschedulable.empty() && o.pending.empty()) {
              s = ModelStrategy::kAfterBackoff;
            } else {
              for (const ModelEvent& e : p.events_since_pop) {
                s = std::max(s, Worth(p, e));
              }
            }
            p.events_since_pop.clear();
            p.loc = Requeue(m, p, s, std::nullopt);
          },
          [&](const EventOp& o) {
            if (!OfInterest(o.kind)) return;
            MoveUnschedulable(m, m.UnschedulableKeys(), ToModelEvent(o));
          },
          [&](const ActivateOp& o) {
            QueueModel::Pod& p = m.pods.at(ModelPodKey(o.name));
            if (p.loc == Loc::kUnschedulable || p.loc == Loc::kBackoff) {
              p.loc = Enqueue(m, p, Entry::kOther, p.loc);
            } else if (p.loc == Loc::kInFlight) {
              ModelEvent e;
              e.kind = ModelEvent::kForceActivate;
              e.target_uid = p.pod.uid;
              RecordInFlight(m, e);
            }
          },
          [&](const FlushBackoffOp&) {
            for (auto& [key, p] : m.pods) {
              if (p.loc == Loc::kBackoff && m.BackoffExpiry(p) <= m.now) {
                p.loc = Enqueue(m, p, Entry::kOther, std::nullopt);
              }
            }
          },
          [&](const FlushUnschedulableOp&) {
            std::vector<std::string> keys;
            for (const auto& [key, p] : m.pods) {
              if (p.loc == Loc::kUnschedulable &&
                  m.now - p.timestamp > m.config.max_in_unschedulable_ms) {
                keys.push_back(key);
              }
            }
            if (keys.empty()) return;  // nothing moved, nothing recorded
            ModelEvent e;
            e.kind = ModelEvent::kUnschedulableTimeout;
            MoveUnschedulable(m, keys, e);
          },
          [&](const AdvanceClockOp&) {},
          [&](const NominateOp& o) {
            const QueueModel::Pod& p = m.pods.at(ModelPodKey(o.name));
            NomAdd(m, p.pod,
                   o.override_node ? std::optional<std::string>(o.node)
                                   : std::nullopt);
          },
          [&](const ClearNominationOp& o) {
            NomDelete(m, m.pods.at(ModelPodKey(o.name)).pod.uid);
          },
      },
      op.body);
}

}  // namespace schedref::testing::models
