#include "reference/backend/queue/scheduling_queue_model.h"

#include <algorithm>
#include <functional>
#include <sstream>
#include <tuple>
#include <utility>

#include "reference/backend/queue/cross_topology.h"
#include "reference/framework/testing/wrappers.h"

namespace schedref::reference::queue {
namespace {

namespace st = framework::st;
using framework::ClusterEvent;
using framework::EventObject;
using framework::EventResource;
using framework::QueueingHint;
using Loc = QueueModel::Loc;
using Where = SchedulingQueue::Where;

constexpr char kNode[] = "n1";
constexpr char kReadyLabel[] = "ready";
constexpr char kFitLabel[] = "fit";

template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

bool IsReady(const api::Pod& pod) {
  auto it = pod.labels.find(kReadyLabel);
  return it != pod.labels.end() && it->second == "true";
}

template <typename T>
std::string Join(const T& items) {
  std::string out = "[";
  for (const auto& item : items) {
    if (out.size() > 1) out += " ";
    out += item;
  }
  return out + "]";
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
// (PodSchedulingPropertiesChange): the fixture never changes requests, so
// there is no scale-down.
std::vector<framework::ActionType> UpdateBits(const api::Pod& old_pod,
                                              const api::Pod& new_pod) {
  std::vector<framework::ActionType> bits;
  if (old_pod.labels != new_pod.labels) {
    bits.push_back(framework::kUpdatePodLabel);
  }
  if (!old_pod.scheduling_gates.empty() && new_pod.scheduling_gates.empty()) {
    bits.push_back(framework::kUpdatePodSchedulingGatesEliminated);
  }
  if (old_pod.tolerations.size() != new_pod.tolerations.size()) {
    bits.push_back(framework::kUpdatePodTolerations);
  }
  if (bits.empty()) bits.push_back(framework::kUpdatePodOther);
  return bits;
}

// --- the fixture's hints, restated -------------------------------------------

// Whether `plugin`, having rejected the pod with `uid`, says Queue for `e`.
// Events nobody registered for never reach here with a Queue.
bool PluginQueues(const std::string& plugin, const ModelEvent& e,
                  const std::string& uid) {
  if (plugin == kSchedulingGatesPlugin) {
    return e.kind == ModelEvent::kPodUpdate &&
           (e.bits & framework::kUpdatePodSchedulingGatesEliminated) != 0 &&
           e.target_uid == uid;
  }
  if (plugin == kFakeNodeFit) {
    return (e.kind == ModelEvent::kNodeAdd ||
            e.kind == ModelEvent::kNodeLabelChange) &&
           e.fit;
  }
  if (plugin == kFakePodLabel) {
    return e.kind == ModelEvent::kPodUpdate &&
           (e.bits & framework::kUpdatePodLabel) != 0 &&
           e.target_uid == uid && e.ready;
  }
  if (plugin == kFakePodDelete) {
    return e.kind == ModelEvent::kAssignedPodDelete ||
           (e.kind == ModelEvent::kPodUpdate &&
            (e.bits & framework::kUpdatePodTolerations) != 0);
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
    p.unschedulable_plugins.insert(kSchedulingGatesPlugin);
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
    if (p.gated && p.unschedulable_plugins.count(kSchedulingGatesPlugin)) {
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

// activeQ order: priority (higher first), timestamp, key.
bool ModelActiveLess(const QueueModel::Pod& a, const QueueModel::Pod& b) {
  return std::make_tuple(-static_cast<int64_t>(a.pod.priority.value_or(0)),
                         a.timestamp, a.pod.Key()) <
         std::make_tuple(-static_cast<int64_t>(b.pod.priority.value_or(0)),
                         b.timestamp, b.pod.Key());
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

std::string ShowTime(api::TimeMs t) {
  std::string out = std::to_string(t / 1000);
  if (int64_t ms = t % 1000; ms != 0) {
    std::string frac = std::to_string(1000 + ms).substr(1);
    while (frac.back() == '0') frac.pop_back();
    out += "." + frac;
  }
  return out + "s";
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
              // Recorded for every pod in flight; replayed if one fails.
              ModelEvent e;
              e.kind = ModelEvent::kPodUpdate;
              e.target_uid = p.pod.uid;
              e.bits = framework::kUpdate;
              e.ready = IsReady(p.pod);
              RecordInFlight(m, e);
              return;
            }
            NomUpdate(m, old_pod, p.pod);
            if (p.loc != Loc::kUnschedulable) return;  // updated in place
            for (framework::ActionType bits : UpdateBits(old_pod, p.pod)) {
              ModelEvent e;
              e.kind = ModelEvent::kPodUpdate;
              e.target_uid = p.pod.uid;
              e.bits = bits;
              e.ready = IsReady(p.pod);
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

// --- the harness -------------------------------------------------------------

namespace {

framework::QueueingHintFn NodeFitHint() {
  return [](const api::Pod&, const EventObject&,
            const EventObject& new_obj) -> StatusOr<QueueingHint> {
    const api::Node* node = std::get_if<api::Node>(&new_obj);
    if (node == nullptr) return schedref::Status::Invalid("not a node");
    auto it = node->labels.find(kFitLabel);
    return it != node->labels.end() && it->second == "true"
               ? QueueingHint::kQueue
               : QueueingHint::kSkip;
  };
}

framework::QueueingHintFn PodLabelHint() {
  return [](const api::Pod& pod, const EventObject&,
            const EventObject& new_obj) -> StatusOr<QueueingHint> {
    const api::Pod* updated = std::get_if<api::Pod>(&new_obj);
    if (updated == nullptr) return schedref::Status::Invalid("not a pod");
    return updated->uid == pod.uid && IsReady(*updated) ? QueueingHint::kQueue
                                                        : QueueingHint::kSkip;
  };
}

framework::QueueingHintFn FailingHint() {
  return [](const api::Pod&, const EventObject&,
            const EventObject&) -> StatusOr<QueueingHint> {
    return schedref::Status::Invalid("FakePodDelete: hint failed");
  };
}

SchedulingQueue::Options QueueOptions(const QueueModel::Config& c) {
  SchedulingQueue::Options options;
  options.pod_initial_backoff_ms = c.initial_backoff_ms;
  options.pod_max_backoff_ms = c.max_backoff_ms;
  options.pod_max_in_unschedulable_pods_ms = c.max_in_unschedulable_ms;
  return options;
}

std::map<std::string, SchedulingQueue::Profile> Profiles(
    framework::plugins::schedulinggates::SchedulingGates* gates) {
  SchedulingQueue::Profile profile;
  profile.pre_enqueue = {gates};
  profile.queueing_hints[gates->Name()] = gates->EventsToRegister();
  profile.queueing_hints[kFakeNodeFit] = {
      {{EventResource::kNode,
        framework::kAdd | framework::kUpdateNodeLabel, "FakeNodeFit"},
       NodeFitHint()}};
  profile.queueing_hints[kFakePodLabel] = {
      {{EventResource::kPod, framework::kUpdatePodLabel, "FakePodLabel"},
       PodLabelHint()}};
  profile.queueing_hints[kFakePodDelete] = {
      {{EventResource::kPod, framework::kDelete, "FakePodDelete"}, nullptr},
      {{EventResource::kPod, framework::kUpdatePodTolerations,
        "FakePodDeleteTolerations"},
       FailingHint()}};
  profile.queueing_hints[kFakeNoEvents] = {};
  std::map<std::string, SchedulingQueue::Profile> profiles;
  profiles["default-scheduler"] = std::move(profile);
  return profiles;
}

const char* WhereName(Where where) {
  switch (where) {
    case Where::kActive:
      return "activeQ";
    case Where::kBackoff:
      return "backoffQ";
    case Where::kUnschedulable:
      return "unschedulable";
    case Where::kInFlight:
      return "in flight";
    case Where::kAbsent:
      return "absent";
  }
  return "?";
}

Where ToWhere(Loc loc) {
  switch (loc) {
    case Loc::kActive:
      return Where::kActive;
    case Loc::kBackoff:
      return Where::kBackoff;
    case Loc::kUnschedulable:
      return Where::kUnschedulable;
    case Loc::kInFlight:
      return Where::kInFlight;
  }
  return Where::kAbsent;
}

std::string ShowPlugins(const std::set<std::string>& plugins) {
  return Join(plugins);
}

}  // namespace

QueueHarness::QueueHarness(const QueueModel::Config& config)
    : queue_(QueueOptions(config), &sort_, Profiles(&gates_)) {}

std::optional<std::string> QueueHarness::RunAndCheck(const QueueModel& before,
                                                     const QueueOp& op) {
  QueueModel after = before;
  Apply(after, op);
  const api::TimeMs now = op.at;
  auto pod_in = [](const QueueModel& m, const std::string& name) {
    return m.pods.at(ModelPodKey(name)).pod;
  };

  std::optional<std::string> error;
  std::visit(
      Overloaded{
          [&](const AddOp& o) {
            (void)queue_.Add(pod_in(after, o.name), now);
          },
          [&](const UpdateOp& o) {
            (void)queue_.Update(pod_in(before, o.name), pod_in(after, o.name),
                                now);
          },
          [&](const DeleteOp& o) { (void)queue_.Delete(pod_in(before, o.name)); },
          [&](const PopOp&) {
            std::optional<framework::QueuedPodInfo> got = queue_.Pop();
            if (after.pops == before.pops) {
              if (got.has_value()) {
                error = "pop returned " + got->pod.Key() +
                        " but the model's activeQ is empty";
              }
              return;
            }
            const std::string want = before.ActiveKeys().front();
            if (!got.has_value()) {
              error = "pop returned nothing, model pops " + want;
              return;
            }
            const std::string key = got->pod.Key();
            if (key != want) {
              error = "pop returned " + key + ", model pops " + want +
                      " (QueueSort: priority, then timestamp, then key)";
              return;
            }
            // QueueSort, checked on the queue's own data: nothing left in
            // activeQ sorts before what was popped.
            for (const std::string& other : queue_.ActivePodKeys()) {
              std::optional<framework::QueuedPodInfo> o2 = queue_.Get(other);
              if (o2.has_value() && sort_.Less(*o2, *got)) {
                error = "pop returned " + key + " although " + other +
                        " sorts before it";
                return;
              }
            }
            // The next attempt records its own rejectors.
            if (!got->unschedulable_plugins.empty() ||
                !got->pending_plugins.empty() || got->gated) {
              error = "popped " + key + " still carries rejectors " +
                      Join(got->unschedulable_plugins) + " pending " +
                      Join(got->pending_plugins) +
                      (got->gated ? " and is gated" : "");
              return;
            }
            const QueueModel::Pod& p = after.pods.at(key);
            if (got->attempts != p.attempts || got->timestamp != p.timestamp) {
              error = "popped " + key + " with attempts=" +
                      std::to_string(got->attempts) + " timestamp=" +
                      ShowTime(got->timestamp) + ", model attempts=" +
                      std::to_string(p.attempts) +
                      " timestamp=" + ShowTime(p.timestamp);
              return;
            }
            popped_[key] = Popped{*got, queue_.SchedulingCycle()};
          },
          [&](const DoneOp& o) {
            const std::string key = ModelPodKey(o.name);
            queue_.Done(before.pods.at(key).pod.uid);
            popped_.erase(key);
          },
          [&](const FailOp& o) {
            const std::string key = ModelPodKey(o.name);
            auto it = popped_.find(key);
            if (it == popped_.end()) {
              error = "harness: " + key + " was not popped";
              return;
            }
            framework::QueuedPodInfo info = it->second.info;
            // As the failure handler does: the informer's latest object.
            info.pod = before.pods.at(key).pod;
            info.unschedulable_plugins = o.unschedulable;
            info.pending_plugins = o.pending;
            schedref::Status s = queue_.AddUnschedulableIfNotPresent(
                info, it->second.cycle, now);
            popped_.erase(it);
            if (!s.ok()) {
              error = "AddUnschedulableIfNotPresent(" + key +
                      ") failed: " + s.message();
            }
          },
          [&](const EventOp& o) {
            ClusterEvent event;
            EventObject old_obj;
            EventObject new_obj;
            switch (o.kind) {
              case EventKind::kNodeAdd:
                event = framework::NodeAdd();
                new_obj = NodeN1(true, o.fit);
                break;
              case EventKind::kNodeLabelChange:
                event = {EventResource::kNode, framework::kUpdateNodeLabel,
                         "NodeLabelChange"};
                old_obj = NodeN1(false, false);
                new_obj = NodeN1(true, o.fit);
                break;
              case EventKind::kNodeTaintChange:
                event = {EventResource::kNode, framework::kUpdateNodeTaint,
                         "NodeTaintChange"};
                old_obj = NodeN1(false, false);
                new_obj = NodeN1(false, false);
                break;
              case EventKind::kAssignedPodDelete:
                event = framework::AssignedPodDelete();
                old_obj = BoundPod();
                break;
              case EventKind::kWildCard:
                event = {EventResource::kWildCard, framework::kAll,
                         "WildCardEvent"};
                break;
            }
            queue_.MoveAllToActiveOrBackoffQueue(event, old_obj, new_obj,
                                                 nullptr, now);
          },
          [&](const ActivateOp& o) {
            queue_.Activate({pod_in(before, o.name)}, now);
          },
          [&](const FlushBackoffOp&) {
            // Checked on the queue's own data: a pod leaves backoffQ iff its
            // backoff ended, and goes to activeQ.
            std::map<std::string, api::TimeMs> expiry;
            for (const std::string& key : queue_.BackoffPodKeys()) {
              expiry[key] = queue_.BackoffExpiry(*queue_.Get(key));
            }
            queue_.FlushBackoffQCompleted(now);
            for (const auto& [key, e] : expiry) {
              const Where where = queue_.Locate(key);
              if (e <= now && where != Where::kActive) {
                error = key + " (backoff until " + ShowTime(e) +
                        ") stayed in " + WhereName(where) + " at " +
                        ShowTime(now);
              } else if (e > now && where != Where::kBackoff) {
                error = key + " (backoff until " + ShowTime(e) +
                        ") left backoffQ early, at " + ShowTime(now);
              }
              if (error) return;
            }
          },
          [&](const FlushUnschedulableOp&) {
            queue_.FlushUnschedulablePodsLeftover(now);
          },
          [&](const NominateOp& o) {
            std::optional<NominatingInfo> info;
            if (o.override_node) {
              info = NominatingInfo{NominatingInfo::kOverride, o.node};
            }
            queue_.AddNominatedPod(pod_in(before, o.name), info);
          },
          [&](const ClearNominationOp& o) {
            queue_.DeleteNominatedPodIfExists(pod_in(before, o.name));
          },
      },
      op.body);
  if (error) return error;
  return Check(after);
}

std::optional<std::string> QueueHarness::Check(const QueueModel& m) const {
  // Every pod is where the model says, and in exactly one place.
  for (const std::string& name : ModelPodNames()) {
    const std::string key = ModelPodKey(name);
    auto it = m.pods.find(key);
    const Where want = it == m.pods.end() ? Where::kAbsent : ToWhere(it->second.loc);
    const Where got = queue_.Locate(key);
    if (got != want) {
      return key + " is " + WhereName(got) + ", model: " + WhereName(want);
    }
  }
  const std::vector<std::string> active = queue_.ActivePodKeys();
  const std::vector<std::string> backoff = queue_.BackoffPodKeys();
  const std::vector<std::string> unschedulable = queue_.UnschedulablePodKeys();
  const std::vector<std::string> in_flight = queue_.InFlightPodKeys();
  std::map<std::string, int> seen;
  for (const auto* list : {&active, &backoff, &unschedulable, &in_flight}) {
    for (const std::string& key : *list) {
      if (++seen[key] > 1) return key + " is in two places at once";
    }
  }
  if (seen.size() != m.pods.size()) {
    return "the queue holds " + std::to_string(seen.size()) +
           " pods, the model " + std::to_string(m.pods.size());
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
  if (queue_.HasPodsInFlight() != !in_flight.empty()) {
    return std::string("HasPodsInFlight disagrees with InFlightPodKeys");
  }

  // Each queued pod's QueuedPodInfo.
  for (const auto& [key, p] : m.pods) {
    if (p.loc == Loc::kInFlight) continue;
    std::optional<framework::QueuedPodInfo> info = queue_.Get(key);
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
      return key + ": rejectors " + ShowPlugins(info->unschedulable_plugins) +
             " pending " + ShowPlugins(info->pending_plugins) + ", model: " +
             ShowPlugins(p.unschedulable_plugins) + " pending " +
             ShowPlugins(p.pending_plugins);
    }
    if (p.loc == Loc::kBackoff) {
      const api::TimeMs expiry = queue_.BackoffExpiry(*info);
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

  const auto nominated = queue_.NominatedPodKeysByNode();
  const auto want_nominated = m.NominatedKeysByNode();
  if (nominated != want_nominated) {
    std::string got_s;
    std::string want_s;
    for (const auto& [node, keys] : nominated) {
      got_s += " \"" + node + "\":" + Join(keys);
    }
    for (const auto& [node, keys] : want_nominated) {
      want_s += " \"" + node + "\":" + Join(keys);
    }
    return "nominations{" + got_s + " }, model: {" + want_s + " }";
  }
  return std::nullopt;
}

}  // namespace schedref::reference::queue
