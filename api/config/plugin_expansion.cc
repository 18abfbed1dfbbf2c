#include "api/config/plugin_expansion.h"

#include <algorithm>
#include <limits>
#include <set>
#include <utility>

namespace schedref::api {
namespace {

// framework.MaxNodeScore: the weight check bounds every weighted score by it.
constexpr int64_t kMaxNodeScore = 100;

struct Slot {
  ExtensionPoint point;
  const PluginSet* set;
};

bool Contains(const std::vector<std::string>& list, const std::string& s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

Status DoesNotExist(ExtensionPoint p, const std::string& name) {
  return Status::Invalid(std::string(ExtensionPointTypeName(p)) + " \"" +
                         name + "\" does not exist");
}

Status AlreadyRegistered(ExtensionPoint p, const std::string& name) {
  return Status::Invalid("plugin \"" + name + "\" already registered as \"" +
                         ExtensionPointTypeName(p) + "\"");
}

}  // namespace

const char* ExtensionPointTypeName(ExtensionPoint p) {
  switch (p) {
    case ExtensionPoint::kPreEnqueue: return "PreEnqueuePlugin";
    case ExtensionPoint::kQueueSort: return "QueueSortPlugin";
    case ExtensionPoint::kPreFilter: return "PreFilterPlugin";
    case ExtensionPoint::kFilter: return "FilterPlugin";
    case ExtensionPoint::kPostFilter: return "PostFilterPlugin";
    case ExtensionPoint::kPreScore: return "PreScorePlugin";
    case ExtensionPoint::kScore: return "ScorePlugin";
    case ExtensionPoint::kReserve: return "ReservePlugin";
    case ExtensionPoint::kPermit: return "PermitPlugin";
    case ExtensionPoint::kPreBind: return "PreBindPlugin";
    case ExtensionPoint::kBind: return "BindPlugin";
    case ExtensionPoint::kPostBind: return "PostBindPlugin";
  }
  return "UnknownPlugin";
}

StatusOr<ExpandedPlugins> ExpandPlugins(const Plugins& effective,
                                        const std::string& scheduler_name,
                                        const PluginLookup& lookup) {
  // Upstream getExtensionPoints order; it decides which error is reported
  // first when several are wrong.
  const std::vector<Slot> slots = {
      {ExtensionPoint::kPreFilter, &effective.pre_filter},
      {ExtensionPoint::kFilter, &effective.filter},
      {ExtensionPoint::kPostFilter, &effective.post_filter},
      {ExtensionPoint::kReserve, &effective.reserve},
      {ExtensionPoint::kPreScore, &effective.pre_score},
      {ExtensionPoint::kScore, &effective.score},
      {ExtensionPoint::kPreBind, &effective.pre_bind},
      {ExtensionPoint::kBind, &effective.bind},
      {ExtensionPoint::kPostBind, &effective.post_bind},
      {ExtensionPoint::kPermit, &effective.permit},
      {ExtensionPoint::kPreEnqueue, &effective.pre_enqueue},
      {ExtensionPoint::kQueueSort, &effective.queue_sort},
  };
  ExpandedPlugins out;
  auto list = [&out](ExtensionPoint p) -> std::vector<std::string>& {
    return out.points[static_cast<int>(p)];
  };

  // Explicit extension-point lists.
  for (const Slot& slot : slots) {
    std::set<std::string> seen;
    for (const PluginRef& ref : slot.set->enabled) {
      std::optional<ExtensionPointSet> implements = lookup(ref.name);
      if (!implements) return DoesNotExist(slot.point, ref.name);
      if (!implements->Has(slot.point)) {
        return Status::Invalid("plugin \"" + ref.name +
                               "\" does not extend " +
                               ExtensionPointTypeName(slot.point) + " plugin");
      }
      if (!seen.insert(ref.name).second) {
        return AlreadyRegistered(slot.point, ref.name);
      }
      list(slot.point).push_back(ref.name);
    }
  }

  // MultiPoint expansion: explicitly configured plugins first (overrides),
  // then MultiPoint ones, then the remaining explicit ones.
  if (!effective.multi_point.enabled.empty()) {
    for (const Slot& slot : slots) {
      std::vector<std::string> enabled;
      for (const PluginRef& ref : slot.set->enabled) {
        if (!Contains(enabled, ref.name)) enabled.push_back(ref.name);
      }
      std::vector<std::string> disabled;
      for (const PluginRef& ref : slot.set->disabled) {
        disabled.push_back(ref.name);
      }
      if (Contains(disabled, "*")) continue;

      std::vector<std::string> multi_point;
      std::vector<std::string> overrides;
      for (const PluginRef& ref : effective.multi_point.enabled) {
        std::optional<ExtensionPointSet> implements = lookup(ref.name);
        if (!implements) return DoesNotExist(slot.point, ref.name);
        if (!implements->Has(slot.point)) continue;
        if (Contains(disabled, ref.name)) continue;
        if (Contains(enabled, ref.name)) {
          if (!Contains(overrides, ref.name)) overrides.push_back(ref.name);
          continue;
        }
        if (Contains(multi_point, ref.name)) {
          return AlreadyRegistered(slot.point, ref.name);
        }
        multi_point.push_back(ref.name);
      }
      std::vector<std::string> order;
      for (const std::string& name : enabled) {
        if (Contains(overrides, name)) order.push_back(name);
      }
      for (const std::string& name : multi_point) order.push_back(name);
      for (const std::string& name : enabled) {
        if (!Contains(overrides, name)) order.push_back(name);
      }
      list(slot.point) = std::move(order);
    }
  }

  const size_t queue_sorts = list(ExtensionPoint::kQueueSort).size();
  if (queue_sorts != 1) {
    return Status::Invalid(
        "only one queue sort plugin required for profile with scheduler "
        "name \"" +
        scheduler_name + "\", but got " + std::to_string(queue_sorts));
  }
  if (list(ExtensionPoint::kBind).empty()) {
    return Status::Invalid(
        "at least one bind plugin is needed for profile with scheduler name "
        "\"" +
        scheduler_name + "\"");
  }

  // Score weights: the Score list's weight wins over MultiPoint's; 0 means 1.
  std::vector<PluginRef> weighted = effective.score.enabled;
  weighted.insert(weighted.end(), effective.multi_point.enabled.begin(),
                  effective.multi_point.enabled.end());
  int64_t total = 0;
  for (const PluginRef& ref : weighted) {
    std::optional<ExtensionPointSet> implements = lookup(ref.name);
    if (!implements || !implements->Has(ExtensionPoint::kScore)) continue;
    if (out.score_weights.count(ref.name) != 0) continue;
    const int64_t weight = ref.weight == 0 ? 1 : ref.weight;
    out.score_weights[ref.name] = weight;
    if (weight * kMaxNodeScore >
        std::numeric_limits<int64_t>::max() - total) {
      return Status::Invalid("total score of Score plugins could overflow");
    }
    total += weight * kMaxNodeScore;
  }
  return out;
}

}  // namespace schedref::api
