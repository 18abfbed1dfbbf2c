#include "testing/models/cache_model.h"

#include <algorithm>
#include <sstream>
#include <utility>

#include "testing/models/show.h"
#include "testing/st/wrappers.h"

namespace schedref::testing::models {
namespace {

// Upstream's well-known topology labels (k8s.io/api/core/v1).
constexpr char kLabelTopologyZone[] = "topology.kubernetes.io/zone";
constexpr char kLabelTopologyRegion[] = "topology.kubernetes.io/region";
constexpr char kLabelFailureDomainBetaZone[] =
    "failure-domain.beta.kubernetes.io/zone";
constexpr char kLabelFailureDomainBetaRegion[] =
    "failure-domain.beta.kubernetes.io/region";

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
  api::Pod pod = p != nullptr ? p->pod : ModelPod(uid, node, 0);
  pod.node_name = node;
  return pod;
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
  // Allocatable grows with the version, so that an update is seen by the
  // NodeInfo's aggregates; images by name (n0: a, n1: a b, n2: b, n3: none).
  w.Capacity({{"cpu", std::to_string(2 + labels.version)},
              {"memory", "8Gi"},
              {"pods", "110"}});
  const size_t index = static_cast<size_t>(
      std::find(ModelNodeNames().begin(), ModelNodeNames().end(), name) -
      ModelNodeNames().begin());
  std::map<std::string, int64_t> images;
  if (index == 0 || index == 1) images["img-a"] = 1000;
  if (index == 1 || index == 2) images["img-b"] = 2000;
  w.Images(images);
  return w.Obj();
}

api::Pod ModelPod(const std::string& uid, const std::string& node,
                  int version) {
  st::PodWrapper w = st::MakePod();
  w.Namespace("default")
      .Name(uid.empty() ? "nouid" : uid)
      .UID(uid)
      .NodeName(node)
      .Label("v", std::to_string(version))
      .Label("app", "web");
  // u0 .. u5 by index; the pod without a UID as u0.
  auto it = std::find(ModelPodUids().begin(), ModelPodUids().end(), uid);
  const int index =
      it == ModelPodUids().end() ? 0 : static_cast<int>(it - ModelPodUids().begin());
  // Requests grow with the version (an update changes what the node holds);
  // u1 requests nothing, so the non-zero defaults count for it.
  if (index != 1) {
    w.Req({{"cpu", std::to_string(100 * (index + 1) + 10 * version) + "m"},
           {"memory", std::to_string(256 * (index + 1)) + "Mi"}});
  }
  // u2 and u3 share a host port: it stays used while either is on the node.
  if (index == 2 || index == 3) w.HostPort(8080);
  if (index == 5) w.HostPort(9090);
  if (index == 2) w.PodAntiAffinityExists("app", kLabelTopologyZone);
  if (index == 4) w.PreferredPodAffinityExists(5, "app", kLabelTopologyZone);
  if (index == 5) w.PodAffinityExists("app", api::kLabelHostname);
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

PodArgs ArgsFor(const CacheModel& m, const CacheOpBody& body) {
  return std::visit(
      Overloaded{
          [&](const AssumePodOp& o) {
            return PodArgs{ModelPod(o.uid, o.node, 0), {}};
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
                ModelPod(o.uid, Resolve(m, o.uid, o.node), o.version), {}};
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

}  // namespace schedref::testing::models
