// What a stdio server may reach, item by item, each with the reason it is
// there: computed from its declaration and a view of the machine, before
// anything is started. Pure: the filesystem is read only through the
// FileSystemView handed in, and nothing is created.
//
//   auto reach = ComputeReach(declaration, inputs);
//   for (const ReachPath& path : reach->paths) ...   // what profiles/ renders
#ifndef BRAVEBOT_CONFINE_REACH_H_
#define BRAVEBOT_CONFINE_REACH_H_

#include <string>
#include <vector>

#include "base/environment.h"
#include "base/result.h"
#include "confine/declaration.h"
#include "confine/filesystem.h"
#include "confine/reach_paths.h"
#include "confine/whole_directory.h"

namespace bravebot {

struct ReachInputs {
  const FileSystemView* fs = nullptr;
  EnvironmentLookup getenv;  // the environment the server is started from
  std::string user_home;     // the person's home, "" when there is none
  // The home the account has in the password database, where HOME names
  // another: others' sockets may be in either. "" when there is none.
  std::string account_home;
  ProfileLocation profile;            // the profile directory
  std::string system_temporary_root;  // "/tmp": where the run's directory is made
  std::string temporary_directory;    // this run's private directory (made at start)
  // Every --dir declared in mcp.json, for any server: a server may write each,
  // so nothing found in one steers this server's reach.
  std::vector<std::string> declared_directories;
  // The program, found already (by LocateProgram) where a decision was made on
  // it: the reach then runs exactly that one. Empty: found here.
  std::string program;
  // Its home where it is not mcp-home/<digest>: an incognito session's, in its
  // temporary directory, so nothing is written to the profile directory.
  std::string home;
};

// One variable the server starts with. The value may be a key: it is handed
// to the server and never shown.
struct ReachVariable {
  std::string name;
  std::string value;
  std::string reason;
};

struct Reach {
  std::string program;            // the absolute path executed
  std::vector<std::string> argv;  // argv[0] is the program as declared
  std::vector<ReachVariable> environment;
  std::vector<std::string> unset_variables;  // named, but unset where it starts

  std::string home;  // mcp-home/<digest>, read, write and execute
  std::string temporary_directory;
  std::string working_directory;  // --dir, or the temporary directory

  std::vector<ReachPath> paths;         // every path it may reach
  std::vector<NotGranted> not_granted;  // what a rule left out, and why
  // Where a pathname socket may be connected to: the directories it may write.
  std::vector<std::string> socket_directories;
  // Where the machine's other sockets usually are (confine/socket_places.h):
  // hidden from it where Landlock cannot refuse a socket.
  std::vector<std::string> socket_places;
};

// Computes the reach of `declaration` (a stdio server). Refuses a program that
// cannot be found the way the server would find it, or is reached through a
// link a server may have planted, and a working directory that is no longer
// the one add resolved, or no longer one a server may be given.
Result<Reach> ComputeReach(const Declaration& declaration, const ReachInputs& inputs);

// Where the program of `declaration` (a stdio server) is found: through the
// PATH it is given, when it is named without a path.
Result<std::string> LocateProgram(const Declaration& declaration, const EnvironmentLookup& getenv,
                                  const FileSystemView& fs);

// The private home of a declaration: mcp-home/<full digest> in the profile
// directory (as resolved).
std::string HomeOfDeclaration(const Declaration& declaration, const ProfileLocation& profile);

}  // namespace bravebot

#endif  // BRAVEBOT_CONFINE_REACH_H_
