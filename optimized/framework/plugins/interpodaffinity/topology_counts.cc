#include "optimized/framework/plugins/interpodaffinity/topology_counts.h"

#include <algorithm>

namespace schedref::optimized::framework::plugins::interpodaffinity {

int32_t PairTable::KeyId(std::string_view key) const {
  for (size_t i = 0; i < keys.size(); ++i) {
    if (keys[i] == key) return static_cast<int32_t>(i);
  }
  return -1;
}

int32_t PairTable::InternKey(const std::string& key) {
  int32_t id = KeyId(key);
  if (id >= 0) return id;
  keys.push_back(key);
  value_ids.emplace_back();
  return static_cast<int32_t>(keys.size() - 1);
}

int32_t PairTable::InternPair(int32_t key_id, const std::string& value) {
  auto [it, inserted] =
      value_ids[key_id].try_emplace(value, static_cast<int32_t>(pairs.size()));
  if (inserted) pairs.emplace_back(key_id, &it->first);
  return it->second;
}

int32_t PairTable::FindPair(int32_t key_id, const std::string& value) const {
  auto it = value_ids[key_id].find(value);
  return it == value_ids[key_id].end() ? kNoPair : it->second;
}

int32_t TopologyIndex::KeyId(std::string_view key) const {
  for (size_t k = 0; k < keys.size(); ++k) {
    if (table->keys[keys[k]] == key) return static_cast<int32_t>(k);
  }
  return -1;
}

int32_t TopologyIndex::LookupPair(const api::Node& node, int32_t k) const {
  auto label = node.labels.find(KeyName(k));
  if (label == node.labels.end()) return kNoKey;
  const int32_t pair = table->FindPair(keys[k], label->second);
  return pair >= 0 && pair < num_pairs ? pair : kNoPair;
}

namespace {
const std::shared_ptr<const std::vector<int64_t>>& EmptyBase() {
  static const auto* kEmpty =
      new std::shared_ptr<const std::vector<int64_t>>(
          std::make_shared<const std::vector<int64_t>>());
  return *kEmpty;
}
}  // namespace

PairCounts::PairCounts() : base_(EmptyBase()) {}

PairCounts::PairCounts(std::vector<int64_t> base) {
  non_zero_ = std::count_if(base.begin(), base.end(), [](int64_t v) { return v != 0; });
  base_ = std::make_shared<const std::vector<int64_t>>(std::move(base));
}

void PairCounts::Add(int32_t id, int64_t change) {
  if (change == 0) return;
  const int64_t before = Get(id);
  const int64_t after = before + change;
  non_zero_ += (after != 0) - (before != 0);
  auto it = std::find_if(delta_.begin(), delta_.end(),
                         [id](const auto& e) { return e.first == id; });
  if (it == delta_.end()) {
    delta_.emplace_back(id, change);
  } else if ((it->second += change) == 0) {
    *it = delta_.back();
    delta_.pop_back();
  }
  if (delta_.size() <= kMaxDelta) return;
  // Many changes: this copy stops sharing the base.
  std::vector<int64_t> own = *base_;
  for (const auto& [d_id, d] : delta_) {
    if (d_id >= static_cast<int32_t>(own.size())) own.resize(d_id + 1, 0);
    own[d_id] += d;
  }
  base_ = std::make_shared<const std::vector<int64_t>>(std::move(own));
  delta_.clear();
}

std::vector<std::pair<int32_t, int64_t>> PairCounts::Entries() const {
  std::vector<std::pair<int32_t, int64_t>> out;
  int32_t end = static_cast<int32_t>(base_->size());
  for (const auto& [d_id, d] : delta_) end = std::max(end, d_id + 1);
  for (int32_t id = 0; id < end; ++id) {
    if (int64_t v = Get(id); v != 0) out.emplace_back(id, v);
  }
  return out;
}

}  // namespace schedref::optimized::framework::plugins::interpodaffinity
