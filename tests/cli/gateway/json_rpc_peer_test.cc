#include "cli/gateway/json_rpc_peer.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstddef>
#include <string>
#include <thread>
#include <vector>

#include "base/bounded_json.h"
#include "supervisor/session/session_output.h"

namespace bravebot {
namespace {

using namespace std::chrono_literals;

// Reads `fd` to its end.
std::string ReadAll(int fd) {
  std::string read;
  char chunk[4096];
  for (;;) {
    ssize_t got = ::read(fd, chunk, sizeof(chunk));
    if (got <= 0) return read;
    read.append(chunk, static_cast<std::size_t>(got));
  }
}

// Two pipes, as a peer's other end holds them: `ours_*` are given to the
// peer, `theirs_*` are the test's.
struct Ends {
  Ends() {
    int to_peer[2];
    int from_peer[2];
    if (::pipe2(to_peer, O_CLOEXEC) != 0 || ::pipe2(from_peer, O_CLOEXEC) != 0) return;
    ours_read = to_peer[0];
    theirs_write = to_peer[1];
    theirs_read = from_peer[0];
    ours_write = from_peer[1];
  }
  ~Ends() {
    for (int fd : {ours_read, ours_write, theirs_read, theirs_write}) {
      if (fd >= 0) ::close(fd);
    }
  }
  // The peer holds duplicates: the test's copies of its ends go, so that the
  // other side sees an end once the peer closes its own.
  void LetThePeerHoldItsEnds() {
    ::close(ours_read);
    ::close(ours_write);
    ours_read = ours_write = -1;
  }
  int ours_read = -1;
  int ours_write = -1;
  int theirs_read = -1;
  int theirs_write = -1;
};

void WriteAll(int fd, const std::string& bytes) {
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t wrote = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (wrote <= 0) return;
    written += static_cast<std::size_t>(wrote);
  }
}

TEST(JsonRpcPeerTest, LinesQueuedBehindAFullPipeComeWholeAndInTheirOrder) {
  // A pipe of one page and lines of 10 KiB: each is written in parts, the
  // rest of one waiting for the loop while the next is queued behind it.
  Ends ends;
  ::fcntl(ends.ours_write, F_SETPIPE_SZ, 4096);
  constexpr int kLines = 400;
  const std::string padding(std::size_t{10} * 1024, 'a');
  std::string received;
  std::thread reader([&] { received = ReadAll(ends.theirs_read); });
  {
    boost::asio::io_context io;
    JsonRpcPeer peer(io, ends.ours_read, ends.ours_write, "the test");
    ends.LetThePeerHoldItsEnds();
    peer.Start([](const Incoming&) {}, [] {});
    // Written from the loop, in bursts, as handlers write.
    for (int burst = 0; burst < kLines; burst += 40) {
      boost::asio::post(io, [&peer, &padding, burst] {
        for (int line = burst; line < burst + 40; ++line) {
          peer.Notify("test/line", {{"line", line}, {"padding", padding}});
        }
      });
    }
    boost::asio::post(io, [&peer] {
      peer.CloseOutput();  // closed once everything queued is written
      peer.StopReading();
    });
    io.run();
  }
  reader.join();
  std::size_t start = 0;
  int lines = 0;
  while (start < received.size()) {
    const std::size_t end = received.find('\n', start);
    ASSERT_NE(end, std::string::npos);
    Json message = Json::parse(received.substr(start, end - start), nullptr, false);
    ASSERT_FALSE(message.is_discarded()) << "line " << lines << " is torn";
    EXPECT_EQ(message["params"]["line"], lines);
    EXPECT_EQ(message["params"]["padding"], padding);
    start = end + 1;
    ++lines;
  }
  EXPECT_EQ(lines, kLines);
}

TEST(JsonRpcPeerTest, ACallIsAnsweredToTheCoroutineThatAwaitsItAndOneUnansweredTimesOut) {
  Ends ends;
  boost::asio::io_context io;
  JsonRpcPeer peer(io, ends.ours_read, ends.ours_write, "the test");
  peer.Start([](const Incoming&) {}, [] {});
  Answer answered;
  Answer unanswered;
  std::int64_t sent = 0;
  boost::asio::co_spawn(
      io,
      [&]() -> boost::asio::awaitable<void> {
        // The other end answers the first request, and never the second.
        std::thread other([&] {
          char chunk[4096];
          const ssize_t got = ::read(ends.theirs_read, chunk, sizeof(chunk));
          Json request = Json::parse(std::string(chunk, got > 0 ? got : 0), nullptr, false);
          WriteAll(ends.theirs_write, Json{{"jsonrpc", "2.0"},
                                           {"id", request.value("id", 0)},
                                           {"result", {{"said", "yes"}}}}
                                              .dump() +
                                          "\n");
        });
        // Params apart from co_await: GCC 12 does not compile a braced list in it.
        Json first = {{"n", 1}};
        Json second = {{"n", 2}};
        answered = co_await peer.Call("test/ask", std::move(first), sent);
        other.join();
        unanswered = co_await peer.CallWithin("test/ask", std::move(second), 50ms);
        peer.StopReading();
      },
      boost::asio::detached);
  io.run();
  EXPECT_EQ(sent, 1);
  ASSERT_FALSE(answered.is_error()) << answered.line;
  EXPECT_EQ(answered.message["result"]["said"], "yes");
  EXPECT_TRUE(unanswered.timed_out);
  EXPECT_TRUE(unanswered.is_error());
}

TEST(JsonRpcPeerTest, TheEndOfTheOtherEndsOutputAnswersEveryCallAsEndedAndEndsReading) {
  Ends ends;
  boost::asio::io_context io;
  JsonRpcPeer peer(io, ends.ours_read, ends.ours_write, "the test");
  bool on_end = false;
  std::vector<std::string> handled;
  peer.Start([&](const Incoming& message) { handled.push_back(message.message["method"]); },
             [&] { on_end = true; });
  Answer answer;
  boost::asio::co_spawn(
      io,
      [&]() -> boost::asio::awaitable<void> {
        // A last line without its '\n' is still taken, then the end.
        WriteAll(ends.theirs_write, "{\"jsonrpc\":\"2.0\",\"method\":\"test/last\"}");
        ::close(ends.theirs_write);
        ends.theirs_write = -1;
        answer = co_await peer.Call("test/ask", nullptr);
      },
      boost::asio::detached);
  io.run();
  EXPECT_TRUE(answer.ended);
  EXPECT_TRUE(on_end);
  EXPECT_EQ(handled, std::vector<std::string>{"test/last"});
  EXPECT_TRUE(peer.ended());
}

TEST(JsonRpcPeerTest, WhileHeldNoLineIsHandedOnNotEvenOneReadAlready) {
  Ends ends;
  boost::asio::io_context io;
  JsonRpcPeer peer(io, ends.ours_read, ends.ours_write, "the test");
  std::vector<int> handled;
  bool released = false;
  peer.Start(
      [&](const Incoming& message) {
        handled.push_back(message.message["params"]["n"]);
        if (handled.size() == 1) {
          // The first holds the rest, read in the same chunk, for a while.
          peer.HoldReading(true);
          auto timer = std::make_shared<boost::asio::steady_timer>(io, 50ms);
          timer->async_wait([&, timer](const boost::system::error_code&) {
            EXPECT_EQ(handled.size(), 1u);
            released = true;
            peer.HoldReading(false);
          });
        }
        if (handled.size() == 3) peer.StopReading();
      },
      [] {});
  std::string lines;
  for (int n = 1; n <= 3; ++n) {
    lines += Json{{"jsonrpc", "2.0"}, {"method", "test/n"}, {"params", {{"n", n}}}}.dump() + "\n";
  }
  WriteAll(ends.theirs_write, lines);
  io.run();
  EXPECT_TRUE(released);
  EXPECT_EQ(handled, (std::vector<int>{1, 2, 3}));
}

TEST(JsonRpcPeerTest, WhatTheOtherEndDoesNotReadIsBoundedAndSaidWhenItIsAndWhenItIsNoMore) {
  Ends ends;
  boost::asio::io_context io;
  JsonRpcPeer peer(io, ends.ours_read, ends.ours_write, "the test");
  ends.LetThePeerHoldItsEnds();
  peer.Start([](const Incoming&) {}, [] {});
  std::vector<bool> said;
  peer.OnBacklogChanged([&] { said.push_back(peer.backed_up()); });
  const std::string padding(1 << 20, 'b');
  std::thread reader;
  boost::asio::post(io, [&] {
    // More than the bound, while nobody reads.
    for (std::size_t written = 0; written <= kMostQueuedBytes + (2 << 20);
         written += padding.size()) {
      peer.Notify("test/much", {{"padding", padding}});
    }
    EXPECT_TRUE(peer.backed_up());
    // Then it is read to the end.
    reader = std::thread([&] { ReadAll(ends.theirs_read); });
    peer.CloseOutput();
    peer.StopReading();
  });
  io.run();
  reader.join();
  EXPECT_FALSE(peer.backed_up());
  EXPECT_EQ(said, (std::vector<bool>{true, false}));
}

// `levels` arrays, one inside the other.
std::string Nested(std::size_t levels) {
  return std::string(levels, '[') + std::string(levels, ']');
}

// The answer `peer` gets to one call, which the other end answers with
// `result` (its JSON text), or a timeout where it is not taken within
// `limit`; `written_back` gets what the peer wrote after the call.
Answer AnswerWith(const std::string& result, JsonBounds bounds, std::chrono::milliseconds limit,
                  std::string* written_back) {
  Ends ends;
  boost::asio::io_context io;
  JsonRpcPeer peer(io, ends.ours_read, ends.ours_write, "the test", bounds);
  peer.Start([](const Incoming&) {}, [] {});
  Answer answer;
  std::thread other([&] {
    char chunk[4096];
    const ssize_t got = ::read(ends.theirs_read, chunk, sizeof(chunk));
    Json request = Json::parse(std::string(chunk, got > 0 ? got : 0), nullptr, false);
    WriteAll(ends.theirs_write, R"({"jsonrpc":"2.0","id":)" + request.value("id", Json(0)).dump() +
                                    R"(,"result":)" + result + "}\n");
  });
  boost::asio::co_spawn(
      io,
      [&]() -> boost::asio::awaitable<void> {
        answer = co_await peer.CallWithin("test/ask", nullptr, limit);
        peer.CloseOutput();
        peer.StopReading();
      },
      boost::asio::detached);
  io.run();
  other.join();
  if (written_back != nullptr) {
    ::close(ends.ours_write);
    ends.ours_write = -1;
    ::fcntl(ends.theirs_read, F_SETFL, O_NONBLOCK);
    *written_back = ReadAll(ends.theirs_read);
  }
  return answer;
}

// A server's result nested to kMaxJsonDepth reaches the gateway inside
// tool/call's answer, nested deeper: the supervisor's end reads it (it was
// refused when both ends read to kMaxJsonDepth, and the call waited without
// end), and a client's end still reads no deeper than kMaxJsonDepth.
TEST(JsonRpcPeerTest, TheSupervisorsEndReadsAServersMessageNestedToItsBoundInsideOurs) {
  // The line, its result and the result in it: three levels; the arrays
  // in its content the rest, to the bound exactly.
  const std::string deep =
      R"({"state":"ran","result":{"content":)" + Nested(kMaxSessionJsonDepth - 3) + "}}";
  Answer taken = AnswerWith(deep, JsonBounds{.max_depth = kMaxSessionJsonDepth}, 10s, nullptr);
  EXPECT_FALSE(taken.is_error());
  EXPECT_EQ(taken.message["result"]["state"], "ran");

  std::string written_back;
  Answer refused = AnswerWith(deep, JsonBounds{}, 300ms, &written_back);
  EXPECT_TRUE(refused.timed_out);
  EXPECT_NE(written_back.find("nested deeper than 128 levels"), std::string::npos) << written_back;
}

}  // namespace
}  // namespace bravebot
