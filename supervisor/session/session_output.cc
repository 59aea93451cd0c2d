#include "supervisor/session/session_output.h"

#include <boost/asio/buffer.hpp>
#include <boost/asio/write.hpp>
#include <utility>

namespace bravebot {

SessionOutput::SessionOutput(boost::asio::io_context& io, int fd,
                             std::function<void(bool)> on_congestion)
    : fd_(io, fd), on_congestion_(std::move(on_congestion)) {}

bool SessionOutput::Send(const Json& message) {
  if (closed_) return true;
  // dump() escapes any newline inside a string, so a message is one line; a
  // string that is not UTF-8 is replaced rather than thrown about.
  return SendLine(message.dump(-1, ' ', false, Json::error_handler_t::replace));
}

bool SessionOutput::SendLine(std::string line) {
  if (closed_) return true;
  if (line.size() > kMaxLineBytes) return false;
  line.push_back('\n');
  queued_.Push(std::move(line));
  if (!congested_ && queued_.bytes() > kCongestedBytes) {
    congested_ = true;
    on_congestion_(true);
  }
  if (!writing_) WriteNext();
  return true;
}

void SessionOutput::WriteNext() {
  if (queued_.empty()) {
    writing_ = false;
    Written();
    return;
  }
  writing_ = true;
  boost::asio::async_write(fd_, queued_.Batch(),
                           [this](const boost::system::error_code& error, std::size_t) {
                             queued_.Written();
                             if (error) {
                               // The session is gone: nothing more reaches it.
                               closed_ = true;
                               queued_.Clear();
                             }
                             if (congested_ && queued_.bytes() < kClearBytes) {
                               congested_ = false;
                               on_congestion_(false);
                             }
                             WriteNext();
                           });
}

void SessionOutput::WhenWritten(std::function<void()> done) {
  when_written_.push_back(std::move(done));
  if (!writing_) Written();
}

void SessionOutput::Written() {
  auto callbacks = std::move(when_written_);
  when_written_.clear();
  for (auto& done : callbacks) done();
}

}  // namespace bravebot
