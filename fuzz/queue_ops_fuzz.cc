// libFuzzer target for the scheduling queues of both implementations
// (reference/backend/queue, optimized/backend/queue): bytes decode to a
// sequence of queue operations, applied to the plain model of
// testing/models/queue_model.h and to each implementation's real
// SchedulingQueue (through its queue_model_adapter.h), each compared with
// the model after every operation (QueueHarness::RunAndCheck: where every
// pod is, the order of activeQ / backoffQ / unschedulable / in flight, each
// QueuedPodInfo, backoff expiries, flushes, nominations). Aborts on the
// first disagreement, after printing the implementation and the operations
// so far as an event log.
//
// Encoding (ByteReader: past the end, every byte reads as 0):
//   byte 0           config: bit 0 initial backoff 1 s / 0.5 s; bits 1-2
//                    max backoff x10 / x1 / x4 (mod 3); bit 3 unschedulable
//                    timeout 60 s / 20 s
//   then per operation:
//     kind byte      mod 16, see kKinds (the loop's operations weigh more)
//     time byte      mod 9: how far the clock moves first, see kSteps
//     operands       by kind, one byte each:
//       add          name, priority (mod 3: 0, 5, 10), flags (bit 0 ready,
//                    bits 1-2 gates mod 3, bit 3 nominated)
//       update       name, flags (bit 0 toggle ready, bits 1-2 remove gates
//                    mod 3, bit 3 add toleration, bit 4 set priority, bits
//                    5-6 priority mod 3)
//       fail         name, rejectors (2 bits per plugin in
//                    ModelRejectorPlugins order: 1 Unschedulable, 2 Pending,
//                    else passed)
//       event        kind mod 5 (NodeAdd, NodeLabelChange, NodeTaintChange,
//                    AssignedPodDelete, WildCard), fit (bit 0)
//       nominate     name, flags (bit 0 override, bits 1-2 node mod 3: n1,
//                    n2, "")
//       delete, done, activate, clear nomination: name
//       pop, flushes: none
//   A name byte picks from p0 .. p4 (mod 5). Operations the model deems
//   invalid in the current state (IsValid) are skipped. At most
//   kMaxOperations operations per input.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "fuzz/byte_reader.h"
#include "optimized/backend/queue/queue_model_adapter.h"
#include "reference/backend/queue/queue_model_adapter.h"
#include "testing/models/queue_harness.h"
#include "testing/models/queue_model.h"

