// Typed access to the objects a cluster event carries, for QueueingHintFns.
// Specification: upstream pkg/scheduler/util/utils.go As[T].
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_HELPER_EVENT_OBJECTS_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_HELPER_EVENT_OBJECTS_H_

#include <string>
#include <type_traits>
#include <utility>
#include <variant>

#include "api/status.h"
#include "api/types/objects.h"
#include "reference/framework/events.h"

namespace schedref::reference::framework::plugins::helper {

template <typename T>
struct TypedEventObjects {
  const T* old_obj = nullptr;  // nullptr for an Add
  const T* new_obj = nullptr;  // nullptr for a Delete
};

namespace internal {
template <typename T>
constexpr const char* WantedName() {
  if constexpr (std::is_same_v<T, api::Pod>) return "Pod";
  if constexpr (std::is_same_v<T, api::Node>) return "Node";
  if constexpr (std::is_same_v<T, api::PersistentVolume>) return "PersistentVolume";
  if constexpr (std::is_same_v<T, api::PersistentVolumeClaim>) return "PersistentVolumeClaim";
  if constexpr (std::is_same_v<T, api::StorageClass>) return "StorageClass";
  if constexpr (std::is_same_v<T, api::CSINode>) return "CSINode";
  if constexpr (std::is_same_v<T, api::CSIDriver>) return "CSIDriver";
  if constexpr (std::is_same_v<T, api::CSIStorageCapacity>) return "CSIStorageCapacity";
  return "nothing";
}
inline const char* KindName(const EventObject& obj) {
  return std::visit([](const auto& o) { return WantedName<std::decay_t<decltype(o)>>(); }, obj);
}
}  // namespace internal

// Both objects as T (either may be absent). An object of another kind is an
// error "expected <T>, but got <kind>", which the queue treats as Queue.
// Where upstream's hint would dereference an absent object (no new object
// for an update event), our hints answer Skip.
template <typename T>
StatusOr<TypedEventObjects<T>> As(const EventObject& old_obj,
                                  const EventObject& new_obj) {
  TypedEventObjects<T> out;
  for (auto [obj, slot] : {std::pair{&new_obj, &out.new_obj},
                           std::pair{&old_obj, &out.old_obj}}) {
    if (std::holds_alternative<std::monostate>(*obj)) continue;
    if (!std::holds_alternative<T>(*obj)) {
      return schedref::Status::Invalid(std::string("expected ") +
                             internal::WantedName<T>() + ", but got " +
                             internal::KindName(*obj));
    }
    *slot = &std::get<T>(*obj);
  }
  return out;
}

}  // namespace schedref::reference::framework::plugins::helper

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_HELPER_EVENT_OBJECTS_H_
