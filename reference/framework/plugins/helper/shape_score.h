// A piecewise-linear function given by points, for RequestedToCapacityRatio.
// Specification: upstream
// pkg/scheduler/framework/plugins/helper/shape_score.go (v1.32).
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_HELPER_SHAPE_SCORE_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_HELPER_SHAPE_SCORE_H_

#include <cstdint>
#include <vector>

namespace schedref::reference::framework::plugins::helper {

struct FunctionShapePoint {
  int64_t utilization = 0;
  int64_t score = 0;
};
// REQUIRES: non-empty, utilization strictly increasing.
using FunctionShape = std::vector<FunctionShapePoint>;

// f(p): the first point's score for p <= its utilization, the last point's
// score past the last utilization, and in between the integer linear
// interpolation s[i-1] + (s[i]-s[i-1])*(p-u[i-1])/(u[i]-u[i-1]) (Go integer
// division, truncating toward zero).
int64_t BrokenLinear(const FunctionShape& shape, int64_t p);

}  // namespace schedref::reference::framework::plugins::helper

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_HELPER_SHAPE_SCORE_H_
