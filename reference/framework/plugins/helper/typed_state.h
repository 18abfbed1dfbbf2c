// A CycleState entry holding one value of type T, deep-copied on Clone.
// Upstream plugins define one preFilterState/preScoreState struct each; this
// is that pattern once.
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_HELPER_TYPED_STATE_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_HELPER_TYPED_STATE_H_

#include <memory>
#include <string>
#include <utility>

#include "reference/framework/cycle_state.h"

namespace schedref::reference::framework::plugins::helper {

template <typename T>
class TypedState final : public StateData {
 public:
  explicit TypedState(T value) : value(std::move(value)) {}
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<TypedState<T>>(value);
  }
  T value;
};

template <typename T>
void WriteState(CycleState& state, const std::string& key, T value) {
  state.Write(key, std::make_unique<TypedState<T>>(std::move(value)));
}

// nullptr iff nothing of type T is stored under key.
template <typename T>
const T* ReadState(const CycleState& state, const std::string& key) {
  auto* data = dynamic_cast<TypedState<T>*>(state.Read(key));
  return data == nullptr ? nullptr : &data->value;
}

}  // namespace schedref::reference::framework::plugins::helper

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_HELPER_TYPED_STATE_H_
