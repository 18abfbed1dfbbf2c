#include "cmd/schedref/bare_loop.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "api/resource.h"

namespace schedref::cmd {
namespace {

int64_t Get(const api::ResourceList& list, const char* name, int64_t missing) {
  auto it = list.find(name);
  return it == list.end() ? missing : it->second;
}

// LeastAllocated for one resource: the free share after the pod, 0..100.
int64_t Least(int64_t requested, int64_t allocatable) {
  if (allocatable == 0 || requested > allocatable) return 0;
  return (allocatable - requested) * 100 / allocatable;
}

double Fraction(int64_t requested, int64_t allocatable) {
  if (allocatable == 0) return 1;
  return std::min(1.0, static_cast<double>(requested) / static_cast<double>(allocatable));
}

}  // namespace

int64_t BareLoopNodesToFind(int64_t num_nodes) {
  constexpr int64_t kMinFeasibleNodesToFind = 100;
  constexpr int64_t kMinFeasibleNodesPercentageToFind = 5;
  if (num_nodes < kMinFeasibleNodesToFind) return num_nodes;
  const int64_t percentage =
      std::max(kMinFeasibleNodesPercentageToFind, int64_t{50} - num_nodes / 125);
  return std::max(kMinFeasibleNodesToFind, num_nodes * percentage / 100);
}

BareLoopResult RunBareLoop(const std::vector<api::Node>& nodes,
                           const std::vector<const api::Pod*>& pods, size_t untimed) {
  // The nodes as parallel arrays: what the loop reads and writes.
  const size_t n = nodes.size();
  std::vector<int64_t> alloc_cpu(n), alloc_mem(n), alloc_pods(n);
  std::vector<int64_t> req_cpu(n, 0), req_mem(n, 0), num_pods(n, 0);
  for (size_t i = 0; i < n; ++i) {
    alloc_cpu[i] = Get(nodes[i].allocatable, api::kResourceCpu, 0);
    alloc_mem[i] = Get(nodes[i].allocatable, api::kResourceMemory, 0);
    alloc_pods[i] = Get(nodes[i].allocatable, api::kResourcePods, 0);
  }
  // Each pod's cpu and memory request (spec order is irrelevant here).
  std::vector<int64_t> pod_cpu(pods.size()), pod_mem(pods.size());
  for (size_t p = 0; p < pods.size(); ++p) {
    const api::ResourceList requests = api::PodRequestList(*pods[p]);
    pod_cpu[p] = Get(requests, api::kResourceCpu, 0);
    pod_mem[p] = Get(requests, api::kResourceMemory, 0);
  }

  BareLoopResult result;
  result.chosen.assign(pods.size(), -1);
  const int64_t to_find = BareLoopNodesToFind(static_cast<int64_t>(n));
  std::vector<int32_t> feasible(static_cast<size_t>(to_find));
  size_t start = 0;
  auto place = [&](size_t p) {
    const int64_t cpu = pod_cpu[p], mem = pod_mem[p];
    size_t found = 0, checked = 0;
    while (found < static_cast<size_t>(to_find) && checked < n) {
      const size_t i = start + checked < n ? start + checked : start + checked - n;
      ++checked;
      const bool fits = req_cpu[i] + cpu <= alloc_cpu[i] && req_mem[i] + mem <= alloc_mem[i] &&
                        num_pods[i] + 1 <= alloc_pods[i];
      feasible[found] = static_cast<int32_t>(i);
      found += fits ? 1 : 0;
    }
    start = n == 0 ? 0 : (start + checked) % n;
    int64_t best = -1;
    int32_t chosen = -1;
    for (size_t k = 0; k < found; ++k) {
      const int32_t i = feasible[k];
      const int64_t c = req_cpu[i] + cpu, m = req_mem[i] + mem;
      const int64_t least = (Least(c, alloc_cpu[i]) + Least(m, alloc_mem[i])) / 2;
      const double spread = std::abs(Fraction(c, alloc_cpu[i]) - Fraction(m, alloc_mem[i])) / 2;
      const auto balanced = static_cast<int64_t>((1 - spread) * 100);
      const int64_t total = least + balanced;
      if (total > best) {
        best = total;
        chosen = i;
      }
    }
    result.chosen[p] = chosen;
    if (chosen < 0) return;
    req_cpu[chosen] += cpu;
    req_mem[chosen] += mem;
    ++num_pods[chosen];
  };
  for (size_t p = 0; p < untimed; ++p) place(p);
  const auto t0 = std::chrono::steady_clock::now();
  for (size_t p = untimed; p < pods.size(); ++p) place(p);
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return result;
}

}  // namespace schedref::cmd
