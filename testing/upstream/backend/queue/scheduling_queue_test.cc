// Transcribed from upstream
// pkg/scheduler/backend/queue/scheduling_queue_test.go as of the v1.32
// development tree (read at
// AxeZhan/kubernetes@e060ec1c056fd5b4e6f3eb1f107a7a3f4d002a37, the same
// tree as the source in scheduling_queue.h), run against both
// implementations' queues (impl.h). Each TEST names its upstream test.
// Differences that are not just syntax:
// - Upstream reaches into private fields (podBackoffQ.AddOrUpdate,
//   unschedulablePods.addOrUpdate, activeQ.underLock). Here pods get there
//   through the public API (Add, Pop, AddUnschedulableIfNotPresent), and
//   results are read through the introspection methods.
// - Event resources schedref does not model (PersistentVolume, PVC,
//   CSINode) are stood in for by kinds it does (see the Pv* events below);
//   only their distinctness matters to these tests.
// - The fake clock is the `now` argument; times are milliseconds.
#include <algorithm>
#include <climits>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "testing/upstream/backend/queue/impl.h"

namespace SCHEDREF_QUEUE_NS {
namespace {

using framework::ClusterEvent;
using framework::EventResource;
using framework::QueuedPodInfo;
using Where = SchedulingQueue::Where;

constexpr api::TimeMs kT0 = 1'000'000'000;
constexpr int64_t kSecond = 1000;
constexpr int64_t kInitialBackoff = 1000;  // DefaultPodInitialBackoffDuration
constexpr int64_t kMaxInUnschedulable =
    300'000;  // DefaultPodMaxInUnschedulablePodsDuration
constexpr char kProfile[] = "default-scheduler";

// --- fakes
// --------------------------------------------------------------------

// upstream queuesort.PrioritySort
class PrioritySort : public framework::QueueSortPlugin {
 public:
  std::string Name() const override { return "PrioritySort"; }
  bool Less(const QueuedPodInfo& a, const QueuedPodInfo& b) const override {
    int32_t pa = PodOf(a).priority.value_or(0);
    int32_t pb = PodOf(b).priority.value_or(0);
    return pa > pb || (pa == pb && a.timestamp < b.timestamp);
  }
};

// upstream preEnqueuePlugin: admits pods carrying one of the allowed labels.
class AllowlistPreEnqueue : public framework::PreEnqueuePlugin {
 public:
  explicit AllowlistPreEnqueue(std::vector<std::string> allowlist)
      : allowlist_(std::move(allowlist)) {}
  std::string Name() const override { return "preEnqueuePlugin"; }
  framework::Status PreEnqueue(const api::Pod& pod) override {
    for (const std::string& allowed : allowlist_) {
      if (pod.labels.count(allowed) != 0) return framework::Status::Success();
    }
    return framework::Status(framework::Code::kUnschedulableAndUnresolvable,
                             "pod name not in allowlists");
  }

