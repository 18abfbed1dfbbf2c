#include "conformance/parallel_search.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace schedref::conformance {
namespace {

// The chunks of n positions: chunk c is [c * size, min(n, (c + 1) * size)).
struct Chunks {
  int64_t n = 0;
  int64_t size = 1;
  int64_t count() const { return (n + size - 1) / size; }
  int64_t begin(int64_t c) const { return c * size; }
  int64_t length(int64_t c) const {
    return std::min(n, (c + 1) * size) - c * size;
  }
};

// Looks for a schedule of upstream's workers that checks each chunk's
// prefix `prefix[c]`, completes the kept nodes in `kept_order` and the
// rejected ones (`recorded`), and then, iff `drop`, one more passing node
// (the one that cancels the search). "" iff there is one; otherwise why
// not.
//
// Greedy, which loses nothing: a rejected node is completed as soon as the
// nodes before it in its chunk are (rejections have no order); a finished
// chunk frees its worker at once; a chunk is taken only when a node of it
// or of a later chunk is needed, since a taken chunk holds a worker until
// it is finished and chunks are taken in order.
std::string Schedule(const std::vector<CheckedNode>& nodes,
                     const Chunks& chunks, int64_t workers,
                     const std::vector<int64_t>& prefix,
                     const std::vector<char>& recorded,
                     const std::vector<int64_t>& kept_order, bool drop) {
  const int64_t count = chunks.count();
  std::vector<int64_t> done(count, 0);  // completed positions of the chunk
  std::vector<char> held(count, 0);
  int64_t holding = 0, taken = 0;
  auto advance = [&](int64_t c) {
    while (done[c] < prefix[c] && recorded[chunks.begin(c) + done[c]]) {
      ++done[c];
    }
    if (held[c] && done[c] == chunks.length(c)) {
      held[c] = 0;
      --holding;
    }
  };
  auto take_through = [&](int64_t c, const std::string& what) -> std::string {
    for (; taken <= c; ++taken) {
      if (holding == workers) {
        return what + " needs chunk " + std::to_string(c) + " (chunks of " +
               std::to_string(chunks.size) + " nodes) while all " +
               std::to_string(workers) +
               " workers hold unfinished earlier chunks";
      }
      held[taken] = 1;
      ++holding;
      advance(taken);
    }
    return "";
  };

  for (int64_t p : kept_order) {
    const int64_t c = p / chunks.size;
    std::string why =
        take_through(c, "completing feasible node " + nodes[p].name);
    if (!why.empty()) return why;
    advance(c);
    const int64_t next = chunks.begin(c) + done[c];
    if (next != p) {
      return "feasible node " + nodes[p].name + " is listed before " +
             nodes[next].name + ", which comes earlier in their chunk of " +
             std::to_string(chunks.size) +
             " nodes (a worker checks its chunk in order)";
    }
    ++done[c];
    advance(c);
  }
  int64_t last_touched = -1;
  for (int64_t c = 0; c < count; ++c) {
    if (prefix[c] > 0) last_touched = c;
  }
  if (last_touched >= 0) {
    std::string why = take_through(last_touched, "checking the rejected nodes");
    if (!why.empty()) return why;
  }
  if (!drop) return "";

  // The node that cancels the search: the next node of a chunk a worker
  // holds, or the first node of a chunk still to take.
  for (int64_t c = 0; c < taken; ++c) {
    if (held[c] && prefix[c] < chunks.length(c) &&
        nodes[chunks.begin(c) + prefix[c]].passes) {
      return "";
    }
  }
  for (int64_t c = taken; c < count; ++c) {
    if (!nodes[chunks.begin(c)].passes) continue;
    const int64_t needed = c - taken + 1, free = workers - holding;
    if (needed <= free) return "";
    return "the search stops only when a passing node completes after the "
           "last feasible one, and the first one a free worker could reach, " +
           nodes[chunks.begin(c)].name + ", needs " + std::to_string(needed) +
           " free workers, not " + std::to_string(free);
  }
  return "no passing node is left for a worker to complete after the last "
         "feasible one, so the search would not have stopped";
}

}  // namespace

