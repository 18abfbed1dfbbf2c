#include "cmd/schedref/bare_loop.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "api/types/resource.h"

namespace schedref::cmd {
namespace {

int64_t Get(const api::ResourceList& list, const char* name, int64_t missing) {
  auto it = list.find(name);
  return it == list.end() ? missing : it->second;
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
  // One cache line per node with everything the loop reads and writes;
  // 1 / allocatable, so that scoring multiplies instead of dividing.
  struct alignas(64) Slot {
    int64_t req_cpu = 0, alloc_cpu = 0, req_mem = 0, alloc_mem = 0;
    int64_t num_pods = 0, alloc_pods = 0;
    double inv_cpu = 0, inv_mem = 0;
  };
  const size_t n = nodes.size();
  std::vector<Slot> slots(n);
  for (size_t i = 0; i < n; ++i) {
    Slot& s = slots[i];
    s.alloc_cpu = Get(nodes[i].allocatable, api::kResourceCpu, 0);
    s.alloc_mem = Get(nodes[i].allocatable, api::kResourceMemory, 0);
    s.alloc_pods = Get(nodes[i].allocatable, api::kResourcePods, 0);
    s.inv_cpu = s.alloc_cpu > 0 ? 1.0 / static_cast<double>(s.alloc_cpu) : 0;
    s.inv_mem = s.alloc_mem > 0 ? 1.0 / static_cast<double>(s.alloc_mem) : 0;
  }
  // Each pod's cpu and memory request.
  std::vector<int64_t> pod_cpu(pods.size()), pod_mem(pods.size());
  for (size_t p = 0; p < pods.size(); ++p) {
    const api::ResourceList requests = api::PodRequestList(*pods[p]);
    pod_cpu[p] = Get(requests, api::kResourceCpu, 0);
    pod_mem[p] = Get(requests, api::kResourceMemory, 0);
  }

  BareLoopResult result;
  result.chosen.assign(pods.size(), -1);
  const auto to_find = static_cast<size_t>(BareLoopNodesToFind(static_cast<int64_t>(n)));
  std::vector<int32_t> feasible(to_find);
  size_t start = 0;
  auto place = [&](size_t p) {
    const int64_t cpu = pod_cpu[p], mem = pod_mem[p];
    // From the round-robin start to the end, then from the front, until
    // enough nodes fit.
    size_t found = 0, checked = 0;
    auto scan = [&](size_t from, size_t to) {
      for (size_t i = from; i < to && found < to_find; ++i) {
        const Slot& s = slots[i];
        ++checked;
        const bool fits = s.req_cpu + cpu <= s.alloc_cpu && s.req_mem + mem <= s.alloc_mem &&
                          s.num_pods < s.alloc_pods;
        feasible[found] = static_cast<int32_t>(i);
        found += fits ? 1 : 0;
      }
    };
    scan(start, n);
    scan(0, start);
    start = n == 0 ? 0 : (start + checked) % n;
    // Both scores from the requested fractions after the pod (at most 1 on
    // a node that fits): LeastAllocated is the mean free share, and
    // BalancedAllocation falls with the two fractions' spread.
    double best = -1;
    int32_t chosen = -1;
    for (size_t k = 0; k < found; ++k) {
      const int32_t i = feasible[k];
      const Slot& s = slots[i];
      const double fc = static_cast<double>(s.req_cpu + cpu) * s.inv_cpu;
      const double fm = static_cast<double>(s.req_mem + mem) * s.inv_mem;
      const double least = (2 - fc - fm) * 50;
      const double balanced = (1 - std::abs(fc - fm) * 0.5) * 100;
      const double total = least + balanced;
      if (total > best) {
        best = total;
        chosen = i;
      }
    }
    result.chosen[p] = chosen;
    if (chosen < 0) return;
    Slot& s = slots[chosen];
    s.req_cpu += cpu;
    s.req_mem += mem;
    ++s.num_pods;
  };
  for (size_t p = 0; p < untimed; ++p) place(p);
  const auto t0 = std::chrono::steady_clock::now();
  for (size_t p = untimed; p < pods.size(); ++p) place(p);
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return result;
}

}  // namespace schedref::cmd
