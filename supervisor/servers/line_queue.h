// Lines waiting to be written to a pipe, written in batches: every line
// queued when a write begins goes out in that one write, so a burst of
// messages costs one system call, not one each.
//
//   queue.Push(line + "\n");
//   boost::asio::async_write(pipe, queue.Batch(), [&](auto error, auto) {
//     queue.Written();   // the batch, and only it, leaves the queue
//   });
#ifndef BRAVEBOT_SUPERVISOR_SERVERS_LINE_QUEUE_H_
#define BRAVEBOT_SUPERVISOR_SERVERS_LINE_QUEUE_H_

#include <boost/asio/buffer.hpp>
#include <cstddef>
#include <deque>
#include <string>
#include <vector>

namespace bravebot {

class LineQueue {
 public:
  // The lines one write takes at most.
  static constexpr std::size_t kMaxBatchLines = 256;

  void Push(std::string line) {
    bytes_ += line.size();
    lines_.push_back(std::move(line));
  }
  bool empty() const { return lines_.empty(); }
  std::size_t bytes() const { return bytes_; }

  // The next batch to write. Its lines stay queued, and in place (a deque
  // moves none of its elements as others are pushed), until Written.
  std::vector<boost::asio::const_buffer> Batch() {
    batch_ = lines_.size() < kMaxBatchLines ? lines_.size() : kMaxBatchLines;
    std::vector<boost::asio::const_buffer> buffers;
    buffers.reserve(batch_);
    for (std::size_t i = 0; i < batch_; ++i) buffers.push_back(boost::asio::buffer(lines_[i]));
    return buffers;
  }
  // The batch was written: it leaves the queue.
  void Written() {
    for (; batch_ > 0 && !lines_.empty(); --batch_) {
      bytes_ -= lines_.front().size();
      lines_.pop_front();
    }
    batch_ = 0;
  }
  // Drops everything. Only where no write of a batch is under way any more
  // (its descriptor closed first, or the write done).
  void Clear() {
    lines_.clear();
    bytes_ = 0;
    batch_ = 0;
  }

 private:
  std::deque<std::string> lines_;
  std::size_t bytes_ = 0;
  std::size_t batch_ = 0;  // the lines of the write under way
};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SERVERS_LINE_QUEUE_H_
