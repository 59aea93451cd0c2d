#include "supervisor/servers/http_client.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <boost/asio/steady_timer.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "supervisor/mcp/sse_parser.h"
#include "tests/supervisor/testing/scripted_http_server.h"

namespace bravebot {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using ::testing::HasSubstr;
using testing::ScriptedAnswer;
using testing::ScriptedHttpServer;
using ::testing::StartsWith;

// What came of one transfer.
struct Outcome {
  std::optional<HttpResponseHead> head;
  std::string body;
  std::vector<std::size_t> pieces;  // the size of each piece of the body given
  std::optional<Status> done;
};

class HttpClientTest : public ::testing::Test {
 protected:
  // Sends `request` to `url` and runs the loop until it is over (or 10 s).
  Outcome Run(const std::string& url, const HttpRequest& request,
              milliseconds timeout = seconds(5)) {
    Outcome outcome;
    http_.Send(url, request, timeout,
               {[&](const HttpResponseHead& head) { outcome.head = head; },
                [&](std::string_view bytes) {
                  outcome.body += bytes;
                  outcome.pieces.push_back(bytes.size());
                },
                [&](Status done) {
                  outcome.done = std::move(done);
                  io_.stop();
                }});
    RunFor(seconds(10));
    return outcome;
  }
  void RunFor(milliseconds most) {
    boost::asio::steady_timer guard(io_, most);
    guard.async_wait([&](const boost::system::error_code& error) {
      if (!error) io_.stop();
    });
    io_.restart();
    io_.run();
  }

