// Runs a program of ours the way a person's shell would, for end-to-end tests:
// given arguments and an exact environment, with stdout and stderr captured.
//
//   CommandOutput result = RunCommand({kBravebotMcp, "list"}, {"BRAVEBOT_HOME=/tmp/p"});
//   EXPECT_EQ(result.status, 0);
#ifndef BRAVEBOT_INTEGRATION_RUN_COMMAND_H_
#define BRAVEBOT_INTEGRATION_RUN_COMMAND_H_

#include <sys/types.h>

#include <string>
#include <vector>

namespace bravebot::testing {

struct CommandOutput {
  int status = -1;  // the exit status, or 128 + the signal that ended it
  std::string out;
  std::string err;
};

// Runs `argv` with exactly `environment` (NAME=value words) and standard input
// from /dev/null, in `cwd` when it is not empty, and waits for it.
CommandOutput RunCommand(const std::vector<std::string>& argv,
                         const std::vector<std::string>& environment, const std::string& cwd = "");

// Runs `argv` like RunCommand, with `input` on its standard input and in a
// session of its own, so that it has no controlling terminal (/dev/tty does
// not open) even where the tests were started from one.
CommandOutput RunWithoutTerminal(const std::vector<std::string>& argv,
                                 const std::vector<std::string>& environment,
                                 const std::string& cwd, const std::string& input);

// Starts `argv` like RunCommand, with its output thrown away, and returns at
// once; the caller waits for or kills the pid.
pid_t StartCommand(const std::vector<std::string>& argv,
                   const std::vector<std::string>& environment);

// Waits for `pid` and returns its status as CommandOutput::status does.
int WaitForExit(pid_t pid);

// `words` as the null-terminated array execve takes; the strings must outlive it.
std::vector<char*> Pointers(const std::vector<std::string>& words);

}  // namespace bravebot::testing

#endif  // BRAVEBOT_INTEGRATION_RUN_COMMAND_H_
