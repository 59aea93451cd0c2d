// The private homes under mcp-home/ in the profile directory: what audit
// shows of each (its size on disk, the declarations that use it), and the
// ones no declaration uses any longer, which audit --prune removes.
#ifndef BRAVEBOT_CLI_SERVER_HOMES_H_
#define BRAVEBOT_CLI_SERVER_HOMES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "supervisor/store/declaration_file.h"
#include "supervisor/store/profile_directory.h"

namespace bravebot {

struct ServerHome {
  std::string digest;  // its name: a declaration's whole digest
  std::string path;
  // What its files take, links not followed, a file of many names once.
  std::uint64_t bytes_on_disk = 0;
  // False where the count stopped short (too deep, or a directory that
  // could not be opened): then bytes_on_disk is a least.
  bool counted_whole = true;
  std::vector<std::string> aliases;  // the declarations whose home it is; none: unused
};

// Every directory of mcp-home/, by name; nothing where there is none.
std::vector<ServerHome> FindServerHomes(const ProfileDirectory& profile,
                                        const DeclarationFile& declarations);

// "4.0 KiB", "12.3 MiB": a size for a person.
std::string DisplaySize(std::uint64_t bytes);

// A home's size for a person: "at least 256 KiB" where the count stopped
// short.
std::string DisplayHomeSize(const ServerHome& home);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_SERVER_HOMES_H_
