#include "testing/scenario_gen/second_profile.h"

#include <rapidcheck.h>

#include <cassert>
#include <map>
#include <utility>
#include <variant>

namespace schedref::testing::scenario_gen {

void AssignPods(api::Scenario& s, bool spread, const PodLabeller& label) {
  struct Assignment {
    std::string scheduler;
    api::Labels labels;
  };
  std::map<std::string, Assignment> assigned;  // by pod key
  auto assign = [&](api::Pod& pod) {
    auto [it, first] = assigned.try_emplace(pod.Key());
    Assignment& a = it->second;
    if (first) {
      a.scheduler = pod.scheduler_name;
      if (spread) {
        const int pick = *rc::gen::inRange(0, 100);
        a.scheduler = pick < 50   ? kDefaultScheduler
                      : pick < 95 ? kSecondScheduler
                                  : kForeignScheduler;
      }
      if (label) label(a.scheduler, a.labels);
    }
    pod.scheduler_name = a.scheduler;
    for (const auto& [key, value] : a.labels) pod.labels[key] = value;
  };
  for (api::Pod& pod : s.initial.pods) assign(pod);
  for (api::Event& e : s.timeline) {
    if (auto* pod = std::get_if<api::Pod>(&e.object)) assign(*pod);
  }
}

void AddSecondProfile(api::Scenario& s, api::Profile profile,
                      const PodLabeller& label) {
  assert(s.config.profiles.size() == 1 &&
         s.config.profiles.front().scheduler_name == kDefaultScheduler);
  profile.scheduler_name = kSecondScheduler;
  s.config.profiles.push_back(std::move(profile));
  AssignPods(s, /*spread=*/true, label);
}

}  // namespace schedref::testing::scenario_gen