 private:
  std::vector<std::string> allowlist_;
};

// The SchedulingGates plugin's PreEnqueue (plugins/schedulinggates).
class FakeSchedulingGates : public framework::PreEnqueuePlugin {
 public:
  std::string Name() const override { return "SchedulingGates"; }
  framework::Status PreEnqueue(const api::Pod& pod) override {
    if (pod.scheduling_gates.empty()) return framework::Status::Success();
    return framework::Status(framework::Code::kUnschedulableAndUnresolvable,
                             "waiting for scheduling gates");
  }
};

// Counts the calls of the hint functions made by HintReturning.
int g_hint_calls = 0;

framework::QueueingHintFn HintReturning(framework::QueueingHint hint) {
  return
      [hint](
          const api::Pod&, const auto&...) -> StatusOr<framework::QueueingHint> {
        ++g_hint_calls;
        return hint;
      };
}
framework::QueueingHintFn QueueHint() {
  return HintReturning(framework::QueueingHint::kQueue);
}
framework::QueueingHintFn SkipHint() {
  return HintReturning(framework::QueueingHint::kSkip);
}
framework::QueueingHintFn ErrorHint() {
  return
      [](const api::Pod&, const auto&...) -> StatusOr<framework::QueueingHint> {
        ++g_hint_calls;
        return schedref::Status::Invalid("unexpected error");
      };
}

// --- events
// -------------------------------------------------------------------

ClusterEvent NodeAdd() { return framework::NodeAdd(); }
ClusterEvent AssignedPodAdd() { return framework::AssignedPodAdd(); }
ClusterEvent WildCard() {
  return {EventResource::kWildCard, framework::kAll, "WildCardEvent"};
}
// Stand-ins for upstream's PvAdd, PvUpdate, PvcAdd and CSINodeUpdate.
ClusterEvent PvAdd() {
  return {EventResource::kNamespace, framework::kAdd, "PvAdd"};
}
ClusterEvent PvUpdate() {
  return {EventResource::kNamespace, framework::kUpdate, "PvUpdate"};
}
ClusterEvent PvcAdd() {
  return {EventResource::kPodDisruptionBudget, framework::kAdd, "PvcAdd"};
}
ClusterEvent CSINodeUpdate() {
  return {EventResource::kPriorityClass, framework::kUpdate, "CSINodeUpdate"};
}
ClusterEvent UnscheduledPodUpdate() {
  return framework::EventUnscheduledPodUpdate();
}

// --- queue construction
// ---------------------------------------------------------

struct Reg {
  ClusterEvent event;
  std::string plugin;
  framework::QueueingHintFn hint;
};

const framework::QueueSortPlugin* Sort() {
  static PrioritySort sort;
  return &sort;
}

struct QueueOptions {
  std::vector<Reg> hints;
  std::vector<framework::PreEnqueuePlugin*> pre_enqueue;
  SchedulingQueue::Options options;
};

std::unique_ptr<SchedulingQueue> NewQueue(QueueOptions q = {}) {
  SchedulingQueue::Profile profile;
  profile.pre_enqueue = q.pre_enqueue;
  for (Reg& r : q.hints) {
    profile.queueing_hints[r.plugin].push_back({r.event, r.hint});
  }
  std::map<std::string, SchedulingQueue::Profile> profiles;
  profiles[kProfile] = std::move(profile);
  return std::make_unique<SchedulingQueue>(q.options, Sort(),
                                           std::move(profiles));
}

std::unique_ptr<SchedulingQueue> NewLegacyQueue(QueueOptions q = {}) {
  q.options.queueing_hints_enabled = false;
  return NewQueue(std::move(q));
}

// --- fixtures (upstream's package-level pods)
// -------------------------------------

constexpr int32_t kLowPriority = 0, kMidPriority = 100, kHighPriority = 1000;
constexpr int32_t kMediumPriority = (kLowPriority + kHighPriority) / 2;

api::Pod HighPriorityPod() {
  return st::MakePod()
      .Name("hpp")
      .Namespace("ns1")
      .UID("hppns1")
      .Priority(kHighPriority)
      .Obj();
}
api::Pod HighPriNominatedPod() {
  return st::MakePod()
      .Name("hpp")
      .Namespace("ns1")
      .UID("hppns1")
      .Priority(kHighPriority)
      .NominatedNodeName("node1")
      .Obj();
}
api::Pod MedPriorityPod() {
  return st::MakePod()
      .Name("mpp")
      .Namespace("ns2")
      .UID("mppns2")
      .Priority(kMediumPriority)
      .NominatedNodeName("node1")
      .Obj();
}
api::Pod UnschedulablePod() {
  return st::MakePod()
      .Name("up")
      .Namespace("ns1")
      .UID("upns1")
      .Priority(kLowPriority)
      .NominatedNodeName("node1")
      .Obj();
}
api::Pod NonExistentPod() {
  return st::MakePod().Name("ne").Namespace("ns1").UID("nens1").Obj();
}
api::Pod ScheduledPod() {
  return st::MakePod()
      .Name("sp")
      .Namespace("ns1")
      .UID("spns1")
      .Node("foo")
      .Obj();
}

// upstream clonePod
api::Pod ClonePod(api::Pod pod, const std::string& name) {
  pod.name = name;
  pod.uid = name + pod.ns;
  return pod;
}

// upstream newQueuedPodInfoForLookup(pod, plugins...)
QueuedPodInfo InfoFor(const api::Pod& pod, std::set<std::string> plugins = {}) {
  QueuedPodInfo info;
  SetPod(info, pod);
  info.unschedulable_plugins = std::move(plugins);
  return info;
}

// upstream attemptQueuedPodInfo: a pod that was tried once.
QueuedPodInfo Attempted(QueuedPodInfo info) {
  info.attempts = 1;
  return info;
}

// upstream popPod
QueuedPodInfo PopPod(SchedulingQueue& q, const api::Pod& want) {
  std::optional<QueuedPodInfo> got = q.Pop();
  EXPECT_TRUE(got.has_value()) << "nothing to pop, want " << want.Key();
  if (!got.has_value()) return QueuedPodInfo{};
  EXPECT_EQ(PodOf(*got).uid, want.uid) << "popped " << PodOf(*got).Key();
  return *got;
}

void AddUnschedulable(SchedulingQueue& q, QueuedPodInfo info, api::TimeMs now) {
  schedref::Status s =
      q.AddUnschedulableIfNotPresent(std::move(info), q.SchedulingCycle(), now);
  ASSERT_TRUE(s.ok()) << s.message();
}

// Puts `pod` into unschedulable the way the scheduler does: Add, Pop, fail
// with `plugins`. The pod has Attempts 1 and timestamp `now`.
void MakeUnschedulable(SchedulingQueue& q, const api::Pod& pod,
                       std::set<std::string> plugins, api::TimeMs now) {
  ASSERT_TRUE(q.Add(pod, now).ok());
  QueuedPodInfo popped = PopPod(q, pod);
  popped.unschedulable_plugins = std::move(plugins);
  AddUnschedulable(q, popped, now);
  ASSERT_EQ(q.Locate(pod.Key()), Where::kUnschedulable);
}

// Puts `pod` into backoffQ: Add, Pop, fail with an error (no rejector).
void MakeBackingOff(SchedulingQueue& q, const api::Pod& pod, api::TimeMs now) {
  ASSERT_TRUE(q.Add(pod, now).ok());
  AddUnschedulable(q, PopPod(q, pod), now);
  ASSERT_EQ(q.Locate(pod.Key()), Where::kBackoff);
}

using Keys = std::vector<std::string>;

// --- tests
// --------------------------------------------------------------------------

// upstream TestPriorityQueue_Add
TEST(SchedulingQueueTest, Add) {
  auto q = NewQueue();
  ASSERT_TRUE(q->Add(MedPriorityPod(), kT0).ok());
  ASSERT_TRUE(q->Add(UnschedulablePod(), kT0).ok());
  ASSERT_TRUE(q->Add(HighPriorityPod(), kT0).ok());
  EXPECT_EQ(q->NominatedPodKeysByNode(),
            (std::map<std::string, Keys>{{"node1", {"ns2/mpp", "ns1/up"}}}));
  PopPod(*q, HighPriorityPod());
  PopPod(*q, MedPriorityPod());
  PopPod(*q, UnschedulablePod());
  // Popping does not drop nominations.
  EXPECT_EQ(q->NominatedPodKeysByNode().at("node1").size(), 2u);
}

// upstream TestPriorityQueue_AddWithReversePriorityLessFunc
TEST(SchedulingQueueTest, AddWithReversePriorityLessFunc) {
  auto q = NewQueue();
  ASSERT_TRUE(q->Add(MedPriorityPod(), kT0).ok());
  ASSERT_TRUE(q->Add(HighPriorityPod(), kT0).ok());
  PopPod(*q, HighPriorityPod());
  PopPod(*q, MedPriorityPod());
  EXPECT_FALSE(q->Pop().has_value());
}

// upstream Test_InFlightPods
TEST(SchedulingQueueTest, InFlightPods) {
  const api::Pod pod1 = st::MakePod().Name("targetpod").UID("pod1").Obj();
  const api::Pod pod2 = st::MakePod().Name("targetpod2").UID("pod2").Obj();
  const api::Pod pod3 = st::MakePod().Name("targetpod3").UID("pod3").Obj();

  // One action: exactly one of the fields is set.
  struct Action {
    std::optional<ClusterEvent> event_happens;
    std::optional<api::Pod> pod_popped;
    std::optional<api::Pod> pod_created;
    std::optional<QueuedPodInfo> pod_enqueued;
    std::function<void(SchedulingQueue&)> callback;
  };
  auto happens = [](ClusterEvent e) { return Action{e, {}, {}, {}, {}}; };
  auto popped = [](api::Pod p) { return Action{{}, p, {}, {}, {}}; };
  auto created = [](api::Pod p) { return Action{{}, {}, p, {}, {}}; };
  auto enqueued = [](QueuedPodInfo i) { return Action{{}, {}, {}, i, {}}; };
  auto callback = [](std::function<void(SchedulingQueue&)> f) {
    return Action{{}, {}, {}, {}, std::move(f)};
  };

  std::optional<QueuedPodInfo> popped_pod, popped_pod2;
  struct Case {
    std::string name;
    bool hints_enabled = true;
    std::vector<Reg> hints;
    std::vector<api::Pod> initial_pods;
    std::vector<Action> actions;
    Keys want_in_flight_pods = {};
    Keys want_in_flight_entries = {};
    std::optional<Keys> want_active = std::nullopt;
    std::optional<Keys> want_backoff = std::nullopt;
    Keys want_unschedulable = {};
  };
  auto in_flight = [](const api::Pod& p) { return "pod:" + p.Key(); };

  std::vector<Case> cases = {
      {"when SchedulingQueueHint is disabled, inFlightPods and inFlightEvents "
       "should be empty",
       false,
       {{PvAdd(), "fooPlugin1", QueueHint()}},
       {pod1},
       {popped(pod1), happens(PvAdd())},
       {},
       {}},
      {"Pod and interested events are registered in "
       "inFlightPods/inFlightEvents",
       true,
       {{PvAdd(), "fooPlugin1", QueueHint()}},
       {pod1},
       // PvcAdd: no pod in flight yet; PvUpdate: no plugin interested.
       {happens(PvcAdd()), popped(pod1), happens(PvAdd()), happens(PvUpdate())},
       {pod1.Key()},
       {in_flight(pod1), "PvAdd"}},
      {"Pod, registered in inFlightPods, is enqueued back to activeQ",
       true,
       {{PvAdd(), "fooPlugin1", QueueHint()},
        {NodeAdd(), "fooPlugin1", QueueHint()},
        {PvcAdd(), "fooPlugin1", QueueHint()}},
       {pod1, pod2},
       {happens(PvcAdd()), popped(pod1), happens(PvAdd()), popped(pod2),
        happens(NodeAdd()),
        // To backoffQ: no plugin is registered as unschedulable plugin.
        enqueued(Attempted(InfoFor(pod1)))},
       {pod2.Key()},
       {in_flight(pod2), "NodeAdd"},
       std::nullopt,
       Keys{"targetpod"}},
      {"All Pods registered in inFlightPods are enqueued back to activeQ",
       true,
       {{PvAdd(), "fooPlugin1", QueueHint()},
        {NodeAdd(), "fooPlugin1", QueueHint()},
        {PvcAdd(), "fooPlugin1", QueueHint()},
        {CSINodeUpdate(), "fooPlugin1", QueueHint()}},
       {pod1, pod2},
       {happens(PvcAdd()), popped(pod1), happens(PvAdd()), popped(pod2),
        happens(NodeAdd()), enqueued(Attempted(InfoFor(pod1))),
        happens(CSINodeUpdate()), enqueued(Attempted(InfoFor(pod2)))},
       {},
       {},
       std::nullopt,
       Keys{"targetpod", "targetpod2"}},
      {"One intermediate Pod registered in inFlightPods is enqueued back to "
       "activeQ",
       true,
       {{PvAdd(), "fooPlugin1", QueueHint()},
        {NodeAdd(), "fooPlugin1", QueueHint()},
        {AssignedPodAdd(), "fooPlugin1", QueueHint()}},
       {pod1, pod2, pod3},
       {happens(PvcAdd()), popped(pod1), happens(PvAdd()), popped(pod2),
        happens(NodeAdd()), popped(pod3), happens(AssignedPodAdd()),
        enqueued(Attempted(InfoFor(pod2)))},
       {pod1.Key(), pod3.Key()},
       {in_flight(pod1), "PvAdd", "NodeAdd", in_flight(pod3), "AssignedPodAdd"},
       std::nullopt,
       Keys{"targetpod2"}},
      {"pod is enqueued to queue without QueueingHint when SchedulingQueueHint "
       "is disabled",
       false,
       // Ignored: hints are disabled.
       {{AssignedPodAdd(), "fooPlugin1", SkipHint()}},
       {pod1},
       {popped(pod1), happens(AssignedPodAdd()),
        enqueued(Attempted(InfoFor(pod1, {"fooPlugin1"})))},
       {},
       {},
       std::nullopt,
       Keys{"targetpod"}},
      {"events before popping Pod are ignored when Pod is enqueued back to "
       "queue",
       true,
       {{AssignedPodAdd(), "fooPlugin1", SkipHint()}},
       {pod1},
       {happens(WildCard()), popped(pod1), happens(AssignedPodAdd()),
        enqueued(Attempted(InfoFor(pod1, {"fooPlugin1"})))},
       {},
       {},
       std::nullopt,
       std::nullopt,
       {"targetpod"}},
      {"pod is enqueued to backoff if no failed plugin",
       true,
       {{AssignedPodAdd(), "fooPlugin1", QueueHint()}},
       {pod1},
       {popped(pod1), happens(AssignedPodAdd()),
        enqueued(Attempted(InfoFor(pod1)))},
       {},
       {},
       std::nullopt,
       Keys{"targetpod"}},
      {"pod is enqueued to unschedulable pod pool if no events that can make "
       "the pod schedulable",
       true,
       // No hint for NodeAdd.
       {{AssignedPodAdd(), "fooPlugin1", QueueHint()}},
       {pod1},
       {popped(pod1), happens(NodeAdd()),
        enqueued(Attempted(InfoFor(pod1, {"fooPlugin1"})))},
       {},
       {},
       std::nullopt,
       std::nullopt,
       {"targetpod"}},
      {"pod is enqueued to unschedulable pod pool because the failed plugin "
       "has a hint fn but it returns Skip",
       true,
       {{AssignedPodAdd(), "fooPlugin1", SkipHint()}},
       {pod1},
       {popped(pod1), happens(AssignedPodAdd()),
        enqueued(Attempted(InfoFor(pod1, {"fooPlugin1"})))},
       {},
       {},
       std::nullopt,
       std::nullopt,
       {"targetpod"}},
      {"pod is enqueued to activeQ because the Pending plugins has a hint fn "
       "and it returns Queue",
       true,
       {{AssignedPodAdd(), "fooPlugin3", SkipHint()},
        {AssignedPodAdd(), "fooPlugin2", QueueHint()},
        {AssignedPodAdd(), "fooPlugin1", QueueHint()}},
       {pod1},
       {popped(pod1), happens(AssignedPodAdd()), enqueued([&] {
          QueuedPodInfo i = InfoFor(pod1, {"fooPlugin2", "fooPlugin3"});
          i.pending_plugins = {"fooPlugin1"};
          return i;
        }())},
       {},
       {},
       Keys{"targetpod"}},
      {"pod is enqueued to backoffQ because the failed plugin has a hint fn "
       "and it returns Queue",
       true,
       {{AssignedPodAdd(), "fooPlugin2", SkipHint()},
        {AssignedPodAdd(), "fooPlugin1", QueueHint()}},
       {pod1},
       {popped(pod1), happens(AssignedPodAdd()),
        enqueued(Attempted(InfoFor(pod1, {"fooPlugin1", "fooPlugin2"})))},
       {},
       {},
       std::nullopt,
       Keys{"targetpod"}},
      {"pod is enqueued to activeQ because the failed plugin has a hint fn and "
       "it returns Queue for a concurrent event that was received while some "
       "other pod was in flight",
       true,
       {{AssignedPodAdd(), "fooPlugin3", SkipHint()},
        {AssignedPodAdd(), "fooPlugin2", QueueHint()},
        {AssignedPodAdd(), "fooPlugin1", QueueHint()}},
       {pod1, pod2},
       {callback([&](SchedulingQueue& q) { popped_pod = PopPod(q, pod1); }),
        happens(NodeAdd()),
        callback([&](SchedulingQueue& q) { popped_pod2 = PopPod(q, pod2); }),
        happens(AssignedPodAdd()), callback([&](SchedulingQueue& q) {
          AddUnschedulable(q, *popped_pod, kT0 + 10 * kSecond);
        }),
        callback([&](SchedulingQueue& q) {
          popped_pod2->unschedulable_plugins = {"fooPlugin2", "fooPlugin3"};
          popped_pod2->pending_plugins = {"fooPlugin1"};
          AddUnschedulable(q, *popped_pod2, kT0 + 10 * kSecond);
        })},
       {},
       {},
       Keys{"targetpod2"}},
      {"popped pod must have empty UnschedulablePlugins and PendingPlugins",
       true,
       {{PvAdd(), "fooPlugin1", QueueHint()}},
       {pod1},
       {callback([&](SchedulingQueue& q) { popped_pod = PopPod(q, pod1); }),
        callback([&](SchedulingQueue& q) {
          // Unschedulable due to PendingPlugins.
          popped_pod->pending_plugins = {"fooPlugin1"};
          popped_pod->unschedulable_plugins = {"fooPlugin2"};
          AddUnschedulable(q, *popped_pod, kT0 + 10 * kSecond);
        }),
        happens(PvAdd()),  // Active again.
        callback([&](SchedulingQueue& q) {
          popped_pod = PopPod(q, pod1);
          EXPECT_TRUE(popped_pod->unschedulable_plugins.empty());
          EXPECT_TRUE(popped_pod->pending_plugins.empty());
        }),
        callback([&](SchedulingQueue& q) {
          // Failed (no UnschedulablePlugins): to backoffQ.
          AddUnschedulable(q, *popped_pod, kT0 + 10 * kSecond);
        })},
       {},
       {},
       std::nullopt,
       Keys{"targetpod"}},
      {"Pop is made twice for the same Pod, but the cleanup still happen "
       "correctly",
       true,
       {{PvAdd(), "fooPlugin1", QueueHint()},
        {NodeAdd(), "fooPlugin1", QueueHint()},
        {PvcAdd(), "fooPlugin1", QueueHint()},
        {CSINodeUpdate(), "fooPlugin1", QueueHint()}},
       {pod1, pod2},
       {happens(PvcAdd()), popped(pod1), happens(PvAdd()), popped(pod2),
        // Simulate a bug: pod1 is put into activeQ while being scheduled.
        created(pod1), created(pod3),
        // pod1 (ahead of pod3) is dropped as already in flight; pod3 pops.
        popped(pod3), callback([&](SchedulingQueue& q) {
          EXPECT_TRUE(q.ActivePodKeys().empty());
        }),
        happens(NodeAdd()), enqueued(Attempted(InfoFor(pod1))),
        happens(CSINodeUpdate()), enqueued(Attempted(InfoFor(pod2))),
        enqueued(Attempted(InfoFor(pod3)))},
       {},
       {},
       std::nullopt,
       Keys{"targetpod", "targetpod2", "targetpod3"}},
  };

  for (Case& c : cases) {
    SCOPED_TRACE(c.name);
    QueueOptions qo;
    qo.hints = c.hints;
    qo.options.queueing_hints_enabled = c.hints_enabled;
    auto q = NewQueue(qo);
    api::TimeMs now = kT0;
    for (const api::Pod& p : c.initial_pods) {
      ASSERT_TRUE(q->Add(p, now).ok());
      now += kSecond;
    }
    for (const Action& a : c.actions) {
      if (a.pod_created.has_value()) {
        ASSERT_TRUE(q->Add(*a.pod_created, now).ok());
      } else if (a.pod_popped.has_value()) {
        PopPod(*q, *a.pod_popped);
      } else if (a.event_happens.has_value()) {
        MoveAll(*q, *a.event_happens, nullptr,
                                         now);
      } else if (a.pod_enqueued.has_value()) {
        AddUnschedulable(*q, *a.pod_enqueued, now);
      } else {
        a.callback(*q);
      }
    }
    Keys in_flight_pods = q->InFlightPodKeys();
    EXPECT_EQ(
        std::set<std::string>(in_flight_pods.begin(), in_flight_pods.end()),
        std::set<std::string>(c.want_in_flight_pods.begin(),
                              c.want_in_flight_pods.end()));
    EXPECT_EQ(q->InFlightEntries(), c.want_in_flight_entries);
    if (c.want_active.has_value()) {
      Keys want;
      for (const std::string& name : *c.want_active)
        want.push_back("default/" + name);
      EXPECT_EQ(q->ActivePodKeys(), want);
    }
    if (c.want_backoff.has_value()) {
      Keys got = q->BackoffPodKeys();
      std::set<std::string> want;
      for (const std::string& name : *c.want_backoff)
        want.insert("default/" + name);
      EXPECT_EQ(std::set<std::string>(got.begin(), got.end()), want);
    }
    for (const std::string& name : c.want_unschedulable) {
      EXPECT_EQ(q->Locate("default/" + name), Where::kUnschedulable) << name;
    }
  }
}

// upstream TestPop
TEST(SchedulingQueueTest, PopClearsPendingPlugins) {
  const api::Pod pod = st::MakePod().Name("targetpod").UID("pod1").Obj();
  for (bool hints : {true, false}) {
    SCOPED_TRACE(hints ? "with-hints" : "without-hints");
    QueueOptions qo;
    qo.hints = {{PvAdd(), "fooPlugin1", QueueHint()}};
    qo.options.queueing_hints_enabled = hints;
    auto q = NewQueue(qo);
    ASSERT_TRUE(q->Add(pod, kT0).ok());
    // Simulate a failed attempt; as Pending, the pod skips backoff.
    QueuedPodInfo popped = PopPod(*q, pod);
    popped.pending_plugins = {"fooPlugin1"};
    AddUnschedulable(*q, popped, kT0);
    // Activate it again.
    MoveAll(*q, PvAdd(), nullptr, kT0);
    // Without hints it went to backoffQ: wait for it.
    q->FlushBackoffQCompleted(kT0 + 2 * kSecond);
    popped = PopPod(*q, pod);
    EXPECT_TRUE(popped.pending_plugins.empty());
  }
}

// upstream TestPriorityQueue_AddUnschedulableIfNotPresent
TEST(SchedulingQueueTest, AddUnschedulableIfNotPresent) {
  for (bool hints : {true, false}) {
    SCOPED_TRACE(hints ? "with-hints" : "without-hints");
    QueueOptions qo;
    qo.options.queueing_hints_enabled = hints;
    auto q = NewQueue(qo);
    // The pod was popped: the queue records it in flight.
    ASSERT_TRUE(q->Add(UnschedulablePod(), kT0).ok());
    PopPod(*q, UnschedulablePod());
    ASSERT_TRUE(q->Add(HighPriNominatedPod(), kT0).ok());
    AddUnschedulable(*q, InfoFor(UnschedulablePod(), {"plugin"}), kT0);
    PopPod(*q, HighPriNominatedPod());
    EXPECT_EQ(q->NominatedPodKeysByNode().size(), 1u);
    // No event happened during scheduling: to unschedulable.
    EXPECT_EQ(q->Locate(UnschedulablePod().Key()), Where::kUnschedulable);
    EXPECT_EQ(q->InFlightPodKeys(), hints ? Keys{"ns1/hpp"} : Keys{});
  }
}

TEST(SchedulingQueueTest, AddUnschedulableIfNotPresentErrors) {
  auto q = NewQueue();
  MakeUnschedulable(*q, MedPriorityPod(), {"plugin"}, kT0);
  MakeBackingOff(*q, UnschedulablePod(), kT0);
  ASSERT_TRUE(q->Add(HighPriorityPod(), kT0).ok());
  auto add = [&](const api::Pod& pod) {
    return q->AddUnschedulableIfNotPresent(Attempted(InfoFor(pod)),
                                           q->SchedulingCycle(), kT0);
  };
  EXPECT_EQ(add(HighPriorityPod()).message(),
            "Pod ns1/hpp is already present in the active queue");
  EXPECT_EQ(add(MedPriorityPod()).message(),
            "Pod ns2/mpp is already present in unschedulable queue");
  EXPECT_EQ(add(UnschedulablePod()).message(),
            "Pod ns1/up is already present in the backoff queue");
  EXPECT_TRUE(add(HighPriorityPod()).IsFailedPrecondition());
}

// upstream TestPriorityQueue_AddUnschedulableIfNotPresent_Backoff: pods in
// and before the current scheduling cycle go back to backoffQ if a move
// request came while they were being scheduled. Upstream ran it without
// hints (the gate's default then); the with-hints variant gets the same
// result through the in-flight wildcard event.
TEST(SchedulingQueueTest, AddUnschedulableIfNotPresentBackoff) {
  for (bool hints : {false, true}) {
    SCOPED_TRACE(hints ? "with-hints" : "without-hints");
    QueueOptions qo;
    qo.options.queueing_hints_enabled = hints;
    auto q = NewQueue(qo);
    const int total = 10;
    std::vector<api::Pod> pods;
    for (int i = 0; i < total; ++i) {
      api::Pod p = st::MakePod()
                       .Name("pod" + std::to_string(i))
                       .Namespace("ns" + std::to_string(i))
                       .UID("upns" + std::to_string(i))
                       .Priority(i)
                       .Obj();
      pods.push_back(p);
      ASSERT_TRUE(q->Add(p, kT0).ok());
    }
    // Pop all pods except for the first one.
    std::vector<QueuedPodInfo> popped(total);
    for (int i = total - 1; i > 0; --i) popped[i] = PopPod(*q, pods[i]);
    // Move all pods to the active queue while they are being scheduled.
    MoveAll(*q, WildCard(), nullptr, kT0);
    int64_t old_cycle = q->SchedulingCycle();
    PopPod(*q, pods[0]);
    // Mark pods[1] ~ pods[total-1] as unschedulable and add them back.
    for (int i = 1; i < total; ++i) {
      QueuedPodInfo info = hints ? popped[i] : InfoFor(pods[i]);
      info.unschedulable_plugins = {"plugin"};
      ASSERT_TRUE(q->AddUnschedulableIfNotPresent(info, old_cycle, kT0).ok());
    }
    for (int i = 1; i < total; ++i) {
      EXPECT_EQ(q->Locate(pods[i].Key()), Where::kBackoff) << pods[i].name;
    }
  }
}

// upstream TestPriorityQueue_Pop
TEST(SchedulingQueueTest, Pop) {
  auto q = NewQueue();
  EXPECT_FALSE(q->Pop().has_value());
  ASSERT_TRUE(q->Add(MedPriorityPod(), kT0).ok());
  QueuedPodInfo info = PopPod(*q, MedPriorityPod());
  EXPECT_EQ(info.attempts, 1);
  EXPECT_EQ(q->SchedulingCycle(), 1);
  EXPECT_EQ(q->NominatedPodKeysByNode().at("node1").size(), 1u);
  EXPECT_EQ(q->Locate(MedPriorityPod().Key()), Where::kInFlight);
  q->Done(MedPriorityPod().uid);
  EXPECT_EQ(q->Locate(MedPriorityPod().Key()), Where::kAbsent);
}

// upstream TestPriorityQueue_Update
TEST(SchedulingQueueTest, Update) {
  const std::string queue_plugin = "queuePlugin";
  const std::string skip_plugin = "skipPlugin";
  struct Prepared {
    api::Pod old_pod;
    api::Pod new_pod;
    api::TimeMs now;  // when Update is called
  };
  struct Case {
    std::string name;
    std::optional<Where> want;  // nullopt: in no queue
    bool want_added_to_nominated = false;
    std::function<Prepared(SchedulingQueue&)> prepare;
    std::vector<bool> hints_enablement;
  };
  auto with_label = [](api::Pod p) {
    p.labels = {{"foo", "test"}};
    return p;
  };
  const std::vector<Case> cases = {
      {"add highPriorityPodInfo to activeQ",
       Where::kActive,
       false,
       [](SchedulingQueue&) {
         return Prepared{HighPriorityPod(), HighPriorityPod(), kT0};
       },
       {false, true}},
      {"Update pod that didn't exist in the queue",
       Where::kActive,
       false,
       [&](SchedulingQueue&) {
         return Prepared{MedPriorityPod(), with_label(MedPriorityPod()), kT0};
       },
       {false, true}},
      {"Update highPriorityPodInfo and add a nominatedNodeName to it",
       Where::kActive,
       true,
       [](SchedulingQueue&) {
         return Prepared{HighPriorityPod(), HighPriNominatedPod(), kT0};
       },
       {false, true}},
      {"When updating a pod that is already in activeQ, the pod should remain "
       "in activeQ after Update()",
       Where::kActive,
       false,
       [](SchedulingQueue& q) {
         EXPECT_TRUE(q.Update(HighPriorityPod(), HighPriorityPod(), kT0).ok());
         return Prepared{HighPriorityPod(), HighPriorityPod(), kT0};
       },
       {false, true}},
      {"When updating a pod that is in backoff queue and is still backing off, "
       "it will be updated in backoff queue",
       Where::kBackoff,
       false,
       [](SchedulingQueue& q) {
         MakeBackingOff(q, MedPriorityPod(), kT0);
         return Prepared{MedPriorityPod(), MedPriorityPod(), kT0};
       },
       {false, true}},
      {"when updating a pod which is in unschedulable queue and is backing "
       "off, it will be moved to backoff queue",
       Where::kBackoff,
       false,
       [&](SchedulingQueue& q) {
         MakeUnschedulable(q, MedPriorityPod(), {queue_plugin}, kT0);
         return Prepared{MedPriorityPod(), with_label(MedPriorityPod()), kT0};
       },
       {false, true}},
      {"when updating a pod which is in unschedulable queue and is not backing "
       "off, it will be moved to active queue",
       Where::kActive,
       false,
       [&](SchedulingQueue& q) {
         MakeUnschedulable(q, MedPriorityPod(), {queue_plugin}, kT0);
         // The backoff has passed by the time of the update.
         return Prepared{MedPriorityPod(), with_label(MedPriorityPod()),
                         kT0 + kInitialBackoff};
       },
       {false, true}},
      {"when updating a pod which is in unschedulable pods but the plugin "
       "returns skip, it will remain in unschedulablePods",
       Where::kUnschedulable,
       false,
       [&](SchedulingQueue& q) {
         MakeUnschedulable(q, MedPriorityPod(), {skip_plugin}, kT0);
         return Prepared{MedPriorityPod(), with_label(MedPriorityPod()), kT0};
       },
       {true}},
      {"when updating a pod which is in flightPods, the pod will not be added "
       "to any queue",
       std::nullopt,
       false,
       [&](SchedulingQueue& q) {
         EXPECT_TRUE(q.Add(MedPriorityPod(), kT0).ok());
         PopPod(q, MedPriorityPod());
         return Prepared{MedPriorityPod(), with_label(MedPriorityPod()), kT0};
       },
       {true}},
  };
  for (const Case& c : cases) {
    for (bool hints : c.hints_enablement) {
      SCOPED_TRACE(c.name +
                   (hints ? ", with queuehint" : ", without queuehint"));
      QueueOptions qo;
      qo.hints = {{UnscheduledPodUpdate(), queue_plugin, QueueHint()},
                  {UnscheduledPodUpdate(), skip_plugin, SkipHint()}};
      qo.options.queueing_hints_enabled = hints;
      auto q = NewQueue(qo);
      Prepared p = c.prepare(*q);
      ASSERT_TRUE(q->Update(p.old_pod, p.new_pod, p.now).ok());
      const std::string key = p.new_pod.Key();
      if (!c.want.has_value()) {
        EXPECT_EQ(q->Locate(key), Where::kInFlight);
        continue;
      }
      EXPECT_EQ(q->Locate(key), *c.want);
      std::optional<QueuedPodInfo> info = Get(*q, key);
      ASSERT_TRUE(info.has_value());
      EXPECT_EQ(PodOf(*info), p.new_pod);
      if (c.want_added_to_nominated) {
        EXPECT_EQ(q->NominatedPodKeysByNode().size(), 1u);
      }
    }
  }
}

// upstream TestPriorityQueue_UpdateWhenInflight: an update received while the
// pod is being scheduled may make it schedulable, so it is requeued.
TEST(SchedulingQueueTest, UpdateWhenInflight) {
  QueueOptions qo;
  // fakePlugin could change its result on any pod update.
  qo.hints = {{UnscheduledPodUpdate(), "fakePlugin", QueueHint()}};
  auto q = NewQueue(qo);
  const api::Pod pod =
      st::MakePod().Name("test-pod").Namespace("test-ns").UID("test-uid").Obj();
  ASSERT_TRUE(q->Add(pod, kT0).ok());
  PopPod(*q, pod);
  api::Pod updated = pod;
  updated.tolerations = {api::Toleration{"foo", "", "", "NoSchedule", {}}};
  ASSERT_TRUE(q->Update(pod, updated, kT0).ok());
  // Recorded as the update's fine-grained events (v1.31+, PR #125578).
  EXPECT_EQ(q->InFlightEntries(),
            (Keys{"pod:test-ns/test-pod", "UnschedulablePodUpdatePodTolerations"}));
  AddUnschedulable(*q, Attempted(InfoFor(updated, {"fakePlugin"})), kT0);
  EXPECT_EQ(q->Locate(updated.Key()), Where::kBackoff);
  EXPECT_EQ(PodOf(*Get(*q, updated.Key())), updated);
}

// The update of an in-flight pod is recorded as the fine-grained events of
// PodSchedulingPropertiesChange, not as one event with every update action:
// a rejector registered for toleration changes only is not consulted for a
// label change (upstream PriorityQueue.Update, addEventsIfPodInFlight).
TEST(SchedulingQueueTest, UpdateWhenInflightRecordsFineGrainedEvents) {
  const ClusterEvent toleration_change{EventResource::kPod,
                                       framework::kUpdatePodTolerations,
                                       "PodTolerationChange"};
  const api::Pod pod =
      st::MakePod().Name("test-pod").Namespace("test-ns").UID("test-uid").Obj();
  api::Pod relabelled = pod;
  relabelled.labels = {{"tier", "gold"}};
  api::Pod tolerating = pod;
  tolerating.tolerations = {api::Toleration{"foo", "", "", "NoSchedule", {}}};
  api::Pod both = relabelled;
  both.tolerations = tolerating.tolerations;
  struct Case {
    std::string name;
    api::Pod updated;
    Keys want_entries;
    Where want;
  };
  const std::vector<Case> cases = {
      {"a label change is not a toleration change", relabelled,
       Keys{"pod:test-ns/test-pod", "UnschedulablePodUpdatePodLabel"},
       Where::kUnschedulable},
      {"a toleration change", tolerating,
       Keys{"pod:test-ns/test-pod", "UnschedulablePodUpdatePodTolerations"},
       Where::kBackoff},
      {"both: one event each, in extractor order", both,
       Keys{"pod:test-ns/test-pod", "UnschedulablePodUpdatePodLabel",
            "UnschedulablePodUpdatePodTolerations"},
       Where::kBackoff},
      {"a status-only change is UpdatePodOther", [&] {
         api::Pod p = pod;
         p.nominated_node_name = "node1";
         return p;
       }(),
       Keys{"pod:test-ns/test-pod", "UnschedulablePodUpdatePodOther"},
       Where::kUnschedulable},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    QueueOptions qo;
    qo.hints = {{toleration_change, "tolerationPlugin", QueueHint()}};
    auto q = NewQueue(qo);
    ASSERT_TRUE(q->Add(pod, kT0).ok());
    PopPod(*q, pod);
    ASSERT_TRUE(q->Update(pod, c.updated, kT0).ok());
    EXPECT_EQ(q->InFlightEntries(), c.want_entries);
    AddUnschedulable(*q, Attempted(InfoFor(c.updated, {"tolerationPlugin"})), kT0);
    EXPECT_EQ(q->Locate(c.updated.Key()), c.want);
  }
}

// upstream TestPriorityQueue_Delete
TEST(SchedulingQueueTest, Delete) {
  auto q = NewQueue();
  ASSERT_TRUE(q->Update(HighPriorityPod(), HighPriNominatedPod(), kT0).ok());
  ASSERT_TRUE(q->Add(UnschedulablePod(), kT0).ok());
  ASSERT_TRUE(q->Delete(HighPriNominatedPod()).ok());
  EXPECT_EQ(q->Locate(UnschedulablePod().Key()), Where::kActive);
  EXPECT_EQ(q->Locate(HighPriNominatedPod().Key()), Where::kAbsent);
  EXPECT_EQ(q->NominatedPodKeysByNode(),
            (std::map<std::string, Keys>{{"node1", {"ns1/up"}}}));
  ASSERT_TRUE(q->Delete(UnschedulablePod()).ok());
  EXPECT_TRUE(q->NominatedPodKeysByNode().empty());
}

TEST(SchedulingQueueTest, DeleteFromBackoffAndUnschedulable) {
  auto q = NewQueue();
  MakeBackingOff(*q, HighPriorityPod(), kT0);
  MakeUnschedulable(*q, MedPriorityPod(), {"plugin"}, kT0);
  ASSERT_TRUE(q->Delete(HighPriorityPod()).ok());
  ASSERT_TRUE(q->Delete(MedPriorityPod()).ok());
  EXPECT_TRUE(q->BackoffPodKeys().empty());
  EXPECT_TRUE(q->UnschedulablePodKeys().empty());
}

// upstream TestPriorityQueue_Activate
TEST(SchedulingQueueTest, Activate) {
  enum class In { kActive, kUnschedulable, kBackoff, kNowhere };
  struct Case {
    std::string name;
    In where;
    size_t want_active;
  };
  const std::vector<Case> cases = {
      {"pod already in activeQ", In::kActive, 1},
      {"pod not in unschedulablePods/podBackoffQ", In::kNowhere, 0},
      {"pod in unschedulablePods", In::kUnschedulable, 1},
      {"pod in backoffQ", In::kBackoff, 1},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    auto q = NewQueue();
    const api::Pod pod = HighPriNominatedPod();
    switch (c.where) {
      case In::kActive:
        ASSERT_TRUE(q->Add(pod, kT0).ok());
        break;
      case In::kUnschedulable:
        MakeUnschedulable(*q, pod, {"plugin"}, kT0);
        break;
      case In::kBackoff:
        MakeBackingOff(*q, pod, kT0);
        break;
      case In::kNowhere:
        break;
    }
    q->Activate({pod}, kT0);
    EXPECT_EQ(q->ActivePodKeys().size(), c.want_active);
    if (c.want_active == 1) {
      EXPECT_EQ(q->Locate(pod.Key()), Where::kActive);
    }
  }
}

// v1.32 (PR #128170): activating a pod that is in flight aims a ForceActivate
// event at it, so that it comes back even if its rejectors would not
// requeue it; other in-flight pods are not affected.
TEST(SchedulingQueueTest, ActivateInFlightPod) {
  QueueOptions qo;
  qo.hints = {{NodeAdd(), "plugin", QueueHint()}};
  auto q = NewQueue(qo);
  const api::Pod target = HighPriorityPod();
  const api::Pod other = MedPriorityPod();
  ASSERT_TRUE(q->Add(target, kT0).ok());
  ASSERT_TRUE(q->Add(other, kT0).ok());
  QueuedPodInfo target_info = PopPod(*q, target);
  QueuedPodInfo other_info = PopPod(*q, other);
  q->Activate({target}, kT0);
  EXPECT_EQ(q->InFlightEntries(),
            (Keys{"pod:ns1/hpp", "pod:ns2/mpp", "ForceActivate"}));
  target_info.unschedulable_plugins = {"plugin"};
  other_info.unschedulable_plugins = {"plugin"};
  AddUnschedulable(*q, target_info, kT0);
  AddUnschedulable(*q, other_info, kT0);
  EXPECT_EQ(q->Locate(target.Key()), Where::kBackoff);
  EXPECT_EQ(q->Locate(other.Key()), Where::kUnschedulable);
}

// upstream TestPriorityQueue_addToActiveQ: PreEnqueue plugins gate pods, and
// an update that does not satisfy them leaves the pod gated.
TEST(SchedulingQueueTest, AddToActiveQWithPreEnqueue) {
  struct Case {
    std::string name;
    std::vector<std::vector<std::string>> allowlists;  // one per plugin
    api::Pod pod;
    size_t want_unschedulable;
  };
  const std::vector<Case> cases = {
      {"no plugins registered",
       {},
       st::MakePod().Name("p").Label("p", "").Obj(),
       0},
      {"preEnqueue plugin registered, pod name not in allowlists",
       {{}, {}},
       st::MakePod().Name("p").Label("p", "").Obj(),
       1},
      {"preEnqueue plugin registered, pod failed one preEnqueue plugin",
       {{"foo", "bar"}, {"foo"}},
       st::MakePod().Name("bar").Label("bar", "").Obj(),
       1},
      {"preEnqueue plugin registered, pod passed all preEnqueue plugins",
       {{"foo", "bar"}, {"bar"}},
       st::MakePod().Name("bar").Label("bar", "").Obj(),
       0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<std::unique_ptr<AllowlistPreEnqueue>> plugins;
    QueueOptions qo;
    for (const auto& allowlist : c.allowlists) {
      plugins.push_back(std::make_unique<AllowlistPreEnqueue>(allowlist));
      qo.pre_enqueue.push_back(plugins.back().get());
    }
    qo.options.pod_initial_backoff_ms = 30 * kSecond;
    qo.options.pod_max_backoff_ms = 60 * kSecond;
    auto q = NewQueue(qo);
    ASSERT_TRUE(q->Add(c.pod, kT0).ok());
    EXPECT_EQ(q->UnschedulablePodKeys().size(), c.want_unschedulable);
    EXPECT_EQ(q->ActivePodKeys().size(), 1 - c.want_unschedulable);
    if (c.want_unschedulable == 1) {
      std::optional<QueuedPodInfo> info = Get(*q, c.pod.Key());
      EXPECT_TRUE(info->gated);
      EXPECT_EQ(info->unschedulable_plugins,
                std::set<std::string>{"preEnqueuePlugin"});
      EXPECT_FALSE(info->initial_attempt_timestamp.has_value());
    }
    // Simulate an update event (an annotation in upstream).
    api::Pod clone = c.pod;
    clone.start_time = kT0;
    ASSERT_TRUE(q->Update(c.pod, clone, kT0).ok());
    EXPECT_EQ(q->UnschedulablePodKeys().size(), c.want_unschedulable);
  }
}

// upstream TestPriorityQueue_MoveAllToActiveOrBackoffQueueWithQueueingHint
TEST(SchedulingQueueTest, MoveAllToActiveOrBackoffQueueWithQueueingHint) {
  const api::Pod p = st::MakePod().Name("pod1").Namespace("ns1").UID("1").Obj();
  auto info = [&](int attempts, std::set<std::string> unsched,
                  std::set<std::string> pending, bool gated) {
    QueuedPodInfo i = InfoFor(p, std::move(unsched));
    i.attempts = attempts;
    i.pending_plugins = std::move(pending);
    i.gated = gated;
    return i;
  };
  struct Case {
    std::string name;
    QueuedPodInfo pod_info;
    framework::QueueingHintFn hint;
    int64_t duration;  // time spent in unschedulable
    Where want;
  };
  const std::vector<Case> cases = {
      {"Queue queues pod to activeQ", info(0, {}, {"foo"}, false), QueueHint(),
       0, Where::kActive},
      {"Queue queues pod to backoffQ if Pod is backing off",
       info(1, {"foo"}, {}, false), QueueHint(), 0, Where::kBackoff},
      {"Queue queues pod to activeQ if Pod is not backing off",
       info(0, {"foo"}, {}, false), QueueHint(), kInitialBackoff,
       Where::kActive},
      {"Skip queues pod to unschedulablePods", info(0, {"foo"}, {}, false),
       SkipHint(), 0, Where::kUnschedulable},
      {"QueueHintFunction is not called when Pod is gated by SchedulingGates "
       "plugin",
       info(0, {"SchedulingGates", "foo"}, {}, true),
       [](const api::Pod&, const auto&...) -> StatusOr<framework::QueueingHint> {
         ADD_FAILURE() << "QueueingHintFn should not be called as pod is gated";
         return framework::QueueingHint::kQueue;
       },
       0, Where::kUnschedulable},
      {"QueueHintFunction is called when Pod is gated by a plugin other than "
       "SchedulingGates",
       info(0, {"foo"}, {}, true), QueueHint(), 0, Where::kActive},
      {"Pod that experienced a scheduling failure before should be queued to "
       "backoffQ after un-gated",
       info(1, {"foo"}, {}, true), QueueHint(), 0, Where::kBackoff},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    QueueOptions qo;
    qo.hints = {{NodeAdd(), "foo", c.hint}};
    auto q = NewQueue(qo);
    ASSERT_TRUE(q->Add(p, kT0).ok());
    PopPod(*q, p);
    // add to the unschedulable pod pool
    AddUnschedulable(*q, c.pod_info, kT0);
    MoveAll(*q, NodeAdd(), nullptr,
                                     kT0 + c.duration);
    EXPECT_EQ(q->Locate(p.Key()), c.want);
  }
}

// upstream TestPriorityQueue_MoveAllToActiveOrBackoffQueue (with hints).
// Upstream drains backoffQ by popping its heap directly; here the drained
// pods are deleted, which leaves them in no queue just the same.
TEST(SchedulingQueueTest, MoveAllToActiveOrBackoffQueue) {
  QueueOptions qo;
  qo.hints = {{NodeAdd(), "fooPlugin", QueueHint()}};
  auto q = NewQueue(qo);
  api::TimeMs now = kT0;
  auto expect_in_flight = [&](std::set<std::string> uids) {
    std::set<std::string> got;
    for (const std::string& key : q->InFlightPodKeys()) got.insert(key);
    std::set<std::string> want;
    for (const std::string& uid : uids) {
      for (const api::Pod& p :
           {UnschedulablePod(), HighPriorityPod(), MedPriorityPod(),
            ClonePod(HighPriorityPod(), "hpp1"),
            ClonePod(HighPriorityPod(), "hpp2")}) {
        if (p.uid == uid) want.insert(p.Key());
      }
    }
    EXPECT_EQ(got, want);
  };
  const api::Pod up = UnschedulablePod();
  const api::Pod hpp = HighPriorityPod();
  const api::Pod mpp = MedPriorityPod();
  const api::Pod hpp1 = ClonePod(hpp, "hpp1");
  const api::Pod hpp2 = ClonePod(hpp, "hpp2");

  ASSERT_TRUE(q->Add(up, now).ok());
  PopPod(*q, up);
  expect_in_flight({up.uid});
  ASSERT_TRUE(q->Add(hpp, now).ok());
  PopPod(*q, hpp);
  expect_in_flight({up.uid, hpp.uid});
  AddUnschedulable(*q, Attempted(InfoFor(up, {"fooPlugin"})), now);
  AddUnschedulable(*q, Attempted(InfoFor(hpp, {"fooPlugin"})), now);
  expect_in_flight({});
  // A pod whose failure no plugin explains: to backoffQ.
  ASSERT_TRUE(q->Add(hpp1, now).ok());
  PopPod(*q, hpp1);
  expect_in_flight({hpp1.uid});
  AddUnschedulable(*q, Attempted(InfoFor(hpp1)), now);
  expect_in_flight({});
  // A pod rejected by barPlugin: to unschedulable.
  ASSERT_TRUE(q->Add(hpp2, now).ok());
  PopPod(*q, hpp2);
  expect_in_flight({hpp2.uid});
  AddUnschedulable(*q, Attempted(InfoFor(hpp2, {"barPlugin"})), now);
  expect_in_flight({});
  // NodeAdd moves up and hpp to backoffQ (fooPlugin's hint).
  MoveAll(*q, NodeAdd(), nullptr, now);
  ASSERT_TRUE(q->Add(mpp, now).ok());
  EXPECT_EQ(q->ActivePodKeys().size(), 1u);
  PopPod(*q, mpp);
  expect_in_flight({mpp.uid});
  // hpp2 won't be moved.
  EXPECT_EQ(q->BackoffPodKeys().size(), 3u);

  // Drain backoffQ; this doesn't make the pods in flight.
  for (const api::Pod& p : {up, hpp, hpp1}) ASSERT_TRUE(q->Delete(p).ok());
  expect_in_flight({mpp.uid});

  ASSERT_TRUE(q->Add(up, now).ok());
  PopPod(*q, up);
  expect_in_flight({mpp.uid, up.uid});
  ASSERT_TRUE(q->Add(hpp, now).ok());
  PopPod(*q, hpp);
  expect_in_flight({mpp.uid, up.uid, hpp.uid});
  ASSERT_TRUE(q->Add(hpp1, now).ok());
  PopPod(*q, hpp1);
  expect_in_flight({mpp.uid, up.uid, hpp.uid, hpp1.uid});
  AddUnschedulable(*q, Attempted(InfoFor(up, {"fooPlugin"})), now);
  expect_in_flight({mpp.uid, hpp.uid, hpp1.uid});
  AddUnschedulable(*q, Attempted(InfoFor(hpp, {"fooPlugin"})), now);
  expect_in_flight({mpp.uid, hpp1.uid});
  AddUnschedulable(*q, Attempted(InfoFor(hpp1)), now);
  expect_in_flight({mpp.uid});
  ASSERT_TRUE(q->Add(mpp, now).ok());
  // hpp1 goes to backoffQ (no failure plugin); the others are unschedulable.
  for (const api::Pod& p : {up, hpp, hpp2}) {
    EXPECT_EQ(q->Locate(p.Key()), Where::kUnschedulable) << p.name;
  }
  EXPECT_EQ(q->Locate(hpp1.Key()), Where::kBackoff);

  // Once the backoff passes, the flush moves hpp1 and NodeAdd the others.
  now += kInitialBackoff;
  q->FlushBackoffQCompleted(now);
  MoveAll(*q, NodeAdd(), nullptr, now);
  EXPECT_EQ(q->ActivePodKeys().size(), 4u);
  EXPECT_TRUE(q->BackoffPodKeys().empty());
  expect_in_flight({mpp.uid});
  // hpp2 won't be moved regardless of its backoff timer.
  EXPECT_EQ(q->UnschedulablePodKeys(), Keys{hpp2.Key()});
}

// upstream TestPriorityQueue_MoveAllToActiveOrBackoffQueueWithOutQueueingHint
TEST(SchedulingQueueTest, MoveAllToActiveOrBackoffQueueWithoutQueueingHint) {
  QueueOptions qo;
  qo.hints = {{NodeAdd(), "fooPlugin", QueueHint()}};
  auto q = NewLegacyQueue(qo);
  api::TimeMs now = kT0;
  const api::Pod up = UnschedulablePod();
  const api::Pod hpp = HighPriorityPod();
  const api::Pod mpp = MedPriorityPod();
  const api::Pod hpp1 = ClonePod(hpp, "hpp1");
  const api::Pod hpp2 = ClonePod(hpp, "hpp2");
  ASSERT_TRUE(q->Add(mpp, now).ok());
  AddUnschedulable(*q, Attempted(InfoFor(up, {"fooPlugin"})), now);
  AddUnschedulable(*q, Attempted(InfoFor(hpp, {"fooPlugin"})), now);
  // No failure plugin: to backoffQ.
  AddUnschedulable(*q, Attempted(InfoFor(hpp1)), now);
  // To the unschedulable pool.
  AddUnschedulable(*q, Attempted(InfoFor(hpp2, {"barPlugin"})), now);
  // NodeAdd moves up and hpp to backoffQ.
  MoveAll(*q, NodeAdd(), nullptr, now);
  EXPECT_EQ(q->ActivePodKeys().size(), 1u);
  PopPod(*q, mpp);
  EXPECT_EQ(q->BackoffPodKeys().size(), 3u);
  EXPECT_FALSE(q->HasPodsInFlight());

  for (const api::Pod& p : {up, hpp, hpp1}) ASSERT_TRUE(q->Delete(p).ok());
  AddUnschedulable(*q, Attempted(InfoFor(up, {"fooPlugin"})), now);
  AddUnschedulable(*q, Attempted(InfoFor(hpp, {"fooPlugin"})), now);
  AddUnschedulable(*q, Attempted(InfoFor(hpp1)), now);
  ASSERT_TRUE(q->Add(mpp, now).ok());
  for (const api::Pod& p : {up, hpp, hpp2}) {
    EXPECT_EQ(q->Locate(p.Key()), Where::kUnschedulable) << p.name;
  }
  EXPECT_EQ(q->Locate(hpp1.Key()), Where::kBackoff);

  now += kInitialBackoff;
  q->FlushBackoffQCompleted(now);
  MoveAll(*q, NodeAdd(), nullptr, now);
  EXPECT_EQ(q->ActivePodKeys().size(), 4u);
  EXPECT_TRUE(q->BackoffPodKeys().empty());
  EXPECT_EQ(q->UnschedulablePodKeys(), Keys{hpp2.Key()});
}

// Legacy rule: a pod rejected by a plugin goes to backoffQ (not
// unschedulable) if an event of interest arrived since its cycle began.
TEST(SchedulingQueueTest, LegacyMoveRequestCycle) {
  QueueOptions qo;
  qo.hints = {{NodeAdd(), "fooPlugin", QueueHint()}};
  auto q = NewLegacyQueue(qo);
  ASSERT_TRUE(q->Add(HighPriorityPod(), kT0).ok());
  QueuedPodInfo info = PopPod(*q, HighPriorityPod());
  int64_t cycle = q->SchedulingCycle();
  // Not of interest: no move request.
  MoveAll(*q, PvAdd(), nullptr, kT0);
  info.unschedulable_plugins = {"fooPlugin"};
  ASSERT_TRUE(q->AddUnschedulableIfNotPresent(info, cycle, kT0).ok());
  EXPECT_EQ(q->Locate(HighPriorityPod().Key()), Where::kUnschedulable);

  ASSERT_TRUE(q->Add(MedPriorityPod(), kT0).ok());
  info = PopPod(*q, MedPriorityPod());
  cycle = q->SchedulingCycle();
  MoveAll(*q, NodeAdd(), nullptr, kT0);
  info.unschedulable_plugins = {"fooPlugin"};
  ASSERT_TRUE(q->AddUnschedulableIfNotPresent(info, cycle, kT0).ok());
  EXPECT_EQ(q->Locate(MedPriorityPod().Key()), Where::kBackoff);
}

// upstream TestPriorityQueue_AssignedPodAdded_
TEST(SchedulingQueueTest, AssignedPodAdded) {
  api::TopologySpreadConstraint spread;
  spread.max_skew = 1;
  spread.topology_key = "node";
  spread.when_unsatisfiable = "DoNotSchedule";
  struct Case {
    std::string name;
    api::Pod unsched_pod;
    std::string unsched_plugin;
    api::Pod assigned_pod;
    bool want_requeue;
  };
  const api::Pod affinity_pod = st::MakePod()
                                    .Name("afp")
                                    .Namespace("ns1")
                                    .UID("afp")
                                    .PodAffinityExists("service", "region")
                                    .Obj();
  const api::Pod matching = st::MakePod()
                                .Name("lbp")
                                .Namespace("ns1")
                                .Label("service", "securityscan")
                                .Node("node1")
                                .Obj();
  const api::Pod unrelated = st::MakePod()
                                 .Name("lbp")
                                 .Namespace("unrelated")
                                 .Label("unrelated", "unrelated")
                                 .Node("node1")
                                 .Obj();
  const std::vector<Case> cases = {
      {"Pod rejected by pod affinity is requeued with matching Pod's update",
       affinity_pod, "InterPodAffinity", matching, true},
      {"Pod rejected by pod affinity isn't requeued with unrelated Pod's "
       "update",
       affinity_pod, "InterPodAffinity", unrelated, false},
      {"Pod rejected by pod topology spread is requeued with Pod's update in "
       "the same namespace",
       st::MakePod()
           .Name("tsp")
           .Namespace("ns1")
           .UID("tsp")
           .SpreadConstraint(spread)
           .Obj(),
       "PodTopologySpread", matching, true},
      {"Pod rejected by pod topology spread isn't requeued with unrelated "
       "Pod's "
       "update",
       affinity_pod, "PodTopologySpread", unrelated, false},
      {"Pod rejected by other plugins isn't requeued with any Pod's update",
       st::MakePod().Name("afp").Namespace("ns1").UID("afp").Obj(),
       "fakePlugin", unrelated, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    QueueOptions qo;
    qo.hints = {{AssignedPodAdd(), "fakePlugin", QueueHint()},
                {AssignedPodAdd(), "InterPodAffinity", QueueHint()},
                {AssignedPodAdd(), "PodTopologySpread", QueueHint()}};
    auto q = NewQueue(qo);
    MakeUnschedulable(*q, c.unsched_pod, {c.unsched_plugin}, kT0);
    // The backoff is complete by the time of the event.
    q->AssignedPodAdded(c.assigned_pod, kT0 + kInitialBackoff + kSecond);
    EXPECT_EQ(q->Locate(c.unsched_pod.Key()) == Where::kActive, c.want_requeue);
  }
}

TEST(SchedulingQueueTest, AssignedPodAddedNamespaceSelector) {
  api::PodAffinityTerm term;
  term.label_selector = api::LabelSelector{{{"app", "db"}}, {}};
  term.namespace_selector = api::LabelSelector{{{"team", "a"}}, {}};
  term.topology_key = "zone";
  const api::Pod pod = st::MakePod()
                           .Name("p")
                           .Namespace("ns1")
                           .UID("p")
                           .PodAffinityTerm(term)
                           .Obj();
  const api::Pod db = st::MakePod()
                          .Name("db")
                          .Namespace("other")
                          .Label("app", "db")
                          .Node("n")
                          .Obj();
  for (bool labelled : {false, true}) {
    QueueOptions qo;
    qo.hints = {{AssignedPodAdd(), "InterPodAffinity", QueueHint()}};
    qo.options.namespace_labels = [labelled](const std::string& ns) {
      return labelled && ns == "other" ? api::Labels{{"team", "a"}}
                                       : api::Labels{};
    };
    auto q = NewQueue(qo);
    MakeUnschedulable(*q, pod, {"InterPodAffinity"}, kT0);
    q->AssignedPodAdded(db, kT0 + 2 * kSecond);
    EXPECT_EQ(q->Locate(pod.Key()) == Where::kActive, labelled);
  }
}

// AssignedPodUpdated: a scale-down may free room for any pod, so it moves
// every unschedulable pod; other updates only cross-topology ones.
TEST(SchedulingQueueTest, AssignedPodUpdated) {
  QueueOptions qo;
  qo.hints = {{framework::AssignedPodUpdate(), "NodeResourcesFit", QueueHint()},
              {{EventResource::kPod, framework::kUpdatePodLabel, "label"},
               "NodeResourcesFit",
               QueueHint()}};
  auto q = NewQueue(qo);
  const api::Pod pending = st::MakePod().Name("p").UID("p").Obj();
  MakeUnschedulable(*q, pending, {"NodeResourcesFit"}, kT0);
  api::Pod running =
      st::MakePod().Name("r").UID("r").Node("n").Req({{"cpu", "2"}}).Obj();
  api::Pod relabelled = running;
  relabelled.labels = {{"x", "y"}};
  q->AssignedPodUpdated(running, relabelled, kT0 + 2 * kSecond);
  EXPECT_EQ(q->Locate(pending.Key()), Where::kUnschedulable);
  api::Pod smaller = relabelled;
  smaller.containers[0].requests["cpu"] = 1000;
  q->AssignedPodUpdated(relabelled, smaller, kT0 + 2 * kSecond);
  EXPECT_EQ(q->Locate(pending.Key()), Where::kActive);
}

// upstream TestPriorityQueue_NominatedPodsForNode
TEST(SchedulingQueueTest, NominatedPodsForNode) {
  auto q = NewQueue();
  ASSERT_TRUE(q->Add(MedPriorityPod(), kT0).ok());
  ASSERT_TRUE(q->Add(UnschedulablePod(), kT0).ok());
  ASSERT_TRUE(q->Add(HighPriorityPod(), kT0).ok());
  PopPod(*q, HighPriorityPod());
  EXPECT_EQ(NominatedPods(*q, "node1"),
            (std::vector<api::Pod>{MedPriorityPod(), UnschedulablePod()}));
  // A copy: changing it changes nothing in the queue.
  std::vector<api::Pod> pods = NominatedPods(*q, "node1");
  pods[0].name = "not mpp";
  EXPECT_NE(pods, NominatedPods(*q, "node1"));
  EXPECT_TRUE(NominatedPods(*q, "node2").empty());
}

// NominatedPodsForNode returns each pod as the queue holds it now.
TEST(SchedulingQueueTest, NominatedPodsForNodeSeesUpdates) {
  auto q = NewQueue();
  ASSERT_TRUE(q->Add(MedPriorityPod(), kT0).ok());
  api::Pod relabelled = MedPriorityPod();
  relabelled.labels = {{"a", "b"}};
  ASSERT_TRUE(q->Update(MedPriorityPod(), relabelled, kT0).ok());
  EXPECT_EQ(NominatedPods(*q, "node1"),
            std::vector<api::Pod>{relabelled});
}

// upstream TestPriorityQueue_NominatedPodDeleted
TEST(SchedulingQueueTest, NominatedPodDeleted) {
  struct Case {
    std::string name;
    api::Pod pod;
    bool delete_pod;
    size_t want_len;
  };
  const std::vector<Case> cases = {
      {"alive pod gets added into PodNominator", MedPriorityPod(), false, 1},
      {"deleted pod shouldn't be added into PodNominator",
       HighPriNominatedPod(), true, 0},
      {"pod without .status.nominatedPodName specified shouldn't be added into "
       "PodNominator",
       HighPriorityPod(), false, 0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    QueueOptions qo;
    qo.options.pod_lister =
        [&c](const std::string& key) -> std::optional<api::Pod> {
      if (c.delete_pod || key != c.pod.Key()) return std::nullopt;
      return c.pod;
    };
    auto q = NewQueue(qo);
    Nominate(*q, c.pod, std::nullopt);
    EXPECT_EQ(NominatedPods(*q, c.pod.nominated_node_name).size(),
              c.want_len);
  }
}

// upstream TestPriorityQueue_UpdateNominatedPodForNode
TEST(SchedulingQueueTest, UpdateNominatedPodForNode) {
  std::map<std::string, api::Pod> api_server;
  for (const api::Pod& p : {MedPriorityPod(), UnschedulablePod(),
                            HighPriorityPod(), ScheduledPod()}) {
    api_server[p.Key()] = p;
  }
  QueueOptions qo;
  qo.options.pod_lister =
      [&](const std::string& key) -> std::optional<api::Pod> {
    auto it = api_server.find(key);
    if (it == api_server.end()) return std::nullopt;
    return it->second;
  };
  auto q = NewQueue(qo);
  ASSERT_TRUE(q->Add(MedPriorityPod(), kT0).ok());
  // Nominate unschedulablePod on a different node than the pod says.
  Nominate(*q, UnschedulablePod(),
                     NominatingInfo{NominatingInfo::kOverride, "node5"});
  // And a pod whose object names no node.
  Nominate(*q, HighPriorityPod(),
                     NominatingInfo{NominatingInfo::kOverride, "node2"});
  std::map<std::string, Keys> want = {
      {"node1", {"ns2/mpp"}}, {"node2", {"ns1/hpp"}}, {"node5", {"ns1/up"}}};
  EXPECT_EQ(q->NominatedPodKeysByNode(), want);
  PopPod(*q, MedPriorityPod());
  // Popping does not change nominations.
  EXPECT_EQ(q->NominatedPodKeysByNode(), want);

  // Re-nominate a pod that has no nominatedNodeName in its object.
  Nominate(*q, HighPriorityPod(),
                     NominatingInfo{NominatingInfo::kOverride, "node4"});
  want = {
      {"node1", {"ns2/mpp"}}, {"node4", {"ns1/hpp"}}, {"node5", {"ns1/up"}}};
  EXPECT_EQ(q->NominatedPodKeysByNode(), want);

  // A pod deleted from the informer cache is not nominated.
  Nominate(*q, NonExistentPod(),
                     NominatingInfo{NominatingInfo::kOverride, "node1"});
  EXPECT_EQ(q->NominatedPodKeysByNode(), want);
  // Nor one already scheduled in the informer cache.
  api::Pod unbound_copy = ScheduledPod();
  unbound_copy.node_name.clear();
  Nominate(*q, unbound_copy,
                     NominatingInfo{NominatingInfo::kOverride, "node1"});
  EXPECT_EQ(q->NominatedPodKeysByNode(), want);

  // Delete a nominated pod that has no nominatedNodeName in its object.
  q->DeleteNominatedPodIfExists(HighPriorityPod());
  want = {{"node1", {"ns2/mpp"}}, {"node5", {"ns1/up"}}};
  EXPECT_EQ(q->NominatedPodKeysByNode(), want);
}

// Update keeps an in-memory nomination when neither object names a node.
TEST(SchedulingQueueTest, UpdateKeepsInMemoryNomination) {
  auto q = NewQueue();
  ASSERT_TRUE(q->Add(HighPriorityPod(), kT0).ok());
  Nominate(*q, HighPriorityPod(),
                     NominatingInfo{NominatingInfo::kOverride, "node3"});
  api::Pod relabelled = HighPriorityPod();
  relabelled.labels = {{"a", "b"}};
  ASSERT_TRUE(q->Update(HighPriorityPod(), relabelled, kT0).ok());
  EXPECT_EQ(q->NominatedPodKeysByNode(),
            (std::map<std::string, Keys>{{"node3", {"ns1/hpp"}}}));
  // Override "" clears the nomination (filed under node "", as upstream).
  Nominate(*q, relabelled, NominatingInfo{NominatingInfo::kOverride, ""});
  EXPECT_TRUE(NominatedPods(*q, "node3").empty());
}

// upstream TestRecentlyTriedPodsGoBack: a pod that was tried and found
// unschedulable goes behind pods of the same priority.
TEST(SchedulingQueueTest, RecentlyTriedPodsGoBack) {
  auto q = NewQueue();
  api::TimeMs now = kT0;
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(q->Add(st::MakePod()
                           .Name("test-pod-" + std::to_string(i))
                           .Namespace("ns1")
                           .UID("tp00" + std::to_string(i))
                           .Priority(kHighPriority)
                           .NominatedNodeName("node1")
                           .Obj(),
                       now)
                    .ok());
  }
  now += 1;
  std::optional<QueuedPodInfo> p1 = q->Pop();
  ASSERT_TRUE(p1.has_value());
  p1->unschedulable_plugins = {"plugin"};
  AddUnschedulable(*q, *p1, now);
  now += kInitialBackoff;
  MoveAll(*q, framework::UnschedulableTimeout(), nullptr, now);
  // The pod popped first is the last one now.
  for (int i = 0; i < 5; ++i) {
    std::optional<QueuedPodInfo> p = q->Pop();
    ASSERT_TRUE(p.has_value());
    EXPECT_EQ(i == 4, PodOf(*p).uid == PodOf(*p1).uid) << i << " " << PodOf(*p).name;
  }
}

// upstream TestPodFailedSchedulingMultipleTimesDoesNotBlockNewerPod
TEST(SchedulingQueueTest,
     PodFailedSchedulingMultipleTimesDoesNotBlockNewerPod) {
  auto q = NewQueue();
  api::TimeMs now = kT0;
  const api::Pod unschedulable = st::MakePod()
                                     .Name("test-pod-unscheduled")
                                     .Namespace("ns1")
                                     .UID("tp001")
                                     .Priority(kHighPriority)
                                     .NominatedNodeName("node1")
                                     .Obj();
  ASSERT_TRUE(q->Add(unschedulable, now).ok());
  PopPod(*q, unschedulable);
  AddUnschedulable(*q, InfoFor(unschedulable, {"plugin"}), now);
  now += kInitialBackoff + kSecond;
  MoveAll(*q, framework::UnschedulableTimeout(), nullptr, now);
  PopPod(*q, unschedulable);
  // A newer pod arrives while the first one is being scheduled.
  const api::Pod newer = st::MakePod()
                             .Name("test-newer-pod")
                             .Namespace("ns1")
                             .UID("tp002")
                             .CreationTimestamp(now)
                             .Priority(kHighPriority)
                             .NominatedNodeName("node1")
                             .Obj();
  ASSERT_TRUE(q->Add(newer, now).ok());
  // The first one fails again.
  AddUnschedulable(*q, InfoFor(unschedulable, {"plugin"}), now);
  now += kInitialBackoff + kSecond;
  MoveAll(*q, framework::UnschedulableTimeout(), nullptr, now);
  // The newer pod is the one tried longest ago.
  PopPod(*q, newer);
}

// upstream TestHighPriorityBackoff
TEST(SchedulingQueueTest, HighPriorityBackoff) {
  auto q = NewQueue();
  const api::Pod mid = st::MakePod()
                           .Name("test-midpod")
                           .Namespace("ns1")
                           .UID("tp-mid")
                           .Priority(kMidPriority)
                           .NominatedNodeName("node1")
                           .Obj();
  const api::Pod high = st::MakePod()
                            .Name("test-highpod")
                            .Namespace("ns1")
                            .UID("tp-high")
                            .Priority(kHighPriority)
                            .NominatedNodeName("node1")
                            .Obj();
  ASSERT_TRUE(q->Add(mid, kT0).ok());
  ASSERT_TRUE(q->Add(high, kT0).ok());
  QueuedPodInfo p = PopPod(*q, high);
  AddUnschedulable(*q, p, kT0);
  MoveAll(*q, WildCard(), nullptr, kT0);
  PopPod(*q, mid);
}

// upstream TestHighPriorityFlushUnschedulablePodsLeftover
TEST(SchedulingQueueTest, HighPriorityFlushUnschedulablePodsLeftover) {
  QueueOptions qo;
  qo.hints = {{NodeAdd(), "fakePlugin", QueueHint()}};
  auto q = NewQueue(qo);
  const api::Pod mid = st::MakePod()
                           .Name("test-midpod")
                           .Namespace("ns1")
                           .UID("tp-mid")
                           .Priority(kMidPriority)
                           .NominatedNodeName("node1")
                           .Obj();
  const api::Pod high = st::MakePod()
                            .Name("test-highpod")
                            .Namespace("ns1")
                            .UID("tp-high")
                            .Priority(kHighPriority)
                            .NominatedNodeName("node1")
                            .Obj();
  ASSERT_TRUE(q->Add(high, kT0).ok());
  PopPod(*q, high);
  ASSERT_TRUE(q->Add(mid, kT0).ok());
  PopPod(*q, mid);
  AddUnschedulable(*q, InfoFor(high, {"fakePlugin"}), kT0);
  AddUnschedulable(*q, InfoFor(mid, {"fakePlugin"}), kT0);
  q->FlushUnschedulablePodsLeftover(kT0 + kMaxInUnschedulable + kSecond);
  PopPod(*q, high);
  PopPod(*q, mid);
}

// The unschedulable flush uses a strict "longer than".
TEST(SchedulingQueueTest, FlushUnschedulablePodsLeftoverIsStrict) {
  auto q = NewQueue();
  MakeUnschedulable(*q, HighPriorityPod(), {"plugin"}, kT0);
  q->FlushUnschedulablePodsLeftover(kT0 + kMaxInUnschedulable);
  EXPECT_EQ(q->Locate(HighPriorityPod().Key()), Where::kUnschedulable);
  q->FlushUnschedulablePodsLeftover(kT0 + kMaxInUnschedulable + 1);
  EXPECT_EQ(q->Locate(HighPriorityPod().Key()), Where::kActive);
}

// upstream TestPriorityQueue_initPodMaxInUnschedulablePodsDuration
TEST(SchedulingQueueTest, PodMaxInUnschedulablePodsDuration) {
  const api::Pod pod1 = st::MakePod()
                            .Name("test-pod-1")
                            .Namespace("ns1")
                            .UID("tp-1")
                            .NominatedNodeName("node1")
                            .Obj();
  const api::Pod pod2 = st::MakePod()
                            .Name("test-pod-2")
                            .Namespace("ns2")
                            .UID("tp-2")
                            .NominatedNodeName("node2")
                            .Obj();
  for (int64_t max : {int64_t{0}, 30 * kSecond}) {
    SCOPED_TRACE(max == 0 ? "default" : "user-defined");
    QueueOptions qo;
    if (max != 0) qo.options.pod_max_in_unschedulable_pods_ms = max;
    auto q = NewQueue(qo);
    const int64_t effective = max == 0 ? kMaxInUnschedulable : max;
    // pInfo2 was queued 2 s ago, pInfo1 1 s ago.
    MakeUnschedulable(*q, pod2, {"plugin"}, kT0 - 2 * kSecond);
    MakeUnschedulable(*q, pod1, {"plugin"}, kT0 - kSecond);
    q->FlushUnschedulablePodsLeftover(kT0 + effective);
    EXPECT_EQ(q->ActivePodKeys(), (Keys{pod2.Key(), pod1.Key()}));
  }
}

// upstream TestPodTimestamp
TEST(SchedulingQueueTest, PodTimestamp) {
  const api::Pod pod1 = st::MakePod()
                            .Name("test-pod-1")
                            .Namespace("ns1")
                            .UID("tp-1")
                            .NominatedNodeName("node1")
                            .Obj();
  const api::Pod pod2 = st::MakePod()
                            .Name("test-pod-2")
                            .Namespace("ns2")
                            .UID("tp-2")
                            .NominatedNodeName("node2")
                            .Obj();
  // pInfo1 at kT0, pInfo2 one second later.
  {
    SCOPED_TRACE("add two pod to activeQ and sort them by the timestamp");
    auto q = NewQueue();
    ASSERT_TRUE(q->Add(pod2, kT0 + kSecond).ok());
    ASSERT_TRUE(q->Add(pod1, kT0).ok());
    EXPECT_EQ(q->ActivePodKeys(), (Keys{pod1.Key(), pod2.Key()}));
  }
  {
    SCOPED_TRACE(
        "add two pod to unschedulablePods then move them to activeQ "
        "and sort them by the timestamp");
    auto q = NewQueue();
    MakeUnschedulable(*q, pod2, {"plugin"}, kT0 + kSecond);
    MakeUnschedulable(*q, pod1, {"plugin"}, kT0);
    MoveAll(*q, framework::UnschedulableTimeout(), nullptr, kT0 + 3 * kSecond);
    EXPECT_EQ(q->ActivePodKeys(), (Keys{pod1.Key(), pod2.Key()}));
  }
  {
    SCOPED_TRACE("add one pod to BackoffQ and move it to activeQ");
    auto q = NewQueue();
    ASSERT_TRUE(q->Add(pod2, kT0 + kSecond).ok());
    MakeBackingOff(*q, pod1, kT0);
    q->FlushBackoffQCompleted(kT0 + 2 * kSecond);
    MoveAll(*q, framework::UnschedulableTimeout(), nullptr, kT0 + 2 * kSecond);
    EXPECT_EQ(q->ActivePodKeys(), (Keys{pod1.Key(), pod2.Key()}));
  }
}

// upstream TestPerPodSchedulingMetrics: Attempts and InitialAttemptTimestamp
// across attempts.
TEST(SchedulingQueueTest, PerPodSchedulingMetrics) {
  const api::Pod pod =
      st::MakePod().Name("test-pod").Namespace("test-ns").UID("test-uid").Obj();
  {
    SCOPED_TRACE("pod is created and scheduled after 1 attempt");
    auto q = NewQueue();
    ASSERT_TRUE(q->Add(pod, kT0).ok());
    QueuedPodInfo info = PopPod(*q, pod);
    EXPECT_EQ(info.attempts, 1);
    EXPECT_EQ(info.initial_attempt_timestamp, kT0);
  }
  {
    SCOPED_TRACE("pod is created and scheduled after 2 attempts");
    auto q = NewQueue();
    ASSERT_TRUE(q->Add(pod, kT0).ok());
    QueuedPodInfo info = PopPod(*q, pod);
    info.unschedulable_plugins = {"plugin"};
    ASSERT_TRUE(q->AddUnschedulableIfNotPresent(info, 1, kT0).ok());
    q->FlushUnschedulablePodsLeftover(kT0 + kMaxInUnschedulable + 1);
    info = PopPod(*q, pod);
    EXPECT_EQ(info.attempts, 2);
    EXPECT_EQ(info.initial_attempt_timestamp, kT0);
  }
  {
    SCOPED_TRACE(
        "pod is created and scheduled after 2 attempts but before "
        "the second pop, call update");
    auto q = NewQueue();
    ASSERT_TRUE(q->Add(pod, kT0).ok());
    QueuedPodInfo info = PopPod(*q, pod);
    info.unschedulable_plugins = {"plugin"};
    ASSERT_TRUE(q->AddUnschedulableIfNotPresent(info, 1, kT0).ok());
    api::TimeMs later = kT0 + kMaxInUnschedulable + 1;
    q->FlushUnschedulablePodsLeftover(later);
    api::Pod updated = pod;
    updated.start_time = later;  // upstream bumps Generation
    ASSERT_TRUE(q->Update(pod, updated, later).ok());
    info = PopPod(*q, pod);
    EXPECT_EQ(info.attempts, 2);
    EXPECT_EQ(info.initial_attempt_timestamp, kT0);
  }
  {
    SCOPED_TRACE("A gated pod is created and scheduled after lifting gate");
    AllowlistPreEnqueue gate({"foo"});
    QueueOptions qo;
    qo.pre_enqueue = {&gate};
    qo.hints = {{UnscheduledPodUpdate(), "preEnqueuePlugin", QueueHint()}};
    auto q = NewQueue(qo);
    ASSERT_TRUE(q->Add(pod, kT0).ok());
    EXPECT_EQ(q->Locate(pod.Key()), Where::kUnschedulable);
    // Lift the gate a minute later.
    api::Pod ungated = pod;
    ungated.labels = {{"foo", ""}};
    ASSERT_TRUE(q->Update(pod, ungated, kT0 + 60 * kSecond).ok());
    QueuedPodInfo info = PopPod(*q, pod);
    EXPECT_EQ(info.attempts, 1);
    EXPECT_EQ(info.initial_attempt_timestamp, kT0 + 60 * kSecond);
  }
}

// upstream TestBackOffFlow: 1 s doubling up to the 10 s cap.
TEST(SchedulingQueueTest, BackOffFlow) {
  auto q = NewQueue();
  const api::Pod pod =
      st::MakePod().Name("test-pod").Namespace("test-ns").UID("test-uid").Obj();
  const std::vector<int64_t> want_backoff = {1, 2, 4, 8, 10, 10, 10};
  api::TimeMs now = kT0;
  ASSERT_TRUE(q->Add(pod, now).ok());
  for (size_t i = 0; i < want_backoff.size(); ++i) {
    SCOPED_TRACE("step " + std::to_string(i));
    api::TimeMs timestamp = now;
    // Simulate a scheduling attempt.
    QueuedPodInfo info = PopPod(*q, pod);
    EXPECT_EQ(info.attempts, static_cast<int>(i + 1));
    ASSERT_TRUE(
        q->AddUnschedulableIfNotPresent(info, static_cast<int64_t>(i), now)
            .ok());
    // An event happens.
    MoveAll(*q, framework::UnschedulableTimeout(), nullptr, now);
    ASSERT_EQ(q->Locate(pod.Key()), Where::kBackoff);
    std::optional<QueuedPodInfo> queued = Get(*q, pod.Key());
    int64_t backoff = q->BackoffExpiry(*queued) - timestamp;
    EXPECT_EQ(backoff, want_backoff[i] * kSecond);
    // Still in backoffQ after an early flush.
    now += 1;
    q->FlushBackoffQCompleted(now);
    EXPECT_EQ(q->Locate(pod.Key()), Where::kBackoff);
    // Out of it after the backoff.
    now += backoff;
    q->FlushBackoffQCompleted(now);
    EXPECT_EQ(q->Locate(pod.Key()), Where::kActive);
  }
}

// upstream TestMoveAllToActiveOrBackoffQueue_PreEnqueueChecks
TEST(SchedulingQueueTest, MoveAllPreEnqueueChecks) {
  struct Case {
    std::string name;
    std::function<bool(const api::Pod&)> pre_check;
    ClusterEvent event;
    Keys want;
  };
  int calls = 0;
  const std::vector<Case> cases = {
      {"nil PreEnqueueCheck",
       nullptr,
       WildCard(),
       {"default/p0", "default/p1", "default/p2", "default/p3", "default/p4"}},
      {"move Pods with priority greater than 2",
       [](const api::Pod& p) { return *p.priority >= 2; },
       WildCard(),
       {"default/p2", "default/p3", "default/p4"}},
      {"move Pods with even priority and greater than 2",
       [](const api::Pod& p) {
         return *p.priority % 2 == 0 && *p.priority >= 2;
       },
       WildCard(),
       {"default/p2", "default/p4"}},
      {"move Pods with even and negative priority",
       [](const api::Pod& p) {
         return *p.priority % 2 == 0 && *p.priority < 0;
       },
       WildCard(),
       {}},
      {"preCheck isn't called if the event is not interested by any plugins",
       [&calls](const api::Pod&) {
         ++calls;
         return true;
       },
       PvAdd(),
       {}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    auto q = NewQueue();
    api::TimeMs now = kT0;
    for (int i = 0; i < 5; ++i) {
      api::Pod p =
          st::MakePod().Name("p" + std::to_string(i)).Priority(i).Obj();
      ASSERT_TRUE(q->Add(p, now).ok());
      QueuedPodInfo popped = PopPod(*q, p);
      popped.unschedulable_plugins = {"plugin"};
      AddUnschedulable(*q, popped, now);
      now += 1;  // each a little later than the previous one
    }
    MoveAll(*q, c.event, c.pre_check, now);
    EXPECT_EQ(q->BackoffPodKeys(), c.want);
  }
  EXPECT_EQ(calls, 0);
}

// upstream TestPriorityQueue_calculateBackoffDuration (ms instead of ns),
// plus v1.32's rule for a pod never tried.
TEST(SchedulingQueueTest, CalculateBackoffDuration) {
  struct Case {
    std::string name;
    int64_t initial, max;
    int attempts;
    int64_t want;
  };
  const std::vector<Case> cases = {
      {"normal", 1, 32, 16, 32},
      {"overflow_32bit", 1, INT32_MAX, 32, INT32_MAX},
      {"overflow_64bit", 1, INT64_MAX, 64, INT64_MAX},
      {"never tried", 1000, 10000, 0, 0},
      {"first attempt", 1000, 10000, 1, 1000},
      {"capped", 1000, 10000, 5, 10000},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(CalculateBackoffDurationMs(c.attempts, c.initial, c.max), c.want);
  }
}

// upstream Test_isPodWorthRequeuing, observed through where a pod with
// Attempts 1 lands when the event arrives at its timestamp: kSkip stays in
// unschedulable, kAfterBackoff goes to backoffQ, kImmediately to activeQ.
TEST(SchedulingQueueTest, IsPodWorthRequeuing) {
  struct Case {
    std::string name;
    std::set<std::string> unschedulable_plugins;
    std::set<std::string> pending_plugins;
    ClusterEvent event;
    const api::Node* new_obj;  // the event's new node, or none
    Where want;
    int want_calls;
    std::vector<Reg> hints;
  };
  const api::Node node_obj = st::MakeNode().Name("n").Obj();
  const api::Node* node = &node_obj;
  const ClusterEvent node_label{EventResource::kNode,
                                framework::kUpdateNodeLabel, "NodeLabelChange"};
  const std::vector<Case> cases = {
      {"return Queue when no queueing hint function is registered for the "
       "event",
       {"fooPlugin1"},
       {},
       NodeAdd(),
       node,
       Where::kUnschedulable,
       0,
       {{AssignedPodAdd(), "fooPlugin1", QueueHint()}}},
      {"Treat the event as Queue when QueueHintFn returns error",
       {"fooPlugin1"},
       {},
       NodeAdd(),
       node,
       Where::kBackoff,
       1,
       {{NodeAdd(), "fooPlugin1", ErrorHint()}}},
      {"return Queue when the event is wildcard",
       {"fooPlugin1"},
       {},
       WildCard(),
       nullptr,
       Where::kBackoff,
       0,
       {}},
      {"interprets Queue from the Pending plugin as queueImmediately",
       {"fooPlugin1", "fooPlugin3"},
       {"fooPlugin2"},
       NodeAdd(),
       node,
       Where::kActive,
       2,
       {{NodeAdd(), "fooPlugin1", QueueHint()},
        {NodeAdd(), "fooPlugin2", QueueHint()},
        {NodeAdd(), "fooPlugin3", QueueHint()},
        {NodeAdd(), "fooPlugin4", ErrorHint()}}},
      {"interprets Queue from the Unschedulable plugin as queueAfterBackoff",
       {"fooPlugin1", "fooPlugin2"},
       {},
       NodeAdd(),
       node,
       Where::kBackoff,
       2,
       {{NodeAdd(), "fooPlugin1", SkipHint()},
        {NodeAdd(), "fooPlugin2", QueueHint()}}},
      {"Queueing hint function that isn't from the plugin in "
       "UnschedulablePlugins/PendingPlugins is ignored",
       {"fooPlugin1", "fooPlugin2"},
       {},
       NodeAdd(),
       node,
       Where::kUnschedulable,
       2,
       {{NodeAdd(), "fooPlugin1", SkipHint()},
        {NodeAdd(), "fooPlugin2", SkipHint()},
        {NodeAdd(), "fooPlugin3", QueueHint()}}},
      {"If event is specific Node update event, queueing hint function for "
       "NodeUpdate/UpdateNodeLabel is also executed",
       {"fooPlugin1", "fooPlugin2"},
       {},
       node_label,
       node,
       Where::kBackoff,
       1,
       {{node_label, "fooPlugin1", QueueHint()},
        {node_label, "fooPlugin2", QueueHint()},
        {{EventResource::kNode, framework::kUpdate, "NodeUpdate"},
         "fooPlugin1",
         QueueHint()},
        {NodeAdd(), "fooPlugin1", QueueHint()}}},
      {"If event with '*' Resource, queueing hint function for specified "
       "Resource is also executed",
       {"fooPlugin1"},
       {},
       NodeAdd(),
       node,
       Where::kBackoff,
       1,
       {{{EventResource::kWildCard, framework::kAdd, "*Add"},
         "fooPlugin1",
         QueueHint()}}},
      {"If event is a wildcard one, queueing hint function for all kinds of "
       "events is executed",
       {"fooPlugin1"},
       {},
       {EventResource::kNode,
        framework::kUpdateNodeLabel | framework::kUpdateNodeTaint,
        "NodeChange"},
       node,
       Where::kBackoff,
       1,
       {{{EventResource::kWildCard, framework::kAll, "*"},
         "fooPlugin1",
         QueueHint()}}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    QueueOptions qo;
    qo.hints = c.hints;
    auto q = NewQueue(qo);
    const api::Pod pod =
        st::MakePod().Name("pod1").Namespace("ns1").UID("1").Obj();
    ASSERT_TRUE(q->Add(pod, kT0).ok());
    QueuedPodInfo info = PopPod(*q, pod);
    info.unschedulable_plugins = c.unschedulable_plugins;
    info.pending_plugins = c.pending_plugins;
    // The event comes after the pod's attempt, so it is not in flight.
    AddUnschedulable(*q, info, kT0);
    if (q->Locate(pod.Key()) != Where::kUnschedulable) {
      FAIL() << "setup: " << static_cast<int>(q->Locate(pod.Key()));
    }
    g_hint_calls = 0;
    MoveAllWithNewNode(*q, c.event, c.new_obj, kT0);
    EXPECT_EQ(q->Locate(pod.Key()), c.want);
    EXPECT_EQ(g_hint_calls, c.want_calls);
  }
}

// v1.32 (PR #128170): a wildcard event carrying an object is aimed at the
// pod it carries; it leaves every other pod where it is.
TEST(SchedulingQueueTest, TargetedWildcardEvent) {
  auto q = NewQueue();
  const api::Pod target = HighPriorityPod();
  const api::Pod other = MedPriorityPod();
  MakeUnschedulable(*q, target, {"plugin"}, kT0);
  MakeUnschedulable(*q, other, {"plugin"}, kT0);
  MoveAllWithNewPod(*q, framework::ForceActivate(), target, kT0);
  EXPECT_EQ(q->Locate(target.Key()), Where::kBackoff);
  EXPECT_EQ(q->Locate(other.Key()), Where::kUnschedulable);
  // A wildcard event carrying a node is aimed at no pod.
  const api::Node n = st::MakeNode().Name("n").Obj();
  MoveAllWithNewNode(*q, WildCard(), &n, kT0);
  EXPECT_EQ(q->Locate(other.Key()), Where::kUnschedulable);
}

// upstream Test_queuedPodInfo_gatedSetUponCreationAndUnsetUponUpdate, with the
// SchedulingGates plugin's registration for UpdatePodSchedulingGatesEliminated.
TEST(SchedulingQueueTest, GatedSetUponCreationAndUnsetUponUpdate) {
  FakeSchedulingGates gates;
  QueueOptions qo;
  qo.pre_enqueue = {&gates};
  qo.hints = {
      {{EventResource::kPod, framework::kUpdatePodSchedulingGatesEliminated,
        "UpdatePodSchedulingGatesEliminated"},
       "SchedulingGates",
       QueueHint()}};
  auto q = NewQueue(qo);
  const api::Pod gated =
      st::MakePod().Name("p").SchedulingGates({"hello world"}).Obj();
  ASSERT_TRUE(q->Add(gated, kT0).ok());
  ASSERT_TRUE(Get(*q, gated.Key())->gated);
  // Cluster events do not touch a pod gated by SchedulingGates.
  MoveAll(*q, WildCard(), nullptr, kT0);
  EXPECT_EQ(q->Locate(gated.Key()), Where::kUnschedulable);

  api::Pod ungated = gated;
  ungated.scheduling_gates.clear();
  ASSERT_TRUE(q->Update(gated, ungated, kT0).ok());
  QueuedPodInfo info = PopPod(*q, ungated);
  EXPECT_FALSE(info.gated);
}

// A pod whose profile has no queue hooks is requeued on any event (upstream
// logs this as a bug and requeues).
TEST(SchedulingQueueTest, UnknownProfileIsRequeued) {
  auto q = NewQueue({{{NodeAdd(), "plugin", SkipHint()}}, {}, {}});
  const api::Pod pod = st::MakePod().Name("p").SchedulerName("other").Obj();
  MakeUnschedulable(*q, pod, {"plugin"}, kT0);
  MoveAll(*q, NodeAdd(), nullptr, kT0);
  EXPECT_EQ(q->Locate(pod.Key()), Where::kBackoff);
}

// upstream TestPriorityQueue_GetPod
TEST(SchedulingQueueTest, GetAndLocate) {
  auto q = NewQueue();
  const api::Pod active = st::MakePod().Name("pod1").Obj();
  const api::Pod backoff = st::MakePod().Name("pod2").Obj();
  const api::Pod unsched = st::MakePod().Name("pod3").Obj();
  const api::Pod in_flight = st::MakePod().Name("pod5").Obj();
  MakeBackingOff(*q, backoff, kT0);
  MakeUnschedulable(*q, unsched, {"plugin"}, kT0);
  ASSERT_TRUE(q->Add(in_flight, kT0).ok());
  PopPod(*q, in_flight);
  ASSERT_TRUE(q->Add(active, kT0).ok());
  EXPECT_EQ(PodOf(*Get(*q, "default/pod1")), active);
  EXPECT_EQ(PodOf(*Get(*q, "default/pod2")), backoff);
  EXPECT_EQ(PodOf(*Get(*q, "default/pod3")), unsched);
  EXPECT_FALSE(Get(*q, "default/pod4").has_value());
  EXPECT_FALSE(Get(*q, "default/pod5").has_value());
  EXPECT_EQ(q->Locate("default/pod1"), Where::kActive);
  EXPECT_EQ(q->Locate("default/pod2"), Where::kBackoff);
  EXPECT_EQ(q->Locate("default/pod3"), Where::kUnschedulable);
  EXPECT_EQ(q->Locate("default/pod4"), Where::kAbsent);
  EXPECT_EQ(q->Locate("default/pod5"), Where::kInFlight);
  EXPECT_EQ(q->InFlightPodKeys(), Keys{"default/pod5"});
}

// Pinned orders (docs/deviations.md): activeQ ties go by pod key; backoffQ
// by expiry, then QueueSort, then key.
TEST(SchedulingQueueTest, PinnedOrders) {
  auto q = NewQueue();
  for (const char* name : {"c", "a", "b"}) {
    ASSERT_TRUE(q->Add(st::MakePod().Name(name).Obj(), kT0).ok());
  }
  EXPECT_EQ(q->ActivePodKeys(), (Keys{"default/a", "default/b", "default/c"}));
  auto q2 = NewQueue();
  MakeBackingOff(*q2, st::MakePod().Name("z").Priority(1).Obj(), kT0);
  MakeBackingOff(*q2, st::MakePod().Name("y").Obj(), kT0);
  MakeBackingOff(*q2, st::MakePod().Name("x").Obj(), kT0);
  MakeBackingOff(*q2, st::MakePod().Name("w").Obj(), kT0 - 1);
  EXPECT_EQ(q2->BackoffPodKeys(),
            (Keys{"default/w", "default/z", "default/x", "default/y"}));
}

// An update that yields several events, where one moves the pod to backoffQ
// and a later one says Skip, leaves the pod in backoffQ only
// (docs/deviations.md: upstream also re-adds it to unschedulable).
TEST(SchedulingQueueTest, UpdateWithSeveralEventsKeepsOnePlace) {
  QueueOptions qo;
  qo.hints = {{{EventResource::kPod, framework::kUpdatePodLabel, "label"},
               "plugin",
               QueueHint()},
              {{EventResource::kPod, framework::kUpdatePodTolerations, "tol"},
               "plugin",
               SkipHint()}};
  auto q = NewQueue(qo);
  const api::Pod pod = st::MakePod().Name("p").Obj();
  MakeUnschedulable(*q, pod, {"plugin"}, kT0);
  api::Pod updated = pod;
  updated.labels = {{"a", "b"}};
  updated.tolerations = {api::Toleration{"k", "Exists", "", "", {}}};
  ASSERT_TRUE(q->Update(pod, updated, kT0).ok());
  EXPECT_EQ(q->Locate(pod.Key()), Where::kBackoff);
  EXPECT_TRUE(q->UnschedulablePodKeys().empty());
}

// Done drops the events no remaining in-flight pod needs.
TEST(SchedulingQueueTest, DonePrunesEvents) {
  QueueOptions qo;
  qo.hints = {{NodeAdd(), "plugin", QueueHint()}};
  auto q = NewQueue(qo);
  const api::Pod a = st::MakePod().Name("a").Obj();
  const api::Pod b = st::MakePod().Name("b").Obj();
  ASSERT_TRUE(q->Add(a, kT0).ok());
  ASSERT_TRUE(q->Add(b, kT0).ok());
  PopPod(*q, a);
  MoveAll(*q, NodeAdd(), nullptr, kT0);
  PopPod(*q, b);
  MoveAll(*q, NodeAdd(), nullptr, kT0);
  EXPECT_EQ(q->InFlightEntries(),
            (Keys{"pod:default/a", "NodeAdd", "pod:default/b", "NodeAdd"}));
  q->Done(b.uid);
  EXPECT_EQ(q->InFlightEntries(),
            (Keys{"pod:default/a", "NodeAdd", "NodeAdd"}));
  q->Done(a.uid);
  EXPECT_TRUE(q->InFlightEntries().empty());
  EXPECT_FALSE(q->HasPodsInFlight());
}

}  // namespace
// Not upstream's: pods that tie under QueueSort pop in key order
// (docs/deviations.md "Scheduling queue"), whether the plugin gives sort
// keys (the real PrioritySort: entries compare by their keys' leading
// words, then the strings) or not (the fake: PodInfos compared). The keys
// cover a prefix of another key, keys equal in their first 40 bytes,
// longer keys, and a NUL byte inside a name.
TEST(SchedulingQueueTest, TiesUnderQueueSortPopInKeyOrder) {
  const std::string x37(37, 'x');
  const std::vector<std::string> names = {
      "b",           "ab",          "a",      "a" + std::string(45, 'b'),
      x37 + "2",     x37 + "1",     x37,      x37 + "1" + "0",
      x37 + "12345", std::string("a\0b", 3), std::string("a\0", 2), "aa",
  };
  StatusOr<std::unique_ptr<framework::Plugin>> real =
      framework::plugins::queuesort::PrioritySort::New(nlohmann::json::object(), nullptr);
  ASSERT_TRUE(real.ok());
  const auto* real_sort = dynamic_cast<const framework::QueueSortPlugin*>(real->get());
  ASSERT_NE(real_sort, nullptr);
  for (const framework::QueueSortPlugin* sort : {Sort(), real_sort}) {
    std::map<std::string, SchedulingQueue::Profile> profiles;
    profiles[kProfile] = SchedulingQueue::Profile{};
    SchedulingQueue q(SchedulingQueue::Options{}, sort, std::move(profiles));
    std::vector<std::string> want;
    for (const std::string& name : names) {
      const api::Pod pod = st::MakePod().Name(name).Namespace("ns").UID("uid-" + name).Obj();
      ASSERT_TRUE(q.Add(pod, kT0).ok());
      want.push_back(pod.Key());
    }
    std::sort(want.begin(), want.end());
    std::vector<std::string> got;
    while (std::optional<QueuedPodInfo> info = q.Pop()) got.push_back(PodOf(*info).Key());
    EXPECT_EQ(got, want) << sort->Name();
  }
}

}  // namespace SCHEDREF_QUEUE_NS
