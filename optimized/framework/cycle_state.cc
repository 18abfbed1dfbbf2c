#include "optimized/framework/cycle_state.h"

#include <algorithm>
#include <atomic>

namespace schedref::optimized::framework {

namespace {

std::atomic<int> next_key{0};

}  // namespace

int CycleState::NewKey() { return next_key.fetch_add(1); }

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
  // Room for every key made so far at once: a cycle's writes would
  // otherwise grow the slots a few times.
  if (key >= static_cast<int>(data_.size())) {
    data_.resize(std::max(key + 1, next_key.load(std::memory_order_relaxed)));
  }
  data_[key] = std::move(data);
}

}  // namespace schedref::optimized::framework
