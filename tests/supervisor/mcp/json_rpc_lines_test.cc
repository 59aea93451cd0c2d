#include "supervisor/mcp/json_rpc_lines.h"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <string>
#include <thread>

#include "base/unique_fd.h"

namespace bravebot {
namespace {

using ::testing::HasSubstr;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

struct Pipe {
  Pipe(int flags = O_CLOEXEC) {
    int fds[2];
    if (::pipe2(fds, flags) == 0) {
      read_end.reset(fds[0]);
      write_end.reset(fds[1]);
    }
  }
  UniqueFd read_end;
  UniqueFd write_end;
};

void WriteAll(int fd, const std::string& bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    ssize_t put = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (put <= 0) return;
    done += static_cast<std::size_t>(put);
  }
}

Deadline Soon() { return Clock::now() + std::chrono::seconds(5); }

class JsonRpcLinesTest : public ::testing::Test {
 protected:
  void SetUp() override { ::signal(SIGPIPE, SIG_IGN); }
};

TEST_F(JsonRpcLinesTest, SplitsAtNewlinesAcrossAndWithinReads) {
  Pipe pipe;
  LineReader reader(pipe.read_end.get());
  WriteAll(pipe.write_end.get(), "{\"a\":1}\n{\"b\"");
  auto first = reader.ReadLine(Soon());
  ASSERT_TRUE(first.ok()) << first.error().message();
  EXPECT_EQ(first->status, LineStatus::kLine);
  EXPECT_EQ(first->line, "{\"a\":1}");

  WriteAll(pipe.write_end.get(), ":2}\n\nlast");
  auto second = reader.ReadLine(Soon());
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->line, "{\"b\":2}");
  auto empty = reader.ReadLine(Soon());
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->status, LineStatus::kLine);
  EXPECT_EQ(empty->line, "");

  // Bytes without a newline when the writer goes are its last line.
  pipe.write_end.reset();
  auto last = reader.ReadLine(Soon());
  ASSERT_TRUE(last.ok());
  EXPECT_EQ(last->status, LineStatus::kLine);
  EXPECT_EQ(last->line, "last");
  auto end = reader.ReadLine(Soon());
  ASSERT_TRUE(end.ok());
  EXPECT_EQ(end->status, LineStatus::kEndOfStream);
  end = reader.ReadLine(Soon());
  ASSERT_TRUE(end.ok());
  EXPECT_EQ(end->status, LineStatus::kEndOfStream);
}

TEST_F(JsonRpcLinesTest, DeadlinePassingIsNotTheEnd) {
  Pipe pipe;
  LineReader reader(pipe.read_end.get());
  WriteAll(pipe.write_end.get(), "half a line");
  auto started = Clock::now();
  auto read = reader.ReadLine(started + milliseconds(100));
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->status, LineStatus::kTimedOut);
  EXPECT_GE(Clock::now() - started, milliseconds(100));
  EXPECT_LT(Clock::now() - started, milliseconds(2000));

  // The half line is kept, and a line already buffered is given even after
  // the deadline.
  WriteAll(pipe.write_end.get(), ", then the rest\nnext\n");
  read = reader.ReadLine(Soon());
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->line, "half a line, then the rest");
  read = reader.ReadLine(Clock::now() - milliseconds(1));
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->status, LineStatus::kLine);
  EXPECT_EQ(read->line, "next");
}

TEST_F(JsonRpcLinesTest, LargeLinesArriveWhole) {
  Pipe pipe;
  LineReader reader(pipe.read_end.get());
  std::string big(3 << 20, 'x');  // far more than a pipe holds
  std::thread writer([&] {
    Status sent = WriteLine(pipe.write_end.get(), big, Soon());
    EXPECT_TRUE(sent.ok());
    sent = WriteLine(pipe.write_end.get(), "after", Soon());
    EXPECT_TRUE(sent.ok());
  });
  auto read = reader.ReadLine(Soon());
  writer.join();
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->line.size(), big.size());
  EXPECT_EQ(read->line, big);
  read = reader.ReadLine(Soon());
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->line, "after");
}

TEST_F(JsonRpcLinesTest, LineOverTheLimitIsAnError) {
  Pipe pipe;
  LineReader reader(pipe.read_end.get());
  std::thread writer([&] {
    std::string huge(kMaxLineBytes + 1, 'y');
    // The reader stops reading, so this write ends when its end is closed.
    (void)WriteLine(pipe.write_end.get(), huge, Soon());
  });
  auto read = reader.ReadLine(Soon());
  pipe.read_end.reset();
  writer.join();
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().code(), ErrorCode::kCorrupt);
  EXPECT_THAT(read.error().message(), HasSubstr("16 MiB"));
}

TEST_F(JsonRpcLinesTest, LineAtTheLimitIsNot) {
  Pipe pipe;
  LineReader reader(pipe.read_end.get(), 8);
  WriteAll(pipe.write_end.get(), "12345678\n123456789\n");
  auto read = reader.ReadLine(Soon());
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->line, "12345678");
  read = reader.ReadLine(Soon());
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().code(), ErrorCode::kCorrupt);
}

TEST_F(JsonRpcLinesTest, WriteAddsTheNewline) {
  Pipe pipe;
  ASSERT_TRUE(WriteLine(pipe.write_end.get(), "{\"jsonrpc\":\"2.0\"}", Soon()).ok());
  pipe.write_end.reset();
  char bytes[64];
  ssize_t got = ::read(pipe.read_end.get(), bytes, sizeof(bytes));
  EXPECT_EQ(std::string(bytes, got > 0 ? got : 0), "{\"jsonrpc\":\"2.0\"}\n");
}

TEST_F(JsonRpcLinesTest, WriteToAGoneReaderIsEpipe) {
  Pipe pipe;
  pipe.read_end.reset();
  Status sent = WriteLine(pipe.write_end.get(), "hello", Soon());
  ASSERT_FALSE(sent.ok());
  EXPECT_EQ(sent.error().errno_value(), EPIPE);
}

TEST_F(JsonRpcLinesTest, NonBlockingWriteWaitsForRoomUntilTheDeadline) {
  Pipe pipe(O_CLOEXEC | O_NONBLOCK);
  std::string big(1 << 20, 'z');

  // Nobody reads: the deadline ends the wait.
  auto started = Clock::now();
  Status sent = WriteLine(pipe.write_end.get(), big, started + milliseconds(100));
  ASSERT_FALSE(sent.ok());
  EXPECT_EQ(sent.error().errno_value(), ETIMEDOUT);
  EXPECT_LT(Clock::now() - started, milliseconds(2000));

  // With a reader, partial writes add up to the whole line.
  Pipe fresh(O_CLOEXEC | O_NONBLOCK);
  std::string got;
  std::thread reader_thread([&] {
    LineReader reader(fresh.read_end.get());
    auto read = reader.ReadLine(Soon());
    if (read.ok()) got = read->line;
  });
  sent = WriteLine(fresh.write_end.get(), big, Soon());
  reader_thread.join();
  EXPECT_TRUE(sent.ok());
  EXPECT_EQ(got, big);
}

}  // namespace
}  // namespace bravebot
