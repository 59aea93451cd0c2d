// Runs a program of ours at a pseudo-terminal, as a person at a terminal
// would, typing each answer once its question shows (what was typed before a
// question is drawn is discarded), and gives back everything the terminal
// showed (the typed text echoed included).
#ifndef BRAVEBOT_INTEGRATION_TERMINAL_H_
#define BRAVEBOT_INTEGRATION_TERMINAL_H_

#include <string>
#include <vector>

#include "integration/run_command.h"

namespace bravebot::testing {

// One step of a person at the terminal: once the program has shown
// `wait_for` (after the previous step's typing), `type` is typed; at once
// where `wait_for` is "". "\x04" at the start of a line is the end of the
// input, as Ctrl-D is.
struct TerminalStep {
  std::string wait_for;
  std::string type;
};

// Runs `argv` at a pseudo-terminal, typing each step's text only once its
// prompt has been shown, as a person would. A prompt not shown within 10 s
// ends the run: the output says where it stopped.
CommandOutput RunAtTerminalStepByStep(const std::vector<std::string>& argv,
                                      const std::vector<std::string>& environment,
                                      const std::string& cwd,
                                      const std::vector<TerminalStep>& steps);

}  // namespace bravebot::testing

#endif  // BRAVEBOT_INTEGRATION_TERMINAL_H_
