#include "supervisor/servers/http_channel.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/asio/steady_timer.hpp>
#include <functional>
#include <map>

#include "tests/supervisor/testing/scripted_http_server.h"

namespace bravebot {
namespace {

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

TEST(HttpChannelTest, AnswersUnderWayAreHeldToTheirBoundTogether) {
  // Three answers of 12 MiB each, none of them ever whole: each alone is
  // within 16 MiB, all three are more than the 32 MiB held at once.
  constexpr std::size_t kPart = std::size_t{12} << 20;
  ScriptedHttpServer service({EndlessAnswer(kPart), EndlessAnswer(kPart), EndlessAnswer(kPart)});
  boost::asio::io_context io;
  std::map<std::int64_t, std::string> failed;
  HttpChannelEvents events;
  events.on_request_failed = [&](std::int64_t id, const Error& why) {
    failed[id] = why.message();
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

std::string Json200(const std::string& extra_headers, const std::string& body) {
  std::string answer = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n";
  answer.append(extra_headers).append("Content-Length: ").append(std::to_string(body.size()));
  return answer.append("\r\nConnection: close\r\n\r\n").append(body);
}

std::string Redirect(const std::string& status, const std::string& location) {
  std::string answer = "HTTP/1.1 ";
  answer.append(status).append("\r\nLocation: ").append(location);
  return answer.append("\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
}

constexpr char kDeclaredHeader[] = "\r\nX-Api-Key: k-7f3a9c\r\n";

HttpChannelOptions WithAHeader(const std::string& url) {
  HttpChannelOptions options;
  options.alias = "docs";
  options.url = url;
  options.headers = {{"X-Api-Key", "k-7f3a9c"}};
  return options;
}

TEST(HttpChannelTest, ADeclaredHeaderGoesWithEveryRequestToTheDeclaredService) {
  const std::string hello =
      R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{}}})";
  ScriptedHttpServer service(
      {{{{Json200("Mcp-Session-Id: s-1\r\n", hello)}}},
       {{{"HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"}}}});
  boost::asio::io_context io;
  std::shared_ptr<HttpChannel> channel;
  HttpChannelEvents events;
  events.on_line = [&](const std::string&) {
    channel->Write(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  };
  channel = HttpChannel::Open(io, WithAHeader(service.Url("/mcp")), std::move(events));
  ASSERT_TRUE(channel->Write(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})"));
  // Once the POSTs and the GET stream were sent, the stop sends DELETE.
  boost::asio::steady_timer poll(io);
  std::function<void()> wait = [&] {
    poll.expires_after(std::chrono::milliseconds(20));
    poll.async_wait([&](const boost::system::error_code& error) {
      if (error) return;
      std::vector<std::string> requests = service.requests();
      const bool streamed = std::any_of(requests.begin(), requests.end(),
                                        [](const std::string& r) { return r.starts_with("GET "); });
      if (requests.size() < 3 || !streamed) return wait();
      channel->Stop([&](int) { io.stop(); });
    });
  };
  wait();
  RunAtMost(io, std::chrono::seconds(10));
  std::vector<std::string> requests = service.requests();
  std::vector<std::string> methods;
  for (const std::string& request : requests) {
    methods.push_back(request.substr(0, request.find(' ')));
    EXPECT_THAT(request, ::testing::HasSubstr(kDeclaredHeader)) << request;
  }
  EXPECT_THAT(methods, ::testing::IsSupersetOf({"POST", "GET", "DELETE"}));
}

TEST(HttpChannelTest, ADeclaredHeaderGoesNeitherAfterARedirectElsewhereNorWhereItMoved) {
  ScriptedHttpServer elsewhere({{{{Json200("", R"({"jsonrpc":"2.0","id":1,"result":{}})")}}},
                                {{{Json200("", R"({"jsonrpc":"2.0","id":2,"result":{}})")}}}});
  // Within its origin first (followed, the header with it), then elsewhere.
  ScriptedHttpServer service({{{{Redirect("308 Permanent Redirect", "/mcp/")}}},
                              {{{Redirect("307 Temporary Redirect", elsewhere.Url("/mcp"))}}}});
  boost::asio::io_context io;
  std::shared_ptr<HttpChannel> channel;
  HttpChannelEvents events;
  int answers = 0;
  events.on_redirect = [&](std::int64_t id, const std::string&, const std::string&) {
    // A yes: the request goes where it moved, and every later one.
    channel->Move(id);
    channel->SendHeld(id);
  };
  events.on_line = [&](const std::string&) {
    if (++answers == 1) {
      channel->Write(R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})");
    } else {
      io.stop();
    }
  };
  events.on_request_failed = [&](std::int64_t, const Error& why) {
    ADD_FAILURE() << why.message();
    io.stop();
  };
  HttpChannelOptions options = WithAHeader(service.Url("/mcp"));
  options.asking = Asking::kSomebody;
  channel = HttpChannel::Open(io, options, std::move(events));
  ASSERT_TRUE(channel->Write(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})"));
  RunAtMost(io, std::chrono::seconds(10));
  EXPECT_EQ(answers, 2);
  std::vector<std::string> declared = service.requests();
  ASSERT_EQ(declared.size(), 2u);
  EXPECT_THAT(declared[0], ::testing::StartsWith("POST /mcp HTTP/1.1"));
  EXPECT_THAT(declared[1], ::testing::StartsWith("POST /mcp/ HTTP/1.1"));
  for (const std::string& request : declared) {
    EXPECT_THAT(request, ::testing::HasSubstr(kDeclaredHeader));
  }
  std::vector<std::string> moved = elsewhere.requests();
  ASSERT_EQ(moved.size(), 2u);
  for (const std::string& request : moved) {
    EXPECT_THAT(request, ::testing::Not(::testing::HasSubstr("k-7f3a9c"))) << request;
    EXPECT_THAT(request, ::testing::Not(::testing::HasSubstr("X-Api-Key"))) << request;
  }
  channel->Stop();
}

// A stream the service ends at once, asking to be reopened after a second.
ScriptedAnswer EndedStream() {
  return {{{"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n"
            "retry: 1000\n\n"}},
          /*close=*/true,
          /*when=*/"GET /mcp"};
}

TEST(HttpChannelTest, AForgottenSignInGoesWithNoRequestOnceForgottenTheGetStreamsIncluded) {
  const std::string hello =
      R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{}}})";
  ScriptedHttpServer service(
      {{{{Json200("Mcp-Session-Id: s-1\r\n", hello)}}},
       {{{"HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"}}},
       EndedStream(),
       EndedStream()});
  auto gets = [&service] {
    std::vector<std::string> streams;
    for (const std::string& request : service.requests()) {
      if (request.starts_with("GET ")) streams.push_back(request);
    }
    return streams;
  };
  boost::asio::io_context io;
  std::shared_ptr<HttpChannel> channel;
  HttpChannelEvents events;
  events.on_line = [&](const std::string&) {
    channel->Write(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  };
  HttpChannelOptions options;
  options.alias = "docs";
  options.url = service.Url("/mcp");
  options.bearer = "t-1";
  // A logout comes once the service has been sent its first stream; no POST
  // is sent after it, only the stream's reconnection.
  options.sign_in_kept = [&] { return gets().empty(); };
  channel = HttpChannel::Open(io, options, std::move(events));
  ASSERT_TRUE(channel->Write(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})"));
  boost::asio::steady_timer poll(io);
  std::function<void()> wait = [&] {
    poll.expires_after(std::chrono::milliseconds(20));
    poll.async_wait([&](const boost::system::error_code& error) {
      if (error) return;
      if (gets().size() < 2) return wait();
      channel->Stop([&](int) { io.stop(); });
    });
  };
  wait();
  RunAtMost(io, std::chrono::seconds(10));
  std::vector<std::string> streams = gets();
  ASSERT_EQ(streams.size(), 2u) << "the stream the service ended was not opened again";
  EXPECT_THAT(streams[0], ::testing::HasSubstr("\r\nAuthorization: Bearer t-1\r\n"));
  EXPECT_THAT(streams[1], ::testing::Not(::testing::HasSubstr("t-1"))) << streams[1];
  const std::vector<std::string> requests = service.requests();
  ASSERT_FALSE(requests.empty());
  EXPECT_THAT(requests.back(), ::testing::StartsWith("DELETE "));
  EXPECT_THAT(requests.back(), ::testing::Not(::testing::HasSubstr("t-1")));
}

}  // namespace
}  // namespace bravebot
