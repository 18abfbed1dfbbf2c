#include "optimized/framework/hot_check.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <iterator>
#include <string>
#include <vector>

namespace schedref::optimized::framework {
namespace {

NodeInfo::Hot Line(uint32_t flags, int64_t free_cpu, int64_t free_mem, int32_t pods,
                   int64_t allowed) {
  NodeInfo::Hot h;
  h.flags = flags;
  h.allocatable_milli_cpu = 4000;
  h.requested_milli_cpu = 4000 - free_cpu;
  h.allocatable_memory = 1 << 30;
  h.requested_memory = (1 << 30) - free_mem;
  h.num_pods = pods;
  h.allowed_pod_number = allowed;
  return h;
}

TEST(HotCheckTest, EveryConditionMustHold) {
  HotCheck nu_tt_fit;  // what NodeUnschedulable, TaintToleration and Fit narrow to
  nu_tt_fit.flags_set = NodeInfo::kHasNode;
  nu_tt_fit.flags_clear = NodeInfo::kUnschedulable | NodeInfo::kHardTaints;
  nu_tt_fit.min_free_milli_cpu = 500;
  nu_tt_fit.min_free_memory = 1000;
  nu_tt_fit.pod_slot = true;
  const uint32_t ok = NodeInfo::kHasNode | NodeInfo::kPreferTaints | NodeInfo::kImages;
  struct Case {
    std::string name;
    HotCheck check;
    NodeInfo::Hot line;
    bool passes;
  };
  const Case cases[] = {
      {"empty check passes anything", HotCheck{}, Line(NodeInfo::kUnschedulable, -5, -5, 9, 1),
       true},
      {"all hold", nu_tt_fit, Line(ok, 500, 1000, 9, 10), true},
      {"a ghost (no node object)", nu_tt_fit, Line(ok & ~NodeInfo::kHasNode, 500, 1000, 0, 10),
       false},
      {"unschedulable", nu_tt_fit, Line(ok | NodeInfo::kUnschedulable, 500, 1000, 0, 10), false},
      {"hard taints", nu_tt_fit, Line(ok | NodeInfo::kHardTaints, 500, 1000, 0, 10), false},
      {"cpu one short", nu_tt_fit, Line(ok, 499, 1000, 0, 10), false},
      {"memory one short", nu_tt_fit, Line(ok, 500, 999, 0, 10), false},
      {"no pod slot", nu_tt_fit, Line(ok, 500, 1000, 10, 10), false},
      {"over-committed, no resource asked",
       HotCheck{.flags_clear = 0, .flags_set = 0, .pod_slot = true}, Line(0, -100, -100, 0, 1),
       true},
  };
  for (const Case& c : cases) EXPECT_EQ(c.check.Passes(c.line), c.passes) << c.name;
}

TEST(HotCheckTest, AndPassesExactlyWhatBothPass) {
  const HotCheck a{.flags_clear = NodeInfo::kHardTaints, .min_free_milli_cpu = 500};
  const HotCheck b{.flags_set = NodeInfo::kHasNode, .min_free_milli_cpu = 300,
                   .min_free_memory = 1000, .pod_slot = true};
  HotCheck both = a;
  both.And(b);
  const NodeInfo::Hot lines[] = {
      Line(NodeInfo::kHasNode, 500, 1000, 0, 1),
      Line(NodeInfo::kHasNode, 400, 1000, 0, 1),   // a's cpu, not b's
      Line(NodeInfo::kHasNode, 500, 999, 0, 1),    // b's memory
      Line(NodeInfo::kHasNode, 500, 1000, 1, 1),   // b's pod slot
      Line(0, 500, 1000, 0, 1),                    // b's flag to set
      Line(NodeInfo::kHasNode | NodeInfo::kHardTaints, 500, 1000, 0, 1),  // a's flag
  };
  for (size_t i = 0; i < std::size(lines); ++i) {
    EXPECT_EQ(both.Passes(lines[i]), a.Passes(lines[i]) && b.Passes(lines[i])) << "line " << i;
  }
  EXPECT_TRUE(both.Passes(lines[0]));
}

// A summary passes a check iff each of the lines it summarizes does, for
// any lines and any check (the scan passes whole blocks on it).
RC_GTEST_PROP(HotSummaryTest, PassesAllIffEveryLinePasses, ()) {
  const auto flag_bits = rc::gen::inRange<uint32_t>(0, 32);
  const auto room = rc::gen::inRange<int64_t>(-3, 4);
  const auto line = rc::gen::apply(
      [](uint32_t flags, int64_t cpu, int64_t mem, int32_t pods, int64_t allowed) {
        return Line(flags, cpu, mem, pods, allowed);
      },
      flag_bits, room, room, rc::gen::inRange<int32_t>(0, 3), rc::gen::inRange<int64_t>(0, 3));
  const std::vector<NodeInfo::Hot> lines = *rc::gen::container<std::vector<NodeInfo::Hot>>(line);
  HotCheck check;
  check.flags_clear = *flag_bits;
  check.flags_set = *flag_bits;
  check.min_free_milli_cpu = *rc::gen::oneOf(rc::gen::just(INT64_MIN), room);
  check.min_free_memory = *rc::gen::oneOf(rc::gen::just(INT64_MIN), room);
  check.pod_slot = *rc::gen::arbitrary<bool>();
  HotSummary summary;
  bool all = true;
  for (const NodeInfo::Hot& h : lines) {
    summary.Add(h);
    all = all && check.Passes(h);
  }
  RC_ASSERT(check.PassesAll(summary) == all);
}

}  // namespace
}  // namespace schedref::optimized::framework
