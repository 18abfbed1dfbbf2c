#include "api/config/config_decode.h"

#include <algorithm>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <absl/strings/escaping.h>

#include "api/config/pluginargs/plugin_config.h"
#include "api/gocompat/go_duration.h"
#include "api/types/labels.h"
#include "api/types/resource.h"

namespace schedref::api {
namespace {

using nlohmann::json;

constexpr char kDefaultSchedulerName[] = "default-scheduler";

// The extension points of config/v1 Plugins, in the order of upstream's
// framework (getExtensionPoints) with multiPoint last. Validation walks them
// in this order; upstream walks a Go map, so its order varies between runs.
struct ExtensionPoint {
  const char* json_name;
  PluginSet Plugins::*set;
};
constexpr ExtensionPoint kExtensionPoints[] = {
    {"preEnqueue", &Plugins::pre_enqueue},
    {"queueSort", &Plugins::queue_sort},
    {"preFilter", &Plugins::pre_filter},
    {"filter", &Plugins::filter},
    {"postFilter", &Plugins::post_filter},
    {"preScore", &Plugins::pre_score},
    {"score", &Plugins::score},
    {"reserve", &Plugins::reserve},
    {"permit", &Plugins::permit},
    {"preBind", &Plugins::pre_bind},
    {"bind", &Plugins::bind},
    {"postBind", &Plugins::post_bind},
    {"multiPoint", &Plugins::multi_point},
};

// Plugins upstream removed from v1 (validation.go invalidPluginsByVersion).
constexpr std::string_view kInvalidV1Plugins[] = {
    "AzureDiskLimits", "CinderLimits", "EBSLimits", "GCEPDLimits"};

// --- Decoding
// -----------------------------------------------------------------

// The strict v1 decoder rejects unknown fields.
Status CheckKnownFields(const FieldReader& r,
                        std::initializer_list<std::string_view> known) {
  if (!r.present() || !r.json().is_object()) return Status::Ok();
  for (auto it = r.json().begin(); it != r.json().end(); ++it) {
    if (std::find(known.begin(), known.end(), it.key()) == known.end()) {
      return r.ErrorAt(it.key(), "unknown field");
    }
  }
  return Status::Ok();
}

Status DecodePluginList(const FieldReader& set, std::string_view key,
                        std::vector<PluginRef>* out) {
  StatusOr<std::vector<FieldReader>> items = set.Array(key);
  if (!items.ok()) return items.status();
  for (const FieldReader& item : *items) {
    SCHEDREF_RETURN_IF_ERROR(item.ExpectObject());
    SCHEDREF_RETURN_IF_ERROR(CheckKnownFields(item, {"name", "weight"}));
    PluginRef ref;
    SCHEDREF_RETURN_IF_ERROR(item.String("name", &ref.name));
    SCHEDREF_RETURN_IF_ERROR(item.Int32("weight", &ref.weight));
    out->push_back(std::move(ref));
  }
  return Status::Ok();
}

StatusOr<Plugins> DecodePlugins(const FieldReader& r) {
  std::vector<std::string_view> known;
  for (const ExtensionPoint& p : kExtensionPoints) known.push_back(p.json_name);
  for (auto it = r.json().begin(); it != r.json().end(); ++it) {
    if (std::find(known.begin(), known.end(), it.key()) == known.end()) {
      return r.ErrorAt(it.key(), "unknown field");
    }
  }
  Plugins out;
  for (const ExtensionPoint& p : kExtensionPoints) {
    StatusOr<FieldReader> set = r.Object(p.json_name);
    if (!set.ok()) return set.status();
    SCHEDREF_RETURN_IF_ERROR(CheckKnownFields(*set, {"enabled", "disabled"}));
    SCHEDREF_RETURN_IF_ERROR(
        DecodePluginList(*set, "enabled", &(out.*(p.set)).enabled));
    SCHEDREF_RETURN_IF_ERROR(
        DecodePluginList(*set, "disabled", &(out.*(p.set)).disabled));
  }
  return out;
}

// `name_given` tells whether schedulerName was present: defaulting differs.
StatusOr<Profile> DecodeProfile(const FieldReader& r, bool* name_given) {
  SCHEDREF_RETURN_IF_ERROR(r.ExpectObject());
  SCHEDREF_RETURN_IF_ERROR(
      CheckKnownFields(r, {"schedulerName", "percentageOfNodesToScore",
                           "plugins", "pluginConfig"}));
  Profile out;
  std::optional<std::string> name;
  SCHEDREF_RETURN_IF_ERROR(r.String("schedulerName", &name));
  *name_given = name.has_value();
  out.scheduler_name = name.value_or("");
  SCHEDREF_RETURN_IF_ERROR(
      r.Int32("percentageOfNodesToScore", &out.percentage_of_nodes_to_score));

  StatusOr<FieldReader> plugins = r.Object("plugins");
  if (!plugins.ok()) return plugins.status();
  if (plugins->present()) {
    StatusOr<Plugins> p = DecodePlugins(*plugins);
    if (!p.ok()) return p.status();
    out.plugins = std::move(p).value();
  }

  StatusOr<std::vector<FieldReader>> configs = r.Array("pluginConfig");
  if (!configs.ok()) return configs.status();
  for (const FieldReader& c : *configs) {
    SCHEDREF_RETURN_IF_ERROR(c.ExpectObject());
    SCHEDREF_RETURN_IF_ERROR(CheckKnownFields(c, {"name", "args"}));
    PluginConfig config;
    SCHEDREF_RETURN_IF_ERROR(c.String("name", &config.name));
    StatusOr<FieldReader> args = c.Object("args");
    if (!args.ok()) return args.status();
    if (args->present()) config.args = args->json();
    // The loader decodes every entry of a registered args kind, enabled or
    // not (decodeNestedObjects).
    const Status nested = pluginargs::DecodeNestedArgs(config.name, config.args);
    if (!nested.ok()) return c.ErrorAt("args", nested.message());
    out.plugin_config.push_back(std::move(config));
  }
  return out;
}

// The parts of the configuration that configure the process around the
// scheduler, not its decisions (component-base's
// LeaderElectionConfiguration and ClientConnectionConfiguration): decoded
// and validated as upstream does, then dropped. Initialised to v1's
// defaults (SetDefaults_KubeSchedulerConfiguration with
// RecommendedDefaultLeaderElectionConfiguration and
// RecommendedDefaultClientConnectionConfiguration).
struct ComponentSettings {
  bool leader_elect = true;
  int64_t lease_duration_ns = 15'000'000'000;
  int64_t renew_deadline_ns = 10'000'000'000;
  int64_t retry_period_ns = 2'000'000'000;
  std::string resource_lock = "leases";
  std::string resource_name = "kube-scheduler";
  std::string resource_namespace = "kube-system";
  int32_t burst = 100;
};

// What decoding yields.
struct Decoded {
  SchedulerConfiguration config;
  ComponentSettings component;
};

// A metav1.Duration field: a Go duration string. Zero is defaulted like an
// absent value.
Status DurationField(const FieldReader& r, std::string_view key, int64_t* ns) {
  std::optional<std::string> text;
  SCHEDREF_RETURN_IF_ERROR(r.String(key, &text));
  if (!text.has_value()) return Status::Ok();
  StatusOr<int64_t> parsed = ParseGoDuration(*text);
  if (!parsed.ok()) return r.ErrorAt(key, parsed.status().message());
  if (*parsed != 0) *ns = *parsed;
  return Status::Ok();
}

Status DecodeComponentSettings(const FieldReader& r, ComponentSettings* out) {
  StatusOr<FieldReader> le = r.Object("leaderElection");
  if (!le.ok()) return le.status();
  SCHEDREF_RETURN_IF_ERROR(CheckKnownFields(
      *le, {"leaderElect", "leaseDuration", "renewDeadline", "retryPeriod",
            "resourceLock", "resourceName", "resourceNamespace"}));
  if (le->present()) {
    std::optional<bool> elect;
    SCHEDREF_RETURN_IF_ERROR(le->Bool("leaderElect", &elect));
    out->leader_elect = elect.value_or(out->leader_elect);
    SCHEDREF_RETURN_IF_ERROR(
        DurationField(*le, "leaseDuration", &out->lease_duration_ns));
    SCHEDREF_RETURN_IF_ERROR(
        DurationField(*le, "renewDeadline", &out->renew_deadline_ns));
    SCHEDREF_RETURN_IF_ERROR(
        DurationField(*le, "retryPeriod", &out->retry_period_ns));
    // An empty string is defaulted like an absent one.
    for (auto [key, slot] : {std::pair{"resourceLock", &out->resource_lock},
                             std::pair{"resourceName", &out->resource_name},
                             std::pair{"resourceNamespace",
                                       &out->resource_namespace}}) {
      std::optional<std::string> v;
      SCHEDREF_RETURN_IF_ERROR(le->String(key, &v));
      if (v.has_value() && !v->empty()) *slot = *v;
    }
  }
  StatusOr<FieldReader> cc = r.Object("clientConnection");
  if (!cc.ok()) return cc.status();
  SCHEDREF_RETURN_IF_ERROR(CheckKnownFields(
      *cc, {"kubeconfig", "acceptContentTypes", "contentType", "qps", "burst"}));
  if (cc->present()) {
    for (const char* key : {"kubeconfig", "acceptContentTypes", "contentType"}) {
      std::optional<std::string> unused;
      SCHEDREF_RETURN_IF_ERROR(cc->String(key, &unused));
    }
    StatusOr<FieldReader> qps = cc->Field("qps");
    if (!qps.ok()) return qps.status();
    if (qps->present() && !qps->json().is_null() && !qps->json().is_number()) {
      return qps->Error("expected number, got " +
                        std::string(qps->json().type_name()));
    }
    std::optional<int32_t> burst;
    SCHEDREF_RETURN_IF_ERROR(cc->Int32("burst", &burst));
    // Zero is defaulted (to 100) like an absent value.
    if (burst.has_value() && *burst != 0) out->burst = *burst;
  }
  for (const char* key :
       {"enableProfiling", "enableContentionProfiling", "delayCacheUntilActive"}) {
    std::optional<bool> unused;
    SCHEDREF_RETURN_IF_ERROR(r.Bool(key, &unused));
  }
  return Status::Ok();
}

// A []byte field of v1: base64 text (encoding/json's StdEncoding).
Status BytesField(const FieldReader& r, std::string_view key,
                  std::string* out) {
  std::optional<std::string> text;
  SCHEDREF_RETURN_IF_ERROR(r.String(key, &text));
  if (!text.has_value()) return Status::Ok();
  if (!absl::Base64Unescape(*text, out)) {
    return r.ErrorAt(key, "illegal base64 data");
  }
  return Status::Ok();
}

StatusOr<ExtenderTLSConfig> DecodeExtenderTLS(const FieldReader& r) {
  SCHEDREF_RETURN_IF_ERROR(CheckKnownFields(
      r, {"insecure", "serverName", "certFile", "keyFile", "caFile",
          "certData", "keyData", "caData"}));
  ExtenderTLSConfig out;
  SCHEDREF_RETURN_IF_ERROR(r.Bool("insecure", &out.insecure));
  SCHEDREF_RETURN_IF_ERROR(r.String("serverName", &out.server_name));
  SCHEDREF_RETURN_IF_ERROR(r.String("certFile", &out.cert_file));
  SCHEDREF_RETURN_IF_ERROR(r.String("keyFile", &out.key_file));
  SCHEDREF_RETURN_IF_ERROR(r.String("caFile", &out.ca_file));
  SCHEDREF_RETURN_IF_ERROR(BytesField(r, "certData", &out.cert_data));
  SCHEDREF_RETURN_IF_ERROR(BytesField(r, "keyData", &out.key_data));
  SCHEDREF_RETURN_IF_ERROR(BytesField(r, "caData", &out.ca_data));
  return out;
}

// config/v1 extenders[]. Upstream defaults nothing here at decoding time;
// NewHTTPExtender turns a zero httpTimeout into DefaultExtenderTimeout.
Status DecodeExtenders(const FieldReader& r, std::vector<Extender>* out) {
  StatusOr<std::vector<FieldReader>> items = r.Array("extenders");
  if (!items.ok()) return items.status();
  for (const FieldReader& item : *items) {
    SCHEDREF_RETURN_IF_ERROR(item.ExpectObject());
    SCHEDREF_RETURN_IF_ERROR(CheckKnownFields(
        item, {"urlPrefix", "filterVerb", "preemptVerb", "prioritizeVerb",
               "weight", "bindVerb", "enableHTTPS", "tlsConfig", "httpTimeout",
               "nodeCacheCapable", "managedResources", "ignorable"}));
    Extender e;
    SCHEDREF_RETURN_IF_ERROR(item.String("urlPrefix", &e.url_prefix));
    SCHEDREF_RETURN_IF_ERROR(item.String("filterVerb", &e.filter_verb));
    SCHEDREF_RETURN_IF_ERROR(item.String("preemptVerb", &e.preempt_verb));
    SCHEDREF_RETURN_IF_ERROR(item.String("prioritizeVerb", &e.prioritize_verb));
    SCHEDREF_RETURN_IF_ERROR(item.Int64("weight", &e.weight));
    SCHEDREF_RETURN_IF_ERROR(item.String("bindVerb", &e.bind_verb));
    SCHEDREF_RETURN_IF_ERROR(item.Bool("enableHTTPS", &e.enable_https));
    StatusOr<FieldReader> tls = item.Object("tlsConfig");
    if (!tls.ok()) return tls.status();
    if (tls->present()) {
      StatusOr<ExtenderTLSConfig> t = DecodeExtenderTLS(*tls);
      if (!t.ok()) return t.status();
      e.tls_config = std::move(t).value();
    }
    SCHEDREF_RETURN_IF_ERROR(
        DurationField(item, "httpTimeout", &e.http_timeout_ns));
    SCHEDREF_RETURN_IF_ERROR(
        item.Bool("nodeCacheCapable", &e.node_cache_capable));
    StatusOr<std::vector<FieldReader>> resources =
        item.Array("managedResources");
    if (!resources.ok()) return resources.status();
    for (const FieldReader& m : *resources) {
      SCHEDREF_RETURN_IF_ERROR(m.ExpectObject());
      SCHEDREF_RETURN_IF_ERROR(
          CheckKnownFields(m, {"name", "ignoredByScheduler"}));
      ExtenderManagedResource resource;
      SCHEDREF_RETURN_IF_ERROR(m.String("name", &resource.name));
      SCHEDREF_RETURN_IF_ERROR(
          m.Bool("ignoredByScheduler", &resource.ignored_by_scheduler));
      e.managed_resources.push_back(std::move(resource));
    }
    SCHEDREF_RETURN_IF_ERROR(item.Bool("ignorable", &e.ignorable));
    out->push_back(std::move(e));
  }
  return Status::Ok();
}

// Decoding and defaulting (defaults.go SetDefaults_KubeSchedulerConfiguration).
StatusOr<Decoded> DecodeAndDefault(const FieldReader& r) {
  if (!r.present()) return Decoded{DefaultConfiguration()};
  SCHEDREF_RETURN_IF_ERROR(r.ExpectObject());
  SCHEDREF_RETURN_IF_ERROR(CheckKnownFields(
      r, {"apiVersion", "kind", "parallelism", "leaderElection",
          "clientConnection", "enableProfiling", "enableContentionProfiling",
          "percentageOfNodesToScore", "podInitialBackoffSeconds",
          "podMaxBackoffSeconds", "profiles", "extenders",
          "delayCacheUntilActive", "podMaxInUnschedulablePodsSeconds"}));

  std::optional<std::string> api_version;
  SCHEDREF_RETURN_IF_ERROR(r.String("apiVersion", &api_version));
  if (api_version.has_value() && *api_version != kSchedulerConfigApiVersion) {
    return r.ErrorAt("apiVersion", "unsupported apiVersion \"" + *api_version +
                                       "\" (expected \"" +
                                       kSchedulerConfigApiVersion + "\")");
  }
  std::optional<std::string> kind;
  SCHEDREF_RETURN_IF_ERROR(r.String("kind", &kind));
  if (kind.has_value() && *kind != kSchedulerConfigKind) {
    return r.ErrorAt("kind", "unsupported kind \"" + *kind + "\" (expected \"" +
                                 kSchedulerConfigKind + "\")");
  }

  Decoded decoded;
  SCHEDREF_RETURN_IF_ERROR(DecodeComponentSettings(r, &decoded.component));
  SchedulerConfiguration& out = decoded.config;
  SCHEDREF_RETURN_IF_ERROR(DecodeExtenders(r, &out.extenders));
  SCHEDREF_RETURN_IF_ERROR(r.Int32("parallelism", &out.parallelism));
  SCHEDREF_RETURN_IF_ERROR(
      r.Int32("percentageOfNodesToScore", &out.percentage_of_nodes_to_score));
  SCHEDREF_RETURN_IF_ERROR(
      r.Int64("podInitialBackoffSeconds", &out.pod_initial_backoff_seconds));
  SCHEDREF_RETURN_IF_ERROR(
      r.Int64("podMaxBackoffSeconds", &out.pod_max_backoff_seconds));
  SCHEDREF_RETURN_IF_ERROR(r.Int64("podMaxInUnschedulablePodsSeconds",
                                   &out.pod_max_in_unschedulable_pods_seconds));

  StatusOr<std::vector<FieldReader>> profiles = r.Array("profiles");
  if (!profiles.ok()) return profiles.status();
  std::vector<bool> names_given;
  for (const FieldReader& p : *profiles) {
    bool name_given = false;
    StatusOr<Profile> profile = DecodeProfile(p, &name_given);
    if (!profile.ok()) return profile.status();
    out.profiles.push_back(std::move(profile).value());
    names_given.push_back(name_given);
  }
  if (out.profiles.empty()) {
    out.profiles.emplace_back();
    names_given.push_back(false);
  }
  // Only a lone profile gets the default name; with several, a missing name
  // is left empty for validation to report.
  if (out.profiles.size() == 1 && !names_given[0]) {
    out.profiles[0].scheduler_name = kDefaultSchedulerName;
  }
  return decoded;
}

// --- Validation messages (apimachinery field.Error and errors.Aggregate)
// ---------

std::string Quote(const std::string& s) {
  // Go's %q on the plugin and scheduler names this sees: printable ASCII
  // passes through, '"' and '\' are escaped.
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string Required(const std::string& path) {
  return path + ": Required value";
}
std::string Duplicate(const std::string& path, const std::string& value) {
  return path + ": Duplicate value: " + value;
}
std::string Invalid(const std::string& path, const std::string& value,
                    const std::string& detail) {
  return path + ": Invalid value: " + value + ": " + detail;
}

// Go's %#v of the internal config.PluginSet, which is what upstream prints
// for a queueSort mismatch.
std::string GoSyntax(const std::vector<PluginRef>& plugins) {
  if (plugins.empty()) return "[]config.Plugin(nil)";
  std::string out = "[]config.Plugin{";
  for (size_t i = 0; i < plugins.size(); ++i) {
    if (i > 0) out += ", ";
    out += "config.Plugin{Name:" + Quote(plugins[i].name) +
           ", Weight:" + std::to_string(plugins[i].weight) + "}";
  }
  return out + "}";
}
std::string GoSyntax(const PluginSet& set) {
  return "config.PluginSet{Enabled:" + GoSyntax(set.enabled) +
         ", Disabled:" + GoSyntax(set.disabled) + "}";
}

// What validation sees of a profile's plugins: upstream validates after
// defaulting, when every set has been through mergePluginSet. With v1's
// defaults (all in multiPoint) that leaves every other point as written,
// except that disabled entries lose their weights.
PluginSet Merged(const std::optional<Plugins>& plugins, PluginSet Plugins::*p) {
  if (!plugins.has_value()) return {};
  PluginSet out = (*plugins).*p;
  for (PluginRef& ref : out.disabled) ref.weight = 0;
  return out;
}

std::string InvalidPluginDetail() {
  return std::string("was invalid in version \"") + kSchedulerConfigApiVersion +
         "\" (KubeSchedulerConfiguration is version \"" +
         kSchedulerConfigApiVersion + "\")";
}

bool IsInvalidPlugin(const std::string& name) {
  return std::find(std::begin(kInvalidV1Plugins), std::end(kInvalidV1Plugins),
                   name) != std::end(kInvalidV1Plugins);
}

std::string PercentageError(const std::string& path, int32_t value) {
  return Invalid(path, std::to_string(value), "not in valid range [0-100]");
}

void ValidateProfile(const std::string& path, const Profile& profile,
                     std::vector<std::string>* errs) {
  if (profile.scheduler_name.empty()) {
    errs->push_back(Required(path + ".schedulerName"));
  }
  if (profile.percentage_of_nodes_to_score.has_value()) {
    const int32_t v = *profile.percentage_of_nodes_to_score;
    if (v < 0 || v > 100) {
      errs->push_back(PercentageError(path + ".percentageOfNodesToScore", v));
    }
  }
  // validatePluginConfig: removed plugins at the extension points
  // (multiPoint is not checked upstream), then the pluginConfig entries.
  if (profile.plugins.has_value()) {
    for (const ExtensionPoint& p : kExtensionPoints) {
      if (p.set == &Plugins::multi_point) continue;
      const PluginSet set = Merged(profile.plugins, p.set);
      for (size_t i = 0; i < set.enabled.size(); ++i) {
        if (!IsInvalidPlugin(set.enabled[i].name)) continue;
        errs->push_back(Invalid(path + ".plugins." + p.json_name + ".enabled[" +
                                    std::to_string(i) + "]",
                                Quote(set.enabled[i].name),
                                InvalidPluginDetail()));
      }
    }
  }
  std::set<std::string> seen;
  for (size_t i = 0; i < profile.plugin_config.size(); ++i) {
    const std::string config_path =
        path + ".pluginConfig[" + std::to_string(i) + "]";
    const std::string& name = profile.plugin_config[i].name;
    if (!seen.insert(name).second) {
      errs->push_back(Duplicate(config_path, Quote(name)));
    }
    if (IsInvalidPlugin(name)) {
      errs->push_back(Invalid(config_path, Quote(name), InvalidPluginDetail()));
    }
    for (std::string& e : pluginargs::ValidateNestedArgs(
             name, profile.plugin_config[i].args, config_path + ".args")) {
      errs->push_back(std::move(e));
    }
  }
}

// validateCommonQueueSort.
void ValidateCommonQueueSort(const std::vector<Profile>& profiles,
                             std::vector<std::string>* errs) {
  const PluginSet canon = Merged(profiles[0].plugins, &Plugins::queue_sort);
  std::string queue_sort_name;
  if (!canon.enabled.empty()) queue_sort_name = canon.enabled[0].name;
  if (canon.enabled.size() > 1) {
    errs->push_back(Invalid("profiles[0].plugins.queueSort.Enabled",
                            std::to_string(canon.enabled.size()),
                            "only one queue sort plugin can be enabled"));
  }
  std::optional<json> queue_sort_args;
  for (const PluginConfig& c : profiles[0].plugin_config) {
    if (!queue_sort_name.empty() && c.name == queue_sort_name) {
      queue_sort_args = c.args;
    }
  }
  for (size_t i = 1; i < profiles.size(); ++i) {
    const std::string path = "profiles[" + std::to_string(i) + "]";
    const PluginSet current = Merged(profiles[i].plugins, &Plugins::queue_sort);
    if (current != canon) {
      errs->push_back(Invalid(path + ".plugins.queueSort", GoSyntax(current),
                              "must be the same for all profiles"));
    }
    for (const PluginConfig& c : profiles[i].plugin_config) {
      if (c.name == queue_sort_name &&
          (!queue_sort_args.has_value() || *queue_sort_args != c.args)) {
        // Note: upstream prints the decoded args object with %#v; ours are
        // JSON and printed as such (docs/deviations.md).
        errs->push_back(
            Invalid(path + ".pluginConfig.args",
                    c.args.dump(-1, ' ', false, json::error_handler_t::replace),
                    "queueSort must be the same for all profiles"));
      }
    }
  }
}

// errors.Aggregate's Error(): duplicates dropped, one message as is,
// several as "[m1, m2]".
Status Aggregate(const std::vector<std::string>& errs) {
  std::vector<std::string> unique;
  std::set<std::string> seen;
  for (const std::string& e : errs) {
    if (seen.insert(e).second) unique.push_back(e);
  }
  if (unique.empty()) return Status::Ok();
  if (unique.size() == 1) return Status::Invalid(unique[0]);
  std::string out = "[";
  for (size_t i = 0; i < unique.size(); ++i) {
    if (i > 0) out += ", ";
    out += unique[i];
  }
  return Status::Invalid(out + "]");
}

json EncodePluginList(const std::vector<PluginRef>& plugins) {
  json out = json::array();
  for (const PluginRef& p : plugins) {
    json entry = {{"name", p.name}};
    if (p.weight != 0) entry["weight"] = p.weight;
    out.push_back(std::move(entry));
  }
  return out;
}

// component-base's ValidateClientConnectionConfiguration and
// ValidateLeaderElectionConfiguration, then the scheduler's own rule on
// resourceLock.
void ValidateComponentSettings(const ComponentSettings& c,
                               std::vector<std::string>* errs) {
  if (c.burst < 0) {
    errs->push_back(Invalid("clientConnection.burst", std::to_string(c.burst),
                            "must be non-negative"));
  }
  if (!c.leader_elect) return;
  const std::string le = "leaderElection";
  if (c.lease_duration_ns <= 0) {
    errs->push_back(Invalid(le + ".leaseDuration",
                            FormatGoDuration(c.lease_duration_ns),
                            "must be greater than zero"));
  }
  if (c.renew_deadline_ns <= 0) {
    errs->push_back(Invalid(le + ".renewDeadline",
                            FormatGoDuration(c.renew_deadline_ns),
                            "must be greater than zero"));
  }
  if (c.retry_period_ns <= 0) {
    errs->push_back(Invalid(le + ".retryPeriod",
                            FormatGoDuration(c.retry_period_ns),
                            "must be greater than zero"));
  }
  if (c.lease_duration_ns <= c.renew_deadline_ns) {
    // Upstream shows renewDeadline's value here.
    errs->push_back(Invalid(le + ".leaseDuration",
                            FormatGoDuration(c.renew_deadline_ns),
                            "must be greater than `RenewDeadline`"));
  }
  if (c.resource_lock != "leases") {
    errs->push_back(Invalid(le + ".resourceLock", Quote(c.resource_lock),
                            "resourceLock value must be \"leases\""));
  }
}

// validateExtenders.
void ValidateExtenders(const std::vector<Extender>& extenders,
                       std::vector<std::string>* errs) {
  int binders = 0;
  std::set<std::string> managed;
  for (size_t i = 0; i < extenders.size(); ++i) {
    const std::string path = "extenders[" + std::to_string(i) + "]";
    const Extender& e = extenders[i];
    if (!e.prioritize_verb.empty() && e.weight <= 0) {
      errs->push_back(Invalid(path + ".weight", std::to_string(e.weight),
                              "must have a positive weight applied to it"));
    }
    if (!e.bind_verb.empty()) ++binders;
    for (size_t j = 0; j < e.managed_resources.size(); ++j) {
      const std::string name_path =
          path + ".managedResources[" + std::to_string(j) + "].name";
      const std::string& name = e.managed_resources[j].name;
      // validateExtendedResourceName: the qualified-name problems, or else
      // whether it is an extended resource.
      const std::vector<std::string> syntax = QualifiedNameErrors(name);
      for (const std::string& msg : syntax) {
        errs->push_back(Invalid(name_path, Quote(name), msg));
      }
      if (syntax.empty() && !IsExtendedResourceName(name)) {
        errs->push_back(Invalid(name_path, Quote(name),
                                "is an invalid extended resource name"));
      }
      if (!managed.insert(name).second) {
        errs->push_back(Invalid(name_path, Quote(name),
                                "duplicate extender managed resource name"));
      }
    }
    // Ours: a negative http.Client timeout means no timeout at all upstream;
    // schedref bounds every call, so it refuses one.
    if (e.http_timeout_ns < 0) {
      errs->push_back(Invalid(path + ".httpTimeout",
                              FormatGoDuration(e.http_timeout_ns),
                              "must not be negative"));
    }
  }
  if (binders > 1) {
    errs->push_back(Invalid(
        "extenders",
        Quote("found " + std::to_string(binders) +
              " extenders implementing bind"),
        "only one extender can implement bind"));
  }
}

// ValidateKubeSchedulerConfiguration, in its order.
Status Validate(const SchedulerConfiguration& config,
                const ComponentSettings& component) {
  const int32_t parallelism = config.parallelism;
  std::vector<std::string> errs;
  ValidateComponentSettings(component, &errs);
  if (parallelism <= 0) {
    errs.push_back(Invalid("parallelism", std::to_string(parallelism),
                           "should be an integer value greater than zero"));
  }
  if (config.profiles.empty()) {
    errs.push_back(Required("profiles"));
  } else {
    std::map<std::string, size_t> existing;
    for (size_t i = 0; i < config.profiles.size(); ++i) {
      const std::string path = "profiles[" + std::to_string(i) + "]";
      const Profile& profile = config.profiles[i];
      ValidateProfile(path, profile, &errs);
      const auto it = existing.find(profile.scheduler_name);
      if (it != existing.end()) {
        errs.push_back(Duplicate(
            path + ".schedulerName",
            "profiles[" + std::to_string(it->second) + "].schedulerName"));
      }
      existing[profile.scheduler_name] = i;
    }
    ValidateCommonQueueSort(config.profiles, &errs);
  }
  if (config.percentage_of_nodes_to_score < 0 ||
      config.percentage_of_nodes_to_score > 100) {
    errs.push_back(PercentageError("percentageOfNodesToScore",
                                   config.percentage_of_nodes_to_score));
  }
  if (config.pod_initial_backoff_seconds <= 0) {
    errs.push_back(Invalid("podInitialBackoffSeconds",
                           std::to_string(config.pod_initial_backoff_seconds),
                           "must be greater than 0"));
  }
  if (config.pod_max_backoff_seconds < config.pod_initial_backoff_seconds) {
    errs.push_back(Invalid("podMaxBackoffSeconds",
                           std::to_string(config.pod_max_backoff_seconds),
                           "must be greater than or equal to "
                           "PodInitialBackoffSeconds"));
  }
  // Ours (a flag upstream, not validated there); worded like the rest.
  if (config.pod_max_in_unschedulable_pods_seconds <= 0) {
    errs.push_back(
        Invalid("podMaxInUnschedulablePodsSeconds",
                std::to_string(config.pod_max_in_unschedulable_pods_seconds),
                "must be greater than 0"));
  }
  // Ours: upstream multiplies each by time.Second, an int64 of nanoseconds,
  // which wraps above 9223372036 seconds (about 292 years) and leaves the
  // queue with a negative duration; schedref refuses such values.
  constexpr int64_t kMaxDurationSeconds = 9223372036;
  for (const auto& [field, value] :
       {std::pair<const char*, int64_t>{"podInitialBackoffSeconds",
                                        config.pod_initial_backoff_seconds},
        {"podMaxBackoffSeconds", config.pod_max_backoff_seconds},
        {"podMaxInUnschedulablePodsSeconds", config.pod_max_in_unschedulable_pods_seconds}}) {
    if (value > kMaxDurationSeconds) {
      errs.push_back(Invalid(field, std::to_string(value),
                             "must be at most 9223372036 (a Go time.Duration "
                             "of that many seconds overflows)"));
    }
  }
  ValidateExtenders(config.extenders, &errs);
  return Aggregate(errs);
}

// buildExtenders: the extenders' managed resources marked
// ignoredByScheduler replace every profile's NodeResourcesFit
// ignoredResources (upstream does it when it builds the scheduler, on the
// defaulted pluginConfig, which always has NodeResourcesFit's args; here
// an entry is added where the file has none, the plugin defaulting the
// rest of its args).
void ApplyExtenderIgnoredResources(SchedulerConfiguration* config) {
  json ignored = json::array();
  for (const Extender& e : config->extenders) {
    for (const ExtenderManagedResource& r : e.managed_resources) {
      if (r.ignored_by_scheduler) ignored.push_back(r.name);
    }
  }
  if (ignored.empty()) return;
  for (Profile& p : config->profiles) {
    bool found = false;
    for (PluginConfig& c : p.plugin_config) {
      if (c.name != "NodeResourcesFit") continue;
      c.args["ignoredResources"] = ignored;
      found = true;
      break;
    }
    if (!found) {
      p.plugin_config.push_back(
          PluginConfig{"NodeResourcesFit", {{"ignoredResources", ignored}}});
    }
  }
}

}  // namespace

SchedulerConfiguration DefaultConfiguration() {
  SchedulerConfiguration out;
  out.profiles.emplace_back();
  out.profiles[0].scheduler_name = kDefaultSchedulerName;
  return out;
}

Status ValidateConfiguration(const SchedulerConfiguration& config) {
  return Validate(config, ComponentSettings{});
}

StatusOr<SchedulerConfiguration> DecodeConfigurationAt(const FieldReader& at) {
  StatusOr<Decoded> decoded = DecodeAndDefault(at);
  if (!decoded.ok()) return decoded.status();
  const Status valid = Validate(decoded->config, decoded->component);
  if (!valid.ok()) {
    return valid.WithPrefix(at.path().empty() ? at.file()
                                              : at.file() + ": " + at.path());
  }
  ApplyExtenderIgnoredResources(&decoded->config);
  return std::move(decoded->config);
}

StatusOr<SchedulerConfiguration> DecodeConfiguration(
    const nlohmann::json& document, const std::string& file) {
  return DecodeConfigurationAt(FieldReader(document, file, ""));
}

json EncodeConfiguration(const SchedulerConfiguration& config) {
  json out = {
      {"apiVersion", kSchedulerConfigApiVersion},
      {"kind", kSchedulerConfigKind},
      {"parallelism", config.parallelism},
      {"percentageOfNodesToScore", config.percentage_of_nodes_to_score},
      {"podInitialBackoffSeconds", config.pod_initial_backoff_seconds},
      {"podMaxBackoffSeconds", config.pod_max_backoff_seconds},
      {"podMaxInUnschedulablePodsSeconds",
       config.pod_max_in_unschedulable_pods_seconds},
  };
  json profiles = json::array();
  for (const Profile& p : config.profiles) {
    json profile = {{"schedulerName", p.scheduler_name}};
    if (p.percentage_of_nodes_to_score.has_value()) {
      profile["percentageOfNodesToScore"] = *p.percentage_of_nodes_to_score;
    }
    if (p.plugins.has_value()) {
      json plugins = json::object();
      for (const ExtensionPoint& e : kExtensionPoints) {
        const PluginSet& set = (*p.plugins).*(e.set);
        json s = json::object();
        if (!set.enabled.empty()) s["enabled"] = EncodePluginList(set.enabled);
        if (!set.disabled.empty()) {
          s["disabled"] = EncodePluginList(set.disabled);
        }
        if (!s.empty()) plugins[e.json_name] = std::move(s);
      }
      profile["plugins"] = std::move(plugins);
    }
    if (!p.plugin_config.empty()) {
      json configs = json::array();
      for (const PluginConfig& c : p.plugin_config) {
        configs.push_back({{"name", c.name}, {"args", c.args}});
      }
      profile["pluginConfig"] = std::move(configs);
    }
    profiles.push_back(std::move(profile));
  }
  out["profiles"] = std::move(profiles);
  if (!config.extenders.empty()) {
    json extenders = json::array();
    for (const Extender& e : config.extenders) {
      json x = {{"urlPrefix", e.url_prefix},
                {"httpTimeout", FormatGoDuration(e.http_timeout_ns)}};
      for (const auto& [key, verb] :
           {std::pair{"filterVerb", &e.filter_verb},
            std::pair{"preemptVerb", &e.preempt_verb},
            std::pair{"prioritizeVerb", &e.prioritize_verb},
            std::pair{"bindVerb", &e.bind_verb}}) {
        if (!verb->empty()) x[key] = *verb;
      }
      if (e.weight != 0) x["weight"] = e.weight;
      if (e.enable_https) x["enableHTTPS"] = true;
      if (e.tls_config.has_value()) {
        const ExtenderTLSConfig& t = *e.tls_config;
        json tls = json::object();
        if (t.insecure) tls["insecure"] = true;
        for (const auto& [key, text] :
             {std::pair{"serverName", &t.server_name},
              std::pair{"certFile", &t.cert_file},
              std::pair{"keyFile", &t.key_file},
              std::pair{"caFile", &t.ca_file}}) {
          if (!text->empty()) tls[key] = *text;
        }
        for (const auto& [key, bytes] : {std::pair{"certData", &t.cert_data},
                                         std::pair{"keyData", &t.key_data},
                                         std::pair{"caData", &t.ca_data}}) {
          if (!bytes->empty()) tls[key] = absl::Base64Escape(*bytes);
        }
        x["tlsConfig"] = std::move(tls);
      }
      if (e.node_cache_capable) x["nodeCacheCapable"] = true;
      if (!e.managed_resources.empty()) {
        json resources = json::array();
        for (const ExtenderManagedResource& m : e.managed_resources) {
          json r = {{"name", m.name}};
          if (m.ignored_by_scheduler) r["ignoredByScheduler"] = true;
          resources.push_back(std::move(r));
        }
        x["managedResources"] = std::move(resources);
      }
      if (e.ignorable) x["ignorable"] = true;
      extenders.push_back(std::move(x));
    }
    out["extenders"] = std::move(extenders);
  }
  return out;
}

}  // namespace schedref::api
