#include "cli/typed_ahead.h"

#include <termios.h>
#include <unistd.h>

#include <iostream>

namespace bravebot {

void DiscardTypedAhead(int fd) {
  if (::isatty(fd) == 1) ::tcflush(fd, TCIFLUSH);
}

void DiscardTypedAhead(const CommandContext& context) {
  // A stream other than std::cin (a test's) reads no terminal. std::cin
  // holds no line of its own here: at a terminal each read takes one line,
  // and the last answer was read to its end.
  if (context.at_terminal && &context.in == &std::cin) DiscardTypedAhead(STDIN_FILENO);
}

}  // namespace bravebot
