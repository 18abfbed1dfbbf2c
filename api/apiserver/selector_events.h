// What a timeline create, update or delete of a Service,
// ReplicationController, ReplicaSet or StatefulSet does to the scheduler's
// informers: the lister's object changes. No default plugin registers these
// kinds' events (v1.32), so no cluster event follows; PodTopologySpread
// reads the listers when it builds a pod's default constraints.
#ifndef SCHEDREF_API_APISERVER_SELECTOR_EVENTS_H_
#define SCHEDREF_API_APISERVER_SELECTOR_EVENTS_H_

#include <map>
#include <string>
#include <type_traits>
#include <variant>

#include "api/types/objects.h"
#include "api/types/scenario.h"

namespace schedref::api {

// Applies `event` to `objects` iff it creates, updates or deletes one of
// these kinds, and returns whether it did.
inline bool ApplySelectorEvent(const Event& event, SelectorObjects* objects) {
  auto store = [objects](const auto* tag) -> auto& {
    using T = std::remove_cv_t<std::remove_pointer_t<decltype(tag)>>;
    if constexpr (std::is_same_v<T, Service>) return objects->services;
    if constexpr (std::is_same_v<T, ReplicationController>) return objects->replication_controllers;
    if constexpr (std::is_same_v<T, ReplicaSet>) return objects->replica_sets;
    if constexpr (std::is_same_v<T, StatefulSet>) return objects->stateful_sets;
  };
  if (event.op == Event::Op::kDelete) {
    if (event.kind == "Service") return store(static_cast<Service*>(nullptr)).erase(event.name), true;
    if (event.kind == "ReplicationController") {
      return store(static_cast<ReplicationController*>(nullptr)).erase(event.name), true;
    }
    if (event.kind == "ReplicaSet") return store(static_cast<ReplicaSet*>(nullptr)).erase(event.name), true;
    if (event.kind == "StatefulSet") {
      return store(static_cast<StatefulSet*>(nullptr)).erase(event.name), true;
    }
    return false;
  }
  if (event.op != Event::Op::kCreate && event.op != Event::Op::kUpdate) return false;
  bool applied = false;
  std::visit(
      [&](const auto& object) {
        using T = std::decay_t<decltype(object)>;
        if constexpr (std::is_same_v<T, Service> || std::is_same_v<T, ReplicationController> ||
                      std::is_same_v<T, ReplicaSet> || std::is_same_v<T, StatefulSet>) {
          store(static_cast<const T*>(nullptr))[object.Key()] = object;
          applied = true;
        }
      },
      event.object);
  return applied;
}

}  // namespace schedref::api

#endif  // SCHEDREF_API_APISERVER_SELECTOR_EVENTS_H_
