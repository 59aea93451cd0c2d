// The pipes between a launcher and the child it starts: the server's standard
// streams, and the error pipe that closes on exec, read back as the child's
// report (child_report.h). Shared by both launchers, launch.h's and
// bubblewrap_launch.h's.
#ifndef BRAVEBOT_LAUNCHER_CHILD_PIPES_H_
#define BRAVEBOT_LAUNCHER_CHILD_PIPES_H_

#include <sys/types.h>

#include "base/result.h"
#include "base/unique_fd.h"

namespace bravebot {

struct Pipe {
  UniqueFd read_end;
  UniqueFd write_end;
};

// A pipe whose ends both close on exec.
Result<Pipe> MakePipe();

// Once the child is started: the parent's ends of the server's three pipes
// (its input's write end, its output's and its errors' read ends) go to
// `input`, `output` and `errors`, and the child's ends close, so that an exit
// of the child reads as end of file. Pipes never made stay invalid.
void KeepParentEnds(Pipe (&stdio)[3], UniqueFd& input, UniqueFd& output, UniqueFd& errors);

// Reads the child's report: nothing (the pipe closed on exec) or one failure,
// which is returned as an error naming the step, once the child is reaped.
Status AwaitExec(int error_read_fd, pid_t pid);

}  // namespace bravebot

#endif  // BRAVEBOT_LAUNCHER_CHILD_PIPES_H_
