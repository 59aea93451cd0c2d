// What becomes of a redirect a service server answers with, decided without
// I/O. libcurl follows none by itself: each comes here. One to the same
// scheme, host and port is followed (a trailing-slash move is routine), up
// to a bound; one anywhere else is never followed and nothing is sent there:
// the person is asked whether the server moved, with the spec's words, or,
// where nobody can be asked, it is refused saying so. A target a declaration
// cannot hold (a user or a password in it, another scheme) or a host the
// administrator file refuses is refused without asking.
//
//   RedirectDecision next = DecideRedirect(redirect, policy);
//   switch (next.action) { case RedirectAction::kFollow: Send(next.url, next.method); ... }
#ifndef BRAVEBOT_SUPERVISOR_POLICY_REDIRECT_DECISION_H_
#define BRAVEBOT_SUPERVISOR_POLICY_REDIRECT_DECISION_H_

#include <string>

#include "supervisor/policy/asking.h"
#include "supervisor/policy/managed_policy.h"

namespace bravebot {

struct Redirect {
  std::string alias;
  std::string declared_url;  // where the server is declared
  std::string request_url;   // where the request that was answered went
  std::string method;        // "POST", "GET" or "DELETE"
  int status = 0;            // 301, 302, 303, 307 or 308
  std::string target;        // its Location, made absolute against request_url
  int followed = 0;          // same-origin redirects followed for this request so far
  // It was declared with headers (add --header), which go to its declared
  // origin alone: the question says a yes leaves them behind.
  bool declared_headers = false;
  // It is sent a token login kept, for where it is declared alone: the
  // question says a yes leaves it behind, to sign in there anew.
  bool signed_in = false;
  Asking asking = Asking::kSomebody;
};

enum class RedirectAction { kFollow, kAsk, kRefuse };

struct RedirectDecision {
  RedirectAction action = RedirectAction::kRefuse;
  std::string url;       // kFollow and kAsk: the target
  std::string method;    // kFollow: what to send there; the body goes with all but GET
  std::string question;  // kAsk: the whole text, ending "[y/N]"
  std::string reason;    // kRefuse: the sentence, naming the server
};

// Same-origin redirects followed for one request before it is given up.
inline constexpr int kMaxSameOriginRedirects = 10;

RedirectDecision DecideRedirect(const Redirect& redirect, const ManagedPolicy& policy);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_POLICY_REDIRECT_DECISION_H_
