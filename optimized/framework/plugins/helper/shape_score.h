// A piecewise-linear function given by points (upstream's "broken linear"
// function), for RequestedToCapacityRatio. Specification: upstream
// pkg/scheduler/framework/plugins/helper/shape_score.go (v1.32).
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_HELPER_SHAPE_SCORE_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_HELPER_SHAPE_SCORE_H_

#include <cstdint>
#include <vector>

namespace schedref::optimized::framework::plugins::helper {

struct FunctionShapePoint {
  int64_t utilization = 0;
  int64_t score = 0;
};
// REQUIRES (for BrokenLinear): non-empty, utilization strictly increasing,
// as NodeResourcesFit args validation guarantees.
using FunctionShape = std::vector<FunctionShapePoint>;

// f(p): the first point's score for p <= its utilization; the last point's
// score past the last utilization; in between, on the segment (u[i-1], u[i]]
// containing p, s[i-1] + (s[i]-s[i-1])*(p-u[i-1])/(u[i]-u[i-1]) with integer
// division truncating toward zero (Go's).
int64_t BrokenLinear(const FunctionShape& shape, int64_t p);

}  // namespace schedref::optimized::framework::plugins::helper

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_HELPER_SHAPE_SCORE_H_
