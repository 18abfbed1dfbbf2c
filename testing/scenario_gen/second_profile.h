// A second scheduler profile for a generated scenario, and which pods use
// it: upstream runs several profiles in one scheduler (one queue, one
// cache; each pod filtered, scored and requeued by the profile its
// spec.schedulerName names, pkg/scheduler/profile), and pods that name no
// profile are left to another scheduler. Shared by GenScenario
// (Options::second_profile_percent) and testing/differential's varied
// configurations, so that both spread pods the same way.
#ifndef SCHEDREF_TESTING_SCENARIO_GEN_SECOND_PROFILE_H_
#define SCHEDREF_TESTING_SCENARIO_GEN_SECOND_PROFILE_H_

#include <functional>
#include <string>

#include "api/types/objects.h"
#include "api/types/scenario.h"

namespace schedref::testing::scenario_gen {

inline constexpr char kDefaultScheduler[] = "default-scheduler";
inline constexpr char kSecondScheduler[] = "second-scheduler";
// A schedulerName no profile has: the informers ignore its pending pods,
// so they are never queued, attempted or bound.
inline constexpr char kForeignScheduler[] = "foreign-scheduler";

// Called once per pod (on its first version) with the schedulerName it was
// given; the labels it adds are carried by every version of the pod.
using PodLabeller =
    std::function<void(const std::string& scheduler_name, api::Labels& labels)>;

// For use inside a property. Gives each pod of `s` a schedulerName once and
// the same in every version (its create, its updates): with `spread`,
// kDefaultScheduler (50%), kSecondScheduler (45%) or kForeignScheduler
// (5%); otherwise the one it has. Then `label`, if given, adds labels.
// Shrinks towards kDefaultScheduler.
void AssignPods(api::Scenario& s, bool spread, const PodLabeller& label = nullptr);

// For use inside a property: appends `profile`, renamed kSecondScheduler,
// to the configuration and spreads the pods over both profiles
// (AssignPods(s, true, label)).
// REQUIRES: `s` has exactly one profile, named kDefaultScheduler (as
// GenScenario makes it).
void AddSecondProfile(api::Scenario& s, api::Profile profile,
                      const PodLabeller& label = nullptr);

}  // namespace schedref::testing::scenario_gen

#endif  // SCHEDREF_TESTING_SCENARIO_GEN_SECOND_PROFILE_H_
