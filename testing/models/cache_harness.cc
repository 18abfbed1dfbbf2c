#include "testing/models/cache_harness.h"

#include <algorithm>
#include <set>
#include <utility>
#include <variant>
#include <vector>

#include "api/status.h"
#include "testing/models/show.h"

namespace schedref::testing::models {
namespace {

std::vector<std::string> Uids(const std::vector<api::Pod>& pods) {
  std::vector<std::string> uids;
  for (const api::Pod& p : pods) uids.push_back(p.uid);
  return uids;
}

// The snapshot, recomputed from the model: the nodes with objects in
// node-tree order (re-listed iff the set of nodes changed), each with
// exactly the bound and assumed pods on it, in NodeInfo order.
std::optional<std::string> CheckSnapshot(const std::vector<NodeInfoView>& snapshot,
                                         const CacheModel& after) {
  std::vector<std::string> names;
  for (const NodeInfoView& info : snapshot) {
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
  for (const NodeInfoView& info : snapshot) {
    const CacheModel::Node& n = after.nodes.at(info.node->name);
    if (!(*info.node == *n.node)) {
      return "snapshot holds a stale object of node " + info.node->name;
    }
    const std::vector<std::string> uids = Uids(info.pods);
    for (const api::Pod& p : info.pods) {
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
    if (std::multiset<std::string>(uids.begin(), uids.end()) != want) {
      return "snapshot node " + info.node->name + " has pods " + Join(uids) +
             ", but the pods bound or assumed there are " + Join(want);
    }
  }
  return std::nullopt;
}

}  // namespace

CacheHarness::CacheHarness(std::unique_ptr<CacheUnderTest> cache)
    : cache_(std::move(cache)) {}

std::optional<std::string> CacheHarness::RunAndCheck(const CacheModel& before,
                                                     const CacheOp& op) {
  CacheModel after = before;
  const bool want_ok = Apply(after, op);
  const PodArgs args = ArgsFor(before, op.body);
  CacheUnderTest& c = *cache_;
  const std::set<std::string> assumed_before = c.AssumedPodUids();
  std::optional<std::vector<NodeInfoView>> snapshot;
  // Which assumed pod may leave the assumed state in this operation.
  std::optional<std::string> may_unassume;
  bool expiry = false;

  const schedref::Status status = std::visit(
      Overloaded{
          [&](const AddNodeOp& o) {
            return c.AddNode(ModelNode(o.name, o.labels));
          },
          [&](const UpdateNodeOp& o) {
            return c.UpdateNode(*before.nodes.at(o.name).node,
                                ModelNode(o.name, o.labels));
          },
          [&](const RemoveNodeOp& o) {
            auto it = before.nodes.find(o.name);
            const api::Node node =
                it != before.nodes.end() && it->second.node.has_value()
                    ? *it->second.node
                    : ModelNode(o.name, NodeLabels{});
            return c.RemoveNode(node);
          },
          [&](const AssumePodOp&) { return c.AssumePod(args.pod); },
          [&](const FinishBindingOp&) { return c.FinishBinding(args.pod, op.at); },
          [&](const ForgetPodOp& o) {
            may_unassume = o.uid;
            return c.ForgetPod(args.pod);
          },
          [&](const AddPodOp& o) {
            may_unassume = o.uid;
            return c.AddPod(args.pod);
          },
          [&](const UpdatePodOp&) { return c.UpdatePod(args.pod, args.new_pod); },
          [&](const RemovePodOp& o) {
            may_unassume = o.uid;
            return c.RemovePod(args.pod);
          },
          [&](const CleanupOp&) {
            expiry = true;
            c.CleanupAssumedPods(op.at);
            return schedref::Status::Ok();
          },
          [&](const SnapshotOp&) {
            snapshot = c.UpdateSnapshot();
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
  // but upstream's RemovePod does not check the state, and neither do the
  // implementations.)
  const std::set<std::string> assumed_after = c.AssumedPodUids();
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
    if (auto e = CheckSnapshot(*snapshot, after)) return e;
  }
  if (auto e = Check(after)) return e;
  return c.CheckOwnInvariants();
}

std::optional<std::string> CacheHarness::Check(const CacheModel& m) const {
  const CacheUnderTest& c = *cache_;
  const std::vector<std::string> tree = c.NodeTreeOrder();
  if (tree != m.TreeOrder()) {
    return "node tree order " + Join(tree) + ", model: " + Join(m.TreeOrder());
  }
  std::vector<std::string> ghosts;
  std::set<std::string> with_objects;
  for (const std::string& name : ModelNodeNames()) {
    std::optional<NodeInfoView> info = c.GetNodeInfo(name);
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
    for (const api::Pod& p : info->pods) {
      if (p.node_name != name) {
        return "pod " + p.uid + " of node " + p.node_name + " sits on " + name;
      }
      if (auto cached = c.GetPod(p); !cached.has_value() || !(*cached == p)) {
        return "pod " + p.uid + " on " + name + " differs from its pod state";
      }
    }
    if (Uids(info->pods) != it->second.pods) {
      return "NodeInfo " +
             (info->node.has_value() ? name : std::string("<ghost>")) +
             Join(Uids(info->pods)) + ", model: " + name +
             Join(it->second.pods);
    }
  }
  if (c.GhostNodes() != ghosts) {
    return "ghosts " + Join(c.GhostNodes()) + ", model: " + Join(ghosts);
  }
  if (std::set<std::string>(tree.begin(), tree.end()) != with_objects) {
    return "node tree " + Join(tree) + " but nodes with objects " +
           Join(with_objects);
  }
  if (c.NodeCount() != static_cast<int>(m.nodes.size()) ||
      c.PodCount() != static_cast<int>(m.pods.size())) {
    return "counts: " + std::to_string(c.NodeCount()) + " nodes, " +
           std::to_string(c.PodCount()) + " pods; model: " +
           std::to_string(m.nodes.size()) + ", " + std::to_string(m.pods.size());
  }
  if (c.AssumedPodUids() != m.AssumedUids()) {
    return "assumed " + Join(c.AssumedPodUids()) + ", model: " +
           Join(m.AssumedUids());
  }
  for (const std::string& uid : ModelPodUids()) {
    const api::Pod probe = ModelPod(uid, "", 0);
    std::optional<api::Pod> got = c.GetPod(probe);
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
    if (c.IsAssumedPod(probe) != it->second.assumed) {
      return "pod " + uid + ": IsAssumedPod disagrees with the model";
    }
    // Each cached pod sits on exactly the NodeInfo of its node.
    std::optional<NodeInfoView> info = c.GetNodeInfo(got->node_name);
    if (!info.has_value() ||
        std::count_if(info->pods.begin(), info->pods.end(),
                      [&](const api::Pod& p) { return p.uid == uid; }) != 1) {
      return "pod " + uid + " is not on NodeInfo " + got->node_name +
             " exactly once";
    }
  }
  return std::nullopt;
}

}  // namespace schedref::testing::models
