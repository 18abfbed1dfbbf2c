// The nominator (upstream nominator.go). The queue tests transcribed from
// upstream exercise it through the queue; these pin its own rules.
#include "optimized/backend/queue/nominator.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "testing/st/wrappers.h"

namespace schedref::optimized::backend::queue {
namespace {

using Keys = std::vector<std::string>;
using ByNode = std::map<std::string, Keys>;

framework::PodInfoPtr Pod(const std::string& name, const std::string& nominated = "") {
  return framework::NewPodInfo(st::MakePod().Name(name).NominatedNodeName(nominated).Obj());
}

NominatingInfo Override(const std::string& node) {
  return NominatingInfo{NominatingInfo::kOverride, node};
}

TEST(NominatorTest, AddTakesOverrideElseTheObjectsNomination) {
  struct Case {
    std::string name;
    framework::PodInfoPtr pod;
    std::optional<NominatingInfo> info;
    ByNode want;
  };
  const std::vector<Case> cases = {
      {"object's nominatedNodeName", Pod("a", "n1"), std::nullopt, {{"n1", {"default/a"}}}},
      {"noop keeps the object's", Pod("a", "n1"), NominatingInfo{}, {{"n1", {"default/a"}}}},
      {"no nomination at all", Pod("a"), std::nullopt, {}},
      {"override wins", Pod("a", "n1"), Override("n2"), {{"n2", {"default/a"}}}},
      {"override with empty files under node \"\"", Pod("a", "n1"), Override(""),
       {{"", {"default/a"}}}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Nominator n;
    n.Add(c.pod, c.info, nullptr);
    EXPECT_EQ(n.PodKeysByNode(), c.want);
  }
}

TEST(NominatorTest, ListerRejectsMissingAndBoundPods) {
  Nominator n;
  std::map<std::string, api::Pod> server;
  PodLister lister = [&](const std::string& key) -> std::optional<api::Pod> {
    auto it = server.find(key);
    if (it == server.end()) return std::nullopt;
    return it->second;
  };
  framework::PodInfoPtr a = Pod("a", "n1");
  n.Add(a, std::nullopt, lister);
  EXPECT_TRUE(n.Empty());
  server["default/a"] = st::MakePod().Name("a").Node("n9").Obj();
  n.Add(a, std::nullopt, lister);
  EXPECT_TRUE(n.Empty());
  server["default/a"] = a->pod;
  n.Add(a, std::nullopt, lister);
  EXPECT_EQ(n.NodeOf(a->uid()), "n1");
  // A rejected re-nomination still drops the old one.
  server.erase("default/a");
  n.Add(a, Override("n2"), lister);
  EXPECT_FALSE(n.NodeOf(a->uid()).has_value());
}

TEST(NominatorTest, OneNominationPerPodInOrder) {
  Nominator n;
  n.Add(Pod("a", "n1"), std::nullopt, nullptr);
  n.Add(Pod("b", "n1"), std::nullopt, nullptr);
  n.Add(Pod("c", "n1"), std::nullopt, nullptr);
  EXPECT_EQ(n.PodKeysByNode(), (ByNode{{"n1", {"default/a", "default/b", "default/c"}}}));
  // Re-nominating moves the pod to the end of its (new) node's list.
  n.Add(Pod("a", "n1"), std::nullopt, nullptr);
  EXPECT_EQ(n.PodKeysByNode(), (ByNode{{"n1", {"default/b", "default/c", "default/a"}}}));
  n.Delete(Pod("c")->pod);
  EXPECT_EQ(n.PodKeysByNode(), (ByNode{{"n1", {"default/b", "default/a"}}}));
  n.Delete(Pod("b")->pod);
  n.Delete(Pod("a")->pod);
  EXPECT_TRUE(n.PodKeysByNode().empty());
  EXPECT_EQ(n.PodsForNode("n1"), nullptr);
  n.Delete(Pod("a")->pod);  // no-op
}

TEST(NominatorTest, UpdateKeepsAnInMemoryNomination) {
  Nominator n;
  framework::PodInfoPtr a = Pod("a");
  n.Add(a, Override("n3"), nullptr);
  framework::PodInfoPtr relabelled =
      framework::NewPodInfo(st::MakePod().Name("a").Label("x", "y").Obj());
  n.Update(a->pod, relabelled, nullptr);
  ASSERT_NE(n.PodsForNode("n3"), nullptr);
  EXPECT_EQ(n.PodsForNode("n3")->front(), relabelled);
  // An object naming a node replaces the in-memory one.
  framework::PodInfoPtr named = Pod("a", "n4");
  n.Update(relabelled->pod, named, nullptr);
  EXPECT_EQ(n.PodKeysByNode(), (ByNode{{"n4", {"default/a"}}}));
  // The old object naming a node: no memory kept, new object names none.
  n.Update(named->pod, Pod("a"), nullptr);
  EXPECT_TRUE(n.Empty());
}

// The change log names every node whose nominated pods, as the queue
// reports them, may differ from the last TakeChanges: the scheduler keeps
// its nominated-pods view between cycles by it.
TEST(NominatorTest, ChangeLogNamesTheNodesThatChanged) {
  using Sorted = std::vector<std::string>;
  auto take = [](Nominator& n) {
    Nominator::Changes c = n.TakeChanges();
    std::sort(c.nodes.begin(), c.nodes.end());
    c.nodes.erase(std::unique(c.nodes.begin(), c.nodes.end()), c.nodes.end());
    return std::make_pair(c.all, c.nodes);
  };
  Nominator n;
  EXPECT_EQ(take(n), std::make_pair(true, Sorted{})) << "the first answer is everything";
  EXPECT_EQ(take(n), std::make_pair(false, Sorted{}));

  framework::PodInfoPtr a = Pod("a", "n1");
  framework::PodInfoPtr b = Pod("b", "n2");
  n.Add(a, std::nullopt, nullptr);
  n.Add(b, std::nullopt, nullptr);
  EXPECT_EQ(take(n), std::make_pair(false, Sorted{"n1", "n2"}));

  // Renominating moves the pod: both its old and its new node changed.
  n.Add(a, Override("n3"), nullptr);
  EXPECT_EQ(take(n), std::make_pair(false, Sorted{"n1", "n3"}));

  // A queue entry of a nominated key changes its node's answer; others none.
  n.NoteQueueEntryChanged("default/b");
  n.NoteQueueEntryChanged("default/nobody");
  EXPECT_EQ(take(n), std::make_pair(false, Sorted{"n2"}));

  n.Delete(b->pod);
  EXPECT_EQ(take(n), std::make_pair(false, Sorted{"n2"}));
  n.NoteQueueEntryChanged("default/b");
  EXPECT_EQ(take(n), std::make_pair(false, Sorted{})) << "b is no longer nominated";

  // A long log turns into `all` instead of growing.
  for (int i = 0; i < 5000; ++i) n.NoteQueueEntryChanged("default/a");
  EXPECT_EQ(take(n), std::make_pair(true, Sorted{}));
}

}  // namespace
}  // namespace schedref::optimized::backend::queue
