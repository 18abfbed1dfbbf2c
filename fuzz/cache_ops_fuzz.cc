// libFuzzer target for the scheduler caches of both implementations
// (reference/backend/cache, optimized/backend/cache): bytes decode to a
// sequence of cache operations, legal and illegal, applied to the plain
// model of testing/models/cache_model.h and to each implementation's real
// Cache (through its cache_model_adapter.h), each compared with the model
// after every operation (CacheHarness::RunAndCheck: accepted iff the model
// accepts, node tree order, every NodeInfo and its pods in order, ghosts,
// pod states, the assumed set, snapshots against a recomputation from the
// model; for optimized also its running aggregates and incremental
// snapshots against a recomputation). Aborts on the first disagreement,
// after printing the implementation and the operations so far as an event
// log.
//
// Encoding (ByteReader: past the end, every byte reads as 0):
//   byte 0           config: assumed pod TTL (mod 3: 0, 0, 3 s)
//   then per operation:
//     kind byte      mod 16, see kKinds
//     time byte      mod 6: how far the clock moves first, see kSteps
//     operands       by kind, one byte each:
//       add / update node   name, labels (zone mod 5 in bits 0-2 read mod
//                           5, bit 3 region, bits 4-5 version)
//       remove node         name
//       assume              uid (255: no UID), node name
//       finish binding      uid
//       forget, remove pod  uid, node choice
//       add / update pod    uid, node choice, version (mod 3)
//       cleanup, snapshot   none
//   A name byte picks from n0 .. n3 (mod 4), a uid byte from u0 .. u5
//   (mod 6). A node choice byte: mod 8 of 0-4 the pod's own node, 5-6 the
//   node named by the next byte, 7 "". Operations the model deems invalid
//   (IsValid) are skipped. At most kMaxOperations operations per input.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "fuzz/byte_reader.h"
#include "optimized/backend/cache/cache_model_adapter.h"
#include "reference/backend/cache/cache_model_adapter.h"
#include "testing/models/cache_harness.h"
#include "testing/models/cache_model.h"

namespace {

namespace cache = schedref::testing::models;
using schedref::fuzz::ByteReader;

constexpr size_t kMaxOperations = 400;

enum Kind {
  kAddNode,
  kUpdateNode,
  kRemoveNode,
  kAssume,
  kFinishBinding,
  kForget,
  kAddPod,
  kUpdatePod,
  kRemovePod,
  kCleanup,
  kSnapshot,
};
// Indexed by the kind byte mod 16.
constexpr Kind kKinds[16] = {
    kAddNode,  kAddNode,   kUpdateNode, kRemoveNode, kAssume,
    kAssume,   kAssume,    kFinishBinding, kForget,  kAddPod,
    kAddPod,   kUpdatePod, kRemovePod,  kCleanup,    kSnapshot,
    kSnapshot,
};
constexpr schedref::api::TimeMs kSteps[6] = {0, 0, 0, 500, 1000, 5000};

cache::NodeLabels DecodeLabels(ByteReader& in) {
  const uint8_t b = in.Byte();
  cache::NodeLabels l;
  l.zone = (b & 7) % 5;
  l.region = (b >> 3) & 1;
  l.version = (b >> 4) & 3;
  return l;
}

cache::NodeChoice DecodeChoice(ByteReader& in) {
  const size_t b = in.Below(8);
  cache::NodeChoice c;
  if (b <= 4) {
    c.kind = cache::NodeChoice::kCached;
  } else if (b <= 6) {
    c.kind = cache::NodeChoice::kNamed;
    c.name = in.Pick(cache::ModelNodeNames());
  } else {
    c.kind = cache::NodeChoice::kEmpty;
  }
  return c;
}

cache::CacheOp DecodeOp(ByteReader& in, const cache::CacheModel& model) {
  const Kind kind = kKinds[in.Below(16)];
  cache::CacheOp op;
  op.at = model.now + kSteps[in.Below(6)];
  auto node = [&] { return in.Pick(cache::ModelNodeNames()); };
  auto uid = [&] { return in.Pick(cache::ModelPodUids()); };
  switch (kind) {
    case kAddNode: {
      std::string name = node();
      op.body = cache::AddNodeOp{name, DecodeLabels(in)};
      break;
    }
    case kUpdateNode: {
      std::string name = node();
      op.body = cache::UpdateNodeOp{name, DecodeLabels(in)};
      break;
    }
    case kRemoveNode:
      op.body = cache::RemoveNodeOp{node()};
      break;
    case kAssume: {
      const uint8_t b = in.Byte();
      std::string id =
          b == 255 ? std::string() : cache::ModelPodUids()[b % 6];
      op.body = cache::AssumePodOp{id, node()};
      break;
    }
    case kFinishBinding:
      op.body = cache::FinishBindingOp{uid()};
      break;
    case kForget: {
      std::string id = uid();
      op.body = cache::ForgetPodOp{id, DecodeChoice(in)};
      break;
    }
    case kAddPod: {
      std::string id = uid();
      cache::NodeChoice c = DecodeChoice(in);
      op.body = cache::AddPodOp{id, c, static_cast<int>(in.Below(3))};
      break;
    }
    case kUpdatePod: {
      std::string id = uid();
      cache::NodeChoice c = DecodeChoice(in);
      op.body = cache::UpdatePodOp{id, c, static_cast<int>(in.Below(3))};
      break;
    }
    case kRemovePod: {
      std::string id = uid();
      op.body = cache::RemovePodOp{id, DecodeChoice(in)};
      break;
    }
    case kCleanup:
      op.body = cache::CleanupOp{};
      break;
    case kSnapshot:
      op.body = cache::SnapshotOp{};
      break;
  }
  return op;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ByteReader in(data, size);
  static constexpr int64_t kTtls[3] = {0, 0, 3000};
  cache::CacheModel::Config config;
  config.assumed_pod_ttl_ms = kTtls[in.Below(3)];
  cache::CacheModel model(config);
  struct Implementation {
    const char* name;
    cache::CacheHarness harness;
  };
  Implementation implementations[] = {
      {"reference", cache::CacheHarness(
                        schedref::reference::cache::NewCacheUnderTest(config))},
      {"optimized",
       cache::CacheHarness(
           schedref::optimized::backend::cache::NewCacheUnderTest(config))},
  };
  std::vector<std::string> log;
  while (!in.empty() && log.size() < kMaxOperations) {
    const cache::CacheOp op = DecodeOp(in, model);
    if (!cache::IsValid(model, op)) continue;
    log.push_back(cache::Show(op));
    for (Implementation& impl : implementations) {
      std::optional<std::string> error = impl.harness.RunAndCheck(model, op);
      if (!error) continue;
      std::fprintf(stderr,
                   "cache_ops_fuzz: the %s cache disagrees with the model\n"
                   "config: assumed pod TTL %lld ms\n",
                   impl.name, static_cast<long long>(config.assumed_pod_ttl_ms));
      for (const std::string& line : log) {
        std::fprintf(stderr, "  %s\n", line.c_str());
      }
      std::fprintf(stderr, "after the last operation: %s\n", error->c_str());
      std::abort();
    }
    (void)cache::Apply(model, op);
  }
  return 0;
}
