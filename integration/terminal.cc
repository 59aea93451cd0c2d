#include "integration/terminal.h"

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>

#include "integration/run_command.h"

namespace bravebot::testing {

namespace {

// Forks `argv` with the terminal of a new pseudo-terminal as its controlling
// terminal and its standard streams; gives its pid and the controller's fd.
pid_t StartAtTerminal(const std::vector<std::string>& argv,
                      const std::vector<std::string>& environment, const std::string& cwd,
                      int& controller) {
  int terminal = -1;
  // As wide as the terminal a person most often has: what is cut to its
  // width is cut in the tests too.
  struct winsize size {};
  size.ws_row = 24;
  size.ws_col = 80;
  if (::openpty(&controller, &terminal, nullptr, nullptr, &size) != 0) return -1;
  std::vector<char*> args = Pointers(argv);
  std::vector<char*> envp = Pointers(environment);
  pid_t pid = ::fork();
  if (pid == 0) {
    ::setsid();
    ::ioctl(terminal, TIOCSCTTY, 0);
    for (int fd = 0; fd < 3; ++fd) ::dup2(terminal, fd);
    ::close(terminal);
    ::close(controller);
    if (!cwd.empty() && ::chdir(cwd.c_str()) != 0) ::_exit(126);
    ::execve(args[0], args.data(), envp.data());
    ::_exit(127);
  }
  ::close(terminal);
  if (pid < 0) ::close(controller);
  return pid;
}

// Reads what the terminal shows into `shown`; false once the program closed
// it, or showed nothing for 10 s.
bool ReadShown(int controller, std::string& shown) {
  for (;;) {
    struct pollfd ready = {controller, POLLIN, 0};
    if (::poll(&ready, 1, 10000) <= 0) return false;
    char buffer[4096];
    ssize_t got = ::read(controller, buffer, sizeof(buffer));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;  // EIO once the program has closed the terminal
    shown.append(buffer, static_cast<size_t>(got));
    return true;
  }
}

void Type(int controller, const std::string& typed) {
  if (!typed.empty()) [[maybe_unused]]
    ssize_t ignored = ::write(controller, typed.data(), typed.size());
}

}  // namespace

CommandOutput RunAtTerminalStepByStep(const std::vector<std::string>& argv,
                                      const std::vector<std::string>& environment,
                                      const std::string& cwd,
                                      const std::vector<TerminalStep>& steps) {
  CommandOutput output;
  int controller = -1;
  pid_t pid = StartAtTerminal(argv, environment, cwd, controller);
  if (pid < 0) return output;
  std::size_t seen_from = 0;  // where the next prompt is looked for
  bool open = true;
  for (const TerminalStep& step : steps) {
    while (open && output.out.find(step.wait_for, seen_from) == std::string::npos) {
      open = ReadShown(controller, output.out);
    }
    if (!open) break;
    seen_from = output.out.size();
    Type(controller, step.type);
  }
  while (open && ReadShown(controller, output.out)) {
  }
  ::close(controller);
  // A run that stopped short of its steps is ended, not waited for forever.
  if (!open) ::kill(pid, SIGKILL);
  output.status = WaitForExit(pid);
  return output;
}

}  // namespace bravebot::testing
