#include "supervisor/servers/http_fetch.h"

#include <boost/asio/any_completion_handler.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <memory>
#include <optional>

#include "supervisor/auth/authorization_request.h"

namespace bravebot {

namespace {

using FetchHandler = boost::asio::any_completion_handler<void(Result<Fetched>)>;

// One fetch under way: its answer as it comes, and whom to give it.
struct Fetching {
  // Moved in as it is constructed: Boost 1.81's any_completion_handler,
  // assigned to, wraps itself in itself without end.
  explicit Fetching(FetchHandler given) : handler(std::move(given)) {}

  Fetched answer;
  FetchHandler handler;
  HttpClient::TransferId id = 0;

  void Finish(Result<Fetched> outcome) {
    if (handler) std::move(handler)(std::move(outcome));
  }
};

}  // namespace

boost::asio::awaitable<Result<Fetched>> Fetch(HttpClient& http, std::string url,
                                              HttpRequest request,
                                              std::chrono::milliseconds timeout) {
  co_return co_await boost::asio::async_initiate<decltype(boost::asio::use_awaitable),
                                                 void(Result<Fetched>)>(
      [&http, &url, &request, timeout](FetchHandler handler) {
        auto fetching = std::make_shared<Fetching>(std::move(handler));
        fetching->id = http.Send(
            url, request, timeout,
            {.on_head = [fetching](const HttpResponseHead& head) { fetching->answer.head = head; },
             .on_body =
                 [&http, fetching](std::string_view bytes) {
                   if (!fetching->handler) return;
                   if (fetching->answer.body.size() + bytes.size() > kMostFetched) {
                     http.Cancel(fetching->id);
                     fetching->Finish(Error(ErrorCode::kRefused,
                                            "its answer is larger than " +
                                                std::to_string(kMostFetched / 1024) + " KiB"));
                     return;
                   }
                   fetching->answer.body += bytes;
                 },
             .on_done =
                 [fetching](const Status& done) {
                   if (!done) {
                     fetching->Finish(done.error());
                   } else {
                     fetching->Finish(std::move(fetching->answer));
                   }
                 }});
      },
      boost::asio::use_awaitable);
}

HttpRequest TokenEndpointRequest(std::string form,
                                 const std::optional<std::string>& client_authorization) {
  HttpRequest request{"POST",
                      {{"Content-Type", kFormContentType}, {"Accept", "application/json"}},
                      std::move(form)};
  if (client_authorization) request.headers.emplace_back("Authorization", *client_authorization);
  return request;
}

}  // namespace bravebot
