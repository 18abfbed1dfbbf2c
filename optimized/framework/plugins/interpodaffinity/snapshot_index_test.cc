// Tests for SnapshotIndex: over a snapshot maintained the way the cache
// maintains it, while pods come and go and nodes join and leave the list,
// every position and every total equals a recount from the snapshot.
#include "optimized/framework/plugins/interpodaffinity/snapshot_index.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "optimized/framework/testing/fixtures.h"
#include "testing/st/wrappers.h"

namespace schedref::optimized::framework::plugins::interpodaffinity {
namespace {

// One of four pods: plain, with a preferred term, with required affinity,
// or with two required anti-affinity terms.
api::Pod SomePod(std::mt19937& rng, const std::string& name, const std::string& node) {
  st::PodWrapper p = st::MakePod().Name(name).Node(node).Label("app", name);
  switch (rng() % 4) {
    case 1: p.PreferredPodAffinityExists(5, "app", "host"); break;
    case 2: p.PodAffinityExists("app", "host"); break;
    case 3: p.PodAntiAffinityExists("app", "host").PodAntiAffinityExists("tier", "zone"); break;
    default: break;
  }
  return p.Obj();
}

int64_t Total(const SnapshotIndex::ClassCounts& counts) {
  int64_t n = 0;
  for (const SnapshotIndex::ClassCount& c : counts) n += c.count;
  return n;
}

TEST(SnapshotIndexTest, TotalsFollowPodAndNodeListChanges) {
  for (uint32_t seed = 1; seed <= 30; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 rng(seed);
    std::vector<api::Node> nodes;
    std::vector<api::Pod> pods;
    for (int i = 0; i < 6; ++i) {
      const std::string name = "n" + std::to_string(i);
      nodes.push_back(st::MakeNode().Name(name).Label("host", name).Obj());
      for (int k = static_cast<int>(rng() % 3); k > 0; --k) {
        pods.push_back(SomePod(rng, "p" + std::to_string(pods.size()), name));
      }
    }
    std::unique_ptr<Snapshot> snapshot = testing::MakeSnapshot(nodes, pods);
    testing::SnapshotStepper stepper(*snapshot);
    SnapshotIndex index;
    int next = 0;
    for (int step = 0; step < 60; ++step) {
      SCOPED_TRACE("step " + std::to_string(step));
      const std::vector<NodeInfo*>& list = snapshot->List();
      const std::string target = list[rng() % list.size()]->Name();
      switch (rng() % 5) {
        case 0: {  // a node joins at the end, with a pod or not
          const std::string name = "added" + std::to_string(next++);
          stepper.AddNode(st::MakeNode().Name(name).Label("host", name).Obj());
          if (rng() % 2 == 0) {
            stepper.Step(name, [&](NodeInfo& info) {
              info.AddPod(NewPodInfo(SomePod(rng, "q" + std::to_string(next++), name)));
            });
          }
          break;
        }
        case 1:  // a node leaves, from anywhere in the list
          if (list.size() > 1) stepper.RemoveNode(target);
          break;
        case 2:
        case 3:
          stepper.Step(target, [&](NodeInfo& info) {
            info.AddPod(NewPodInfo(SomePod(rng, "q" + std::to_string(next++), target)));
          });
          break;
        default:
          stepper.Step(target, [&](NodeInfo& info) {
            if (!info.pods().empty()) {
              ASSERT_TRUE(info.RemovePod(info.pods()[rng() % info.pods().size()]->uid()));
            }
          });
      }
      // Refreshed every other step, so that some refreshes see two changes.
      if (step % 2 == 1) continue;
      index.Refresh(*snapshot);
      int64_t preferred = 0, required = 0, with_anti = 0;
      std::vector<int64_t> term_totals(static_cast<size_t>(index.NumTermClasses()), 0);
      for (size_t pos = 0; pos < snapshot->List().size(); ++pos) {
        const NodeInfo& info = *snapshot->List()[pos];
        int64_t anti_terms = 0;
        for (const PodInfoPtr& p : info.pods()) {
          if (!p->preferred_affinity_terms.empty() || !p->preferred_anti_affinity_terms.empty()) {
            ++preferred;
          }
          if (!p->required_affinity_terms.empty()) ++required;
          anti_terms += static_cast<int64_t>(p->required_anti_affinity_terms.size());
        }
        with_anti += anti_terms > 0 ? 1 : 0;
        ASSERT_EQ(Total(index.PodClasses(pos)), static_cast<int64_t>(info.pods().size())) << pos;
        ASSERT_EQ(Total(index.AntiTermClasses(pos)), anti_terms) << pos;
        for (const SnapshotIndex::ClassCount& e : index.AntiTermClasses(pos)) {
          term_totals[e.cls] += e.count;
        }
        ASSERT_EQ((*index.nodes())[pos], info.node()) << pos;
      }
      ASSERT_EQ(index.PodsWithPreferredTerms(), preferred);
      ASSERT_EQ(index.PodsWithRequiredAffinity(), required);
      ASSERT_EQ(index.PositionsWithAntiTerms(), with_anti);
      for (int32_t cls = 0; cls < index.NumTermClasses(); ++cls) {
        ASSERT_EQ(index.TermClassTotal(cls), term_totals[cls]) << cls;
      }
    }
  }
}

}  // namespace
}  // namespace schedref::optimized::framework::plugins::interpodaffinity
