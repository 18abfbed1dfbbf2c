// The optimized SchedulingQueue behind the model's QueueUnderTest interface
// (testing/models/queue_under_test.h), with the model's fixture built from
// the optimized implementation's plugins. testonly.
#ifndef SCHEDREF_OPTIMIZED_BACKEND_QUEUE_QUEUE_MODEL_ADAPTER_H_
#define SCHEDREF_OPTIMIZED_BACKEND_QUEUE_QUEUE_MODEL_ADAPTER_H_

#include <memory>

#include "testing/models/queue_model.h"
#include "testing/models/queue_under_test.h"

namespace schedref::optimized::backend::queue {

std::unique_ptr<testing::models::QueueUnderTest> NewQueueUnderTest(
    const testing::models::QueueModel::Config& config);

}  // namespace schedref::optimized::backend::queue

#endif  // SCHEDREF_OPTIMIZED_BACKEND_QUEUE_QUEUE_MODEL_ADAPTER_H_
