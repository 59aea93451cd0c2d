// The steps both launchers' children take, ours (child.h) and the one that
// executes bwrap (bubblewrap_child.h): in the child, between clone() and
// execve(), so each is async-signal-safe and reports a failure on `error_fd`
// (child_report.h) and exits.
#ifndef BRAVEBOT_LAUNCHER_CHILD_STEPS_H_
#define BRAVEBOT_LAUNCHER_CHILD_STEPS_H_

namespace bravebot {

// SIGKILL when the thread that started it ends. The parent may have ended
// before the signal was armed; `parent_pidfd` (readable once it has) says so,
// in whatever PID namespace the child is.
void ArmDeathSignal(int parent_pidfd, int error_fd);

// Handlers first, then the mask: the parent blocked every signal before
// clone(), so none runs one of its handlers here, on its memory. The two
// signals glibc keeps for its threads (32 and 33) cannot be reset through
// it; their handlers act only on what this process sends itself.
void ResetSignals(int error_fd);

// umask 077, and no core dumps: what a server writes is its own, and a dump
// of its memory would be a file its keys are in.
void KeepFilesPrivate(int error_fd);

}  // namespace bravebot

#endif  // BRAVEBOT_LAUNCHER_CHILD_STEPS_H_
