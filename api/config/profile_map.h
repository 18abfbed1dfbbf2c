// The checks upstream makes while it builds the scheduler's profiles, one
// framework per profile, and the wording of their errors. Specification:
// pkg/scheduler/profile/profile.go (NewMap, cfgValidator.validate) and
// pkg/scheduler/scheduler.go (New: "initializing profiles: ..."), v1.32.
//
// Configuration validation (api/config/config_decode.h) compares the queueSort
// sets the profiles write; NewMap compares the queue sort plugin each
// framework ends up with, after MultiPoint expansion, and its args. Only
// the second catches two profiles that take PrioritySort from the default
// MultiPoint list with different pluginConfig args for it.
#ifndef SCHEDREF_API_PROFILE_MAP_H_
#define SCHEDREF_API_PROFILE_MAP_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "api/config/config.h"
#include "api/status.h"

namespace schedref::api {

// Where an error building profile `index` of the scenario in `file` is
// reported: "<file>: config.profiles[<index>]" ("config.profiles[0]" when
// `file` is empty).
std::string ProfileErrorWhere(const std::string& file, size_t index);

// Invalid("<where>: initializing profiles: creating profile for scheduler
// name <name>: <error's message>"): a profile whose framework could not be
// built.
[[nodiscard]] Status CreatingProfileError(const std::string& where,
                                          const Profile& profile,
                                          const Status& error);

// cfgValidator: fed the profiles in order, each after its framework is
// built, with that framework's queue sort plugin.
class QueueSortValidator {
 public:
  // Ok for the first profile. For the others, Invalid("<where>:
  // initializing profiles: " + one of)
  //   different queue sort plugins for profile "b": "X", first: "PrioritySort"
  //   different queue sort plugin args for profile "b"
  // where the args are the profile's pluginConfig entry for its queue sort
  // plugin (none when it has no entry; compared as JSON values).
  [[nodiscard]] Status Validate(const std::string& where,
                                const Profile& profile,
                                std::string_view queue_sort);

 private:
  bool seen_first_ = false;
  std::string queue_sort_;
  std::optional<nlohmann::json> queue_sort_args_;
};

}  // namespace schedref::api

#endif  // SCHEDREF_API_PROFILE_MAP_H_
