#include "cli/stdio_bridge.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <vector>

#include "cli/non_blocking.h"

// One poll() loop over the six descriptors rather than Boost.Asio, the house
// choice for event loops: nothing else runs beside it, and poll() takes a
// regular file, which a person may well redirect into mcp-run or its output
// into, as always ready, where Asio's epoll reactor cannot wait on one.
namespace bravebot {
namespace {

using Clock = std::chrono::steady_clock;

// One direction's bytes in flight.
class RelayBuffer {
 public:
  explicit RelayBuffer(std::size_t capacity) : bytes_(capacity) {}

  bool HasRoom() const { return end_ < bytes_.size() || start_ > 0; }
  bool IsEmpty() const { return start_ == end_; }
  void Clear() { start_ = end_ = 0; }

  // Reads what fits from `fd`: as read() answers, 0 at its end.
  ssize_t ReadFrom(int fd) {
    if (end_ == bytes_.size()) {
      std::memmove(bytes_.data(), bytes_.data() + start_, end_ - start_);
      end_ -= start_;
      start_ = 0;
    }
    ssize_t got = ::read(fd, bytes_.data() + end_, bytes_.size() - end_);
    if (got > 0) end_ += static_cast<std::size_t>(got);
    return got;
  }

  // Writes what it holds to `fd`, as much as `fd` takes: as write() answers.
  ssize_t WriteTo(int fd) {
    ssize_t put = ::write(fd, bytes_.data() + start_, end_ - start_);
    if (put > 0) start_ += static_cast<std::size_t>(put);
    if (start_ == end_) Clear();
    return put;
  }

 private:
  std::vector<char> bytes_;
  std::size_t start_ = 0;
  std::size_t end_ = 0;
};

// A read or write that did nothing for now, and is to be tried again.
bool IsRetry(ssize_t result) {
  if (result >= 0) return false;
#if EWOULDBLOCK != EAGAIN  // one number on Linux, two on some systems
  if (errno == EWOULDBLOCK) return true;
#endif
  return errno == EAGAIN || errno == EINTR;
}

void SetNonBlocking(int fd) {
  int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

int MillisecondsUntil(Clock::time_point when) {
  auto left = std::chrono::ceil<std::chrono::milliseconds>(when - Clock::now()).count();
  return left < 0 ? 0 : static_cast<int>(left);
}

// `to_errors` is the server's standard error on its way to ours; what is
// still in it when the relay ends is written after.
void Relay(ConfinedServer& server, RelayBuffer& to_errors) {
  // Standard input and output may be one open file (a terminal, a socket):
  // the second one made non-blocking is restored first, to what the first
  // saw, so both end as they began.
  NonBlockingWhileAlive input(STDIN_FILENO);
  NonBlockingWhileAlive output(STDOUT_FILENO);
  NonBlockingWhileAlive errors(STDERR_FILENO);
  SetNonBlocking(server.stdin_fd());
  SetNonBlocking(server.stdout_fd());
  SetNonBlocking(server.stderr_fd());

  RelayBuffer to_server(kBridgeBufferBytes);
  RelayBuffer to_client(kBridgeBufferBytes);
  bool client_input_open = true;
  bool server_input_open = true;
  bool server_output_open = true;
  bool server_errors_open = true;
  bool errors_open = true;
  std::optional<Clock::time_point> give_up_at;  // once mcp-run's input ended

  for (;;) {
    if (!client_input_open && server_input_open && to_server.IsEmpty()) {
      server.CloseInput();  // the client is done: let the server end by itself
      server_input_open = false;
    }
    if (!server_output_open && to_client.IsEmpty()) return;
    if (give_up_at && Clock::now() >= *give_up_at) return;

    struct pollfd fds[6] = {
        {client_input_open && to_server.HasRoom() ? STDIN_FILENO : -1, POLLIN, 0},
        {server_input_open && !to_server.IsEmpty() ? server.stdin_fd() : -1, POLLOUT, 0},
        {server_output_open && to_client.HasRoom() ? server.stdout_fd() : -1, POLLIN, 0},
        {!to_client.IsEmpty() ? STDOUT_FILENO : -1, POLLOUT, 0},
        {server_errors_open && to_errors.HasRoom() ? server.stderr_fd() : -1, POLLIN, 0},
        {errors_open && !to_errors.IsEmpty() ? STDERR_FILENO : -1, POLLOUT, 0},
    };
    if (::poll(fds, 6, give_up_at ? MillisecondsUntil(*give_up_at) : -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }

    if (fds[0].revents != 0) {
      ssize_t got = to_server.ReadFrom(STDIN_FILENO);
      if (!IsRetry(got) && got <= 0) {
        client_input_open = false;
        give_up_at = Clock::now() + kBridgeGraceAfterInput;
      }
      if (!server_input_open) to_server.Clear();  // nobody to give them to
    }
    if (fds[1].revents != 0) {
      ssize_t put = to_server.WriteTo(server.stdin_fd());
      if (!IsRetry(put) && put <= 0) {
        // The server closed its input: what the client still sends is dropped.
        server.CloseInput();
        server_input_open = false;
        to_server.Clear();
      }
    }
    if (fds[2].revents != 0) {
      ssize_t got = to_client.ReadFrom(server.stdout_fd());
      if (!IsRetry(got) && got <= 0) server_output_open = false;
    }
    if (fds[3].revents != 0) {
      ssize_t put = to_client.WriteTo(STDOUT_FILENO);
      if (!IsRetry(put) && put <= 0) return;  // the client is gone
    }
    if (fds[4].revents != 0) {
      ssize_t got = to_errors.ReadFrom(server.stderr_fd());
      if (!IsRetry(got) && got <= 0) server_errors_open = false;
      if (!errors_open) to_errors.Clear();  // nowhere to put them
    }
    if (fds[5].revents != 0) {
      ssize_t put = to_errors.WriteTo(STDERR_FILENO);
      if (!IsRetry(put) && put <= 0) {
        // Our standard error is gone: the server's is read and dropped, so
        // that it never blocks on it.
        errors_open = false;
        to_errors.Clear();
      }
    }
  }
}

// What the server wrote on its standard error last, once it has ended: read
// to its end, or until nothing more is there (where something it started
// still holds the pipe), and written to ours, blocking again by now.
void ForwardLastErrors(int server_errors) {
  char bytes[65536];
  for (;;) {
    const ssize_t got = ::read(server_errors, bytes, sizeof(bytes));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return;
    for (ssize_t put = 0; put < got;) {
      const ssize_t wrote =
          ::write(STDERR_FILENO, bytes + put, static_cast<std::size_t>(got - put));
      if (wrote < 0 && errno == EINTR) continue;
      if (wrote <= 0) return;
      put += wrote;
    }
  }
}

}  // namespace

int BridgeStdio(ConfinedServer& server) {
  // Its standard error goes to ours, in the same loop as the rest: a server
  // that writes much there never blocks on a full pipe while ours takes it.
  RelayBuffer to_errors(kBridgeBufferBytes);
  Relay(server, to_errors);
  const int status = server.Stop(kBridgeStopGrace);
  while (!to_errors.IsEmpty()) {
    const ssize_t put = to_errors.WriteTo(STDERR_FILENO);
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) break;  // ours is gone, or not ours to wait for
  }
  ForwardLastErrors(server.stderr_fd());
  return status;
}

}  // namespace bravebot
