#include "integration/running_command.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <thread>

#include "integration/run_command.h"

namespace bravebot::testing {

int TestSlowness() {
  static const int slowness = [] {
    const char* set = std::getenv("BRAVEBOT_TEST_SLOWNESS");
    if (set == nullptr) return 1;
    char* end = nullptr;
    const long value = std::strtol(set, &end, 10);
    return end != set && *end == '\0' && value >= 1 && value <= 20 ? static_cast<int>(value) : 1;
  }();
  return slowness;
}

namespace {

int MillisecondsUntil(Deadline deadline) {
  auto left =
      std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
  return left.count() < 0 ? 0 : static_cast<int>(left.count());
}

int ShellStatus(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

}  // namespace

RunningCommand::RunningCommand(const std::vector<std::string>& argv,
                               const std::vector<std::string>& environment, const std::string& cwd,
                               const std::string& stderr_path) {
  // A program that closed its input is a failed Write, not the end of the tests.
  ::signal(SIGPIPE, SIG_IGN);
  int to_child[2], from_child[2];
  if (::pipe2(to_child, O_CLOEXEC) != 0) return;
  if (::pipe2(from_child, O_CLOEXEC) != 0) {
    ::close(to_child[0]);
    ::close(to_child[1]);
    return;
  }
  UniqueFd child_input(to_child[0]), child_output(from_child[1]);
  input_.reset(to_child[1]);
  output_.reset(from_child[0]);
  // Ours only: the child's ends stay as they are, blocking.
  ::fcntl(input_.get(), F_SETFL, O_NONBLOCK);
  ::fcntl(output_.get(), F_SETFL, O_NONBLOCK);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, child_input.get(), 0);
  posix_spawn_file_actions_adddup2(&actions, child_output.get(), 1);
  posix_spawn_file_actions_addopen(&actions, 2, stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0600);
  posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
  std::vector<char*> args = Pointers(argv);
  std::vector<char*> envp = Pointers(environment);
  if (posix_spawn(&pid_, argv[0].c_str(), &actions, nullptr, args.data(), envp.data()) != 0) {
    pid_ = -1;
  }
  posix_spawn_file_actions_destroy(&actions);
}

RunningCommand::~RunningCommand() {
  if (pid_ <= 0 || status_) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
}

bool RunningCommand::Write(std::string_view bytes, Deadline deadline) {
  while (!bytes.empty()) {
    if (!input_.valid()) return false;
    ssize_t put = ::write(input_.get(), bytes.data(), bytes.size());
    if (put > 0) {
      bytes.remove_prefix(static_cast<std::size_t>(put));
      continue;
    }
    if (put < 0 && errno != EAGAIN && errno != EINTR) return false;
    struct pollfd room = {input_.get(), POLLOUT, 0};
    if (::poll(&room, 1, MillisecondsUntil(deadline)) == 0) return false;
  }
  return true;
}

std::vector<std::string> RunningCommand::ReadLines(std::size_t count, Deadline deadline) {
  std::vector<std::string> lines;
  for (;;) {
    for (std::size_t newline;
         lines.size() < count && (newline = unread_.find('\n')) != std::string::npos;) {
      lines.push_back(unread_.substr(0, newline));
      unread_.erase(0, newline + 1);
    }
    if (lines.size() == count) return lines;
    struct pollfd ready = {output_.get(), POLLIN, 0};
    if (::poll(&ready, 1, MillisecondsUntil(deadline)) == 0) return lines;
    char buffer[65536];
    ssize_t got = ::read(output_.get(), buffer, sizeof(buffer));
    if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR)) return lines;
    if (got > 0) unread_.append(buffer, static_cast<std::size_t>(got));
  }
}

std::optional<int> RunningCommand::Wait(Deadline deadline) {
  while (!status_ && pid_ > 0) {
    int status = 0;
    pid_t done = ::waitpid(pid_, &status, WNOHANG);
    if (done == pid_) {
      status_ = ShellStatus(status);
      break;
    }
    if (done < 0 && errno != EINTR) break;
    if (std::chrono::steady_clock::now() >= deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return status_;
}

}  // namespace bravebot::testing
