#include "optimized/framework/cycle_state.h"

#include <atomic>

namespace schedref::optimized::framework {

int CycleState::NewKey() {
  static std::atomic<int> next{0};
  return next.fetch_add(1);
}

CycleState& CycleState::operator=(const CycleState& other) {
  if (this == &other) return *this;
  data_.clear();
  data_.resize(other.data_.size());
  for (size_t i = 0; i < other.data_.size(); ++i) {
    if (other.data_[i]) data_[i] = other.data_[i]->Clone();
  }
  skip_filter_plugins = other.skip_filter_plugins;
  skip_score_plugins = other.skip_score_plugins;
  pods_to_activate = other.pods_to_activate;
  return *this;
}

void CycleState::Write(int key, std::unique_ptr<StateData> data) {
  if (key >= static_cast<int>(data_.size())) data_.resize(key + 1);
  data_[key] = std::move(data);
}

}  // namespace schedref::optimized::framework
