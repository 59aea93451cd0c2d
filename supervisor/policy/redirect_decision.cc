#include "supervisor/policy/redirect_decision.h"

#include "base/shown_text.h"
#include "confine/url.h"

namespace bravebot {
namespace {

// What `reaching` names: the host, with its port where one is written.
std::string Reaching(const ServiceUrl& url) {
  const bool ipv6 = url.host.find(':') != std::string::npos;
  const std::string host = ipv6 ? "[" + url.host + "]" : url.host;
  return url.port.empty() ? host : host + ":" + url.port;
}

RedirectDecision Refuse(std::string reason) {
  RedirectDecision decision;
  decision.action = RedirectAction::kRefuse;
  decision.reason = std::move(reason);
  return decision;
}

// The start of every refusal of a target that may be shown.
std::string NotReachedAt(const Redirect& redirect) {
  return redirect.alias + " was not reached at " + EscapeControlCharacters(redirect.target) +
         ", where its reply points: ";
}

std::string NobodyToAsk(Asking asking) {
  switch (asking) {
    case Asking::kOneShot:
      return "a one-shot run asks nobody whether a server moved, so nothing was sent there";
    case Asking::kNobody:
      return "this session has nobody at a terminal to ask whether the server moved, so "
             "nothing was sent there";
    case Asking::kSkipPermissions:
      return "--dangerously-skip-permissions refuses every redirect to another place without "
             "asking, so nothing was sent there";
    case Asking::kSomebody:
      break;
  }
  return "";
}

std::string Question(const Redirect& redirect, const ServiceUrl& target) {
  return "  " + redirect.alias + " is declared at " +
         EscapeControlCharacters(redirect.declared_url) + "\n  and its reply points to " +
         EscapeControlCharacters(redirect.target) + "\n  reaching " +
         EscapeControlCharacters(Reaching(target)) +
         "\n  Nothing was sent there. A yes declares the server at that address and sends it what "
         "was being\n  sent, and every later request to the server goes there too, in this "
         "session and the next. Say\n  no unless you know the server moved." +
         (redirect.declared_headers
              ? "\n  Its headers (add --header) are for where it is declared: a yes declares it "
                "there without\n  them, and they are never sent there."
              : "") +
         (redirect.signed_in
              ? "\n  Its sign-in (bravebot-mcp login) is for where it is declared: a yes sends "
                "its token nowhere\n  else, and signing in there is anew."
              : "") +
         "\n\n  declare this server where its reply points? [y/N]";
}

}  // namespace

RedirectDecision DecideRedirect(const Redirect& redirect, const ManagedPolicy& policy) {
  if (UrlCarriesCredentials(redirect.target)) {
    return Refuse(redirect.alias +
                  " was not reached where its reply points: that url holds a user or a "
                  "password, which a declaration cannot hold, so nothing was sent there");
  }
  Result<ServiceUrl> target = ParseServiceUrl(redirect.target);
  if (!target) {
    // Not shown: what cannot be read is no address to name.
    return Refuse(redirect.alias + " was not reached where its reply points: " +
                  target.error().message() + ", so nothing was sent there");
  }
  Result<ServiceUrl> from = ParseServiceUrl(redirect.request_url);
  if (from && IsSameOrigin(*from, *target)) {
    if (redirect.followed >= kMaxSameOriginRedirects) {
      return Refuse(redirect.alias + " was not reached: its replies redirected " +
                    std::to_string(redirect.followed + 1) + " times within " +
                    EscapeControlCharacters(Reaching(*from)) +
                    ", more than bravebot-mcp follows, so the request was given up");
    }
    // A 303 turns the request into a GET of another resource, which is no
    // MCP message: only a GET follows it. Every other redirect keeps the
    // method and its body, as 307 and 308 require; a POST turned into a GET
    // would ask an MCP server for its own stream instead.
    if (redirect.status == 303 && redirect.method != "GET") {
      return Refuse(redirect.alias + " was not reached: it answered " + redirect.method +
                    " with 303 See Other, which would make the message a GET, and an MCP "
                    "message is never one");
    }
    RedirectDecision follow;
    follow.action = RedirectAction::kFollow;
    follow.url = redirect.target;
    follow.method = redirect.method;
    return follow;
  }
  // Another scheme, host or port: never followed, and the administrator's
  // host rules hold for where it points as for where it is declared.
  Declaration moved;
  moved.alias = redirect.alias;
  moved.transport = Transport::kHttp;
  moved.url = redirect.target;
  ManagedDecision admitted = Decide(policy, moved, "");
  if (!admitted.allowed) return Refuse(NotReachedAt(redirect) + admitted.reason);
  if (redirect.asking != Asking::kSomebody) {
    return Refuse(NotReachedAt(redirect) + NobodyToAsk(redirect.asking));
  }
  RedirectDecision ask;
  ask.action = RedirectAction::kAsk;
  ask.url = redirect.target;
  ask.question = Question(redirect, *target);
  return ask;
}

}  // namespace bravebot
