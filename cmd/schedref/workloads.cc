#include "cmd/schedref/workloads.h"

namespace schedref::cmd {
namespace {

// templates/node-default.yaml: pods 110, cpu 4, memory 32Gi (capacity only;
// allocatable follows capacity).
api::Node DefaultNode(int i) {
  api::Node node;
  node.name = "scheduler-perf-" + std::to_string(i);
  node.uid = node.name;
  node.labels["kubernetes.io/hostname"] = node.name;
  node.capacity = {{api::kResourcePods, 110},
                   {api::kResourceCpu, 4000},
                   {api::kResourceMemory, 32LL << 30}};
  node.allocatable = node.capacity;
  return node;
}

// templates/pod-default.yaml: one pause container requesting 100m / 500Mi.
api::Pod DefaultPod(int i, api::TimeMs created) {
  api::Pod pod;
  pod.ns = "default";
  pod.name = "pod-" + std::to_string(i);
  pod.uid = pod.ns + "/" + pod.name;
  pod.scheduler_name = "default-scheduler";
  pod.creation_timestamp = created;
  api::Container c;
  c.name = "pause";
  c.image = "registry.k8s.io/pause:3.10";
  c.requests = {{api::kResourceCpu, 100}, {api::kResourceMemory, 500LL << 20}};
  c.limits = c.requests;
  c.ports.push_back(api::ContainerPort{80, 0, "TCP", ""});
  pod.containers.push_back(c);
  return pod;
}

}  // namespace

std::vector<std::string> WorkloadNames() { return {"SchedulingBasic"}; }

StatusOr<api::Scenario> MakeWorkload(const std::string& name, int nodes,
                                     int init_pods, int measured_pods) {
  if (name != "SchedulingBasic") {
    return Status::Invalid("unknown workload \"" + name + "\"");
  }
  api::Scenario s;
  s.name = name;
  s.file = "<generated " + name + ">";
  s.config.profiles.push_back(api::Profile{});
  for (int i = 0; i < nodes; ++i) s.initial.nodes.push_back(DefaultNode(i));
  for (int i = 0; i < init_pods + measured_pods; ++i) {
    api::Event e;
    e.at = 0;
    e.op = api::Event::Op::kCreate;
    e.object = DefaultPod(i, 0);
    s.timeline.push_back(std::move(e));
  }
  return s;
}

}  // namespace schedref::cmd
