#include "testing/scenario_gen/scenario_gen.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "api/codec/decode.h"
#include "api/codec/scenario_decode.h"
#include "api/codec/scenario_encode.h"
#include "testing/scenario_gen/invariants.h"
#include "testing/scenario_gen/second_profile.h"

namespace schedref::testing::scenario_gen {
namespace {

namespace gen = rc::gen;

constexpr int64_t kMi = int64_t{1} << 20;
constexpr int64_t kGi = int64_t{1} << 30;
constexpr char kGeneratedFile[] = "generated.yaml";
constexpr char kPauseImage[] = "registry.k8s.io/pause:3.10";

// Uniform in [lo, hi), whatever RapidCheck's size (gen::inRange narrows the
// range for small sizes); shrinks towards lo.
int Uniform(int lo, int hi) { return *gen::resize(100, gen::inRange(lo, hi)); }

// True with probability `percent`/100. Shrinks to false, so that shrinking
// removes optional features rather than adding them.
bool Chance(int percent) { return Uniform(0, 100) >= 100 - percent; }

template <typename T>
T Pick(const std::vector<T>& values) {
  return *gen::elementOf(values);
}

// A non-empty subset of `values`, in vocabulary order.
std::vector<std::string> SomeOf(const std::vector<std::string>& values) {
  std::vector<std::string> out;
  for (const std::string& v : values) {
    if (Chance(40)) out.push_back(v);
  }
  if (out.empty()) out.push_back(Pick(values));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

int64_t ImageSize(const std::string& image) {
  static const std::map<std::string, int64_t> kSizes = {
      {"registry.example.com/web:1", 300 * kMi},
      {"registry.example.com/db:1", 800 * kMi},
      {"registry.example.com/cache:1", 120 * kMi},
  };
  return kSizes.at(image);
}

std::string NodeName(int i) { return "n" + std::to_string(i); }
std::string PodName(int i) { return "p" + std::to_string(i); }

// --- Fitting pods bound in `objects` onto nodes ----------------------------

struct NodeUse {
  api::ResourceList used;
  int64_t pods = 0;
  std::set<std::pair<std::string, int32_t>> ports;
};

bool Fits(const api::Pod& pod, const api::Node& node, const NodeUse& use) {
  auto alloc = [&](const char* r) {
    auto it = node.allocatable.find(r);
    return it == node.allocatable.end() ? int64_t{0} : it->second;
  };
  if (use.pods + 1 > alloc(api::kResourcePods)) return false;
  for (const auto& [name, q] : PodRequests(pod)) {
    auto u = use.used.find(name);
    int64_t used = u == use.used.end() ? 0 : u->second;
    if (q > 0 && used + q > alloc(name.c_str())) return false;
  }
  for (const auto& port : HostPorts(pod)) {
    if (use.ports.contains(port)) return false;
  }
  return true;
}

void Occupy(const api::Pod& pod, NodeUse* use) {
  for (const auto& [name, q] : PodRequests(pod)) use->used[name] += q;
  ++use->pods;
  for (const auto& port : HostPorts(pod)) use->ports.insert(port);
}

api::Labels GenPodLabels() {
  api::Labels labels;
  if (!Chance(20)) labels[kAppKey] = Pick(Apps());
  if (Chance(40))
    labels[kTrackKey] = *gen::element<std::string>("stable", "canary");
  return labels;
}

}  // namespace

// --- The vocabulary ---------------------------------------------------------

const std::vector<std::string>& Zones() {
  static const std::vector<std::string> v = {"z1", "z2", "z3"};
  return v;
}
const std::vector<std::string>& Regions() {
  static const std::vector<std::string> v = {"r1", "r2"};
  return v;
}
const std::vector<std::string>& Tiers() {
  static const std::vector<std::string> v = {"gold", "silver"};
  return v;
}
const std::vector<std::string>& Racks() {
  static const std::vector<std::string> v = {"1", "2", "3", "4"};
  return v;
}
const std::vector<std::string>& Apps() {
  static const std::vector<std::string> v = {"web", "db", "cache"};
  return v;
}
const std::vector<std::string>& TaintKeys() {
  static const std::vector<std::string> v = {
      "example.com/dedicated", "example.com/gpu", "example.com/maintenance"};
  return v;
}
const std::vector<std::string>& Images() {
  static const std::vector<std::string> v = {"registry.example.com/web:1",
                                             "registry.example.com/db:1",
                                             "registry.example.com/cache:1"};
  return v;
}
const std::vector<int32_t>& Priorities() {
  static const std::vector<int32_t> v = {0, 10, 100};
  return v;
}

// --- Pieces -----------------------------------------------------------------

rc::Gen<api::Labels> GenNodeLabels(const std::string& node_name) {
  return gen::exec([node_name] {
    api::Labels labels;
    labels[kHostnameKey] = node_name;
    if (!Chance(20)) labels[kZoneKey] = Pick(Zones());
    if (Chance(50)) labels[kRegionKey] = Pick(Regions());
    if (Chance(50)) labels[kTierKey] = Pick(Tiers());
    if (Chance(50)) labels[kRackKey] = Pick(Racks());
    return labels;
  });
}

rc::Gen<std::vector<api::Taint>> GenTaints() {
  return gen::exec([] {
    std::vector<api::Taint> taints;
    std::set<std::pair<std::string, std::string>> seen;
    const int n = *gen::element(0, 0, 1, 1, 2, 3);
    for (int i = 0; i < n; ++i) {
      api::Taint t;
      t.key = Pick(TaintKeys());
      t.value = *gen::element<std::string>("", "a", "b");
      t.effect = *gen::element<std::string>("NoSchedule", "PreferNoSchedule",
                                            "NoExecute");
      if (seen.emplace(t.key, t.effect).second) taints.push_back(t);
    }
    return taints;
  });
}

rc::Gen<api::ResourceList> GenAllocatable() {
  return gen::exec([] {
    api::ResourceList r;
    r[api::kResourceCpu] = *gen::element<int64_t>(4000, 2000, 1000, 8000);
    r[api::kResourceMemory] =
        *gen::element<int64_t>(8 * kGi, 4 * kGi, 2 * kGi, 1 * kGi);
    r[api::kResourcePods] = *gen::element<int64_t>(110, 5, 3, 2);
    return r;
  });
}

rc::Gen<api::Node> GenNode(const std::string& name) {
  return gen::exec([name] {
    api::Node node;
    node.name = name;
    node.labels = *GenNodeLabels(name);
    node.allocatable = *GenAllocatable();
    node.capacity = node.allocatable;
    node.taints = *GenTaints();
    node.unschedulable = Chance(15);
    for (const std::string& image : Images()) {
      if (Chance(25)) node.images.push_back({{image}, ImageSize(image)});
    }
    return node;
  });
}

rc::Gen<api::Toleration> GenToleration() {
  return gen::exec([] {
    api::Toleration t;
    switch (*gen::element(0, 1, 2, 3)) {
      case 0:
        t.key = Pick(TaintKeys());
        t.op = "Equal";
        t.value = *gen::element<std::string>("", "a", "b");
        t.effect = *gen::element<std::string>("", "NoSchedule",
                                              "PreferNoSchedule", "NoExecute");
        break;
      case 1:
        t.key = Pick(TaintKeys());
        t.op = "Exists";
        t.effect = *gen::element<std::string>("", "NoSchedule",
                                              "PreferNoSchedule", "NoExecute");
        break;
      case 2:
        t.key = kUnschedulableTaintKey;
        t.op = "Exists";
        t.effect = "NoSchedule";
        break;
      default:
        // A wildcard, but never for NoSchedule: some taint must stay
        // intolerable to every pod (the properties' extra node).
        t.op = "Exists";
        t.effect = *gen::element<std::string>("NoExecute", "PreferNoSchedule");
        break;
    }
    return t;
  });
}

rc::Gen<api::NodeSelectorRequirement> GenNodeSelectorRequirement() {
  return gen::exec([] {
    api::NodeSelectorRequirement r;
    switch (*gen::element(0, 1, 2, 3, 4)) {
      case 0:
        r.key = kZoneKey;
        break;
      case 1:
        r.key = kTierKey;
        break;
      case 2:
        r.key = kRegionKey;
        break;
      case 3:
        r.key = kRackKey;
        break;
      default:
        r.key = kHostnameKey;
        break;
    }
    const std::vector<std::string>& values =
        r.key == kZoneKey     ? Zones()
        : r.key == kTierKey   ? Tiers()
        : r.key == kRegionKey ? Regions()
        : r.key == kRackKey   ? Racks()
                            : std::vector<std::string>{"n1", "n2", "n3", "n4"};
    if (r.key == kRackKey && Chance(50)) {
      r.op = *gen::element<std::string>("Gt", "Lt");
      r.values = {Pick(Racks())};
      return r;
    }
    r.op = *gen::element<std::string>("In", "NotIn", "Exists", "DoesNotExist");
    if (r.op == "In" || r.op == "NotIn") r.values = SomeOf(values);
    return r;
  });
}

rc::Gen<api::NodeSelectorTerm> GenNodeSelectorTerm() {
  return gen::exec([] {
    api::NodeSelectorTerm term;
    const int n = Uniform(1, 3);
    for (int i = 0; i < n; ++i) {
      term.match_expressions.push_back(*GenNodeSelectorRequirement());
    }
    return term;
  });
}

rc::Gen<api::NodeAffinity> GenNodeAffinity() {
  return gen::exec([] {
    api::NodeAffinity a;
    if (Chance(60)) {
      api::NodeSelector required;
      const int n = Uniform(1, 3);
      for (int i = 0; i < n; ++i)
        required.terms.push_back(*GenNodeSelectorTerm());
      a.required = required;
    }
    if (!a.required.has_value() || Chance(50)) {
      const int n = Uniform(1, 3);
      for (int i = 0; i < n; ++i) {
        a.preferred.push_back(
            {*gen::element<int32_t>(10, 1, 50, 100), *GenNodeSelectorTerm()});
      }
    }
    return a;
  });
}

rc::Gen<api::LabelSelector> GenPodLabelSelector() {
  return gen::exec([] {
    api::LabelSelector s;
    if (Chance(70)) {
      s.match_labels[kAppKey] = Pick(Apps());
    } else {
      api::LabelSelectorRequirement r;
      r.key = *gen::element<std::string>(kAppKey, kTrackKey);
      r.op =
          *gen::element<std::string>("In", "NotIn", "Exists", "DoesNotExist");
      if (r.op == "In" || r.op == "NotIn") {
        r.values = r.key == kAppKey
                       ? SomeOf(Apps())
                       : SomeOf(std::vector<std::string>{"canary", "stable"});
      }
      s.match_expressions.push_back(r);
    }
    return s;
  });
}

rc::Gen<api::PodAffinityTerm> GenPodAffinityTerm() {
  return gen::exec([] {
    api::PodAffinityTerm t;
    t.label_selector = *GenPodLabelSelector();
    t.topology_key =
        *gen::element<std::string>(kHostnameKey, kZoneKey, kRegionKey);
    return t;
  });
}

rc::Gen<api::PodAffinity> GenPodAffinity() {
  return gen::exec([] {
    api::PodAffinity a;
    if (Chance(50)) a.required.push_back(*GenPodAffinityTerm());
    if (a.required.empty() || Chance(40)) {
      a.preferred.push_back(
          {*gen::element<int32_t>(10, 1, 50, 100), *GenPodAffinityTerm()});
    }
    return a;
  });
}

rc::Gen<api::TopologySpreadConstraint> GenSpreadConstraint() {
  return gen::exec([] {
    api::TopologySpreadConstraint c;
    c.max_skew = *gen::element(1, 2);
    c.topology_key =
        *gen::element<std::string>(kZoneKey, kHostnameKey, kTierKey, kRackKey);
    c.when_unsatisfiable =
        *gen::element<std::string>("DoNotSchedule", "ScheduleAnyway");
    api::LabelSelector s;
    s.match_labels[kAppKey] = Pick(Apps());
    c.label_selector = s;
    if (c.when_unsatisfiable == "DoNotSchedule" && Chance(20)) {
      c.min_domains = *gen::element(2, 3, 4);
    }
    if (Chance(20)) {
      c.node_affinity_policy = *gen::element<std::string>("Ignore", "Honor");
    }
    if (Chance(20)) {
      c.node_taints_policy = *gen::element<std::string>("Honor", "Ignore");
    }
    if (Chance(15)) c.match_label_keys = {kTrackKey};
    return c;
  });
}

rc::Gen<api::Container> GenContainer(const std::string& name, bool init) {
  return gen::exec([name, init] {
    api::Container c;
    c.name = name;
    c.image = Chance(50) ? Pick(Images()) : std::string(kPauseImage);
    // Absent (-1), explicitly zero, or an amount.
    const int64_t cpu =
        *gen::element<int64_t>(-1, 100, 250, 500, 0, 1000, 2000);
    const int64_t mem =
        *gen::element<int64_t>(-1, 256 * kMi, 64 * kMi, 0, 1 * kGi, 2 * kGi);
    if (cpu >= 0) c.requests[api::kResourceCpu] = cpu;
    if (mem >= 0) c.requests[api::kResourceMemory] = mem;
    if (init && Chance(30)) c.restart_policy = "Always";
    if (!init && Chance(15)) {
      api::ContainerPort port;
      port.container_port = 80;
      port.host_port = *gen::element<int32_t>(8080, 9090);
      port.protocol = *gen::element<std::string>("TCP", "UDP");
      c.ports.push_back(port);
    }
    return c;
  });
}

rc::Gen<api::Pod> GenPod(const std::string& name, api::TimeMs created) {
  return gen::exec([name, created] {
    api::Pod pod;
    pod.ns = kNamespace;
    pod.name = name;
    pod.uid = pod.ns + "/" + pod.name;
    pod.labels = GenPodLabels();
    pod.creation_timestamp = created;
    pod.priority = Pick(Priorities());
    pod.preemption_policy =
        Chance(15) ? "Never" : std::string("PreemptLowerPriority");
    pod.scheduler_name = "default-scheduler";
    const int containers = *gen::element(1, 1, 2);
    for (int i = 0; i < containers; ++i) {
      pod.containers.push_back(
          *GenContainer("c" + std::to_string(i), /*init=*/false));
    }
    if (Chance(15)) pod.init_containers.push_back(*GenContainer("i0", true));
    if (Chance(5)) pod.overhead[api::kResourceCpu] = 50;
    if (Chance(20)) {
      if (Chance(50)) pod.node_selector[kZoneKey] = Pick(Zones());
      if (Chance(50)) pod.node_selector[kTierKey] = Pick(Tiers());
    }
    api::Affinity affinity;
    if (Chance(30)) affinity.node_affinity = *GenNodeAffinity();
    if (Chance(20)) affinity.pod_affinity = *GenPodAffinity();
    if (Chance(20)) affinity.pod_anti_affinity = *GenPodAffinity();
    if (affinity.node_affinity || affinity.pod_affinity ||
        affinity.pod_anti_affinity) {
      pod.affinity = affinity;
    }
    const int tolerations = *gen::element(0, 0, 0, 1, 2, 3);
    for (int i = 0; i < tolerations; ++i) {
      pod.tolerations.push_back(*GenToleration());
    }
    if (Chance(25)) {
      pod.topology_spread_constraints.push_back(*GenSpreadConstraint());
      if (Chance(30)) {
        api::TopologySpreadConstraint second = *GenSpreadConstraint();
        const api::TopologySpreadConstraint& first = pod.topology_spread_constraints[0];
        // The API server rejects a second constraint on the same
        // {topologyKey, whenUnsatisfiable}.
        if (second.topology_key != first.topology_key ||
            second.when_unsatisfiable != first.when_unsatisfiable) {
          pod.topology_spread_constraints.push_back(std::move(second));
        }
      }
    }
    if (Chance(20)) {
      pod.scheduling_gates.push_back("example.com/quota");
      if (Chance(50)) pod.scheduling_gates.push_back("example.com/approval");
    }
    return pod;
  });
}

// --- Scenarios --------------------------------------------------------------
//
// Shrinking. Objects are generated before they are named, as elements of
// RapidCheck containers, and the timeline as a container of intents that
// pick their target by index among what exists when they happen. So
// shrinking can drop any node, pod or event without disturbing the others
// (under gen::exec, changing an earlier choice regenerates every later
// one); names follow positions.

namespace {

void Rename(api::Node& node, const std::string& name) {
  node.name = name;
  node.labels[kHostnameKey] = name;
}

void Rename(api::Pod& pod, const std::string& name, api::TimeMs created) {
  pod.name = name;
  pod.uid = pod.ns + "/" + name;
  pod.creation_timestamp = created;
}

// A pod in `objects`, and whether to try binding it (to the node at
// `node_pick` modulo the node count).
struct InitialPod {
  api::Pod pod;
  bool bind = false;
  int node_pick = 0;
  // Not bound: nominated to the node at nominate_pick (as a preemptor of
  // an earlier scheduler would have left it), and/or its required node
  // affinity narrowed to the node at fields_pick by a metadata.name
  // matchFields (a PreFilterResult), both modulo the node count.
  bool nominate = false;
  int nominate_pick = 0;
  bool pin_by_name = false;
  int fields_pick = 0;
};

rc::Gen<InitialPod> GenInitialPod() {
  return gen::exec([] {
    InitialPod p;
    p.pod = *GenPod("p", 0);
    p.bind = p.pod.scheduling_gates.empty() && Chance(40);
    if (p.bind) p.node_pick = Uniform(0, 64);
    p.nominate = !p.bind && Chance(15);
    p.nominate_pick = Uniform(0, 64);
    p.pin_by_name = !p.bind && Chance(10);
    p.fields_pick = Uniform(0, 64);
    return p;
  });
}

// One timeline step: an operation, the time since the previous step, and
// everything the operation needs. `pick` chooses the target among the
// candidates that exist then; a step with no candidate is dropped.
struct Intent {
  enum class Op {
    kAdvance,
    kCreatePod,
    kDeletePod,
    kUngate,
    kAddNode,
    kDeleteNode,
    kUpdateNode,
    kFailBind,
  };
  Op op = Op::kAdvance;
  api::TimeMs gap = 0;
  int pick = 0;
  int variant = 0;
  bool fail_first_bind = false;    // kCreatePod
  api::Pod pod;                    // kCreatePod
  api::Node node;                  // kAddNode
  std::vector<api::Taint> taints;  // kUpdateNode, variant 1
  std::string value;               // kUpdateNode, variants 2 and 3
};

rc::Gen<Intent> GenIntent() {
  return gen::exec([] {
    using Op = Intent::Op;
    Intent i;
    // Weights: advance 1, create pod 8, delete pod 2, ungate 3, add node 1,
    // delete node 1, update node 2, fail bind 1.
    static const std::vector<Op> kOps = {
        Op::kAdvance,    Op::kCreatePod,  Op::kCreatePod, Op::kCreatePod,
        Op::kCreatePod,  Op::kCreatePod,  Op::kCreatePod, Op::kCreatePod,
        Op::kCreatePod,  Op::kDeletePod,  Op::kDeletePod, Op::kUngate,
        Op::kUngate,     Op::kUngate,     Op::kAddNode,   Op::kDeleteNode,
        Op::kUpdateNode, Op::kUpdateNode, Op::kFailBind};
    i.op = kOps[static_cast<size_t>(Uniform(0, static_cast<int>(kOps.size())))];
    i.gap = *gen::element<api::TimeMs>(0, 1000, 100, 500, 2000, 5000);
    i.pick = Uniform(0, 64);
    switch (i.op) {
      case Op::kCreatePod:
        i.pod = *GenPod("p", 0);
        i.fail_first_bind = Chance(10);
        break;
      case Op::kAddNode:
        i.node = *GenNode("n");
        break;
      case Op::kUngate:
        i.variant = Uniform(0, 2);  // 1: lift only the first gate
        break;
      case Op::kUpdateNode:
        // 0 cordon/uncordon, 1 new taints, 2 tier/rack label, 3 zone label,
        // 4 the Ready condition or an annotation (events no default plugin
        // registers)
        i.variant = Uniform(0, 5);
        if (i.variant == 1) i.taints = *GenTaints();
        if (i.variant == 2) {
          // "key=value"; an empty value removes the label.
          i.value = *gen::element<std::string>("tier=gold", "tier=silver",
                                               "rack=1", "rack=2", "rack=3",
                                               "rack=4", "tier=", "rack=");
        }
        if (i.variant == 3) i.value = Pick(Zones());
        break;
      case Op::kFailBind:
        i.variant = *gen::element(1, 2);  // count
        break;
      default:
        break;
    }
    return i;
  });
}

}  // namespace

rc::Gen<api::Scenario> GenScenario(Options options) {
  return gen::exec([options] {
    using Op = Intent::Op;
    api::Scenario s;
    s.name = "generated";
    s.file = kGeneratedFile;
    s.seed = *gen::arbitrary<uint64_t>();
    s.start_time = api::kDefaultScenarioStartTime;
    s.bind_latency_ms = Chance(20) ? *gen::element<int64_t>(500, 1500) : 0;
    s.config.profiles.push_back(api::Profile{});
    // Sometimes every node has the same allocatable, so that scores tie
    // and the seeded tie-break decides.
    const bool uniform = Chance(40);
    const api::ResourceList shape = *GenAllocatable();

    // At least min_nodes nodes. (Not gen::nonEmpty: its retries grow the
    // size.) The first min_nodes are drawn one by one, so they shrink in
    // place but never away.
    auto shrinking = [&options](auto g) {
      return options.shrink_nodes ? g : gen::noShrink(g);
    };
    std::vector<api::Node> node_seeds;
    for (int i = 0; i < options.min_nodes; ++i) {
      node_seeds.push_back(*shrinking(GenNode("n")));
    }
    for (api::Node& node : *shrinking(gen::resize(
             options.max_nodes - options.min_nodes,
             gen::container<std::vector<api::Node>>(GenNode("n"))))) {
      node_seeds.push_back(std::move(node));
    }
    std::vector<InitialPod> pod_seeds =
        *gen::resize(std::min(6, options.max_pods),
                     gen::container<std::vector<InitialPod>>(GenInitialPod()));
    std::vector<Intent> intents = *gen::resize(
        options.max_events, gen::container<std::vector<Intent>>(GenIntent()));
    const api::TimeMs run_on = *gen::element<api::TimeMs>(3000, 0, 12000);

    // The cluster as the generator models it while it writes the timeline.
    std::map<std::string, api::Node> nodes;  // existing, current version
    std::map<std::string, api::Pod> pods;    // existing, current version
    std::vector<std::string> ever_pods;      // keys, for failBind
    int32_t max_priority_so_far = Priorities().front();
    int node_count = 0;
    int pod_count = 0;
    auto add_node = [&](api::Node node) {
      Rename(node, NodeName(++node_count));
      if (uniform) node.allocatable = node.capacity = shape;
      nodes[node.name] = node;
      return node;
    };
    auto add_pod = [&](api::Pod pod, api::TimeMs created) {
      Rename(pod, PodName(++pod_count), created);
      max_priority_so_far = std::max(max_priority_so_far, *pod.priority);
      pods[pod.Key()] = pod;
      ever_pods.push_back(pod.Key());
      return pod;
    };

    for (api::Node& node : node_seeds) {
      s.initial.nodes.push_back(add_node(std::move(node)));
    }
    std::map<std::string, NodeUse> use;
    for (InitialPod& seed : pod_seeds) {
      if (seed.bind) {
        // Bound already: onto the picked node if it fits there.
        const api::Node& node =
            s.initial.nodes[static_cast<size_t>(seed.node_pick) %
                            s.initial.nodes.size()];
        if (Fits(seed.pod, node, use[node.name])) {
          seed.pod.node_name = node.name;
          Occupy(seed.pod, &use[node.name]);
        }
      }
      const size_t count = s.initial.nodes.size();
      if (seed.nominate && count > 0) {
        seed.pod.nominated_node_name =
            s.initial.nodes[static_cast<size_t>(seed.nominate_pick) % count].name;
      }
      if (seed.pin_by_name && count > 0) {
        const api::NodeSelectorRequirement by_name{
            "metadata.name", "In",
            {s.initial.nodes[static_cast<size_t>(seed.fields_pick) % count].name}};
        if (!seed.pod.affinity) seed.pod.affinity = api::Affinity{};
        api::Affinity& a = *seed.pod.affinity;
        if (!a.node_affinity) a.node_affinity = api::NodeAffinity{};
        if (!a.node_affinity->required) {
          a.node_affinity->required = api::NodeSelector{{api::NodeSelectorTerm{}}};
        }
        // Every term ANDs the name, so the pod can only go to that node.
        for (api::NodeSelectorTerm& t : a.node_affinity->required->terms) {
          t.match_fields.push_back(by_name);
        }
      }
      s.initial.pods.push_back(add_pod(std::move(seed.pod), s.start_time));
    }

    api::TimeMs at = 0;
    for (Intent& intent : intents) {
      at += intent.gap;
      std::vector<std::string> deletable;  // see GenScenario's guarantees
      std::vector<std::string> gated;
      for (const auto& [key, pod] : pods) {
        if (*pod.priority >= max_priority_so_far) deletable.push_back(key);
        if (!pod.scheduling_gates.empty()) gated.push_back(key);
      }
      std::vector<std::string> node_names;
      for (const auto& [name, node] : nodes) node_names.push_back(name);
      auto pick = [&intent](const std::vector<std::string>& from) {
        return from[static_cast<size_t>(intent.pick) % from.size()];
      };

      api::Event e;
      e.at = at;
      switch (intent.op) {
        case Op::kAdvance:
          e.op = api::Event::Op::kAdvance;
          break;
        case Op::kCreatePod: {
          if (pod_count >= options.max_pods) continue;
          api::Pod pod = add_pod(std::move(intent.pod), s.start_time + at);
          if (intent.fail_first_bind) {
            // Armed before the pod exists, so that its first Bind fails.
            api::Event fail;
            fail.at = at;
            fail.op = api::Event::Op::kFailBind;
            fail.kind = "Pod";
            fail.name = pod.Key();
            s.timeline.push_back(fail);
          }
          e.op = api::Event::Op::kCreate;
          e.kind = "Pod";
          e.name = pod.Key();
          e.object = pod;
          break;
        }
        case Op::kDeletePod: {
          if (deletable.empty()) continue;
          const std::string key = pick(deletable);
          pods.erase(key);
          e.op = api::Event::Op::kDelete;
          e.kind = "Pod";
          e.name = key;
          break;
        }
        case Op::kUngate: {
          if (gated.empty()) continue;
          api::Pod& pod = pods.at(pick(gated));
          if (pod.scheduling_gates.size() > 1 && intent.variant == 1) {
            pod.scheduling_gates.erase(pod.scheduling_gates.begin());
          } else {
            pod.scheduling_gates.clear();
          }
          e.op = api::Event::Op::kUpdate;
          e.kind = "Pod";
          e.name = pod.Key();
          e.object = pod;
          break;
        }
        case Op::kAddNode: {
          if (node_count >= options.max_nodes) continue;
          api::Node node = add_node(std::move(intent.node));
          e.op = api::Event::Op::kCreate;
          e.kind = "Node";
          e.name = node.name;
          e.object = node;
          break;
        }
        case Op::kDeleteNode: {
          if (node_names.empty() || !options.node_tree_changes) continue;
          const std::string name = pick(node_names);
          nodes.erase(name);
          e.op = api::Event::Op::kDelete;
          e.kind = "Node";
          e.name = name;
          break;
        }
        case Op::kUpdateNode: {
          if (node_names.empty()) continue;
          api::Node& node = nodes.at(pick(node_names));
          if (intent.variant == 0) {
            node.unschedulable = !node.unschedulable;
          } else if (intent.variant == 1) {
            node.taints = intent.taints;
          } else if (intent.variant == 2) {
            const size_t eq = intent.value.find('=');
            const std::string key =
                intent.value.substr(0, eq) == "tier" ? kTierKey : kRackKey;
            const std::string value = intent.value.substr(eq + 1);
            if (value.empty()) {
              node.labels.erase(key);
            } else {
              node.labels[key] = value;
            }
          } else if (intent.variant == 4) {
            if (intent.pick % 2 == 0) {
              node.conditions["Ready"] =
                  node.conditions["Ready"] == "False" ? "True" : "False";
            } else {
              node.annotations["example.com/revision"] =
                  std::to_string(intent.pick);
            }
          } else if (options.node_tree_changes) {
            node.labels[kZoneKey] = intent.value;
          } else {
            continue;
          }
          e.op = api::Event::Op::kUpdate;
          e.kind = "Node";
          e.name = node.name;
          e.object = node;
          break;
        }
        case Op::kFailBind:
          if (ever_pods.empty()) continue;
          e.op = api::Event::Op::kFailBind;
          e.kind = "Pod";
          e.name = pick(ever_pods);
          e.count = intent.variant;
          break;
      }
      s.timeline.push_back(std::move(e));
    }
    if (ever_pods.empty()) {
      // At least one pod: a pending one in `objects`.
      s.initial.pods.push_back(add_pod(*GenPod("p", 0), s.start_time));
    }
    // Let time run on so that backoffs expire and retries happen.
    api::Event end;
    end.op = api::Event::Op::kAdvance;
    end.at = at + run_on;
    s.timeline.push_back(end);
    if (options.second_profile_percent > 0 &&
        Chance(options.second_profile_percent)) {
      AddSecondProfile(s, api::Profile{});
    }
    if (options.storage_percent > 0 && Chance(options.storage_percent)) {
      AddStorage(s, options.storage_changes);
    }
    if (options.lifetime_percent > 0 && Chance(options.lifetime_percent)) {
      AddLifetimes(s);
    }
    if (options.extender_percent > 0 && Chance(options.extender_percent)) {
      AddDeclaredExtender(s);
    }
    return s;
  });
}

void AddLifetimes(api::Scenario& s) {
  std::map<std::string, std::optional<api::PodLifetime>> by_key;
  auto give = [&by_key](api::Pod& pod) {
    auto [it, fresh] = by_key.try_emplace(pod.Key());
    if (fresh && Chance(50)) {
      api::PodLifetime lifetime;
      lifetime.run_for_ms = *gen::inRange<int64_t>(1, 17) * 500;
      lifetime.end_phase = Chance(25) ? "Failed" : "Succeeded";
      it->second = lifetime;
    }
    if (it->second.has_value()) api::SetPodLifetime(*it->second, &pod);
  };
  for (api::Pod& pod : s.initial.pods) give(pod);
  for (api::Event& e : s.timeline) {
    if (auto* pod = std::get_if<api::Pod>(&e.object)) give(*pod);
  }
}

void AddDeclaredExtender(api::Scenario& s) {
  constexpr char kUrl[] = "http://generated.extender/scheduler";
  api::Extender config;
  config.url_prefix = kUrl;
  config.ignorable = Chance(30);
  config.node_cache_capable = Chance(30);
  if (Chance(15)) config.managed_resources.push_back({"example.com/gpu", false});
  api::DeclaredExtender d;
  d.url_prefix = kUrl;
  std::vector<std::string> names;
  for (const api::Node& n : s.initial.nodes) names.push_back(n.name);
  // Some nodes: by name, or (node objects only) by a label.
  auto nodes = [&](const std::string& key, const std::vector<std::string>& values) {
    api::DeclaredNodes out;
    if (config.node_cache_capable || Chance(40)) {
      for (const std::string& n : names) {
        if (Chance(35)) out.names.push_back(n);
      }
      if (out.names.empty()) out.names.push_back(names.empty() ? "n0" : Pick(names));
    } else {
      api::LabelSelector selector;
      selector.match_labels[key] = Pick(values);
      out.selector = selector;
    }
    return out;
  };
  auto reply = [&](int error_percent) {
    api::DeclaredReply r;
    if (Chance(error_percent)) r.status = Chance(50) ? 500 : 404;
    if (Chance(10)) r.delay_ms = config.http_timeout_ns / 1'000'000;  // a timeout
    return r;
  };
  const bool filter = Chance(70), prioritize = Chance(60);
  if (filter) {
    config.filter_verb = "filter";
    api::DeclaredFilter f;
    f.reply = reply(10);
    if (Chance(10)) f.reply.error = "extender not ready";
    for (int i = Uniform(0, 3); i > 0; --i) {
      f.reject.push_back(api::DeclaredReject{nodes(kTierKey, Tiers()),
                                             Chance(50) ? "no room" : "reserved", Chance(40)});
    }
    d.filter = std::move(f);
  }
  if (prioritize || !filter) {
    config.prioritize_verb = "prioritize";
    config.weight = Uniform(1, 4);
    api::DeclaredPrioritize p;
    p.reply = reply(10);
    p.default_score = Uniform(0, 3);
    for (int i = Uniform(0, 3); i > 0; --i) {
      p.scores.push_back(api::DeclaredScore{nodes(kZoneKey, Zones()), Uniform(0, 11)});
    }
    d.prioritize = std::move(p);
  }
  if (Chance(30)) {
    config.bind_verb = "bind";
    api::DeclaredReply b = reply(10);
    if (Chance(15)) b.error = "bind refused";
    d.bind = b;
  }
  if (Chance(30)) {
    config.preempt_verb = "preempt";
    api::DeclaredPreempt p;
    p.reply = reply(10);
    for (const std::string& n : names) {
      if (Chance(30)) p.drop.push_back(n);
    }
    if (Chance(30)) p.keep_victims = Uniform(0, 3);
    d.preempt = std::move(p);
  }
  s.config.extenders.push_back(std::move(config));
  s.extenders.push_back(std::move(d));
}

void AddStorage(api::Scenario& s, bool changes) {
  for (const char* name : {kStorageClassWait, kStorageClassNow}) {
    api::StorageClass sc;
    sc.name = name;
    sc.provisioner = kCsiDriver;
    sc.volume_binding_mode = name == std::string(kStorageClassWait)
                                 ? api::kVolumeBindingWaitForFirstConsumer
                                 : api::kVolumeBindingImmediate;
    s.initial.storage_classes.push_back(sc);
  }
  if (Chance(50)) {
    api::CSIDriver driver;
    driver.name = kCsiDriver;
    driver.attach_required = true;
    s.initial.csi_drivers.push_back(driver);
  }
  for (const api::Node& node : s.initial.nodes) {
    if (!Chance(60)) continue;
    api::CSINode csi;
    csi.name = node.name;
    api::CSINodeDriver d;
    d.name = kCsiDriver;
    d.node_id = "i-" + node.name;
    if (Chance(80)) d.allocatable_count = Uniform(0, 4);
    csi.drivers.push_back(d);
    s.initial.csi_nodes.push_back(csi);
  }
  const int claims = Uniform(1, 6);
  std::vector<std::string> claim_names;
  for (int i = 1; i <= claims; ++i) {
    api::PersistentVolumeClaim c;
    c.ns = kNamespace;
    c.name = "c" + std::to_string(i);
    c.uid = c.ns + "/" + c.name;
    c.spec.access_modes = {*gen::element<std::string>(
        api::kReadWriteOnce, api::kReadWriteOncePod, api::kReadWriteMany)};
    c.spec.storage_request = kGi;
    const int how = Uniform(0, 3);  // 0 bound, 1 WaitForFirstConsumer, 2 Immediate
    c.spec.storage_class_name = how == 2 ? kStorageClassNow : kStorageClassWait;
    if (how == 0) {
      api::PersistentVolume pv;
      pv.name = "pv-" + c.name;
      pv.uid = pv.name;
      pv.capacity = kGi;
      pv.access_modes = c.spec.access_modes;
      pv.storage_class_name = *c.spec.storage_class_name;
      pv.claim_ref = api::ClaimReference{c.ns, c.name, c.uid};
      pv.reclaim_policy = "Delete";
      pv.source.kind = "csi";
      pv.source.driver = kCsiDriver;
      // Now and then two PVs share a handle (one attachment).
      pv.source.volume_handle = "vol-" + std::to_string(Chance(20) ? 1 : i);
      if (Chance(30)) {
        pv.node_affinity = api::NodeSelector{{api::NodeSelectorTerm{
            {{kZoneKey, "In", {Pick(Zones())}}}, {}}}};
      }
      pv.phase = "Bound";
      c.spec.volume_name = pv.name;
      c.annotations[api::kAnnBindCompleted] = "yes";
      c.annotations[api::kAnnBoundByController] = "yes";
      c.phase = "Bound";
      s.initial.persistent_volumes.push_back(std::move(pv));
    }
    claim_names.push_back(c.name);
    s.initial.persistent_volume_claims.push_back(std::move(c));
  }
  const int free_volumes = Uniform(0, 3);
  for (int i = 1; i <= free_volumes; ++i) {
    api::PersistentVolume pv;
    pv.name = "pv-free" + std::to_string(i);
    pv.uid = pv.name;
    pv.capacity = (Chance(50) ? 1 : 2) * kGi;
    pv.access_modes = {api::kReadWriteOnce, api::kReadWriteMany};
    pv.storage_class_name = kStorageClassWait;
    pv.source.kind = "csi";
    pv.source.driver = kCsiDriver;
    pv.source.volume_handle = "vol-free" + std::to_string(i);
    if (Chance(50)) {
      pv.node_affinity = api::NodeSelector{{api::NodeSelectorTerm{
          {{kZoneKey, "In", {Pick(Zones())}}}, {}}}};
    }
    pv.phase = "Available";
    s.initial.persistent_volumes.push_back(std::move(pv));
  }

  // Volumes per pod key, drawn at the pod's first version.
  std::map<std::string, std::vector<api::Volume>> volumes;
  auto volumes_of = [&](const api::Pod& pod) -> const std::vector<api::Volume>& {
    auto it = volumes.find(pod.Key());
    if (it != volumes.end()) return it->second;
    std::vector<api::Volume>& out = volumes[pod.Key()];
    if (!pod.node_name.empty() || !Chance(60)) return out;
    std::set<std::string> used;
    const int n = Uniform(1, 3);
    for (int i = 0; i < n; ++i) {
      const std::string claim =
          Chance(10) ? "missing" : claim_names[static_cast<size_t>(Uniform(0, claims))];
      if (!used.insert(claim).second) continue;
      api::Volume v;
      v.name = "v-" + claim;
      v.source.kind = "persistentVolumeClaim";
      v.source.claim_name = claim;
      out.push_back(std::move(v));
    }
    if (Chance(10)) {
      api::Volume v;
      v.name = "scratch";
      v.source.kind = "ephemeral";
      api::PersistentVolumeClaimSpec spec;
      spec.access_modes = {api::kReadWriteOnce};
      spec.storage_request = kGi;
      spec.storage_class_name = kStorageClassWait;
      v.ephemeral = std::move(spec);
      out.push_back(std::move(v));
    }
    return out;
  };
  for (api::Pod& pod : s.initial.pods) pod.volumes = volumes_of(pod);
  for (api::Event& e : s.timeline) {
    if (auto* pod = std::get_if<api::Pod>(&e.object)) pod->volumes = volumes_of(*pod);
  }

  // Storage that changes while pods wait and run: the missing claim
  // appears, a claim goes, a CSINode's limit moves. Each lands right after
  // a random event, at its time (the last event, the final advance, stays
  // last).
  if (!changes) return;
  auto insert_after_random = [&](api::Event e) {
    const size_t at = static_cast<size_t>(Uniform(0, static_cast<int>(s.timeline.size()) - 1));
    e.at = s.timeline[at].at;
    s.timeline.insert(s.timeline.begin() + static_cast<std::ptrdiff_t>(at) + 1, std::move(e));
  };
  if (s.timeline.size() >= 2 && Chance(40)) {
    api::PersistentVolumeClaim c;
    c.ns = kNamespace;
    c.name = "missing";
    c.uid = c.ns + "/" + c.name;
    c.spec.access_modes = {api::kReadWriteOnce};
    c.spec.storage_request = kGi;
    c.spec.storage_class_name = kStorageClassWait;
    api::Event e;
    e.op = api::Event::Op::kCreate;
    e.kind = "PersistentVolumeClaim";
    e.name = c.Key();
    e.object = std::move(c);
    insert_after_random(std::move(e));
  }
  if (s.timeline.size() >= 2 && Chance(40)) {
    api::Event e;
    e.op = api::Event::Op::kDelete;
    e.kind = "PersistentVolumeClaim";
    e.name = std::string(kNamespace) + "/" + Pick(claim_names);
    insert_after_random(std::move(e));
  }
  if (s.timeline.size() >= 2 && !s.initial.csi_nodes.empty() && Chance(40)) {
    api::CSINode csi = Pick(s.initial.csi_nodes);
    csi.drivers.front().allocatable_count = Uniform(0, 4);
    api::Event e;
    e.op = api::Event::Op::kUpdate;
    e.kind = "CSINode";
    e.name = csi.name;
    e.object = std::move(csi);
    insert_after_random(std::move(e));
  }
}

Canonical Canonicalize(const api::Scenario& scenario) {
  Canonical out;
  StatusOr<api::Scenario> decoded =
      api::DecodeScenario(api::EncodeScenario(scenario), scenario.file);
  if (!decoded.ok()) {
    out.error = decoded.status().message();
    return out;
  }
  out.ok = true;
  out.scenario = std::move(decoded).value();
  return out;
}

}  // namespace schedref::testing::scenario_gen

namespace schedref::api {

void showValue(const Scenario& scenario, std::ostream& os) {
  os << "\n" << EncodeScenario(scenario);
}

}  // namespace schedref::api
