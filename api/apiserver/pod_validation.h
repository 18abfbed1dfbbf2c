// The API server's validation of the pod and namespace fields the scheduler
// relies on, beyond label syntax (api/types/labels.h). Specification: upstream
// pkg/apis/core/validation/validation.go (validateTopologySpreadConstraints,
// validateMatchLabelKeysAndMismatchLabelKeys, ValidateNamespaceName), v1.32.
// Plugins count on these rules holding (e.g. PodTopologySpread keys its
// counts per constraint, upstream per topology key).
#ifndef SCHEDREF_API_POD_VALIDATION_H_
#define SCHEDREF_API_POD_VALIDATION_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/types/labels.h"
#include "api/types/objects.h"

namespace schedref::api {

// nullopt iff `name` is a lowercase RFC 1123 label (at most 63 of
// [a-z0-9-], starting and ending alphanumeric), what a namespace's name must
// be; also what makes it a valid value for its kubernetes.io/metadata.name
// label.
[[nodiscard]] std::optional<std::string> CheckNamespaceName(std::string_view name);

// The rules for `constraint`, the next of a pod's spread constraints after
// `earlier` (decoded and valid): minDomains only with DoNotSchedule, no
// second constraint on the same {topologyKey, whenUnsatisfiable},
// matchLabelKeys only with a labelSelector, valid label keys none of which
// the selector names. `field` is relative to the constraint ("" for the
// constraint itself).
[[nodiscard]] std::optional<FieldProblem> ValidateSpreadConstraint(
    const TopologySpreadConstraint& constraint,
    const std::vector<TopologySpreadConstraint>& earlier);

// The rules for a pod affinity term's matchLabelKeys and mismatchLabelKeys,
// checked as upstream checks them after the creation-time merge added
// `key In (<pod's value>)` to the selector for each matchLabelKeys key the
// pod (with `pod_labels`) has: both lists only with a labelSelector, valid
// label keys, no key in both, and no matchLabelKeys key that the merged
// selector names twice. `field` is relative to the term.
[[nodiscard]] std::optional<FieldProblem> ValidateAffinityTermLabelKeys(
    const PodAffinityTerm& term, const Labels& pod_labels);

}  // namespace schedref::api

#endif  // SCHEDREF_API_POD_VALIDATION_H_
