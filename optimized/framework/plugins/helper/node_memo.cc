#include "optimized/framework/plugins/helper/node_memo.h"

namespace schedref::optimized::framework::plugins::helper {

void NodeMemo::Begin(const Snapshot& snapshot) {
  const bool keep = snapshot.generation > 0;
  if (&snapshot != snapshot_ || !keep || snapshot.generation < snapshot_generation_) {
    Clear();
  }
  snapshot_ = &snapshot;
  snapshot_generation_ = snapshot.generation;
  keep_ = keep;
  stamps_.resize(static_cast<size_t>(snapshot.NumNodes()));
}

void NodeMemo::Clear() { stamps_.assign(stamps_.size(), Stamp{}); }

void NodeMemo::Set(size_t pos, const NodeInfo& info) {
  if (keep_) stamps_[pos] = Stamp{&info, info.node(), info.generation};
}

}  // namespace schedref::optimized::framework::plugins::helper
