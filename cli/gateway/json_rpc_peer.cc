#include "cli/gateway/json_rpc_peer.h"

#include <unistd.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/post.hpp>
#include <cerrno>
#include <exception>
#include <iostream>
#include <memory>
#include <utility>
#include <vector>

#include "base/bounded_json.h"
#include "supervisor/mcp/line_splitter.h"

namespace bravebot {
namespace {

// An operation's outcome as values, never as an exception.
constexpr auto kAsValues = boost::asio::as_tuple(boost::asio::use_awaitable);

std::string Line(const Json& message) {
  return message.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

// A duplicate of `fd`, for a stream descriptor to own; -1 where it fails.
int Duplicate(int fd) { return ::fcntl(fd, F_DUPFD_CLOEXEC, 0); }

}  // namespace

JsonRpcPeer::JsonRpcPeer(boost::asio::io_context& io, int read_fd, int write_fd, std::string name,
                         JsonBounds bounds)
    : io_(io),
      read_flags_(read_fd),
      write_flags_(write_fd),
      input_(io),
      output_(io),
      drain_(io),
      reading_changed_(io.get_executor()),
      name_(std::move(name)),
      bounds_(bounds) {
  // A descriptor that cannot be taken is one that ended: reading it ends at
  // once, and writing to it writes nothing.
  boost::system::error_code ignored;
  if (const int fd = Duplicate(read_fd); fd >= 0) input_.assign(fd, ignored);
  if (const int fd = Duplicate(write_fd); fd >= 0) output_.assign(fd, ignored);
  if (!output_.is_open()) broken_ = true;
}

void JsonRpcPeer::Start(Handler handler, std::function<void()> on_end) {
  handler_ = std::move(handler);
  on_end_ = std::move(on_end);
  boost::asio::co_spawn(io_, ReadLoop(), [](const std::exception_ptr& failure) {
    if (failure) std::rethrow_exception(failure);
  });
}

boost::asio::awaitable<Answer> JsonRpcPeer::Call(std::string method, Json params) {
  return AwaitAnswer(std::move(method), std::move(params), nullptr, std::nullopt);
}

boost::asio::awaitable<Answer> JsonRpcPeer::Call(std::string method, Json params,
                                                 std::int64_t& sent) {
  return AwaitAnswer(std::move(method), std::move(params), &sent, std::nullopt);
}

boost::asio::awaitable<Answer> JsonRpcPeer::CallWithin(std::string method, Json params,
                                                       Duration limit) {
  return AwaitAnswer(std::move(method), std::move(params), nullptr, limit);
}

boost::asio::awaitable<Answer> JsonRpcPeer::AwaitAnswer(std::string method, Json params,
                                                        std::int64_t* sent,
                                                        std::optional<Duration> limit) {
  // What the call needs is kept in the operation, which starts once it is
  // awaited.
  return boost::asio::async_initiate<const boost::asio::use_awaitable_t<>&, void(Answer)>(
      [this](AnswerHandler handler, const std::string& method_taken, Json params_taken,
             std::int64_t* sent_to, std::optional<Duration> limit_given) {
        StartCall(std::move(handler), method_taken, std::move(params_taken), sent_to, limit_given);
      },
      boost::asio::use_awaitable, std::move(method), std::move(params), sent, limit);
}

void JsonRpcPeer::StartCall(AnswerHandler handler, const std::string& method, Json params,
                            std::int64_t* sent, std::optional<Duration> limit) {
  // Answered once, by whichever comes first: the answer, the other end's
  // going, or the limit. The coroutine resumes on a turn of the loop of its
  // own, never inside the reading of the answer's line.
  auto waiter = std::make_shared<AnswerHandler>(std::move(handler));
  auto timer = limit ? std::make_shared<boost::asio::steady_timer>(io_, *limit) : nullptr;
  auto complete = [this, waiter, timer](Answer answer) {
    if (!*waiter) return;
    if (timer) timer->cancel();
    boost::asio::post(io_, [handler = std::move(*waiter), answer = std::move(answer)]() mutable {
      std::move(handler)(std::move(answer));
    });
  };
  const std::int64_t id = CallThen(method, std::move(params), complete);
  if (sent != nullptr) *sent = id;
  if (timer) {
    timer->async_wait([this, id, complete](const boost::system::error_code& error) {
      if (!error && waiting_.erase(id) > 0) complete(Answer::TimedOut());
    });
  }
}

std::int64_t JsonRpcPeer::CallThen(const std::string& method, Json params, Then then) {
  const std::int64_t id = next_id_++;
  if (ended_) {  // the other end is gone: nothing is sent, nothing will answer
    then(Answer::Ended());
    return id;
  }
  waiting_[id] = std::move(then);
  Json request = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) request["params"] = std::move(params);
  Write(Line(request));
  return id;
}

void JsonRpcPeer::Tell(const std::string& method, Json params) {
  CallThen(method, std::move(params), [](const Answer&) {});
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
  if (closing_ || broken_) return;
  if (queue_.empty()) {
    // Nothing waits before it: written here and now, as far as the other
    // end takes it without waiting; only the rest waits for the loop.
    std::size_t written = 0;
    while (written < line.size()) {
      const ssize_t wrote =
          ::write(output_.native_handle(), line.data() + written, line.size() - written);
      if (wrote > 0) {
        written += static_cast<std::size_t>(wrote);
      } else if (!(wrote < 0 && errno == EINTR)) {
        break;  // full (EAGAIN), or broken: the queued write finds out which
      }
    }
    if (written == line.size()) return;
    line.erase(0, written);
  }
  const bool was_backed_up = backed_up();
  queued_bytes_ += line.size();
  queue_.push_back(std::move(line));
  WriteQueued();
  BacklogMayHaveChanged(was_backed_up);
}

void JsonRpcPeer::WriteQueued() {
  if (writing_ || queue_.empty()) return;
  writing_ = true;
  const std::string& front = queue_.front();
  output_.async_write_some(
      boost::asio::buffer(front.data() + front_written_, front.size() - front_written_),
      [this](const boost::system::error_code& error, std::size_t wrote) {
        writing_ = false;
        const bool was_backed_up = backed_up();
        if (error) {
          // It closed its input, or the drain's time ran out: nothing queued
          // is read.
          broken_ = true;
          queue_.clear();
          queued_bytes_ = 0;
          front_written_ = 0;
        } else {
          front_written_ += wrote;
          queued_bytes_ -= wrote;
          if (front_written_ == queue_.front().size()) {
            queue_.pop_front();
            front_written_ = 0;
          }
        }
        WriteQueued();
        if (!writing_) Written();
        BacklogMayHaveChanged(was_backed_up);
      });
}

void JsonRpcPeer::Written() {
  // Everything queued is written, or nothing more can be: once closing, the
  // drain ends here, and with it the writing.
  if (!closing_) return;
  drain_.cancel();
  boost::system::error_code ignored;
  output_.close(ignored);
}

void JsonRpcPeer::BacklogMayHaveChanged(bool was_backed_up) {
  if (was_backed_up != backed_up() && on_backlog_) on_backlog_();
}

void JsonRpcPeer::CloseOutput() {
  if (closing_) return;
  closing_ = true;
  if (!writing_) return Written();
  // What was queued is written while the other end reads it; one that reads
  // nothing more is not waited for without end.
  drain_.expires_after(kLongestDrain);
  drain_.async_wait([this](const boost::system::error_code& error) {
    boost::system::error_code ignored;
    if (!error) output_.cancel(ignored);  // the write under way ends, broken
  });
}

void JsonRpcPeer::HoldReading(bool held) {
  if (held_ == held) return;
  held_ = held;
  reading_changed_.NotifyAll();
}

void JsonRpcPeer::StopReading() {
  if (stopped_) return;
  stopped_ = true;
  boost::system::error_code ignored;
  input_.cancel(ignored);
  reading_changed_.NotifyAll();
}

boost::asio::awaitable<void> JsonRpcPeer::WhileHeld() {
  if (held_ && !stopped_) {
    co_await reading_changed_.Wait([this] { return !held_ || stopped_; });
  }
}

boost::asio::awaitable<void> JsonRpcPeer::ReadLoop() {
  LineSplitter lines;
  std::vector<char> chunk(65536);
  while (input_.is_open()) {
    co_await WhileHeld();
    if (stopped_) co_return;  // we are ending
    auto [error, got] = co_await input_.async_read_some(boost::asio::buffer(chunk), kAsValues);
    if (stopped_) co_return;
    lines.Feed(std::string_view(chunk.data(), got));
    while (std::optional<std::string> line = lines.Next()) {
      Take(std::move(*line));
      co_await WhileHeld();
      if (stopped_) co_return;
    }
    if (lines.overflowed()) {
      std::cerr << "bravebot-mcp gateway: " << name_
                << " wrote a line longer than 16 MiB, which is no message; the gateway reads "
                   "no more of it\n";
      break;
    }
    if (error) break;  // its output ended
  }
  if (std::optional<std::string> last = lines.Rest(); last && !lines.overflowed()) {
    Take(std::move(*last));
  }
  GiveUpWaiting();
  if (on_end_) on_end_();
}

void JsonRpcPeer::GiveUpWaiting() {
  ended_ = true;
  std::map<std::int64_t, Then> waiting;
  waiting.swap(waiting_);
  for (auto& [id, then] : waiting) then(Answer::Ended());
}

void JsonRpcPeer::Take(std::string line) {
  if (line.find_first_not_of(" \t\r") == std::string::npos) return;
  Json message;
  const JsonRefusal refusal = ReadBoundedJson(line, message, bounds_);
  if (refusal == JsonRefusal::kTooDeep || refusal == JsonRefusal::kTooWide) {
    ReplyError("null", -32700,
               "the line is JSON nested deeper than " + std::to_string(bounds_.max_depth) +
                   " levels or an object of more than " + std::to_string(bounds_.max_members) +
                   " members, which no MCP message needs");
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
  auto found = waiting_.find(id.get<std::int64_t>());
  if (found == waiting_.end()) return;  // answered already, or never asked
  Then then = std::move(found->second);
  waiting_.erase(found);
  Answer answer;
  answer.line = std::move(line);
  answer.message = std::move(message);
  then(std::move(answer));
}

}  // namespace bravebot
