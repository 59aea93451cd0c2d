#include <sys/prctl.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "base/version.h"
#include "cli/mcp_run.h"
#include "cli/stop_on_signal.h"

int main(int argc, char** argv) {
  if (argc == 2 && (std::strcmp(argv[1], "--version") == 0 || std::strcmp(argv[1], "-V") == 0)) {
    std::cout << bravebot::VersionLine("mcp-run");
    return 0;
  }
  // It holds stored values (a server's keys): no core file, and no reading of
  // its memory through /proc by another process of the same user (but while
  // a server starts: launcher/clone_sharing_memory.h).
  ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  bravebot::StopOnSignal::Install();
  char cwd[PATH_MAX];
  if (::getcwd(cwd, sizeof(cwd)) == nullptr) {
    std::cerr << "mcp-run: the current directory cannot be read: it may have been removed\n";
    return bravebot::kExitFailed;
  }
  bravebot::RealFileSystem fs;
  bravebot::CommandContext context{
      std::cin, std::cout, std::cerr, ::getenv, cwd, ::isatty(0) == 1 && ::isatty(1) == 1, fs};
  int status = bravebot::RunMcpRun({argv + 1, argv + argc}, context);
  std::cout.flush();
  return status;
}
