#include "optimized/framework/plugins/helper/shape_score.h"

#include <cstddef>

namespace schedref::optimized::framework::plugins::helper {

int64_t BrokenLinear(const FunctionShape& shape, int64_t p) {
  if (p <= shape.front().utilization) return shape.front().score;
  for (size_t i = 1; i < shape.size(); ++i) {
    const FunctionShapePoint& lo = shape[i - 1];
    const FunctionShapePoint& hi = shape[i];
    if (p <= hi.utilization) {
      // C++ and Go both truncate integer division toward zero, so a
      // decreasing segment rounds the same way.
      return lo.score + (hi.score - lo.score) * (p - lo.utilization) /
                            (hi.utilization - lo.utilization);
    }
  }
  return shape.back().score;
}

}  // namespace schedref::optimized::framework::plugins::helper
