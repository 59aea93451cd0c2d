#include "cli/sign_in_at_terminal.h"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <memory>
#include <optional>
#include <ostream>
#include <string>

#include "base/shown_text.h"
#include "cli/browser.h"
#include "cli/sign_in.h"
#include "cli/sign_in_words.h"
#include "cli/terminal_questions.h"
#include "confine/digest.h"
#include "launcher/isolation.h"
#include "supervisor/auth/oauth_url.h"
#include "supervisor/store/token_store.h"

namespace bravebot {
namespace {

// Runs the sign-in on a loop of its own, telling the person where to go.
Result<SignedIn> SignInAtTerminal(const SignInPlan& plan, CommandContext& context,
                                  std::ostream& said) {
  boost::asio::io_context io;
  // Its errors come after the step that reached out ("finding its
  // authorization server's metadata: it was not reached: ..."), which names
  // what "it" is: not always the service.
  HttpClient http(io, "it");
  std::optional<Result<SignedIn>> outcome;
  auto open = [&said, &plan](const std::string& url) {
    said << "To sign in to " << plan.alias
         << ", open this address in a browser (opening it now):\n  " << EscapeControlCharacters(url)
         << "\n"
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

}  // namespace

Status SignInAndKeep(const ProfileDirectory& profile, const Declaration& declaration,
                     CommandContext& context, std::ostream& said) {
  BRAVEBOT_ASSIGN_OR_RETURN(SignInPlan plan, SignInPlanFor(declaration));
  BRAVEBOT_ASSIGN_OR_RETURN(OAuthUrl service, ReadOAuthUrl(declaration.url));
  if (std::optional<std::string> warning = SharedProcessesWarning(ProbeIsolation())) {
    context.err << *warning << "\n";
  }
  // The person, at the terminal, is asked where a declared client's secret
  // would go elsewhere than the service; with no terminal it goes nowhere.
  std::unique_ptr<TerminalQuestions> terminal = TerminalQuestions::Open();
  if (terminal) {
    plan.ask = [&terminal](const std::string& question) { return IsYes(terminal->Ask(question)); };
  }
  BRAVEBOT_ASSIGN_OR_RETURN(SignedIn signed_in, SignInAtTerminal(plan, context, said));
  StoredToken token =
      ToStoredToken(signed_in, declaration.alias, ComputeDigest(declaration).hex, service.origin);
  BRAVEBOT_ASSIGN_OR_RETURN(bool kept, PutTokenWhileDeclared(profile, token));
  if (!kept) {
    return Error(ErrorCode::kRefused,
                 declaration.alias +
                     " was changed or removed while it was signed in to, so its tokens were not "
                     "kept: run login again for it as it is declared now");
  }
  said << "Signed in to " << declaration.alias << SignedInUntil(token) << ".\n" << std::flush;
  return {};
}

}  // namespace bravebot
