#include "testing/models/cache_property.h"

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <rapidcheck.h>
#include <rapidcheck/state.h>

#include "testing/models/cache_harness.h"
#include "testing/models/cache_model.h"

namespace schedref::testing::models {

// How RapidCheck prints a generated Config in a counterexample (found by
// argument-dependent lookup, hence outside the unnamed namespace).
void showValue(const CacheModel::Config& c, std::ostream& os) {
  os << "assumed pod TTL " << c.assumed_pod_ttl_ms << " ms";
}

namespace {

namespace gen = rc::gen;

// --- generators -----------------------------------------------------------------

api::TimeMs NextTime(const CacheModel& s0) {
  return s0.now + *gen::element<api::TimeMs>(0, 0, 0, 500, 1000, 5000);
}

bool HasNodeObject(const CacheModel& s0, const std::string& name) {
  auto it = s0.nodes.find(name);
  return it != s0.nodes.end() && it->second.node.has_value();
}

std::string NodeWhere(const CacheModel& s0, bool with_object) {
  std::vector<std::string> names;
  for (const std::string& name : ModelNodeNames()) {
    if (HasNodeObject(s0, name) == with_object) names.push_back(name);
  }
  RC_PRE(!names.empty());
  return *gen::elementOf(names);
}

std::string AnyNode() { return *gen::elementOf(ModelNodeNames()); }

NodeLabels GenLabels() {
  NodeLabels l;
  l.zone = *gen::inRange(0, 5);
  l.region = *gen::weightedElement<bool>({{3, false}, {1, true}});
  l.version = *gen::inRange(0, 3);
  return l;
}

// Mostly a pod in the state the operation expects (`likely`), sometimes any
// pod: the illegal transitions.
template <typename Pred>
std::string PodUid(const CacheModel& s0, Pred likely) {
  std::vector<std::string> uids;
  for (const std::string& uid : ModelPodUids()) {
    auto it = s0.pods.find(uid);
    if (likely(it == s0.pods.end() ? nullptr : &it->second)) {
      uids.push_back(uid);
    }
  }
  if (uids.empty() || *gen::weightedElement<bool>({{1, true}, {4, false}})) {
    return *gen::elementOf(ModelPodUids());
  }
  return *gen::elementOf(uids);
}

bool Unknown(const CacheModel::Pod* p) { return p == nullptr; }
bool Assumed(const CacheModel::Pod* p) { return p != nullptr && p->assumed; }
bool Added(const CacheModel::Pod* p) { return p != nullptr && !p->assumed; }

// Mostly the pod's own node; sometimes another, or "".
NodeChoice GenChoice(bool allow_empty) {
  const int kind = *gen::weightedElement<int>(
      {{6, NodeChoice::kCached}, {2, NodeChoice::kNamed},
       {allow_empty ? 1u : 0u, NodeChoice::kEmpty}});
  NodeChoice c;
  c.kind = static_cast<NodeChoice::Kind>(kind);
  if (c.kind == NodeChoice::kNamed) c.name = AnyNode();
  return c;
}

// --- commands -------------------------------------------------------------------

struct CacheCommand : rc::state::Command<CacheModel, CacheHarness> {
  CacheOp op;

  void checkPreconditions(const CacheModel& s0) const override {
    RC_PRE(IsValid(s0, op));
  }
  void apply(CacheModel& s0) const override { Apply(s0, op); }
  void run(const CacheModel& s0, CacheHarness& sut) const override {
    if (std::optional<std::string> error = sut.RunAndCheck(s0, op)) {
      RC_FAIL("after \"" + Show(op) + "\": " + *error);
    }
  }
  void show(std::ostream& os) const override { os << Show(op); }
};

struct AddNodeCommand : CacheCommand {
  explicit AddNodeCommand(const CacheModel& s0) {
    op = {NextTime(s0), AddNodeOp{NodeWhere(s0, false), GenLabels()}};
  }
};

struct UpdateNodeCommand : CacheCommand {
  explicit UpdateNodeCommand(const CacheModel& s0) {
    op = {NextTime(s0), UpdateNodeOp{NodeWhere(s0, true), GenLabels()}};
  }
};

struct RemoveNodeCommand : CacheCommand {
  explicit RemoveNodeCommand(const CacheModel& s0) {
    // Sometimes a node the cache does not hold (or only as a ghost).
    const bool with_object =
        *gen::weightedElement<bool>({{4, true}, {1, false}});
    op = {NextTime(s0), RemoveNodeOp{NodeWhere(s0, with_object)}};
  }
};

struct AssumePodCommand : CacheCommand {
  explicit AssumePodCommand(const CacheModel& s0) {
    std::string uid = PodUid(s0, Unknown);
    if (*gen::weightedElement<bool>({{30, false}, {1, true}})) uid = "";
    op = {NextTime(s0), AssumePodOp{uid, AnyNode()}};
  }
};

struct FinishBindingCommand : CacheCommand {
  explicit FinishBindingCommand(const CacheModel& s0) {
    op = {NextTime(s0), FinishBindingOp{PodUid(s0, Assumed)}};
  }
};

struct ForgetPodCommand : CacheCommand {
  explicit ForgetPodCommand(const CacheModel& s0) {
    op = {NextTime(s0), ForgetPodOp{PodUid(s0, Assumed), GenChoice(true)}};
  }
};

struct AddPodCommand : CacheCommand {
  explicit AddPodCommand(const CacheModel& s0) {
    const std::string uid = PodUid(s0, [](const CacheModel::Pod* p) {
      return p == nullptr || p->assumed;
    });
    op = {NextTime(s0), AddPodOp{uid, GenChoice(false), *gen::inRange(0, 3)}};
  }
};

struct UpdatePodCommand : CacheCommand {
  explicit UpdatePodCommand(const CacheModel& s0) {
    op = {NextTime(s0),
          UpdatePodOp{PodUid(s0, Added), GenChoice(true), *gen::inRange(0, 3)}};
  }
};

struct RemovePodCommand : CacheCommand {
  explicit RemovePodCommand(const CacheModel& s0) {
    op = {NextTime(s0), RemovePodOp{PodUid(s0, Added), GenChoice(true)}};
  }
};

struct CleanupCommand : CacheCommand {
  explicit CleanupCommand(const CacheModel& s0) {
    op = {NextTime(s0), CleanupOp{}};
  }
};

struct SnapshotCommand : CacheCommand {
  explicit SnapshotCommand(const CacheModel& s0) {
    op = {NextTime(s0), SnapshotOp{}};
  }
};

}  // namespace

void CheckCacheAgainstModel(const CacheFactory& make) {
  // Mostly v1.32's TTL 0 (assumed pods never expire); sometimes a TTL, to
  // exercise CleanupAssumedPods.
  const CacheModel::Config config =
      *gen::map(gen::element<int64_t>(0, 0, 3000), [](int64_t ttl) {
        CacheModel::Config c;
        c.assumed_pod_ttl_ms = ttl;
        return c;
      });
  CacheHarness sut(make(config));
  rc::state::check(
      CacheModel(config), sut,
      rc::state::gen::execOneOfWithArgs<
          AddNodeCommand, AddNodeCommand, UpdateNodeCommand, RemoveNodeCommand,
          AssumePodCommand, AssumePodCommand, AssumePodCommand,
          FinishBindingCommand, ForgetPodCommand, AddPodCommand, AddPodCommand,
          UpdatePodCommand, RemovePodCommand, CleanupCommand, SnapshotCommand,
          SnapshotCommand>());
}

}  // namespace schedref::testing::models
