// The questions `bravebot-mcp session` puts to the person, at the terminal
// (/dev/tty) and never on standard input, which carries the calls: a script
// piping calls in cannot answer them.
#ifndef BRAVEBOT_CLI_TERMINAL_QUESTIONS_H_
#define BRAVEBOT_CLI_TERMINAL_QUESTIONS_H_

#include <memory>
#include <string>

#include "base/unique_fd.h"

namespace bravebot {

class TerminalQuestions {
 public:
  // The terminal the session runs at; nothing where it has none.
  static std::unique_ptr<TerminalQuestions> Open();

  // Discards what was typed ahead (cli/typed_ahead.h), shows `text`, a
  // space, and reads one line: what was typed, without its line end; ""
  // where the terminal's input ended (Ctrl-D), which every question takes
  // as no.
  std::string Ask(const std::string& text);

  // Shows `text` at the terminal, without asking.
  void Show(const std::string& text);

 private:
  explicit TerminalQuestions(UniqueFd terminal) : terminal_(std::move(terminal)) {}

  UniqueFd terminal_;
};

// True for the yes of a [y/N] question: y, Y or yes (or 1, as the
// supervisor reads every yes).
bool IsYes(const std::string& typed);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_TERMINAL_QUESTIONS_H_
