#include "api/codec/scenario_decode.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <fstream>
#include <optional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "api/codec/decode.h"
#include "api/config/config_decode.h"
#include "api/codec/scenario_encode.h"

namespace schedref::api {
namespace {

std::string ReadTestdata(const std::string& name) {
  std::ifstream in("api/codec/testdata/scenarios/" + name);
  EXPECT_TRUE(in.good()) << name;
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// 2024-01-01T00:00:00Z + `ms`.
TimeMs Start(int64_t ms = 0) { return kDefaultScenarioStartTime + ms; }

// A scenario header followed by `body` (YAML, at the top level).
std::string Doc(const std::string& body) {
  return "schedref: scenario/v1\nname: t\n" + body;
}

constexpr char kNode[] =
    "{apiVersion: v1, kind: Node, metadata: {name: n1}, "
    "status: {capacity: {cpu: '1'}}}";

std::string PodManifest(const std::string& name, const std::string& spec = "") {
  return "{apiVersion: v1, kind: Pod, metadata: {name: " + name +
         "}, spec: {containers: [{name: c}]" +
         (spec.empty() ? "" : ", " + spec) + "}}";
}

// A pod "p" with these annotations (YAML flow map).
std::string LifetimePod(const std::string& annotations) {
  return "{apiVersion: v1, kind: Pod, metadata: {name: p, annotations: " + annotations +
         "}, spec: {containers: [{name: c}]}}";
}

std::string PriorityClassManifest(const std::string& name, int value,
                                  const std::string& extra = "") {
  return "{apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: "
         "{name: " +
         name + "}, value: " + std::to_string(value) +
         (extra.empty() ? "" : ", " + extra) + "}";
}

std::string StorageClassManifest(const std::string& name) {
  return "{apiVersion: storage.k8s.io/v1, kind: StorageClass, metadata: {name: " + name +
         "}, provisioner: example.com/p}";
}

std::string ClaimManifest(const std::string& name) {
  return "{apiVersion: v1, kind: PersistentVolumeClaim, metadata: {name: " + name +
         "}, spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}}";
}

// --- A file with every feature
// -------------------------------------------------

TEST(DecodeScenario, EveryOp) {
  StatusOr<Scenario> got =
      DecodeScenario(ReadTestdata("every-op.yaml"), "every-op.yaml");
  ASSERT_TRUE(got.ok()) << got.status().message();
  const Scenario& s = *got;

  EXPECT_EQ(s.version, 1);
  EXPECT_EQ(s.file, "every-op.yaml");
  EXPECT_EQ(s.name, "every-op");
  EXPECT_EQ(s.description.substr(0, 25), "Every timeline operation,");
  EXPECT_EQ(s.upstream_test,
            "pkg/scheduler/schedule_one_test.go TestSchedulerScheduleOne");
  EXPECT_EQ(s.seed, 42u);
  const TimeMs start = *ParseRfc3339("2024-03-01T12:00:00Z");
  EXPECT_EQ(s.start_time, start);
  EXPECT_EQ(s.bind_latency_ms, 250);

  EXPECT_EQ(s.config.pod_initial_backoff_seconds, 2);
  EXPECT_EQ(s.config.pod_max_backoff_seconds, 10);
  ASSERT_EQ(s.config.profiles.size(), 1u);
  ASSERT_TRUE(s.config.profiles[0].plugins.has_value());
  EXPECT_EQ(s.config.profiles[0].plugins->multi_point.enabled,
            (std::vector<PluginRef>{{"TestPermit", 0}}));

  // Objects: the NodeList's items inherit kind and apiVersion; the List's
  // items are sorted into their kinds.
  ASSERT_EQ(s.initial.nodes.size(), 2u);
  EXPECT_EQ(s.initial.nodes[0].name, "n1");
  EXPECT_EQ(s.initial.nodes[1].allocatable.at("cpu"), 4000);
  ASSERT_EQ(s.initial.priority_classes.size(), 2u);
  EXPECT_EQ(s.initial.priority_classes[0].name, "low");
  EXPECT_EQ(s.initial.priority_classes[1].name, "high");
  ASSERT_EQ(s.initial.pods.size(), 2u);

  // Priority admission on initial objects.
  const Pod& p0 = s.initial.pods[0];
  EXPECT_EQ(p0.Key(), "default/p0");
  EXPECT_EQ(p0.priority, 1000);
  EXPECT_EQ(p0.preemption_policy, "Never");
  EXPECT_EQ(p0.creation_timestamp, start);
  const Pod& running = s.initial.pods[1];
  EXPECT_EQ(running.Key(), "kube-system/running");
  EXPECT_EQ(running.priority, 7);  // explicit, no class: kept
  EXPECT_EQ(running.priority_class_name, "");
  EXPECT_EQ(running.preemption_policy, "PreemptLowerPriority");
  EXPECT_EQ(running.creation_timestamp, *ParseRfc3339("2024-02-01T00:00:00Z"));

  ASSERT_EQ(s.timeline.size(), 11u);
  const std::vector<Event>& t = s.timeline;

  EXPECT_EQ(t[0].op, Event::Op::kFailBind);
  EXPECT_EQ(t[0].at, 0);
  EXPECT_EQ(t[0].kind, "Pod");
  EXPECT_EQ(t[0].name, "default/p1");
  EXPECT_EQ(t[0].count, 2);

  EXPECT_EQ(t[1].op, Event::Op::kSetBindLatency);
  EXPECT_EQ(t[1].name, "");
  EXPECT_EQ(t[1].kind, "");
  EXPECT_EQ(t[1].duration_ms, 1500);

  EXPECT_EQ(t[2].op, Event::Op::kCreate);
  EXPECT_EQ(t[2].kind, "Pod");
  EXPECT_EQ(t[2].name, "default/p1");
  const Pod& p1 = std::get<Pod>(t[2].object);
  EXPECT_EQ(p1.creation_timestamp, start);
  // No class: the global default class "low".
  EXPECT_EQ(p1.priority_class_name, "low");
  EXPECT_EQ(p1.priority, 10);
  EXPECT_EQ(p1.preemption_policy, "PreemptLowerPriority");

  EXPECT_EQ(t[3].op, Event::Op::kSetBindLatency);
  EXPECT_EQ(t[3].at, 500);
  EXPECT_EQ(t[3].name, "default/p1");
  EXPECT_EQ(t[3].duration_ms, 2000);

  EXPECT_EQ(t[4].op, Event::Op::kUpdate);
  const Pod& p1_updated = std::get<Pod>(t[4].object);
  EXPECT_EQ(p1_updated.labels.at("app"), "web");
  // What admission set on create survives the update.
  EXPECT_EQ(p1_updated.priority, 10);
  EXPECT_EQ(p1_updated.priority_class_name, "low");
  EXPECT_EQ(p1_updated.preemption_policy, "PreemptLowerPriority");
  EXPECT_EQ(p1_updated.creation_timestamp, start);

  EXPECT_EQ(t[5].op, Event::Op::kAllow);
  EXPECT_EQ(t[5].at, 3000);
  EXPECT_EQ(t[5].name, "default/p1");
  EXPECT_EQ(t[5].plugin, "TestPermit");
  EXPECT_EQ(t[6].op, Event::Op::kReject);
  EXPECT_EQ(t[6].name, "default/p0");

  EXPECT_EQ(t[7].op, Event::Op::kCreate);
  EXPECT_EQ(t[7].kind, "Node");
  EXPECT_EQ(t[7].name, "n3");
  EXPECT_EQ(std::get<Node>(t[7].object).name, "n3");

  EXPECT_EQ(t[8].op, Event::Op::kDelete);
  EXPECT_EQ(t[8].kind, "Node");
  EXPECT_EQ(t[8].name, "n3");
  EXPECT_EQ(t[9].op, Event::Op::kDelete);
  EXPECT_EQ(t[9].kind, "Pod");
  EXPECT_EQ(t[9].name, "default/p1");

  EXPECT_EQ(t[10].op, Event::Op::kAdvance);
  EXPECT_EQ(t[10].at, 90000);
  EXPECT_TRUE(s.expected_trace.empty());
}

TEST(DecodeScenario, StorageObjectsAndTimeline) {
  StatusOr<Scenario> got = DecodeScenario(ReadTestdata("storage.yaml"), "storage.yaml");
  ASSERT_TRUE(got.ok()) << got.status().message();
  const Objects& o = got->initial;
  ASSERT_EQ(o.storage_classes.size(), 1u);
  EXPECT_EQ(o.storage_classes[0].volume_binding_mode, kVolumeBindingWaitForFirstConsumer);
  ASSERT_EQ(o.csi_drivers.size(), 1u);
  EXPECT_TRUE(o.csi_drivers[0].storage_capacity);
  ASSERT_EQ(o.csi_nodes.size(), 1u);
  EXPECT_EQ(o.csi_nodes[0].drivers.at(0).allocatable_count, 2);
  ASSERT_EQ(o.persistent_volumes.size(), 1u);
  EXPECT_EQ(o.persistent_volumes[0].source.volume_handle, "vol-1");
  ASSERT_EQ(o.persistent_volume_claims.size(), 1u);
  EXPECT_EQ(o.persistent_volume_claims[0].Key(), "shop/data");
  ASSERT_EQ(o.csi_storage_capacities.size(), 1u);
  EXPECT_EQ(o.csi_storage_capacities[0].Key(), "kube-system/cap1");

  const std::vector<Event>& t = got->timeline;
  ASSERT_EQ(t.size(), 9u);
  EXPECT_EQ(t[0].op, Event::Op::kCreate);
  EXPECT_EQ(t[0].kind, "PersistentVolume");
  EXPECT_EQ(t[0].name, "pv2");
  EXPECT_EQ(std::get<PersistentVolume>(t[0].object).capacity, int64_t{2} << 30);
  EXPECT_EQ(t[1].op, Event::Op::kUpdate);
  EXPECT_EQ(t[1].kind, "PersistentVolumeClaim");
  EXPECT_EQ(t[1].name, "shop/data");
  EXPECT_EQ(std::get<PersistentVolumeClaim>(t[1].object).spec.volume_name, "pv1");
  EXPECT_EQ(t[2].op, Event::Op::kUpdate);
  EXPECT_EQ(std::get<CSINode>(t[2].object).drivers.at(0).allocatable_count, 3);
  const std::vector<std::pair<std::string, std::string>> deletes = {
      {"CSIStorageCapacity", "kube-system/cap1"}, {"PersistentVolume", "pv2"},
      {"StorageClass", "fast"},  {"CSIDriver", "ebs.csi.aws.com"},
      {"PersistentVolumeClaim", "shop/data"},     {"CSINode", "n1"}};
  for (size_t i = 0; i < deletes.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(t[3 + i].op, Event::Op::kDelete);
    EXPECT_EQ(t[3 + i].kind, deletes[i].first);
    EXPECT_EQ(t[3 + i].name, deletes[i].second);
  }
}

TEST(DecodeScenario, JsonAndExpectedTrace) {
  StatusOr<Scenario> got =
      DecodeScenario(ReadTestdata("minimal.json"), "minimal.json");
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_EQ(got->start_time, Start());
  EXPECT_EQ(got->config, DefaultConfiguration());
  EXPECT_EQ(got->expected_trace,
            (std::vector<std::string>{
                R"({"format":"schedref-trace","kind":"header","version":1})",
                R"({"kind":"placements","placements":{"default/p":"n1"}})"}));
  ASSERT_EQ(got->timeline.size(), 1u);
  EXPECT_EQ(std::get<Pod>(got->timeline[0].object).priority, 0);
}

TEST(DecodeScenario, PodLifetimes) {
  struct Case {
    std::string annotations;
    std::optional<PodLifetime> want;
  };
  const std::vector<Case> cases = {
      {"{}", std::nullopt},
      {"{schedref.io/run-for: 90s}", PodLifetime{90000, "Succeeded"}},
      {"{schedref.io/run-for: 1m30.5s, schedref.io/end-phase: Failed}",
       PodLifetime{90500, "Failed"}},
      {"{schedref.io/run-for: 2000us, schedref.io/end-phase: Succeeded}",
       PodLifetime{2, "Succeeded"}},
  };
  for (const Case& c : cases) {
    StatusOr<Scenario> s =
        DecodeScenario(Doc("objects:\n- " + LifetimePod(c.annotations) + "\n"), "f.yaml");
    ASSERT_TRUE(s.ok()) << c.annotations << ": " << s.status().message();
    EXPECT_EQ(s->initial.pods.at(0).lifetime, c.want) << c.annotations;
    // What SetPodLifetime writes reads back as the same lifetime.
    if (c.want.has_value()) {
      Pod written;
      SetPodLifetime(*c.want, &written);
      EXPECT_EQ(written.lifetime, c.want);
      Scenario copy = *s;
      copy.initial.pods[0].annotations = written.annotations;
      StatusOr<Scenario> again = DecodeScenario(EncodeScenario(copy), "f.yaml");
      ASSERT_TRUE(again.ok()) << again.status().message();
      EXPECT_EQ(again->initial.pods.at(0).lifetime, c.want);
    }
  }
}

TEST(DecodeScenario, TimelinePodsGetCreationTimestampAtTheirTime) {
  StatusOr<Scenario> got = DecodeScenario(
      Doc("timeline:\n"
          "- {at: 1500ms, create: " +
          PodManifest("a") +
          "}\n"
          "- {at: 2s, create: {apiVersion: v1, kind: Pod, metadata: "
          "{name: b, creationTimestamp: '2023-01-01T00:00:00Z'}, spec: "
          "{containers: [{name: c}]}}}\n"),
      "f.yaml");
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_EQ(std::get<Pod>(got->timeline[0].object).creation_timestamp,
            Start(1500));
  EXPECT_EQ(std::get<Pod>(got->timeline[1].object).creation_timestamp,
            *ParseRfc3339("2023-01-01T00:00:00Z"));
}

// --- Round trip
// --------------------------------------------------------------------

TEST(EncodeScenario, RoundTripsTheTestdata) {
  for (const char* name : {"every-op.yaml", "minimal.json", "storage.yaml"}) {
    SCOPED_TRACE(name);
    StatusOr<Scenario> s = DecodeScenario(ReadTestdata(name), name);
    ASSERT_TRUE(s.ok()) << s.status().message();
    const std::string text = EncodeScenario(*s);
    StatusOr<Scenario> again = DecodeScenario(text, name);
    ASSERT_TRUE(again.ok()) << again.status().message() << "\n" << text;
    EXPECT_EQ(*again, *s) << text;
    // Stable: a second round writes the same text.
    EXPECT_EQ(EncodeScenario(*again), text);
  }
}

TEST(EncodeScenario, ReadableOutput) {
  StatusOr<Scenario> s =
      DecodeScenario(Doc("description: |\n  line one\n  line two\n"
                         "objects:\n- " +
                         std::string(kNode) +
                         "\n"
                         "timeline:\n- {at: 2m, advance: {}}\n"),
                     "f.yaml");
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(EncodeScenario(*s),
            "schedref: scenario/v1\n"
            "name: t\n"
            "description: |\n"
            "  line one\n"
            "  line two\n"
            "startTime: \"2024-01-01T00:00:00Z\"\n"
            "objects:\n"
            "  - apiVersion: v1\n"
            "    kind: Node\n"
            "    metadata:\n"
            "      name: n1\n"
            "    spec: {}\n"
            "    status:\n"
            "      allocatable:\n"
            "        cpu: 1000m\n"
            "      capacity:\n"
            "        cpu: 1000m\n"
            "timeline:\n"
            "  - at: 2m0s\n"
            "    advance: {}\n");
}

// Free text and plugin args (free JSON) carry arbitrary strings and keys;
// whatever they hold must come back from the YAML writer unchanged.
rc::Gen<std::string> Text() {
  return rc::gen::map(
      rc::gen::scale(
          0.2,
          rc::gen::container<std::vector<std::string>>(
              rc::gen::element<std::string>(
                  "a", "Z", "0", "1.5", "0x1F", "-", "_", ".", "/", " ", "  ",
                  ":", ": ", "#", " #", "'", "\"", "\\", "\n", "\n\n", "\t",
                  "\r", std::string("\0", 1), "\x01", "\x7f", "|", ">", "&a",
                  "*a", "!", "%", "@", "`", "[", "]", "{", "}", ",", "?", "~",
                  "<<", "---", "...", "yes", "No", "ON", "null", "true", "y",
                  "=", "\xc3\xa9", "\xc2\x85", "\xe2\x80\xa8", "\xef\xbb\xbf",
                  "\xf0\x9f\x98\x80", ".inf", "1e3", "2024-01-01"))),
      [](const std::vector<std::string>& pieces) {
        std::string out;
        for (const std::string& p : pieces) out += p;
        return out;
      });
}

rc::Gen<nlohmann::json> Args() {
  return rc::gen::map(
      rc::gen::scale(
          0.1,
          rc::gen::container<std::vector<std::pair<std::string, std::string>>>(
              rc::gen::pair(Text(), Text()))),
      [](const std::vector<std::pair<std::string, std::string>>& entries) {
        nlohmann::json out = nlohmann::json::object();
        for (const auto& [k, v] : entries) {
          out[k] = nlohmann::json{{"s", v}, {"list", {v, 1, true, nullptr}}};
        }
        return out;
      });
}

RC_GTEST_PROP(EncodeScenario, RoundTripsArbitraryText, ()) {
  Scenario s;
  s.file = "rc.yaml";
  s.name = *Text().as("name");
  RC_PRE(!s.name.empty());
  s.description = *Text().as("description");
  s.upstream_test = *Text().as("upstream");
  s.start_time = kDefaultScenarioStartTime;
  s.config = DefaultConfiguration();
  s.config.profiles[0].plugin_config.push_back({"P", *Args().as("args")});
  const std::string text = EncodeScenario(s);
  StatusOr<Scenario> again = DecodeScenario(text, "rc.yaml");
  RC_ASSERT(again.ok());
  RC_ASSERT(*again == s);
}


// --- Priority admission
// ------------------------------------------------------------

struct AdmissionCase {
  const char* name;
  std::string classes;  // YAML list items, "" for none
  std::string pod_spec;
  std::string want_class;
  int32_t want_priority;
  std::string want_policy;
};

TEST(DecodeScenario, PriorityAdmission) {
  const std::string low_default =
      "- " + PriorityClassManifest("low", 5, "globalDefault: true") + "\n";
  const std::string never =
      "- " + PriorityClassManifest("never", 100, "preemptionPolicy: Never") +
      "\n";
  const std::vector<AdmissionCase> cases = {
      {"NoClassNoDefault", "", "", "", 0, "PreemptLowerPriority"},
      {"NoClassGlobalDefault", low_default, "", "low", 5,
       "PreemptLowerPriority"},
      {"ClassValueAndPolicy", never, "priorityClassName: never", "never", 100,
       "Never"},
      {"ClassWithMatchingPriority", never,
       "priorityClassName: never, priority: 100, preemptionPolicy: Never",
       "never", 100, "Never"},
      {"ClassWinsOverGlobalDefault", low_default + never,
       "priorityClassName: never", "never", 100, "Never"},
      {"ExplicitPriorityWithoutClassIsKept", low_default, "priority: 42", "",
       42, "PreemptLowerPriority"},
      {"ExplicitPolicyWithoutClassIsKept", "", "preemptionPolicy: Never", "", 0,
       "Never"},
      {"SystemClass", "", "priorityClassName: system-node-critical",
       "system-node-critical", 2000001000, "PreemptLowerPriority"},
  };
  for (const AdmissionCase& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string objects =
        c.classes + "- " + PodManifest("p", c.pod_spec) + "\n";
    StatusOr<Scenario> s =
        DecodeScenario(Doc("objects:\n" + objects), "f.yaml");
    ASSERT_TRUE(s.ok()) << s.status().message();
    ASSERT_EQ(s->initial.pods.size(), 1u);
    const Pod& pod = s->initial.pods[0];
    EXPECT_EQ(pod.priority_class_name, c.want_class);
    EXPECT_EQ(pod.priority, c.want_priority);
    EXPECT_EQ(pod.preemption_policy, c.want_policy);
  }
}

TEST(DecodeScenario, TimelineClassesApplyToLaterPods) {
  StatusOr<Scenario> s =
      DecodeScenario(Doc("timeline:\n"
                         "- {at: 0s, create: " +
                         PodManifest("before") +
                         "}\n"
                         "- {at: 1s, create: " +
                         PriorityClassManifest("d", 9, "globalDefault: true") +
                         "}\n"
                         "- {at: 2s, create: " +
                         PodManifest("after") +
                         "}\n"
                         "- {at: 3s, delete: {kind: PriorityClass, name: d}}\n"
                         "- {at: 4s, create: " +
                         PodManifest("later") + "}\n"),
                     "f.yaml");
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(std::get<Pod>(s->timeline[0].object).priority, 0);
  EXPECT_EQ(std::get<Pod>(s->timeline[2].object).priority, 9);
  EXPECT_EQ(std::get<Pod>(s->timeline[2].object).priority_class_name, "d");
  EXPECT_EQ(std::get<Pod>(s->timeline[4].object).priority, 0);
}

// --- Errors
// ------------------------------------------------------------------------

struct ErrorCase {
  const char* name;
  std::string text;
  std::string message;
};

// An extender with every verb, for the declared-extender cases.
const std::string kExtenderConfig =
    "config: {extenders: [{urlPrefix: http://x, filterVerb: f, "
    "prioritizeVerb: p, weight: 1, preemptVerb: e}]}\n";

TEST(DecodeScenario, DeclaredExtendersRoundTrip) {
  const std::string text = Doc(
      "config:\n"
      "  extenders:\n"
      "  - {urlPrefix: http://x, filterVerb: f, prioritizeVerb: p, weight: 2,\n"
      "     bindVerb: b, preemptVerb: e}\n"
      "extenders:\n"
      "- urlPrefix: http://x\n"
      "  filter:\n"
      "    delay: 1500ms\n"
      "    error: busy\n"
      "    reject:\n"
      "    - {nodes: [n1], reason: r1, unresolvable: true}\n"
      "    - {selector: {matchLabels: {gpu: none}, matchExpressions: [{key: z, "
      "operator: In, values: [a]}]}, reason: r2}\n"
      "  prioritize:\n"
      "    default: 1\n"
      "    scores: [{nodes: [n2], score: 7}]\n"
      "  bind: {status: 500}\n"
      "  preempt: {drop: [n3], keepVictims: 1, body: '{}'}\n");
  StatusOr<Scenario> s = DecodeScenario(text, "f.yaml");
  ASSERT_TRUE(s.ok()) << s.status().message();
  ASSERT_EQ(s->extenders.size(), 1u);
  const DeclaredExtender& d = s->extenders[0];
  ASSERT_TRUE(d.filter.has_value());
  EXPECT_EQ(d.filter->reply.delay_ms, 1500);
  EXPECT_EQ(d.filter->reply.error, "busy");
  ASSERT_EQ(d.filter->reject.size(), 2u);
  EXPECT_TRUE(d.filter->reject[0].unresolvable);
  EXPECT_EQ(d.filter->reject[1].nodes.selector->match_labels.at("gpu"), "none");
  EXPECT_EQ(d.prioritize->default_score, 1);
  EXPECT_EQ(d.prioritize->scores[0].score, 7);
  EXPECT_EQ(d.bind->status, 500);
  EXPECT_EQ(d.preempt->drop, std::vector<std::string>{"n3"});
  EXPECT_EQ(*d.preempt->keep_victims, 1);
  EXPECT_EQ(*d.preempt->reply.body, "{}");
  const std::string encoded = EncodeScenario(*s);
  StatusOr<Scenario> again = DecodeScenario(encoded, "f.yaml");
  ASSERT_TRUE(again.ok()) << again.status().message() << "\n" << encoded;
  EXPECT_EQ(*again, *s) << encoded;
}

TEST(DecodeScenario, Errors) {
  const std::string node_objects = std::string("objects:\n- ") + kNode + "\n";
  const std::vector<ErrorCase> cases = {
      // The document.
      {"UnsupportedVersion", "schedref: scenario/v2\nname: t\n",
       "f.yaml: schedref: unsupported scenario version \"scenario/v2\" (want "
       "\"scenario/v1\")"},
      {"MissingVersion", "name: t\n",
       "f.yaml: schedref: required field is missing"},
      {"MissingName", "schedref: scenario/v1\n",
       "f.yaml: name: required field is missing"},
      {"UnknownTopLevelField", Doc("timelime: []\n"),
       "f.yaml: timelime: unknown field"},
      {"TwoDocuments", Doc("") + "---\n" + Doc(""),
       "f.yaml: expected one scenario document, got 2"},
      {"NotAnObject", "[1, 2]\n", "f.yaml: expected object, got array"},
      {"BadStartTime", Doc("startTime: yesterday\n"),
       "f.yaml: startTime: invalid RFC 3339 time \"yesterday\""},
      {"NegativeSeed", Doc("seed: -1\n"),
       "f.yaml: seed: expected a non-negative integer, got -1"},
      {"BindLatencyNotAString", Doc("bindLatency: 5\n"),
       "f.yaml: bindLatency: expected a duration string such as \"1.5s\", "
       "got integer"},
      {"InvalidConfig",
       Doc("config: {profiles: [{schedulerName: a}, {schedulerName: a}]}\n"),
       "f.yaml: config: profiles[1].schedulerName: Duplicate value: "
       "profiles[0].schedulerName"},
      {"ConfigTypeError", Doc("config: {profiles: 3}\n"),
       "f.yaml: config.profiles: expected array, got integer"},
      {"BrokenExpectedTrace", Doc("expectedTrace: |\n  {\"kind\":\"note\"}\n"),
       "f.yaml: expectedTrace:1: kind: expected \"header\" first, got "
       "\"note\""},

      // objects.
      {"ObjectDefinedTwice",
       Doc(node_objects + "- " + std::string(kNode) + "\n"),
       "f.yaml: objects[1]: Node n1 is defined twice (first at objects[0])"},
      {"ObjectDecodeErrorKeepsPath",
       Doc("objects:\n- " + PodManifest("p", "priority: high") + "\n"),
       "f.yaml: Pod default/p: objects[0].spec.priority: expected integer, "
       "got string"},
      // Pod lifetimes.
      {"LifetimeNotADuration",
       Doc("objects:\n- " + LifetimePod("{schedref.io/run-for: soon}") + "\n"),
       "f.yaml: Pod default/p: objects[0].metadata.annotations[schedref.io/run-for]: "
       "expected a positive duration in whole milliseconds such as \"90s\", got \"soon\""},
      {"LifetimeZero",
       Doc("objects:\n- " + LifetimePod("{schedref.io/run-for: 0s}") + "\n"),
       "f.yaml: Pod default/p: objects[0].metadata.annotations[schedref.io/run-for]: "
       "expected a positive duration in whole milliseconds such as \"90s\", got \"0s\""},
      {"LifetimeSubMillisecond",
       Doc("timeline:\n- {at: 0s, create: " + LifetimePod("{schedref.io/run-for: 1500us}") +
           "}\n"),
       "f.yaml: Pod default/p: timeline[0].create.metadata.annotations[schedref.io/run-for]: "
       "expected a positive duration in whole milliseconds such as \"90s\", got \"1500us\""},
      {"LifetimeUnknownPhase",
       Doc("objects:\n- " +
           LifetimePod("{schedref.io/run-for: 1s, schedref.io/end-phase: Done}") + "\n"),
       "f.yaml: Pod default/p: objects[0].metadata.annotations[schedref.io/end-phase]: "
       "unsupported value \"Done\" (supported: \"Succeeded\", \"Failed\")"},
      {"LifetimePhaseWithoutRunFor",
       Doc("objects:\n- " + LifetimePod("{schedref.io/end-phase: Failed}") + "\n"),
       "f.yaml: Pod default/p: objects[0].metadata.annotations[schedref.io/end-phase]: "
       "needs the annotation schedref.io/run-for"},
      {"UnknownPriorityClass",
       Doc("objects:\n- " + PodManifest("p", "priorityClassName: gold") + "\n"),
       "f.yaml: objects[0].spec.priorityClassName: no PriorityClass with name "
       "gold was found"},
      {"PriorityDiffersFromClass",
       Doc("objects:\n- " + PriorityClassManifest("gold", 10) + "\n- " +
           PodManifest("p", "priorityClassName: gold, priority: 11") + "\n"),
       "f.yaml: objects[1].spec.priority: the integer value of priority (11) "
       "must not be provided in pod spec; priority admission controller "
       "computed 10 from the given PriorityClass name"},
      {"PolicyDiffersFromClass",
       Doc("objects:\n- " + PriorityClassManifest("gold", 10) + "\n- " +
           PodManifest("p",
                       "priorityClassName: gold, preemptionPolicy: Never") +
           "\n"),
       "f.yaml: objects[1].spec.preemptionPolicy: the string value of "
       "PreemptionPolicy (Never) must not be provided in pod spec; priority "
       "admission controller computed PreemptLowerPriority from the given "
       "PriorityClass name"},
      {"SecondGlobalDefault",
       Doc("objects:\n- " +
           PriorityClassManifest("a", 1, "globalDefault: true") + "\n- " +
           PriorityClassManifest("b", 2, "globalDefault: true") + "\n"),
       "f.yaml: objects[1]: PriorityClass a is already marked as default. "
       "Only one default can exist"},

      // timeline entries.
      {"NoOp", Doc("timeline:\n- {at: 0s}\n"),
       "f.yaml: timeline[0]: expected exactly one of create, update, delete, "
       "advance, failBind, bindLatency, allow, reject; got none"},
      {"TwoOps", Doc("timeline:\n- {at: 0s, advance: {}, delete: {}}\n"),
       "f.yaml: timeline[0]: expected exactly one of create, update, delete, "
       "advance, failBind, bindLatency, allow, reject; got delete, advance"},
      {"UnknownEntryField",
       Doc("timeline:\n- {at: 0s, advance: {}, after: 1s}\n"),
       "f.yaml: timeline[0].after: unknown field"},
      {"MissingAt", Doc("timeline:\n- {advance: {}}\n"),
       "f.yaml: timeline[0].at: required field is missing"},
      {"BadAt", Doc("timeline:\n- {at: 1 s, advance: {}}\n"),
       "f.yaml: timeline[0].at: invalid duration \"1 s\""},
      {"NegativeAt", Doc("timeline:\n- {at: -1s, advance: {}}\n"),
       "f.yaml: timeline[0].at: duration \"-1s\" is negative"},
      {"SubMillisecondAt", Doc("timeline:\n- {at: 10us, advance: {}}\n"),
       "f.yaml: timeline[0].at: duration \"10us\" is not a whole number of "
       "milliseconds"},
      {"AtGoesBackwards",
       Doc("timeline:\n- {at: 2s, advance: {}}\n- {at: 2s, advance: {}}\n"
           "- {at: 1500ms, advance: {}}\n"),
       "f.yaml: timeline[2].at: 1.5s is earlier than timeline[1].at (2s): "
       "entries must be in time order"},
      {"AdvanceWithFields", Doc("timeline:\n- {at: 0s, advance: {by: 1s}}\n"),
       "f.yaml: timeline[0].advance.by: unknown field"},

      // create / update / delete.
      {"CreateExistingObject",
       Doc(node_objects +
           "timeline:\n- {at: 0s, create: " + std::string(kNode) + "}\n"),
       "f.yaml: timeline[0].create: Node n1 already exists"},
      {"CreateTwice",
       Doc("timeline:\n- {at: 0s, create: " + PodManifest("p") +
           "}\n- {at: 1s, create: " + PodManifest("p") + "}\n"),
       "f.yaml: timeline[1].create: Pod default/p already exists"},
      {"CreateList",
       Doc("timeline:\n- {at: 0s, create: {apiVersion: v1, kind: List, "
           "items: []}}\n"),
       "f.yaml: <timeline[0].create>: timeline[0].create.kind: a list (kind "
       "\"List\") is not accepted here (supported: Node, Pod, Namespace, "
       "PodDisruptionBudget, PriorityClass, "
       "PersistentVolume, PersistentVolumeClaim, StorageClass, CSINode, CSIDriver, "
       "CSIStorageCapacity, Service, ReplicationController, ReplicaSet, StatefulSet, "
       "and List or <Kind>List of them)"},
      {"UpdateMissingObject",
       Doc("timeline:\n- {at: 0s, update: " + PodManifest("p") + "}\n"),
       "f.yaml: timeline[0].update: Pod default/p does not exist"},
      {"DeleteMissingObject",
       Doc("timeline:\n- {at: 0s, delete: {kind: Pod, name: default/p9}}\n"),
       "f.yaml: timeline[0].delete.name: Pod default/p9 does not exist"},
      {"DeleteTwice",
       Doc(node_objects +
           "timeline:\n- {at: 0s, delete: {kind: Node, name: n1}}\n"
           "- {at: 1s, delete: {kind: Node, name: n1}}\n"),
       "f.yaml: timeline[1].delete.name: Node n1 does not exist"},
      {"UpdateAfterDelete",
       Doc(node_objects +
           "timeline:\n- {at: 0s, delete: {kind: Node, name: n1}}\n"
           "- {at: 1s, update: " +
           std::string(kNode) + "}\n"),
       "f.yaml: timeline[1].update: Node n1 does not exist"},
      {"DeleteUnknownKind",
       Doc("timeline:\n- {at: 0s, delete: {kind: ConfigMap, name: a}}\n"),
       "f.yaml: timeline[0].delete.kind: unsupported value \"ConfigMap\" "
       "(supported: \"Node\", \"Pod\", \"PodDisruptionBudget\", "
       "\"PriorityClass\", \"Namespace\", "
       "\"PersistentVolume\", \"PersistentVolumeClaim\", \"StorageClass\", \"CSINode\", "
       "\"CSIDriver\", \"CSIStorageCapacity\", \"Service\", "
       "\"ReplicationController\", \"ReplicaSet\", \"StatefulSet\")"},
      {"DeletePodWithoutNamespace",
       Doc("timeline:\n- {at: 0s, delete: {kind: Pod, name: p1}}\n"),
       "f.yaml: timeline[0].delete.name: expected \"<namespace>/<name>\" for "
       "kind Pod, got \"p1\""},
      {"DeleteNodeWithNamespace",
       Doc("timeline:\n- {at: 0s, delete: {kind: Node, name: a/b}}\n"),
       "f.yaml: timeline[0].delete.name: expected a name without a namespace "
       "for kind Node, got \"a/b\""},
      {"DeleteMissingName", Doc("timeline:\n- {at: 0s, delete: {kind: Pod}}\n"),
       "f.yaml: timeline[0].delete.name: required field is missing"},

      // Pod-directed operations.
      {"FailBindUnknownPod",
       Doc("timeline:\n- {at: 0s, failBind: {pod: default/p9}}\n"),
       "f.yaml: timeline[0].failBind.pod: Pod default/p9 does not exist (it "
       "is neither in objects nor created by the timeline)"},
      {"FailBindZeroCount",
       Doc("timeline:\n- {at: 0s, failBind: {pod: default/p, count: 0}}\n"),
       "f.yaml: timeline[0].failBind.count: must be at least 1, got 0"},
      {"FailBindMissingPod", Doc("timeline:\n- {at: 0s, failBind: {}}\n"),
       "f.yaml: timeline[0].failBind.pod: required field is missing"},
      {"BindLatencyMissingDuration",
       Doc("timeline:\n- {at: 0s, bindLatency: {pod: default/p}}\n"),
       "f.yaml: timeline[0].bindLatency.duration: required field is missing"},
      {"BindLatencyUnknownPod",
       Doc("timeline:\n- {at: 0s, bindLatency: {pod: x/y, duration: 1s}}\n"),
       "f.yaml: timeline[0].bindLatency.pod: Pod x/y does not exist (it is "
       "neither in objects nor created by the timeline)"},
      {"AllowMissingPlugin",
       Doc("timeline:\n- {at: 0s, allow: {pod: default/p}}\n"),
       "f.yaml: timeline[0].allow.plugin: required field is missing"},
      {"RejectUnknownField",
       Doc("timeline:\n- {at: 0s, reject: {pod: default/p, plugin: P, "
           "reason: x}}\n"),
       "f.yaml: timeline[0].reject.reason: unknown field"},
      {"PodOpNull", Doc("timeline:\n- {at: 0s, allow: null}\n"),
       "f.yaml: timeline[0].allow: expected object, got null"},
      {"TimelineUnknownClass",
       Doc("timeline:\n- {at: 0s, create: " +
           PodManifest("p", "priorityClassName: gold") + "}\n"),
       "f.yaml: timeline[0].create.spec.priorityClassName: no PriorityClass "
       "with name gold was found"},
      {"TimelineSecondGlobalDefault",
       Doc("objects:\n- " +
           PriorityClassManifest("a", 1, "globalDefault: true") +
           "\ntimeline:\n- {at: 0s, create: " +
           PriorityClassManifest("b", 2, "globalDefault: true") + "}\n"),
       "f.yaml: timeline[0].create: PriorityClass a is already marked as "
       "default. Only one default can exist"},
      // The API server's pod validation (ValidatePodCreate, ValidatePodUpdate).
      {"GatedPodWithNodeName",
       Doc("objects:\n- " +
           PodManifest("p", "nodeName: n1, schedulingGates: [{name: a.io/b}]") +
           "\n"),
       "f.yaml: Pod default/p: objects[0].spec.nodeName: Forbidden: cannot be "
       "set until all schedulingGates have been cleared"},
      {"DuplicateGate",
       Doc("objects:\n- " +
           PodManifest("p", "schedulingGates: [{name: a.io/b}, {name: a.io/b}]") +
           "\n"),
       "f.yaml: Pod default/p: objects[0].spec.schedulingGates[1]: Duplicate "
       "value: \"a.io/b\""},
      {"GateNotAQualifiedName",
       Doc("objects:\n- " + PodManifest("p", "schedulingGates: [{name: 'a b'}]") +
           "\n"),
       "f.yaml: Pod default/p: objects[0].spec.schedulingGates[0].name: name "
       "part must consist of alphanumeric characters, '-', '_' or '.', and "
       "must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"},
      {"UpdateAddsAGate",
       Doc("objects:\n- " + PodManifest("p", "schedulingGates: [{name: a.io/x}]") +
           "\ntimeline:\n- {at: 1s, update: " +
           PodManifest("p", "schedulingGates: [{name: a.io/x}, {name: a.io/y}]") +
           "}\n"),
       "f.yaml: timeline[0].update.spec.schedulingGates[1].name: Forbidden: "
       "only deletion is allowed, but found new scheduling gate 'a.io/y'"},
      {"UpdateChangesSchedulerName",
       Doc("objects:\n- " + PodManifest("p") + "\ntimeline:\n- {at: 1s, update: " +
           PodManifest("p", "schedulerName: other") + "}\n"),
       "f.yaml: timeline[0].update.spec.schedulerName: Forbidden: pod updates "
       "may not change the scheduler name (\"default-scheduler\" -> "
       "\"other\")"},
      {"DuplicateUid",
       Doc("objects:\n- {apiVersion: v1, kind: Pod, metadata: {name: a, uid: u}, spec: "
           "{containers: [{name: c}]}}\n"
           "timeline:\n- {at: 1s, create: {apiVersion: v1, kind: Pod, metadata: {name: "
           "b, uid: u}, spec: {containers: [{name: c}]}}}\n"),
       "f.yaml: timeline[0].create.metadata.uid: Duplicate value: \"u\" (the uid of "
       "Pod default/a)"},
      {"UidReusedAfterDelete",
       Doc("objects:\n- {apiVersion: v1, kind: Pod, metadata: {name: a, uid: u}, spec: "
           "{containers: [{name: c}]}}\n"
           "timeline:\n- {at: 1s, delete: {kind: Pod, name: default/a}}\n"
           "- {at: 2s, create: {apiVersion: v1, kind: Pod, metadata: {name: a, uid: u}, "
           "spec: {containers: [{name: c}]}}}\n"),
       "f.yaml: timeline[1].create.metadata.uid: Duplicate value: \"u\" (a pod "
       "created again needs a new uid)"},
      {"UpdateChangesUid",
       Doc("objects:\n- {apiVersion: v1, kind: Pod, metadata: {name: a, uid: u}, spec: "
           "{containers: [{name: c}]}}\n"
           "timeline:\n- {at: 1s, update: {apiVersion: v1, kind: Pod, metadata: {name: "
           "a, uid: v}, spec: {containers: [{name: c}]}}}\n"),
       "f.yaml: timeline[0].update.metadata.uid: Invalid value: \"v\": field is "
       "immutable"},
      {"UpdateMovesBoundPod",
       Doc("objects:\n- {apiVersion: v1, kind: Node, metadata: {name: n1}}\n"
           "- {apiVersion: v1, kind: Pod, metadata: {name: a}, spec: {nodeName: n1, "
           "containers: [{name: c}]}}\n"
           "timeline:\n- {at: 1s, update: {apiVersion: v1, kind: Pod, metadata: {name: "
           "a}, spec: {nodeName: n2, containers: [{name: c}]}}}\n"),
       "f.yaml: timeline[0].update.spec.nodeName: Forbidden: pod updates may not "
       "change the node (\"n1\" -> \"n2\")"},
      {"TimelineBeyond1000h",
       Doc("timeline:\n- {at: 1000h1ms, advance: {}}\n"),
       "f.yaml: timeline[0].at: 1000h0m0.001s is later than 1000h, the longest "
       "timeline schedref runs"},
      {"UpdateChangesTerminationGracePeriod",
       Doc("objects:\n- " + PodManifest("p", "terminationGracePeriodSeconds: 0") +
           "\ntimeline:\n- {at: 1s, update: " +
           PodManifest("p", "terminationGracePeriodSeconds: 30") + "}\n"),
       "f.yaml: timeline[0].update.spec.terminationGracePeriodSeconds: "
       "Forbidden: pod updates may not change the termination grace period "
       "(0 -> 30)"},
      // Storage objects.
      {"StorageObjectDefinedTwice",
       Doc("objects:\n- " + StorageClassManifest("fast") + "\n- " + StorageClassManifest("fast") +
           "\n"),
       "f.yaml: objects[1]: StorageClass fast is defined twice (first at objects[0])"},
      {"ClaimDefinedTwice",
       Doc("objects:\n- " + ClaimManifest("c") + "\n- " + ClaimManifest("c") + "\n"),
       "f.yaml: objects[1]: PersistentVolumeClaim default/c is defined twice (first at "
       "objects[0])"},
      {"StorageCreateOfExisting",
       Doc("objects:\n- " + StorageClassManifest("fast") + "\ntimeline:\n- {at: 1s, create: " +
           StorageClassManifest("fast") + "}\n"),
       "f.yaml: timeline[0].create: StorageClass fast already exists"},
      {"StorageUpdateOfMissing",
       Doc("timeline:\n- {at: 1s, update: " + ClaimManifest("c") + "}\n"), "f.yaml: timeline[0].update: PersistentVolumeClaim default/c does not exist"},
      {"StorageDeleteOfMissing",
       Doc("timeline:\n- {at: 1s, delete: {kind: PersistentVolume, name: pv1}}\n"), "f.yaml: timeline[0].delete.name: PersistentVolume pv1 does not exist"},
      {"StorageDeleteAfterDelete",
       Doc("objects:\n- " + StorageClassManifest("fast") +
           "\ntimeline:\n- {at: 1s, delete: {kind: StorageClass, name: fast}}\n"
           "- {at: 2s, delete: {kind: StorageClass, name: fast}}\n"),
       "f.yaml: timeline[1].delete.name: StorageClass fast does not exist"},
      {"StorageDecodeErrorKeepsPath",
       Doc("timeline:\n- {at: 1s, create: {apiVersion: storage.k8s.io/v1, kind: StorageClass, "
           "metadata: {name: fast}}}\n"),
       "f.yaml: StorageClass fast: timeline[0].create.provisioner: required value"},
      // Declared extenders.
      {"DeclaredExtenderWithoutConfig",
       Doc("extenders: [{urlPrefix: http://x}]\n"),
       "f.yaml: extenders[0].urlPrefix: no config.extenders[] entry has "
       "urlPrefix \"http://x\""},
      {"DeclaredExtenderVerbNotConfigured",
       Doc(kExtenderConfig + "extenders: [{urlPrefix: http://x, bind: {}}]\n"),
       "f.yaml: extenders[0].bind: the extender's config has no bindVerb"},
      {"DeclaredExtenderDuplicate",
       Doc(kExtenderConfig +
           "extenders: [{urlPrefix: http://x}, {urlPrefix: http://x}]\n"),
       "f.yaml: extenders[1].urlPrefix: duplicate declared extender "
       "\"http://x\""},
      {"DeclaredExtenderUnknownField",
       Doc(kExtenderConfig + "extenders: [{urlPrefix: http://x, filtr: {}}]\n"),
       "f.yaml: extenders[0].filtr: unknown field"},
      {"DeclaredRuleNamesNoNodes",
       Doc(kExtenderConfig +
           "extenders: [{urlPrefix: http://x, filter: {reject: [{reason: r}]}}]\n"),
       "f.yaml: extenders[0].filter.reject[0]: names no nodes: give nodes or "
       "selector"},
      {"DeclaredSelectorForNodeNames",
       Doc("config: {extenders: [{urlPrefix: http://x, filterVerb: f, "
           "nodeCacheCapable: true}]}\n"
           "extenders: [{urlPrefix: http://x, filter: {reject: [{selector: "
           "{matchLabels: {a: b}}}]}}]\n"),
       "f.yaml: extenders[0].filter.reject[0].selector: a nodeCacheCapable "
       "extender is sent node names only; select nodes by name"},
      {"DeclaredBadSelector",
       Doc(kExtenderConfig +
           "extenders: [{urlPrefix: http://x, filter: {reject: [{selector: "
           "{matchExpressions: [{key: a, operator: Near}]}}]}}]\n"),
       "f.yaml: extenders[0].filter.reject[0].selector.matchExpressions[0]."
       "operator: unsupported value \"Near\" (supported: \"In\", \"NotIn\", "
       "\"Exists\", \"DoesNotExist\")"},
      {"DeclaredStatusOutOfRange",
       Doc(kExtenderConfig +
           "extenders: [{urlPrefix: http://x, filter: {status: 99}}]\n"),
       "f.yaml: extenders[0].filter.status: HTTP status 99 is not in [100, "
       "599]"},
      {"DeclaredDelayNotDuration",
       Doc(kExtenderConfig +
           "extenders: [{urlPrefix: http://x, filter: {delay: 5}}]\n"),
       "f.yaml: extenders[0].filter.delay: expected a duration string such "
       "as \"1.5s\", got integer"},
      {"DeclaredPrioritizeError",
       Doc(kExtenderConfig +
           "extenders: [{urlPrefix: http://x, prioritize: {error: e}}]\n"),
       "f.yaml: extenders[0].prioritize.error: a HostPriorityList has no Error "
       "field; use status or body"},
      {"DeclaredScoreMissing",
       Doc(kExtenderConfig +
           "extenders: [{urlPrefix: http://x, prioritize: {scores: [{nodes: "
           "[a]}]}}]\n"),
       "f.yaml: extenders[0].prioritize.scores[0].score: required field is "
       "missing"},
      {"DeclaredKeepVictimsNegative",
       Doc(kExtenderConfig +
           "extenders: [{urlPrefix: http://x, preempt: {keepVictims: -1}}]\n"),
       "f.yaml: extenders[0].preempt.keepVictims: must not be negative"},
      {"TerminationGracePeriodNotAnInteger",
       Doc("objects:\n- " + PodManifest("p", "terminationGracePeriodSeconds: '5'") +
           "\n"),
       "f.yaml: Pod default/p: objects[0].spec.terminationGracePeriodSeconds: "
       "expected integer, got string"},
  };
  for (const ErrorCase& c : cases) {
    SCOPED_TRACE(c.name);
    StatusOr<Scenario> got = DecodeScenario(c.text, "f.yaml");
    ASSERT_FALSE(got.ok());
    EXPECT_TRUE(got.status().IsInvalid());
    EXPECT_EQ(got.status().message(), c.message);
  }
}

// A pod-directed operation may come before the create of its pod.
TEST(DecodeScenario, FailBindBeforeCreate) {
  StatusOr<Scenario> got =
      DecodeScenario(Doc("timeline:\n- {at: 0s, failBind: {pod: default/p}}\n"
                         "- {at: 0s, create: " +
                         PodManifest("p") + "}\n"),
                     "f.yaml");
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_EQ(got->timeline[0].count, 1);
}

TEST(DecodeScenario, GlobalDefaultClassMayBeUpdatedInPlace) {
  StatusOr<Scenario> got =
      DecodeScenario(Doc("objects:\n- " +
                         PriorityClassManifest("a", 1, "globalDefault: true") +
                         "\ntimeline:\n- {at: 0s, update: " +
                         PriorityClassManifest("a", 3, "globalDefault: true") +
                         "}\n"
                         "- {at: 1s, create: " +
                         PodManifest("p") + "}\n"),
                     "f.yaml");
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_EQ(std::get<Pod>(got->timeline[1].object).priority, 3);
}

}  // namespace
}  // namespace schedref::api
