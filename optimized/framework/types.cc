#include "optimized/framework/types.h"

#include <algorithm>
#include <utility>

#include "api/types/resource.h"

namespace schedref::optimized::framework {
namespace {

std::optional<api::LabelSelector> EffectiveSelector(const api::Pod& owner,
                                                    const api::PodAffinityTerm& term) {
  std::optional<api::LabelSelector> selector = term.label_selector;
  if (!selector) return selector;
  // matchLabelKeys / mismatchLabelKeys (v1.32 beta, on by default): the
  // owner's value for each key becomes an In / NotIn requirement.
  for (const std::string& key : term.match_label_keys) {
    auto it = owner.labels.find(key);
    if (it != owner.labels.end()) {
      selector->match_expressions.push_back({key, "In", {it->second}});
    }
  }
  for (const std::string& key : term.mismatch_label_keys) {
    auto it = owner.labels.find(key);
    if (it != owner.labels.end()) {
      selector->match_expressions.push_back({key, "NotIn", {it->second}});
    }
  }
  return selector;
}

void AppendTerms(const api::Pod& pod, const std::optional<api::PodAffinity>& a,
                 std::vector<AffinityTerm>* required,
                 std::vector<WeightedAffinityTerm>* preferred) {
  if (!a) return;
  for (const api::PodAffinityTerm& t : a->required) {
    required->push_back(MakeAffinityTerm(pod, t));
  }
  for (const api::WeightedPodAffinityTerm& t : a->preferred) {
    preferred->push_back({MakeAffinityTerm(pod, t.term), t.weight});
  }
}

std::string OrDefault(const std::string& v, const char* def) {
  return v.empty() ? std::string(def) : v;
}

}  // namespace

AffinityTerm MakeAffinityTerm(const api::Pod& pod, const api::PodAffinityTerm& term) {
  AffinityTerm out;
  out.selector = EffectiveSelector(pod, term);
  out.namespace_selector = term.namespace_selector;
  out.topology_key = term.topology_key;
  if (term.namespaces.empty() && !term.namespace_selector) {
    out.namespaces.insert(pod.ns);
  } else {
    out.namespaces.insert(term.namespaces.begin(), term.namespaces.end());
  }
  return out;
}

namespace {

// The members derived from info->pod.
void DerivePodInfo(PodInfo* info) {
  const api::Pod& pod = info->pod;
  info->key = pod.Key();
  info->priority = pod.priority.value_or(0);
  if (pod.init_containers.empty()) {
    // api::PodRequestList without init containers is the containers' sum
    // plus the overhead; the non-zero variant counts a container's missing
    // cpu or memory request (missing, not zero) as the default. Resource's
    // AddList adds each entry, so adding the lists one by one gives the sum's
    // result without building it.
    auto request_or = [](const api::ResourceList& list, const char* name, int64_t missing) {
      auto it = list.find(name);
      return it == list.end() ? missing : it->second;
    };
    for (const api::Container& c : pod.containers) {
      info->requests.AddList(c.requests);
      info->non_zero_milli_cpu +=
          request_or(c.requests, api::kResourceCpu, api::kDefaultMilliCpuRequest);
      info->non_zero_memory +=
          request_or(c.requests, api::kResourceMemory, api::kDefaultMemoryRequest);
    }
    info->requests.AddList(pod.overhead);
    info->non_zero_milli_cpu += request_or(pod.overhead, api::kResourceCpu, 0);
    info->non_zero_memory += request_or(pod.overhead, api::kResourceMemory, 0);
  } else {
    info->requests.AddList(api::PodRequestList(pod));
    api::PodResourcesOptions non_zero;
    non_zero.non_missing_container_requests = {
        {api::kResourceCpu, api::kDefaultMilliCpuRequest},
        {api::kResourceMemory, api::kDefaultMemoryRequest}};
    api::ResourceList nz = api::PodRequestList(pod, non_zero);
    info->non_zero_milli_cpu = nz[api::kResourceCpu];
    info->non_zero_memory = nz[api::kResourceMemory];
  }
  for (const api::Container& c : pod.containers) {
    for (const api::ContainerPort& p : c.ports) {
      if (p.host_port > 0) info->host_ports.push_back(p);
    }
  }
  if (pod.affinity) {
    AppendTerms(pod, pod.affinity->pod_affinity, &info->required_affinity_terms,
                &info->preferred_affinity_terms);
    AppendTerms(pod, pod.affinity->pod_anti_affinity,
                &info->required_anti_affinity_terms,
                &info->preferred_anti_affinity_terms);
  }
}

}  // namespace

PodInfoPtr NewPodInfo(const api::Pod& pod) { return NewPodInfo(api::Pod(pod)); }

PodInfoPtr NewPodInfo(api::Pod&& pod) {
  auto info = std::make_shared<PodInfo>(std::move(pod));
  DerivePodInfo(info.get());
  return info;
}

PodInfoPtr BorrowingPodInfo(const api::Pod& pod) {
  auto info = std::make_shared<PodInfo>(&pod);
  DerivePodInfo(info.get());
  return info;
}

PodInfoPtr BoundPodInfo(const PodInfo& info, const std::string& node) {
  return std::make_shared<const PodInfo>(info, node);
}

const api::Pod& MaterializedPod(const PodInfo& info, std::optional<api::Pod>* scratch) {
  if (!info.binds_node()) return info.pod;
  scratch->emplace(info.pod);
  (*scratch)->node_name = info.node_name();
  return **scratch;
}

// --- HostPortInfo ---------------------------------------------------------

void HostPortInfo::Add(const std::string& ip, const std::string& protocol,
                       int32_t port) {
  if (port <= 0) return;
  Entry e{OrDefault(ip, "0.0.0.0"), OrDefault(protocol, "TCP"), port};
  for (const Entry& x : entries_) {
    if (x.port == e.port && x.protocol == e.protocol && x.ip == e.ip) return;
  }
  entries_.push_back(std::move(e));
}

void HostPortInfo::Remove(const std::string& ip, const std::string& protocol,
                          int32_t port) {
  if (port <= 0) return;
  const std::string i = OrDefault(ip, "0.0.0.0");
  const std::string p = OrDefault(protocol, "TCP");
  for (size_t k = 0; k < entries_.size(); ++k) {
    const Entry& x = entries_[k];
    if (x.port == port && x.protocol == p && x.ip == i) {
      entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(k));
      return;
    }
  }
}

