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

// Every kind: create, an unchanged update (no call), a changed update, a
// delete by kind and key, and a delete of what is gone (no call). `change`
// alters the object; `key` is how a delete names it.
template <typename T, typename Change>
void CheckKind(T object, const std::string& kind, const std::string& key, Change change) {
  SCOPED_TRACE(kind);
  StorageObjects store;
  Recorder rec;
  Event e;
  e.op = Event::Op::kCreate;
  e.object = object;
  ASSERT_TRUE(ApplyStorageEvent(e, &store, rec));
  ASSERT_EQ(StoreOf<T>(store).count(key), 1u);
  ASSERT_TRUE(ApplyStorageEvent(e, &store, rec));  // create of an existing one: nothing
  e.op = Event::Op::kUpdate;
  ASSERT_TRUE(ApplyStorageEvent(e, &store, rec));  // unchanged: nothing
  change(&object);
  e.object = object;
  ASSERT_TRUE(ApplyStorageEvent(e, &store, rec));
  EXPECT_EQ(StoreOf<T>(store).at(key), object);
  Event del;
  del.op = Event::Op::kDelete;
  del.kind = kind;
  del.name = key;
  ASSERT_TRUE(ApplyStorageEvent(del, &store, rec));
  EXPECT_EQ(StoreOf<T>(store).count(key), 0u);
  ASSERT_TRUE(ApplyStorageEvent(del, &store, rec));  // gone: nothing
  const std::string& n = object.name;
  EXPECT_EQ(rec.changes, (std::vector<std::string>{"-->" + n, n + "->" + n, n + "->-"}));
}

TEST(ApplyStorageEvent, EveryKind) {
  PersistentVolume pv;
  pv.name = "pv-1";
  CheckKind(pv, "PersistentVolume", "pv-1", [](PersistentVolume* v) { v->phase = "Bound"; });
  PersistentVolumeClaim pvc;
  pvc.ns = "shop";
  pvc.name = "data";
  CheckKind(pvc, "PersistentVolumeClaim", "shop/data",
            [](PersistentVolumeClaim* c) { c->spec.volume_name = "pv-1"; });
  StorageClass sc;
  sc.name = "fast";
  CheckKind(sc, "StorageClass", "fast", [](StorageClass* c) {
    c->volume_binding_mode = kVolumeBindingWaitForFirstConsumer;
  });
  CSINode node;
  node.name = "n1";
  CheckKind(node, "CSINode", "n1", [](CSINode* n) { n->drivers.push_back({"d", "id", {}, 3}); });
  CSIDriver driver;
  driver.name = "ebs.csi.aws.com";
  CheckKind(driver, "CSIDriver", "ebs.csi.aws.com",
            [](CSIDriver* d) { d->storage_capacity = true; });
  CSIStorageCapacity capacity;
  capacity.ns = "kube-system";
  capacity.name = "cap";
  CheckKind(capacity, "CSIStorageCapacity", "kube-system/cap",
            [](CSIStorageCapacity* c) { c->capacity = 10; });
}

// Kinds are told apart: a delete of a claim named like a volume leaves the
// volume alone.
TEST(ApplyStorageEvent, DeleteNamesTheKind) {
  StorageObjects store;
  store.volumes["x"].name = "x";
  Recorder rec;
  Event del;
  del.op = Event::Op::kDelete;
  del.kind = "StorageClass";
  del.name = "x";
  ASSERT_TRUE(ApplyStorageEvent(del, &store, rec));
  EXPECT_EQ(store.volumes.count("x"), 1u);
  EXPECT_TRUE(rec.changes.empty());
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
