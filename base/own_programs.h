// The programs bravebot-mcp installs beside its own (bravebot-mcp-probe,
// bravebot-mcp-init), found from the running program's path, so that a build
// directory and an installed copy each use their own.
#ifndef BRAVEBOT_BASE_OWN_PROGRAMS_H_
#define BRAVEBOT_BASE_OWN_PROGRAMS_H_

#include <string>
#include <string_view>

namespace bravebot {

// The path of `name` in the directory of /proc/self/exe; empty where that
// cannot be read. Whether a file is there is the caller's to find out.
std::string ProgramBesideThisOne(std::string_view name);

}  // namespace bravebot

#endif  // BRAVEBOT_BASE_OWN_PROGRAMS_H_
