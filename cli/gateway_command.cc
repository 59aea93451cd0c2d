// bravebot-mcp gateway: the checkout's confined, approved MCP servers as one
// MCP server on standard input and output, for an agent that runs its own
// (`claude mcp add bravebot -- bravebot-mcp gateway`). cli/gateway/ holds
// the gateway itself; this reads its words and starts it.
#include <signal.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <boost/asio/io_context.hpp>
#include <filesystem>
#include <ostream>

#include "cli/command.h"
#include "cli/gateway/gateway.h"
#include "cli/gateway/json_rpc_peer.h"
#include "cli/stop_on_signal.h"
#include "cli/supervisor_child.h"
#include "supervisor/session/session_output.h"

namespace bravebot {
namespace {

constexpr char kDescription[] =
    "Serves the MCP servers the directory's .bravebot settings ask for as one MCP server on "
    "standard input and output, for an agent that runs MCP servers itself: claude mcp add "
    "bravebot -- bravebot-mcp gateway. Each server is started confined through "
    "bravebot-supervisor, and every question a session asks (the server, its tool list, each "
    "call) is put to the person through the client (MCP elicitation). docs/gateway.md says more.";

int RunGateway(const std::vector<std::string>& words, CommandContext& context) {
  GatewayOptions options;
  options.cwd = context.cwd;
  CLI::App app(kDescription, "bravebot-mcp gateway");
  app.add_option("--dir", options.directory,
                 "the directory whose servers are served (default: the client's first root, "
                 "else the directory it is started in)");
  app.add_flag("--incognito", options.incognito, "write nothing under the profile directory");
  app.add_flag("--dangerously-skip-permissions", options.skip_permissions,
               "answer every question yes without putting it, and record nothing");
  app.add_option("--startup-timeout", options.startup_timeout_seconds,
                 "seconds a server has to answer initialize as it starts (1 to 600, default 30)")
      ->check(CLI::Range(1, 600));
  std::vector<std::string> reversed(words.rbegin(), words.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    context.out << app.help();
    return kExitOk;
  } catch (const CLI::ParseError&) {
    return Report(context, "gateway",
                  Error(ErrorCode::kUsage,
                        "gateway takes --dir DIR, --incognito, --dangerously-skip-permissions "
                        "and --startup-timeout SECONDS (1 to 600); bravebot-mcp gateway --help "
                        "says more"));
  }
  options.incognito = options.incognito || IsIncognito(context);
  if (!options.directory.empty()) {
    std::error_code error;
    std::filesystem::path absolute = std::filesystem::absolute(options.directory, error);
    if (error || !std::filesystem::is_directory(absolute, error)) {
      return Report(context, "gateway",
                    Error(ErrorCode::kUsage, "--dir " + options.directory +
                                                 " is not a directory: give the checkout whose "
                                                 "servers the gateway serves"));
    }
    options.directory = absolute.lexically_normal().string();
    if (options.directory.size() > 1 && options.directory.back() == '/') {
      options.directory.pop_back();
    }
  }
  // A client that went away makes a write fail, not end the gateway; a
  // signal closes the session as the end of input does.
  ::signal(SIGPIPE, SIG_IGN);
  StopOnSignal::Install();
  Result<std::unique_ptr<SupervisorChild>> supervisor =
      SupervisorChild::StartOursBesideUs(context.fs, "no server can be served");
  if (!supervisor) return Report(context, "gateway", supervisor.error());
  int status = kExitFailed;
  int stopped_by = 0;
  {
    // One loop, on this thread, carries the whole gateway.
    boost::asio::io_context io;
    JsonRpcPeer to_supervisor(io, (*supervisor)->output_fd(), (*supervisor)->input_fd(),
                              "bravebot-supervisor", JsonBounds{.max_depth = kMaxSessionJsonDepth});
    JsonRpcPeer to_client(io, STDIN_FILENO, STDOUT_FILENO, "the client");
    Gateway gateway(io, options, to_client, to_supervisor);
    StopOnSignal watching([&gateway, &stopped_by](int signal) {
      stopped_by = signal;
      gateway.Stop();
    });
    status = gateway.Run();
  }
  (*supervisor)->Wait();
  if (stopped_by != 0) EndBySignal(stopped_by);
  return status;
}

}  // namespace

const CommandSpec kGatewayCommand = {
    "gateway", "serve this checkout's servers to an agent, as one MCP server", "", nullptr, nullptr,
    RunGateway};

}  // namespace bravebot
