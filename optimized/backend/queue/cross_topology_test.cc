// The legacy cross-topology pre-filter (upstream
// getUnschedulablePodsWithCrossTopologyTerm and AffinityTerm.Matches).
// Ported from reference/backend/queue/cross_topology_test.cc; label
// selector matching itself is api::Matches, tested in api/types/labels_test.cc.
#include "optimized/backend/queue/cross_topology.h"

#include "gtest/gtest.h"
#include "testing/st/wrappers.h"

namespace schedref::optimized::backend::queue {
namespace {

framework::QueuedPodInfo Info(const api::Pod& pod,
                              std::set<std::string> plugins = {}) {
  framework::QueuedPodInfo info;
  info.pod_info = framework::NewPodInfo(pod);
  info.unschedulable_plugins = std::move(plugins);
  return info;
}

TEST(CrossTopologyTest, RequiredAffinityTerm) {
  api::Pod pending = st::MakePod()
                         .Name("p")
                         .Namespace("ns1")
                         .PodAffinityExists("service", "zone")
                         .Obj();
  api::Pod same_ns = st::MakePod()
                         .Name("a")
                         .Namespace("ns1")
                         .Label("service", "x")
                         .Node("n")
                         .Obj();
  api::Pod other_ns = st::MakePod()
                          .Name("a")
                          .Namespace("ns2")
                          .Label("service", "x")
                          .Node("n")
                          .Obj();
  api::Pod unlabelled =
      st::MakePod().Name("a").Namespace("ns1").Node("n").Obj();
  // Term namespaces default to the pending pod's own.
  EXPECT_TRUE(HasCrossTopologyTermMatching(Info(pending), same_ns, {}));
  EXPECT_FALSE(HasCrossTopologyTermMatching(Info(pending), other_ns, {}));
  EXPECT_FALSE(HasCrossTopologyTermMatching(Info(pending), unlabelled, {}));
  // Anti-affinity terms do not count.
  api::Pod anti = st::MakePod()
                      .Name("p")
                      .Namespace("ns1")
                      .PodAntiAffinityExists("service", "zone")
                      .Obj();
  EXPECT_FALSE(HasCrossTopologyTermMatching(Info(anti), same_ns, {}));
}

TEST(CrossTopologyTest, NamespacesAndSelector) {
  api::PodAffinityTerm term;
  term.label_selector = api::LabelSelector{};
  term.namespaces = {"listed"};
  term.namespace_selector = api::LabelSelector{{{"team", "a"}}, {}};
  api::Pod pending =
      st::MakePod().Name("p").Namespace("ns1").PodAffinityTerm(term).Obj();
  api::Pod in_listed =
      st::MakePod().Name("a").Namespace("listed").Node("n").Obj();
  api::Pod in_other =
      st::MakePod().Name("a").Namespace("other").Node("n").Obj();
  EXPECT_TRUE(HasCrossTopologyTermMatching(Info(pending), in_listed, {}));
  EXPECT_FALSE(HasCrossTopologyTermMatching(Info(pending), in_other, {}));
  EXPECT_TRUE(
      HasCrossTopologyTermMatching(Info(pending), in_other, {{"team", "a"}}));
  // An absent label selector matches nothing.
  term.label_selector.reset();
  api::Pod no_selector =
      st::MakePod().Name("p").Namespace("ns1").PodAffinityTerm(term).Obj();
  EXPECT_FALSE(HasCrossTopologyTermMatching(Info(no_selector), in_listed, {}));
}

// The terms are read as written: matchLabelKeys are not merged in (unlike
// PodInfo's required_affinity_terms), as the reference does.
TEST(CrossTopologyTest, MatchLabelKeysAreNotMerged) {
  api::PodAffinityTerm term;
  term.label_selector = api::LabelSelector{{{"service", "x"}}, {}};
  term.match_label_keys = {"version"};
  term.topology_key = "zone";
  api::Pod pending = st::MakePod()
                         .Name("p")
                         .Namespace("ns1")
                         .Label("version", "1")
                         .PodAffinityTerm(term)
                         .Obj();
  api::Pod other_version = st::MakePod()
                               .Name("a")
                               .Namespace("ns1")
                               .Label("service", "x")
                               .Label("version", "2")
                               .Node("n")
                               .Obj();
  EXPECT_TRUE(HasCrossTopologyTermMatching(Info(pending), other_version, {}));
}

TEST(CrossTopologyTest, RejectedByPodTopologySpread) {
  api::Pod pending = st::MakePod().Name("p").Namespace("ns1").Obj();
  api::Pod same_ns = st::MakePod().Name("a").Namespace("ns1").Node("n").Obj();
  api::Pod other_ns = st::MakePod().Name("a").Namespace("ns2").Node("n").Obj();
  EXPECT_TRUE(HasCrossTopologyTermMatching(
      Info(pending, {kPodTopologySpreadPlugin}), same_ns, {}));
  EXPECT_FALSE(HasCrossTopologyTermMatching(
      Info(pending, {kPodTopologySpreadPlugin}), other_ns, {}));
  EXPECT_FALSE(
      HasCrossTopologyTermMatching(Info(pending, {"Other"}), same_ns, {}));
}

}  // namespace
}  // namespace schedref::optimized::backend::queue
