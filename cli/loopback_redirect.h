// Where a person's browser comes back to after signing in: a listener on
// 127.0.0.1 at a port the kernel picks (RFC 8252, 7.3), open for one
// answer. The answer is taken only with the state this sign-in sent, so a
// page that sends the browser here with a code of its own is refused, and
// cannot end the sign-in either. It serves at most 16 connections at once,
// each for at most 10 s: one more is closed unanswered, so what it holds
// stays bounded whoever connects. A process of this machine holding 16 idle
// connections holds up the browser's answer (a reload is taken once they
// go) but never takes the sign-in: a code goes with the state only the
// browser was given.
//
//   auto redirect = LoopbackRedirect::Open(io.get_executor());
//   ... the authorization url names redirect->Url() ...
//   Result<std::string> code = co_await redirect->Receive(state, std::chrono::minutes(5));
#ifndef BRAVEBOT_CLI_LOOPBACK_REDIRECT_H_
#define BRAVEBOT_CLI_LOOPBACK_REDIRECT_H_

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "base/result.h"

namespace bravebot {

class LoopbackRedirect {
 public:
  // Listens on 127.0.0.1 at a free port; says why not.
  static Result<std::unique_ptr<LoopbackRedirect>> Open(
      const boost::asio::any_io_executor& executor);
  ~LoopbackRedirect();  // stops listening; a browser's request under way is dropped
  LoopbackRedirect(const LoopbackRedirect&) = delete;
  LoopbackRedirect& operator=(const LoopbackRedirect&) = delete;

  // http://127.0.0.1:PORT/callback
  std::string Url() const;

  // Waits, at most `timeout`, for the browser's request to the callback
  // that carries `state`, and answers the browser a page saying how it
  // went. The authorization code, where it carries one; else why not: the
  // authorization server's error, or the time out. A request with another
  // state is answered 400 and waited past, `note` told of the first; other
  // requests (a browser's favicon) are answered 404 and waited past.
  boost::asio::awaitable<Result<std::string>> Receive(
      std::string state, std::chrono::seconds timeout,
      std::function<void(const std::string&)> note = {});

  struct Waiting;  // what the listener and each connection it serves share

 private:
  explicit LoopbackRedirect(std::shared_ptr<Waiting> waiting);

  std::shared_ptr<Waiting> waiting_;
};

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_LOOPBACK_REDIRECT_H_
