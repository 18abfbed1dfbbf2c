#include "testing/st/wrappers.h"

#include <cstdio>
#include <cstdlib>
#include <utility>

#include "api/types/quantity.h"

namespace schedref::st {

api::ResourceList ParseResourceList(const ResourceStrings& resources) {
  api::ResourceList out;
  for (const auto& [name, text] : resources) {
    StatusOr<api::Quantity> q = api::Quantity::Parse(text);
    if (!q.ok()) {
      std::fprintf(stderr, "st::ParseResourceList: resource %s: %s\n",
                   name.c_str(), q.status().message().c_str());
      std::abort();
    }
    out[name] = name == api::kResourceCpu ? q->MilliValue() : q->Value();
  }
  return out;
}

// --- NodeSelectorWrapper -----------------------------------------------------

api::NodeSelectorTerm& NodeSelectorWrapper::Current() {
  if (selector_.terms.empty()) selector_.terms.emplace_back();
  return selector_.terms.back();
}

NodeSelectorWrapper& NodeSelectorWrapper::In(const std::string& key,
                                             std::vector<std::string> values) {
  Current().match_expressions.push_back({key, "In", std::move(values)});
  return *this;
}
NodeSelectorWrapper& NodeSelectorWrapper::NotIn(
    const std::string& key, std::vector<std::string> values) {
  Current().match_expressions.push_back({key, "NotIn", std::move(values)});
  return *this;
}
NodeSelectorWrapper& NodeSelectorWrapper::Exists(const std::string& key) {
  Current().match_expressions.push_back({key, "Exists", {}});
  return *this;
}
NodeSelectorWrapper& NodeSelectorWrapper::DoesNotExist(
    const std::string& key) {
  Current().match_expressions.push_back({key, "DoesNotExist", {}});
  return *this;
}
NodeSelectorWrapper& NodeSelectorWrapper::Gt(const std::string& key,
                                             const std::string& value) {
  Current().match_expressions.push_back({key, "Gt", {value}});
  return *this;
}
NodeSelectorWrapper& NodeSelectorWrapper::Lt(const std::string& key,
                                             const std::string& value) {
  Current().match_expressions.push_back({key, "Lt", {value}});
  return *this;
}
NodeSelectorWrapper& NodeSelectorWrapper::NameIn(
    std::vector<std::string> names) {
  Current().match_fields.push_back({"metadata.name", "In", std::move(names)});
  return *this;
}
NodeSelectorWrapper& NodeSelectorWrapper::NewTerm() {
  selector_.terms.emplace_back();
  return *this;
}
api::NodeSelector NodeSelectorWrapper::Obj() const { return selector_; }

NodeSelectorWrapper MakeNodeSelector() { return NodeSelectorWrapper(); }

// --- PodWrapper ----------------------------------------------------------------

PodWrapper MakePod() { return PodWrapper(); }

api::Pod PodWrapper::Obj() const {
  api::Pod pod = pod_;
  if (pod.ns.empty()) pod.ns = "default";
  if (pod.scheduler_name.empty()) pod.scheduler_name = "default-scheduler";
  if (!uid_set_) pod.uid = pod.ns + "/" + pod.name;
  return pod;
}

PodWrapper& PodWrapper::Namespace(std::string ns) {
  pod_.ns = std::move(ns);
  return *this;
}
PodWrapper& PodWrapper::Name(std::string name) {
  pod_.name = std::move(name);
  return *this;
}
PodWrapper& PodWrapper::UID(std::string uid) {
  pod_.uid = std::move(uid);
  uid_set_ = true;
  return *this;
}
PodWrapper& PodWrapper::Label(const std::string& key,
                              const std::string& value) {
  pod_.labels[key] = value;
  return *this;
}
PodWrapper& PodWrapper::Labels(const api::Labels& labels) {
  for (const auto& [k, v] : labels) pod_.labels[k] = v;
  return *this;
}
PodWrapper& PodWrapper::CreationTimestamp(api::TimeMs t) {
  pod_.creation_timestamp = t;
  return *this;
}
PodWrapper& PodWrapper::Terminating(api::TimeMs t) {
  pod_.deletion_timestamp = t;
  return *this;
}
PodWrapper& PodWrapper::Priority(int32_t priority) {
  pod_.priority = priority;
  return *this;
}
PodWrapper& PodWrapper::PriorityClassName(std::string name) {
  pod_.priority_class_name = std::move(name);
  return *this;
}
PodWrapper& PodWrapper::PreemptionPolicy(std::string policy) {
  pod_.preemption_policy = std::move(policy);
  return *this;
}
PodWrapper& PodWrapper::SchedulerName(std::string name) {
  pod_.scheduler_name = std::move(name);
  return *this;
}
PodWrapper& PodWrapper::NodeName(std::string node) {
  pod_.node_name = std::move(node);
  return *this;
}
PodWrapper& PodWrapper::SchedulingGates(std::vector<std::string> gates) {
  pod_.scheduling_gates = std::move(gates);
  return *this;
}

std::string PodWrapper::NextContainerName() const {
  return "con" + std::to_string(pod_.containers.size());
}
std::string PodWrapper::NextInitContainerName() const {
  return "init-con" + std::to_string(pod_.init_containers.size());
}

PodWrapper& PodWrapper::Req(const ResourceStrings& requests) {
  api::Container c;
  c.name = NextContainerName();
  c.requests = ParseResourceList(requests);
  pod_.containers.push_back(std::move(c));
  return *this;
}
PodWrapper& PodWrapper::ReqLim(const ResourceStrings& requests,
                               const ResourceStrings& limits) {
  api::Container c;
  c.name = NextContainerName();
  c.requests = ParseResourceList(requests);
  c.limits = ParseResourceList(limits);
  pod_.containers.push_back(std::move(c));
  return *this;
}
PodWrapper& PodWrapper::InitReq(const ResourceStrings& requests) {
  api::Container c;
  c.name = NextInitContainerName();
  c.requests = ParseResourceList(requests);
  pod_.init_containers.push_back(std::move(c));
  return *this;
}
PodWrapper& PodWrapper::SidecarReq(const ResourceStrings& requests) {
  api::Container c;
  c.name = NextInitContainerName();
  c.requests = ParseResourceList(requests);
  c.restart_policy = "Always";
  pod_.init_containers.push_back(std::move(c));
  return *this;
}
PodWrapper& PodWrapper::Overhead(const ResourceStrings& overhead) {
  pod_.overhead = ParseResourceList(overhead);
  return *this;
}
PodWrapper& PodWrapper::Container(const std::string& image) {
  api::Container c;
  c.name = NextContainerName();
  c.image = image;
  pod_.containers.push_back(std::move(c));
  return *this;
}
PodWrapper& PodWrapper::InitContainerImage(const std::string& image) {
  api::Container c;
  c.name = NextInitContainerName();
  c.image = image;
  pod_.init_containers.push_back(std::move(c));
  return *this;
}
PodWrapper& PodWrapper::Container(api::Container container) {
  pod_.containers.push_back(std::move(container));
  return *this;
}
PodWrapper& PodWrapper::InitContainer(api::Container container) {
  pod_.init_containers.push_back(std::move(container));
  return *this;
}
PodWrapper& PodWrapper::Image(const std::string& image) {
  if (pod_.containers.empty()) return Container(image);
  pod_.containers.front().image = image;
  return *this;
}
PodWrapper& PodWrapper::HostPort(int32_t port) {
  api::Container c;
  c.name = NextContainerName();
  c.ports.push_back({port, port, "TCP", ""});
  pod_.containers.push_back(std::move(c));
  return *this;
}
PodWrapper& PodWrapper::ContainerPort(std::vector<api::ContainerPort> ports) {
  api::Container c;
  c.name = NextContainerName();
  c.ports = std::move(ports);
  pod_.containers.push_back(std::move(c));
  return *this;
}

PodWrapper& PodWrapper::NodeSelector(const api::Labels& selector) {
  pod_.node_selector = selector;
  return *this;
}

api::NodeAffinity& PodWrapper::MutableNodeAffinity() {
  if (!pod_.affinity) pod_.affinity.emplace();
  if (!pod_.affinity->node_affinity) pod_.affinity->node_affinity.emplace();
  return *pod_.affinity->node_affinity;
}
api::PodAffinity& PodWrapper::MutablePodAffinity() {
  if (!pod_.affinity) pod_.affinity.emplace();
  if (!pod_.affinity->pod_affinity) pod_.affinity->pod_affinity.emplace();
  return *pod_.affinity->pod_affinity;
}
api::PodAffinity& PodWrapper::MutablePodAntiAffinity() {
  if (!pod_.affinity) pod_.affinity.emplace();
  if (!pod_.affinity->pod_anti_affinity) {
    pod_.affinity->pod_anti_affinity.emplace();
  }
  return *pod_.affinity->pod_anti_affinity;
}

namespace {

void AddToRequiredTerms(api::NodeAffinity& na, api::NodeSelectorRequirement req,
                        NodeSelectorType type) {
  if (!na.required) na.required.emplace();
  if (na.required->terms.empty()) na.required->terms.emplace_back();
  for (api::NodeSelectorTerm& term : na.required->terms) {
    if (type == NodeSelectorType::kMatchFields) {
      term.match_fields.push_back(req);
    } else {
      term.match_expressions.push_back(req);
    }
  }
}

api::PodAffinityTerm ExistsTerm(const std::string& label_key,
                                const std::string& topology_key) {
  api::PodAffinityTerm term;
  term.label_selector = api::LabelSelector{{}, {{label_key, "Exists", {}}}};
  term.topology_key = topology_key;
  return term;
}

}  // namespace

PodWrapper& PodWrapper::NodeAffinityIn(const std::string& key,
                                       std::vector<std::string> values,
                                       NodeSelectorType type) {
  AddToRequiredTerms(MutableNodeAffinity(), {key, "In", std::move(values)},
                     type);
  return *this;
}
PodWrapper& PodWrapper::NodeAffinityNotIn(const std::string& key,
                                          std::vector<std::string> values,
                                          NodeSelectorType type) {
  AddToRequiredTerms(MutableNodeAffinity(), {key, "NotIn", std::move(values)},
                     type);
  return *this;
}
PodWrapper& PodWrapper::RequiredNodeAffinity(api::NodeSelector selector) {
  MutableNodeAffinity().required = std::move(selector);
  return *this;
}
PodWrapper& PodWrapper::PreferredNodeAffinity(
    int32_t weight, api::NodeSelectorTerm preference) {
  MutableNodeAffinity().preferred.push_back({weight, std::move(preference)});
  return *this;
}

PodWrapper& PodWrapper::Toleration(const std::string& key) {
  pod_.tolerations.push_back({key, "Exists", "", "NoSchedule", std::nullopt});
  return *this;
}
PodWrapper& PodWrapper::Toleration(api::Toleration toleration) {
  pod_.tolerations.push_back(std::move(toleration));
  return *this;
}
PodWrapper& PodWrapper::Tolerations(std::vector<api::Toleration> tolerations) {
  pod_.tolerations = std::move(tolerations);
  return *this;
}

PodWrapper& PodWrapper::PodAffinityExists(const std::string& label_key,
                                          const std::string& topology_key) {
  MutablePodAffinity().required.push_back(ExistsTerm(label_key, topology_key));
  return *this;
}
PodWrapper& PodWrapper::PodAntiAffinityExists(const std::string& label_key,
                                              const std::string& topology_key) {
  MutablePodAntiAffinity().required.push_back(
      ExistsTerm(label_key, topology_key));
  return *this;
}
PodWrapper& PodWrapper::PreferredPodAffinityExists(
    int32_t weight, const std::string& label_key,
    const std::string& topology_key) {
  MutablePodAffinity().preferred.push_back(
      {weight, ExistsTerm(label_key, topology_key)});
  return *this;
}
PodWrapper& PodWrapper::PreferredPodAntiAffinityExists(
    int32_t weight, const std::string& label_key,
    const std::string& topology_key) {
  MutablePodAntiAffinity().preferred.push_back(
      {weight, ExistsTerm(label_key, topology_key)});
  return *this;
}
PodWrapper& PodWrapper::PodAffinityTerm(api::PodAffinityTerm term) {
  MutablePodAffinity().required.push_back(std::move(term));
  return *this;
}
PodWrapper& PodWrapper::PodAntiAffinityTerm(api::PodAffinityTerm term) {
  MutablePodAntiAffinity().required.push_back(std::move(term));
  return *this;
}
PodWrapper& PodWrapper::SpreadConstraint(
    api::TopologySpreadConstraint constraint) {
  pod_.topology_spread_constraints.push_back(std::move(constraint));
  return *this;
}
PodWrapper& PodWrapper::Volume(api::Volume volume) {
  pod_.volumes.push_back(std::move(volume));
  return *this;
}
PodWrapper& PodWrapper::NominatedNodeName(std::string node) {
  pod_.nominated_node_name = std::move(node);
  return *this;
}
PodWrapper& PodWrapper::StartTime(api::TimeMs t) {
  pod_.start_time = t;
  return *this;
}
PodWrapper& PodWrapper::Condition(std::string type, std::string status,
                                  std::string reason) {
  pod_.conditions.push_back({std::move(type), std::move(status), std::move(reason)});
  return *this;
}

// --- NodeWrapper ---------------------------------------------------------------

NodeWrapper MakeNode() { return NodeWrapper(); }

NodeWrapper& NodeWrapper::Name(std::string name) {
  node_.name = std::move(name);
  return *this;
}
NodeWrapper& NodeWrapper::UID(std::string uid) {
  node_.uid = std::move(uid);
  return *this;
}
NodeWrapper& NodeWrapper::Label(const std::string& key,
                                const std::string& value) {
  node_.labels[key] = value;
  return *this;
}
NodeWrapper& NodeWrapper::Labels(const api::Labels& labels) {
  for (const auto& [k, v] : labels) node_.labels[k] = v;
  return *this;
}
NodeWrapper& NodeWrapper::Capacity(const ResourceStrings& capacity) {
  ResourceStrings with_pods = capacity;
  with_pods.emplace(api::kResourcePods, "32");  // kept if already named
  node_.capacity = ParseResourceList(with_pods);
  node_.allocatable = node_.capacity;
  return *this;
}
NodeWrapper& NodeWrapper::Allocatable(const ResourceStrings& allocatable) {
  node_.allocatable = ParseResourceList(allocatable);
  return *this;
}
NodeWrapper& NodeWrapper::Taints(std::vector<api::Taint> taints) {
  node_.taints = std::move(taints);
  return *this;
}
NodeWrapper& NodeWrapper::Taint(api::Taint taint) {
  node_.taints.push_back(std::move(taint));
  return *this;
}
NodeWrapper& NodeWrapper::Unschedulable(bool unschedulable) {
  node_.unschedulable = unschedulable;
  return *this;
}
NodeWrapper& NodeWrapper::Images(const std::map<std::string, int64_t>& images) {
  for (const auto& [name, size] : images) {
    node_.images.push_back({{name}, size});
  }
  return *this;
}
NodeWrapper& NodeWrapper::Image(api::ContainerImage image) {
  node_.images.push_back(std::move(image));
  return *this;
}

}  // namespace schedref::st
