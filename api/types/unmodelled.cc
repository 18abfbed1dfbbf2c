#include "api/types/unmodelled.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

namespace schedref::api {
namespace {

constexpr char kDra[] = "DynamicResourceAllocation";
constexpr char kPodLevelResources[] = "PodLevelResources";
constexpr char kUnknownProfile[] = "unknownProfile";

// The feature an unmodelled field path belongs to.
const char* FeatureOf(const std::string& path) {
  if (path == "spec.resources") return kPodLevelResources;
  return kDra;  // spec.resourceClaims, spec.[init]containers[i].resources.claims
}

std::string Joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

struct Found {
  std::vector<std::string> fields;  // in the order first met
  std::vector<std::string> scheduler_names;
};

void Add(std::vector<std::string>* list, const std::string& item) {
  if (std::find(list->begin(), list->end(), item) == list->end()) list->push_back(item);
}

}  // namespace

std::vector<Warning> UnmodelledWarnings(const Scenario& scenario) {
  std::vector<std::string> profiles;
  for (const Profile& p : scenario.config.profiles) profiles.push_back(p.scheduler_name);
  // (pod, feature) -> what was found.
  std::map<std::pair<std::string, std::string>, Found> found;
  auto visit = [&](const Pod& pod) {
    for (const std::string& path : pod.unmodelled_fields) {
      Add(&found[{pod.Key(), FeatureOf(path)}].fields, path);
    }
    const bool responsible = std::find(profiles.begin(), profiles.end(),
                                       pod.scheduler_name) != profiles.end();
    // A bound pod of another scheduler is the cache's like any other.
    if (!responsible && pod.node_name.empty() && !pod.Terminated()) {
      Add(&found[{pod.Key(), kUnknownProfile}].scheduler_names, pod.scheduler_name);
    }
  };
  for (const Pod& pod : scenario.initial.pods) visit(pod);
  for (const Event& e : scenario.timeline) {
    if (const Pod* pod = std::get_if<Pod>(&e.object)) visit(*pod);
  }
  std::vector<Warning> out;
  for (const auto& [key, f] : found) {
    const auto& [pod, feature] = key;
    std::string message;
    if (feature == kDra) {
      message = Joined(f.fields) +
                ": dynamic resource allocation (the DynamicResources plugin, "
                "feature gate DynamicResourceAllocation) is not modelled: "
                "schedref places the pod as if it claimed no devices";
    } else if (feature == kPodLevelResources) {
      message = Joined(f.fields) +
                ": pod-level resources (feature gate PodLevelResources, alpha "
                "in v1.32) are not modelled: schedref counts the containers' "
                "requests and the overhead only, as v1.32 does with the gate "
                "off";
    } else {
      std::vector<std::string> quoted;
      for (const std::string& n : f.scheduler_names) quoted.push_back("\"" + n + "\"");
      message = "spec.schedulerName " + Joined(quoted) +
                " matches no profile (" + (profiles.empty() ? "none" : Joined(profiles)) +
                "): no attempt is made for the pod, as upstream leaves it to "
                "another scheduler";
    }
    out.push_back(Warning{pod, feature, std::move(message)});
  }
  return out;
}

std::string WarningLine(const Warning& warning) {
  return "warning: Pod " + warning.pod + ": " + warning.message;
}

}  // namespace schedref::api
