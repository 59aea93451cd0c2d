// mcp-run: starts one server confined, as a session would, and shows what it
// offers, calls one tool, or bridges it to mcp-run's own standard streams.
#include "cli/mcp_run.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>

#include "base/bounded_json.h"
#include "base/shown_text.h"
#include "cli/mcp_run_arguments.h"
#include "cli/profile_access.h"
#include "cli/service_bridge.h"
#include "cli/sign_in_at_terminal.h"
#include "cli/start_options.h"
#include "cli/stdio_bridge.h"
#include "cli/stop_on_signal.h"
#include "cli/terminal_questions.h"
#include "supervisor/policy/new_declaration.h"
#include "supervisor/servers/server_link.h"
#include "supervisor/store/declaration_store.h"
#include "supervisor/store/server_directories.h"
#include "supervisor/tools/tool_list_view.h"

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
                        and output, unchanged, so any MCP client can use it; a
                        service's messages go over HTTP, one a line
  --timeout SECONDS     how long start-up and each answer may take (default 30;
                        not with --stdio, where the client does the waiting)

With --stdio, mcp-run exits with a program server's exit status. SIGTERM,
SIGINT and SIGHUP stop the server and remove its temporary directory, or end
a service's session.
)";

// Every message is shown escaped: it may quote a path a server made.
int SayFailure(CommandContext& context, const std::string& message) {
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
  BRAVEBOT_ASSIGN_OR_RETURN(DeclarationFile file, store.Read());
  if (const UnusableEntry* unusable = file.FindUnusable(arguments.alias)) {
    return Error(ErrorCode::kCorrupt,
                 arguments.alias + " in " + store.path() + " cannot be used: " + unusable->problem);
  }
  const Declaration* declaration = file.Find(arguments.alias);
  if (declaration == nullptr) {
    return Error(ErrorCode::kNotFound, arguments.alias + " is not declared in " + store.path() +
                                           ": bravebot-mcp add declares it, or give it here "
                                           "after the words add takes");
  }
  return *declaration;
}

// Says why it did not start, in our words, with its last words on standard
// error, once it has ended.
int ReportStartFailure(CommandContext& context, const StartFailure& failure) {
  // Where it ran out of time, what gives it more.
  SayFailure(context, failure.step == StartStep::kTimeout
                          ? failure.message + "; mcp-run --timeout SECONDS gives it longer"
                          : failure.message);
  if (!failure.stderr_tail.empty()) {
    context.err << "its last lines on standard error:\n";
    for (const std::string& line : failure.stderr_tail) context.err << "  " << line << "\n";
  }
  return kExitFailed;
}

// What mcp-run does with a server it can speak to: its tool list, or one call.
struct Outcome {
  std::optional<StartFailure> start_failure;
  std::optional<std::string> failure;  // in our words
  nlohmann::json result;               // the call's result
};

