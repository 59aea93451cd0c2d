#include "cli/terminal_questions.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

#include "cli/typed_ahead.h"
#include "supervisor/tools/call_decision.h"

namespace bravebot {

std::unique_ptr<TerminalQuestions> TerminalQuestions::Open() {
  UniqueFd terminal(::open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY));
  if (!terminal.valid()) return nullptr;
  return std::unique_ptr<TerminalQuestions>(new TerminalQuestions(std::move(terminal)));
}

void TerminalQuestions::Show(const std::string& text) {
  std::size_t written = 0;
  while (written < text.size()) {
    ssize_t wrote = ::write(terminal_.get(), text.data() + written, text.size() - written);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) return;
    written += static_cast<std::size_t>(wrote);
  }
}

std::string TerminalQuestions::Ask(const std::string& text) {
  DiscardTypedAhead(terminal_.get());
  Show(text + " ");
  // A byte at a time, so nothing typed after the line end is taken from
  // the terminal: it may be the next call, where standard input is it too.
  std::string typed;
  for (;;) {
    char byte = 0;
    ssize_t got = ::read(terminal_.get(), &byte, 1);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      Show("\n");
      return "";
    }
    if (byte == '\n') break;
    typed += byte;
  }
  if (!typed.empty() && typed.back() == '\r') typed.pop_back();
  return typed;
}

bool IsYes(const std::string& typed) { return IsYesAnswer(typed); }

}  // namespace bravebot
