// bravebot-mcp login: signs in to a service server that asks for it (MCP's
// authorization: cli/sign_in.h), in the person's browser, and keeps the
// tokens in mcp-tokens under the declaration's digest and origin.
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <ostream>

#include "base/shown_text.h"
#include "cli/browser.h"
#include "cli/command.h"
#include "cli/declaration_lookup.h"
#include "cli/profile_access.h"
#include "cli/sign_in.h"
#include "cli/sign_in_words.h"
#include "cli/simple_options.h"
#include "cli/terminal_questions.h"
#include "confine/digest.h"
#include "supervisor/auth/oauth_url.h"
#include "supervisor/store/token_store.h"

namespace bravebot {

namespace {

SimpleCommandSpec LoginOptions() {
  return {"login",
          "Signs in to a service server (add --http) that asks for it: opens the browser at "
          "its authorization server, and keeps the tokens it gives in mcp-tokens, for the "
          "sessions that start it. Signing in again replaces them.",
          /*takes_alias=*/true,
          /*takes_json=*/false,
          {}};
}

// Runs the sign-in on a loop of its own, telling the person where to go.
Result<SignedIn> SignInAtTerminal(const SignInPlan& plan, CommandContext& context) {
  boost::asio::io_context io;
  // Its errors come after the step that reached out ("finding its
  // authorization server's metadata: it was not reached: ..."), which names
  // what "it" is: not always the service.
  HttpClient http(io, "it");
  std::optional<Result<SignedIn>> outcome;
  auto open = [&context, &plan](const std::string& url) {
    context.out << "To sign in to " << plan.alias
                << ", open this address in a browser (opening it now):\n  "
                << EscapeControlCharacters(url) << "\n"
                << std::flush;
    (void)OpenInBrowser(url);  // the address is printed whether or not a browser opened
  };
  auto note = [&context](const std::string& words) { context.err << words << "\n" << std::flush; };
  boost::asio::co_spawn(
      io,
      [&]() -> boost::asio::awaitable<void> { outcome = co_await SignIn(http, plan, open, note); },
      boost::asio::detached);
  io.run();
  if (!outcome) return Error(ErrorCode::kSystem, "the sign-in ended without an outcome");
  return std::move(*outcome);
}

int RunLogin(const SimpleOptions& options, CommandContext& context) {
  Result<ProfileDirectory> profile = OpenProfileToWrite(context);
  if (!profile) return Report(context, "login", profile.error());
  Result<Declaration> declaration = FindDeclaration(*profile, options.alias);
  if (!declaration) return Report(context, "login", declaration.error());
  Result<SignInPlan> plan = SignInPlanFor(*declaration);
  if (!plan) return Report(context, "login", plan.error());
  Result<OAuthUrl> service = ReadOAuthUrl(declaration->url);
  if (!service) return Report(context, "login", service.error());

  if (std::optional<std::string> warning = SharedProcessesWarning(ProbeIsolation())) {
    context.err << *warning << "\n";
  }
  // The person, at the terminal, is asked where a declared client's secret
  // would go elsewhere than the service; with no terminal it goes nowhere.
  std::unique_ptr<TerminalQuestions> terminal = TerminalQuestions::Open();
  if (terminal) {
    plan->ask = [&terminal](const std::string& question) { return IsYes(terminal->Ask(question)); };
  }
  Result<SignedIn> signed_in = SignInAtTerminal(*plan, context);
  if (!signed_in) return Report(context, "login", signed_in.error());
  StoredToken token =
      ToStoredToken(*signed_in, options.alias, ComputeDigest(*declaration).hex, service->origin);
  Result<bool> kept = PutTokenWhileDeclared(*profile, token);
  if (!kept) return Report(context, "login", kept.error());
  if (!*kept) {
    return Report(
        context, "login",
        Error(ErrorCode::kRefused, options.alias + " was changed or removed while it was signed in "
                                                   "to, so its tokens were not kept: run login "
                                                   "again for it as it is declared now"));
  }
  context.out << "Signed in to " << options.alias << SignedInUntil(token) << ".\n";
  return kExitOk;
}

}  // namespace

const CommandSpec kLoginCommand = {"login", "sign in to a service server that asks for it",
                                   "signed in to", LoginOptions, RunLogin};

}  // namespace bravebot
