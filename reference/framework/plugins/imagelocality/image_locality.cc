#include "reference/framework/plugins/imagelocality/image_locality.h"

#include <map>

#include "reference/framework/plugins/names/names.h"

namespace schedref::reference::framework::plugins::imagelocality {

std::string NormalizedImageName(const std::string& name) {
  const size_t colon = name.rfind(':');
  const size_t slash = name.rfind('/');
  // Go's LastIndex returns -1 when absent; npos + 1 == 0 keeps that order.
  if (colon + 1 <= slash + 1) return name + ":latest";
  return name;
}

int64_t CalculatePriority(int64_t sum_scores, int64_t num_containers) {
  const int64_t max_threshold = kMaxContainerThreshold * num_containers;
  if (sum_scores < kMinThreshold) {
    sum_scores = kMinThreshold;
  } else if (sum_scores > max_threshold) {
    sum_scores = max_threshold;
  }
  return kMaxNodeScore * (sum_scores - kMinThreshold) /
         (max_threshold - kMinThreshold);
}

StatusOr<std::unique_ptr<Plugin>> ImageLocality::New(
    const nlohmann::json& /*args*/, Handle* handle) {
  if (handle == nullptr) {
    return schedref::Status::FailedPrecondition(
        "ImageLocality needs a framework handle");
  }
  return std::unique_ptr<Plugin>(new ImageLocality(handle));
}

std::string ImageLocality::Name() const { return names::kImageLocality; }

ScoreOutput ImageLocality::Score(CycleState& /*state*/, const api::Pod& pod,
                                 const NodeInfo& node) {
  const Snapshot& snapshot = handle_->SnapshotSharedLister();
  const int total_nodes = snapshot.NumNodes();
  // Image name -> size on this node (its first listing wins).
  std::map<std::string, int64_t> sizes;
  for (const api::ContainerImage& image : node.node->images) {
    for (const std::string& name : image.names) {
      sizes.emplace(name, image.size_bytes);
    }
  }
  int64_t sum = 0;
  auto add = [&](const api::Container& c) {
    auto it = sizes.find(NormalizedImageName(c.image));
    if (it == sizes.end() || total_nodes == 0) return;
    const double spread =
        static_cast<double>(snapshot.ImageNumNodes(node, it->first)) /
        static_cast<double>(total_nodes);
    sum += static_cast<int64_t>(static_cast<double>(it->second) * spread);
  };
  for (const api::Container& c : pod.init_containers) add(c);
  for (const api::Container& c : pod.containers) add(c);
  const int64_t num_containers =
      static_cast<int64_t>(pod.init_containers.size() + pod.containers.size());
  return {CalculatePriority(sum, num_containers), Status::Success()};
}

}  // namespace schedref::reference::framework::plugins::imagelocality
