#include "reference/framework/choices.h"

#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace schedref::reference::framework {
namespace {

// Nodes n0..n{k-1}; `verdicts[i]` is node i's filter result: 'p' passes,
// 'f' fails (Unschedulable), 'e' errors.
struct Nodes {
  explicit Nodes(const std::string& verdicts) : verdicts(verdicts) {
    for (size_t i = 0; i < verdicts.size(); ++i) {
      infos.emplace_back();
      api::Node node;
      node.name = "n" + std::to_string(i);
      infos.back().node = node;
    }
  }
  SearchChoice Choice(int64_t to_find) {
    SearchChoice c;
    for (const NodeInfo& n : infos) c.nodes.push_back(&n);
    c.to_find = to_find;
    c.filter = [this](const NodeInfo& n) {
      ++checked;
      switch (verdicts[std::stoul(n.Name().substr(1))]) {
        case 'p':
          return Status::Success();
        case 'e':
          return Status::Error("boom");
        default:
          return Status(Code::kUnschedulable, "no");
      }
    };
    return c;
  }
  std::string verdicts;
  std::vector<NodeInfo> infos;
  int checked = 0;
};

TEST(PinnedChoicesTest, SearchIsSerialWithEarlyStop) {
  struct Case {
    std::string name;
    std::string verdicts;
    int64_t to_find;
    bool has_filters;
    std::vector<size_t> feasible;
    std::vector<size_t> rejected;
    bool error;
    size_t error_at;
    int checked;
  };
  const std::vector<Case> cases = {
      {"all pass, stop at to_find", "pppp", 2, true, {0, 1}, {}, false, 0, 2},
      {"rejections before the stop", "fpfpp", 2, true, {1, 3}, {0, 2}, false, 0, 4},
      {"fewer pass than to_find", "fpf", 5, true, {1}, {0, 2}, false, 0, 3},
      {"an error stops the search", "pfep", 3, true, {0}, {1}, true, 2, 3},
      {"no filters: the first to_find nodes", "ffff", 3, false, {0, 1, 2}, {},
       false, 0, 0},
  };
  PinnedChoices pinned;
  for (const Case& c : cases) {
    Nodes nodes(c.verdicts);
    SearchChoice choice = nodes.Choice(c.to_find);
    choice.has_filters = c.has_filters;
    SearchOutcome out = pinned.Search(choice);
    EXPECT_EQ(out.feasible, c.feasible) << c.name;
    std::vector<size_t> rejected;
    for (const auto& [i, s] : out.rejected) {
      rejected.push_back(i);
      EXPECT_EQ(s.code(), Code::kUnschedulable) << c.name;
    }
    EXPECT_EQ(rejected, c.rejected) << c.name;
    EXPECT_EQ(out.error.code() == Code::kError, c.error) << c.name;
    if (c.error) EXPECT_EQ(out.error_at, c.error_at) << c.name;
    EXPECT_EQ(nodes.checked, c.checked) << c.name;
  }
}

TEST(PinnedChoicesTest, TheOtherPointsTakeThePinnedAnswer) {
  PinnedChoices pinned;
  PopChoice pop;
  pop.head = "default/a";
  pop.why_not_tied = [](const std::string&) { return std::string(); };
  EXPECT_EQ(pinned.Pop(pop), "default/a");

  HostChoice host;
  host.tied = {"a", "b", "c"};
  host.drawn = 2;
  EXPECT_EQ(pinned.SelectHost(host), 2u);

  PreemptionChoice preemption;
  preemption.num_offsets = 4;
  preemption.drawn_offset = 3;
  preemption.best = {"n2", "n0"};
  int dry_runs = 0;
  preemption.best_from = [&](int32_t) {
    ++dry_runs;
    return std::vector<std::string>{};
  };
  PreemptionPick pick = pinned.Preemption(preemption);
  EXPECT_EQ(pick.offset, 3);
  EXPECT_EQ(pick.node, "n2");
  EXPECT_EQ(dry_runs, 0);  // the pinned answer needs no other dry run
  preemption.best.clear();
  EXPECT_EQ(pinned.Preemption(preemption).node, "");
}

}  // namespace
}  // namespace schedref::reference::framework
