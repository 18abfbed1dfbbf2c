// The selector that gives a pod its default topology spreading: upstream
// pkg/scheduler/framework/plugins/helper/spread.go (DefaultSelector,
// GetPodServices), v1.32.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_HELPER_SPREAD_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_HELPER_SPREAD_H_

#include <optional>

#include "api/types/objects.h"

namespace schedref::optimized::framework::plugins::helper {

// The selectors of what selects `pod`, ANDed: the matchLabels of every
// Service in its namespace whose selector is present and matches its labels,
// merged (a later Service's value wins for a key two name, in key order);
// then, when the pod's controller ownerReference names an existing
// ReplicationController (apiVersion v1) the RC's selector merged in too,
// or an existing ReplicaSet or StatefulSet (apps/v1) its selector's
// requirements added. nullopt iff that selector has no requirement
// (upstream's selector.Empty(): no default constraints then).
// Note: upstream merges Services in the lister's order, which Go leaves
// open; key order pins it (docs/deviations.md "Default topology spreading").
std::optional<api::LabelSelector> DefaultSelector(const api::Pod& pod,
                                                  const api::SelectorObjects& listers);

}  // namespace schedref::optimized::framework::plugins::helper

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_HELPER_SPREAD_H_
