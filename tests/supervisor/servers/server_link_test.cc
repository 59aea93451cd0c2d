// ServerLink over the real HttpChannel and scripted services on loopback:
// the handshake a move makes at the new place, which the link's redirect
// flow makes itself (the channel only holds the request and moves).
#include "supervisor/servers/server_link.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tests/supervisor/testing/scripted_http_server.h"

namespace bravebot {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::ScriptedAnswer;
using testing::ScriptedHttpServer;

// One whole HTTP answer: `headers` are "Name: value\r\n" lines; given only
// to a request that holds `when`.
ScriptedAnswer Http(const std::string& status, const std::string& headers, const std::string& body,
                    const std::string& when = "") {
  return {{{"HTTP/1.1 " + status + "\r\n" + headers + "Content-Length: " +
            std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body}},
          true,
          when};
}

ScriptedAnswer Hello(std::int64_t id, const std::string& session) {
  return Http("200 OK", "Content-Type: application/json\r\nMcp-Session-Id: " + session + "\r\n",
              R"({"jsonrpc":"2.0","id":)" + std::to_string(id) +
                  R"(,"result":{"protocolVersion":"2025-11-25","capabilities":{},)"
                  R"("serverInfo":{"name":"docs","version":"1"}}})",
              "\"initialize\"");
}

ScriptedAnswer Taken() { return Http("202 Accepted", "", "", "notifications/initialized"); }

// Runs `io` until it is stopped, or `most` has passed.
void RunAtMost(boost::asio::io_context& io, std::chrono::seconds most) {
  boost::asio::steady_timer guard(io, most);
  guard.async_wait([&](const boost::system::error_code& error) {
    if (!error) io.stop();
  });
  io.run();
}

// "docs", a service at `url` whose moves a person is asked about, started
// through the channels that run.
class MovingServiceTest : public ::testing::Test {
 protected:
  std::shared_ptr<ServerLink> Start(const std::string& url, LinkEvents events) {
    declaration_.alias = "docs";
    declaration_.transport = Transport::kHttp;
    declaration_.url = url;
    ServerLink::Options options;
    options.startup_timeout = std::chrono::seconds(10);
    options.asking = Asking::kSomebody;
    events.on_start_failed = [this](const StartFailure& failure) {
      ADD_FAILURE() << failure.message;
      io_.stop();
    };
    if (!events.on_message) events.on_message = [](const McpIncoming&) {};
    return ServerLink::Start(io_, declaration_, options_, options, std::move(events));
  }

  boost::asio::io_context io_;
  Declaration declaration_;
  ServerStartOptions options_;
};

TEST_F(MovingServiceTest, AHandshakeThatFailsWhereTheServiceMovedFailsWhatWaitedForIt) {
  ScriptedHttpServer elsewhere({Http("500 Internal Server Error", "", "")});
  ScriptedHttpServer here({Hello(1, "s-1"), Taken(),
                           Http("307 Temporary Redirect",
                                "Location: " + elsewhere.Url("/mcp") + "\r\n", "", "tools/call")});
  std::shared_ptr<ServerLink> link;
  std::map<std::uint64_t, std::string> failed;
  std::optional<std::string> broken;
  LinkEvents events;
  events.on_started = [&] { link->Request(1, "tools/call", {{"name", "search"}}); };
  events.on_redirect = [&](std::uint64_t tag, const std::string&, const std::string&) {
    // The person answers later, from the loop.
    boost::asio::post(io_, [&, tag] {
      link->AnswerRedirect(tag, true);
      // Written while the handshake is made there: it waits for it.
      EXPECT_TRUE(link->Request(2, "tools/call", {{"name", "fetch"}}));
    });
  };
  events.on_answer = [&](McpIncoming answer) {
    failed[answer.tag] = answer.fault ? answer.fault->message : "answered";
  };
  events.on_broken = [&](const std::string& why) { broken = why; };
  events.on_exit = [&](int) { io_.stop(); };
  link = Start(here.Url("/mcp"), std::move(events));
  RunAtMost(io_, std::chrono::seconds(10));
  const std::string why = "docs moved to " + elsewhere.Url("/mcp") +
                          ", and its handshake there failed: docs answered POST with HTTP 500";
  ASSERT_TRUE(broken) << "the link's owner was not told";
  EXPECT_EQ(*broken, why);
  EXPECT_EQ(failed[1], why);
  EXPECT_EQ(failed[2], why);
  EXPECT_TRUE(link->session_ended());
  // Only the handshake went there: neither call.
  ASSERT_EQ(elsewhere.requests().size(), 1u);
  EXPECT_THAT(elsewhere.requests()[0], HasSubstr(R"("id":-1,"method":"initialize")"));
}

TEST_F(MovingServiceTest, AMoveIsRecordedWhereThePersonSaidYesNotWhereItsHandshakeWasSentOn) {
  ScriptedHttpServer elsewhere(
      {Http("307 Temporary Redirect", "Location: /mcp/session-token-x\r\n", "", "\"initialize\""),
       Hello(-1, "s-2"), Taken(),
       Http("200 OK", "Content-Type: application/json\r\n",
            R"({"jsonrpc":"2.0","id":2,"result":{"content":[]}})", "tools/call")});
  ScriptedHttpServer here({Hello(1, "s-1"), Taken(),
                           Http("307 Temporary Redirect",
                                "Location: " + elsewhere.Url("/mcp") + "\r\n", "", "tools/call")});
  std::shared_ptr<ServerLink> link;
  std::vector<std::string> moved;
  std::optional<McpIncoming> answered;
  LinkEvents events;
  events.on_started = [&] { link->Request(1, "tools/call", {{"name", "search"}}); };
  events.on_redirect = [&](std::uint64_t tag, const std::string&, const std::string&) {
    boost::asio::post(io_, [&, tag] { link->AnswerRedirect(tag, true); });
  };
  events.on_moved = [&](const std::string& url) { moved.push_back(url); };
  events.on_answer = [&](McpIncoming answer) {
    answered = std::move(answer);
    io_.stop();
  };
  link = Start(here.Url("/mcp"), std::move(events));
  RunAtMost(io_, std::chrono::seconds(10));
  ASSERT_TRUE(answered) << "the call was not answered where the service moved";
  EXPECT_FALSE(answered->fault) << answered->fault->message;
  EXPECT_EQ(answered->tag, 1u);
  EXPECT_THAT(moved, ElementsAre(elsewhere.Url("/mcp")));
  EXPECT_EQ(link->moved_to(), elsewhere.Url("/mcp"));
  // The call went there in the session the handshake there made.
  std::vector<std::string> calls;
  for (const std::string& request : elsewhere.requests()) {
    if (request.find("tools/call") != std::string::npos) calls.push_back(request);
  }
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_THAT(calls[0], HasSubstr("\r\nMCP-Session-Id: s-2\r\n"));
  link->Stop();
}

}  // namespace
}  // namespace bravebot
