#include "cli/service_bridge.h"

#include <unistd.h>

#include <array>
#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <deque>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>

#include "base/bounded_json.h"
#include "base/shown_text.h"
#include "cli/bridged_ids.h"
#include "cli/command.h"
#include "cli/non_blocking.h"
#include "cli/stdio_bridge.h"
#include "cli/stop_on_signal.h"
#include "supervisor/mcp/line_splitter.h"
#include "supervisor/servers/http_channel.h"
#include "supervisor/servers/kept_sign_in.h"
#include "supervisor/servers/service_token.h"

// Boost.Asio, as the program bridge is, and libcurl runs on it: its epoll
// reactor takes a regular file or /dev/null given as standard input or
// output too, reading and writing it at once, as it never blocks.
namespace bravebot {
namespace {

using Json = nlohmann::ordered_json;
using boost::asio::posix::stream_descriptor;

class ServiceBridge {
 public:
  ServiceBridge(boost::asio::io_context& io, std::string alias, std::ostream& err)
      : io_(io),
        alias_(std::move(alias)),
        err_(err),
        input_(io, ::dup(STDIN_FILENO)),
        output_(io, ::dup(STDOUT_FILENO)),
        grace_(io) {}

  void Start(HttpChannelOptions options) {
    HttpChannelEvents events;
    events.on_line = [this](const std::string& line) { FromService(line); };
    events.on_request_failed = [this](std::int64_t id, const Error& why) {
      RequestFailed(id, why.message());
    };
    events.on_overflow = [this] {
      Fail(alias_ + " sent a message longer than 16 MiB, which bravebot-mcp does not read");
    };
    events.on_session_ended = [this](const std::string& why) { Say(why); };
    events.on_room = [this] { SendHeld(); };
    events.on_exit = [this](int) {
      channel_ended_ = true;
      FinishOnceWritten();
    };
    channel_ = HttpChannel::Open(io_, std::move(options), std::move(events));
    ReadInput();
  }

  // From the loop: a signal asked mcp-run to end. What the service sent is
  // not waited on to reach a client that may not read it any more.
  void StopBySignal() {
    client_gone_ = true;
    to_client_.clear();
    End();
    FinishOnceWritten();  // where the session ended already
  }

  int status() const { return status_; }

 private:
  void Say(const std::string& why) { err_ << "mcp-run: " << EscapeControlCharacters(why) << "\n"; }
  // What a service may do without end is said the first time only: our
  // standard error is written in the loop, and one nobody reads would hold
  // it.
  void SayOnce(bool& said, const std::string& why) {
    if (!std::exchange(said, true)) Say(why);
  }

  void ReadInput() {
    // Held while its messages wait their turn, or while the client does not
    // read what it is answered (a parse error is answered at once).
    if (reading_ || !input_open_ || ending_ || held_bytes_ > kBridgeBufferBytes ||
        to_client_.size() > kBridgeBufferBytes) {
      return;
    }
    reading_ = true;
    input_.async_read_some(boost::asio::buffer(read_buffer_),
                           [this](const boost::system::error_code& error, std::size_t got) {
                             reading_ = false;
                             from_client_.Feed(std::string_view(read_buffer_.data(), got));
                             TakeClientLines();
                             if (error) return InputEnded();
                             ReadInput();
                           });
  }

  void TakeClientLines() {
    while (!ending_) {
      std::optional<std::string> line = from_client_.Next();
      if (!line) break;
      FromClient(std::move(*line));
    }
    if (from_client_.overflowed() && !ending_) {
      Fail("the client wrote a line longer than 16 MiB, which bravebot-mcp does not read");
    }
  }

  void InputEnded() {
    input_open_ = false;
    if (std::optional<std::string> last = from_client_.Rest()) FromClient(std::move(*last));
    // Its requests still under way are given a while to be answered.
    grace_.expires_after(kBridgeGraceAfterInput);
    grace_.async_wait([this](const boost::system::error_code& error) {
      if (!error) End();
    });
    EndWhenAnswered();
  }

  static bool IsRequest(const Json& message) {
    return message.contains("method") && message.contains("id");
  }

