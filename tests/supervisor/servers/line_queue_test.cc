#include "supervisor/servers/line_queue.h"

#include <gtest/gtest.h>

namespace bravebot {
namespace {

TEST(LineQueueTest, ABatchIsEveryLineQueuedUpToItsLimitAndOnlyItLeaves) {
  LineQueue queue;
  for (std::size_t i = 0; i < LineQueue::kMaxBatchLines + 3; ++i) queue.Push("x\n");
  EXPECT_EQ(queue.Batch().size(), LineQueue::kMaxBatchLines);
  queue.Push("later\n");  // queued while the batch is written
  queue.Written();
  EXPECT_EQ(queue.bytes(), 3 * 2 + 6u);
  EXPECT_EQ(queue.Batch().size(), 4u);
  queue.Written();
  EXPECT_TRUE(queue.empty());
}

}  // namespace
}  // namespace bravebot
