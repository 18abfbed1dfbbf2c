// ImageLocality: prefers nodes that already have the pod's container images,
// weighted by how widely each image is spread. Specification: upstream
// pkg/scheduler/framework/plugins/imagelocality/image_locality.go (read at
// 65faa9c6800dfe97462fd0c8229be1c3435f60fb; unchanged in substance through
// v1.32: init containers count, the maximum threshold is 1000 MiB per
// container). Test cases from image_locality_test.go at
// 3e4a7900d75552087b6d82edb80ac44be8f71d67 (an old version with a fixed
// 1000 MiB maximum; expectations recomputed with the v1.32 threshold).
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_IMAGELOCALITY_IMAGE_LOCALITY_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_IMAGELOCALITY_IMAGE_LOCALITY_H_

#include <cstdint>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "api/status.h"
#include "api/types/objects.h"
#include "reference/framework/interface.h"

namespace schedref::reference::framework::plugins::imagelocality {

inline constexpr int64_t kMiB = 1024 * 1024;
inline constexpr int64_t kMinThreshold = 23 * kMiB;
inline constexpr int64_t kMaxContainerThreshold = 1000 * kMiB;

// Appends ":latest" when the image has no tag (the last ':' is not after the
// last '/'); digests ("@sha256:...") keep their form.
std::string NormalizedImageName(const std::string& name);

// 100 * (clamp(sum, 23 MiB, 1000 MiB * containers) - 23 MiB) /
// (1000 MiB * containers - 23 MiB), integer arithmetic.
int64_t CalculatePriority(int64_t sum_scores, int64_t num_containers);

class ImageLocality final : public ScorePlugin {
 public:
  // Takes no args. REQUIRES: handle != nullptr (it provides the snapshot).
  static StatusOr<std::unique_ptr<Plugin>> New(const nlohmann::json& args,
                                               Handle* handle);
  explicit ImageLocality(Handle* handle) : handle_(handle) {}

  std::string Name() const override;

  // For every init and regular container whose normalized image the node
  // lists, add int(size * nodes_with_image / total_nodes); the score is
  // CalculatePriority of the sum over all containers.
  // Note: upstream takes an image's size from whichever node first reported
  // it to the cache; here each node's own reported size is used
  // (docs/deviations.md).
  ScoreOutput Score(CycleState& state, const api::Pod& pod,
                    const NodeInfo& node) override;

 private:
  Handle* handle_;  // not owned; outlives the plugin
};

}  // namespace schedref::reference::framework::plugins::imagelocality

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_IMAGELOCALITY_IMAGE_LOCALITY_H_
