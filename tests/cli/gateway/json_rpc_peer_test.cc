#include "cli/gateway/json_rpc_peer.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <map>
#include <thread>
#include <vector>

namespace bravebot {
namespace {

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

// Writes kThreads * kLinesEach lines from kThreads threads at once through a
// pipe of one page; gives what was read. Each thread pauses between lines,
// so that a line often finds nothing queued and is written by its own
// thread, in parts, while another thread comes to write.
constexpr int kThreads = 4;
constexpr int kLinesEach = 300;
constexpr std::size_t kPaddingBytes = std::size_t{10} * 1024;  // more than the pipe holds

std::string WrittenAtOnce() {
  int to_reader[2];
  int never[2];
  if (::pipe2(to_reader, O_CLOEXEC) != 0 || ::pipe2(never, O_CLOEXEC) != 0) return "";
  ::fcntl(to_reader[1], F_SETPIPE_SZ, 4096);
  std::string received;
  std::thread reader([&] { received = ReadAll(to_reader[0]); });
  {
    JsonRpcPeer peer(never[0], to_reader[1], "the test", /*owns_fds=*/true);
    peer.Start([](const Incoming&) {}, [] {});
    std::vector<std::thread> writers;
    writers.reserve(kThreads);
    for (int thread = 0; thread < kThreads; ++thread) {
      writers.emplace_back([&peer, thread] {
        for (int line = 0; line < kLinesEach; ++line) {
          peer.Notify("test/line", {{"thread", thread},
                                    {"line", line},
                                    {"padding", std::string(kPaddingBytes, 'a' + thread)}});
          std::this_thread::sleep_for(std::chrono::microseconds(50));
        }
      });
    }
    for (std::thread& writer : writers) writer.join();
    ::close(never[1]);  // its reading thread ends
  }                     // written to the end, and closed
  reader.join();
  ::close(to_reader[0]);
  return received;
}

TEST(JsonRpcPeerTest, LinesWrittenByManyThreadsAtOnceComeWholeAndInTheirOrder) {
  // A pipe of one page, so that a line of 10 KiB is written in parts, and a
  // line another thread writes meanwhile must wait for the first's rest.
  // Eight times, since threads meet at such a moment only now and then.
  for (int round = 0; round < 8; ++round) {
    const std::string received = WrittenAtOnce();
    std::map<int, int> next;  // each thread's next line
    std::size_t start = 0;
    int lines = 0;
    while (start < received.size()) {
      const std::size_t end = received.find('\n', start);
      ASSERT_NE(end, std::string::npos);
      Json message = Json::parse(received.substr(start, end - start), nullptr, false);
      ASSERT_FALSE(message.is_discarded()) << "line " << lines << " is torn";
      const int thread = message["params"]["thread"];
      EXPECT_EQ(message["params"]["line"], next[thread]++);
      EXPECT_EQ(message["params"]["padding"], std::string(kPaddingBytes, 'a' + thread));
      start = end + 1;
      ++lines;
    }
    EXPECT_EQ(lines, kThreads * kLinesEach);
  }
}

}  // namespace
}  // namespace bravebot
