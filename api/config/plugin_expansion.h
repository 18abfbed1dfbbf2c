// Per-extension-point plugin lists of a profile (runtime/framework.go).
//
// Specification: upstream pkg/scheduler/framework/runtime/framework.go,
// v1.32: NewFramework's placement of the configured plugins
// (getExtensionPoints order, "does not exist" / "does not extend" /
// "already registered" errors), expandMultiPointPlugins, the queue sort and
// bind checks, and the score weights (getScoreWeights' rules: the Score
// list's weight wins over MultiPoint's, 0 means 1, the total must fit in
// int64 at MaxNodeScore each).
//
// This is configuration semantics, not scheduling: it sees plugins only by
// name and by the extension points they implement, which the caller
// reports through a PluginLookup. The input is the effective plugin set
// (api::EffectivePlugins); instantiating the plugins (args, factory errors)
// comes first and stays with the implementation.
#ifndef SCHEDREF_API_PLUGIN_EXPANSION_H_
#define SCHEDREF_API_PLUGIN_EXPANSION_H_

#include <array>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "api/config/config.h"
#include "api/status.h"

namespace schedref::api {

// The 12 extension points a plugin list names (upstream's plugin
// interfaces), in api::Plugins field order.
enum class ExtensionPoint {
  kPreEnqueue,
  kQueueSort,
  kPreFilter,
  kFilter,
  kPostFilter,
  kPreScore,
  kScore,
  kReserve,
  kPermit,
  kPreBind,
  kBind,
  kPostBind,
};
inline constexpr int kNumExtensionPoints = 12;

// A set of extension points: which interfaces one plugin implements.
class ExtensionPointSet {
 public:
  constexpr ExtensionPointSet() = default;
  constexpr ExtensionPointSet(std::initializer_list<ExtensionPoint> points) {
    for (ExtensionPoint p : points) Add(p);
  }
  constexpr ExtensionPointSet& Add(ExtensionPoint p) {
    bits_ |= Bit(p);
    return *this;
  }
  constexpr bool Has(ExtensionPoint p) const { return (bits_ & Bit(p)) != 0; }
  friend constexpr bool operator==(const ExtensionPointSet&,
                                   const ExtensionPointSet&) = default;

 private:
  static constexpr uint32_t Bit(ExtensionPoint p) {
    return uint32_t{1} << static_cast<int>(p);
  }
  uint32_t bits_ = 0;
};

// upstream's Go interface name for a point ("FilterPlugin"), as errors
// print it.
[[nodiscard]] const char* ExtensionPointTypeName(ExtensionPoint p);

// name -> the extension points that plugin implements, or nullopt iff no
// plugin of that name exists (is not in the registry).
using PluginLookup =
    std::function<std::optional<ExtensionPointSet>(const std::string& name)>;

struct ExpandedPlugins {
  // Indexed by ExtensionPoint: plugin names in run order, each once.
  std::array<std::vector<std::string>, kNumExtensionPoints> points;
  // Every plugin implementing Score that the score or multiPoint list
  // enables -> its weight (>= 1). A superset of points[kScore].
  std::map<std::string, int64_t> score_weights;

  const std::vector<std::string>& at(ExtensionPoint p) const {
    return points[static_cast<int>(p)];
  }
};

// Places the plugins of `effective` (the profile's effective plugin set)
// at their extension points. Errors, checked in upstream's order (points
// in getExtensionPoints order: PreFilter, Filter, PostFilter, Reserve,
// PreScore, Score, PreBind, Bind, PostBind, Permit, PreEnqueue, QueueSort),
// with upstream's wording:
//   explicit lists, per point: `<Type> "<name>" does not exist`,
//     `plugin "<name>" does not extend <Type> plugin`,
//     `plugin "<name>" already registered as "<Type>"`;
//   multiPoint expansion (only when multiPoint.enabled is non-empty), per
//     point not disabled with "*": `<Type> "<name>" does not exist`,
//     `plugin "<name>" already registered as "<Type>"` (named twice);
//     the point's list becomes: its explicit plugins that multiPoint also
//     names, then multiPoint's other plugins implementing the point and not
//     disabled there, then its remaining explicit plugins;
//   `only one queue sort plugin required for profile with scheduler name
//     "<scheduler_name>", but got <n>`;
//   `at least one bind plugin is needed for profile with scheduler name
//     "<scheduler_name>"`;
//   `total score of Score plugins could overflow`.
// Note: upstream also rejects a Score plugin without a weight; by
// construction every name here has one, so that check is left to the
// caller, where a plugin's own Name() may differ from its registered name.
// REQUIRES: `lookup` answers the same for the same name.
[[nodiscard]] StatusOr<ExpandedPlugins> ExpandPlugins(
    const Plugins& effective, const std::string& scheduler_name,
    const PluginLookup& lookup);

}  // namespace schedref::api

#endif  // SCHEDREF_API_PLUGIN_EXPANSION_H_
