// KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1), reduced to what
// a scheduler that runs in memory reads. Specification:
// staging/src/k8s.io/kube-scheduler/config/v1/types.go and upstream's
// defaulting in pkg/scheduler/apis/config/v1/defaults.go and
// default_plugins.go. Decoding and defaulting live in api/config/config_decode.h.
#ifndef SCHEDREF_API_CONFIG_H_
#define SCHEDREF_API_CONFIG_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace schedref::api {

// One entry of an extension point's enabled/disabled list. name "*" in a
// disabled list disables every default plugin of that point.
struct PluginRef {
  std::string name;
  // Score weight; 0 means "not set" (upstream defaults it).
  int32_t weight = 0;
  friend bool operator==(const PluginRef&, const PluginRef&) = default;
};

struct PluginSet {
  std::vector<PluginRef> enabled;
  std::vector<PluginRef> disabled;
  friend bool operator==(const PluginSet&, const PluginSet&) = default;
};

// config/v1 Plugins: one PluginSet per extension point plus multiPoint.
struct Plugins {
  PluginSet pre_enqueue, queue_sort, pre_filter, filter, post_filter,
      pre_score, score, reserve, permit, pre_bind, bind, post_bind,
      multi_point;
  friend bool operator==(const Plugins&, const Plugins&) = default;
};

// pluginConfig entry: the args stay JSON; each plugin decodes its own args
// (and upstream's defaulting for them) when the framework is built.
struct PluginConfig {
  std::string name;
  nlohmann::json args = nlohmann::json::object();
  friend bool operator==(const PluginConfig&, const PluginConfig&) = default;
};

struct Profile {
  std::string scheduler_name = "default-scheduler";
  // Only as written in the file: the effective plugin list is computed by
  // the framework from upstream's defaults (default_plugins.go) and these.
  std::optional<Plugins> plugins;
  std::vector<PluginConfig> plugin_config;
  std::optional<int32_t> percentage_of_nodes_to_score;
  friend bool operator==(const Profile&, const Profile&) = default;
};

// config/v1 ExtenderManagedResource: an extended resource an extender
// manages. A pod is of interest to the extender iff one of its containers
// or init containers requests or limits one of them (IsInterested).
struct ExtenderManagedResource {
  std::string name;
  // The scheduler's NodeResourcesFit ignores the resource.
  bool ignored_by_scheduler = false;
  friend bool operator==(const ExtenderManagedResource&,
                         const ExtenderManagedResource&) = default;
};

// config/v1 ExtenderTLSConfig. The *_data fields hold the decoded bytes of
// the base64 strings the file carries.
struct ExtenderTLSConfig {
  bool insecure = false;
  std::string server_name;
  std::string cert_file, key_file, ca_file;
  std::string cert_data, key_data, ca_data;
  friend bool operator==(const ExtenderTLSConfig&,
                         const ExtenderTLSConfig&) = default;
};

// config/v1 Extender: a scheduler extender reached over HTTP at
// url_prefix + "/" + verb. An empty verb means the extender does not take
// part in that phase. Specification: pkg/scheduler/extender.go.
struct Extender {
  std::string url_prefix;
  std::string filter_verb;
  std::string preempt_verb;
  std::string prioritize_verb;
  std::string bind_verb;
  // Multiplies the prioritize scores; validation requires > 0 when
  // prioritize_verb is set.
  int64_t weight = 0;
  bool enable_https = false;
  std::optional<ExtenderTLSConfig> tls_config;
  // Defaulted to 5 s (DefaultExtenderTimeout) when absent or zero.
  int64_t http_timeout_ns = 5'000'000'000;
  // The extender caches nodes itself: it is sent node names, not nodes.
  bool node_cache_capable = false;
  std::vector<ExtenderManagedResource> managed_resources;
  // An error from the extender skips it instead of failing the cycle.
  bool ignorable = false;
  friend bool operator==(const Extender&, const Extender&) = default;
};

struct SchedulerConfiguration {
  // Upstream's worker count for parallel Filter, Score and preemption dry
  // runs (default 16). It cannot change what the reference decides, but it
  // bounds which early-stop feasible sets upstream can produce, which
  // legal-choice conformance accepts (docs/conformance.md).
  int32_t parallelism = 16;
  // Global default; profile values override it. 0 means adaptive.
  int32_t percentage_of_nodes_to_score = 0;
  int64_t pod_initial_backoff_seconds = 1;
  int64_t pod_max_backoff_seconds = 10;
  // Not a v1 field (it is a command-line flag upstream,
  // --pod-max-in-unschedulable-pods-duration); carried here so scenarios can
  // set it. Default 5 minutes.
  int64_t pod_max_in_unschedulable_pods_seconds = 300;
  // Defaulted to one profile named default-scheduler when absent.
  std::vector<Profile> profiles;
  // Called in this order at each phase.
  std::vector<Extender> extenders;
  friend bool operator==(const SchedulerConfiguration&,
                         const SchedulerConfiguration&) = default;
};

}  // namespace schedref::api

#endif  // SCHEDREF_API_CONFIG_H_
