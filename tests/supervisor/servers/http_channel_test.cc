#include "supervisor/servers/http_channel.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <boost/asio/steady_timer.hpp>
#include <map>
#include <optional>

#include "tests/supervisor/testing/scripted_http_server.h"

namespace bravebot {
namespace {

using ::testing::HasSubstr;
using testing::ScriptedAnswer;
using testing::ScriptedHttpServer;

// An answer whose head says more is coming than ever comes: `bytes` of its
// body are sent, and the rest never is.
ScriptedAnswer EndlessAnswer(std::size_t bytes) {
  return {{{"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 99999999\r\n"
            "\r\n" +
            std::string(bytes, ' ')}},
          /*close=*/false};
}

std::string Request(int id) {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":"tools/call"})";
}

// Runs `io` until it is stopped, or `most` has passed.
void RunAtMost(boost::asio::io_context& io, std::chrono::seconds most) {
  boost::asio::steady_timer guard(io, most);
  guard.async_wait([&](const boost::system::error_code& error) {
    if (!error) io.stop();
  });
  io.run();
}

// A channel to "docs" at `url` whose moves the person is asked about, with
// its handshake written.
std::shared_ptr<HttpChannel> OpenAskingThePerson(boost::asio::io_context& io,
                                                 const std::string& url, HttpChannelEvents events) {
  HttpChannelOptions options;
  options.alias = "docs";
  options.url = url;
  options.asking = Asking::kSomebody;
  auto channel = HttpChannel::Open(io, options, std::move(events));
  channel->Write(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})");
  return channel;
}

TEST(HttpChannelTest, AnswersUnderWayAreHeldToTheirBoundTogether) {
  // Three answers of 12 MiB each, none of them ever whole: each alone is
  // within 16 MiB, all three are more than the 32 MiB held at once.
  constexpr std::size_t kPart = std::size_t{12} << 20;
  ScriptedHttpServer service({EndlessAnswer(kPart), EndlessAnswer(kPart), EndlessAnswer(kPart)});
  boost::asio::io_context io;
  std::map<std::int64_t, std::string> failed;
  HttpChannelEvents events;
  events.on_request_failed = [&](std::int64_t id, std::string why) {
    failed[id] = std::move(why);
    io.stop();
  };
  HttpChannelOptions options;
  options.alias = "docs";
  options.url = service.Url("/mcp");
  auto channel = HttpChannel::Open(io, options, std::move(events));
  for (int id = 1; id <= 3; ++id) ASSERT_TRUE(channel->Write(Request(id)));
  RunAtMost(io, std::chrono::seconds(20));
  ASSERT_EQ(failed.size(), 1u) << "no answer was given up";
  EXPECT_EQ(failed.begin()->second,
            "docs's answers under way hold more than 32 MiB at once, which bravebot-mcp does not "
            "hold, so this one was given up");
  channel->Stop();
}

TEST(HttpChannelTest, SixteenRequestsAndSixtyFourPostsAreUnderWayAtMost) {
  std::vector<ScriptedAnswer> silent(HttpChannel::kMaxPostsAtAll + 2, EndlessAnswer(0));
  ScriptedHttpServer service(silent);
  boost::asio::io_context io;
  HttpChannelOptions options;
  options.alias = "docs";
  options.url = service.Url("/mcp");
  auto channel = HttpChannel::Open(io, options, {});
  for (std::size_t id = 1; id <= HttpChannel::kMaxPostsUnderWay; ++id) {
    EXPECT_TRUE(channel->Write(Request(static_cast<int>(id))));
  }
  EXPECT_FALSE(channel->HasRoomFor(/*request=*/true));
  EXPECT_FALSE(channel->Write(Request(99)));
  // Notifications go until 64 POSTs are under way.
  const std::string note = R"({"jsonrpc":"2.0","method":"notifications/progress"})";
  for (std::size_t n = HttpChannel::kMaxPostsUnderWay; n < HttpChannel::kMaxPostsAtAll; ++n) {
    EXPECT_TRUE(channel->Write(note)) << n;
  }
  EXPECT_FALSE(channel->HasRoomFor(/*request=*/false));
  EXPECT_FALSE(channel->Write(note));
  // A reply too: a service that asks without end and takes no answer
  // would otherwise hold a connection for each (all of our descriptors).
  EXPECT_FALSE(channel->Write(R"({"jsonrpc":"2.0","id":"s-1","result":{}})"));
  channel->Stop();
}

// One whole HTTP answer: `headers` are "Name: value\r\n" lines.
ScriptedAnswer Http(const std::string& status, const std::string& headers,
                    const std::string& body) {
  return {{{"HTTP/1.1 " + status + "\r\n" + headers + "Content-Length: " +
            std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body}}};
}

TEST(HttpChannelTest, AHandshakeThatFailsWhereTheServiceMovedFailsWhatWaitedForIt) {
  ScriptedHttpServer elsewhere({Http("500 Internal Server Error", "", "")});
  ScriptedHttpServer here(
      {Http("200 OK", "Content-Type: application/json\r\nMcp-Session-Id: s-1\r\n",
            R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25"}})"),
       Http("307 Temporary Redirect", "Location: " + elsewhere.Url("/mcp") + "\r\n", "")});
  boost::asio::io_context io;
  std::shared_ptr<HttpChannel> channel;
  std::map<std::int64_t, std::string> failed;
  std::optional<std::string> ended;
  HttpChannelEvents events;
  events.on_line = [&](std::string) {
    // The handshake is answered: a call meets the move.
    channel->Write(Request(2));
  };
  events.on_redirect = [&](std::int64_t id, std::string, std::string) {
    channel->AnswerRedirect(id, true);
    // Written while the handshake is made there: it waits for it.
    EXPECT_TRUE(channel->Write(Request(3)));
  };
  events.on_request_failed = [&](std::int64_t id, std::string why) { failed[id] = why; };
  events.on_session_ended = [&](std::string why) {
    ended = why;
    io.stop();
  };
  channel = OpenAskingThePerson(io, here.Url("/mcp"), std::move(events));
  RunAtMost(io, std::chrono::seconds(10));
  const std::string why = "docs moved to " + elsewhere.Url("/mcp") +
                          ", and its handshake there failed: docs answered POST with HTTP 500";
  ASSERT_TRUE(ended) << "the link was not told";
  EXPECT_EQ(*ended, why);
  EXPECT_EQ(failed[2], why);
  EXPECT_EQ(failed[3], why);
  // Only the handshake went there: neither call.
  ASSERT_EQ(elsewhere.requests().size(), 1u);
  EXPECT_THAT(elsewhere.requests()[0], HasSubstr(R"("id":-1,"method":"initialize")"));
  channel->Stop();
}

TEST(HttpChannelTest, AMoveIsRecordedWhereThePersonSaidYesNotWhereItsHandshakeWasSentOn) {
  ScriptedHttpServer elsewhere(
      {Http("307 Temporary Redirect", "Location: /mcp/session-token-x\r\n", ""),
       Http("200 OK", "Content-Type: application/json\r\nMcp-Session-Id: s-2\r\n",
            R"({"jsonrpc":"2.0","id":-1,"result":{"protocolVersion":"2025-11-25"}})"),
       Http("202 Accepted", "", ""),
       Http("200 OK", "Content-Type: application/json\r\n",
            R"({"jsonrpc":"2.0","id":2,"result":{}})")});
  ScriptedHttpServer here(
      {Http("200 OK", "Content-Type: application/json\r\nMcp-Session-Id: s-1\r\n",
            R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25"}})"),
       Http("307 Temporary Redirect", "Location: " + elsewhere.Url("/mcp") + "\r\n", "")});
  boost::asio::io_context io;
  std::shared_ptr<HttpChannel> channel;
  std::vector<std::string> moved;
  int lines = 0;
  HttpChannelEvents events;
  events.on_line = [&](std::string) {
    if (++lines == 1) channel->Write(Request(2));  // the handshake is answered: a call
    if (lines == 2) io.stop();                     // the call is answered, where it moved
  };
  events.on_redirect = [&](std::int64_t id, std::string, std::string) {
    channel->AnswerRedirect(id, true);
  };
  events.on_moved = [&](const std::string& url) { moved.push_back(url); };
  channel = OpenAskingThePerson(io, here.Url("/mcp"), std::move(events));
  RunAtMost(io, std::chrono::seconds(10));
  EXPECT_EQ(lines, 2);
  EXPECT_THAT(moved, ::testing::ElementsAre(elsewhere.Url("/mcp")));
  channel->Stop();
}

}  // namespace
}  // namespace bravebot
