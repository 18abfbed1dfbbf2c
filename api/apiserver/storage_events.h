// What a timeline create, update or delete of a storage object (a
// PersistentVolume, claim, StorageClass, CSINode, CSIDriver or
// CSIStorageCapacity) does at the API server and so to the scheduler's
// informers: the stored object changes, and the informer's handler sees the
// object before and after. Both harnesses apply timeline events through it
// and raise the cluster event the change means (docs/semantics/volumes.md).
#ifndef SCHEDREF_API_APISERVER_STORAGE_EVENTS_H_
#define SCHEDREF_API_APISERVER_STORAGE_EVENTS_H_

#include <map>
#include <string>
#include <type_traits>
#include <variant>

#include "api/types/objects.h"
#include "api/types/scenario.h"

namespace schedref::api {

// The store of `T`'s kind in `objects`.
template <typename T>
std::map<std::string, T>& StoreOf(StorageObjects& objects) {
  if constexpr (std::is_same_v<T, PersistentVolume>) return objects.volumes;
  if constexpr (std::is_same_v<T, PersistentVolumeClaim>) return objects.claims;
  if constexpr (std::is_same_v<T, StorageClass>) return objects.classes;
  if constexpr (std::is_same_v<T, CSINode>) return objects.csi_nodes;
  if constexpr (std::is_same_v<T, CSIDriver>) return objects.csi_drivers;
  if constexpr (std::is_same_v<T, CSIStorageCapacity>) return objects.capacities;
}

template <typename T>
constexpr bool kIsStorageKind =
    std::is_same_v<T, PersistentVolume> || std::is_same_v<T, PersistentVolumeClaim> ||
    std::is_same_v<T, StorageClass> || std::is_same_v<T, CSINode> ||
    std::is_same_v<T, CSIDriver> || std::is_same_v<T, CSIStorageCapacity>;

template <typename T>
std::string StorageKey(const T& object) {
  if constexpr (std::is_same_v<T, PersistentVolumeClaim> ||
                std::is_same_v<T, CSIStorageCapacity>) {
    return object.Key();
  } else {
    return object.name;
  }
}

// Applies `event` to `objects` iff it creates, updates or deletes a storage
// object, and returns whether it did. For every change it calls
// `on_change(old, new)` with typed pointers to the object before and after
// (nullptr for a create's old and a delete's new), after the store changed;
// the pointers are valid only during the call. An update that changes
// nothing, and a delete or update of an object that is not there, change
// nothing and call nothing (the scenario decoder refuses the latter two).
template <typename F>
bool ApplyStorageEvent(const Event& event, StorageObjects* objects, F&& on_change) {
  bool applied = false;
  auto apply = [&](const auto& object) {
    using T = std::decay_t<decltype(object)>;
    if constexpr (kIsStorageKind<T>) {
      applied = true;
      std::map<std::string, T>& store = StoreOf<T>(*objects);
      const std::string key = StorageKey(object);
      auto it = store.find(key);
      if (event.op == Event::Op::kCreate) {
        if (it != store.end()) return;
        const T& stored = store.emplace(key, object).first->second;
        on_change(static_cast<const T*>(nullptr), &stored);
      } else if (event.op == Event::Op::kUpdate) {
        if (it == store.end() || it->second == object) return;
        const T old = it->second;
        it->second = object;
        on_change(&old, &it->second);
      }
    }
  };
  if (event.op == Event::Op::kDelete) {
    auto remove = [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      applied = true;
      std::map<std::string, T>& store = StoreOf<T>(*objects);
      auto it = store.find(event.name);
      if (it == store.end()) return;
      const T old = std::move(it->second);
      store.erase(it);
      on_change(&old, static_cast<const T*>(nullptr));
    };
    if (event.kind == "PersistentVolume") remove(static_cast<PersistentVolume*>(nullptr));
    if (event.kind == "PersistentVolumeClaim") remove(static_cast<PersistentVolumeClaim*>(nullptr));
    if (event.kind == "StorageClass") remove(static_cast<StorageClass*>(nullptr));
    if (event.kind == "CSINode") remove(static_cast<CSINode*>(nullptr));
    if (event.kind == "CSIDriver") remove(static_cast<CSIDriver*>(nullptr));
    if (event.kind == "CSIStorageCapacity") remove(static_cast<CSIStorageCapacity*>(nullptr));
    return applied;
  }
  if (event.op == Event::Op::kCreate || event.op == Event::Op::kUpdate) {
    std::visit(apply, event.object);
  }
  return applied;
}

}  // namespace schedref::api

#endif  // SCHEDREF_API_APISERVER_STORAGE_EVENTS_H_
