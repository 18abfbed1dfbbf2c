// The optimized implementation's per-node loops allocate nothing
// (docs/optimized.md): on SchedulingBasic-shaped workloads, the heap
// allocations one more scheduled pod costs do not grow with how many nodes
// its cycle scans. Allocations are counted by replacing the global operator
// new of this test binary, only while a Run is in progress.
//
// Method: for a node count n, A(n, m) is the number of allocations of a Run
// over n nodes and m measured pods; the marginal cost of a pod is
// (A(n, 2m) - A(n, m)) / m, which cancels everything the Run does once
// (loading the nodes, start-up, teardown). With the adaptive
// percentageOfNodesToScore, a cycle scans 230 of 500 nodes and 680 of 2000:
// one allocation per scanned node would add 450 to the marginal cost.
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>

#include "cmd/schedref/workloads.h"
#include "conformance/implementations.h"
#include "gtest/gtest.h"

namespace {

std::atomic<bool> counting{false};
std::atomic<int64_t> allocations{0};

void* CountedAlloc(std::size_t size) {
  if (counting.load(std::memory_order_relaxed)) {
    allocations.fetch_add(1, std::memory_order_relaxed);
  }
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

}  // namespace

void* operator new(std::size_t size) { return CountedAlloc(size); }
void* operator new[](std::size_t size) { return CountedAlloc(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace schedref::cmd {
namespace {

struct RunCount {
  int64_t allocations = 0;
  int64_t evaluated_per_attempt = 0;  // of the last attempt
};

RunCount CountRun(int nodes, int measured_pods) {
  StatusOr<Workload> workload =
      MakeWorkload("SchedulingBasic", {nodes, 0, measured_pods});
  EXPECT_TRUE(workload.ok()) << workload.status().message();
  std::unique_ptr<api::Scheduler> impl =
      conformance::MakeImplementation("optimized");
  api::RunOptions options;
  options.threads = 1;
  allocations = 0;
  counting = true;
  StatusOr<api::Trace> trace = impl->Run(workload->scenario, options);
  counting = false;
  RunCount count;
  count.allocations = allocations;
  EXPECT_TRUE(trace.ok()) << trace.status().message();
  int scheduled = 0;
  for (const api::Trace::Record& r : trace->records) {
    const api::Attempt* a = api::AsAttempt(r);
    if (a != nullptr && a->outcome == api::AttemptOutcome::kScheduled) {
      ++scheduled;
      count.evaluated_per_attempt = a->evaluated;
    }
  }
  EXPECT_EQ(scheduled, measured_pods);
  return count;
}

TEST(HotLoopAllocations, PerPodAllocationsDoNotGrowWithScannedNodes) {
  constexpr int kPods = 200;
  struct Row {
    int nodes;
    int64_t min_evaluated;
    double marginal = 0;
  };
  Row rows[] = {{500, 200}, {2000, 600}};
  for (Row& row : rows) {
    RunCount once = CountRun(row.nodes, kPods);
    RunCount twice = CountRun(row.nodes, 2 * kPods);
    ASSERT_GE(twice.evaluated_per_attempt, row.min_evaluated)
        << row.nodes << " nodes: the cycles scan fewer nodes than assumed";
    row.marginal =
        static_cast<double>(twice.allocations - once.allocations) / kPods;
    std::printf("%d nodes: %lld nodes evaluated per pod, %.2f allocations "
                "per scheduled pod\n",
                row.nodes, static_cast<long long>(twice.evaluated_per_attempt),
                row.marginal);
  }
  // Four times the nodes, three times the scan: the marginal cost may move
  // by amortised container growth, never by anything per node.
  EXPECT_LT(rows[1].marginal, rows[0].marginal + 3.0)
      << "the per-node loops allocate: " << rows[0].marginal << " -> "
      << rows[1].marginal << " allocations per pod";
  EXPECT_GT(rows[0].marginal, 0.0) << "the counter counted nothing";
}

}  // namespace
}  // namespace schedref::cmd
