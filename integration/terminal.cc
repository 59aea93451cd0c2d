#include "integration/terminal.h"

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>

namespace bravebot::testing {

CommandOutput RunAtTerminal(const std::vector<std::string>& argv,
                            const std::vector<std::string>& environment, const std::string& cwd,
                            const std::string& typed) {
  CommandOutput output;
  int controller = -1;
  int terminal = -1;
  if (::openpty(&controller, &terminal, nullptr, nullptr, nullptr) != 0) return output;
  std::vector<char*> args;
  for (const std::string& word : argv) args.push_back(const_cast<char*>(word.c_str()));
  args.push_back(nullptr);
  std::vector<char*> envp;
  for (const std::string& word : environment) envp.push_back(const_cast<char*>(word.c_str()));
  envp.push_back(nullptr);

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
  if (pid < 0) {
    ::close(controller);
    return output;
  }
  // Typed ahead: the terminal holds it until the program reads.
  if (!typed.empty()) [[maybe_unused]]
    ssize_t ignored = ::write(controller, typed.data(), typed.size());
  char buffer[4096];
  for (;;) {
    struct pollfd ready = {controller, POLLIN, 0};
    if (::poll(&ready, 1, 10000) <= 0) break;
    ssize_t got = ::read(controller, buffer, sizeof(buffer));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;  // EIO once the program has closed the terminal
    output.out.append(buffer, static_cast<size_t>(got));
  }
  ::close(controller);
  output.status = WaitForExit(pid);
  return output;
}

}  // namespace bravebot::testing
