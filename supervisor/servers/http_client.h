// HTTP for service servers: libcurl's multi interface driven by the
// supervisor's Boost.Asio loop, so a slow service never stalls a stdio
// server or another service. Each transfer's head, body and end come
// through its handlers, from the loop, never from inside libcurl: a handler
// may Send or Cancel.
//
// What it never does: follow a redirect (the head comes back with its
// Location, for DecideRedirect), use a proxy, speak anything but http and
// https, speak TLS older than 1.2, or skip verifying a certificate against
// the system's authorities. Each of these is a libcurl option checked as it
// is set (curl_options.h): a libcurl that refuses one reaches nothing, and
// the error names the option.
// The host it connects to is the one the url parser of `add` read
// (CURLOPT_CONNECT_TO), and a url that libcurl reads as another host is
// refused before anything is sent.
//
//   HttpClient http(io);
//   http.Send(url, client.Post(line), std::chrono::seconds(30),
//             {.on_head = ..., .on_body = ..., .on_done = [](Status done) { ... }});
#ifndef BRAVEBOT_SUPERVISOR_SERVERS_HTTP_CLIENT_H_
#define BRAVEBOT_SUPERVISOR_SERVERS_HTTP_CLIENT_H_

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.h"
#include "confine/url.h"
#include "supervisor/mcp/streamable_http.h"
#include "supervisor/servers/curl_library.h"

namespace bravebot {

struct HttpHandlers {
  // The head of the answer, once whole (after any 100 Continue).
  std::function<void(const HttpResponseHead& head)> on_head;
  // A piece of its body, in order.
  std::function<void(std::string_view bytes)> on_body;
  // The transfer is over: the whole body was given, or why not, in our
  // words naming `alias` (a timeout, a refused connection, a certificate
  // that does not verify, a connection cut). Not called after Cancel.
  std::function<void(Status done)> on_done;
};

class HttpClient {
 public:
  using TransferId = std::uint64_t;

  HttpClient(boost::asio::io_context& io, std::string alias);
  // The same on `curl` rather than the library LoadCurl loads: a test's,
  // that refuses an option, say. It outlives the client.
  HttpClient(boost::asio::io_context& io, std::string alias, const CurlLibrary& curl);
  ~HttpClient();  // every transfer still under way is cancelled
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // Sends `request` to `url`; `timeout` bounds the whole transfer (zero: no
  // bound, for a stream). A url refused before anything is sent (not one
  // `add` could declare, or read by libcurl as another host), or a machine
  // where libcurl could not be loaded, or refused an option, is given to
  // on_done from the loop, as every other outcome is; nothing was sent then.
  TransferId Send(const std::string& url, const HttpRequest& request,
                  std::chrono::milliseconds timeout, HttpHandlers handlers);
  // Declared headers (add --header), sent with every request from now on
  // whose url is of the origin of `declared_url`, and with no other: not
  // after a redirect elsewhere, not where a service moved. Kept here, where
  // every request is made, so no way of sending one can forget the rule.
  void SendToOriginOnly(const std::string& declared_url,
                        std::vector<std::pair<std::string, std::string>> headers);
  // The access token a sign-in kept, sent as `Authorization: Bearer` with
  // those headers to that origin alone, while `still_kept` (asked before
  // each request, where given) says it is kept: once it says no, the token
  // is sent with no request again, whichever way it is made (a POST, the
  // GET stream and each of its reconnections, the DELETE at the end).
  void SendSignIn(std::string access_token, std::function<bool()> still_kept);
  // Whether a sign-in's token still goes with requests to the origin.
  bool sends_sign_in() const { return access_token_.has_value(); }
  // Ends a transfer; its handlers are not called again.
  void Cancel(TransferId id);
  // Backpressure: no transfer reads more of its answer (what came already
  // is still given) until Resume; transfers sent meanwhile start paused.
  void Pause();
  void Resume();
  std::size_t transfers() const { return transfers_.size(); }
  // How many times libcurl was run so far: a paused client that kept being
  // woken by a socket it does not read would show it.
  std::size_t actions() const { return actions_; }

  // One transfer and one socket watched, as the .cc defines them.
  struct Transfer;
  struct Watch;

 private:
  // Takes `loaded` for libcurl, with the multi handle's options set, or
  // keeps why not for every Send.
  void SetUp(Result<const CurlLibrary*> loaded);
  // Makes `transfer`'s handle with every option set, and hands it to the
  // multi handle; or says which could not be set, and hands over nothing.
  Status Start(Transfer& transfer, const std::string& url, const ServiceUrl& parsed,
               const HttpRequest& request);
  static int OnSocket(CURL* easy, curl_socket_t fd, int what, void* client, void* socket_data);
  static int OnTimer(CURLM* multi, long timeout_ms, void* client);
  void Watching(int fd, int what);
  void Arm(const std::shared_ptr<Watch>& watch);
  void Act(int fd, int events);
  // After libcurl ran: every head and body piece that arrived, then every
  // transfer that ended, given to its handlers.
  void Deliver();
  void Fail(TransferId id, Error error);
  // Whether the access token goes with the next request: it is dropped for
  // good once still_kept_ says no.
  bool SignInStillKept();

  boost::asio::io_context& io_;
  std::string alias_;
  std::optional<ServiceUrl> declared_origin_;  // where origin_headers_ go
  std::vector<std::pair<std::string, std::string>> origin_headers_;
  std::optional<std::string> access_token_;  // sent with them
  std::function<bool()> still_kept_;         // asked before it is
  const CurlLibrary* curl_ = nullptr;        // nullptr where libcurl could not be set up,
  std::string unloaded_;                     // which this says, for every Send
  CURLM* multi_;
  boost::asio::steady_timer timer_;
  std::map<TransferId, std::unique_ptr<Transfer>> transfers_;
  std::map<int, std::shared_ptr<Watch>> watches_;
  TransferId next_id_ = 1;
  bool paused_ = false;
  std::size_t actions_ = 0;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

// A redirect's Location made absolute against the url that was answered,
// as libcurl reads urls; nothing where it names no url.
std::optional<std::string> ResolveLocation(const std::string& base, const std::string& location);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SERVERS_HTTP_CLIENT_H_
