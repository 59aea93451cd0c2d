#include "launcher/bubblewrap_program.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "base/unique_fd.h"
#include "profiles/bubblewrap_version.h"

namespace bravebot {
namespace {

std::string NotUsable(const std::string& why) {
  std::string sentence = kBubblewrapPath;
  sentence.append(" cannot be used: ").append(why);
  return sentence;
}

// What `bwrap --version` printed, or why it printed nothing.
BubblewrapProgram AskVersion() {
  BubblewrapProgram program;
  if (::access(kBubblewrapPath, X_OK) != 0) {
    program.why_not = std::string(kBubblewrapPath) + " is not there (" + std::strerror(errno) +
                      "): install the bubblewrap package";
    return program;
  }
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    program.why_not =
        NotUsable(std::string("no pipe to read its version: ") + std::strerror(errno));
    return program;
  }
  UniqueFd read_end(fds[0]);
  UniqueFd write_end(fds[1]);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, write_end.get(), 1);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  char name[] = "bwrap";
  char flag[] = "--version";
  char* argv[] = {name, flag, nullptr};
  char* no_environment[] = {nullptr};
  pid_t pid = -1;
  const int failed = ::posix_spawn(&pid, kBubblewrapPath, &actions, nullptr, argv, no_environment);
  posix_spawn_file_actions_destroy(&actions);
  write_end.reset();
  if (failed != 0) {
    program.why_not = NotUsable(std::string("it does not run: ") + std::strerror(failed));
    return program;
  }
  std::string output;
  char buffer[256];
  for (;;) {
    ssize_t got = ::read(read_end.get(), buffer, sizeof(buffer));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0 || output.size() > 4096) break;
    output.append(buffer, static_cast<size_t>(got));
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    program.why_not = NotUsable("its --version failed");
    return program;
  }
  program.version = output.substr(0, output.find('\n'));
  const std::string problem = BubblewrapVersionProblem(output);
  if (!problem.empty()) {
    program.why_not = NotUsable(problem);
    return program;
  }
  program.usable = true;
  return program;
}

}  // namespace

const BubblewrapProgram& ProbeBubblewrapOnce() {
  static const BubblewrapProgram program = AskVersion();
  return program;
}

}  // namespace bravebot