bool HostPortInfo::CheckConflict(const std::string& ip, const std::string& protocol,
                                 int32_t port) const {
  if (port <= 0) return false;
  const std::string i = OrDefault(ip, "0.0.0.0");
  const std::string p = OrDefault(protocol, "TCP");
  for (const Entry& x : entries_) {
    if (x.port != port || x.protocol != p) continue;
    if (i == "0.0.0.0" || x.ip == i || x.ip == "0.0.0.0") return true;
  }
  return false;
}

// --- PodInfoList ----------------------------------------------------------

PodInfoList& PodInfoList::operator=(const PodInfoList& other) {
  if (this == &other) return *this;
  const size_t common = std::min(size(), other.size());
  for (size_t i = 0; i < common; ++i) {
    if ((*this)[i] != other[i]) (*this)[i] = other[i];
  }
  if (size() > common) {
    erase(begin() + static_cast<std::ptrdiff_t>(common), end());
  } else {
    insert(end(), other.begin() + static_cast<std::ptrdiff_t>(common), other.end());
  }
  return *this;
}

// --- NodeInfo -------------------------------------------------------------

void NodeInfo::SyncHot() {
  hot_.requested_milli_cpu = requested_.milli_cpu;
  hot_.requested_memory = requested_.memory;
  hot_.allocatable_milli_cpu = allocatable_.milli_cpu;
  hot_.allocatable_memory = allocatable_.memory;
  hot_.allowed_pod_number = allocatable_.allowed_pod_number;
  hot_.num_pods = static_cast<int32_t>(pods_.size());
}

