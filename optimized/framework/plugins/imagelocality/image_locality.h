// ImageLocality: prefers nodes that already have the pod's container images,
// weighted by how widely each image is spread. Specification: upstream
// pkg/scheduler/framework/plugins/imagelocality/image_locality.go (v1.32: init
// containers count; the maximum threshold is 1000 MiB per container);
// docs/semantics/plugins.md.
//
// Speed: Score does no allocation and no per-pod precomputation (upstream has
// no PreScore here, and adding one would change the plugin's extension
// points): a container's image is matched against the node's listed names in
// place, and the spread comes from the counts the snapshot froze into the
// node's copy (NodeInfo::image_num_nodes), looked up only for images the
// node has.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_IMAGELOCALITY_IMAGE_LOCALITY_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_IMAGELOCALITY_IMAGE_LOCALITY_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "api/status.h"
#include "optimized/framework/interface.h"

namespace schedref::optimized::framework::plugins::imagelocality {

inline constexpr int64_t kMiB = 1024 * 1024;
inline constexpr int64_t kMinThreshold = 23 * kMiB;
inline constexpr int64_t kMaxContainerThreshold = 1000 * kMiB;

// Appends ":latest" when the image has no tag (the last ':' is not after the
// last '/'); digests ("@sha256:...") keep their form.
std::string NormalizedImageName(std::string_view name);

// True iff NormalizedImageName(image) == listed, without building the string.
bool IsImage(std::string_view image, std::string_view listed);

// 100 * (clamp(sum, 23 MiB, 1000 MiB * containers) - 23 MiB) /
// (1000 MiB * containers - 23 MiB), integer arithmetic; 0 for no containers.
int64_t CalculatePriority(int64_t sum_scores, int64_t num_containers);

class ImageLocality final : public ScorePlugin {
 public:
  // Takes no args. Error if handle is null (it provides the snapshot).
  static StatusOr<std::unique_ptr<framework::Plugin>> New(
      const nlohmann::json& args, framework::Handle* handle);
  // REQUIRES: handle != nullptr and outlives the plugin.
  explicit ImageLocality(Handle* handle) : handle_(handle) {}

  std::string Name() const override;

  // For every init and regular container whose normalized image the node
  // lists, add int(size * nodes_with_image / total_nodes), size being the one
  // this node reports first for that name; the score is CalculatePriority of
  // the sum. No NormalizeScore.
  // Note: upstream takes an image's size from whichever node first reported
  // it to the cache; here each node's own reported size is used
  // (docs/deviations.md).
  ScoreOutput Score(const CycleState& state, const PodInfo& pod,
                    const NodeInfo& node) const override;
  // No node lists images: each scores CalculatePriority(0, containers).
  std::optional<int64_t> UniformScore(const CycleState& state, const PodInfo& pod,
                                      uint32_t flags) const override;
  size_t ScoreMany(const CycleState& state, const PodInfo& pod, const NodeInfo* const* nodes,
                   size_t n, int64_t* scores, Status* failure) const override;

 private:
  Handle* handle_;  // not owned
};

}  // namespace schedref::optimized::framework::plugins::imagelocality

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_IMAGELOCALITY_IMAGE_LOCALITY_H_
