// The reference SchedulingQueue behind the model's QueueUnderTest interface
// (testing/models/queue_under_test.h), with the model's fixture built from
// the reference's plugins. testonly.
#ifndef SCHEDREF_REFERENCE_BACKEND_QUEUE_QUEUE_MODEL_ADAPTER_H_
#define SCHEDREF_REFERENCE_BACKEND_QUEUE_QUEUE_MODEL_ADAPTER_H_

#include <memory>

#include "testing/models/queue_model.h"
#include "testing/models/queue_under_test.h"

namespace schedref::reference::queue {

std::unique_ptr<testing::models::QueueUnderTest> NewQueueUnderTest(
    const testing::models::QueueModel::Config& config);

}  // namespace schedref::reference::queue

#endif  // SCHEDREF_REFERENCE_BACKEND_QUEUE_QUEUE_MODEL_ADAPTER_H_
