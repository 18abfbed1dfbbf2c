#include "reference/framework/plugins/helper/shape_score.h"

#include <cstddef>

namespace schedref::reference::framework::plugins::helper {

int64_t BrokenLinear(const FunctionShape& shape, int64_t p) {
  for (size_t i = 0; i < shape.size(); ++i) {
    if (p <= shape[i].utilization) {
      if (i == 0) return shape[0].score;
      return shape[i - 1].score +
             (shape[i].score - shape[i - 1].score) *
                 (p - shape[i - 1].utilization) /
                 (shape[i].utilization - shape[i - 1].utilization);
    }
  }
  return shape.back().score;
}

}  // namespace schedref::reference::framework::plugins::helper