  // One line of the client's. A reply to the service's own request goes
  // ahead of whatever waits (the service may be waiting on it to answer
  // what is under way), while fewer than 64 POSTs are under way. A request
  // or a notification waits its turn behind those held before it, and
  // while the handshake or 16 requests are under way.
  void FromClient(std::string line) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) return;
    Json message = ReadBoundedJsonOrDiscarded<Json>(line);
    if (!message.is_object()) {
      Say("a line the client wrote is not a JSON-RPC message, so it was not sent to " + alias_);
      return ToClient(Json{{"jsonrpc", "2.0"},
                           {"id", nullptr},
                           {"error", {{"code", -32700}, {"message", "Parse error"}}}}
                          .dump());
    }
    const bool reply = !message.contains("method");
    if ((!reply && !held_.empty()) || !MaySend(message)) {
      held_bytes_ += line.size();
      held_.push_back(std::move(line));
      return;
    }
    ToService(std::move(message), std::move(line));
  }

  bool MaySend(const Json& message) const {
    const bool reply = !message.contains("method");
    return (reply || !handshake_) && channel_->HasRoomFor(IsRequest(message));
  }

  void ToService(Json message, std::string line) {
    if (!message.contains("method")) {
      channel_->Write(std::move(line));  // a reply to the service's request, as it came
      return;
    }
    if (IsRequest(message)) {
      const std::int64_t ours = ids_.Outgoing(message);
      if (message["method"] == "initialize") handshake_ = ours;
      if (!channel_->Write(message.dump())) {
        RequestFailed(ours, alias_ + " was not sent the request: mcp-run is ending");
      }
      return;
    }
    if (message["method"] == "notifications/cancelled") {
      std::optional<std::int64_t> ours = ids_.Cancelled(message);
      // One for a request no longer under way is dropped: its id may be
      // one of ours by now, for another request.
      if (!ours) return;
      channel_->Write(message.dump());
      channel_->Forget(*ours);
      ids_.Finish(*ours);
      return Answered(*ours);
    }
    channel_->Write(std::move(line));  // a notification, as it came
  }

  // One message of the service's, written to the client as one line of our
  // own making: an event's data may hold line breaks, and passed on as it
  // came it could be several lines, each read as a message of the service's.
  void FromService(const std::string& line) {
    Json message = ReadBoundedJsonOrDiscarded<Json>(line);
    if (!message.is_object()) {
      return SayOnce(said_not_a_message_,
                     alias_ +
                         " sent what is not one JSON-RPC message: it was not passed on, nor "
                         "will the like be said again");
    }
    if (message.contains("method")) return ToClient(message.dump());
    auto id = message.find("id");
    const std::int64_t ours =
        id != message.end() && id->is_number_integer() ? id->get<std::int64_t>() : 0;
    if (!ids_.Incoming(message)) {
      // Not an answer to a request under way: its id is ours, and would
      // read to the client as one of its own.
      return SayOnce(said_stray_answer_,
                     alias_ +
                         " sent an answer to no request under way: it was not passed on, "
                         "nor will the like be said again");
    }
    // However it came (on another request's stream even), that request is
    // done: its POST is let go.
    channel_->Forget(ours);
    ToClient(message.dump());
    Answered(ours);
  }

  void RequestFailed(std::int64_t id, const std::string& why) {
    Say(why);
    if (std::optional<Json> client = ids_.Finish(id)) {
      ToClient(Json{{"jsonrpc", "2.0"},
                    {"id", std::move(*client)},
                    {"error", {{"code", kBridgeRequestFailed}, {"message", why}}}}
                   .dump());
    }
    Answered(id);
  }

  // A request is done: what was held back can go, from the loop, once the
  // channel has let go of the one answered.
  void Answered(std::int64_t ours) {
    if (handshake_ == ours) handshake_.reset();
    boost::asio::post(io_, [this] { SendHeld(); });
  }

  // Sends what waited and may go now: requests and notifications in their
  // order, up to the first that may not; a reply wherever it stands.
  void SendHeld() {
    bool in_order = true;
    for (auto held = held_.begin(); held != held_.end() && !ending_;) {
      Json message = ReadBoundedJsonOrDiscarded<Json>(*held);
      const bool reply = !message.contains("method");
      if ((!reply && !in_order) || !MaySend(message)) {
        if (!reply) in_order = false;
        ++held;
        continue;
      }
      std::string line = std::move(*held);
      held = held_.erase(held);
      held_bytes_ -= line.size();
      ToService(std::move(message), std::move(line));
    }
    ReadInput();
    EndWhenAnswered();
  }

