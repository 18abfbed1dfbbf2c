#include "api/codec/cluster_dump.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "api/codec/scenario_decode.h"
#include "api/gocompat/go_duration.h"
#include "api/types/scenario.h"

namespace schedref::api {
namespace {

std::string TempDir() {
  const char* dir = std::getenv("TEST_TMPDIR");
  return dir != nullptr ? dir : "/tmp";
}

// Writes `text` to a fresh file under the test's temporary directory.
std::string WriteFile(const std::string& name, const std::string& text) {
  const std::string path = TempDir() + "/" + name;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  return path;
}

std::string NodeYaml(const std::string& name) {
  return "- apiVersion: v1\n  kind: Node\n  metadata: {name: " + name +
         ", resourceVersion: '7', managedFields: [{manager: kubelet}]}\n"
         "  status: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}, conditions: "
         "[{type: Ready, status: 'True'}]}\n";
}

// A pod list item; `extra_spec` and `extra_meta` are flow-mapping entries.
std::string PodYaml(const std::string& ns, const std::string& name, const std::string& node,
                    const std::string& created, const std::string& extra_spec = "",
                    const std::string& extra_meta = "", const std::string& phase = "Running") {
  return "- apiVersion: v1\n  kind: Pod\n  metadata: {name: " + name + ", namespace: " + ns +
         ", uid: u-" + ns + "-" + name + ", creationTimestamp: '" + created + "'" +
         (extra_meta.empty() ? "" : ", " + extra_meta) +
         "}\n  spec: {containers: [{name: c, resources: {requests: {cpu: 100m}}}]" +
         (node.empty() ? "" : ", nodeName: " + node) +
         (extra_spec.empty() ? "" : ", " + extra_spec) + "}\n  status: {phase: " + phase +
         ", containerStatuses: [{name: c, ready: true}]}\n";
}

std::string List(const std::string& items) {
  return "apiVersion: v1\nkind: List\nmetadata: {resourceVersion: ''}\nitems:\n" + items;
}

std::vector<std::string> Arrivals(const Scenario& s) {
  std::vector<std::string> out;
  for (const Event& e : s.timeline) {
    if (e.op == Event::Op::kCreate) out.push_back(FormatDurationMs(e.at) + " " + e.name);
  }
  return out;
}

bool HasMessage(const ClusterScenario& c, const std::string& text) {
  for (const std::string& m : c.messages) {
    if (m == text) return true;
  }
  return false;
}

const Pod* InitialPod(const Scenario& s, const std::string& key) {
  for (const Pod& p : s.initial.pods) {
    if (p.Key() == key) return &p;
  }
  return nullptr;
}

TEST(ClusterDumpTest, PendingPodsArriveInQueueSortOrder) {
  const std::string dump = WriteFile(
      "order.yaml",
      List(NodeYaml("n1") +
           PodYaml("b", "late", "", "2025-01-01T00:00:09Z", "priority: 5") +
           PodYaml("b", "early", "", "2025-01-01T00:00:01Z", "priority: 5") +
           PodYaml("a", "same-time", "", "2025-01-01T00:00:01Z", "priority: 5") +
           PodYaml("z", "high", "", "2025-01-01T00:00:30Z", "priority: 100") +
           PodYaml("z", "bound", "n1", "2025-01-01T00:00:00Z")));
  StatusOr<ClusterScenario> c = BuildClusterScenario({{dump}, "", ""});
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(Arrivals(c->scenario),
            (std::vector<std::string>{"0s z/high", "1ms a/same-time", "2ms b/early",
                                      "3ms b/late"}));
  ASSERT_EQ(c->scenario.initial.pods.size(), 1u);
  EXPECT_EQ(c->scenario.initial.pods[0].Key(), "z/bound");
  // The latest creationTimestamp: 2025-01-01T00:00:30Z.
  EXPECT_EQ(c->scenario.start_time, 1735689630000);
  // The run settles for a minute after the last arrival.
  EXPECT_EQ(c->scenario.timeline.back().op, Event::Op::kAdvance);
  EXPECT_EQ(c->scenario.timeline.back().at, 3 + 60000);
}

TEST(ClusterDumpTest, SkipsUnreadKindsOncePerKind) {
  const std::string dump = WriteFile(
      "kinds.yaml",
      List(NodeYaml("n1") +
           "- {apiVersion: apps/v1, kind: Deployment, metadata: {name: d1, namespace: x}}\n"
           "- {apiVersion: apps/v1, kind: Deployment, metadata: {name: d2, namespace: x}}\n"
           "- {apiVersion: example.com/v1, kind: Widget, metadata: {name: w}}\n") +
          "---\n"
          "apiVersion: v1\nkind: PodList\nitems:\n"
          "- metadata: {name: p, namespace: x}\n  spec: {containers: [{name: c}]}\n");
  StatusOr<ClusterScenario> c = BuildClusterScenario({{dump}, "", ""});
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_TRUE(HasMessage(
      *c, "warning: skipped 2 Deployment objects (the scheduler does not read them)"));
  EXPECT_TRUE(
      HasMessage(*c, "warning: skipped 1 Widget object (the scheduler does not read them)"));
  EXPECT_EQ(Arrivals(c->scenario), (std::vector<std::string>{"0s x/p"}));
}

TEST(ClusterDumpTest, TerminalPodsAreDroppedTerminatingPodsGoAtTheirDeletionTime) {
  const std::string dump = WriteFile(
      "phases.yaml",
      List(NodeYaml("n1") + PodYaml("a", "done", "n1", "2025-01-01T00:00:00Z", "", "",
                                    "Succeeded") +
           PodYaml("a", "failed", "n1", "2025-01-01T00:00:00Z", "", "", "Failed") +
           PodYaml("a", "going", "n1", "2025-01-01T00:00:00Z", "",
                   "deletionTimestamp: '2025-01-01T00:00:40Z'") +
           PodYaml("a", "overdue", "n1", "2025-01-01T00:00:00Z", "",
                   "deletionTimestamp: '2024-12-31T00:00:00Z'") +
           PodYaml("a", "new", "", "2025-01-01T00:00:10Z")));
  StatusOr<ClusterScenario> c = BuildClusterScenario({{dump}, "", ""});
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(InitialPod(c->scenario, "a/done"), nullptr);
  EXPECT_EQ(InitialPod(c->scenario, "a/failed"), nullptr);
  EXPECT_NE(InitialPod(c->scenario, "a/going"), nullptr);
  std::vector<std::string> deletes;
  for (const Event& e : c->scenario.timeline) {
    if (e.op == Event::Op::kDelete) deletes.push_back(std::to_string(e.at) + " " + e.name);
  }
  // Start 00:00:10; the overdue pod waits for the last arrival (t=0).
  EXPECT_EQ(deletes, (std::vector<std::string>{"1 a/overdue", "30000 a/going"}));
  EXPECT_TRUE(HasMessage(*c,
                         "note: dropped 2 pods in phase Succeeded or Failed (the scheduler's "
                         "informer selects status.phase!=Succeeded,status.phase!=Failed)"));
}

TEST(ClusterDumpTest, MissingPriorityClassKeepsTheAdmittedPriority) {
  const std::string dump = WriteFile(
      "classes.yaml",
      List("- {apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: {name: "
           "known}, value: 7}\n" +
           NodeYaml("n1") +
           PodYaml("a", "p1", "n1", "2025-01-01T00:00:00Z",
                   "priorityClassName: gone, priority: 900") +
           PodYaml("a", "p2", "", "2025-01-01T00:00:00Z",
                   "priorityClassName: gone, priority: 900") +
           PodYaml("a", "p3", "", "2025-01-01T00:00:00Z", "priorityClassName: known, priority: 7") +
           PodYaml("a", "p4", "", "2025-01-01T00:00:00Z",
                   "priorityClassName: known, priority: 8")));
  StatusOr<ClusterScenario> c = BuildClusterScenario({{dump}, "", ""});
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_TRUE(HasMessage(*c,
                         "warning: PriorityClass gone is not in the dump: 2 pods keep the "
                         "spec.priority admission gave them (0 if none)"));
  EXPECT_TRUE(HasMessage(*c,
                         "warning: PriorityClass known disagrees with the priority or "
                         "preemptionPolicy of 1 pod that name it; they keep their own"));
  const Pod* p1 = InitialPod(c->scenario, "a/p1");
  ASSERT_NE(p1, nullptr);
  EXPECT_EQ(p1->priority, 900);
  EXPECT_EQ(Arrivals(c->scenario),
            (std::vector<std::string>{"0s a/p2", "1ms a/p4", "2ms a/p3"}));
  for (const Event& e : c->scenario.timeline) {
    if (e.name == "a/p3") EXPECT_EQ(std::get<Pod>(e.object).priority_class_name, "known");
  }
}

TEST(ClusterDumpTest, AsPendingTakesABoundPodOffItsNode) {
  const std::string dump = WriteFile(
      "aspending.yaml",
      List(NodeYaml("n1") + PodYaml("a", "new", "", "2025-01-01T00:00:00Z", "priority: 1000") +
           PodYaml("a", "web", "n1", "2025-01-01T00:00:05Z")));
  StatusOr<ClusterScenario> c = BuildClusterScenario({{dump}, "", "a/web"});
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(Arrivals(c->scenario), (std::vector<std::string>{"0s a/web", "1ms a/new"}));
  const Pod& web = std::get<Pod>(c->scenario.timeline[0].object);
  EXPECT_EQ(web.node_name, "");
  EXPECT_EQ(web.phase, "Pending");

  StatusOr<ClusterScenario> missing = BuildClusterScenario({{dump}, "", "a/nope"});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("--as-pending a/nope: no such pod"),
            std::string::npos);
}

TEST(ClusterDumpTest, ConfigFileProfilesDecideWhichPodsAreScheduled) {
  const std::string dump = WriteFile(
      "profiles.yaml",
      List(NodeYaml("n1") +
           PodYaml("a", "mine", "", "2025-01-01T00:00:00Z", "schedulerName: packer") +
           PodYaml("a", "theirs", "", "2025-01-01T00:00:00Z", "schedulerName: other")));
  const std::string config = WriteFile(
      "sched.yaml",
      "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
      "clientConnection: {kubeconfig: /etc/kubernetes/scheduler.conf}\n"
      "profiles:\n- schedulerName: packer\n  pluginConfig:\n  - name: NodeResourcesFit\n"
      "    args: {scoringStrategy: {type: MostAllocated}}\n");
  StatusOr<ClusterScenario> c = BuildClusterScenario({{dump}, config, ""});
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(Arrivals(c->scenario), (std::vector<std::string>{"0s a/mine"}));
  EXPECT_NE(InitialPod(c->scenario, "a/theirs"), nullptr);
  ASSERT_EQ(c->scenario.config.profiles.size(), 1u);
  EXPECT_EQ(c->scenario.config.profiles[0].scheduler_name, "packer");
}

TEST(ClusterDumpTest, WarnsOfPodsOnNodesTheDumpLacks) {
  const std::string dump = WriteFile(
      "ghost.yaml", List(NodeYaml("n1") + PodYaml("a", "p", "gone", "2025-01-01T00:00:00Z") +
                         PodYaml("a", "q", "gone", "2025-01-01T00:00:00Z")));
  StatusOr<ClusterScenario> c = BuildClusterScenario({{dump}, "", ""});
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_TRUE(HasMessage(*c,
                         "warning: Node gone is not in the dump: 2 pods bound to it take room "
                         "on no node that can be chosen"));
}

TEST(ClusterDumpTest, TheTextDecodesToTheScenario) {
  const std::string dump = WriteFile(
      "roundtrip.yaml",
      List(NodeYaml("n1") + PodYaml("a", "b", "n1", "2025-01-01T00:00:00Z") +
           PodYaml("a", "p", "", "2025-01-01T00:00:03Z", "priorityClassName: gone, priority: 3",
                   "deletionTimestamp: '2025-01-01T00:01:00Z'")));
  StatusOr<ClusterScenario> c = BuildClusterScenario({{dump}, "", ""});
  ASSERT_TRUE(c.ok()) << c.status().message();
  StatusOr<Scenario> again = DecodeScenario(c->text, c->scenario.file);
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(*again, c->scenario);
}

TEST(ClusterDumpTest, ADirectoryIsReadInNameOrder) {
  const std::string dir = TempDir() + "/dumpdir";
  WriteFile("dumpdir/2-pods.json",
            R"({"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Pod",)"
            R"("metadata":{"name":"p","namespace":"a"},"spec":{"containers":[{"name":"c"}]}}]})");
  WriteFile("dumpdir/1-nodes.yaml", List(NodeYaml("n1")));
  WriteFile("dumpdir/notes.txt", "not a manifest");
  StatusOr<ClusterScenario> c = BuildClusterScenario({{dir}, "", ""});
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c->inputs, (std::vector<std::string>{dir + "/1-nodes.yaml", dir + "/2-pods.json"}));
}