namespace {

namespace queue = schedref::testing::models;
using schedref::fuzz::ByteReader;

constexpr size_t kMaxOperations = 400;

enum Kind {
  kAdd,
  kUpdate,
  kDelete,
  kPop,
  kDone,
  kFail,
  kEvent,
  kActivate,
  kFlushBackoff,
  kFlushUnschedulable,
  kAdvanceClock,
  kNominate,
  kClearNomination,
};
// Indexed by the kind byte mod 16.
constexpr Kind kKinds[16] = {
    kAdd,   kAdd,   kUpdate, kDelete,   kPop,     kPop,
    kDone,  kFail,  kFail,   kEvent,    kActivate, kFlushBackoff,
    kAdvanceClock, kFlushUnschedulable, kNominate, kClearNomination,
};
constexpr schedref::api::TimeMs kSteps[9] = {0,    0,    0,     0,    100,
                                             1000, 2500, 10000, 61000};
constexpr int32_t kPriorities[3] = {0, 5, 10};

queue::QueueModel::Config DecodeConfig(ByteReader& in) {
  const uint8_t b = in.Byte();
  queue::QueueModel::Config c;
  c.initial_backoff_ms = (b & 1) ? 500 : 1000;
  static constexpr int64_t kFactors[3] = {10, 1, 4};
  c.max_backoff_ms = c.initial_backoff_ms * kFactors[((b >> 1) & 3) % 3];
  c.max_in_unschedulable_ms = (b & 8) ? 20000 : 60000;
  return c;
}

queue::QueueOp DecodeOp(ByteReader& in, const queue::QueueModel& model) {
  const Kind kind = kKinds[in.Below(16)];
  queue::QueueOp op;
  op.at = model.now + kSteps[in.Below(9)];
  auto name = [&] { return in.Pick(queue::ModelPodNames()); };
  switch (kind) {
    case kAdd: {
      queue::AddOp o;
      o.name = name();
      o.priority = kPriorities[in.Below(3)];
      const uint8_t f = in.Byte();
      o.ready = f & 1;
      o.gates = ((f >> 1) & 3) % 3;
      o.nominated = (f >> 3) & 1;
      op.body = o;
      break;
    }
    case kUpdate: {
      queue::UpdateOp o;
      o.name = name();
      const uint8_t f = in.Byte();
      o.toggle_ready = f & 1;
      o.remove_gates = ((f >> 1) & 3) % 3;
      o.add_toleration = (f >> 3) & 1;
      if ((f >> 4) & 1) o.priority = kPriorities[((f >> 5) & 3) % 3];
      op.body = o;
      break;
    }
    case kDelete:
      op.body = queue::DeleteOp{name()};
      break;
    case kPop:
      op.body = queue::PopOp{};
      break;
    case kDone:
      op.body = queue::DoneOp{name()};
      break;
    case kFail: {
      queue::FailOp o;
      o.name = name();
      const uint8_t f = in.Byte();
      const std::vector<std::string>& plugins = queue::ModelRejectorPlugins();
      for (size_t i = 0; i < plugins.size(); ++i) {
        const int status = (f >> (2 * i)) & 3;
        if (status == 1) o.unschedulable.insert(plugins[i]);
        if (status == 2) o.pending.insert(plugins[i]);
      }
      op.body = o;
      break;
    }
    case kEvent: {
      queue::EventOp o;
      static constexpr queue::EventKind kEvents[5] = {
          queue::EventKind::kNodeAdd, queue::EventKind::kNodeLabelChange,
          queue::EventKind::kNodeTaintChange,
          queue::EventKind::kAssignedPodDelete, queue::EventKind::kWildCard};
      o.kind = kEvents[in.Below(5)];
      o.fit = in.Byte() & 1;
      op.body = o;
      break;
    }
    case kActivate:
      op.body = queue::ActivateOp{name()};
      break;
    case kFlushBackoff:
      op.body = queue::FlushBackoffOp{};
      break;
    case kFlushUnschedulable:
      op.body = queue::FlushUnschedulableOp{};
      break;
    case kAdvanceClock:
      op.body = queue::AdvanceClockOp{};
      op.at = model.now + kSteps[in.Below(9)] * 5;
      break;
    case kNominate: {
      queue::NominateOp o;
      o.name = name();
      const uint8_t f = in.Byte();
      o.override_node = f & 1;
      static const char* const kNodes[3] = {"n1", "n2", ""};
      o.node = kNodes[((f >> 1) & 3) % 3];
      op.body = o;
      break;
    }
    case kClearNomination:
      op.body = queue::ClearNominationOp{name()};
      break;
  }
  return op;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ByteReader in(data, size);
  const queue::QueueModel::Config config = DecodeConfig(in);
  queue::QueueModel model(config);
  struct Implementation {
    const char* name;
    queue::QueueHarness harness;
  };
  Implementation implementations[] = {
      {"reference", queue::QueueHarness(
                        schedref::reference::queue::NewQueueUnderTest(config))},
      {"optimized",
       queue::QueueHarness(
           schedref::optimized::backend::queue::NewQueueUnderTest(config))},
  };
  std::vector<std::string> log;
  while (!in.empty() && log.size() < kMaxOperations) {
    const queue::QueueOp op = DecodeOp(in, model);
    if (!queue::IsValid(model, op)) continue;
    log.push_back(queue::Show(op));
    for (Implementation& impl : implementations) {
      std::optional<std::string> error = impl.harness.RunAndCheck(model, op);
      if (!error) continue;
      std::fprintf(stderr,
                   "queue_ops_fuzz: the %s queue disagrees with the model\n"
                   "config: initial backoff %lld ms, max backoff %lld ms, "
                   "max in unschedulable %lld ms\n",
                   impl.name, static_cast<long long>(config.initial_backoff_ms),
                   static_cast<long long>(config.max_backoff_ms),
                   static_cast<long long>(config.max_in_unschedulable_ms));
      for (const std::string& line : log) {
        std::fprintf(stderr, "  %s\n", line.c_str());
      }
      std::fprintf(stderr, "after the last operation: %s\n", error->c_str());
      std::abort();
    }
    queue::Apply(model, op);
  }
  return 0;
}
