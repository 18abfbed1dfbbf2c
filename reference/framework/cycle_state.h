// CycleState: per-attempt scratch space that plugins share between extension
// points. Specification: upstream pkg/scheduler/framework/cycle_state.go.
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_CYCLE_STATE_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_CYCLE_STATE_H_

#include <map>
#include <memory>
#include <set>
#include <string>

namespace schedref::reference::framework {

// What a plugin stores. Clone must deep-copy: preemption's dry runs and the
// nominated-pods pass of the filters mutate clones.
class StateData {
 public:
  virtual ~StateData() = default;
  virtual std::unique_ptr<StateData> Clone() const = 0;
};

class CycleState {
 public:
  CycleState() = default;
  CycleState(const CycleState& other) { *this = other; }
  CycleState& operator=(const CycleState& other);
  CycleState(CycleState&&) = default;
  CycleState& operator=(CycleState&&) = default;

  // nullptr iff nothing is stored under key.
  StateData* Read(const std::string& key) const;
  void Write(const std::string& key, std::unique_ptr<StateData> data);

  // Plugins whose PreFilter / PreScore returned Skip this cycle.
  std::set<std::string> skip_filter_plugins;
  std::set<std::string> skip_score_plugins;
  // Pods ("namespace/name") to move to activeQ at the end of the cycle
  // (upstream's kubernetes.io/pods-to-activate).
  std::set<std::string> pods_to_activate;

 private:
  std::map<std::string, std::unique_ptr<StateData>> data_;
};

}  // namespace schedref::reference::framework

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_CYCLE_STATE_H_
