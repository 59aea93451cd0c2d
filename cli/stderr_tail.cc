#include "cli/stderr_tail.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>

namespace bravebot {
namespace {

// A byte that continues a UTF-8 character: a cut line does not start with one.
bool IsContinuationByte(char c) { return (static_cast<unsigned char>(c) & 0xc0) == 0x80; }

}  // namespace

StderrTail::StderrTail(int fd, int forward_to, std::size_t keep_lines)
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
    std::string_view bytes(buffer, static_cast<std::size_t>(got));
    if (forward_to >= 0 && !Forward(forward_to, bytes)) forward_to = -1;
    std::lock_guard<std::mutex> lock(mutex_);
    Keep(bytes);
  }
  std::lock_guard<std::mutex> lock(mutex_);
  ended_ = true;
}

bool StderrTail::Forward(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t step = ::write(fd, bytes.data(), bytes.size());
    if (step > 0) {
      bytes.remove_prefix(static_cast<std::size_t>(step));
      continue;
    }
    if (step < 0 && errno == EINTR) continue;
    // The bridge makes mcp-run's standard output non-blocking, and standard
    // error is often the same open file (a terminal, 2>&1): wait for room.
    if (step < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      struct pollfd room = {fd, POLLOUT, 0};
      if (::poll(&room, 1, 50) == 0 && stop_) return false;
      continue;
    }
    return false;
  }
  return true;
}

void StderrTail::Keep(std::string_view bytes) {
  while (!bytes.empty()) {
    std::size_t newline = bytes.find('\n');
    partial_.append(bytes.substr(0, newline));
    // Trimmed only once it is twice the cap, so an endless line costs no
    // more than a copy of kMaxLineBytes now and then.
    if (partial_.size() > 2 * kMaxLineBytes) {
      partial_.erase(0, partial_.size() - kMaxLineBytes);
      partial_cut_ = true;
    }
    if (newline == std::string_view::npos) return;
    lines_.push_back(PartialShown());
    partial_.clear();
    partial_cut_ = false;
    if (lines_.size() > keep_lines_) lines_.pop_front();
    bytes.remove_prefix(newline + 1);
  }
}

std::string StderrTail::PartialShown() const {
  std::string_view kept = partial_;
  bool cut = partial_cut_;
  if (kept.size() > kMaxLineBytes) {
    kept.remove_prefix(kept.size() - kMaxLineBytes);
    cut = true;
  }
  if (!cut) return std::string(kept);
  while (!kept.empty() && IsContinuationByte(kept.front())) kept.remove_prefix(1);
  return "..." + std::string(kept);
}

std::vector<std::string> StderrTail::LastLines(int milliseconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(milliseconds);
  for (;;) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (ended_ || std::chrono::steady_clock::now() >= deadline) {
        std::vector<std::string> lines(lines_.begin(), lines_.end());
        if (!partial_.empty()) lines.push_back(PartialShown());
        return lines;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace bravebot
