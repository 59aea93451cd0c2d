#include "supervisor/servers/http_channel.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <boost/asio/steady_timer.hpp>
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

}  // namespace
}  // namespace bravebot
