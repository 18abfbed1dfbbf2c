#include "optimized/framework/plugins/imagelocality/image_locality.h"

#include <algorithm>
#include <vector>

#include "optimized/framework/plugins/names/names.h"

namespace schedref::optimized::framework::plugins::imagelocality {
namespace {

constexpr std::string_view kLatest = ":latest";

// True iff the image carries no tag, so ":latest" is implied. Go's
// LastIndex returns -1 when absent; npos + 1 == 0 keeps that order.
bool Untagged(std::string_view name) {
  return name.rfind(':') + 1 <= name.rfind('/') + 1;
}

}  // namespace

std::string NormalizedImageName(std::string_view name) {
  std::string out(name);
  if (Untagged(name)) out += kLatest;
  return out;
}

// How many nodes listed the image when `node`'s copy was made (the count
// the snapshot froze into it, NodeInfo::image_num_nodes), or the snapshot's
// count now for a copy without one.
int NumNodesWithImage(const NodeInfo& node, const Snapshot& snapshot,
                      const std::string& name) {
  for (const auto& [listed, count] : node.image_num_nodes) {
    if (listed == name) return count;
  }
  return snapshot.NumNodesWithImage(name);
}

bool IsImage(std::string_view image, std::string_view listed) {
  if (!Untagged(image)) return listed == image;
  return listed.size() == image.size() + kLatest.size() &&
         listed.starts_with(image) && listed.ends_with(kLatest);
}

int64_t CalculatePriority(int64_t sum_scores, int64_t num_containers) {
  const int64_t max_threshold = kMaxContainerThreshold * num_containers;
  if (sum_scores < kMinThreshold) {
    sum_scores = kMinThreshold;
  } else if (sum_scores > max_threshold) {
    sum_scores = max_threshold;
  }
  // With no containers, max_threshold is 0 and the sum is clamped to the
  // minimum, so the numerator is 0.
  return kMaxNodeScore * (sum_scores - kMinThreshold) /
         (max_threshold - kMinThreshold);
}

StatusOr<std::unique_ptr<framework::Plugin>> ImageLocality::New(
    const nlohmann::json& /*args*/, framework::Handle* handle) {
  if (handle == nullptr) {
    return schedref::Status::FailedPrecondition(
        "ImageLocality needs a framework handle");
  }
  return std::unique_ptr<framework::Plugin>(new ImageLocality(handle));
}

std::string ImageLocality::Name() const { return names::kImageLocality; }

ScoreOutput ImageLocality::Score(const CycleState& /*state*/, const PodInfo& pod,
                                 const NodeInfo& node) const {
  const api::Pod& p = pod.pod;
  const int64_t num_containers =
      static_cast<int64_t>(p.init_containers.size() + p.containers.size());
  const api::Node* n = node.node();
  const Snapshot& snapshot = handle_->SnapshotSharedLister();
  const int total_nodes = snapshot.NumNodes();
  int64_t sum = 0;
  if (node.has_images() && total_nodes > 0) {
    auto add = [&](const api::Container& c) {
      // The node's first listing of the name decides the size.
      for (const api::ContainerImage& image : n->images) {
        for (const std::string& listed : image.names) {
          if (!IsImage(c.image, listed)) continue;
          const double spread =
              static_cast<double>(NumNodesWithImage(node, snapshot, listed)) /
              static_cast<double>(total_nodes);
          sum += static_cast<int64_t>(static_cast<double>(image.size_bytes) *
                                      spread);
          return;
        }
      }
    };
    for (const api::Container& c : p.init_containers) add(c);
    for (const api::Container& c : p.containers) add(c);
  }
  return {CalculatePriority(sum, num_containers), Status::Success()};
}

std::optional<int64_t> ImageLocality::UniformScore(const CycleState& /*state*/,
                                                   const PodInfo& pod, uint32_t flags) const {
  if ((flags & NodeInfo::kImages) != 0) return std::nullopt;
  return CalculatePriority(
      0, static_cast<int64_t>(pod.pod.init_containers.size() + pod.pod.containers.size()));
}

size_t ImageLocality::ScoreMany(const CycleState& state, const PodInfo& pod,
                                const NodeInfo* const* nodes, size_t n, int64_t* scores,
                                Status* /*failure*/) const {
  // A node without images sums nothing.
  const int64_t num_containers =
      static_cast<int64_t>(pod.pod.init_containers.size() + pod.pod.containers.size());
  const int64_t without_images = CalculatePriority(0, num_containers);
  // Usually no node of the run lists images.
  if ((HotFlagsOf(nodes, n) & NodeInfo::kImages) == 0) {
    std::fill_n(scores, n, without_images);
    return n;
  }
  for (size_t i = 0; i < n; ++i) {
    scores[i] = nodes[i]->has_images() ? Score(state, pod, *nodes[i]).score : without_images;
  }
  return n;
}

}  // namespace schedref::optimized::framework::plugins::imagelocality
