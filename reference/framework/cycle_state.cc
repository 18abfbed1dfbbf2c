#include "reference/framework/cycle_state.h"

#include <utility>

namespace schedref::reference::framework {

CycleState& CycleState::operator=(const CycleState& other) {
  if (this == &other) return *this;
  data_.clear();
  for (const auto& [key, value] : other.data_) data_[key] = value->Clone();
  skip_filter_plugins = other.skip_filter_plugins;
  skip_score_plugins = other.skip_score_plugins;
  pods_to_activate = other.pods_to_activate;
  return *this;
}

StateData* CycleState::Read(const std::string& key) const {
  auto it = data_.find(key);
  return it == data_.end() ? nullptr : it->second.get();
}

void CycleState::Write(const std::string& key,
                       std::unique_ptr<StateData> data) {
  data_[key] = std::move(data);
}

}  // namespace schedref::reference::framework