  void EndWhenAnswered() {
    if (!input_open_ && held_.empty() && ids_.under_way() == 0) End();
  }

  void ToClient(const std::string& line) {
    if (client_gone_) return;
    to_client_ += line;
    to_client_ += '\n';
    if (to_client_.size() > kBridgeBufferBytes && !paused_) {
      paused_ = true;  // the service's answers wait while the client does not read
      channel_->PauseOutput();
    }
    WriteOutput();
  }

  void WriteOutput() {
    if (writing_ || to_client_.empty()) return;
    writing_ = true;
    output_.async_write_some(boost::asio::buffer(to_client_),
                             [this](const boost::system::error_code& error, std::size_t put) {
                               writing_ = false;
                               if (error) {
                                 client_gone_ = true;  // nobody reads what the service says
                                 to_client_.clear();
                                 End();
                                 return FinishOnceWritten();
                               }
                               to_client_.erase(0, put);
                               if (paused_ && to_client_.size() <= kBridgeBufferBytes / 2) {
                                 paused_ = false;
                                 channel_->ResumeOutput();
                               }
                               WriteOutput();
                               ReadInput();
                               FinishOnceWritten();
                             });
  }

  void Fail(const std::string& why) {
    Say(why);
    status_ = kExitFailed;
    End();
  }

  // The service's session is ended (DELETE); mcp-run ends once what it sent
  // is written to the client.
  void End() {
    if (ending_) return;
    ending_ = true;
    grace_.cancel();
    channel_->Stop();
  }

  void FinishOnceWritten() {
    if (channel_ended_ && (to_client_.empty() || client_gone_)) io_.stop();
  }

  boost::asio::io_context& io_;
  std::string alias_;
  std::ostream& err_;
  stream_descriptor input_;
  stream_descriptor output_;
  boost::asio::steady_timer grace_;  // after the client's input ended
  std::shared_ptr<HttpChannel> channel_;
  BridgedIds ids_;
  std::array<char, 65536> read_buffer_;
  LineSplitter from_client_;
  std::deque<std::string> held_;  // requests and notifications waiting their turn
  std::size_t held_bytes_ = 0;
  std::optional<std::int64_t> handshake_;  // our id of an initialize under way
  std::string to_client_;
  bool reading_ = false;
  bool input_open_ = true;
  bool writing_ = false;
  bool paused_ = false;
  bool client_gone_ = false;
  bool ending_ = false;
  bool channel_ended_ = false;
  bool said_not_a_message_ = false;
  bool said_stray_answer_ = false;
  int status_ = kExitOk;
};

}  // namespace

int BridgeService(const Declaration& declaration, const ServerStartOptions& options,
                  std::ostream& err) {
  Result<HttpChannelOptions> channel =
      ServiceChannelOptions(declaration, options, Asking::kOneShot);
  if (!channel) {
    err << "mcp-run: " << EscapeControlCharacters(channel.error().message()) << "\n";
    return kExitFailed;
  }
  Result<std::optional<std::string>> bearer = ServiceTokenNow(declaration, options);
  if (!bearer) {
    err << "mcp-run: " << EscapeControlCharacters(bearer.error().message()) << "\n";
    return kExitFailed;
  }
  channel->bearer = std::move(*bearer);
  if (channel->bearer) channel->sign_in_kept = SignInKeptCheck(declaration, options);
  // Set from the thread that takes signals, and read once that thread can
  // set it no more.
  std::atomic<int> signal{0};
  int status = kExitOk;
  {
    // Asio makes both non-blocking; the open files may be the shell's.
    NonBlockingWhileAlive input(STDIN_FILENO);
    NonBlockingWhileAlive output(STDOUT_FILENO);
    boost::asio::io_context io;
    ServiceBridge bridge(io, declaration.alias, err);
    bridge.Start(std::move(*channel));
    std::optional<StopOnSignal> stop_on_signal;
    stop_on_signal.emplace([&io, &bridge, &signal](int taken) {
      signal = taken;
      boost::asio::post(io, [&bridge] { bridge.StopBySignal(); });
    });
    io.run();
    stop_on_signal.reset();
    status = bridge.status();
  }
  if (signal != 0) EndBySignal(signal);
  return status;
}

}  // namespace bravebot