// Starts `declaration` through the same ServerLink the supervisor uses, lists
// its tools or calls `tool`, and stops it; what came of it.
Outcome ListOrCall(const Declaration& declaration, const ServerStartOptions& options,
                   std::chrono::seconds timeout, const std::optional<std::string>& tool,
                   const nlohmann::json& call_arguments,
                   std::vector<nlohmann::ordered_json>& tools) {
  constexpr std::uint64_t kCallTag = 1;
  boost::asio::io_context io;
  boost::asio::steady_timer call_timer(io);
  Outcome outcome;
  std::shared_ptr<ServerLink> link;
  std::optional<StopOnSignal> stop_on_signal;
  const std::string what = tool ? "tools/call for " + EscapeControlCharacters(*tool) : "";
  auto finish = [&] { link->Stop([&](int) { io.stop(); }); };

  LinkEvents events;
  events.on_start_failed = [&](const StartFailure& failure) {
    outcome.start_failure = failure;
    finish();
  };
  events.on_started = [&] {
    tools = std::move(link->tools());
    if (!tool) return finish();
    nlohmann::ordered_json params = {{"name", *tool}};
    params["arguments"] = nlohmann::ordered_json(call_arguments);
    if (!link->Request(kCallTag, "tools/call", params, what)) {
      outcome.failure = "the server does not read its input";
      return finish();
    }
    call_timer.expires_after(timeout);
    call_timer.async_wait([&](const boost::system::error_code& error) {
      if (error || outcome.failure || !outcome.result.is_null()) return;
      outcome.failure = NoAnswerFault(what, timeout).message;
      finish();
    });
  };
  events.on_answer = [&](McpIncoming answer) {
    call_timer.cancel();
    if (answer.fault) {
      outcome.failure = answer.fault->message;
    } else if (!answer.result.is_object()) {
      outcome.failure = "the server's answer to " + what + " is not an object";
    } else {
      outcome.result = nlohmann::json(answer.result);
    }
    finish();
  };
  events.on_message = [&](McpIncoming message) {
    // A request of its own: ping is answered, anything else is a method
    // mcp-run does not have. Notifications and stray lines change nothing.
    if (message.kind != McpIncoming::Kind::kServerRequest) return;
    if (message.method == "ping") {
      link->Reply(message.message["id"], nlohmann::ordered_json::object());
    } else {
      link->ReplyError(message.message["id"], {{"code", -32601}, {"message", "Method not found"}});
    }
  };
  events.on_broken = [&](const std::string& why) {
    call_timer.cancel();
    outcome.failure = why;
  };
  events.on_exit = [&](int status) {
    call_timer.cancel();
    if (!outcome.failure && outcome.result.is_null() && tool) {
      outcome.failure = "the server closed its standard output before answering " + what +
                        " (it exited with status " + std::to_string(status) + ")";
    }
    io.stop();
  };

  ServerLink::Options link_options;
  link_options.startup_timeout = timeout;
  // Nothing else is done meanwhile: no launcher thread is made for it.
  link_options.launch_on = RunningServer::LaunchOn::kThisThread;
  // From its launch until it is stopped, a signal to mcp-run stops it too.
  // A service has no process of ours to stop.
  if (declaration.transport == Transport::kStdio) {
    events.on_launched = [&] { stop_on_signal.emplace(link->pid(), link->run_directory()); };
  }
  link = ServerLink::Start(io, declaration, options, std::move(link_options), std::move(events));
  io.run();
  if (outcome.start_failure) outcome.start_failure->stderr_tail = link->stderr_tail();
  return outcome;
}

enum class SignInOffer {
  kNotMade,   // nothing was said: the failure is still to say
  kRefused,   // said no, or the sign-in failed: both were said
  kSignedIn,  // the run starts again
};

// A declared service that asks for a sign-in, met at a terminal: the
// failure is said as ever, then the person is offered to sign in there and
// then, as `login` would. Not in an incognito run (which keeps no token),
// nor for a server given on the command line (no declaration to keep one
// for).
SignInOffer OfferSignIn(const Outcome& outcome, const Declaration& declaration,
                        const McpRunArguments& arguments, const ServerStartOptions& options,
                        const ProfileDirectory& profile, CommandContext& context) {
  if (!outcome.start_failure || outcome.start_failure->step != StartStep::kSignInNeeded ||
      options.incognito || arguments.ad_hoc) {
    return SignInOffer::kNotMade;
  }
  std::unique_ptr<TerminalQuestions> terminal = TerminalQuestions::Open();
  if (!terminal) return SignInOffer::kNotMade;
  ReportStartFailure(context, *outcome.start_failure);
  context.err.flush();
  if (!IsYes(terminal->Ask("Sign in to " + declaration.alias + " now? [y/N]"))) {
    return SignInOffer::kRefused;
  }
  // On standard error: standard output is the server's listing, which a
  // person who piped it would not see the sign-in's address in.
  if (Status signed_in = SignInAndKeep(profile, declaration, context, context.err); !signed_in) {
    SayFailure(context, signed_in.error().message());
    return SignInOffer::kRefused;
  }
  return SignInOffer::kSignedIn;
}

}  // namespace

