// Label selectors, node selectors and tolerations: what it means for a
// selector to match a set of labels or a Node, and for a toleration to
// tolerate a taint. Specification: k8s.io/apimachinery/pkg/labels/selector.go
// (Requirement.Matches, NewRequirement), metav1 LabelSelectorAsSelector
// (apis/meta/v1/helpers.go), k8s.io/apimachinery/pkg/util/validation
// (IsQualifiedName, IsValidLabelValue),
// component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go and
// k8s.io/api/core/v1/toleration.go; API validation from
// pkg/apis/core/validation/validation.go and
// apimachinery/pkg/apis/meta/v1/validation.
//
// Two levels of checking, as upstream has them:
//  - Validate*: what the API server rejects when an object is created. The
//    decoder (api/codec/decode.h) applies these, so a decoded object passes them.
//  - Matching: what the scheduler does with objects that passed validation.
//    Upstream parses node selector terms again when it matches, and that
//    parse is stricter than validation (e.g. an In value that is not a valid
//    label value, or a Gt value that is not an integer). A term that fails
//    that parse matches no node; NodeSelectorTermParseError says why.
#ifndef SCHEDREF_API_LABELS_H_
#define SCHEDREF_API_LABELS_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/types/objects.h"

namespace schedref::api {

// A validation failure: `field` is relative to the validated value
// ("matchExpressions[0].values", or "" for the value itself).
struct FieldProblem {
  std::string field;
  std::string problem;
  friend bool operator==(const FieldProblem&, const FieldProblem&) = default;
};

// --- Syntax (util/validation) --------------------------------------------

// Upstream validation.IsQualifiedName: every problem with `key` as a label
// key (an optional DNS-1123 subdomain prefix and "/", then a name of at
// most 63 characters), in upstream's order and words; empty iff valid.
[[nodiscard]] std::vector<std::string> QualifiedNameErrors(std::string_view key);
// The first of QualifiedNameErrors(key), where one message is reported.
[[nodiscard]] std::optional<std::string> CheckQualifiedName(
    std::string_view key);
// Upstream validation.IsDNS1123Subdomain, what most object names must be
// (PersistentVolume, StorageClass, ...): nullopt iff valid, else the first
// problem in upstream's words.
[[nodiscard]] std::optional<std::string> CheckDnsSubdomain(std::string_view name);
// Upstream validation.IsValidLabelValue: every problem with `value` as a
// label value (empty, or at most 63 alphanumerics, '-', '_', '.', starting
// and ending alphanumeric); empty iff valid.
[[nodiscard]] std::vector<std::string> LabelValueErrors(std::string_view value);
// The first of LabelValueErrors(value).
[[nodiscard]] std::optional<std::string> CheckLabelValue(
    std::string_view value);
// Both, for every entry of a labels map; `field` is the offending key.
[[nodiscard]] std::optional<FieldProblem> ValidateLabels(const Labels& labels);
// The API server's ValidateAnnotations (apimachinery
// pkg/api/validation/objectmeta.go): every key, lowercased, is a qualified
// name, and keys and values together take at most 256 KiB. `field` is the
// offending key, or "" for the size.
[[nodiscard]] std::optional<FieldProblem> ValidateAnnotations(
    const Labels& annotations);

// --- Label selectors (metav1.LabelSelector) --------------------------------

// API validation: operators In/NotIn/Exists/DoesNotExist, In/NotIn with at
// least one value, Exists/DoesNotExist with none, keys qualified names,
// values (and matchLabels values) valid label values.
[[nodiscard]] std::optional<FieldProblem> ValidateLabelSelector(
    const LabelSelector& selector);

// True iff every matchLabels entry and every requirement matches `labels`.
// An empty selector matches everything. In and Exists need the key; NotIn
// and DoesNotExist match when it is absent.
// REQUIRES: ValidateLabelSelector(selector) is nullopt. (A requirement with
// an unknown operator matches nothing; upstream would have failed earlier.)
// An absent selector (nullopt in the objects) matches nothing; callers
// decide that before calling.
[[nodiscard]] bool Matches(const LabelSelector& selector,
                           const Labels& labels);

// --- Node selectors (core/v1 NodeSelector) ---------------------------------

// API validation of one term (ValidateNodeSelectorTerm): matchExpressions
// with a valid operator, In/NotIn non-empty, Exists/DoesNotExist without
// values, Gt/Lt with exactly one value, keys qualified names; matchFields
// with key metadata.name, operator In or NotIn and exactly one value.
[[nodiscard]] std::optional<FieldProblem> ValidateNodeSelectorTerm(
    const NodeSelectorTerm& term);

// True iff the term has no matchExpressions and no matchFields; such a term
// matches no node.
[[nodiscard]] bool IsEmptyNodeSelectorTerm(const NodeSelectorTerm& term);

// The first problem the scheduler's parse of the term finds (label keys and
// values, Gt/Lt integers, matchFields operators and value counts), or
// nullopt. Upstream reports these from NewPreferredSchedulingTerms as an
// error; for required terms they only make the term match nothing.
[[nodiscard]] std::optional<FieldProblem> NodeSelectorTermParseError(
    const NodeSelectorTerm& term);

// True iff the term matches `node`: not empty, parses, every
// matchExpression matches the node's labels (Gt/Lt compare base-10 int64
// values; a label that is not an integer does not match) and every
// matchField matches the node's name.
// As upstream (nodeSelectorTerm.match), matchFields are not checked at all
// for a node whose name is empty.
[[nodiscard]] bool NodeSelectorTermMatches(const NodeSelectorTerm& term,
                                           const Node& node);

// True iff some term matches (terms are ORed; no terms match nothing).
[[nodiscard]] bool NodeSelectorMatches(const NodeSelector& selector,
                                       const Node& node);

// The pod's spec.nodeSelector and
// affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution
// together (nodeaffinity.GetRequiredNodeAffinity(pod).Match(node)): every
// nodeSelector entry must equal the node's label, and the required node
// selector, when present, must match.
[[nodiscard]] bool RequiredNodeAffinityMatches(const Pod& pod,
                                               const Node& node);

// --- Taints and tolerations -------------------------------------------------

// API validation of a node's taints (validateNodeTaints): key a qualified
// name, value a label value, effect NoSchedule/PreferNoSchedule/NoExecute,
// unique by (key, effect). `field` is "[i].key" etc.
[[nodiscard]] std::optional<FieldProblem> ValidateTaints(
    const std::vector<Taint>& taints);

// API validation of one toleration (validateTolerations): key empty or a
// qualified name; an empty key requires operator Exists; operator
// Equal/""/Exists; Exists requires an empty value; Equal a label value;
// effect empty or one of the taint effects; tolerationSeconds only with
// effect NoExecute.
[[nodiscard]] std::optional<FieldProblem> ValidateToleration(
    const Toleration& toleration);

// True iff `toleration` tolerates `taint`: the effects are equal or the
// toleration's is empty; the keys are equal or the toleration's is empty;
// and the operator is Exists, or Equal/empty with equal values.
// The numeric Lt/Gt toleration operators came after the target release
// v1.32 (alpha feature gate TaintTolerationComparisonOperators); validation
// rejects them and here they tolerate nothing.
[[nodiscard]] bool ToleratesTaint(const Toleration& toleration,
                                  const Taint& taint);

// True iff some toleration in the list tolerates `taint`.
[[nodiscard]] bool TolerationsTolerateTaint(
    const std::vector<Toleration>& tolerations, const Taint& taint);

}  // namespace schedref::api

#endif  // SCHEDREF_API_LABELS_H_
