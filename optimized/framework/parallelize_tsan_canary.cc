// A canary for the --config=tsan build: proves that ThreadSanitizer checks the
// bodies the Parallelizer hands to oneTBB (bazel/README.md, "tsan").
//
//   parallelize_tsan_canary race     bodies on two threads write one plain
//                                    int: under tsan, TSan must report it
//   parallelize_tsan_canary disjoint bodies write their own slots and the
//                                    caller reads them after the loop: TSan
//                                    must report nothing (the join at the
//                                    end of parallel_for is seen)
//
// Exit status: 0 once bodies ran on at least two threads, 3 if they never did
// (the check would prove nothing). A TSan report exits with TSan's own
// status (66, halt_on_error). parallelize_tsan_test.sh judges the runs.
#include <atomic>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "optimized/framework/parallelize.h"

namespace {

using schedref::optimized::framework::Parallelizer;

constexpr int64_t kItems = 1 << 14;

// The ids of the threads that ran a body. The mutex is the only
// synchronisation among bodies, and it guards only this set.
class Participants {
 public:
  void Add() {
    std::lock_guard<std::mutex> lock(mu_);
    ids_.insert(std::this_thread::get_id());
  }
  size_t Count() {
    std::lock_guard<std::mutex> lock(mu_);
    return ids_.size();
  }

 private:
  std::mutex mu_;
  std::set<std::thread::id> ids_;  // guarded by mu_
};

// Spins a little, so that a second worker joins the loop before it ends.
void Work() {
  volatile int sink = 0;
  for (int i = 0; i < 2000; ++i) sink = sink + i;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 || (std::strcmp(argv[1], "race") != 0 &&
                    std::strcmp(argv[1], "disjoint") != 0)) {
    std::fprintf(stderr, "usage: %s race|disjoint\n", argv[0]);
    return 2;
  }
  const bool race = std::strcmp(argv[1], "race") == 0;
  Parallelizer parallel(2);
  int shared = 0;
  std::vector<int> slots(kItems, 0);
  // A fresh loop until two threads took part in one (a single attempt
  // nearly always suffices; a loaded machine may need more).
  for (int attempt = 0; attempt < 50; ++attempt) {
    Participants participants;
    parallel.For(0, kItems, [&](int64_t i) {
      participants.Add();
      Work();
      if (race) {
        shared = shared + 1;  // the deliberate data race
      } else {
        slots[i] = static_cast<int>(i);
      }
    });
    int64_t sum = 0;
    for (int v : slots) sum += v;
    if (participants.Count() >= 2) {
      std::printf("bodies ran on %zu threads (shared=%d, sum=%lld)\n",
                  participants.Count(), shared, static_cast<long long>(sum));
      return 0;
    }
  }
  std::printf("bodies never ran on two threads\n");
  return 3;
}