int RunMcpRun(const std::vector<std::string>& words, CommandContext& context) {
  Result<McpRunArguments> arguments = ParseMcpRunArguments(words);
  if (arguments && arguments->ad_hoc) {
    // --header NAME and --client-secret-file are read as the run begins, as
    // add reads them.
    if (Status read = ReadHeadersFromEnvironment(*arguments->ad_hoc, context.getenv); !read) {
      arguments = read.error();
    } else if (Status secret = ReadClientSecretFile(*arguments->ad_hoc, context.fs, context.cwd);
               !secret) {
      arguments = secret.error();
    }
  }
  if (!arguments) {
    SayFailure(context, arguments.error().message());
    return kExitUsage;
  }
  if (arguments->help) {
    context.out << kHelp;
    return kExitOk;
  }
  nlohmann::json call_arguments;
  if (arguments->call_tool) {
    const JsonRefusal refusal = ReadBoundedJson(arguments->call_arguments, call_arguments);
    if (refusal == JsonRefusal::kTooDeep) {
      context.err << "mcp-run: the arguments --call was given are nested deeper than "
                  << kMaxJsonDepth << " levels, which no tool needs\n";
      return kExitUsage;
    }
    if (refusal == JsonRefusal::kTooWide) {
      context.err << "mcp-run: the arguments --call was given hold an object of more than "
                  << kMaxJsonObjectMembers << " members, which no tool needs\n";
      return kExitUsage;
    }
    if (refusal != JsonRefusal::kNone || !call_arguments.is_object()) {
      context.err << "mcp-run: --call takes the tool's arguments as a JSON object, such as "
                     "'{\"city\": \"Toronto\"}'\n";
      return kExitUsage;
    }
  }

  Result<ProfileDirectory> profile = OpenProfileToWrite(context);
  if (!profile) return SayFailure(context, profile.error().message());
  Result<Declaration> declaration = DeclarationToRun(*arguments, context, *profile);
  if (!declaration) return SayFailure(context, declaration.error().message());

  // A server that closes its input early must not end mcp-run by SIGPIPE.
  ::signal(SIGPIPE, SIG_IGN);
  ServerStartOptions options = StartOptionsFor(context, *profile);
  // What a run killed by SIGKILL left (its directory, an incognito home)
  // goes with the next.
  SweepRunDirectoriesInBackground(options.system_temporary_root);
  if (!arguments->bridge) {
    std::vector<nlohmann::ordered_json> tools;
    auto list_or_call = [&] {
      return ListOrCall(*declaration, options, std::chrono::seconds(arguments->timeout_seconds),
                        arguments->call_tool, call_arguments, tools);
    };
    Outcome outcome = list_or_call();
    const SignInOffer offer =
        OfferSignIn(outcome, *declaration, *arguments, options, *profile, context);
    if (offer == SignInOffer::kSignedIn) outcome = list_or_call();
    const int status = [&]() -> int {
      if (offer == SignInOffer::kRefused) return kExitFailed;
      if (outcome.start_failure) return ReportStartFailure(context, *outcome.start_failure);
      if (outcome.failure) return SayFailure(context, *outcome.failure);
      if (!arguments->call_tool) {
        context.out << DisplayToolList(declaration->alias, tools);
        return kExitOk;
      }
      context.out << JsonText(outcome.result) << "\n";
      return outcome.result.value("isError", false) ? kExitFailed : kExitOk;
    }();
    // What it printed is seen first. Its run directory is removed on a thread
    // of its own, as the supervisor's are; what a few seconds do not remove
    // goes with the next start's sweep.
    context.out.flush();
    AwaitRunDirectoryRemovals(kRemovalsAwaitedAtExit);
    return status;
  }

  // A service is bridged over HTTP: nothing of it runs here.
  if (declaration->transport != Transport::kStdio) {
    return BridgeService(*declaration, options, context.err);
  }
  boost::asio::io_context io;
  Result<std::shared_ptr<RunningServer>> server =
      RunningServer::StartWithRawPipes(io, *declaration, options);
  if (!server) {
    // A refusal at its start names the server already, and is said as it is.
    const std::string& why = server.error().message();
    return SayFailure(context, server.error().code() == ErrorCode::kNotStarted
                                   ? why
                                   : declaration->alias + " did not start: " + why);
  }
  // From here until it has ended, a signal to mcp-run stops it too.
  StopOnSignal stop_on_signal((*server)->pid(), (*server)->run_directory());
  return BridgeStdio(io, **server);
}

}  // namespace bravebot
