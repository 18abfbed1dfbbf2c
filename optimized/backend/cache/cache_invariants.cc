#include "optimized/backend/cache/cache_invariants.h"

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace schedref::optimized::backend::cache {
namespace {

std::string Join(const std::vector<std::string>& items) {
  std::string out = "[";
  for (const std::string& item : items) {
    if (out.size() > 1) out += " ";
    out += item;
  }
  return out + "]";
}

std::vector<std::string> Uids(const std::vector<framework::PodInfoPtr>& pods) {
  std::vector<std::string> out;
  for (const framework::PodInfoPtr& p : pods) out.push_back(p->uid());
  return out;
}

std::vector<std::string> Sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

std::vector<std::string> Names(const std::vector<framework::NodeInfo*>& list) {
  std::vector<std::string> out;
  for (const framework::NodeInfo* info : list) out.push_back(info->Name());
  return out;
}

std::string ShowResource(const framework::Resource& r) {
  std::string out = "{cpu " + std::to_string(r.milli_cpu) + "m, memory " +
                    std::to_string(r.memory) + ", ephemeral " +
                    std::to_string(r.ephemeral_storage) + ", pods " +
                    std::to_string(r.allowed_pod_number);
  for (const auto& [name, amount] : r.scalar) {
    out += ", " + name + " " + std::to_string(amount);
  }
  return out + "}";
}

// The probed host ports that conflict, as strings.
std::vector<std::string> UsedPorts(const framework::NodeInfo& info,
                                   const Probes& probes) {
  std::vector<std::string> out;
  for (int32_t port : probes.host_ports) {
    if (info.used_ports().CheckConflict("", "TCP", port)) {
      out.push_back(std::to_string(port));
    }
  }
  return out;
}

template <typename T>
std::optional<std::string> Differs(const std::string& what, const T& got,
                                   const T& want, const std::string& shown_got,
                                   const std::string& shown_want) {
  if (got == want) return std::nullopt;
  return what + " is " + shown_got + ", recomputed: " + shown_want;
}

std::optional<std::string> Differs(const std::string& what,
                                   const std::vector<std::string>& got,
                                   const std::vector<std::string>& want) {
  return Differs(what, got, want, Join(got), Join(want));
}

std::optional<std::string> Differs(const std::string& what,
                                   const framework::Resource& got,
                                   const framework::Resource& want) {
  return Differs(what, got, want, ShowResource(got), ShowResource(want));
}

std::optional<std::string> Differs(const std::string& what, int64_t got,
                                   int64_t want) {
  return Differs(what, got, want, std::to_string(got), std::to_string(want));
}

}  // namespace

std::optional<std::string> AggregatesMismatch(const framework::NodeInfo& info,
                                              const Probes& probes) {
  const auto owned = std::make_unique<framework::NodeInfo>();
  framework::NodeInfo& rebuilt = *owned;
  if (info.node() != nullptr) {
    rebuilt.SetNode(std::make_shared<const api::Node>(*info.node()));
  }
  for (const framework::PodInfoPtr& p : info.pods()) rebuilt.AddPod(p);
  const std::string node =
      "NodeInfo " + (info.node() != nullptr ? info.Name() : std::string("<ghost>")) +
      Join(Uids(info.pods())) + ": ";
  if (auto e = Differs(node + "requested", info.requested(), rebuilt.requested())) {
    return e;
  }
  if (auto e = Differs(node + "non-zero milli-CPU", info.non_zero_milli_cpu(),
                       rebuilt.non_zero_milli_cpu())) {
    return e;
  }
  if (auto e = Differs(node + "non-zero memory", info.non_zero_memory(),
                       rebuilt.non_zero_memory())) {
    return e;
  }
  // The first cache line duplicates what the fast paths read.
  const framework::NodeInfo::Hot& hot = info.hot();
  const std::pair<const char*, std::pair<int64_t, int64_t>> hot_fields[] = {
      {"hot requested milli-CPU", {hot.requested_milli_cpu, info.requested().milli_cpu}},
      {"hot requested memory", {hot.requested_memory, info.requested().memory}},
      {"hot allocatable milli-CPU", {hot.allocatable_milli_cpu, info.allocatable().milli_cpu}},
      {"hot allocatable memory", {hot.allocatable_memory, info.allocatable().memory}},
      {"hot allowed pods", {hot.allowed_pod_number, info.allocatable().allowed_pod_number}},
      {"hot non-zero milli-CPU", {hot.non_zero_milli_cpu, rebuilt.non_zero_milli_cpu()}},
      {"hot non-zero memory", {hot.non_zero_memory, rebuilt.non_zero_memory()}},
      {"hot pod count", {hot.num_pods, static_cast<int64_t>(info.pods().size())}},
      {"hot flags", {hot.flags, rebuilt.hot().flags}},
  };
  for (const auto& [what, values] : hot_fields) {
    if (auto e = Differs(node + what, values.first, values.second)) return e;
  }
  // A ghost keeps its last allocatable (NodeInfo::RemoveNode, as upstream);
  // ghosts are never in a snapshot and SetNode recomputes it.
  if (info.node() != nullptr) {
    if (auto e = Differs(node + "allocatable", info.allocatable(),
                         rebuilt.allocatable())) {
      return e;
    }
  }
  // Upstream's RemovePod may have dropped a port another pod declares
  // (HostPortInfo), so only ports the pods declare may be used.
  for (const std::string& port : UsedPorts(info, probes)) {
    const std::vector<std::string> declared = UsedPorts(rebuilt, probes);
    if (std::find(declared.begin(), declared.end(), port) == declared.end()) {
      return node + "used host port " + port + " that no pod declares";
    }
  }
  if (auto e = Differs(node + "pods with affinity",
                       Sorted(Uids(info.pods_with_affinity())),
                       Sorted(Uids(rebuilt.pods_with_affinity())))) {
    return e;
  }
  return Differs(node + "pods with required anti-affinity",
                 Sorted(Uids(info.pods_with_required_anti_affinity())),
                 Sorted(Uids(rebuilt.pods_with_required_anti_affinity())));
}

std::optional<std::string> SnapshotMismatch(const framework::Snapshot& got,
                                            const framework::Snapshot& want,
                                            const Probes& probes) {
  const std::vector<std::string> names = Names(want.List());
  if (auto e = Differs("snapshot node list", Names(got.List()), names)) return e;
  const bool unique =
      std::set<std::string>(names.begin(), names.end()).size() == names.size();
  for (size_t i = 0; i < want.List().size(); ++i) {
    const framework::NodeInfo& g = *got.List()[i];
    const framework::NodeInfo& w = *want.List()[i];
    const std::string node = "snapshot node " + w.Name() + ": ";
    // A node listed twice (an UpdateNode whose old object names another zone
    // than the tree holds; the scheduler never sends one) is one NodeInfo at
    // both places, as upstream's list is.
    if (auto e = Differs(node + "index", g.index, w.index)) return e;
    if (unique) {
      if (auto e = Differs(node + "index", g.index, static_cast<int64_t>(i))) {
        return e;
      }
    }
    if (!(*g.node() == *w.node())) return node + "a stale node object";
    if (g.pods() != w.pods()) {  // the same PodInfos, in the same order
      return node + "pods " + Join(Uids(g.pods())) + ", from scratch: " +
             Join(Uids(w.pods()));
    }
    if (g.pods_with_affinity() != w.pods_with_affinity() ||
        g.pods_with_required_anti_affinity() !=
            w.pods_with_required_anti_affinity()) {
      return node + "the pods with (anti-)affinity differ";
    }
    if (auto e = Differs(node + "requested", g.requested(), w.requested())) return e;
    if (auto e = Differs(node + "non-zero milli-CPU", g.non_zero_milli_cpu(),
                         w.non_zero_milli_cpu())) {
      return e;
    }
    if (auto e = Differs(node + "non-zero memory", g.non_zero_memory(),
                         w.non_zero_memory())) {
      return e;
    }
    if (auto e = Differs(node + "allocatable", g.allocatable(), w.allocatable())) {
      return e;
    }
    if (auto e = Differs(node + "used host ports", UsedPorts(g, probes),
                         UsedPorts(w, probes))) {
      return e;
    }
  }
  if (auto e = Differs("nodes with pods with affinity",
                       Names(got.HavePodsWithAffinityList()),
                       Names(want.HavePodsWithAffinityList()))) {
    return e;
  }
  if (auto e = Differs("nodes with pods with required anti-affinity",
                       Names(got.HavePodsWithRequiredAntiAffinityList()),
                       Names(want.HavePodsWithRequiredAntiAffinityList()))) {
    return e;
  }
  for (const std::string& image : probes.images) {
    if (auto e = Differs("nodes with image " + image, got.NumNodesWithImage(image),
                         want.NumNodesWithImage(image))) {
      return e;
    }
  }
  for (const std::string& name : probes.node_names) {
    if ((got.Get(name) == nullptr) != (want.Get(name) == nullptr)) {
      return "snapshot lookup of " + name + " disagrees with its node list";
    }
  }
  return std::nullopt;
}

std::vector<std::string> SnapshotNodesNow(const Cache& cache) {
  std::vector<std::string> out;
  for (const std::string& name : cache.NodeTreeOrder()) {
    const framework::NodeInfo* info = cache.GetNodeInfo(name);
    if (info != nullptr && info->node() != nullptr) out.push_back(name);
  }
  return out;
}

std::unique_ptr<framework::Snapshot> SnapshotFromScratch(
    const Cache& cache, const std::vector<std::string>& order) {
  auto s = std::make_unique<framework::Snapshot>();
  for (const std::string& name : order) s->Mutable(name) = *cache.GetNodeInfo(name);
  s->Rebuild(order, /*nodes_changed=*/true);
  return s;
}

}  // namespace schedref::optimized::backend::cache
