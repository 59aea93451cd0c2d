#include "launcher/child_report.h"

#include "launcher/raw_syscall.h"

namespace bravebot {

const char* ChildStepName(ChildStep step) {
  switch (step) {
    case ChildStep::kDeathSignal:
      return "arrange to end with its parent";
    case ChildStep::kDescriptors:
      return "close every descriptor it is not given";
    case ChildStep::kUserNamespace:
      return "enter a user namespace of its own";
    case ChildStep::kOwnProc:
      return "mount a /proc of its own";
    case ChildStep::kSocketPlaces:
      return "hide the places other sockets are, all but its own paths there";
    case ChildStep::kFilesystemView:
      return "make the filesystem read-only outside its own directories";
    case ChildStep::kWorkingDirectory:
      return "enter its working directory (it must be the one its reach was computed for)";
    case ChildStep::kSignals:
      return "reset its signals";
    case ChildStep::kLimits:
      return "turn off core dumps";
    case ChildStep::kCapabilities:
      return "drop its capabilities";
    case ChildStep::kNoNewPrivileges:
      return "set no-new-privileges";
    case ChildStep::kSession:
      return "start a session of its own";
    case ChildStep::kInit:
      return "start the server under its own init";
    case ChildStep::kLandlock:
      return "enforce its Landlock ruleset";
    case ChildStep::kSeccomp:
      return "install its seccomp filter";
    case ChildStep::kExec:
      return "execute the program";
    case ChildStep::kBubblewrap:
      return "execute /usr/bin/bwrap";
  }
  return "start";
}

void ReportStepAndExit(int error_fd, ChildStep step, int errno_value) {
  ChildFailure failure{static_cast<int>(step), errno_value};
  // One write of a few bytes to a pipe is atomic; nothing to retry into.
  RawSyscall(SYS_write, error_fd, reinterpret_cast<long>(&failure), sizeof(failure));
  for (;;) RawSyscall(SYS_exit_group, 127);
}

}  // namespace bravebot
