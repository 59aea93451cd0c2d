#include "cli/stderr_tail.h"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <unistd.h>

#include <string>
#include <thread>

#include "base/unique_fd.h"

namespace bravebot {
namespace {

using ::testing::ElementsAre;

// A pipe standing in for a server's standard error.
struct Pipe {
  Pipe(int flags = 0) {
    int fds[2];
    EXPECT_EQ(::pipe2(fds, O_CLOEXEC | flags), 0);
    read_end.reset(fds[0]);
    write_end.reset(fds[1]);
  }
  UniqueFd read_end;
  UniqueFd write_end;
};

void WriteAll(int fd, const std::string& bytes) {
  for (std::size_t written = 0; written < bytes.size();) {
    ssize_t step = ::write(fd, bytes.data() + written, bytes.size() - written);
    ASSERT_GT(step, 0);
    written += static_cast<std::size_t>(step);
  }
}

TEST(StderrTailTest, KeepsTheLastLinesAndAPartialOne) {
  Pipe stderr_pipe;
  StderrTail tail(stderr_pipe.read_end.get(), -1, /*keep_lines=*/2);
  WriteAll(stderr_pipe.write_end.get(), "one\ntwo\nthree\nfour");
  stderr_pipe.write_end.reset();
  EXPECT_THAT(tail.LastLines(5000), ElementsAre("two", "three", "four"));
}

TEST(StderrTailTest, AnEndlessLineKeepsOnlyItsLastBytes) {
  Pipe stderr_pipe;
  StderrTail tail(stderr_pipe.read_end.get(), -1);
  const std::string end = "and this is where it ends";
  std::thread server([&] {
    const std::string chunk(64 * 1024, 'x');
    for (int i = 0; i < 128; ++i) WriteAll(stderr_pipe.write_end.get(), chunk);  // 8 MiB
    WriteAll(stderr_pipe.write_end.get(), end);
    stderr_pipe.write_end.reset();
  });
  server.join();
  std::vector<std::string> lines = tail.LastLines(5000);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "..." + std::string(StderrTail::kMaxLineBytes - end.size(), 'x') + end);
}

TEST(StderrTailTest, ALongLineIsMarkedAsCutAndTheNextIsWhole) {
  Pipe stderr_pipe;
  StderrTail tail(stderr_pipe.read_end.get(), -1);
  // The cut falls inside a two-byte character, which is left out whole.
  const std::string long_line =
      std::string(5000, 'a') + "\xc3\xa9" + std::string(StderrTail::kMaxLineBytes - 1, 'b');
  WriteAll(stderr_pipe.write_end.get(), long_line + "\nshort\n");
  stderr_pipe.write_end.reset();
  EXPECT_THAT(tail.LastLines(5000),
              ElementsAre("..." + std::string(StderrTail::kMaxLineBytes - 1, 'b'), "short"));
}

TEST(StderrTailTest, ForwardsEveryByteToANonBlockingDescriptor) {
  Pipe stderr_pipe;
  Pipe forwarded(O_NONBLOCK);  // as mcp-run's own, while the bridge runs
  StderrTail tail(stderr_pipe.read_end.get(), forwarded.write_end.get());
  const std::string said(1 << 20, 'e');  // far more than a pipe holds
  std::thread server([&] {
    WriteAll(stderr_pipe.write_end.get(), said);
    stderr_pipe.write_end.reset();
  });
  std::string received;
  while (received.size() < said.size()) {
    struct pollfd ready = {forwarded.read_end.get(), POLLIN, 0};
    if (::poll(&ready, 1, 5000) <= 0) break;
    char buffer[65536];
    ssize_t got = ::read(forwarded.read_end.get(), buffer, sizeof(buffer));
    if (got > 0) received.append(buffer, static_cast<std::size_t>(got));
    // A slow reader: the pipe fills, and the tail must wait for room.
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  server.join();
  EXPECT_EQ(received.size(), said.size());
}

}  // namespace
}  // namespace bravebot