struct BadCase {
  const char* name;
  std::string dump;     // written to bad-<name>.yaml
  std::string config;   // written to bad-<name>-config.yaml when not empty
  std::string message;  // a part of the error, after the file's path
};

TEST(ClusterDumpTest, BadInputIsLocated) {
  const std::vector<BadCase> cases = {
      {"quantity",
       List(NodeYaml("n1") + PodYaml("default", "web-0", "", "2025-01-01T00:00:00Z",
                                     "overhead: {cpu: lots}")),
       "", ".yaml: Pod default/web-0: items[1].spec.overhead.cpu: quantity \"lots\""},
      {"twice", List(NodeYaml("n1") + NodeYaml("n1")), "",
       ".yaml: Node n1: items[1]: defined twice (first in "},
      {"uid",
       List(PodYaml("a", "p", "", "2025-01-01T00:00:00Z", "", "") +
            "- apiVersion: v1\n  kind: Pod\n  metadata: {name: q, namespace: a, uid: u-a-p}\n"
            "  spec: {containers: [{name: c}]}\n"),
       "", ".yaml: Pod a/q: items[1].metadata.uid: Duplicate value: \"u-a-p\" (the uid of Pod a/p"},
      {"nokind", List("- {apiVersion: v1, metadata: {name: x}}\n"), "",
       "items[0].kind: required field is missing"},
      {"config-version", List(NodeYaml("n1")), "kind: KubeSchedulerConfiguration\n",
       "-config.yaml: apiVersion: required field is missing"},
      {"config-flag", List(NodeYaml("n1")),
       "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
       "podMaxInUnschedulablePodsSeconds: 60\n",
       "-config.yaml: podMaxInUnschedulablePodsSeconds: unknown field"},
      {"config-field", List(NodeYaml("n1")),
       "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
       "profiles: [{schedulerName: a, plugins: {score: x}}]\n",
       "-config.yaml: profiles[0].plugins.score: expected object, got string"},
  };
  for (const BadCase& tc : cases) {
    SCOPED_TRACE(tc.name);
    const std::string dump = WriteFile(std::string("bad-") + tc.name + ".yaml", tc.dump);
    const std::string config =
        tc.config.empty() ? ""
                          : WriteFile(std::string("bad-") + tc.name + "-config.yaml", tc.config);
    StatusOr<ClusterScenario> c = BuildClusterScenario({{dump}, config, ""});
    ASSERT_FALSE(c.ok());
    EXPECT_NE(c.status().message().find(tc.message), std::string::npos) << c.status().message();
    EXPECT_NE(c.status().message().find(std::string("bad-") + tc.name), std::string::npos);
  }
}

}  // namespace
}  // namespace schedref::api
