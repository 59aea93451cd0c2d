#include <sys/prctl.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <iostream>

#include "cli/command.h"

int main(int argc, char** argv) {
  // It holds stored values (the keys of mcp.json): no core file, and no
  // reading of its memory through /proc by another process of the same user
  // (but while a server starts: launcher/clone_sharing_memory.h).
  ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  char cwd[PATH_MAX];
  if (::getcwd(cwd, sizeof(cwd)) == nullptr) {
    std::cerr << "bravebot-mcp: the current directory cannot be read: it may have been removed\n";
    return bravebot::kExitFailed;
  }
  bravebot::RealFileSystem fs;
  bravebot::CommandContext context{
      std::cin, std::cout, std::cerr, ::getenv, cwd, ::isatty(0) == 1 && ::isatty(1) == 1, fs};
  int status = bravebot::RunBravebotMcp({argv + 1, argv + argc}, context);
  std::cout.flush();
  return status;
}
