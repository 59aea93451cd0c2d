#include "integration/run_command.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

#include "base/unique_fd.h"

namespace bravebot::testing {
namespace {

// `in_fd` -1 gives it /dev/null; `own_session` puts it in a session of its
// own, with no controlling terminal.
pid_t Spawn(const std::vector<std::string>& argv, const std::vector<std::string>& environment,
            int out_fd, int err_fd, const std::string& cwd, int in_fd = -1,
            bool own_session = false) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (in_fd < 0) {
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  } else {
    posix_spawn_file_actions_adddup2(&actions, in_fd, 0);
  }
  posix_spawn_file_actions_adddup2(&actions, out_fd, 1);
  posix_spawn_file_actions_adddup2(&actions, err_fd, 2);
  if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  if (own_session) posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSID);
  pid_t pid = -1;
  std::vector<char*> args = Pointers(argv);
  std::vector<char*> envp = Pointers(environment);
  if (posix_spawn(&pid, argv[0].c_str(), &actions, &attributes, args.data(), envp.data()) != 0) {
    pid = -1;
  }
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  return pid;
}

// Reads `out` and `err` to their ends, then waits for `pid`.
CommandOutput Collect(pid_t pid, UniqueFd out_read, UniqueFd err_read) {
  CommandOutput output;
  struct pollfd fds[2] = {{out_read.get(), POLLIN, 0}, {err_read.get(), POLLIN, 0}};
  std::string* sinks[2] = {&output.out, &output.err};
  int open_streams = 2;
  while (open_streams > 0) {
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      char buffer[4096];
      ssize_t got = ::read(fds[i].fd, buffer, sizeof(buffer));
      if (got > 0) {
        sinks[i]->append(buffer, static_cast<size_t>(got));
      } else if (got == 0 || errno != EINTR) {
        fds[i].fd = -1;
        --open_streams;
      }
    }
  }
  output.status = WaitForExit(pid);
  return output;
}

CommandOutput Run(const std::vector<std::string>& argv, const std::vector<std::string>& environment,
                  const std::string& cwd, const std::string* input) {
  int out_pipe[2];
  int err_pipe[2];
  int in_pipe[2];
  CommandOutput output;
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) return output;
  UniqueFd out_read(out_pipe[0]), out_write(out_pipe[1]);
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) return output;
  UniqueFd err_read(err_pipe[0]), err_write(err_pipe[1]);
  if (::pipe2(in_pipe, O_CLOEXEC) != 0) return output;
  UniqueFd in_read(in_pipe[0]), in_write(in_pipe[1]);
  pid_t pid = Spawn(argv, environment, out_write.get(), err_write.get(), cwd,
                    input ? in_read.get() : -1, input != nullptr);
  out_write.reset();
  err_write.reset();
  in_read.reset();
  if (pid < 0) return output;
  // Small enough for the pipe to hold it all: written before any is read.
  // A command that refuses its words may have ended already: the write then
  // fails (EPIPE) rather than ending the test by SIGPIPE.
  ::signal(SIGPIPE, SIG_IGN);
  if (input && !input->empty()) [[maybe_unused]]
    ssize_t ignored = ::write(in_write.get(), input->data(), input->size());
  in_write.reset();
  return Collect(pid, std::move(out_read), std::move(err_read));
}

}  // namespace

std::vector<char*> Pointers(const std::vector<std::string>& words) {
  std::vector<char*> pointers;
  for (const std::string& word : words) pointers.push_back(const_cast<char*>(word.c_str()));
  pointers.push_back(nullptr);
  return pointers;
}

int WaitForExit(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

pid_t StartCommand(const std::vector<std::string>& argv,
                   const std::vector<std::string>& environment) {
  UniqueFd null_fd(::open("/dev/null", O_WRONLY | O_CLOEXEC));
  return Spawn(argv, environment, null_fd.get(), null_fd.get(), "");
}

CommandOutput RunCommand(const std::vector<std::string>& argv,
                         const std::vector<std::string>& environment, const std::string& cwd) {
  return Run(argv, environment, cwd, nullptr);
}

CommandOutput RunWithoutTerminal(const std::vector<std::string>& argv,
                                 const std::vector<std::string>& environment,
                                 const std::string& cwd, const std::string& input) {
  return Run(argv, environment, cwd, &input);
}

}  // namespace bravebot::testing
