#include "cli/stdio_bridge.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>

namespace bravebot {
namespace {

// Copies what one read gives from `from` to `to`; false at end of file or
// when either side fails.
bool CopyOnce(int from, int to) {
  char buffer[65536];
  ssize_t got;
  do {
    got = ::read(from, buffer, sizeof(buffer));
  } while (got < 0 && errno == EINTR);
  if (got <= 0) return false;
  for (ssize_t written = 0; written < got;) {
    ssize_t step = ::write(to, buffer + written, static_cast<size_t>(got - written));
    if (step < 0 && errno == EINTR) continue;
    if (step <= 0) return false;
    written += step;
  }
  return true;
}

}  // namespace

int BridgeStdio(ConfinedServer& server) {
  bool input_open = true;
  for (;;) {
    struct pollfd fds[2] = {{input_open ? STDIN_FILENO : -1, POLLIN, 0},
                            {server.stdout_fd(), POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (fds[1].revents != 0 && !CopyOnce(server.stdout_fd(), STDOUT_FILENO)) break;
    if (fds[0].revents != 0 && !CopyOnce(STDIN_FILENO, server.stdin_fd())) {
      input_open = false;
      server.CloseInput();  // the client is done: let the server end by itself
    }
  }
  return server.Stop();
}

}  // namespace bravebot
