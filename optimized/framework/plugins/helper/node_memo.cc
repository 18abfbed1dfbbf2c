#include "optimized/framework/plugins/helper/node_memo.h"

#include <algorithm>

namespace schedref::optimized::framework::plugins::helper {

void NodeMemo::Begin(const Snapshot& snapshot) {
  const bool keep = snapshot.generation > 0;
  if (&snapshot != snapshot_ || !keep || snapshot.generation < snapshot_generation_) {
    Clear();
  }
  // A resize moves no slot, but a list change has cleared the change log,
  // so StalePositions then looks at every position anyway.
  snapshot_ = &snapshot;
  snapshot_generation_ = snapshot.generation;
  keep_ = keep;
  stamps_.resize(static_cast<size_t>(snapshot.NumNodes()));
}

void NodeMemo::Clear() {
  stamps_.assign(stamps_.size(), Stamp{});
  complete_at_ = -1;
}

void NodeMemo::StalePositions(const std::vector<NodeInfo*>& list, std::vector<size_t>* out) {
  changed_.clear();
  if (keep_ && complete_at_ >= 0 && snapshot_->ChangedSince(complete_at_, &changed_)) {
    std::sort(changed_.begin(), changed_.end());
    changed_.erase(std::unique(changed_.begin(), changed_.end()), changed_.end());
    for (int32_t pos : changed_) {
      const size_t i = static_cast<size_t>(pos);
      if (i < list.size() && !Fresh(i, *list[i])) out->push_back(i);
    }
  } else {
    for (size_t i = 0; i < list.size(); ++i) {
      if (!Fresh(i, *list[i])) out->push_back(i);
    }
  }
  complete_at_ = keep_ ? snapshot_->rebuilds() : -1;
}

void NodeMemo::Set(size_t pos, const NodeInfo& info) {
  if (keep_) stamps_[pos] = Stamp{&info, info.node(), info.generation};
}

}  // namespace schedref::optimized::framework::plugins::helper
