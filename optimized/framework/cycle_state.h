// CycleState: per-attempt scratch space plugins share between extension
// points. Specification: upstream pkg/scheduler/framework/cycle_state.go.
//
// Upstream keys state by string in a sync.Map; here each state type takes an
// integer slot once per process (NewKey), so the Filter and Score hot loops
// read their PreFilter/PreScore state with an index, not a string lookup.
// Thread-safety: Read is safe from many threads while nobody writes; the
// framework writes only between the parallel phases.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_CYCLE_STATE_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_CYCLE_STATE_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace schedref::optimized::framework {

// What a plugin stores. Clone must deep-copy: preemption's dry runs and the
// nominated-pods pass of the filters mutate clones.
class StateData {
 public:
  virtual ~StateData() = default;
  virtual std::unique_ptr<StateData> Clone() const = 0;
};

// A set of plugin names, filled anew in every cycle (upstream's
// SkipFilterPlugins / SkipScorePlugins, a sets.Set[string]): a handful of
// names, so a list of views, not a tree of strings.
// REQUIRES: an inserted name's storage outlives the set (the framework's
// plugin names; string literals).
class PluginNameSet {
 public:
  void insert(std::string_view name) {
    if (contains(name)) return;
    Append(name);
    exact_ = false;
  }
  // Inserts `name` as the `slot`-th of its inserter's list of names (the
  // framework's PreFilter or PreScore plugins). While every name came in
  // this way, contains(name, slot) answers from a bitmask.
  void insert(std::string_view name, int slot) {
    if (!exact_ || slot < 0 || slot >= kMaxSlots) {
      insert(name);
      return;
    }
    const uint64_t bit = uint64_t{1} << slot;
    if ((slots_ & bit) != 0) return;
    slots_ |= bit;
    Append(name);
  }
  bool contains(std::string_view name) const {
    const size_t in_place = std::min(size_, kInPlace);
    for (size_t i = 0; i < in_place; ++i) {
      if (in_place_[i] == name) return true;
    }
    return std::find(more_.begin(), more_.end(), name) != more_.end();
  }
  // contains(name), for a caller that knows the slot `name` has in the
  // inserter's list (-1: none, so only a name inserted otherwise could
  // match). Called once per plugin per cycle: no string comparisons.
  bool contains(std::string_view name, int slot) const {
    if (!exact_) return contains(name);
    return slot >= 0 && slot < kMaxSlots && ((slots_ >> slot) & 1) != 0;
  }
  void clear() {
    size_ = 0;
    more_.clear();
    slots_ = 0;
    exact_ = true;
  }
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }

 private:
  static constexpr int kMaxSlots = 64;
  // A cycle skips a handful of plugins: their names fit in place, so a
  // fresh cycle's sets do not allocate.
  static constexpr size_t kInPlace = 8;

  void Append(std::string_view name) {
    if (size_ < kInPlace) {
      in_place_[size_] = name;
    } else {
      more_.push_back(name);
    }
    ++size_;
  }

  // The names: the first kInPlace in in_place_, the rest in more_.
  size_t size_ = 0;
  std::array<std::string_view, kInPlace> in_place_;
  std::vector<std::string_view> more_;
  // Bit s: the name of slot s is in the set. Meaningful iff exact_: every
  // name was inserted with a slot below kMaxSlots (so the names of the
  // slots set are the set's names).
  uint64_t slots_ = 0;
  bool exact_ = true;
};

class CycleState {
 public:
  // A new process-wide slot; call once per state type, e.g.
  //   static const int kKey = CycleState::NewKey();
  static int NewKey();

  CycleState() = default;
  CycleState(const CycleState& other) { *this = other; }
  CycleState& operator=(const CycleState& other);
  CycleState(CycleState&&) = default;
  CycleState& operator=(CycleState&&) = default;

  // nullptr iff nothing is stored under key.
  StateData* Read(int key) const {
    return key < static_cast<int>(data_.size()) ? data_[key].get() : nullptr;
  }
  template <typename T>
  T* ReadAs(int key) const {
    return static_cast<T*>(Read(key));
  }
  void Write(int key, std::unique_ptr<StateData> data);

  // Plugins whose PreFilter / PreScore returned Skip this cycle.
  PluginNameSet skip_filter_plugins;
  PluginNameSet skip_score_plugins;
  // Pods ("namespace/name") to move to activeQ at the end of the cycle
  // (upstream's kubernetes.io/pods-to-activate).
  std::set<std::string> pods_to_activate;

 private:
  std::vector<std::unique_ptr<StateData>> data_;
};

}  // namespace schedref::optimized::framework

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_CYCLE_STATE_H_