  StreamableHttpClient client_;
  boost::asio::io_context io_;
  HttpClient http_{io_, "docs"};
};

ScriptedAnswer Answer(const std::string& head_and_body) { return {{{head_and_body}}}; }

TEST_F(HttpClientTest, APostIsSentWithItsHeadersAndItsAnswerComesWhole) {
  ScriptedHttpServer server(
      {Answer("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
              "Mcp-Session-Id: s-1\r\nContent-Length: 11\r\n"
              "Connection: close\r\n\r\n{\"id\": 1}\n\n")});
  Outcome outcome = Run(server.Url("/mcp"), client_.Post(R"({"jsonrpc":"2.0","id":1})"));
  ASSERT_TRUE(outcome.done);
  EXPECT_TRUE(*outcome.done) << outcome.done->error().message();
  ASSERT_TRUE(outcome.head);
  EXPECT_EQ(outcome.head->status, 200);
  EXPECT_EQ(outcome.head->content_type, "application/json");
  EXPECT_EQ(outcome.head->session_id, "s-1");
  EXPECT_EQ(outcome.body, "{\"id\": 1}\n\n");
  ASSERT_EQ(server.requests().size(), 1u);
  const std::string request = server.requests()[0];
  EXPECT_THAT(request, StartsWith("POST /mcp HTTP/1.1\r\n"));
  EXPECT_THAT(request, HasSubstr("\r\nAccept: application/json, text/event-stream\r\n"));
  EXPECT_THAT(request, HasSubstr("\r\nContent-Type: application/json\r\n"));
  EXPECT_THAT(request, ::testing::EndsWith("\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1}"));
  EXPECT_EQ(http_.transfers(), 0u);
}

TEST_F(HttpClientTest, AnEventStreamComesPieceByPieceAsItIsSent) {
  ScriptedHttpServer server(
      {{{{"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
          "Connection: close\r\n\r\nid: p\ndata:\n\n",
          milliseconds(150)},
         {"data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\n",
          milliseconds(150)},
         {"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n"}}}});
  Outcome outcome = Run(server.Url("/mcp"), client_.Post("{}"));
  ASSERT_TRUE(outcome.done);
  EXPECT_TRUE(*outcome.done);
  EXPECT_GE(outcome.pieces.size(), 3u);  // each given when it came, not at the end
  SseParser events;
  events.Feed(outcome.body);
  std::vector<std::string> data;
  while (auto event = events.Next()) data.push_back(event->data);
  EXPECT_EQ(data.size(), 3u);
  EXPECT_EQ(data.back(), R"({"jsonrpc":"2.0","id":1,"result":{}})");
}

TEST_F(HttpClientTest, ARedirectIsNotFollowed) {
  ScriptedHttpServer server(
      {Answer("HTTP/1.1 307 Temporary Redirect\r\nLocation: /mcp/\r\n"
              "Content-Length: 0\r\nConnection: close\r\n\r\n")});
  Outcome outcome = Run(server.Url("/mcp"), client_.Post("{}"));
  ASSERT_TRUE(outcome.head);
  EXPECT_EQ(outcome.head->status, 307);
  EXPECT_EQ(outcome.head->location, "/mcp/");
  ASSERT_TRUE(outcome.done);
  EXPECT_TRUE(*outcome.done);
  EXPECT_EQ(server.requests().size(), 1u);
}

TEST_F(HttpClientTest, EveryFailureIsSaidInOurWords) {
  ScriptedHttpServer cut(
      {Answer("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
              "Content-Length: 100\r\n\r\n{\"jsonrpc\"")});
  Outcome cut_short = Run(cut.Url("/mcp"), client_.Post("{}"));
  ASSERT_TRUE(cut_short.done);
  ASSERT_FALSE(*cut_short.done);
  EXPECT_EQ(cut_short.done->error().message(),
            "docs closed the connection before its answer was whole");

  ScriptedHttpServer silent({ScriptedAnswer{{}, /*close=*/false}});
  Outcome timed_out = Run(silent.Url("/mcp"), client_.Post("{}"), seconds(1));
  ASSERT_TRUE(timed_out.done);
  ASSERT_FALSE(*timed_out.done);
  EXPECT_EQ(timed_out.done->error().message(), "no answer from docs within 1 s");

  int port = 0;
  {
    ScriptedHttpServer gone({});
    port = gone.port();
  }
  Outcome refused = Run("http://127.0.0.1:" + std::to_string(port) + "/mcp", client_.Post("{}"));
  ASSERT_TRUE(refused.done);
  ASSERT_FALSE(*refused.done);
  EXPECT_EQ(refused.done->error().message(), "docs was not reached: the connection was refused");

  // Switching to another protocol nobody asked for, then bytes without end.
  ScriptedHttpServer switching({ScriptedAnswer{
      {{"HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\n\r\n" + std::string(65536, 'x')},
       {std::string(65536, 'y')}},
      /*close=*/false}});
  Outcome switched = Run(switching.Url("/mcp"), client_.Post("{}"));
  ASSERT_TRUE(switched.done);
  ASSERT_FALSE(*switched.done);
  EXPECT_EQ(switched.done->error().message(),
            "docs answered with something that is no HTTP answer");
  EXPECT_EQ(switched.body, "");

  Outcome not_a_url = Run("ftp://127.0.0.1/mcp", client_.Post("{}"));
  ASSERT_TRUE(not_a_url.done);
  ASSERT_FALSE(*not_a_url.done);
  EXPECT_THAT(not_a_url.done->error().message(),
              HasSubstr("docs was not reached: the url is not an http or https url"));
}

// An attack by a service: a head without end, here 20 MiB of challenges,
// which the head reader joins into one. The transfer is ended past
// kMostHeadBytes, whatever bound the machine's libcurl has of its own (300
// KB since 8.3), and what was kept of the head is small.
TEST_F(HttpClientTest, AHeadWithoutEndIsRefusedAndLittleOfItKept) {
  const std::string challenge =
      "WWW-Authenticate: Bearer realm=\"" + std::string(1000, 'x') + "\"\r\n";
  std::vector<testing::ScriptedPiece> pieces = {{"HTTP/1.1 401 Unauthorized\r\n"}};
  std::string piece;
  for (int i = 0; i < 20 * 1024; ++i) {
    piece += challenge;
    if (piece.size() >= std::size_t{64} * 1024)
      pieces.push_back({std::exchange(piece, std::string())});
  }
  pieces.push_back({piece + "Content-Length: 0\r\n\r\n"});
  ScriptedHttpServer endless({ScriptedAnswer{pieces}});
  Outcome outcome = Run(endless.Url("/mcp"), client_.Post("{}"));
  ASSERT_TRUE(outcome.done);
  ASSERT_FALSE(*outcome.done);
  EXPECT_THAT(outcome.done->error().message(),
              HasSubstr("docs answered with something that is no HTTP answer"));
  if (outcome.head) {
    EXPECT_LE(outcome.head->www_authenticate.size(), kMostChallengeBytes);
  }
}

TEST_F(HttpClientTest, ACancelledTransferSaysNothingMore) {
  ScriptedHttpServer silent({ScriptedAnswer{{}, /*close=*/false}});
  bool called = false;
  HttpClient::TransferId id =
      http_.Send(silent.Url("/mcp"), client_.Post("{}"), seconds(5),
                 {[&](const HttpResponseHead&) { called = true; },
                  [&](std::string_view) { called = true; }, [&](const Status&) { called = true; }});
  boost::asio::steady_timer later(io_, milliseconds(200));
  later.async_wait([&](const boost::system::error_code&) { http_.Cancel(id); });
  RunFor(milliseconds(600));
  EXPECT_FALSE(called);
  EXPECT_EQ(http_.transfers(), 0u);
  EXPECT_EQ(silent.requests().size(), 1u);
}

TEST_F(HttpClientTest, APausedClientReadsNothingMoreAndIsNotWokenForIt) {
  std::vector<testing::ScriptedPiece> pieces = {
      {"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n"}};
  for (int i = 0; i < 64; ++i) {
    pieces.push_back({"data: " + std::string(4000, 'x') + "\n\n", milliseconds(10)});
  }
  ScriptedHttpServer server({ScriptedAnswer{pieces, /*close=*/false}});
  std::string body;
  bool head = false;
  http_.Send(server.Url("/mcp"), client_.Post("{}"), seconds(10),
             {[&](const HttpResponseHead&) { head = true; },
              [&](std::string_view bytes) { body += bytes; }, [&](const Status&) {}});
  // Paused once the head came: what came with it is given, nothing after.
  boost::asio::steady_timer pause(io_, milliseconds(100));
  pause.async_wait([&](const boost::system::error_code&) { http_.Pause(); });
  RunFor(milliseconds(200));
  ASSERT_TRUE(head);
  const std::size_t before = body.size();
  const std::size_t actions = http_.actions();
  RunFor(milliseconds(300));
  EXPECT_EQ(body.size(), before);
  EXPECT_LT(before, 64u * 4008u);  // more was sent meanwhile, and waits
  // Not woken again and again by the socket it no longer reads.
  EXPECT_LT(http_.actions() - actions, 20u);
  http_.Resume();
  RunFor(milliseconds(1500));
  EXPECT_EQ(body.size(), 64u * 4008u);
}

TEST_F(HttpClientTest, AHostTwoReadersReadApartIsRefusedAndGetsNothing) {
  ScriptedHttpServer server({Answer("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")});
  const std::string port = std::to_string(server.port());
  // libcurl reads each as 127.0.0.1, where the url says something else.
  for (const std::string& url : {"http://127.1:" + port + "/mcp", "http://0x7f.1:" + port + "/mcp",
                                 "http://2130706433:" + port + "/mcp"}) {
    Outcome outcome = Run(url, client_.Post("{}"));
    ASSERT_TRUE(outcome.done) << url;
    ASSERT_FALSE(*outcome.done) << url;
    EXPECT_EQ(outcome.done->error().message(),
              "docs was not reached: its url spells its host in a way a connection could read "
              "as another, so nothing was sent")
        << url;
  }
  EXPECT_EQ(server.requests().size(), 0u);
}

}  // namespace
}  // namespace bravebot