int64_t ChunkSizeFor(int64_t n, int32_t parallelism) {
  int64_t s = static_cast<int64_t>(std::sqrt(static_cast<double>(n)));
  const int64_t r = n / parallelism + 1;
  if (s > r) {
    s = r;
  } else if (s < 1) {
    s = 1;
  }
  return s;
}

std::string WhyNotReachable(const std::vector<CheckedNode>& nodes,
                            int64_t to_find, int32_t parallelism,
                            const std::vector<std::string>& feasible,
                            const std::set<std::string>& rejected) {
  const int64_t n = static_cast<int64_t>(nodes.size());
  std::map<std::string, int64_t> position;
  for (int64_t i = 0; i < n; ++i) position[nodes[i].name] = i;

  // The outcome in positions.
  std::vector<char> kept(n, 0), recorded(n, 0);
  std::vector<int64_t> kept_order;
  for (const std::string& name : feasible) {
    auto it = position.find(name);
    if (it == position.end()) {
      return "feasible node " + name +
             " is not among the nodes the filters ran on";
    }
    if (kept[it->second]) return "feasible node " + name + " is listed twice";
    if (!nodes[it->second].passes) {
      return "feasible node " + name + " does not pass the filters";
    }
    kept[it->second] = 1;
    kept_order.push_back(it->second);
  }
  for (const std::string& name : rejected) {
    auto it = position.find(name);
    if (it == position.end()) {
      return "rejected node " + name +
             " is not among the nodes the filters ran on";
    }
    if (nodes[it->second].passes) {
      return "rejected node " + name + " passes the filters";
    }
    recorded[it->second] = 1;
  }

  int64_t passing = 0;
  for (const CheckedNode& node : nodes) passing += node.passes ? 1 : 0;
  const int64_t want = std::min(passing, to_find);
  if (static_cast<int64_t>(kept_order.size()) != want) {
    return "the search keeps " + std::to_string(want) +
           " feasible nodes here (" + std::to_string(passing) +
           " pass, it stops after " + std::to_string(to_find) + "), not " +
           std::to_string(kept_order.size());
  }
  const Chunks chunks{n, ChunkSizeFor(n, parallelism)};
  const int64_t workers = std::min<int64_t>(parallelism, chunks.count());
  std::vector<int64_t> prefix(chunks.count(), 0);

  if (passing <= to_find) {
    // Nothing cancels the search: every node is checked.
    for (int64_t p = 0; p < n; ++p) {
      if (!nodes[p].passes && !recorded[p]) {
        return "node " + nodes[p].name +
               " fails the filters and has no rejection, but every node is "
               "checked when at most " +
               std::to_string(to_find) + " pass";
      }
    }
    for (int64_t c = 0; c < chunks.count(); ++c) prefix[c] = chunks.length(c);
    return Schedule(nodes, chunks, workers, prefix, recorded, kept_order,
                    /*drop=*/false);
  }

  // Each chunk's checked prefix reaches at least its last kept or rejected
  // node, and every node before that one completed before the cancellation:
  // a failing one is rejected, a passing one is kept.
  for (int64_t p = 0; p < n; ++p) {
    if (kept[p] || recorded[p]) {
      const int64_t c = p / chunks.size;
      prefix[c] = std::max(prefix[c], p - chunks.begin(c) + 1);
    }
  }
  for (int64_t c = 0; c < chunks.count(); ++c) {
    for (int64_t p = chunks.begin(c); p < chunks.begin(c) + prefix[c]; ++p) {
      if (kept[p] || recorded[p]) continue;
      const int64_t last = chunks.begin(c) + prefix[c] - 1;
      return "node " + nodes[p].name +
             (nodes[p].passes ? " passes" : " fails") +
             " the filters and comes before " + nodes[last].name +
             " in their chunk of " + std::to_string(chunks.size) +
             " nodes, so it was checked too, but it is " +
             (nodes[p].passes ? "not in the feasible list"
                              : "not recorded as rejected");
    }
  }
  return Schedule(nodes, chunks, workers, prefix, recorded, kept_order,
                  /*drop=*/true);
}

}  // namespace schedref::conformance
