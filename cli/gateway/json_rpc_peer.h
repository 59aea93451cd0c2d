// One end of a JSON-RPC connection of newline-delimited messages, as the
// gateway holds two: to its client (our standard input and output) and to
// bravebot-supervisor (the pipes to its child). Both live on the gateway's
// one event loop (Boost.Asio, one thread): the other end's lines are read
// by a coroutine and handed on one at a time, and what we write is written
// at once where the other end takes it, else queued and written as it reads.
// Neither direction waits on the other, so a client that writes a whole
// request before it reads what we wrote, as many do, cannot wedge the
// gateway. A request of ours is answered to a callback, or to a coroutine
// that awaits it, so a flow that asks and waits (a call, its question, the
// call again) reads as the protocol does.
//
//   JsonRpcPeer client(io, 0, 1, "the client");
//   client.Start([&](Incoming message) { ... });   // requests, notifications
//   Answer answer = co_await client.Call("elicitation/create", params);
//   if (answer.ended) ...;  // the client went away first
//
// Nothing here locks: every member is used on the loop's thread alone.
#ifndef BRAVEBOT_CLI_GATEWAY_JSON_RPC_PEER_H_
#define BRAVEBOT_CLI_GATEWAY_JSON_RPC_PEER_H_

#include <boost/asio/any_completion_handler.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "base/bounded_json.h"
#include "cli/gateway/loop_condition.h"
#include "cli/non_blocking.h"

namespace bravebot {

using Json = nlohmann::ordered_json;

// Past this much written and not yet taken by the other end, the gateway
// reads nothing more from either end until it is taken: a client that
// never reads costs the gateway about this, and no more.
inline constexpr std::size_t kMostQueuedBytes = std::size_t{64} << 20;
// How long the end waits for what is queued to be read.
inline constexpr auto kLongestDrain = std::chrono::seconds(5);

// A message the other end sent that is not an answer to one of ours.
struct Incoming {
  std::string line;  // as it came, for a member passed on as its bytes
  Json message;      // parsed
  bool is_request() const { return message.contains("id"); }
  // The id as its text, to answer with exactly the id that was sent.
  std::string id_text() const { return message.contains("id") ? message["id"].dump() : "null"; }
};

// The answer to one of our requests.
struct Answer {
  static Answer Ended() {
    Answer answer;
    answer.ended = true;
    return answer;
  }
  static Answer TimedOut() {
    Answer answer;
    answer.timed_out = true;
    return answer;
  }
  bool ended = false;      // the other end went away before it answered
  bool timed_out = false;  // not answered within the time the caller gave
  std::string line;        // as it came
  Json message;            // parsed: its `result` or its `error`
  bool is_error() const { return ended || timed_out || message.contains("error"); }
};

class JsonRpcPeer {
 public:
  using Handler = std::function<void(Incoming)>;
  using Then = std::function<void(Answer)>;
  using Duration = std::chrono::steady_clock::duration;

  // Reads `read_fd` and writes `write_fd` on `io`, through duplicates of
  // them (closed when the peer goes; the descriptors given stay open).
  // Both are non-blocking while the peer lives. `name` is said in the log
  // ("the client"). Each line read is bounded by `bounds`: the supervisor's
  // are read deeper than a client's (kMaxSessionJsonDepth), since they
  // carry what a server wrote nested in messages of their own.
  JsonRpcPeer(boost::asio::io_context& io, int read_fd, int write_fd, std::string name,
              JsonBounds bounds = {});

  // Starts reading: every request and notification goes to `handler`, one
  // at a time, in the order they came. `on_end` runs once, when the other
  // end's output ends (not after StopReading).
  void Start(Handler handler, std::function<void()> on_end);

  // Sends a request, and completes with its answer. Where `sent` is given,
  // the id it was sent under is put there as it is sent, before the answer
  // is awaited: for a request the caller may have to cancel.
  boost::asio::awaitable<Answer> Call(std::string method, Json params);
  boost::asio::awaitable<Answer> Call(std::string method, Json params, std::int64_t& sent);
  // The same, answered Answer::TimedOut() once `limit` passed.
  boost::asio::awaitable<Answer> CallWithin(std::string method, Json params, Duration limit);
  // Sends a request; `then` takes its answer as it is read, so the answer
  // reaches the caller without a turn of the loop. Gives the id it was sent
  // under.
  std::int64_t CallThen(const std::string& method, Json params, Then then);
  // Sends a request whose answer nobody waits for.
  void Tell(const std::string& method, Json params);
  void Notify(const std::string& method, Json params);
  // Answers request `id_text` (Incoming::id_text) with `result_text`, a
  // JSON text written as it is, or with an error.
  void Reply(const std::string& id_text, const std::string& result_text);
  void ReplyError(const std::string& id_text, int code, const std::string& message);

  // No more is written after what is queued, which is given kLongestDrain
  // to be read; then the writing ends.
  void CloseOutput();
  bool ended() const { return ended_; }
  // Reads no more: no handler runs after it.
  void StopReading();
  // Answers every request of ours still waiting as ended, and any later one
  // at once: for a gateway that is ending while the other end lives on.
  void GiveUpWaiting();

  // Whether more than kMostQueuedBytes wait to be taken by the other end;
  // `on_backlog` (where set) is called whenever that changes.
  bool backed_up() const { return queued_bytes_ > kMostQueuedBytes; }
  void OnBacklogChanged(std::function<void()> on_backlog) { on_backlog_ = std::move(on_backlog); }
  // While held, no more is read (a line already read waits its turn too).
  void HoldReading(bool held);

 private:
  using AnswerHandler = boost::asio::any_completion_handler<void(Answer)>;
  // The coroutine's side of a call: it resumes with the answer.
  boost::asio::awaitable<Answer> AwaitAnswer(std::string method, Json params, std::int64_t* sent,
                                             std::optional<Duration> limit);
  void StartCall(AnswerHandler handler, const std::string& method, Json params, std::int64_t* sent,
                 std::optional<Duration> limit);

  void Write(std::string line);
  void WriteQueued();
  void Written();  // the writing ended, closed or broken
  void BacklogMayHaveChanged(bool was_backed_up);
  boost::asio::awaitable<void> ReadLoop();
  // Returns once reading is not held, or it stopped.
  boost::asio::awaitable<void> WhileHeld();
  void Take(std::string line);

  boost::asio::io_context& io_;
  NonBlockingWhileAlive read_flags_;  // the descriptors' flags given back after
  NonBlockingWhileAlive write_flags_;
  boost::asio::posix::stream_descriptor input_;
  boost::asio::posix::stream_descriptor output_;
  boost::asio::steady_timer drain_;  // CloseOutput's limit
  LoopCondition reading_changed_;    // held, or stopped
  std::string name_;
  JsonBounds bounds_;
  Handler handler_;
  std::function<void()> on_end_;
  std::function<void()> on_backlog_;

  std::deque<std::string> queue_;  // lines to write, each with its '\n'
  std::size_t queued_bytes_ = 0;
  std::size_t front_written_ = 0;  // of queue_.front()
  bool writing_ = false;           // an asynchronous write is under way
  bool closing_ = false;
  bool broken_ = false;  // the other end reads no more: nothing queued is written
  bool held_ = false;
  bool stopped_ = false;
  bool ended_ = false;
  std::int64_t next_id_ = 1;
  std::map<std::int64_t, Then> waiting_;
};

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_GATEWAY_JSON_RPC_PEER_H_
