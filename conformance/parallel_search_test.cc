#include "conformance/parallel_search.h"

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace schedref::conformance {
namespace {

TEST(ChunkSizeForTest, UpstreamValues) {
  struct Case {
    int64_t n;
    int32_t parallelism;
    int64_t want;
  };
  for (const Case& c : std::vector<Case>{
           {0, 16, 1},       // sqrt 0, raised to 1
           {4, 16, 1},       // n/16 + 1 = 1 < sqrt 2
           {100, 16, 7},     // sqrt 10, n/16 + 1 = 7
           {120, 16, 8},     // sqrt 10, n/16 + 1 = 8
           {5000, 16, 70},   // sqrt 70, n/16 + 1 = 313
           {5000, 1, 70},    //
           {9, 1, 3},        //
           {10, 4, 3},       // sqrt 3, n/4 + 1 = 3
       }) {
    EXPECT_EQ(ChunkSizeFor(c.n, c.parallelism), c.want)
        << c.n << " nodes, parallelism " << c.parallelism;
  }
}

std::vector<CheckedNode> Nodes(const std::string& pattern) {
  // One node per character, named n0, n1, ...: 'p' passes, 'f' fails.
  std::vector<CheckedNode> out;
  for (size_t i = 0; i < pattern.size(); ++i) {
    out.push_back({"n" + std::to_string(i), pattern[i] == 'p'});
  }
  return out;
}

TEST(WhyNotReachableTest, Table) {
  struct Case {
    std::string name;
    std::string pattern;  // in check order
    int64_t to_find;
    int32_t parallelism;
    std::vector<std::string> feasible;
    std::set<std::string> rejected;
    std::string want;  // "" or a part of the reason
  };
  const std::vector<Case> cases = {
      // 4 nodes, chunks of 1 at parallelism 16: any passing node can be
      // the first to complete.
      {"sequential first", "pppp", 1, 16, {"n0"}, {}, ""},
      {"any node first", "pppp", 1, 16, {"n2"}, {}, ""},
      {"last node first", "pppp", 1, 16, {"n3"}, {}, ""},
      {"failing node checked meanwhile", "pfpp", 1, 16, {"n3"}, {"n1"}, ""},
      // One worker: chunks [n0 n1] [n2 n3], in order.
      {"one worker checks in order", "pppp", 1, 1, {"n2"}, {},
       "workers hold unfinished earlier chunks"},
      {"one worker, in order", "fppp", 1, 1, {"n1"}, {"n0"}, ""},
      {"one worker records what it checked", "fppp", 1, 1, {"n1"}, {},
       "not recorded as rejected"},
      {"too many kept", "pppp", 1, 16, {"n0", "n1"}, {},
       "keeps 1 feasible nodes"},
      {"too few kept", "pppp", 2, 16, {"n0"}, {}, "keeps 2 feasible nodes"},
      {"failing node kept", "pfpp", 1, 16, {"n1"}, {},
       "does not pass the filters"},
      {"passing node rejected", "pppp", 1, 16, {"n1"}, {"n0"},
       "passes the filters"},
      {"unknown node", "pppp", 1, 16, {"x"}, {}, "not among the nodes"},
      {"listed twice", "pppp", 2, 16, {"n1", "n1"}, {}, "listed twice"},
      // Fewer pass than it looks for: everything is checked.
      {"all checked", "pfpf", 3, 16, {"n2", "n0"}, {"n1", "n3"}, ""},
      {"all checked, one missing", "pfpf", 3, 16, {"n0", "n2"}, {"n1"},
       "n3 fails the filters and has no rejection"},
      // Something must be dropped to stop, and each remaining passing
      // node comes after a failing one that is not recorded.
      {"nothing left to drop", "pffpfp", 1, 2, {"n0"}, {},
       "no passing node is left"},
      // 9 nodes, parallelism 1: chunks of 3; order within a chunk.
      {"order within a chunk", "ppppppppp", 2, 2, {"n1", "n0"}, {},
       "is listed before n0"},
      {"order across chunks", "ppppppppp", 2, 2, {"n3", "n0"}, {}, ""},
      // Two workers cannot leave three chunks unfinished.
      {"three unfinished chunks", "ppppppppp", 3, 2, {"n0", "n3", "n6"}, {},
       "workers hold unfinished earlier chunks"},
      {"two unfinished chunks", "ppppppppp", 2, 2, {"n0", "n3"}, {}, ""},
  };
  for (const Case& c : cases) {
    std::string got = WhyNotReachable(Nodes(c.pattern), c.to_find,
                                      c.parallelism, c.feasible, c.rejected);
    if (c.want.empty()) {
      EXPECT_EQ(got, "") << c.name;
    } else {
      EXPECT_NE(got.find(c.want), std::string::npos)
          << c.name << ": got \"" << got << "\"";
    }
  }
}

// An outcome: the feasible list (positions, in order) and the rejected
// positions.
using Outcome = std::pair<std::vector<int>, std::set<int>>;

// Every outcome of upstream's search, by exhaustive search over the
// schedules of ParallelizeUntil's workers: each step is one worker taking
// the next chunk, checking for cancellation and starting its next piece, or
// completing the piece it started.
class Simulator {
 public:
  Simulator(std::vector<bool> passes, int to_find, int parallelism)
      : passes_(std::move(passes)), to_find_(to_find) {
    n_ = static_cast<int>(passes_.size());
    size_ = static_cast<int>(ChunkSizeFor(n_, parallelism));
    chunks_ = (n_ + size_ - 1) / size_;
    workers_ = std::min(parallelism, chunks_);
  }

  std::set<Outcome> Outcomes() {
    State s;
    s.workers.assign(workers_, Worker{});
    Visit(s);
    return outcomes_;
  }

  // The outcome of one schedule: at each step a worker drawn by `rng`.
  Outcome RandomOutcome(std::mt19937_64& rng) {
    State s;
    s.workers.assign(workers_, Worker{});
    for (;;) {
      std::vector<int> live;
      for (int w = 0; w < workers_; ++w) {
        if (s.workers[w].phase != Worker::kReturned) live.push_back(w);
      }
      if (live.empty()) return {s.kept, s.rejected};
      Step(s, live[rng() % live.size()]);
    }
  }

 private:
  struct Worker {
    enum Phase { kIdle, kBefore, kRunning, kReturned } phase = kIdle;
    int chunk = -1;
    int piece = 0;
    auto operator<=>(const Worker&) const = default;
  };
  struct State {
    int next_chunk = 0;
    bool stopped = false;
    std::vector<Worker> workers;
    std::vector<int> kept;
    std::set<int> rejected;
    auto operator<=>(const State&) const = default;
  };

  void Visit(const State& s) {
    if (!seen_.insert(s).second) return;
    bool moved = false;
    for (int w = 0; w < workers_; ++w) {
      State t = s;
      if (Step(t, w)) {
        moved = true;
        Visit(t);
      }
    }
    if (!moved) outcomes_.insert({s.kept, s.rejected});
  }

  // One step of worker w; false iff it has returned.
  bool Step(State& s, int w) {
    Worker& k = s.workers[w];
    switch (k.phase) {
      case Worker::kReturned:
        return false;
      case Worker::kIdle:
        if (s.next_chunk == chunks_) {
          k.phase = Worker::kReturned;
        } else {
          k.chunk = s.next_chunk++;
          k.piece = k.chunk * size_;
          k.phase = Worker::kBefore;
        }
        return true;
      case Worker::kBefore:
        if (k.piece == std::min(n_, (k.chunk + 1) * size_)) {
          k.phase = Worker::kIdle;
        } else {
          k.phase = s.stopped ? Worker::kReturned : Worker::kRunning;
        }
        return true;
      case Worker::kRunning:
        if (!passes_[k.piece]) {
          s.rejected.insert(k.piece);
        } else if (static_cast<int>(s.kept.size()) < to_find_) {
          s.kept.push_back(k.piece);
        } else {
          s.stopped = true;  // found one more than needed: cancel, drop it
        }
        ++k.piece;
        k.phase = Worker::kBefore;
        return true;
    }
    return false;
  }

  std::vector<bool> passes_;
  int to_find_;
  int n_, size_, chunks_, workers_;
  std::set<State> seen_;
  std::set<Outcome> outcomes_;
};

// Every feasible list of `length` distinct passing positions, in every
// order.
void Lists(const std::vector<bool>& passes, size_t length,
           std::vector<int>& current, std::vector<std::vector<int>>* out) {
  if (current.size() == length) {
    out->push_back(current);
    return;
  }
  for (int p = 0; p < static_cast<int>(passes.size()); ++p) {
    if (!passes[p] ||
        std::find(current.begin(), current.end(), p) != current.end()) {
      continue;
    }
    current.push_back(p);
    Lists(passes, length, current, out);
    current.pop_back();
  }
}

// The rule and the exhaustive search agree on every outcome of small
// clusters: every pass/fail pattern of up to 6 nodes, every to_find, 1 to 3
// workers, and every candidate outcome (feasible lists of
// the right length in every order, every set of rejected failing nodes).
TEST(WhyNotReachableTest, AgreesWithEveryScheduleOfSmallSearches) {
  int checked = 0, reachable = 0;
  for (int n = 1; n <= 6; ++n) {
    for (int bits = 0; bits < (1 << n); ++bits) {
      std::vector<bool> passes(n);
      std::vector<CheckedNode> nodes;
      std::vector<int> failing;
      int passing = 0;
      for (int i = 0; i < n; ++i) {
        passes[i] = (bits >> i) & 1;
        nodes.push_back({"n" + std::to_string(i), passes[i]});
        if (passes[i]) {
          ++passing;
        } else {
          failing.push_back(i);
        }
      }
      for (int to_find = 1; to_find <= n; ++to_find) {
        for (int parallelism = 1; parallelism <= 3;
             ++parallelism) {
          const std::set<Outcome> outcomes =
              Simulator(passes, to_find, parallelism).Outcomes();
          std::vector<std::vector<int>> lists;
          std::vector<int> current;
          Lists(passes, static_cast<size_t>(std::min(passing, to_find)),
                current, &lists);
          for (const std::vector<int>& list : lists) {
            for (int r = 0; r < (1 << failing.size()); ++r) {
              std::set<int> rejected;
              std::set<std::string> rejected_names;
              for (size_t j = 0; j < failing.size(); ++j) {
                if ((r >> j) & 1) {
                  rejected.insert(failing[j]);
                  rejected_names.insert(nodes[failing[j]].name);
                }
              }
              std::vector<std::string> names;
              for (int p : list) names.push_back(nodes[p].name);
              const bool want = outcomes.count({list, rejected}) > 0;
              const std::string why = WhyNotReachable(
                  nodes, to_find, parallelism, names, rejected_names);
              ++checked;
              reachable += want ? 1 : 0;
              ASSERT_EQ(why.empty(), want)
                  << "pattern " << bits << " of " << n << " nodes, to_find "
                  << to_find << ", parallelism " << parallelism
                  << ", feasible " << ::testing::PrintToString(list)
                  << ", rejected " << ::testing::PrintToString(rejected)
                  << ": " << (why.empty() ? "accepted" : why);
            }
          }
        }
      }
    }
  }
  // Both answers occur many times (the comparison is not vacuous).
  EXPECT_GT(reachable, 1000);
  EXPECT_GT(checked - reachable, 1000);
}

// Real sizes: the outcome of random schedules of 16 workers (the default
// parallelism) over up to 300 nodes is always accepted.
TEST(WhyNotReachableTest, AcceptsRandomSchedulesOfRealSizes) {
  std::mt19937_64 rng(20261127);
  for (int round = 0; round < 300; ++round) {
    const int n = 1 + static_cast<int>(rng() % 300);
    const int pass_percent = static_cast<int>(rng() % 101);
    std::vector<bool> passes(n);
    std::vector<CheckedNode> nodes;
    for (int i = 0; i < n; ++i) {
      passes[i] = static_cast<int>(rng() % 100) < pass_percent;
      nodes.push_back({"n" + std::to_string(i), passes[i]});
    }
    const int to_find = 1 + static_cast<int>(rng() % std::min(n, 120));
    const int parallelism = round % 3 == 0 ? 16 : 1 + static_cast<int>(rng() % 16);
    Simulator sim(passes, to_find, parallelism);
    for (int k = 0; k < 5; ++k) {
      const Outcome o = sim.RandomOutcome(rng);
      std::vector<std::string> names;
      for (int p : o.first) names.push_back(nodes[p].name);
      std::set<std::string> rejected;
      for (int p : o.second) rejected.insert(nodes[p].name);
      ASSERT_EQ(WhyNotReachable(nodes, to_find, parallelism, names, rejected),
                "")
          << "round " << round << ": " << n << " nodes, " << pass_percent
          << "% pass, to_find " << to_find << ", parallelism " << parallelism;
    }
  }
}

// Larger chunks (3 and 4 nodes): every outcome a schedule produces is
// accepted.
TEST(WhyNotReachableTest, AcceptsEveryScheduleOfLargerChunks) {
  for (int n : {9, 10}) {
    for (int bits : {0xffff, 0x5555, 0x1248, 0x7bde}) {
      std::vector<bool> passes(n);
      std::vector<CheckedNode> nodes;
      for (int i = 0; i < n; ++i) {
        passes[i] = (bits >> i) & 1;
        nodes.push_back({"n" + std::to_string(i), passes[i]});
      }
      for (int to_find : {1, 2, 3}) {
        for (int parallelism : {1, 2, 3}) {
          for (const Outcome& o :
               Simulator(passes, to_find, parallelism).Outcomes()) {
            std::vector<std::string> names;
            for (int p : o.first) names.push_back(nodes[p].name);
            std::set<std::string> rejected;
            for (int p : o.second) rejected.insert(nodes[p].name);
            EXPECT_EQ(WhyNotReachable(nodes, to_find, parallelism, names,
                                      rejected),
                      "")
                << "pattern " << bits << " of " << n << " nodes, to_find "
                << to_find << ", parallelism " << parallelism;
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace schedref::conformance
