// mcp-run: starts one server confined, as a session would, and shows what it
// offers, calls one tool, or bridges it to mcp-run's own standard streams.
#include "cli/mcp_run.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <ostream>

#include "base/json_depth.h"
#include "base/shown_text.h"
#include "cli/mcp_run_arguments.h"
#include "cli/profile_access.h"
#include "cli/start_options.h"
#include "cli/stderr_tail.h"
#include "cli/stdio_bridge.h"
#include "cli/stop_on_signal.h"
#include "cli/tool_list_view.h"
#include "supervisor/mcp/mcp_client.h"
#include "supervisor/policy/new_declaration.h"
#include "supervisor/store/declaration_store.h"

namespace bravebot {
namespace {

constexpr char kHelp[] = R"(usage: mcp-run ALIAS [--call TOOL JSON | --stdio] [--timeout SECONDS]
       mcp-run [--call TOOL JSON | --stdio] [--timeout SECONDS] ALIAS [add's options] -- PROGRAM [ARGS...]

Starts one MCP server confined, with exactly the reach bravebot-mcp reach
shows, makes the MCP handshake and lists its tools, then stops it and
everything it started. Nothing is asked: naming the server is the consent.

  ALIAS                 a server declared with bravebot-mcp add
  ALIAS ... -- PROGRAM  a server given here with the words add takes, run
                        without being declared (only its home is written)
  --call TOOL JSON      call one tool with these arguments and print the result
  --stdio               join the confined server to mcp-run's own standard input
                        and output, unchanged, so any MCP client can use it
  --timeout SECONDS     how long start-up and each answer may take (default 30;
                        not with --stdio, where the client does the waiting)

With --stdio, mcp-run exits with the server's exit status. SIGTERM, SIGINT and
SIGHUP stop the server and remove its temporary directory.
)";

// Every message is shown escaped: it may quote a path a server made.
int Fail(CommandContext& context, const std::string& message) {
  context.err << "mcp-run: " << EscapeControlCharacters(message) << "\n";
  return kExitFailed;
}

Result<Declaration> DeclarationToRun(const McpRunArguments& arguments,
                                     const CommandContext& context,
                                     const ProfileDirectory& profile) {
  if (arguments.ad_hoc) {
    DeclarationSurroundings around{context.cwd, profile.path(), profile.resolved_path(),
                                   &context.fs, context.UserHome()};
    return CompleteDeclaration(arguments.ad_hoc->declaration, around);
  }
  DeclarationStore store(profile);
  Result<DeclarationFile> file = store.Read();
  if (!file) return file.error();
  if (const UnusableEntry* unusable = file->FindUnusable(arguments.alias)) {
    return Error(ErrorCode::kCorrupt,
                 arguments.alias + " in " + store.path() + " cannot be used: " + unusable->problem);
  }
  const Declaration* declaration = file->Find(arguments.alias);
  if (declaration == nullptr) {
    return Error(ErrorCode::kNotFound, arguments.alias + " is not declared in " + store.path() +
                                           ": bravebot-mcp add declares it, or give it here "
                                           "after the words add takes");
  }
  return *declaration;
}

// Says why the server did not answer, in our words, with its last words on
// standard error.
int ReportStartFailure(CommandContext& context, const std::string& alias, const Error& error,
                       const McpClient& client, ConfinedServer& server, StderrTail& tail) {
  std::string message = alias + " did not start: " + error.message();
  if (client.last_failure().kind == McpFailureKind::kClosed) {
    if (std::optional<int> status = server.WaitFor(std::chrono::milliseconds(1000))) {
      message += " (it exited with status " + std::to_string(*status) + ")";
    }
  }
  // Its last words first: it may still be writing them as it ends.
  std::vector<std::string> lines = tail.LastLines();
  server.Stop(std::chrono::milliseconds(500));
  Fail(context, message);
  if (!lines.empty()) {
    context.err << "its last lines on standard error:\n";
    for (const std::string& line : lines)
      context.err << "  " << EscapeControlCharacters(line) << "\n";
  }
  return kExitFailed;
}

}  // namespace

int RunMcpRun(const std::vector<std::string>& words, CommandContext& context) {
  Result<McpRunArguments> arguments = ParseMcpRunArguments(words);
  if (!arguments) {
    Fail(context, arguments.error().message());
    return kExitUsage;
  }
  if (arguments->help) {
    context.out << kHelp;
    return kExitOk;
  }
  nlohmann::json call_arguments;
  if (arguments->call_tool) {
    if (NestsDeeperThan(arguments->call_arguments, kMaxJsonDepth)) {
      context.err << "mcp-run: the arguments --call was given are nested deeper than "
                  << kMaxJsonDepth << " levels, which no tool needs\n";
      return kExitUsage;
    }
    call_arguments = nlohmann::json::parse(arguments->call_arguments, nullptr, false);
    if (call_arguments.is_discarded() || !call_arguments.is_object()) {
      context.err << "mcp-run: --call takes the tool's arguments as a JSON object, such as "
                     "'{\"city\": \"Toronto\"}'\n";
      return kExitUsage;
    }
  }

  Result<ProfileDirectory> profile = OpenProfileToWrite(context);
  if (!profile) return Fail(context, profile.error().message());
  Result<Declaration> declaration = DeclarationToRun(*arguments, context, *profile);
  if (!declaration) return Fail(context, declaration.error().message());
  if (declaration->transport != Transport::kStdio) {
    return Fail(context, declaration->alias +
                             " is a service somewhere else, and mcp-run starts programs: "
                             "reaching a service over HTTP is not built yet");
  }

  // A server that closes its input early must not end mcp-run by SIGPIPE.
  ::signal(SIGPIPE, SIG_IGN);
  ServerStartOptions options = StartOptionsFor(context, *profile);
  Result<ConfinedServer> server = ConfinedServer::Start(*declaration, options);
  if (!server) {
    // A refusal that names the server already (the administrator's) is said as it is.
    const std::string& why = server.error().message();
    return Fail(context, why.starts_with(declaration->alias + " was not started")
                             ? why
                             : declaration->alias + " did not start: " + why);
  }
  // From here until it is stopped, a signal to mcp-run stops it too.
  StopOnSignal stop_on_signal(server->pid(), server->run_directory());
  StderrTail tail(server->stderr_fd(), arguments->bridge ? STDERR_FILENO : -1);
  if (arguments->bridge) return BridgeStdio(*server);

  const auto timeout = std::chrono::seconds(arguments->timeout_seconds);
  // Non-blocking, so a message larger than the pipe holds waits only until
  // the deadline.
  ::fcntl(server->stdin_fd(), F_SETFL, ::fcntl(server->stdin_fd(), F_GETFL) | O_NONBLOCK);
  McpClient client(server->stdin_fd(), server->stdout_fd());
  Result<InitializeResult> hello = client.Initialize(timeout);
  if (!hello) {
    return ReportStartFailure(context, declaration->alias, hello.error(), client, *server, tail);
  }
  Result<std::vector<nlohmann::ordered_json>> tools = client.ListTools(timeout);
  if (!tools) {
    return ReportStartFailure(context, declaration->alias, tools.error(), client, *server, tail);
  }
  int status = kExitOk;
  if (!arguments->call_tool) {
    context.out << DisplayToolList(declaration->alias, *tools);
  } else {
    Result<nlohmann::json> result = client.CallTool(*arguments->call_tool, call_arguments, timeout);
    if (!result) {
      Fail(context, result.error().message());
      status = kExitFailed;
    } else {
      context.out << JsonText(*result) << "\n";
      if (result->value("isError", false)) status = kExitFailed;
    }
  }
  server->Stop();
  return status;
}

}  // namespace bravebot
