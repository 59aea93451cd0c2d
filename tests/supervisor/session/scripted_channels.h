// Scripted MCP servers put under a Supervisor through its channel seam
// (supervisor/servers/channel_factory.h), so that the session's unit tests
// run every decision of the supervisor without a process or a socket, and
// under the sanitizers. A test scripts each alias: what it answers to each
// line the supervisor writes to it (the standard answers of an MCP server,
// or its own, or none until the test releases it), and what it does of its
// own accord (a notification, a line of standard error, its output closed,
// its exit, a service's redirect).
// Every line written to it is recorded, with where it went, so a test can
// check what reached the server and what never did.
//
//   ScriptedChannels channels;
//   ScriptedServer& weather = channels.Script("weather");
//   weather.tools = {{{"name", "echo"}, {"inputSchema", {{"type", "object"}}}}};
//   Supervisor supervisor(io, machine, input, output, channels);
//   ... weather.Send({{"jsonrpc", "2.0"}, {"method", "notifications/tools/list_changed"}});
//   EXPECT_TRUE(weather.Received("tools/call").empty());
//
// As the real channels do, a scripted one says everything from the loop
// (boost::asio::post), never inside the call that caused it: an answer
// comes after Write has returned, an exit after Stop has.
#ifndef BRAVEBOT_TESTS_SUPERVISOR_SESSION_SCRIPTED_CHANNELS_H_
#define BRAVEBOT_TESTS_SUPERVISOR_SESSION_SCRIPTED_CHANNELS_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "supervisor/servers/channel_factory.h"

namespace bravebot::testing {

class ScriptedChannel;

// One alias's server: its script, what it is made to do, what it saw. It
// stays the same across the channels opened to it (a service started
// again opens a second one).
class ScriptedServer {
 public:
  using Json = nlohmann::ordered_json;

  // One line written to it, read, and where it went: a service's url, or
  // kProcess for a program's standard input.
  struct Line {
    std::string place;
    Json message;
  };
  static constexpr char kProcess[] = "process";

  explicit ScriptedServer(std::string alias) : alias_(std::move(alias)) {}

  // --- Its script, set before it starts.

  // What it answers initialize with.
  std::string protocol_version = "2025-06-18";
  Json server_info = {{"name", "scripted"}, {"version", "1.0"}};
  Json capabilities = {{"tools", {{"listChanged", true}}}};
  // Its list, as tools/list gives it, `page_size` tools a page (0: one page).
  std::vector<Json> tools;
  std::size_t page_size = 0;
  // A tools/call's result from the tool's name and arguments; nothing: it
  // is never answered (the call waits). Unset: the arguments echoed back as
  // one text content.
  std::function<std::optional<Json>(const std::string& tool, const Json& arguments)> call;
  // Asked first of every line written to it: the lines it answers, in
  // place of the standard answers; nothing: the standard answer.
  std::function<std::optional<std::vector<std::string>>(const Json& message)> script;
  // Asked of every request or line that reaches it: true holds its answer
  // back until Release(), so that a test acts while it waits.
  std::function<bool(const Json& message)> hold;
  // Opening its channel fails with this (a program not found, a
  // confinement that could not be made).
  std::optional<Error> open_error;
  // A program's status when Stop ends it (its input closed: 0 where it
  // ends then; 143 where SIGTERM had to end it).
  int stop_status = 0;
  // A service (declared with transport http): a request of method
  // `redirect_method` ("initialize": its start; "tools/call": a call) met
  // anywhere but `redirect_to` is answered with a redirect there, decided
  // as the real channel decides one (DecideRedirect, no administrator file).
  std::string redirect_to;
  std::string redirect_method;

  // --- What it does, from the test, on its open channel; each is said to
  // the supervisor from the loop. False where no channel of it is open.

  // A message of its own: a notification, a request.
  bool Send(const Json& message);
  // A raw line on its output, said as it is (no JSON needed).
  bool SendLine(std::string line);
  bool WriteStderr(std::string line);
  // Its output ends while it runs on.
  bool CloseOutput();
  // It ends by itself with `status`, as a shell gives it.
  bool Exit(int status);
  // The answers `hold` held back are given, in the order held.
  bool Release();

  // --- What it saw.

  const std::string& alias() const { return alias_; }
  // How many times a channel to it was opened (a start asked for).
  int opens() const { return opens_; }
  // Whether its channel ended (stopped, or by itself).
  bool ended() const;
  const std::vector<Line>& received() const { return received_; }
  // The messages of `method` written to it, in order.
  std::vector<Json> Received(const std::string& method) const;
  // The same, only those that went to `place`.
  std::vector<Json> ReceivedAt(const std::string& place, const std::string& method) const;

  // The standard answer of an MCP server to `message`, by the script above:
  // its lines, none for a notification or a reply.
  std::vector<std::string> StandardAnswer(const Json& message) const;

 private:
  friend class ScriptedChannel;
  friend class ScriptedChannels;

  std::string alias_;
  int opens_ = 0;
  std::vector<Line> received_;
  std::weak_ptr<ScriptedChannel> channel_;  // the one open now
};

// The factory a test's Supervisor is given. It must outlive the Supervisor
// and its loop. An alias it was given no script for fails to open with
// kNotFound, naming it.
class ScriptedChannels : public ChannelFactory {
 public:
  // The script of `alias`, made on first use.
  ScriptedServer& Script(const std::string& alias);

  Abandon Open(boost::asio::io_context& io, const Declaration& declaration,
               const ServerStartOptions& options, const ChannelSettings& settings,
               ChannelEvents events, Opened opened) const override;

 private:
  std::map<std::string, std::shared_ptr<ScriptedServer>> servers_;
};

}  // namespace bravebot::testing

#endif  // BRAVEBOT_TESTS_SUPERVISOR_SESSION_SCRIPTED_CHANNELS_H_
