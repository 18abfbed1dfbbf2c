// Property: every object the decoder can produce survives encoding and
// decoding again, through the JSON value, JSON text and YAML text. The
// generators produce exactly such objects: valid where the API server
// validates, and already defaulted (requests cover limits, protocols set,
// uid and schedulerName non-empty).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>
#include <yaml-cpp/yaml.h>

#include "api/codec/decode.h"
#include "api/codec/encode.h"
#include "api/types/labels.h"
#include "api/types/objects.h"

namespace schedref::api {
namespace {

namespace gen = rc::gen;
using nlohmann::json;
using rc::Gen;

// --- Strings ---------------------------------------------------------------------

const std::string kAlnum =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const std::string kLowerAlnum = "abcdefghijklmnopqrstuvwxyz0123456789";
// Printable ASCII, including the characters JSON and YAML must escape.
const std::string kPrintable = [] {
  std::string s;
  for (char c = ' '; c <= '~'; ++c) s.push_back(c);
  return s;
}();

Gen<std::string> StringOf(const std::string& alphabet, int min_len,
                          int max_len) {
  return gen::mapcat(gen::inRange(min_len, max_len + 1), [alphabet](int n) {
    return gen::container<std::string>(static_cast<size_t>(n),
                                       gen::elementOf(alphabet));
  });
}

// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9], at most 8 characters.
Gen<std::string> NamePart() {
  return gen::map(
      gen::tuple(gen::elementOf(kAlnum), StringOf(kAlnum + "-_.", 0, 6),
                 gen::elementOf(kAlnum), gen::arbitrary<bool>()),
      [](const std::tuple<char, std::string, char, bool>& t) {
        const auto& [first, middle, last, single] = t;
        return single ? std::string(1, first)
                      : std::string(1, first) + middle + last;
      });
}

Gen<std::string> LabelKey() {
  return gen::map(gen::pair(gen::element<std::string>(
                                "", "", "example.com/",
                                "topology.kubernetes.io/", "a-1.b/"),
                            NamePart()),
                  [](const std::pair<std::string, std::string>& p) {
                    return p.first + p.second;
                  });
}

Gen<std::string> LabelValue() {
  return gen::oneOf(gen::just(std::string()), NamePart());
}

// Object names: lowercase DNS labels.
Gen<std::string> ObjectName() {
  return gen::map(
      gen::pair(gen::elementOf(kLowerAlnum), StringOf(kLowerAlnum + "-", 0, 6)),
      [](const std::pair<char, std::string>& p) {
        std::string s = std::string(1, p.first) + p.second;
        if (s.back() == '-') s.back() = 'x';
        return s;
      });
}

Gen<std::string> AnyText() { return StringOf(kPrintable, 0, 8); }
Gen<std::string> NonEmptyText() { return StringOf(kPrintable, 1, 8); }

template <typename T>
Gen<std::vector<T>> SmallVector(Gen<T> element) {
  return gen::resize(3, gen::container<std::vector<T>>(std::move(element)));
}

// One to three elements: for lists the API server requires to be non-empty.
template <typename T>
Gen<std::vector<T>> SmallNonEmptyVector(Gen<T> element) {
  return gen::resize(3, gen::nonEmpty(gen::container<std::vector<T>>(std::move(element))));
}

template <typename T>
Gen<std::optional<T>> Optional(Gen<T> value) {
  return gen::oneOf(gen::just(std::optional<T>()),
                    gen::map(std::move(value),
                             [](T v) { return std::optional<T>(std::move(v)); }));
}

Gen<Labels> GenLabels() {
  return gen::resize(4, gen::container<Labels>(LabelKey(), LabelValue()));
}

// Annotation values are any text.
Gen<Labels> GenAnnotations() {
  return gen::resize(3, gen::container<Labels>(LabelKey(), AnyText()));
}

Gen<TimeMs> Time() {
  // 0000-01-01T00:00:00Z .. 9999-12-31T23:59:59.999Z
  return gen::oneOf(
      gen::inRange<TimeMs>(-62167219200000, 253402300800000),
      gen::map(gen::inRange<TimeMs>(1600000000, 1800000000),
               [](TimeMs s) { return s * 1000; }));
}

Gen<ResourceList> Resources() {
  const auto amount = gen::oneOf(
      gen::inRange<int64_t>(0, 100000),
      gen::inRange<int64_t>(0, std::numeric_limits<int64_t>::max()));
  return gen::resize(
      4, gen::container<ResourceList>(
             gen::element<std::string>("cpu", "memory", "ephemeral-storage",
                                       "pods", "hugepages-2Mi",
                                       "example.com/gpu"),
             amount));
}

// --- Selectors ---------------------------------------------------------------------

Gen<LabelSelector> GenLabelSelector() {
  const auto requirement = gen::mapcat(
      gen::element<std::string>("In", "NotIn", "Exists", "DoesNotExist"),
      [](const std::string& op) {
        const bool set = op == "In" || op == "NotIn";
        return gen::build<LabelSelectorRequirement>(
            gen::set(&LabelSelectorRequirement::key, LabelKey()),
            gen::set(&LabelSelectorRequirement::op, gen::just(op)),
            gen::set(&LabelSelectorRequirement::values,
                     set ? gen::resize(3, gen::nonEmpty(gen::container<
                                                       std::vector<std::string>>(
                                              LabelValue())))
                         : gen::just(std::vector<std::string>())));
      });
  return gen::build<LabelSelector>(
      gen::set(&LabelSelector::match_labels, GenLabels()),
      gen::set(&LabelSelector::match_expressions, SmallVector(requirement)));
}

Gen<NodeSelectorRequirement> NodeExpression() {
  // API validation does not look at the values, so any text goes.
  return gen::mapcat(
      gen::element<std::string>("In", "NotIn", "Exists", "DoesNotExist", "Gt",
                                "Lt"),
      [](const std::string& op) {
        Gen<std::vector<std::string>> values =
            gen::just(std::vector<std::string>());
        if (op == "In" || op == "NotIn") {
          values = gen::resize(
              3, gen::nonEmpty(gen::container<std::vector<std::string>>(
                     AnyText())));
        } else if (op == "Gt" || op == "Lt") {
          values = gen::container<std::vector<std::string>>(
              1, gen::oneOf(AnyText(),
                            gen::map(gen::arbitrary<int64_t>(), [](int64_t v) {
                              return std::to_string(v);
                            })));
        }
        return gen::build<NodeSelectorRequirement>(
            gen::set(&NodeSelectorRequirement::key, LabelKey()),
            gen::set(&NodeSelectorRequirement::op, gen::just(op)),
            gen::set(&NodeSelectorRequirement::values, values));
      });
}

Gen<NodeSelectorRequirement> NodeField() {
  return gen::build<NodeSelectorRequirement>(
      gen::set(&NodeSelectorRequirement::key, gen::just(std::string("metadata.name"))),
      gen::set(&NodeSelectorRequirement::op, gen::element<std::string>("In", "NotIn")),
      gen::set(&NodeSelectorRequirement::values,
               gen::container<std::vector<std::string>>(1, ObjectName())));
}

Gen<NodeSelectorTerm> GenNodeSelectorTerm() {
  return gen::build<NodeSelectorTerm>(
      gen::set(&NodeSelectorTerm::match_expressions, SmallVector(NodeExpression())),
      gen::set(&NodeSelectorTerm::match_fields, SmallVector(NodeField())));
}

// --- Pod --------------------------------------------------------------------------

// Whether `selector` names `key` in matchLabels or matchExpressions.
bool SelectorHasKey(const std::optional<LabelSelector>& selector, const std::string& key) {
  if (!selector.has_value()) return false;
  if (selector->match_labels.count(key) != 0) return true;
  for (const LabelSelectorRequirement& r : selector->match_expressions) {
    if (r.key == key) return true;
  }
  return false;
}

// Drops from `keys` every key `drop` says to.
template <typename Pred>
void EraseKeys(std::vector<std::string>* keys, Pred drop) {
  keys->erase(std::remove_if(keys->begin(), keys->end(), drop), keys->end());
}

Gen<PodAffinityTerm> GenPodAffinityTerm() {
  return gen::build<PodAffinityTerm>(
      gen::set(&PodAffinityTerm::label_selector, Optional(GenLabelSelector())),
      gen::set(&PodAffinityTerm::namespaces, SmallVector(ObjectName())),
      gen::set(&PodAffinityTerm::topology_key, LabelKey()),
      gen::set(&PodAffinityTerm::namespace_selector, Optional(GenLabelSelector())),
      gen::set(&PodAffinityTerm::match_label_keys, SmallVector(LabelKey())),
      gen::set(&PodAffinityTerm::mismatch_label_keys, SmallVector(LabelKey())));
}

// A term the API server accepts (the decoder's validation): label keys only
// with a selector, none both matched and mismatched, no matched key in the
// selector.
Gen<PodAffinityTerm> GenValidPodAffinityTerm() {
  return gen::map(GenPodAffinityTerm(), [](PodAffinityTerm t) {
    if (!t.label_selector.has_value()) {
      t.match_label_keys.clear();
      t.mismatch_label_keys.clear();
    }
    EraseKeys(&t.match_label_keys, [&](const std::string& k) {
      return SelectorHasKey(t.label_selector, k) ||
             std::find(t.mismatch_label_keys.begin(), t.mismatch_label_keys.end(), k) !=
                 t.mismatch_label_keys.end();
    });
    return t;
  });
}

Gen<PodAffinity> GenPodAffinity() {
  return gen::build<PodAffinity>(
      gen::set(&PodAffinity::required, SmallVector(GenValidPodAffinityTerm())),
      gen::set(&PodAffinity::preferred,
               SmallVector(gen::build<WeightedPodAffinityTerm>(
                   gen::set(&WeightedPodAffinityTerm::weight, gen::inRange(1, 101)),
                   gen::set(&WeightedPodAffinityTerm::term, GenValidPodAffinityTerm())))));
}

Gen<Affinity> GenAffinity() {
  const auto node_affinity = gen::build<NodeAffinity>(
      gen::set(&NodeAffinity::required,
               Optional(gen::build<NodeSelector>(gen::set(
                   &NodeSelector::terms,
                   gen::resize(3, gen::nonEmpty(gen::container<
                                                std::vector<NodeSelectorTerm>>(
                                      GenNodeSelectorTerm()))))))),
      gen::set(&NodeAffinity::preferred,
               SmallVector(gen::build<PreferredSchedulingTerm>(
                   gen::set(&PreferredSchedulingTerm::weight, gen::inRange(1, 101)),
                   gen::set(&PreferredSchedulingTerm::preference,
                            GenNodeSelectorTerm())))));
  return gen::build<Affinity>(
      gen::set(&Affinity::node_affinity, Optional(node_affinity)),
      gen::set(&Affinity::pod_affinity, Optional(GenPodAffinity())),
      gen::set(&Affinity::pod_anti_affinity, Optional(GenPodAffinity())));
}

Gen<Container> GenContainer(bool init) {
  const auto port = gen::build<ContainerPort>(
      gen::set(&ContainerPort::container_port, gen::inRange(1, 65536)),
      gen::set(&ContainerPort::host_port,
               gen::oneOf(gen::just(0), gen::inRange(0, 65536))),
      gen::set(&ContainerPort::protocol, gen::element<std::string>("TCP", "UDP", "SCTP")),
      gen::set(&ContainerPort::host_ip,
               gen::element<std::string>("", "0.0.0.0", "10.0.0.1")));
  const auto restart = init ? gen::element<std::string>("", "Always")
                            : gen::just(std::string());
  return gen::map(
      gen::build<Container>(gen::set(&Container::name, ObjectName()),
                            gen::set(&Container::image, AnyText()),
                            gen::set(&Container::requests, Resources()),
                            gen::set(&Container::limits, Resources()),
                            gen::set(&Container::ports, SmallVector(port)),
                            gen::set(&Container::restart_policy, restart)),
      [](Container c) {
        // The decoder's defaulting: limits imply requests.
        for (const auto& [name, limit] : c.limits) c.requests.emplace(name, limit);
        return c;
      });
}

Gen<Toleration> GenToleration() {
  return gen::map(
      gen::tuple(gen::oneOf(gen::just(std::string()), LabelKey()),
                 gen::element<std::string>("", "Equal", "Exists"), LabelValue(),
                 gen::element<std::string>("", "NoSchedule", "PreferNoSchedule",
                                           "NoExecute"),
                 Optional(gen::arbitrary<int64_t>())),
      [](std::tuple<std::string, std::string, std::string, std::string,
                    std::optional<int64_t>>
             t) {
        auto& [key, op, value, effect, seconds] = t;
        if (key.empty()) op = "Exists";
        if (op == "Exists") value.clear();
        if (effect != "NoExecute") seconds.reset();
        return Toleration{key, op, value, effect, seconds};
      });
}

Gen<TopologySpreadConstraint> GenSpreadConstraint() {
  const auto policy = Optional(gen::element<std::string>("Honor", "Ignore"));
  return gen::build<TopologySpreadConstraint>(
      gen::set(&TopologySpreadConstraint::max_skew,
               gen::inRange(1, std::numeric_limits<int32_t>::max())),
      gen::set(&TopologySpreadConstraint::topology_key, LabelKey()),
      gen::set(&TopologySpreadConstraint::when_unsatisfiable,
               gen::element<std::string>("DoNotSchedule", "ScheduleAnyway")),
      gen::set(&TopologySpreadConstraint::label_selector,
               Optional(GenLabelSelector())),
      gen::set(&TopologySpreadConstraint::min_domains,
               Optional(gen::inRange(1, 1000))),
      gen::set(&TopologySpreadConstraint::node_affinity_policy, policy),
      gen::set(&TopologySpreadConstraint::node_taints_policy, policy),
      gen::set(&TopologySpreadConstraint::match_label_keys,
               SmallVector(LabelKey())));
}

// Constraints the API server accepts (the decoder's validation): minDomains
// only with DoNotSchedule, one per {topologyKey, whenUnsatisfiable},
// matchLabelKeys only with a selector and none of its keys.
Gen<std::vector<TopologySpreadConstraint>> GenValidSpreadConstraints() {
  return gen::map(SmallVector(GenSpreadConstraint()),
                  [](std::vector<TopologySpreadConstraint> in) {
                    std::vector<TopologySpreadConstraint> out;
                    for (TopologySpreadConstraint& c : in) {
                      const bool repeated = std::any_of(
                          out.begin(), out.end(), [&](const TopologySpreadConstraint& o) {
                            return o.topology_key == c.topology_key &&
                                   o.when_unsatisfiable == c.when_unsatisfiable;
                          });
                      if (repeated) continue;
                      if (c.when_unsatisfiable != kDoNotSchedule) c.min_domains.reset();
                      if (!c.label_selector.has_value()) c.match_label_keys.clear();
                      EraseKeys(&c.match_label_keys, [&](const std::string& k) {
                        return SelectorHasKey(c.label_selector, k);
                      });
                      out.push_back(std::move(c));
                    }
                    return out;
                  });
}

// --- Storage ------------------------------------------------------------------------

// Bytes: small, round, or anything positive.
Gen<int64_t> StorageBytes() {
  return gen::oneOf(gen::inRange<int64_t>(1, 100000),
                    gen::map(gen::inRange<int64_t>(1, 1024),
                             [](int64_t n) { return n * 1024 * 1024 * 1024; }),
                    gen::inRange<int64_t>(1, std::numeric_limits<int64_t>::max()));
}

// A non-empty set of access modes the API server accepts: ReadWriteOncePod
// alone, or any non-empty subset of the other three, in any order.
Gen<std::vector<std::string>> AccessModes() {
  return gen::oneOf(
      gen::just(std::vector<std::string>{kReadWriteOncePod}),
      gen::map(gen::resize(3, gen::nonEmpty(gen::container<std::vector<std::string>>(
                                  gen::element<std::string>(kReadWriteOnce, kReadOnlyMany,
                                                            kReadWriteMany)))),
               [](std::vector<std::string> modes) {
                 std::vector<std::string> unique;
                 for (std::string& m : modes) {
                   if (std::find(unique.begin(), unique.end(), m) == unique.end()) {
                     unique.push_back(std::move(m));
                   }
                 }
                 return unique;
               }));
}

// CSI driver names: DNS subdomains of at most 63 characters.
Gen<std::string> DriverName() {
  return gen::oneOf(gen::element<std::string>("ebs.csi.aws.com", "pd.csi.storage.gke.io",
                                              "disk.csi.azure.com", "hostpath.csi.k8s.io"),
                    ObjectName());
}

Gen<PersistentVolumeClaimSpec> GenClaimSpec() {
  return gen::build<PersistentVolumeClaimSpec>(
      gen::set(&PersistentVolumeClaimSpec::access_modes, AccessModes()),
      gen::set(&PersistentVolumeClaimSpec::selector, Optional(GenLabelSelector())),
      gen::set(&PersistentVolumeClaimSpec::storage_request, StorageBytes()),
      gen::set(&PersistentVolumeClaimSpec::volume_name,
               gen::oneOf(gen::just(std::string()), ObjectName())),
      gen::set(&PersistentVolumeClaimSpec::storage_class_name,
               Optional(gen::oneOf(gen::just(std::string()), ObjectName()))),
      gen::set(&PersistentVolumeClaimSpec::volume_mode,
               gen::element<std::string>("Filesystem", "Block")));
}

// One source of `kind` with the fields the decoder keeps for it, valid.
Gen<VolumeSource> GenSource(const std::string& kind, bool persistent_volume) {
  return gen::map(
      gen::tuple(ObjectName(), ObjectName(), gen::arbitrary<bool>(), gen::inRange(0, 256),
                 SmallVector(ObjectName()), DriverName()),
      [kind, persistent_volume](const std::tuple<std::string, std::string, bool, int,
                                                 std::vector<std::string>, std::string>& t) {
        const auto& [a, b, read_only, lun, monitors, driver] = t;
        VolumeSource s;
        s.kind = kind;
        if (kind == "persistentVolumeClaim") s.claim_name = a;
        if (kind == "awsElasticBlockStore") s.volume_id = "aws://zone-a/vol-" + a;
        if (kind == "gcePersistentDisk") s.pd_name = a;
        if (kind == "azureDisk") {
          s.disk_name = a;
          s.disk_uri = "https://acct.blob.core.windows.net/vhds/" + b + ".vhd";
        }
        if (kind == "rbd") {
          s.monitors = monitors.empty() ? std::vector<std::string>{"10.0.0.1:6789"} : monitors;
          s.pool = b;
          s.image = a;
        }
        if (kind == "iscsi") {
          s.target_portal = "10.0.0.2:3260";
          s.iqn = "iqn.2001-04.com.example:" + a;
          s.lun = lun;
        }
        if (kind == "csi") {
          s.driver = driver;
          if (persistent_volume) s.volume_handle = a;
        }
        if (kind == "hostPath" || kind == "local") s.path = "/" + a;
        const bool has_read_only = kind == "persistentVolumeClaim" ||
                                   kind == "awsElasticBlockStore" ||
                                   kind == "gcePersistentDisk" || kind == "azureDisk" ||
                                   kind == "rbd" || kind == "iscsi" || kind == "csi";
        if (has_read_only) s.read_only = read_only;
        return s;
      });
}

Gen<Volume> GenVolume() {
  return gen::mapcat(
      gen::element<std::string>("emptyDir", "configMap", "hostPath", "persistentVolumeClaim",
                                "ephemeral", "awsElasticBlockStore", "gcePersistentDisk",
                                "azureDisk", "rbd", "iscsi", "csi"),
      [](const std::string& kind) {
        return gen::map(gen::tuple(ObjectName(), GenSource(kind, false), GenClaimSpec()),
                        [kind](std::tuple<std::string, VolumeSource, PersistentVolumeClaimSpec> t) {
                          auto& [name, source, claim] = t;
                          Volume v{std::move(name), std::move(source), std::nullopt};
                          if (kind == "ephemeral") v.ephemeral = std::move(claim);
                          return v;
                        });
      });
}

Gen<OwnerReference> GenOwnerReference() {
  return gen::build<OwnerReference>(
      gen::set(&OwnerReference::api_version, gen::element<std::string>("v1", "apps/v1")),
      gen::set(&OwnerReference::kind, gen::element<std::string>("Pod", "StatefulSet")),
      gen::set(&OwnerReference::name, ObjectName()),
      gen::set(&OwnerReference::uid, NonEmptyText()),
      gen::set(&OwnerReference::controller, gen::arbitrary<bool>()));
}

// At most one controller (ValidateOwnerReferences).
Gen<std::vector<OwnerReference>> GenOwnerReferences() {
  return gen::map(SmallVector(GenOwnerReference()), [](std::vector<OwnerReference> refs) {
    bool controller = false;
    for (OwnerReference& r : refs) {
      if (r.controller && controller) r.controller = false;
      controller = controller || r.controller;
    }
    return refs;
  });
}

Gen<NodeSelector> GenNodeSelector() {
  return gen::map(gen::resize(3, gen::nonEmpty(gen::container<std::vector<NodeSelectorTerm>>(
                                     GenNodeSelectorTerm()))),
                  [](std::vector<NodeSelectorTerm> terms) {
                    NodeSelector s;
                    s.terms = std::move(terms);
                    return s;
                  });
}

Gen<PersistentVolume> GenPersistentVolume() {
  return gen::mapcat(
      gen::element<std::string>("csi", "hostPath", "local", "awsElasticBlockStore",
                                "gcePersistentDisk", "azureDisk", "rbd", "iscsi"),
      [](const std::string& kind) {
        return gen::map(
            gen::build<PersistentVolume>(
                gen::set(&PersistentVolume::name, ObjectName()),
                gen::set(&PersistentVolume::uid, NonEmptyText()),
                gen::set(&PersistentVolume::labels, GenLabels()),
                gen::set(&PersistentVolume::annotations, GenAnnotations()),
                gen::set(&PersistentVolume::deletion_timestamp, Optional(Time())),
                gen::set(&PersistentVolume::capacity, StorageBytes()),
                gen::set(&PersistentVolume::access_modes, AccessModes()),
                gen::set(&PersistentVolume::storage_class_name,
                         gen::oneOf(gen::just(std::string()), ObjectName())),
                gen::set(&PersistentVolume::claim_ref,
                         Optional(gen::build<ClaimReference>(
                             gen::set(&ClaimReference::ns,
                                      gen::oneOf(gen::just(std::string()), ObjectName())),
                             gen::set(&ClaimReference::name,
                                      gen::oneOf(gen::just(std::string()), ObjectName())),
                             gen::set(&ClaimReference::uid,
                                      gen::oneOf(gen::just(std::string()), NonEmptyText()))))),
                gen::set(&PersistentVolume::node_affinity, Optional(GenNodeSelector())),
                gen::set(&PersistentVolume::volume_mode,
                         gen::element<std::string>("Filesystem", "Block")),
                gen::set(&PersistentVolume::reclaim_policy,
                         gen::element<std::string>("Retain", "Delete", "Recycle")),
                gen::set(&PersistentVolume::source, GenSource(kind, true)),
                gen::set(&PersistentVolume::phase,
                         gen::element<std::string>("Pending", "Available", "Bound", "Released",
                                                   "Failed"))),
            [](PersistentVolume pv) {
              // A local volume needs node affinity.
              if (pv.source.kind == "local" && !pv.node_affinity) {
                pv.node_affinity = NodeSelector{};
                pv.node_affinity->terms.push_back(NodeSelectorTerm{});
                pv.node_affinity->terms.back().match_expressions.push_back(
                    {"kubernetes.io/hostname", "In", {"node-a"}});
              }
              return pv;
            });
      });
}

Gen<PersistentVolumeClaim> GenPersistentVolumeClaim() {
  return gen::build<PersistentVolumeClaim>(
      gen::set(&PersistentVolumeClaim::ns, ObjectName()),
      gen::set(&PersistentVolumeClaim::name, ObjectName()),
      gen::set(&PersistentVolumeClaim::uid, NonEmptyText()),
      gen::set(&PersistentVolumeClaim::labels, GenLabels()),
      gen::set(&PersistentVolumeClaim::annotations, GenAnnotations()),
      gen::set(&PersistentVolumeClaim::deletion_timestamp, Optional(Time())),
      gen::set(&PersistentVolumeClaim::owner_references, GenOwnerReferences()),
      gen::set(&PersistentVolumeClaim::spec, GenClaimSpec()),
      gen::set(&PersistentVolumeClaim::phase,
               gen::element<std::string>("Pending", "Bound", "Lost")));
}

Gen<StorageClass> GenStorageClass() {
  const auto requirement = gen::build<TopologySelectorRequirement>(
      gen::set(&TopologySelectorRequirement::key, LabelKey()),
      gen::set(&TopologySelectorRequirement::values,
               gen::resize(3, gen::nonEmpty(gen::container<std::vector<std::string>>(
                                  LabelValue())))));
  const auto term = gen::map(
      gen::resize(3, gen::nonEmpty(gen::container<std::vector<TopologySelectorRequirement>>(
                         requirement))),
      [](std::vector<TopologySelectorRequirement> reqs) {
        // Keys are unique within a term.
        TopologySelectorTerm t;
        for (TopologySelectorRequirement& r : reqs) {
          if (std::none_of(t.match_label_expressions.begin(), t.match_label_expressions.end(),
                           [&](const TopologySelectorRequirement& u) { return u.key == r.key; })) {
            t.match_label_expressions.push_back(std::move(r));
          }
        }
        return t;
      });
  // Terms are distinct as key -> set of values, and values unique.
  const auto terms = gen::map(SmallVector(term), [](std::vector<TopologySelectorTerm> in) {
    using Shape = std::map<std::string, std::set<std::string>>;
    std::vector<TopologySelectorTerm> out;
    std::vector<Shape> seen;
    for (TopologySelectorTerm& t : in) {
      Shape shape;
      for (TopologySelectorRequirement& r : t.match_label_expressions) {
        std::vector<std::string> unique;
        for (std::string& v : r.values) {
          if (std::find(unique.begin(), unique.end(), v) == unique.end()) unique.push_back(v);
        }
        r.values = std::move(unique);
        shape[r.key] = std::set<std::string>(r.values.begin(), r.values.end());
      }
      if (std::find(seen.begin(), seen.end(), shape) != seen.end()) continue;
      seen.push_back(std::move(shape));
      out.push_back(std::move(t));
    }
    return out;
  });
  return gen::build<StorageClass>(
      gen::set(&StorageClass::name, ObjectName()),
      gen::set(&StorageClass::annotations, GenAnnotations()),
      gen::set(&StorageClass::provisioner,
               gen::oneOf(DriverName(), gen::element<std::string>("kubernetes.io/no-provisioner",
                                                                  "kubernetes.io/gce-pd"))),
      gen::set(&StorageClass::reclaim_policy, gen::element<std::string>("Delete", "Retain")),
      gen::set(&StorageClass::volume_binding_mode,
               gen::element<std::string>(kVolumeBindingImmediate,
                                         kVolumeBindingWaitForFirstConsumer)),
      gen::set(&StorageClass::allowed_topologies, terms));
}

Gen<CSINode> GenCSINode() {
  const auto driver = gen::build<CSINodeDriver>(
      gen::set(&CSINodeDriver::name, DriverName()),
      gen::set(&CSINodeDriver::node_id, NonEmptyText()),
      gen::set(&CSINodeDriver::topology_keys, SmallVector(LabelKey())),
      gen::set(&CSINodeDriver::allocatable_count,
               Optional(gen::inRange(0, std::numeric_limits<int32_t>::max()))));
  return gen::map(
      gen::build<CSINode>(gen::set(&CSINode::name, ObjectName()),
                          gen::set(&CSINode::annotations, GenAnnotations()),
                          gen::set(&CSINode::drivers, SmallVector(driver))),
      [](CSINode n) {
        // Driver names are unique, and so are each driver's topology keys.
        std::vector<CSINodeDriver> unique;
        for (CSINodeDriver& d : n.drivers) {
          std::vector<std::string> keys;
          for (std::string& k : d.topology_keys) {
            if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(std::move(k));
          }
          d.topology_keys = std::move(keys);
          if (std::none_of(unique.begin(), unique.end(),
                           [&](const CSINodeDriver& u) { return u.name == d.name; })) {
            unique.push_back(std::move(d));
          }
        }
        n.drivers = std::move(unique);
        return n;
      });
}

Gen<CSIDriver> GenCSIDriver() {
  return gen::build<CSIDriver>(gen::set(&CSIDriver::name, DriverName()),
                               gen::set(&CSIDriver::attach_required, gen::arbitrary<bool>()),
                               gen::set(&CSIDriver::storage_capacity, gen::arbitrary<bool>()));
}

Gen<CSIStorageCapacity> GenCSIStorageCapacity() {
  const auto any_size = gen::oneOf(StorageBytes(), gen::just(int64_t{0}),
                                   gen::inRange<int64_t>(-100000, 0));
  return gen::build<CSIStorageCapacity>(
      gen::set(&CSIStorageCapacity::ns, ObjectName()),
      gen::set(&CSIStorageCapacity::name, ObjectName()),
      gen::set(&CSIStorageCapacity::node_topology, Optional(GenLabelSelector())),
      gen::set(&CSIStorageCapacity::storage_class_name, ObjectName()),
      gen::set(&CSIStorageCapacity::capacity,
               Optional(gen::oneOf(StorageBytes(), gen::just(int64_t{0})))),
      // Not validated upstream: negative sizes are kept.
      gen::set(&CSIStorageCapacity::maximum_volume_size, Optional(any_size)));
}

Gen<AnyObject> GenStorageKind() {
  const auto as_any = [](auto g) {
    return gen::map(std::move(g), [](auto o) { return AnyObject(std::move(o)); });
  };
  return gen::oneOf(as_any(GenPersistentVolume()), as_any(GenPersistentVolumeClaim()),
                    as_any(GenStorageClass()), as_any(GenCSINode()), as_any(GenCSIDriver()),
                    as_any(GenCSIStorageCapacity()));
}

Gen<Pod> GenPod() {
  return gen::map(
      gen::build<Pod>(
          gen::set(&Pod::ns, ObjectName()), gen::set(&Pod::name, ObjectName()),
          gen::set(&Pod::uid, NonEmptyText()),
          gen::set(&Pod::labels, GenLabels()),
          gen::set(&Pod::annotations, GenAnnotations()),
          gen::set(&Pod::conditions,
                   SmallVector(gen::build<PodCondition>(
                       gen::set(&PodCondition::type,
                                gen::element<std::string>("Ready", "PodScheduled",
                                                          "DisruptionTarget")),
                       gen::set(&PodCondition::status,
                                gen::element<std::string>("True", "False", "Unknown")),
                       gen::set(&PodCondition::reason,
                                gen::element<std::string>("", "PreemptionByScheduler",
                                                          "Unschedulable"))))),
          gen::set(&Pod::creation_timestamp, gen::oneOf(gen::just(TimeMs{0}), Time())),
          gen::set(&Pod::deletion_timestamp, Optional(Time())),
          gen::set(&Pod::priority, Optional(gen::arbitrary<int32_t>())),
          gen::set(&Pod::priority_class_name,
                   gen::oneOf(gen::just(std::string()), ObjectName())),
          gen::set(&Pod::scheduler_name,
                   gen::element<std::string>("default-scheduler", "other")),
          gen::set(&Pod::node_name, gen::oneOf(gen::just(std::string()), ObjectName())),
          gen::set(&Pod::scheduling_gates, SmallVector(LabelKey())),
          gen::set(&Pod::containers, SmallNonEmptyVector(GenContainer(false))),
          gen::set(&Pod::init_containers, SmallVector(GenContainer(true))),
          gen::set(&Pod::overhead, Resources()),
          gen::set(&Pod::node_selector, GenLabels()),
          gen::set(&Pod::affinity, Optional(GenAffinity())),
          gen::set(&Pod::tolerations, SmallVector(GenToleration())),
          gen::set(&Pod::topology_spread_constraints, GenValidSpreadConstraints()),
          gen::set(&Pod::preemption_policy,
                   Optional(gen::element<std::string>("PreemptLowerPriority", "Never"))),
          gen::set(&Pod::volumes, SmallVector(GenVolume())),
          gen::set(&Pod::owner_references, GenOwnerReferences()),
          gen::set(&Pod::termination_grace_period_seconds,
                   Optional(gen::arbitrary<int64_t>())),
          gen::set(&Pod::phase, gen::element<std::string>("", "Pending", "Running",
                                                          "Succeeded", "Failed", "Unknown")),
          gen::set(&Pod::nominated_node_name,
                   gen::oneOf(gen::just(std::string()), ObjectName())),
          gen::set(&Pod::start_time, Optional(Time()))),
      [](Pod p) {
        // The API server's rules: gate names are unique, and a pod with
        // gates is not bound.
        std::vector<std::string> gates;
        for (std::string& g : p.scheduling_gates) {
          if (std::find(gates.begin(), gates.end(), g) == gates.end()) {
            gates.push_back(std::move(g));
          }
        }
        p.scheduling_gates = std::move(gates);
        if (!p.scheduling_gates.empty()) p.node_name.clear();
        // Volume names are unique.
        std::vector<Volume> volumes;
        for (Volume& v : p.volumes) {
          if (std::none_of(volumes.begin(), volumes.end(),
                           [&](const Volume& w) { return w.name == v.name; })) {
            volumes.push_back(std::move(v));
          }
        }
        p.volumes = std::move(volumes);
        // No claim names the claim of one of the pod's ephemeral volumes.
        for (Volume& v : p.volumes) {
          for (const Volume& e : p.volumes) {
            if (e.ephemeral && v.source.kind == "persistentVolumeClaim" &&
                v.source.claim_name == p.name + "-" + e.name) {
              v.source.claim_name += "x";
            }
          }
        }
        return p;
      });
}

// --- Node and the other kinds -------------------------------------------------------

Gen<Node> GenNode() {
  const auto taint = gen::build<Taint>(
      gen::set(&Taint::key, LabelKey()), gen::set(&Taint::value, LabelValue()),
      gen::set(&Taint::effect, gen::element<std::string>("NoSchedule",
                                                         "PreferNoSchedule",
                                                         "NoExecute")));
  const auto image = gen::build<ContainerImage>(
      gen::set(&ContainerImage::names, SmallVector(NonEmptyText())),
      gen::set(&ContainerImage::size_bytes, gen::arbitrary<int64_t>()));
  return gen::map(
      gen::build<Node>(gen::set(&Node::name, ObjectName()),
                       gen::set(&Node::uid, AnyText()),
                       gen::set(&Node::labels, GenLabels()),
                       gen::set(&Node::annotations, GenAnnotations()),
                       gen::set(&Node::conditions,
                                gen::resize(3, gen::container<std::map<std::string, std::string>>(
                                                   gen::element<std::string>(
                                                       "Ready", "MemoryPressure",
                                                       "DiskPressure", "NetworkUnavailable"),
                                                   gen::element<std::string>(
                                                       "True", "False", "Unknown")))),
                       gen::set(&Node::capacity, Resources()),
                       gen::set(&Node::allocatable, Resources()),
                       gen::set(&Node::taints, SmallVector(taint)),
                       gen::set(&Node::unschedulable, gen::arbitrary<bool>()),
                       gen::set(&Node::images, SmallVector(image))),
      [](Node n) {
        // Taints are unique by key and effect.
        std::vector<Taint> unique;
        for (const Taint& t : n.taints) {
          bool seen = false;
          for (const Taint& u : unique) {
            seen = seen || (u.key == t.key && u.effect == t.effect);
          }
          if (!seen) unique.push_back(t);
        }
        n.taints = std::move(unique);
        return n;
      });
}

Gen<AnyObject> GenOtherKind() {
  const auto pdb = gen::map(
      gen::build<PodDisruptionBudget>(
          gen::set(&PodDisruptionBudget::ns, ObjectName()),
          gen::set(&PodDisruptionBudget::name, ObjectName()),
          gen::set(&PodDisruptionBudget::selector, Optional(GenLabelSelector())),
          gen::set(&PodDisruptionBudget::disruptions_allowed,
                   gen::inRange(0, std::numeric_limits<int32_t>::max())),
          gen::set(&PodDisruptionBudget::disrupted_pods,
                   gen::map(gen::resize(4, gen::container<std::set<std::string>>(
                                               ObjectName())),
                            [](const std::set<std::string>& s) {
                              // A map's keys: sorted, unique.
                              return std::vector<std::string>(s.begin(), s.end());
                            }))),
      [](PodDisruptionBudget p) { return AnyObject(std::move(p)); });
  const auto pc = gen::map(
      gen::build<PriorityClass>(
          gen::set(&PriorityClass::name, ObjectName()),
          gen::set(&PriorityClass::value, gen::arbitrary<int32_t>()),
          gen::set(&PriorityClass::global_default, gen::arbitrary<bool>()),
          gen::set(&PriorityClass::preemption_policy,
                   Optional(gen::element<std::string>("PreemptLowerPriority",
                                                      "Never")))),
      [](PriorityClass p) { return AnyObject(std::move(p)); });
  const auto ns = gen::map(
      gen::build<Namespace>(gen::set(&Namespace::name, ObjectName()),
                            gen::set(&Namespace::labels, GenLabels())),
      [](Namespace n) {
        // What the decoder makes of any namespace (SetDefaults_Namespace).
        n.labels[kLabelMetadataName] = n.name;
        return AnyObject(std::move(n));
      });
  return gen::oneOf(pdb, pc, ns);
}

// --- Text forms ---------------------------------------------------------------------

// YAML as a person would write it, block style. Every string is double
// quoted: the typing of plain scalars (yes, 0x1F, ~) is ParseDocuments'
// business and has its own tests; here it would only turn valid strings into
// numbers and booleans.
void EmitYaml(const json& value, YAML::Emitter* out) {
  switch (value.type()) {
    case json::value_t::object:
      *out << YAML::BeginMap;
      for (auto it = value.begin(); it != value.end(); ++it) {
        *out << YAML::Key << YAML::DoubleQuoted << it.key() << YAML::Value;
        EmitYaml(it.value(), out);
      }
      *out << YAML::EndMap;
      return;
    case json::value_t::array:
      *out << YAML::BeginSeq;
      for (const json& item : value) EmitYaml(item, out);
      *out << YAML::EndSeq;
      return;
    case json::value_t::string:
      *out << YAML::DoubleQuoted << value.get<std::string>();
      return;
    case json::value_t::boolean:
      *out << value.get<bool>();
      return;
    case json::value_t::number_integer:
      *out << value.get<int64_t>();
      return;
    case json::value_t::number_unsigned:
      *out << value.get<uint64_t>();
      return;
    default:
      // EncodeObject writes no floats and no nulls.
      *out << YAML::Null;
      return;
  }
}

std::string ToYaml(const json& value) {
  YAML::Emitter out;
  EmitYaml(value, &out);
  return out.c_str();
}

// Decodes `encoded` from the JSON value, from JSON text and from YAML text
// and checks that all three give `want`.
void CheckRoundTrip(const AnyObject& want) {
  const json encoded = EncodeObject(want);
  RC_LOG() << encoded.dump(2) << "\n";

  StatusOr<AnyObject> from_value = DecodeObject(encoded, "value", 1);
  RC_ASSERT(from_value.status().message() == "");
  RC_ASSERT(*from_value == want);

  for (const auto& [file, text] :
       {std::pair<std::string, std::string>{"object.json", encoded.dump()},
        std::pair<std::string, std::string>{"object.yaml", ToYaml(encoded)}}) {
    StatusOr<Objects> objects = DecodeManifests(text, file);
    RC_ASSERT(objects.status().message() == "");
    Objects expected;
    std::visit(
        [&expected](const auto& o) {
          using T = std::decay_t<decltype(o)>;
          if constexpr (std::is_same_v<T, Node>) expected.nodes = {o};
          if constexpr (std::is_same_v<T, Pod>) expected.pods = {o};
          if constexpr (std::is_same_v<T, PodDisruptionBudget>) expected.pdbs = {o};
          if constexpr (std::is_same_v<T, PriorityClass>) {
            expected.priority_classes = {o};
          }
          if constexpr (std::is_same_v<T, Namespace>) expected.namespaces = {o};
          if constexpr (std::is_same_v<T, PersistentVolume>) expected.persistent_volumes = {o};
          if constexpr (std::is_same_v<T, PersistentVolumeClaim>) {
            expected.persistent_volume_claims = {o};
          }
          if constexpr (std::is_same_v<T, StorageClass>) expected.storage_classes = {o};
          if constexpr (std::is_same_v<T, CSINode>) expected.csi_nodes = {o};
          if constexpr (std::is_same_v<T, CSIDriver>) expected.csi_drivers = {o};
          if constexpr (std::is_same_v<T, CSIStorageCapacity>) {
            expected.csi_storage_capacities = {o};
          }
        },
        want);
    RC_ASSERT(*objects == expected);
  }
}

RC_GTEST_PROP(ModelRoundTripTest, PodSurvivesEncodeDecode, ()) {
  const Pod pod = *GenPod();
  // The generator's contract: what the decoder's validation accepts.
  for (const Toleration& t : pod.tolerations) {
    RC_ASSERT(!ValidateToleration(t).has_value());
  }
  CheckRoundTrip(pod);
}

RC_GTEST_PROP(ModelRoundTripTest, NodeSurvivesEncodeDecode, ()) {
  const Node node = *GenNode();
  RC_ASSERT(!ValidateTaints(node.taints).has_value());
  RC_ASSERT(!ValidateLabels(node.labels).has_value());
  CheckRoundTrip(node);
}

RC_GTEST_PROP(ModelRoundTripTest, OtherKindsSurviveEncodeDecode, ()) {
  CheckRoundTrip(*GenOtherKind());
}

RC_GTEST_PROP(ModelRoundTripTest, StorageKindsSurviveEncodeDecode, ()) {
  CheckRoundTrip(*GenStorageKind());
}

// Each storage kind on its own, so that a failure names it and every kind
// gets its full share of cases.
RC_GTEST_PROP(ModelRoundTripTest, PersistentVolumeSurvivesEncodeDecode, ()) {
  CheckRoundTrip(*GenPersistentVolume());
}
RC_GTEST_PROP(ModelRoundTripTest, PersistentVolumeClaimSurvivesEncodeDecode, ()) {
  CheckRoundTrip(*GenPersistentVolumeClaim());
}
RC_GTEST_PROP(ModelRoundTripTest, StorageClassSurvivesEncodeDecode, ()) {
  CheckRoundTrip(*GenStorageClass());
}
RC_GTEST_PROP(ModelRoundTripTest, CSINodeSurvivesEncodeDecode, ()) {
  CheckRoundTrip(*GenCSINode());
}
RC_GTEST_PROP(ModelRoundTripTest, CSIDriverSurvivesEncodeDecode, ()) {
  CheckRoundTrip(*GenCSIDriver());
}
RC_GTEST_PROP(ModelRoundTripTest, CSIStorageCapacitySurvivesEncodeDecode, ()) {
  CheckRoundTrip(*GenCSIStorageCapacity());
}

}  // namespace
}  // namespace schedref::api
