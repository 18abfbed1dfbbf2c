#include "api/apiserver/storage_events.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace schedref::api {
namespace {

// Records each change as "<old>-><new>", with the objects' names or "-".
struct Recorder {
  std::vector<std::string> changes;
  template <typename T>
  void operator()(const T* old_obj, const T* new_obj) {
    changes.push_back((old_obj ? old_obj->name : "-") + "->" + (new_obj ? new_obj->name : "-"));
  }
};

Event Create(PersistentVolumeClaim pvc) {
  Event e;
  e.op = Event::Op::kCreate;
  e.object = std::move(pvc);
  return e;
}

TEST(ApplyStorageEvent, CreateUpdateDeleteReachTheStoreAndTheHandler) {
  StorageObjects store;
  Recorder rec;
  PersistentVolumeClaim pvc;
  pvc.ns = "default";
  pvc.name = "data";
  ASSERT_TRUE(ApplyStorageEvent(Create(pvc), &store, rec));
  ASSERT_NE(store.Claim("default", "data"), nullptr);

  Event update = Create(pvc);
  update.op = Event::Op::kUpdate;
  ASSERT_TRUE(ApplyStorageEvent(update, &store, rec));  // unchanged: no event
  pvc.spec.volume_name = "pv-1";
  update.object = pvc;
  ASSERT_TRUE(ApplyStorageEvent(update, &store, rec));
  EXPECT_EQ(store.Claim("default", "data")->spec.volume_name, "pv-1");

  Event del;
  del.op = Event::Op::kDelete;
  del.kind = "PersistentVolumeClaim";
  del.name = "default/data";
  ASSERT_TRUE(ApplyStorageEvent(del, &store, rec));
  EXPECT_EQ(store.Claim("default", "data"), nullptr);
  EXPECT_EQ(rec.changes, (std::vector<std::string>{"-->data", "data->data", "data->-"}));
}

TEST(ApplyStorageEvent, OtherKindsAreNotStorage) {
  StorageObjects store;
  Recorder rec;
  Event e;
  e.op = Event::Op::kCreate;
  e.object = Node{};
  EXPECT_FALSE(ApplyStorageEvent(e, &store, rec));
  Event del;
  del.op = Event::Op::kDelete;
  del.kind = "Pod";
  del.name = "default/p";
  EXPECT_FALSE(ApplyStorageEvent(del, &store, rec));
  EXPECT_TRUE(rec.changes.empty());
}

}  // namespace
}  // namespace schedref::api
