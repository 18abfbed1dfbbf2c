#include "api/config/profile_map.h"

#include <string>

namespace schedref::api {
namespace {

constexpr char kInitializing[] = ": initializing profiles: ";

std::optional<nlohmann::json> ArgsOf(const Profile& profile,
                                     std::string_view plugin) {
  for (const PluginConfig& c : profile.plugin_config) {
    if (c.name == plugin) return c.args;
  }
  return std::nullopt;
}

}  // namespace

std::string ProfileErrorWhere(const std::string& file, size_t index) {
  const std::string path = "config.profiles[" + std::to_string(index) + "]";
  return file.empty() ? path : file + ": " + path;
}

Status CreatingProfileError(const std::string& where, const Profile& profile,
                            const Status& error) {
  return Status::Invalid(where + kInitializing +
                         "creating profile for scheduler name " +
                         profile.scheduler_name + ": " + error.message());
}

Status QueueSortValidator::Validate(const std::string& where,
                                    const Profile& profile,
                                    std::string_view queue_sort) {
  std::optional<nlohmann::json> args = ArgsOf(profile, queue_sort);
  if (!seen_first_) {
    seen_first_ = true;
    queue_sort_ = std::string(queue_sort);
    queue_sort_args_ = std::move(args);
    return Status::Ok();
  }
  if (queue_sort != queue_sort_) {
    return Status::Invalid(where + kInitializing +
                           "different queue sort plugins for profile \"" +
                           profile.scheduler_name + "\": \"" +
                           std::string(queue_sort) + "\", first: \"" +
                           queue_sort_ + "\"");
  }
  if (args != queue_sort_args_) {
    return Status::Invalid(where + kInitializing +
                           "different queue sort plugin args for profile \"" +
                           profile.scheduler_name + "\"");
  }
  return Status::Ok();
}

}  // namespace schedref::api