void NodeInfo::SetNode(std::shared_ptr<const api::Node> node) {
  node_ = std::move(node);
  allocatable_ = Resource();
  hot_.flags = 0;
  if (node_) {
    name_ = node_->name;
    allocatable_.AddList(node_->allocatable);
    hot_.flags |= kHasNode;
    if (node_->unschedulable) hot_.flags |= kUnschedulable;
    for (const api::Taint& t : node_->taints) {
      if (t.effect == "NoSchedule" || t.effect == "NoExecute") hot_.flags |= kHardTaints;
      if (t.effect == "PreferNoSchedule") hot_.flags |= kPreferTaints;
    }
    if (!node_->images.empty()) hot_.flags |= kImages;
  }
  SyncHot();
  ++generation;
}

void NodeInfo::RemoveNode() {
  node_.reset();
  hot_.flags = 0;
}

void NodeInfo::AddPod(PodInfoPtr pod) {
  requested_.Add(pod->requests);
  hot_.non_zero_milli_cpu += pod->non_zero_milli_cpu;
  hot_.non_zero_memory += pod->non_zero_memory;
  for (const api::ContainerPort& p : pod->host_ports) {
    used_ports_.Add(p.host_ip, p.protocol, p.host_port);
  }
  // upstream podWithAffinity: a podAffinity or podAntiAffinity stanza, even
  // one without terms.
  const std::optional<api::Affinity>& a = pod->pod.affinity;
  if (a && (a->pod_affinity || a->pod_anti_affinity)) {
    pods_with_affinity_.push_back(pod);
  }
  if (!pod->required_anti_affinity_terms.empty()) {
    pods_with_required_anti_affinity_.push_back(pod);
  }
  max_pod_priority_ = std::max(max_pod_priority_, pod->priority);
  pods_.push_back(std::move(pod));
  SyncHot();
  ++generation;
}

namespace {
// Upstream's removal: the last element takes the removed one's slot.
bool SwapRemove(std::vector<PodInfoPtr>& v, const std::string& uid) {
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i]->uid() == uid) {
      v[i] = std::move(v.back());
      v.pop_back();
      return true;
    }
  }
  return false;
}
}  // namespace

void NodeInfo::MoveToBack(const PodInfo& pod) {
  // The object itself is looked for, not its UID (a node's pods have
  // distinct UIDs, so it is the one RemovePod would take), from the back:
  // the pod being confirmed is usually the node's latest.
  for (std::vector<PodInfoPtr>* list :
       {&pods_, &pods_with_affinity_, &pods_with_required_anti_affinity_}) {
    for (size_t i = list->size(); i-- > 0;) {
      if ((*list)[i].get() != &pod) continue;
      // Swap-remove then append: the last pod takes slot i, this one the end.
      std::swap((*list)[i], list->back());
      break;
    }
  }
  // Upstream's remove-then-add leaves the pod's ports used, even one an
  // earlier RemovePod dropped (HostPortInfo).
  for (const api::ContainerPort& p : pod.host_ports) {
    used_ports_.Add(p.host_ip, p.protocol, p.host_port);
  }
  ++generation;
}

bool NodeInfo::RemovePod(const std::string& uid) {
  PodInfoPtr removed;
  for (const PodInfoPtr& p : pods_) {
    if (p->uid() == uid) removed = p;
  }
  if (!removed) return false;
  SwapRemove(pods_with_affinity_, uid);
  SwapRemove(pods_with_required_anti_affinity_, uid);
  SwapRemove(pods_, uid);
  requested_.Sub(removed->requests);
  max_pod_priority_ = INT32_MIN;
  for (const PodInfoPtr& p : pods_) max_pod_priority_ = std::max(max_pod_priority_, p->priority);
  hot_.non_zero_milli_cpu -= removed->non_zero_milli_cpu;
  hot_.non_zero_memory -= removed->non_zero_memory;
  SyncHot();
  for (const api::ContainerPort& p : removed->host_ports) {
    used_ports_.Remove(p.host_ip, p.protocol, p.host_port);
  }
  ++generation;
  return true;
}

}  // namespace schedref::optimized::framework
