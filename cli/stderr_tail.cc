#include "cli/stderr_tail.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>

namespace bravebot {

StderrTail::StderrTail(int fd, int forward_to, size_t keep_lines)
    : keep_lines_(keep_lines), thread_([this, fd, forward_to] { Drain(fd, forward_to); }) {}

StderrTail::~StderrTail() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

void StderrTail::Drain(int fd, int forward_to) {
  char buffer[4096];
  for (;;) {
    struct pollfd ready = {fd, POLLIN, 0};
    int polled = ::poll(&ready, 1, 50);
    if (polled < 0 && errno == EINTR) continue;
    if (polled == 0) {
      if (stop_) break;
      continue;
    }
    ssize_t got = ::read(fd, buffer, sizeof(buffer));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    if (forward_to >= 0) {
      for (ssize_t written = 0; written < got;) {
        ssize_t step = ::write(forward_to, buffer + written, static_cast<size_t>(got - written));
        if (step < 0 && errno == EINTR) continue;
        if (step <= 0) break;
        written += step;
      }
    }
    std::lock_guard<std::mutex> lock(mutex_);
    for (ssize_t i = 0; i < got; ++i) {
      if (buffer[i] != '\n') {
        partial_ += buffer[i];
        continue;
      }
      lines_.push_back(std::move(partial_));
      partial_.clear();
      if (lines_.size() > keep_lines_) lines_.pop_front();
    }
  }
  std::lock_guard<std::mutex> lock(mutex_);
  ended_ = true;
}

std::vector<std::string> StderrTail::LastLines(int milliseconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(milliseconds);
  for (;;) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (ended_ || std::chrono::steady_clock::now() >= deadline) {
        std::vector<std::string> lines(lines_.begin(), lines_.end());
        if (!partial_.empty()) lines.push_back(partial_);
        return lines;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace bravebot
