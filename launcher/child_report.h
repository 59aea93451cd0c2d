// How a start that failed says where: the child between clone() and execve(),
// and the init after it, write one {step, errno} record on the error pipe and
// exit; the parent reads it, or end of file once the server executes (the
// pipe is close-on-exec). Shared by the launcher and bravebot-mcp-init.
#ifndef BRAVEBOT_LAUNCHER_CHILD_REPORT_H_
#define BRAVEBOT_LAUNCHER_CHILD_REPORT_H_

namespace bravebot {

// The steps, in the order they are taken; reported by number.
enum class ChildStep : int {
  kDeathSignal = 1,
  kDescriptors,
  kUserNamespace,
  kOwnProc,
  kSocketPlaces,
  kFilesystemView,
  kWorkingDirectory,
  kSignals,
  kLimits,
  kCapabilities,
  kNoNewPrivileges,
  kSession,
  kInit,
  kLandlock,
  kSeccomp,
  kExec,
  kBubblewrap,
};

const char* ChildStepName(ChildStep step);

// What is written on the error pipe when a step fails.
struct ChildFailure {
  int step;
  int errno_value;
};

// Where the child leaves what the server's confinement needs, once every
// other descriptor above 2 is closed; the init finds them there.
constexpr int kErrorFd = 3;
constexpr int kRulesetFd = 4;           // open only where Landlock is applied
constexpr int kSeccompFd = 5;           // for the init: the filter's instructions
constexpr int kEnvironmentFd = 6;       // for the init: the server's NAME=value, each ended by NUL
constexpr int kWorkingDirectoryFd = 7;  // opened and checked by the child
constexpr int kInitProgramFd = 8;       // bravebot-mcp-init, which the child executes
// What the child hands over to the init across execve.
constexpr int kHandedOver[] = {kErrorFd, kRulesetFd, kSeccompFd, kEnvironmentFd,
                               kWorkingDirectoryFd};

// The init's first argument: whether the server's process is to enforce the
// ruleset on kRulesetFd. Said, not inferred from the descriptor, so that a
// missing one fails the start instead of starting the server without it.
constexpr char kInitWithLandlock[] = "--landlock";
constexpr char kInitWithoutLandlock[] = "--without-landlock";

// Writes the record for `step` on `error_fd` and exits 127. Async-signal-safe.
[[noreturn]] void ReportStepAndExit(int error_fd, ChildStep step, int errno_value);

}  // namespace bravebot

#endif  // BRAVEBOT_LAUNCHER_CHILD_REPORT_H_
