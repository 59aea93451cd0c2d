#include "cli/stdio_bridge.h"

#include <unistd.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <cerrno>
#include <cstdint>
#include <exception>
#include <functional>
#include <utility>
#include <vector>

#include "cli/non_blocking.h"

// A regular file, which a person may well redirect into mcp-run or its output
// into, cannot be waited on by Asio's epoll reactor; it takes one all the
// same, and reads and writes it at once, as such a file never makes them wait.
namespace bravebot {
namespace {

using boost::asio::awaitable;
using Descriptor = boost::asio::posix::stream_descriptor;
using namespace boost::asio::experimental::awaitable_operators;

// An operation's outcome as values, never as an exception.
constexpr auto kAsValues = boost::asio::as_tuple(boost::asio::use_awaitable);

// One of mcp-run's own standard streams on the loop, through a duplicate of
// it (which goes, and the stream stays); non-blocking while this lives, and
// its flags as they were after. Not open where mcp-run was started without
// it.
class OurStream {
 public:
  OurStream(boost::asio::io_context& io, int fd) : flags_(fd), stream_(io) {
    const int duplicate = ::dup(fd);
    if (duplicate < 0) return;
    boost::system::error_code error;
    stream_.assign(duplicate, error);
    if (error) ::close(duplicate);
  }
  Descriptor& get() { return stream_; }

 private:
  NonBlockingWhileAlive flags_;  // given back after the stream goes
  Descriptor stream_;
};

// Once the server has ended, what it wrote last is passed on while mcp-run's
// output and error take it; where neither takes a byte for
// kPassOnIdleAfterEnd, `give_up` is called (which cancels the writes), so
// that a client that never reads mcp-run's standard error cannot keep it
// running for ever after the server is gone.
class PassOnAfterEnd {
 public:
  explicit PassOnAfterEnd(const boost::asio::any_io_executor& executor) : timer_(executor) {}

  void Taken() { ++taken_; }
  // Once given up, nothing more is written: a write begun after the
  // cancel would wait as the cancelled one did.
  bool given_up() const { return given_up_; }
  void Start(std::function<void()> give_up) {
    give_up_ = std::move(give_up);
    Arm();
  }
  void Stop() { timer_.cancel(); }

 private:
  void Arm() {
    seen_ = taken_;
    timer_.expires_after(kPassOnIdleAfterEnd);
    timer_.async_wait([this](boost::system::error_code error) {
      if (error) return;  // stopped: everything was passed on
      if (taken_ == seen_) {
        given_up_ = true;
        give_up_();
      } else {
        Arm();
      }
    });
  }

  boost::asio::steady_timer timer_;
  std::function<void()> give_up_;
  std::uint64_t taken_ = 0;
  std::uint64_t seen_ = 0;
  bool given_up_ = false;
};

// Writes `bytes` to `to` whole; false where `to` takes no more.
awaitable<bool> WriteWhole(Descriptor& to, boost::asio::const_buffer bytes) {
  if (!to.is_open()) co_return false;
  auto [error, written] = co_await boost::asio::async_write(to, bytes, kAsValues);
  co_return !error;
}

// Reads `from` and writes each piece read to `to` before it reads again,
// until `from` ends; once `to` takes no more, what comes is read and dropped,
// so that the writer never blocks on a full pipe. `cut` (where given) is
// called when `to` stops taking it or `from` ends first. Once the server has
// ended (`ended`), what is left in `from` is read at once and passed on, and
// no more is waited for: something it started may still hold the pipe open.
// Each piece taken is told to `after_end`.
awaitable<void> Pass(Descriptor& from, Descriptor& to, const bool& ended, PassOnAfterEnd& after_end,
                     std::function<void()> cut = nullptr) {
  std::vector<char> buffer(kBridgeBufferBytes);
  bool taken = true;
  auto pass_on = [&](std::size_t got) -> awaitable<void> {
    if (!taken || got == 0 || after_end.given_up()) co_return;
    taken = co_await WriteWhole(to, boost::asio::buffer(buffer.data(), got));
    if (taken) after_end.Taken();
    if (!taken && cut) cut();
  };
  while (!ended && from.is_open()) {
    auto [error, got] = co_await from.async_read_some(boost::asio::buffer(buffer), kAsValues);
    co_await pass_on(got);
    if (error == boost::asio::error::operation_aborted) continue;  // the server ended
    if (error) {
      if (!ended && cut) cut();
      co_return;
    }
  }
  for (;;) {
    const ssize_t got = ::read(from.native_handle(), buffer.data(), buffer.size());
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) co_return;
    co_await pass_on(static_cast<std::size_t>(got));
  }
}

// The client's input to the server's, as Pass does; at its end the server is
// stopped, which closes its input first (what a server that ends when its
// input does needs). Once the server has ended, the client's input is not
// read any more.
awaitable<void> ClientToServer(Descriptor& client, RunningServer& server, const bool& ended) {
  std::vector<char> buffer(kBridgeBufferBytes);
  bool taken = true;
  while (!ended && client.is_open()) {
    auto [error, got] = co_await client.async_read_some(boost::asio::buffer(buffer), kAsValues);
    // Once the server takes no more (it closed its input, or is stopping),
    // what the client sends is dropped.
    if (got > 0 && taken) {
      taken = co_await WriteWhole(server.input(), boost::asio::buffer(buffer.data(), got));
    }
    if (error && error != boost::asio::error::operation_aborted) break;
  }
  if (!ended) server.Stop();
}

// Its end: then nothing more is waited for on its pipes (what is left in them
// is read at once), nor on the client's input, and what it wrote is passed
// on only while mcp-run's output and error take it.
awaitable<int> ServerEnd(RunningServer& server, OurStream& input, OurStream& output,
                         OurStream& errors, bool& ended, PassOnAfterEnd& after_end) {
  const int status = co_await server.AsyncEnd(boost::asio::use_awaitable);
  ended = true;
  boost::system::error_code ignored;
  server.output().cancel(ignored);
  server.errors().cancel(ignored);
  input.get().cancel(ignored);
  after_end.Start([&output, &errors] {
    boost::system::error_code not_needed;
    output.get().cancel(not_needed);
    errors.get().cancel(not_needed);
  });
  co_return status;
}

awaitable<int> Bridge(RunningServer& server, OurStream& input, OurStream& output,
                      OurStream& errors) {
  bool ended = false;
  PassOnAfterEnd after_end(co_await boost::asio::this_coro::executor);
  auto stop = [&server] { server.Stop(); };
  const int status = co_await (ClientToServer(input.get(), server, ended) &&
                               Pass(server.output(), output.get(), ended, after_end, stop) &&
                               Pass(server.errors(), errors.get(), ended, after_end) &&
                               ServerEnd(server, input, output, errors, ended, after_end));
  after_end.Stop();
  co_return status;
}

}  // namespace

int BridgeStdio(boost::asio::io_context& io, RunningServer& server) {
  // Standard input and output may be one open file (a terminal, a socket):
  // the second one made non-blocking is given its flags back first, to what
  // the first saw, so both end as they began.
  OurStream input(io, STDIN_FILENO);
  OurStream output(io, STDOUT_FILENO);
  OurStream errors(io, STDERR_FILENO);
  int status = -1;
  boost::asio::co_spawn(io, Bridge(server, input, output, errors),
                        [&](const std::exception_ptr& failure, int ended_with) {
                          if (failure) std::rethrow_exception(failure);
                          status = ended_with;
                        });
  io.run();
  return status;
}

}  // namespace bravebot
