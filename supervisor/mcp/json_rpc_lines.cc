#include "supervisor/mcp/json_rpc_lines.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace bravebot {
namespace {

constexpr std::size_t kReadChunkBytes = 64 * 1024;

// "16 MiB", or bytes when that is not a whole number of MiB.
std::string DescribeBytes(std::size_t bytes) {
  if (bytes % (std::size_t{1} << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes) + " bytes";
}

// Milliseconds for poll() until `deadline`, rounded up so that a wait ending
// early never reports a deadline as passed when it has not; 0 once it passed.
int PollTimeoutUntil(Deadline deadline) {
  auto left = deadline - std::chrono::steady_clock::now();
  if (left <= std::chrono::steady_clock::duration::zero()) return 0;
  auto ms = std::chrono::ceil<std::chrono::milliseconds>(left).count();
  return ms > 1'000'000'000 ? 1'000'000'000 : static_cast<int>(ms);
}

// Waits until `fd` shows one of `events` or the deadline passes. Returns the
// revents seen, 0 when the deadline passed.
Result<short> PollFor(int fd, short events, Deadline deadline) {
  while (true) {
    pollfd entry{fd, events, 0};
    int ready = ::poll(&entry, 1, PollTimeoutUntil(deadline));
    if (ready > 0) return entry.revents;
    if (ready == 0) {
      if (std::chrono::steady_clock::now() >= deadline) return short{0};
      continue;  // woke a little early: rounding of the timeout
    }
    if (errno != EINTR) return Error::FromErrno("poll");
  }
}

}  // namespace

Result<LineRead> LineReader::ReadLine(Deadline deadline) {
  while (true) {
    std::size_t newline = buffer_.find('\n', scanned_);
    std::size_t line_bytes = (newline == std::string::npos ? buffer_.size() : newline) - start_;
    if (line_bytes > max_line_bytes_) {
      return Error(ErrorCode::kCorrupt, "a line longer than " + DescribeBytes(max_line_bytes_) +
                                            " arrived; no message can be that long");
    }
    if (newline != std::string::npos) {
      LineRead read{LineStatus::kLine, buffer_.substr(start_, newline - start_)};
      start_ = scanned_ = newline + 1;
      // Drop what has been handed out once it is most of the buffer, so a long
      // exchange neither grows the buffer nor copies it on every line.
      if (start_ > buffer_.size() / 2) {
        buffer_.erase(0, start_);
        start_ = scanned_ = 0;
      }
      return read;
    }
    scanned_ = buffer_.size();
    if (ended_) {
      if (start_ == buffer_.size()) return LineRead{LineStatus::kEndOfStream, {}};
      LineRead read{LineStatus::kLine, buffer_.substr(start_)};
      buffer_.clear();
      start_ = scanned_ = 0;
      return read;
    }

    BRAVEBOT_ASSIGN_OR_RETURN(auto revents, PollFor(fd_, POLLIN, deadline));
    if (revents == 0) return LineRead{LineStatus::kTimedOut, {}};
    if (revents & POLLNVAL) return Error(ErrorCode::kSystem, "poll: not an open descriptor");
    // POLLHUP and POLLERR fall through to read(), which says what they mean
    // (0 for the end, or the error) after any bytes still in the pipe.

    std::size_t old_size = buffer_.size();
    buffer_.resize(old_size + kReadChunkBytes);
    ssize_t got = ::read(fd_, buffer_.data() + old_size, kReadChunkBytes);
    int read_errno = errno;
    buffer_.resize(old_size + (got > 0 ? static_cast<std::size_t>(got) : 0));
    if (got == 0) {
      ended_ = true;
    } else if (got < 0 && read_errno != EINTR && read_errno != EAGAIN &&
               read_errno != EWOULDBLOCK) {
      return Error::FromErrno("read", read_errno);
    }
  }
}

Status WriteLine(int fd, std::string_view message, Deadline deadline) {
  std::string whole;
  whole.reserve(message.size() + 1);
  whole.append(message);
  whole.push_back('\n');
  std::size_t written = 0;
  while (written < whole.size()) {
    ssize_t put = ::write(fd, whole.data() + written, whole.size() - written);
    if (put > 0) {
      written += static_cast<std::size_t>(put);
      continue;
    }
    if (put < 0 && errno == EINTR) continue;
    if (put < 0 && errno != EAGAIN && errno != EWOULDBLOCK) return Error::FromErrno("write");
    BRAVEBOT_ASSIGN_OR_RETURN(auto revents, PollFor(fd, POLLOUT, deadline));
    if (revents == 0) return Error::FromErrno("write", ETIMEDOUT);
    if (revents & POLLNVAL) return Error(ErrorCode::kSystem, "poll: not an open descriptor");
    // POLLERR (the reader closed its end) falls through to write(): EPIPE.
  }
  return {};
}

}  // namespace bravebot
