// One stdio server started confined: what was computed to confine it, and
// the handles of the process launched so (its pid and pidfd, its pipes, its
// run directory). RunningServer owns one for the whole of its life on an
// event loop, and stops it (servers/stop_sequence.h); nothing here waits.
//
//   Result<ConfinedServer> server = ConfinedServer::Start(declaration, options);
//   ... server->stdin_fd(), server->stdout_fd(), server->stderr_fd()
//   // once it ended: server->Reap(), then server->Finish()
#ifndef BRAVEBOT_SUPERVISOR_SERVERS_CONFINED_SERVER_H_
#define BRAVEBOT_SUPERVISOR_SERVERS_CONFINED_SERVER_H_

#include <sys/types.h>

#include <optional>
#include <string>

#include "base/result.h"
#include "base/unique_fd.h"
#include "confine/declaration.h"
#include "launcher/launch.h"
#include "supervisor/servers/server_confinement.h"
#include "supervisor/servers/server_start_options.h"
#include "supervisor/store/server_directories.h"

namespace bravebot {

class ConfinedServer {
 public:
  static Result<ConfinedServer> Start(const Declaration& declaration,
                                      const ServerStartOptions& options);

  ConfinedServer(ConfinedServer&& other) noexcept;
  ConfinedServer& operator=(ConfinedServer&&) = delete;
  // One still running (its start abandoned, or nothing stopped it) is killed
  // with SIGKILL, reaped and finished: never left behind, and never waited
  // on longer than the kernel takes to end it.
  ~ConfinedServer();

  // Its first process: the init of its PID namespace, or the server itself.
  pid_t pid() const { return child_.pid; }
  // A pidfd of its first process, taken at the start: readable once it ends,
  // for a loop to wait on.
  int pidfd() const { return pidfd_.get(); }
  int stdin_fd() const { return child_.stdin_fd.get(); }
  int stdout_fd() const { return child_.stdout_fd.get(); }
  int stderr_fd() const { return child_.stderr_fd.get(); }
  const Confinement& confinement() const { return confinement_; }
  // Its temporary directory for this run (its TMPDIR), which Finish
  // removes; empty once Finish has, or handed it to a removal.
  const std::string& run_directory() const { return run_directory_.path; }

  // Hands its pipes' ends over to a loop that reads and writes them itself.
  UniqueFd TakeStdin() { return std::move(child_.stdin_fd); }
  UniqueFd TakeStdout() { return std::move(child_.stdout_fd); }
  UniqueFd TakeStderr() { return std::move(child_.stderr_fd); }

  // Its exit status as a shell gives it (128 + signal) if it has ended,
  // reaping it; nothing while it runs. Never blocks.
  std::optional<int> Reap();

  // Sends `signal` to its process group, while it is not reaped: after, its
  // number may be another process's. Under bubblewrap, a signal but SIGKILL
  // goes to the server itself, which bwrap would otherwise not pass on.
  void Signal(int signal);

  // Where Finish removes its temporary directory: before it returns, or on
  // a thread of its own (RemoveRunDirectoryInBackground), held meanwhile, for
  // an event loop that serves other servers and must not wait on what this
  // one left there.
  enum class Removal { kHere, kInBackground };

  // Once it has been reaped: ends what it left behind where it had no PID
  // namespace, then removes its temporary directory. Its output descriptors
  // stay open until this object goes: a reader may still be draining them.
  void Finish(Removal removal = Removal::kHere);

 private:
  ConfinedServer(LaunchedChild child, UniqueFd pidfd, Confinement confinement,
                 RunDirectory run_directory)
      : child_(std::move(child)),
        pidfd_(std::move(pidfd)),
        confinement_(std::move(confinement)),
        run_directory_(std::move(run_directory)) {}

  LaunchedChild child_;
  UniqueFd pidfd_;
  Confinement confinement_;
  RunDirectory run_directory_;
  std::optional<int> exit_status_;
};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SERVERS_CONFINED_SERVER_H_
