// The GET stream of a service's MCP session (streamable HTTP): where it
// sends what it says of its own accord, requests and notifications, between
// our requests. HttpChannel opens it once the handshake is done, and closes
// it where a new handshake begins or the session ends. A stream that drops
// is opened again from the last event it gave (Last-Event-ID), once the
// service's retry time has passed (bounded both ways); one dropped
// kMaxListenFailures times in a row with nothing on it is given up, and one
// the service does not offer (405, or a 404 many services give a GET they do
// not serve) is never asked for again in that session.
#ifndef BRAVEBOT_SUPERVISOR_SERVERS_HTTP_LISTEN_STREAM_H_
#define BRAVEBOT_SUPERVISOR_SERVERS_HTTP_LISTEN_STREAM_H_

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "supervisor/mcp/sse_parser.h"
#include "supervisor/mcp/streamable_http.h"
#include "supervisor/servers/http_client.h"

namespace bravebot {

class HttpListenStream : public std::enable_shared_from_this<HttpListenStream> {
 public:
  struct Events {
    std::function<void(std::string message)> on_message;  // one event's data
    std::function<void()> on_overflow;  // an event too long to read: the stream is closed
  };

  // `http`, `client` and `url` (where requests go now) are the channel's,
  // which owns the stream and outlives it.
  HttpListenStream(boost::asio::io_context& io, HttpClient& http,
                   const StreamableHttpClient& client, const std::string& url, Events events);

  // Opens it where requests go, unless it is open.
  void Open();
  // Closes it, and forgets where it was: a new session's stream starts anew.
  void Close();
  // For good: the channel stops.
  void Stop();

 private:
  void OnBytes(std::string_view bytes);

  HttpClient& http_;
  const StreamableHttpClient& client_;
  const std::string& url_;
  Events events_;
  bool open_ = false;
  bool stopped_ = false;
  HttpClient::TransferId transfer_ = 0;
  SseParser events_read_;
  std::string last_event_id_;  // where a dropped stream resumes
  std::chrono::milliseconds retry_{1000};
  std::chrono::steady_clock::time_point opened_;
  int failures_ = 0;
  boost::asio::steady_timer retry_timer_;
};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SERVERS_HTTP_LISTEN_STREAM_H_
