// One end of a JSON-RPC connection of newline-delimited messages, as the
// gateway holds two: to its client (our standard input and output) and to
// bravebot-supervisor (the pipes to its child). Each has a thread that reads
// and a thread that writes, so neither direction ever waits on the other: a
// client that writes a whole request before it reads what we wrote, as many
// do, cannot wedge the gateway. Requests of ours are answered through
// futures, so a flow that asks and waits (a call, its question, the call
// again) reads as the protocol does, on a thread of its own.
//
//   JsonRpcPeer client(0, 1, "the client");
//   client.Start([&](Incoming message) { ... });   // requests, notifications
//   Answer answer = client.Call("elicitation/create", params).get();
//   if (answer.ended) ...;  // the client went away first
#ifndef BRAVEBOT_CLI_GATEWAY_JSON_RPC_PEER_H_
#define BRAVEBOT_CLI_GATEWAY_JSON_RPC_PEER_H_

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <future>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

namespace bravebot {

using Json = nlohmann::ordered_json;

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
  bool ended = false;  // the other end went away before it answered
  std::string line;    // as it came
  Json message;        // parsed: its `result` or its `error`
  bool is_error() const { return ended || message.contains("error"); }
};

class JsonRpcPeer {
 public:
  using Handler = std::function<void(Incoming)>;

  // Reads `read_fd` and writes `write_fd`, each closed when the peer ends
  // where `owns_fds`. `name` is said in the log ("the client").
  JsonRpcPeer(int read_fd, int write_fd, std::string name, bool owns_fds);
  ~JsonRpcPeer();  // closes its end of writing, and joins both threads

  // Starts reading: every request and notification goes to `handler`, on the
  // reading thread, which reads nothing more until it returns. `on_end`
  // runs once, on that thread, when the other end's output ends.
  void Start(Handler handler, std::function<void()> on_end);

  // Sends a request; its answer comes through the future.
  std::future<Answer> Call(const std::string& method, Json params);
  // The same, giving the id it was sent under: for a request the caller may
  // have to cancel before it is answered.
  std::future<Answer> Call(const std::string& method, Json params, std::int64_t& id);
  // Sends a request; `then` takes its answer on the reading thread, so it
  // must not wait for anything. Gives the id it was sent under.
  using Then = std::function<void(Answer)>;
  std::int64_t CallThen(const std::string& method, Json params, Then then);
  void Notify(const std::string& method, Json params);
  // Answers request `id_text` (Incoming::id_text) with `result_text`, a
  // JSON text written as it is, or with an error.
  void Reply(const std::string& id_text, const std::string& result_text);
  void ReplyError(const std::string& id_text, int code, const std::string& message);

  // No more is written after what is queued; the write end is closed once
  // that is written, which tells the other end we are done.
  void CloseOutput();
  bool ended() const;
  // Reads no more, and returns once the reading thread has ended: no
  // handler runs after it.
  void StopReading();
  // Answers every request of ours still waiting as ended, and any later one
  // at once: for a gateway that is ending while the other end lives on.
  void GiveUpWaiting();

 private:
  void Write(std::string line);
  void ReadLoop();
  void WriteLoop();
  void Take(std::string line);

  int read_fd_;
  int write_fd_;
  int wake_reader_ = -1;  // an eventfd that ends the reading thread's wait
  int wake_writer_ = -1;  // and the writing thread's
  int write_flags_ = -1;  // write_fd_'s flags as it was given
  std::string name_;
  bool owns_fds_;
  Handler handler_;
  std::function<void()> on_end_;

  mutable std::mutex mutex_;
  std::condition_variable queue_changed_;
  std::deque<std::string> queue_;  // lines to write, each with its '\n'
  std::size_t queued_bytes_ = 0;
  bool closing_ = false;
  bool ended_ = false;
  bool writer_done_ = false;
  std::int64_t next_id_ = 1;
  std::map<std::int64_t, Then> waiting_;
  bool writing_ = false;  // a thread is writing: whoever comes next queues

  std::thread reader_;
  std::thread writer_;
};

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_GATEWAY_JSON_RPC_PEER_H_
