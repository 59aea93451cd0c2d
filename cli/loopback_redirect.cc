#include "cli/loopback_redirect.h"

#include <fcntl.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <functional>
#include <optional>

#include "supervisor/auth/authorization_request.h"

namespace bravebot {

namespace asio = boost::asio;
namespace http = boost::beast::http;

struct LoopbackRedirect::Waiting {
  explicit Waiting(const asio::any_io_executor& executor)
      : acceptor(executor), deadline(executor) {}

  asio::ip::tcp::acceptor acceptor;
  asio::steady_timer deadline;  // cancelled when the answer comes
  std::string state;
  std::optional<Result<std::string>> outcome;
  int connections = 0;                           // being served now
  int refused = 0;                               // answers with another state, waited past
  std::function<void(const std::string&)> note;  // tells the person of each
};

namespace {

constexpr auto kBrowserTime = std::chrono::seconds(10);  // a connection's whole request
constexpr std::uint32_t kMostHead = 16 * 1024;
// A browser opens a few; more at once is someone holding the listener.
constexpr int kMostConnections = 16;

std::string HtmlEscaped(std::string_view text) {
  std::string escaped;
  for (char c : text) {
    switch (c) {
      case '&':
        escaped += "&amp;";
        break;
      case '<':
        escaped += "&lt;";
        break;
      case '>':
        escaped += "&gt;";
        break;
      case '"':
        escaped += "&quot;";
        break;
      default:
        escaped += c;
    }
  }
  return escaped;
}

http::response<http::string_body> Page(http::status status, const std::string& text) {
  http::response<http::string_body> page(status, 11);
  page.set(http::field::content_type, "text/html; charset=utf-8");
  page.set(http::field::cache_control, "no-store");
  page.set("Referrer-Policy", "no-referrer");
  page.keep_alive(false);
  page.body() = "<!doctype html>\n<meta charset=\"utf-8\">\n<title>bravebot-mcp</title>\n<p>" +
                HtmlEscaped(text) + "</p>\n";
  page.prepare_payload();
  return page;
}

// One connection of the browser's: one request read, and answered.
asio::awaitable<void> Serve(std::shared_ptr<LoopbackRedirect::Waiting> waiting,
                            asio::ip::tcp::socket socket) {
  boost::beast::tcp_stream stream(std::move(socket));
  stream.expires_after(kBrowserTime);
  boost::beast::flat_buffer buffer(kMostHead);
  http::request_parser<http::empty_body> parser;
  parser.header_limit(kMostHead);
  auto [read_error, read] =
      co_await http::async_read(stream, buffer, parser, asio::as_tuple(asio::use_awaitable));
  if (read_error || waiting->outcome) co_return;
  const auto& request = parser.get();
  const std::string target(request.target());
  http::response<http::string_body> page;
  if (request.method() != http::verb::get || target.substr(0, target.find('?')) != "/callback") {
    page = Page(http::status::not_found, "Nothing here.");
  } else if (!CarriesState(target, waiting->state)) {
    // Some other page sent the browser here (or a process of this machine
    // came): refused, and waited past, so that it cannot end a sign-in it
    // does not belong to.
    page = Page(http::status::bad_request,
                "Not signed in: this answer carries another state than the sign-in's, so it is "
                "not its answer.");
    // Said the first time only: answers without end (a process here, a
    // page in the browser) would scroll the sign-in's url away. Receive
    // counts them if the browser's answer never comes.
    if (++waiting->refused == 1 && waiting->note) {
      waiting->note(
          "An answer that is not this sign-in's (another state) came to the loopback and was "
          "refused; still waiting for the browser (any more are refused without a word).");
    }
  } else {
    Result<std::string> code = ReadAuthorizationRedirect(target, waiting->state);
    page = code ? Page(http::status::ok,
                       "Signed in. You can close this page and go back to the terminal.")
                : Page(http::status::bad_request, "Not signed in: " + code.error().message() + ".");
    waiting->outcome = std::move(code);
    waiting->acceptor.close();
    waiting->deadline.cancel();
  }
  co_await http::async_write(stream, page, asio::as_tuple(asio::use_awaitable));
}

asio::awaitable<void> Listen(std::shared_ptr<LoopbackRedirect::Waiting> waiting) {
  for (;;) {
    auto [error, socket] =
        co_await waiting->acceptor.async_accept(asio::as_tuple(asio::use_awaitable));
    if (error) co_return;  // closed: the answer came, or the time ran out
    if (waiting->connections >= kMostConnections) continue;  // the socket closes here
    ++waiting->connections;
    asio::co_spawn(waiting->acceptor.get_executor(), Serve(waiting, std::move(socket)),
                   [waiting](const std::exception_ptr&) { --waiting->connections; });
  }
}

}  // namespace

Result<std::unique_ptr<LoopbackRedirect>> LoopbackRedirect::Open(
    const asio::any_io_executor& executor) {
  auto waiting = std::make_shared<Waiting>(executor);
  const asio::ip::tcp::endpoint loopback(asio::ip::address_v4::loopback(), 0);
  boost::system::error_code error;
  waiting->acceptor.open(loopback.protocol(), error);
  // Not inherited by the browser this process starts next.
  if (!error && ::fcntl(waiting->acceptor.native_handle(), F_SETFD, FD_CLOEXEC) != 0) {
    return Error::FromErrno("make the sign-in's listener close on exec");
  }
  if (!error) waiting->acceptor.bind(loopback, error);
  if (!error) waiting->acceptor.listen(asio::socket_base::max_listen_connections, error);
  if (error) {
    return Error(ErrorCode::kSystem,
                 "could not listen on 127.0.0.1 for the sign-in's answer: " + error.message());
  }
  return std::unique_ptr<LoopbackRedirect>(new LoopbackRedirect(std::move(waiting)));
}

LoopbackRedirect::LoopbackRedirect(std::shared_ptr<Waiting> waiting)
    : waiting_(std::move(waiting)) {}

LoopbackRedirect::~LoopbackRedirect() {
  boost::system::error_code ignored;
  waiting_->acceptor.close(ignored);
  waiting_->deadline.cancel();
}

std::string LoopbackRedirect::Url() const {
  boost::system::error_code error;
  return "http://127.0.0.1:" + std::to_string(waiting_->acceptor.local_endpoint(error).port()) +
         "/callback";
}

asio::awaitable<Result<std::string>> LoopbackRedirect::Receive(
    std::string state, std::chrono::seconds timeout, std::function<void(const std::string&)> note) {
  std::shared_ptr<Waiting> waiting = waiting_;
  waiting->state = std::move(state);
  waiting->note = std::move(note);
  waiting->outcome.reset();
  waiting->refused = 0;
  waiting->deadline.expires_after(timeout);
  asio::co_spawn(waiting->acceptor.get_executor(), Listen(waiting), asio::detached);
  co_await waiting->deadline.async_wait(asio::as_tuple(asio::use_awaitable));
  boost::system::error_code ignored;
  waiting->acceptor.close(ignored);
  if (waiting->outcome) co_return std::move(*waiting->outcome);
  const std::string waited = std::to_string(timeout.count()) + " s";
  if (waiting->refused > 0) {
    co_return Error(ErrorCode::kRefused,
                    "no answer of this sign-in's came from the browser within " + waited + ": " +
                        std::to_string(waiting->refused) +
                        " with another state came and were refused (another page sent the "
                        "browser there)");
  }
  co_return Error(ErrorCode::kRefused, "no answer came from the browser within " + waited);
}

}  // namespace bravebot
