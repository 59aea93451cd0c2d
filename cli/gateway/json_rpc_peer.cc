#include "cli/gateway/json_rpc_peer.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <iostream>
#include <utility>

#include "base/bounded_json.h"
#include "supervisor/mcp/line_splitter.h"

namespace bravebot {
namespace {

// Past this much written and not yet taken by the other end, whoever writes
// waits: a client that never reads costs the gateway at most this.
constexpr std::size_t kMostQueuedBytes = std::size_t{64} << 20;
// How long the end waits for what is queued to be read.
constexpr auto kLongestDrain = std::chrono::seconds(5);

std::string Line(const Json& message) {
  return message.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

// Waits until `fd` can be written or read, or `wake` is signalled.
bool WaitFor(int fd, short events, int wake) {
  pollfd watched[2] = {{fd, events, 0}, {wake, POLLIN, 0}};
  while (::poll(watched, wake >= 0 ? 2 : 1, -1) < 0) {
    if (errno != EINTR) return false;
  }
  return (watched[1].revents & POLLIN) == 0;
}

}  // namespace

JsonRpcPeer::JsonRpcPeer(int read_fd, int write_fd, std::string name, bool owns_fds)
    : read_fd_(read_fd), write_fd_(write_fd), name_(std::move(name)), owns_fds_(owns_fds) {
  wake_reader_ = ::eventfd(0, EFD_CLOEXEC);
  wake_writer_ = ::eventfd(0, EFD_CLOEXEC);
}

void JsonRpcPeer::StopReading() {
  std::uint64_t one = 1;
  if (wake_reader_ >= 0) (void)!::write(wake_reader_, &one, sizeof(one));
  if (reader_.joinable()) reader_.join();
}

JsonRpcPeer::~JsonRpcPeer() {
  CloseOutput();
  {
    // What was queued is written while the other end reads it; one that
    // reads nothing more is not waited for without end.
    std::unique_lock lock(mutex_);
    if (!writer_done_ && writer_.joinable() &&
        !queue_changed_.wait_for(lock, kLongestDrain, [this] { return writer_done_; })) {
      std::uint64_t one = 1;
      (void)!::write(wake_writer_, &one, sizeof(one));
    }
  }
  if (writer_.joinable()) writer_.join();
  if (write_flags_ >= 0) ::fcntl(write_fd_, F_SETFL, write_flags_);
  if (wake_writer_ >= 0) ::close(wake_writer_);
  StopReading();
  if (wake_reader_ >= 0) ::close(wake_reader_);
  if (owns_fds_) ::close(read_fd_);
}

void JsonRpcPeer::Start(Handler handler, std::function<void()> on_end) {
  handler_ = std::move(handler);
  on_end_ = std::move(on_end);
  // Non-blocking, so that a writer the other end never reads from again
  // can be given up (the flags it came with are given back at the end).
  write_flags_ = ::fcntl(write_fd_, F_GETFL);
  if (write_flags_ >= 0) ::fcntl(write_fd_, F_SETFL, write_flags_ | O_NONBLOCK);
  writer_ = std::thread([this] { WriteLoop(); });
  reader_ = std::thread([this] { ReadLoop(); });
}

std::future<Answer> JsonRpcPeer::Call(const std::string& method, Json params) {
  std::int64_t id = 0;
  return Call(method, std::move(params), id);
}

std::future<Answer> JsonRpcPeer::Call(const std::string& method, Json params, std::int64_t& id) {
  auto promise = std::make_shared<std::promise<Answer>>();
  std::future<Answer> answer = promise->get_future();
  id = CallThen(method, std::move(params),
                [promise](Answer answered) { promise->set_value(std::move(answered)); });
  return answer;
}

std::int64_t JsonRpcPeer::CallThen(const std::string& method, Json params, Then then) {
  std::int64_t id = 0;
  bool ended = false;
  Then unanswerable;  // called below, out of the lock, where the other end is gone
  {
    std::lock_guard lock(mutex_);
    id = next_id_++;
    ended = ended_;
    if (ended) {
      unanswerable = std::move(then);
    } else {
      waiting_[id] = std::move(then);
    }
  }
  if (ended) {  // the other end is gone: nothing is sent, nothing will answer
    unanswerable(Answer::Ended());
    return id;
  }
  Json request = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) request["params"] = std::move(params);
  Write(Line(request));
  return id;
}

void JsonRpcPeer::Notify(const std::string& method, Json params) {
  Json notification = {{"jsonrpc", "2.0"}, {"method", method}};
  if (!params.is_null()) notification["params"] = std::move(params);
  Write(Line(notification));
}

void JsonRpcPeer::Reply(const std::string& id_text, const std::string& result_text) {
  Write("{\"jsonrpc\":\"2.0\",\"id\":" + id_text + ",\"result\":" + result_text + "}\n");
}

void JsonRpcPeer::ReplyError(const std::string& id_text, int code, const std::string& message) {
  Json error = {{"code", code}, {"message", message}};
  Write("{\"jsonrpc\":\"2.0\",\"id\":" + id_text +
        ",\"error\":" + error.dump(-1, ' ', false, Json::error_handler_t::replace) + "}\n");
}

void JsonRpcPeer::Write(std::string line) {
  std::unique_lock lock(mutex_);
  queue_changed_.wait(lock, [this] { return closing_ || queued_bytes_ < kMostQueuedBytes; });
  if (closing_) return;
  if (queue_.empty() && !writing_) {
    // Nothing waits before it: written here and now, as far as the other end
    // takes it without waiting, which spares the writing thread's wake-up on
    // every message; the rest is left to that thread.
    writing_ = true;
    lock.unlock();
    std::size_t written = 0;
    while (written < line.size()) {
      ssize_t wrote = ::write(write_fd_, line.data() + written, line.size() - written);
      if (wrote > 0) {
        written += static_cast<std::size_t>(wrote);
      } else if (!(wrote < 0 && errno == EINTR)) {
        break;  // full (EAGAIN), or broken: the writing thread finds out which
      }
    }
    lock.lock();
    writing_ = false;
    line.erase(0, written);
    if (line.empty()) {
      // The writing thread waits for lines queued meanwhile, or for the end:
      // otherwise waking it would only cost the wake-up this path saves.
      if (!queue_.empty() || closing_) queue_changed_.notify_all();
      return;
    }
    // Lines queued meanwhile come after the rest of this one.
    queued_bytes_ += line.size();
    queue_.push_front(std::move(line));
    queue_changed_.notify_all();
    return;
  }
  queued_bytes_ += line.size();
  queue_.push_back(std::move(line));
  queue_changed_.notify_all();
}

void JsonRpcPeer::CloseOutput() {
  std::lock_guard lock(mutex_);
  closing_ = true;
  queue_changed_.notify_all();
}

bool JsonRpcPeer::ended() const {
  std::lock_guard lock(mutex_);
  return ended_;
}

void JsonRpcPeer::WriteLoop() {
  bool broken = false;
  for (;;) {
    std::string line;
    {
      std::unique_lock lock(mutex_);
      queue_changed_.wait(lock, [this] { return (closing_ || !queue_.empty()) && !writing_; });
      if (queue_.empty()) break;  // closing, and everything queued is written
      line = std::move(queue_.front());
      queue_.pop_front();
      queued_bytes_ -= line.size();
      writing_ = true;
      queue_changed_.notify_all();
    }
    std::size_t written = 0;
    while (!broken && written < line.size()) {
      ssize_t wrote = ::write(write_fd_, line.data() + written, line.size() - written);
      if (wrote > 0) {
        written += static_cast<std::size_t>(wrote);
      } else if (wrote < 0 && errno == EAGAIN) {
        if (!WaitFor(write_fd_, POLLOUT, wake_writer_)) broken = true;  // given up
      } else if (wrote < 0 && errno == EINTR) {
        continue;
      } else {
        broken = true;  // it closed its input: nothing we write is read
      }
    }
    std::lock_guard lock(mutex_);
    writing_ = false;
    queue_changed_.notify_all();
  }
  if (owns_fds_) ::close(write_fd_);
  std::lock_guard lock(mutex_);
  writer_done_ = true;
  queue_changed_.notify_all();
}

void JsonRpcPeer::ReadLoop() {
  LineSplitter lines;
  char chunk[65536];
  for (;;) {
    if (!WaitFor(read_fd_, POLLIN, wake_reader_)) return;  // we are ending
    ssize_t got = ::read(read_fd_, chunk, sizeof(chunk));
    if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (got <= 0) break;
    lines.Feed(std::string_view(chunk, static_cast<std::size_t>(got)));
    while (std::optional<std::string> line = lines.Next()) Take(std::move(*line));
    if (lines.overflowed()) {
      std::cerr << "bravebot-mcp gateway: " << name_
                << " wrote a line longer than 16 MiB, which is no message; the gateway reads "
                   "no more of it\n";
      break;
    }
  }
  if (std::optional<std::string> last = lines.Rest(); last && !lines.overflowed()) {
    Take(std::move(*last));
  }
  GiveUpWaiting();
  if (on_end_) on_end_();
}

void JsonRpcPeer::GiveUpWaiting() {
  std::map<std::int64_t, Then> waiting;
  {
    std::lock_guard lock(mutex_);
    ended_ = true;
    waiting.swap(waiting_);
  }
  for (auto& [id, then] : waiting) then(Answer::Ended());
}

void JsonRpcPeer::Take(std::string line) {
  if (line.find_first_not_of(" \t\r") == std::string::npos) return;
  Json message;
  const JsonRefusal refusal = ReadBoundedJson(line, message);
  if (refusal == JsonRefusal::kTooDeep || refusal == JsonRefusal::kTooWide) {
    ReplyError("null", -32700,
               "the line is JSON nested deeper than 128 levels or an object of more than 4096 "
               "members, which no MCP message needs");
    return;
  }
  if (refusal != JsonRefusal::kNone) {
    ReplyError("null", -32700, "the line is not JSON");
    return;
  }
  if (!message.is_object()) {
    ReplyError("null", -32600, "a message is one JSON object a line; a batch is not accepted");
    return;
  }
  const bool is_answer =
      !message.contains("method") && (message.contains("result") || message.contains("error"));
  if (!is_answer) {
    const std::string id = message.contains("id") ? message["id"].dump() : "";
    if (!message["method"].is_string()) {
      if (!id.empty()) ReplyError(id, -32600, "the method is no string");
      return;
    }
    // MCP's params are an object; a handler reads them as one.
    if (message.contains("params") && !message["params"].is_object() &&
        !message["params"].is_null()) {
      if (!id.empty()) ReplyError(id, -32602, "params must be an object");
      return;
    }
    try {
      handler_(Incoming{std::move(line), std::move(message)});
    } catch (const nlohmann::json::exception&) {
      // A member of another type than MCP gives it, read as that type: the
      // message is refused, and nothing else is lost.
      if (!id.empty()) ReplyError(id, -32602, "a member of the message is not what MCP says");
    }
    return;
  }
  const Json& id = message["id"];
  if (!id.is_number_integer()) return;  // no request of ours has such an id
  Then then;
  {
    std::lock_guard lock(mutex_);
    auto found = waiting_.find(id.get<std::int64_t>());
    if (found == waiting_.end()) return;  // answered already, or never asked
    then = std::move(found->second);
    waiting_.erase(found);
  }
  Answer answer;
  answer.line = std::move(line);
  answer.message = std::move(message);
  then(std::move(answer));
}

}  // namespace bravebot
