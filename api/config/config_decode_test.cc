#include "api/config/config_decode.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "api/codec/manifest.h"

namespace schedref::api {
namespace {

using nlohmann::json;

json Yaml(const std::string& text) {
  StatusOr<std::vector<json>> docs = ParseDocuments(text, "test.yaml");
  EXPECT_TRUE(docs.ok()) << docs.status().message();
  if (!docs.ok() || docs->empty()) return json();
  return (*docs)[0];
}

StatusOr<SchedulerConfiguration> Decode(const std::string& yaml) {
  return DecodeConfiguration(Yaml(yaml), "sched.yaml");
}

TEST(DecodeConfiguration, EmptyDocumentIsTheDefaults) {
  StatusOr<SchedulerConfiguration> got = Decode("{}");
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_EQ(*got, DefaultConfiguration());

  got = DecodeConfiguration(json(), "sched.yaml");
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_EQ(*got, DefaultConfiguration());
}

TEST(DefaultConfiguration, UpstreamV1Defaults) {
  const SchedulerConfiguration c = DefaultConfiguration();
  EXPECT_EQ(c.percentage_of_nodes_to_score, 0);
  EXPECT_EQ(c.pod_initial_backoff_seconds, 1);
  EXPECT_EQ(c.pod_max_backoff_seconds, 10);
  EXPECT_EQ(c.pod_max_in_unschedulable_pods_seconds, 300);
  ASSERT_EQ(c.profiles.size(), 1u);
  EXPECT_EQ(c.profiles[0].scheduler_name, "default-scheduler");
  EXPECT_FALSE(c.profiles[0].plugins.has_value());
  EXPECT_TRUE(c.profiles[0].plugin_config.empty());
  EXPECT_FALSE(c.profiles[0].percentage_of_nodes_to_score.has_value());
  EXPECT_TRUE(ValidateConfiguration(c).ok());
}

TEST(DecodeConfiguration, EveryField) {
  StatusOr<SchedulerConfiguration> got = Decode(R"(
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
parallelism: 4
leaderElection: {leaderElect: false}
clientConnection: {qps: 50}
enableProfiling: true
enableContentionProfiling: false
delayCacheUntilActive: false
percentageOfNodesToScore: 50
podInitialBackoffSeconds: 2
podMaxBackoffSeconds: 20
podMaxInUnschedulablePodsSeconds: 60
profiles:
- schedulerName: a
  percentageOfNodesToScore: 70
  plugins:
    multiPoint:
      enabled: [{name: TestPermit}]
    score:
      enabled:
      - {name: ImageLocality, weight: 5}
      disabled:
      - {name: "*"}
    preEnqueue: {enabled: [{name: P1}]}
    queueSort: {enabled: [{name: PrioritySort}]}
    preFilter: {disabled: [{name: P2}]}
    filter: {enabled: [{name: P3}]}
    postFilter: {enabled: [{name: P4}]}
    preScore: {enabled: [{name: P5}]}
    reserve: {enabled: [{name: P6}]}
    permit: {enabled: [{name: P7}]}
    preBind: {enabled: [{name: P8}]}
    bind: {enabled: [{name: P9}]}
    postBind: {enabled: [{name: P10}]}
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy: {type: MostAllocated}
  - name: DefaultPreemption
- schedulerName: b
  plugins:
    queueSort: {enabled: [{name: PrioritySort}]}
)");
  ASSERT_TRUE(got.ok()) << got.status().message();
  SchedulerConfiguration want;
  want.parallelism = 4;
  want.percentage_of_nodes_to_score = 50;
  want.pod_initial_backoff_seconds = 2;
  want.pod_max_backoff_seconds = 20;
  want.pod_max_in_unschedulable_pods_seconds = 60;
  Profile a;
  a.scheduler_name = "a";
  a.percentage_of_nodes_to_score = 70;
  Plugins p;
  p.multi_point.enabled = {{"TestPermit", 0}};
  p.score.enabled = {{"ImageLocality", 5}};
  p.score.disabled = {{"*", 0}};
  p.pre_enqueue.enabled = {{"P1", 0}};
  p.queue_sort.enabled = {{"PrioritySort", 0}};
  p.pre_filter.disabled = {{"P2", 0}};
  p.filter.enabled = {{"P3", 0}};
  p.post_filter.enabled = {{"P4", 0}};
  p.pre_score.enabled = {{"P5", 0}};
  p.reserve.enabled = {{"P6", 0}};
  p.permit.enabled = {{"P7", 0}};
  p.pre_bind.enabled = {{"P8", 0}};
  p.bind.enabled = {{"P9", 0}};
  p.post_bind.enabled = {{"P10", 0}};
  a.plugins = p;
  a.plugin_config = {
      {"NodeResourcesFit",
       json{{"scoringStrategy", {{"type", "MostAllocated"}}}}},
      {"DefaultPreemption", json::object()},
  };
  Profile b;
  b.scheduler_name = "b";
  b.plugins = Plugins{};
  b.plugins->queue_sort.enabled = {{"PrioritySort", 0}};
  want.profiles = {a, b};
  EXPECT_EQ(*got, want);

  // And back through the encoder.
  StatusOr<SchedulerConfiguration> again =
      DecodeConfiguration(EncodeConfiguration(*got), "again");
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(*again, *got);
}

TEST(DecodeConfiguration, Extenders) {
  StatusOr<SchedulerConfiguration> got = Decode(R"(
extenders:
- urlPrefix: http://127.0.0.1:8888/scheduler
  filterVerb: filter
  preemptVerb: preempt
  prioritizeVerb: prioritize
  bindVerb: bind
  weight: 3
  enableHTTPS: true
  tlsConfig: {insecure: true, serverName: ext, certFile: c, keyFile: k,
              caFile: ca, certData: aGk=, keyData: a2V5, caData: Y2E=}
  httpTimeout: 1.5s
  nodeCacheCapable: true
  managedResources:
  - {name: example.com/gpu, ignoredByScheduler: true}
  - {name: example.com/fpga}
  ignorable: true
- urlPrefix: http://other
  httpTimeout: 0s
)");
  ASSERT_TRUE(got.ok()) << got.status().message();
  ASSERT_EQ(got->extenders.size(), 2u);
  const Extender& e = got->extenders[0];
  EXPECT_EQ(e.url_prefix, "http://127.0.0.1:8888/scheduler");
  EXPECT_EQ(e.filter_verb, "filter");
  EXPECT_EQ(e.preempt_verb, "preempt");
  EXPECT_EQ(e.prioritize_verb, "prioritize");
  EXPECT_EQ(e.bind_verb, "bind");
  EXPECT_EQ(e.weight, 3);
  EXPECT_TRUE(e.enable_https);
  ASSERT_TRUE(e.tls_config.has_value());
  EXPECT_TRUE(e.tls_config->insecure);
  EXPECT_EQ(e.tls_config->server_name, "ext");
  EXPECT_EQ(e.tls_config->ca_file, "ca");
  EXPECT_EQ(e.tls_config->cert_data, "hi");
  EXPECT_EQ(e.tls_config->key_data, "key");
  EXPECT_EQ(e.tls_config->ca_data, "ca");
  EXPECT_EQ(e.http_timeout_ns, 1'500'000'000);
  EXPECT_TRUE(e.node_cache_capable);
  ASSERT_EQ(e.managed_resources.size(), 2u);
  EXPECT_EQ(e.managed_resources[0].name, "example.com/gpu");
  EXPECT_TRUE(e.managed_resources[0].ignored_by_scheduler);
  EXPECT_FALSE(e.managed_resources[1].ignored_by_scheduler);
  EXPECT_TRUE(e.ignorable);
  // NewHTTPExtender: a zero (or absent) timeout is DefaultExtenderTimeout.
  const Extender& d = got->extenders[1];
  EXPECT_EQ(d.http_timeout_ns, 5'000'000'000);
  EXPECT_EQ(d.weight, 0);
  EXPECT_FALSE(d.ignorable);
  EXPECT_FALSE(d.tls_config.has_value());

  // The encoding decodes to the same configuration.
  StatusOr<SchedulerConfiguration> again =
      DecodeConfiguration(EncodeConfiguration(*got), "again.yaml");
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(*again, *got);
}

// buildExtenders: resources an extender marks ignoredByScheduler become
// every profile's NodeResourcesFit ignoredResources, replacing what the
// file set.
TEST(DecodeConfiguration, ExtenderIgnoredResourcesReachNodeResourcesFit) {
  StatusOr<SchedulerConfiguration> got = Decode(R"(
extenders:
- urlPrefix: http://a
  managedResources:
  - {name: example.com/gpu, ignoredByScheduler: true}
  - {name: example.com/fpga}
- urlPrefix: http://b
  managedResources: [{name: example.com/nic, ignoredByScheduler: true}]
profiles:
- schedulerName: one
  pluginConfig:
  - name: NodeResourcesFit
    args: {ignoredResources: [example.com/other], scoringStrategy: {type: MostAllocated}}
- schedulerName: two
)");
  ASSERT_TRUE(got.ok()) << got.status().message();
  const json want = json::array({"example.com/gpu", "example.com/nic"});
  ASSERT_EQ(got->profiles[0].plugin_config.size(), 1u);
  EXPECT_EQ(got->profiles[0].plugin_config[0].args["ignoredResources"], want);
  EXPECT_EQ(got->profiles[0].plugin_config[0].args["scoringStrategy"]["type"],
            "MostAllocated");
  ASSERT_EQ(got->profiles[1].plugin_config.size(), 1u);
  EXPECT_EQ(got->profiles[1].plugin_config[0].name, "NodeResourcesFit");
  EXPECT_EQ(got->profiles[1].plugin_config[0].args,
            json({{"ignoredResources", want}}));
  // Stable through an encoding.
  StatusOr<SchedulerConfiguration> again =
      DecodeConfiguration(EncodeConfiguration(*got), "again.yaml");
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(*again, *got);
  // Without such resources nothing is added.
  got = Decode("extenders: [{urlPrefix: http://a, managedResources: [{name: example.com/gpu}]}]");
  ASSERT_TRUE(got.ok());
  EXPECT_TRUE(got->profiles[0].plugin_config.empty());
}

TEST(DecodeConfiguration, LoneProfileGetsTheDefaultName) {
  StatusOr<SchedulerConfiguration> got =
      Decode("profiles: [{percentageOfNodesToScore: 10}]");
  ASSERT_TRUE(got.ok()) << got.status().message();
  ASSERT_EQ(got->profiles.size(), 1u);
  EXPECT_EQ(got->profiles[0].scheduler_name, "default-scheduler");
  EXPECT_EQ(got->profiles[0].percentage_of_nodes_to_score, 10);
}

TEST(EncodeConfiguration, DefaultsRoundTrip) {
  StatusOr<SchedulerConfiguration> got =
      DecodeConfiguration(EncodeConfiguration(DefaultConfiguration()), "x");
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_EQ(*got, DefaultConfiguration());
}

struct ErrorCase {
  const char* name;
  const char* yaml;
  const char* message;
};

// Validation messages are upstream's (validation.go, printed by
// apimachinery's field.Error and errors.Aggregate), after "<file>: ".
TEST(DecodeConfiguration, UpstreamValidationMessages) {
  const std::vector<ErrorCase> cases = {
      {"bad-parallelism-invalid-value", "parallelism: 0",
       "sched.yaml: parallelism: Invalid value: 0: should be an integer value "
       "greater than zero"},
      {"bad-percentage-of-nodes-to-score", "percentageOfNodesToScore: 101",
       "sched.yaml: percentageOfNodesToScore: Invalid value: 101: not in "
       "valid range [0-100]"},
      {"negative-profile-percentage",
       "profiles: [{percentageOfNodesToScore: -1}]",
       "sched.yaml: profiles[0].percentageOfNodesToScore: Invalid value: -1: "
       "not in valid range [0-100]"},
      {"scheduler-name-not-set",
       "profiles: [{schedulerName: me}, {percentageOfNodesToScore: 5}]",
       "sched.yaml: profiles[1].schedulerName: Required value"},
      {"empty-scheduler-name-in-lone-profile",
       "profiles: [{schedulerName: ''}]",
       "sched.yaml: profiles[0].schedulerName: Required value"},
      {"repeated-scheduler-name",
       "profiles: [{schedulerName: other}, {schedulerName: other}]",
       "sched.yaml: profiles[1].schedulerName: Duplicate value: "
       "profiles[0].schedulerName"},
      {"initial-backoff-zero", "podInitialBackoffSeconds: 0",
       "sched.yaml: podInitialBackoffSeconds: Invalid value: 0: must be "
       "greater than 0"},
      {"max-backoff-below-initial", "podInitialBackoffSeconds: 20",
       "sched.yaml: podMaxBackoffSeconds: Invalid value: 10: must be greater "
       "than or equal to PodInitialBackoffSeconds"},
      {"backoff-overflows-a-duration",
       "podInitialBackoffSeconds: 9223372037\npodMaxBackoffSeconds: 9223372037",
       "sched.yaml: [podInitialBackoffSeconds: Invalid value: 9223372037: must be at "
       "most 9223372036 (a Go time.Duration of that many seconds overflows), "
       "podMaxBackoffSeconds: Invalid value: 9223372037: must be at most "
       "9223372036 (a Go time.Duration of that many seconds overflows)]"},
      {"duplicated-plugin-config",
       "profiles: [{pluginConfig: [{name: config}, {name: config}]}]",
       "sched.yaml: profiles[0].pluginConfig[1]: Duplicate value: "
       "\"config\""},
      {"bad-removed-plugins",
       "profiles: [{plugins: {score: {enabled: [{name: PodTopologySpread}, "
       "{name: EBSLimits, weight: 2}]}}}]",
       "sched.yaml: profiles[0].plugins.score.enabled[1]: Invalid value: "
       "\"EBSLimits\": was invalid in version "
       "\"kubescheduler.config.k8s.io/v1\" (KubeSchedulerConfiguration is "
       "version \"kubescheduler.config.k8s.io/v1\")"},
      {"bad-plugins-config",
       "profiles: [{pluginConfig: [{name: GCEPDLimits}]}]",
       "sched.yaml: profiles[0].pluginConfig[0]: Invalid value: "
       "\"GCEPDLimits\": was invalid in version "
       "\"kubescheduler.config.k8s.io/v1\" (KubeSchedulerConfiguration is "
       "version \"kubescheduler.config.k8s.io/v1\")"},
      {"different-queue-sort",
       "profiles:\n"
       "- {schedulerName: me, plugins: {queueSort: {enabled: [{name: "
       "CustomSort}]}}}\n"
       "- {schedulerName: other, plugins: {queueSort: {enabled: [{name: "
       "AnotherSort}]}}}",
       "sched.yaml: profiles[1].plugins.queueSort: Invalid value: "
       "config.PluginSet{Enabled:[]config.Plugin{config.Plugin{Name:"
       "\"AnotherSort\", Weight:0}}, Disabled:[]config.Plugin(nil)}: must be "
       "the same for all profiles"},
      {"one-empty-queue-sort",
       "profiles:\n"
       "- {schedulerName: me}\n"
       "- {schedulerName: other, plugins: {queueSort: {enabled: [{name: "
       "CustomSort}], disabled: [{name: '*', weight: 3}]}}}",
       "sched.yaml: profiles[1].plugins.queueSort: Invalid value: "
       "config.PluginSet{Enabled:[]config.Plugin{config.Plugin{Name:"
       "\"CustomSort\", Weight:0}}, Disabled:[]config.Plugin{config.Plugin{"
       "Name:\"*\", Weight:0}}}: must be the same for all profiles"},
      {"two-queue-sorts",
       "profiles: [{plugins: {queueSort: {enabled: [{name: A}, {name: B}]}}}]",
       "sched.yaml: profiles[0].plugins.queueSort.Enabled: Invalid value: 2: "
       "only one queue sort plugin can be enabled"},
      {"mismatch-queue-sort-args",
       "profiles:\n"
       "- {schedulerName: me, plugins: {queueSort: {enabled: [{name: S}]}}, "
       "pluginConfig: [{name: S, args: {a: 1}}]}\n"
       "- {schedulerName: other, plugins: {queueSort: {enabled: [{name: S}]}}, "
       "pluginConfig: [{name: S, args: {a: 2}}]}",
       "sched.yaml: profiles[1].pluginConfig.args: Invalid value: {\"a\":2}: "
       "queueSort must be the same for all profiles"},
      {"several-errors-are-aggregated",
       "percentageOfNodesToScore: 200\n"
       "podInitialBackoffSeconds: -1\n"
       "profiles: [{schedulerName: a}, {schedulerName: a}]",
       "sched.yaml: [profiles[1].schedulerName: Duplicate value: "
       "profiles[0].schedulerName, percentageOfNodesToScore: Invalid value: "
       "200: not in valid range [0-100], podInitialBackoffSeconds: Invalid "
       "value: -1: must be greater than 0]"},
      {"pod-max-in-unschedulable-pods-seconds",
       "podMaxInUnschedulablePodsSeconds: 0",
       "sched.yaml: podMaxInUnschedulablePodsSeconds: Invalid value: 0: must "
       "be greater than 0"},
      // validateExtenders (TestValidateKubeSchedulerConfigurationV1's
      // extender cases).
      {"extender-prioritize-without-weight",
       "extenders: [{urlPrefix: http://x, prioritizeVerb: prioritize}]",
       "sched.yaml: extenders[0].weight: Invalid value: 0: must have a "
       "positive weight applied to it"},
      {"extender-negative-weight",
       "extenders: [{prioritizeVerb: prioritize, weight: -2}]",
       "sched.yaml: extenders[0].weight: Invalid value: -2: must have a "
       "positive weight applied to it"},
      {"extenders-two-binders",
       "extenders: [{urlPrefix: http://a, bindVerb: bind}, "
       "{urlPrefix: http://b, bindVerb: bind}]",
       "sched.yaml: extenders: Invalid value: \"found 2 extenders "
       "implementing bind\": only one extender can implement bind"},
      {"extender-managed-resource-not-extended",
       "extenders: [{managedResources: [{name: kubernetes.io/foo}]}]",
       "sched.yaml: extenders[0].managedResources[0].name: Invalid value: "
       "\"kubernetes.io/foo\": is an invalid extended resource name"},
      {"extender-managed-resource-not-qualified",
       "extenders: [{managedResources: [{name: 'example.com/a b'}]}]",
       "sched.yaml: extenders[0].managedResources[0].name: Invalid value: "
       "\"example.com/a b\": name part must consist of alphanumeric "
       "characters, '-', '_' or '.', and must start and end with an "
       "alphanumeric character (e.g. 'MyName',  or 'my.name',  or "
       "'123-abc', regex used for validation is "
       "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"},
      {"extender-managed-resource-duplicate",
       "extenders:\n"
       "- managedResources: [{name: example.com/gpu}]\n"
       "- managedResources: [{name: example.com/gpu}]",
       "sched.yaml: extenders[1].managedResources[0].name: Invalid value: "
       "\"example.com/gpu\": duplicate extender managed resource name"},
      {"extender-negative-timeout", "extenders: [{httpTimeout: -1s}]",
       "sched.yaml: extenders[0].httpTimeout: Invalid value: -1s: must not be "
       "negative"},
      {"extender-errors-come-last",
       "parallelism: 0\n"
       "extenders: [{prioritizeVerb: p}]",
       "sched.yaml: [parallelism: Invalid value: 0: should be an integer "
       "value greater than zero, extenders[0].weight: Invalid value: 0: must "
       "have a positive weight applied to it]"},
      // validatePluginConfig validates the args of the plugins in its table
      // whether or not a profile enables them (TestValidateKubeScheduler
      // Configuration's "bad-*-args" cases).
      {"args-of-a-disabled-plugin",
       "profiles:\n"
       "- plugins: {multiPoint: {disabled: [{name: InterPodAffinity}]}}\n"
       "  pluginConfig: [{name: InterPodAffinity, args: "
       "{hardPodAffinityWeight: -1}}]",
       "sched.yaml: profiles[0].pluginConfig[0].args.hardPodAffinityWeight: "
       "Invalid value: -1: not in valid range [0, 100]"},
      {"args-errors-flattened-among-the-others",
       "parallelism: 0\n"
       "profiles:\n"
       "- pluginConfig:\n"
       "  - {name: DefaultPreemption, args: {minCandidateNodesPercentage: 0, "
       "minCandidateNodesAbsolute: 0}}",
       "sched.yaml: [parallelism: Invalid value: 0: should be an integer "
       "value greater than zero, "
       "profiles[0].pluginConfig[0].args.minCandidateNodesPercentage: Invalid "
       "value: 0: cannot be zero at the same time as "
       "minCandidateNodesAbsolute, "
       "profiles[0].pluginConfig[0].args.minCandidateNodesAbsolute: Invalid "
       "value: 0: cannot be zero at the same time as "
       "minCandidateNodesPercentage]"},
      // component-base's validation, reported first.
      {"leader-election-resource-lock",
       "leaderElection: {resourceLock: endpoints}",
       "sched.yaml: leaderElection.resourceLock: Invalid value: "
       "\"endpoints\": resourceLock value must be \"leases\""},
      {"leader-election-durations",
       "parallelism: 0\n"
       "leaderElection: {leaseDuration: 5s, retryPeriod: -1s}",
       "sched.yaml: [leaderElection.retryPeriod: Invalid value: -1s: must be "
       "greater than zero, leaderElection.leaseDuration: Invalid value: 10s: "
       "must be greater than `RenewDeadline`, parallelism: Invalid value: 0: "
       "should be an integer value greater than zero]"},
      {"client-connection-burst", "clientConnection: {burst: -1}",
       "sched.yaml: clientConnection.burst: Invalid value: -1: must be "
       "non-negative"},
  };
  for (const ErrorCase& c : cases) {
    SCOPED_TRACE(c.name);
    StatusOr<SchedulerConfiguration> got = Decode(c.yaml);
    ASSERT_FALSE(got.ok());
    EXPECT_TRUE(got.status().IsInvalid());
    EXPECT_EQ(got.status().message(), c.message);
  }
}

// Inputs upstream's loader accepts that an earlier version of this decoder
// refused.
TEST(DecodeConfiguration, AcceptedAsUpstreamAccepts) {
  const std::vector<std::pair<const char*, const char*>> cases = {
      {"typemeta-in-args",
       "profiles: [{pluginConfig: [{name: DefaultPreemption, args: "
       "{apiVersion: kubescheduler.config.k8s.io/v1, kind: "
       "DefaultPreemptionArgs, minCandidateNodesAbsolute: 5}}]}]"},
      {"integral-float-in-args",
       "profiles: [{pluginConfig: [{name: InterPodAffinity, args: "
       "{hardPodAffinityWeight: 2.0}}]}]"},
      {"no-leader-election-nothing-checked",
       "leaderElection: {leaderElect: false, resourceLock: endpoints, "
       "leaseDuration: 1s}"},
      {"zero-durations-are-defaulted",
       "leaderElection: {leaseDuration: 0s, renewDeadline: 0s}"},
      {"client-connection", "clientConnection: {qps: 20.5, burst: 40, "
                            "contentType: application/json}"},
      {"out-of-tree-args", "profiles: [{pluginConfig: [{name: MyPlugin, "
                           "args: {anything: [1, 2]}}]}]"},
  };
  for (const auto& [name, yaml] : cases) {
    StatusOr<SchedulerConfiguration> got = Decode(yaml);
    EXPECT_TRUE(got.ok()) << name << ": " << got.status().message();
  }
}

TEST(DecodeConfiguration, DecodingErrors) {
  const std::vector<ErrorCase> cases = {
      {"not-an-object", "[1]", "sched.yaml: expected object, got array"},
      {"wrong-api-version", "apiVersion: kubescheduler.config.k8s.io/v1beta3",
       "sched.yaml: apiVersion: unsupported apiVersion "
       "\"kubescheduler.config.k8s.io/v1beta3\" (expected "
       "\"kubescheduler.config.k8s.io/v1\")"},
      {"wrong-kind", "kind: Policy",
       "sched.yaml: kind: unsupported kind \"Policy\" (expected "
       "\"KubeSchedulerConfiguration\")"},
      {"unknown-field", "parallelizm: 3",
       "sched.yaml: parallelizm: unknown field"},
      {"unknown-profile-field", "profiles: [{plugin: {}}]",
       "sched.yaml: profiles[0].plugin: unknown field"},
      {"unknown-extension-point", "profiles: [{plugins: {scores: {}}}]",
       "sched.yaml: profiles[0].plugins.scores: unknown field"},
      {"unknown-plugin-field",
       "profiles: [{plugins: {score: {enabled: [{name: A, wieght: 1}]}}}]",
       "sched.yaml: profiles[0].plugins.score.enabled[0].wieght: unknown "
       "field"},
      {"wrong-type", "podMaxBackoffSeconds: ten",
       "sched.yaml: podMaxBackoffSeconds: expected integer, got string"},
      {"weight-wrong-type",
       "profiles: [{plugins: {score: {enabled: [{name: A, weight: 1.5}]}}}]",
       "sched.yaml: profiles[0].plugins.score.enabled[0].weight: expected "
       "integer, got number 1.5"},
      {"args-not-object", "profiles: [{pluginConfig: [{name: A, args: 3}]}]",
       "sched.yaml: profiles[0].pluginConfig[0].args: expected object, got "
       "integer"},
      {"extender-unknown-field", "extenders: [{urlPrefix: http://x, verb: f}]",
       "sched.yaml: extenders[0].verb: unknown field"},
      {"extender-weight-type", "extenders: [{weight: heavy}]",
       "sched.yaml: extenders[0].weight: expected integer, got string"},
      {"extender-timeout-unparsable", "extenders: [{httpTimeout: 5}]",
       "sched.yaml: extenders[0].httpTimeout: expected string, got integer"},
      {"extender-timeout-invalid", "extenders: [{httpTimeout: soon}]",
       "sched.yaml: extenders[0].httpTimeout: time: invalid duration "
       "\"soon\""},
      {"extender-tls-unknown-field", "extenders: [{tlsConfig: {ca: x}}]",
       "sched.yaml: extenders[0].tlsConfig.ca: unknown field"},
      {"extender-tls-bad-base64", "extenders: [{tlsConfig: {caData: '%%'}}]",
       "sched.yaml: extenders[0].tlsConfig.caData: illegal base64 data"},
      {"extender-managed-resource-field",
       "extenders: [{managedResources: [{name: example.com/a, ignored: true}]}]",
       "sched.yaml: extenders[0].managedResources[0].ignored: unknown field"},
      {"extenders-not-a-list", "extenders: {urlPrefix: x}",
       "sched.yaml: extenders: expected array, got object"},
      // decodeNestedObjects: every entry of a registered args kind is
      // decoded strictly, enabled or not.
      {"args-unknown-field",
       "profiles:\n"
       "- plugins: {multiPoint: {disabled: [{name: '*'}]}}\n"
       "  pluginConfig: [{name: InterPodAffinity, args: "
       "{hardPodAffinityWeigth: 1}}]",
       "sched.yaml: profiles[0].pluginConfig[0].args: decoding args for "
       "plugin InterPodAffinity: strict decoding error: unknown field "
       "\"hardPodAffinityWeigth\""},
      {"args-of-another-kind",
       "profiles: [{pluginConfig: [{name: NodeResourcesFit, args: {kind: "
       "NodeAffinityArgs}}]}]",
       "sched.yaml: profiles[0].pluginConfig[0].args: args for plugin "
       "NodeResourcesFit were not of type "
       "NodeResourcesFitArgs.kubescheduler.config.k8s.io, got "
       "NodeAffinityArgs.kubescheduler.config.k8s.io"},
      {"leader-election-unknown-field", "leaderElection: {leaseDurationX: 1s}",
       "sched.yaml: leaderElection.leaseDurationX: unknown field"},
      {"leader-election-bad-duration", "leaderElection: {renewDeadline: 10}",
       "sched.yaml: leaderElection.renewDeadline: expected string, got "
       "integer"},
      {"leader-election-unparsable-duration",
       "leaderElection: {renewDeadline: soon}",
       "sched.yaml: leaderElection.renewDeadline: time: invalid duration "
       "\"soon\""},
      {"client-connection-qps", "clientConnection: {qps: fast}",
       "sched.yaml: clientConnection.qps: expected number, got string"},
      {"enable-profiling", "enableProfiling: 'yes please'",
       "sched.yaml: enableProfiling: expected boolean, got string"},
  };
  for (const ErrorCase& c : cases) {
    SCOPED_TRACE(c.name);
    StatusOr<SchedulerConfiguration> got = Decode(c.yaml);
    ASSERT_FALSE(got.ok());
    EXPECT_TRUE(got.status().IsInvalid());
    EXPECT_EQ(got.status().message(), c.message);
  }
}

TEST(DecodeConfigurationAt, EmbeddedPathsAndMessages) {
  const json doc = Yaml(
      "config:\n"
      "  profiles: [{schedulerName: ''}]\n"
      "other:\n"
      "  profiles: [{plugins: 3}]\n");
  const FieldReader root(doc, "s.yaml", "");
  StatusOr<SchedulerConfiguration> got =
      DecodeConfigurationAt(*root.Field("config"));
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().message(),
            "s.yaml: config: profiles[0].schedulerName: Required value");

  got = DecodeConfigurationAt(*root.Field("other"));
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().message(),
            "s.yaml: other.profiles[0].plugins: expected object, got integer");

  got = DecodeConfigurationAt(*root.Field("absent"));
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(*got, DefaultConfiguration());
}

}  // namespace
}  // namespace schedref::api
