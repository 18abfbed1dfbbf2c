#include "reference/backend/cache/cache_model.h"

#include <algorithm>
#include <sstream>
#include <utility>

#include "reference/framework/node_info.h"
#include "reference/framework/snapshot.h"
#include "reference/framework/testing/wrappers.h"

namespace schedref::reference::cache {
namespace {

namespace st = framework::st;

template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

template <typename T>
std::string Join(const T& items) {
  std::string out = "[";
  for (const auto& item : items) {
    if (out.size() > 1) out += " ";
    out += item;
  }
  return out + "]";
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

std::string ShowUid(const std::string& uid) {
  return uid.empty() ? "<no uid>" : uid;
}

std::string ShowChoice(const NodeChoice& c) {
  switch (c.kind) {
    case NodeChoice::kCached:
      return "its node";
    case NodeChoice::kNamed:
      return c.name;
    case NodeChoice::kEmpty:
      return "\"\"";
  }
  return "?";
}

std::string ShowLabels(const NodeLabels& l) {
  static const char* const kZones[] = {"none", "za", "zb", "beta:za",
                                       "beta:zb+topology:zc"};
  std::string out = "zone=";
  out += (l.zone >= 0 && l.zone < 5) ? kZones[l.zone] : "?";
  if (l.region) out += " region=r1";
  out += " v=" + std::to_string(l.version);
  return out;
}

api::Pod PodObject(const std::string& uid, const std::string& node,
                   int version) {
  return st::MakePod()
      .Namespace("default")
      .Name(uid.empty() ? "nouid" : uid)
      .UID(uid)
      .NodeName(node)
      .Label("v", std::to_string(version))
      .Obj();
}

const CacheModel::Pod* Cached(const CacheModel& m, const std::string& uid) {
  if (uid.empty()) return nullptr;
  auto it = m.pods.find(uid);
  return it == m.pods.end() ? nullptr : &it->second;
}

std::string Resolve(const CacheModel& m, const std::string& uid,
                    const NodeChoice& c) {
  switch (c.kind) {
    case NodeChoice::kCached: {
      const CacheModel::Pod* p = Cached(m, uid);
      return p != nullptr ? p->pod.node_name : ModelNodeNames().front();
    }
    case NodeChoice::kNamed:
      return c.name;
    case NodeChoice::kEmpty:
      return "";
  }
  return "";
}

// The cached object (or a fresh one for an unknown pod) on `node`, as the
// informer or the scheduler would pass it.
api::Pod PodOn(const CacheModel& m, const std::string& uid,
               const std::string& node) {
  const CacheModel::Pod* p = Cached(m, uid);
  api::Pod pod = p != nullptr ? p->pod : PodObject(uid, node, 0);
  pod.node_name = node;
  return pod;
}

// The pod object(s) an operation passes to the cache, built from the state
// before it. Shared by the model and the harness so that both see the same
// objects.
struct PodArgs {
  api::Pod pod;
  api::Pod new_pod;  // UpdatePod only
};
PodArgs ArgsFor(const CacheModel& m, const CacheOpBody& body) {
  return std::visit(
      Overloaded{
          [&](const AssumePodOp& o) {
            return PodArgs{PodObject(o.uid, o.node, 0), {}};
          },
          [&](const FinishBindingOp& o) {
            return PodArgs{
                PodOn(m, o.uid,
                      Resolve(m, o.uid, NodeChoice{NodeChoice::kCached, ""})),
                {}};
          },
          [&](const ForgetPodOp& o) {
            return PodArgs{PodOn(m, o.uid, Resolve(m, o.uid, o.node)), {}};
          },
          [&](const AddPodOp& o) {
            return PodArgs{
                PodObject(o.uid, Resolve(m, o.uid, o.node), o.version), {}};
          },
          [&](const UpdatePodOp& o) {
            api::Pod old_pod = PodOn(
                m, o.uid, Resolve(m, o.uid, NodeChoice{NodeChoice::kCached, ""}));
            api::Pod new_pod = old_pod;
            new_pod.node_name = Resolve(m, o.uid, o.node);
            new_pod.labels["v"] = std::to_string(o.version);
            return PodArgs{old_pod, new_pod};
          },
          [&](const RemovePodOp& o) {
            return PodArgs{PodOn(m, o.uid, Resolve(m, o.uid, o.node)), {}};
          },
          [&](const auto&) { return PodArgs{}; },
      },
      body);
}

// --- the model's pod and node bookkeeping ------------------------------------

void PlacePod(CacheModel& m, const api::Pod& pod, bool assumed) {
  m.nodes[pod.node_name].pods.push_back(pod.uid);
  m.pods[pod.uid] = CacheModel::Pod{pod, assumed, false, std::nullopt};
}

// The last pod takes the removed one's slot; a ghost without pods goes.
void UnplacePod(CacheModel& m, const std::string& uid) {
  const std::string node = m.pods.at(uid).pod.node_name;
  CacheModel::Node& n = m.nodes.at(node);
  auto it = std::find(n.pods.begin(), n.pods.end(), uid);
  *it = n.pods.back();
  n.pods.pop_back();
  if (n.pods.empty() && !n.node.has_value()) m.nodes.erase(node);
  m.pods.erase(uid);
}

void TreeAdd(CacheModel& m, const api::Node& node) {
  const std::string zone = ModelZoneKey(node);
  auto it = m.zone_nodes.find(zone);
  if (it == m.zone_nodes.end()) {
    m.zones.push_back(zone);
    m.zone_nodes[zone] = {node.name};
    return;
  }
  if (std::find(it->second.begin(), it->second.end(), node.name) ==
      it->second.end()) {
    it->second.push_back(node.name);
  }
}

void TreeRemove(CacheModel& m, const api::Node& node) {
  const std::string zone = ModelZoneKey(node);
  std::vector<std::string>& names = m.zone_nodes.at(zone);
  names.erase(std::find(names.begin(), names.end(), node.name));
  if (names.empty()) {
    m.zone_nodes.erase(zone);
    m.zones.erase(std::find(m.zones.begin(), m.zones.end(), zone));
  }
}

std::string ShowNodeInfo(const framework::NodeInfo& info) {
  std::vector<std::string> uids;
  for (const api::Pod& p : info.pods) uids.push_back(p.uid);
  return (info.node.has_value() ? info.node->name : std::string("<ghost>")) +
         Join(uids);
}

}  // namespace

// --- names, objects, showing ------------------------------------------------

const std::vector<std::string>& ModelNodeNames() {
  static const std::vector<std::string> names = {"n0", "n1", "n2", "n3"};
  return names;
}

const std::vector<std::string>& ModelPodUids() {
  static const std::vector<std::string> uids = {"u0", "u1", "u2",
                                                "u3", "u4", "u5"};
  return uids;
}

std::string ModelZoneKey(const api::Node& node) {
  auto read = [&](const char* beta, const char* topology) {
    if (auto it = node.labels.find(beta); it != node.labels.end()) {
      return it->second;
    }
    auto it = node.labels.find(topology);
    return it == node.labels.end() ? std::string() : it->second;
  };
  const std::string zone = read(kLabelFailureDomainBetaZone, kLabelTopologyZone);
  const std::string region =
      read(kLabelFailureDomainBetaRegion, kLabelTopologyRegion);
  if (zone.empty() && region.empty()) return "";
  return region + std::string(":\0:", 3) + zone;
}

api::Node ModelNode(const std::string& name, const NodeLabels& labels) {
  st::NodeWrapper w = st::MakeNode();
  w.Name(name).Label("v", std::to_string(labels.version));
  switch (labels.zone) {
    case 1:
      w.Label(kLabelTopologyZone, "za");
      break;
    case 2:
      w.Label(kLabelTopologyZone, "zb");
      break;
    case 3:
      w.Label(kLabelFailureDomainBetaZone, "za");
      break;
    case 4:
      w.Label(kLabelFailureDomainBetaZone, "zb");
      w.Label(kLabelTopologyZone, "zc");
      break;
    default:
      break;
  }
  if (labels.region) w.Label(kLabelTopologyRegion, "r1");
  return w.Obj();
}

std::string Show(const CacheOp& op) {
  std::ostringstream os;
  os << "t=" << ShowTime(op.at) << " ";
  std::visit(
      Overloaded{
          [&](const AddNodeOp& o) {
            os << "add node " << o.name << " " << ShowLabels(o.labels);
          },
          [&](const UpdateNodeOp& o) {
            os << "update node " << o.name << " " << ShowLabels(o.labels);
          },
          [&](const RemoveNodeOp& o) { os << "remove node " << o.name; },
          [&](const AssumePodOp& o) {
            os << "assume pod " << ShowUid(o.uid) << " on " << o.node;
          },
          [&](const FinishBindingOp& o) {
            os << "finish binding " << ShowUid(o.uid);
          },
          [&](const ForgetPodOp& o) {
            os << "forget pod " << ShowUid(o.uid) << " on "
               << ShowChoice(o.node);
          },
          [&](const AddPodOp& o) {
            os << "add pod " << ShowUid(o.uid) << " bound to "
               << ShowChoice(o.node) << " v=" << o.version;
          },
          [&](const UpdatePodOp& o) {
            os << "update pod " << ShowUid(o.uid) << " on "
               << ShowChoice(o.node) << " v=" << o.version;
          },
          [&](const RemovePodOp& o) {
            os << "remove pod " << ShowUid(o.uid) << " from "
               << ShowChoice(o.node);
          },
          [&](const CleanupOp&) { os << "clean up assumed pods"; },
          [&](const SnapshotOp&) { os << "snapshot"; },
      },
      op.body);
  return os.str();
}

// --- the model ----------------------------------------------------------------

std::vector<std::string> CacheModel::TreeOrder() const {
  std::vector<std::string> out;
  for (size_t round = 0;; ++round) {
    bool any = false;
    for (const std::string& zone : zones) {
      const std::vector<std::string>& names = zone_nodes.at(zone);
      if (round < names.size()) {
        out.push_back(names[round]);
        any = true;
      }
    }
    if (!any) return out;
  }
}

std::set<std::string> CacheModel::AssumedUids() const {
  std::set<std::string> out;
  for (const auto& [uid, p] : pods) {
    if (p.assumed) out.insert(uid);
  }
  return out;
}

std::vector<std::string> CacheModel::NextSnapshotOrder() const {
  std::vector<std::string> current;
  for (const std::string& name : TreeOrder()) {
    auto it = nodes.find(name);
    if (it != nodes.end() && it->second.node.has_value()) {
      current.push_back(name);
    }
  }
  // Re-listed only when the set of nodes changed.
  if (std::set<std::string>(current.begin(), current.end()) ==
      std::set<std::string>(snapshot_order.begin(), snapshot_order.end())) {
    return snapshot_order;
  }
  return current;
}

bool IsValid(const CacheModel& m, const CacheOp& op) {
  if (op.at < m.now) return false;
  auto has_node_object = [&](const std::string& name) {
    auto it = m.nodes.find(name);
    return it != m.nodes.end() && it->second.node.has_value();
  };
  if (const auto* o = std::get_if<AddNodeOp>(&op.body)) {
    return !has_node_object(o->name);
  }
  if (const auto* o = std::get_if<UpdateNodeOp>(&op.body)) {
    return has_node_object(o->name);
  }
  // The informer reports only bound pods.
  if (const auto* o = std::get_if<AddPodOp>(&op.body)) {
    return o->node.kind != NodeChoice::kEmpty;
  }
  return true;
}

bool Apply(CacheModel& m, const CacheOp& op) {
  m.now = op.at;
  const PodArgs args = ArgsFor(m, op.body);
  return std::visit(
      Overloaded{
          [&](const AddNodeOp& o) {
            const api::Node node = ModelNode(o.name, o.labels);
            TreeAdd(m, node);
            m.nodes[o.name].node = node;
            return true;
          },
          [&](const UpdateNodeOp& o) {
            const api::Node old_node = *m.nodes.at(o.name).node;
            const api::Node node = ModelNode(o.name, o.labels);
            if (ModelZoneKey(old_node) != ModelZoneKey(node)) {
              TreeRemove(m, old_node);
              TreeAdd(m, node);
            }
            m.nodes.at(o.name).node = node;
            return true;
          },
          [&](const RemoveNodeOp& o) {
            auto it = m.nodes.find(o.name);
            // Unknown, or already a ghost: the node tree does not have it.
            if (it == m.nodes.end() || !it->second.node.has_value()) {
              return false;
            }
            TreeRemove(m, *it->second.node);
            it->second.node.reset();
            if (it->second.pods.empty()) m.nodes.erase(it);
            return true;
          },
          [&](const AssumePodOp& o) {
            if (o.uid.empty() || m.pods.count(o.uid) != 0) return false;
            PlacePod(m, args.pod, /*assumed=*/true);
            return true;
          },
          [&](const FinishBindingOp& o) {
            if (o.uid.empty()) return false;
            auto it = m.pods.find(o.uid);
            if (it != m.pods.end() && it->second.assumed) {
              it->second.binding_finished = true;
              if (m.config.assumed_pod_ttl_ms != 0) {
                it->second.deadline = m.now + m.config.assumed_pod_ttl_ms;
              }
            }
            return true;
          },
          [&](const ForgetPodOp& o) {
            const CacheModel::Pod* p = Cached(m, o.uid);
            if (p == nullptr || !p->assumed ||
                p->pod.node_name != args.pod.node_name) {
              return false;
            }
            UnplacePod(m, o.uid);
            return true;
          },
          [&](const AddPodOp& o) {
            if (o.uid.empty()) return false;
            const CacheModel::Pod* p = Cached(m, o.uid);
            if (p != nullptr && !p->assumed) return false;
            if (p != nullptr) UnplacePod(m, o.uid);  // confirmed, maybe moved
            PlacePod(m, args.pod, /*assumed=*/false);
            return true;
          },
          [&](const UpdatePodOp& o) {
            const CacheModel::Pod* p = Cached(m, o.uid);
            if (p == nullptr || p->assumed ||
                p->pod.node_name != args.new_pod.node_name) {
              return false;
            }
            UnplacePod(m, o.uid);
            PlacePod(m, args.new_pod, /*assumed=*/false);
            return true;
          },
          [&](const RemovePodOp& o) {
            const CacheModel::Pod* p = Cached(m, o.uid);
            if (p == nullptr || (!args.pod.node_name.empty() &&
                                 args.pod.node_name != p->pod.node_name)) {
              return false;
            }
            UnplacePod(m, o.uid);
            return true;
          },
          [&](const CleanupOp&) {
            if (m.config.assumed_pod_ttl_ms == 0) return true;
            for (const std::string& uid : m.AssumedUids()) {  // UID order
              const CacheModel::Pod& p = m.pods.at(uid);
              if (p.binding_finished && p.deadline.has_value() &&
                  m.now > *p.deadline) {
                UnplacePod(m, uid);
              }
            }
            return true;
          },
          [&](const SnapshotOp&) {
            m.snapshot_order = m.NextSnapshotOrder();
            return true;
          },
      },
      op.body);
}

// --- the harness -------------------------------------------------------------

CacheHarness::CacheHarness(const CacheModel::Config& config)
    : cache_(Cache::Options{config.assumed_pod_ttl_ms}) {}

std::optional<std::string> CacheHarness::RunAndCheck(const CacheModel& before,
                                                     const CacheOp& op) {
  CacheModel after = before;
  const bool want_ok = Apply(after, op);
  const PodArgs args = ArgsFor(before, op.body);
  const std::set<std::string> assumed_before = cache_.AssumedPodUids();
  std::optional<framework::Snapshot> snapshot;
  // Which assumed pod may leave the assumed state in this operation.
  std::optional<std::string> may_unassume;
  bool expiry = false;

  const schedref::Status status = std::visit(
      Overloaded{
          [&](const AddNodeOp& o) {
            return cache_.AddNode(ModelNode(o.name, o.labels));
          },
          [&](const UpdateNodeOp& o) {
            return cache_.UpdateNode(*before.nodes.at(o.name).node,
                                     ModelNode(o.name, o.labels));
          },
          [&](const RemoveNodeOp& o) {
            auto it = before.nodes.find(o.name);
            const api::Node node =
                it != before.nodes.end() && it->second.node.has_value()
                    ? *it->second.node
                    : ModelNode(o.name, NodeLabels{});
            return cache_.RemoveNode(node);
          },
          [&](const AssumePodOp&) { return cache_.AssumePod(args.pod); },
          [&](const FinishBindingOp&) {
            return cache_.FinishBinding(args.pod, op.at);
          },
          [&](const ForgetPodOp& o) {
            may_unassume = o.uid;
            return cache_.ForgetPod(args.pod);
          },
          [&](const AddPodOp& o) {
            may_unassume = o.uid;
            return cache_.AddPod(args.pod);
          },
          [&](const UpdatePodOp&) {
            return cache_.UpdatePod(args.pod, args.new_pod);
          },
          [&](const RemovePodOp& o) {
            may_unassume = o.uid;
            return cache_.RemovePod(args.pod);
          },
          [&](const CleanupOp&) {
            expiry = true;
            cache_.CleanupAssumedPods(op.at);
            return schedref::Status::Ok();
          },
          [&](const SnapshotOp&) {
            snapshot = cache_.UpdateSnapshot();
            return schedref::Status::Ok();
          },
      },
      op.body);

  if (status.ok() != want_ok) {
    return status.ok() ? std::string("the cache accepted it; it must fail")
                       : "the cache failed: " + status.message();
  }

  // Assumed pods leave only through AddPod (confirmed), ForgetPod or
  // RemovePod of that pod, or by expiry after FinishBinding with a non-zero
  // TTL. (RemovePod of an assumed pod is outside the informer's contract,
  // but upstream's RemovePod does not check the state, and neither does the
  // reference.)
  const std::set<std::string> assumed_after = cache_.AssumedPodUids();
  for (const std::string& uid : assumed_before) {
    if (assumed_after.count(uid) != 0) continue;
    if (may_unassume == uid) continue;
    auto p = before.pods.find(uid);
    if (expiry && before.config.assumed_pod_ttl_ms != 0 &&
        p != before.pods.end() && p->second.binding_finished) {
      continue;
    }
    return "assumed pod " + uid + " left the assumed state";
  }

  if (snapshot.has_value()) {
    // The snapshot, recomputed from the model: the nodes with objects in
    // node-tree order (re-listed iff the set of nodes changed), each with
    // exactly the bound and assumed pods on it, in NodeInfo order.
    std::vector<std::string> names;
    for (const framework::NodeInfo& info : snapshot->List()) {
      if (!info.node.has_value()) return std::string("a ghost in the snapshot");
      names.push_back(info.node->name);
    }
    if (names != after.snapshot_order) {
      return "snapshot lists " + Join(names) + ", model: " +
             Join(after.snapshot_order);
    }
    std::set<std::string> with_objects;
    for (const auto& [name, n] : after.nodes) {
      if (n.node.has_value()) with_objects.insert(name);
    }
    if (std::set<std::string>(names.begin(), names.end()) != with_objects) {
      return "snapshot nodes " + Join(names) + " are not the nodes " +
             Join(with_objects);
    }
    for (const framework::NodeInfo& info : snapshot->List()) {
      const CacheModel::Node& n = after.nodes.at(info.node->name);
      if (!(*info.node == *n.node)) {
        return "snapshot holds a stale object of node " + info.node->name;
      }
      std::vector<std::string> uids;
      std::multiset<std::string> uid_set;
      for (const api::Pod& p : info.pods) {
        uids.push_back(p.uid);
        uid_set.insert(p.uid);
        if (!(p == after.pods.at(p.uid).pod)) {
          return "snapshot holds a stale object of pod " + p.uid;
        }
      }
      if (uids != n.pods) {
        return "snapshot node " + info.node->name + " has pods " + Join(uids) +
               ", model: " + Join(n.pods);
      }
      std::multiset<std::string> want;
      for (const auto& [uid, p] : after.pods) {
        if (p.pod.node_name == info.node->name) want.insert(uid);
      }
      if (uid_set != want) {
        return "snapshot node " + info.node->name + " has pods " + Join(uids) +
               ", but the pods bound or assumed there are " + Join(want);
      }
    }
  }
  return Check(after);
}

std::optional<std::string> CacheHarness::Check(const CacheModel& m) const {
  const std::vector<std::string> tree = cache_.NodeTreeOrder();
  if (tree != m.TreeOrder()) {
    return "node tree order " + Join(tree) + ", model: " + Join(m.TreeOrder());
  }
  std::vector<std::string> ghosts;
  std::set<std::string> with_objects;
  for (const std::string& name : ModelNodeNames()) {
    std::optional<framework::NodeInfo> info = cache_.GetNodeInfo(name);
    auto it = m.nodes.find(name);
    if (info.has_value() != (it != m.nodes.end())) {
      return "NodeInfo " + name + (info.has_value() ? " held" : " missing") +
             ", model: " + (info.has_value() ? "none" : "held");
    }
    if (!info.has_value()) continue;
    if (info->node.has_value() != it->second.node.has_value() ||
        (info->node.has_value() && !(*info->node == *it->second.node))) {
      return "NodeInfo " + name + " holds another node object than the model";
    }
    if (info->node.has_value()) {
      with_objects.insert(name);
    } else {
      ghosts.push_back(name);
      if (info->pods.empty()) return "ghost " + name + " without pods";
    }
    std::vector<std::string> uids;
    for (const api::Pod& p : info->pods) {
      uids.push_back(p.uid);
      if (p.node_name != name) {
        return "pod " + p.uid + " of node " + p.node_name + " sits on " + name;
      }
      if (auto cached = cache_.GetPod(p); !cached.has_value() || !(*cached == p)) {
        return "pod " + p.uid + " on " + name + " differs from its pod state";
      }
    }
    if (uids != it->second.pods) {
      return "NodeInfo " + ShowNodeInfo(*info) + ", model: " + name +
             Join(it->second.pods);
    }
  }
  if (cache_.GhostNodes() != ghosts) {
    return "ghosts " + Join(cache_.GhostNodes()) + ", model: " + Join(ghosts);
  }
  if (std::set<std::string>(tree.begin(), tree.end()) != with_objects) {
    return "node tree " + Join(tree) + " but nodes with objects " +
           Join(with_objects);
  }
  if (cache_.NodeCount() != static_cast<int>(m.nodes.size()) ||
      cache_.PodCount() != static_cast<int>(m.pods.size())) {
    return "counts: " + std::to_string(cache_.NodeCount()) + " nodes, " +
           std::to_string(cache_.PodCount()) + " pods; model: " +
           std::to_string(m.nodes.size()) + ", " +
           std::to_string(m.pods.size());
  }
  if (cache_.AssumedPodUids() != m.AssumedUids()) {
    return "assumed " + Join(cache_.AssumedPodUids()) + ", model: " +
           Join(m.AssumedUids());
  }
  for (const std::string& uid : ModelPodUids()) {
    const api::Pod probe = PodObject(uid, "", 0);
    std::optional<api::Pod> got = cache_.GetPod(probe);
    auto it = m.pods.find(uid);
    if (got.has_value() != (it != m.pods.end())) {
      return "pod " + uid + (got.has_value() ? " cached" : " not cached") +
             ", model: the opposite";
    }
    if (!got.has_value()) continue;
    if (!(*got == it->second.pod)) {
      return "pod " + uid + " on " + got->node_name + ", model: on " +
             it->second.pod.node_name + " (or other fields differ)";
    }
    if (cache_.IsAssumedPod(probe) != it->second.assumed) {
      return "pod " + uid + ": IsAssumedPod disagrees with the model";
    }
    // Each cached pod sits on exactly the NodeInfo of its node.
    std::optional<framework::NodeInfo> info = cache_.GetNodeInfo(got->node_name);
    if (!info.has_value() ||
        std::count_if(info->pods.begin(), info->pods.end(),
                      [&](const api::Pod& p) { return p.uid == uid; }) != 1) {
      return "pod " + uid + " is not on NodeInfo " + got->node_name +
             " exactly once";
    }
  }
  return std::nullopt;
}

}  // namespace schedref::reference::cache
