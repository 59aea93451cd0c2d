// The two directories a confined server writes: its private home,
// mcp-home/<digest> in the profile directory, kept between runs, and a fresh
// temporary directory for one run, removed when it stops.
#ifndef BRAVEBOT_SUPERVISOR_STORE_SERVER_DIRECTORIES_H_
#define BRAVEBOT_SUPERVISOR_STORE_SERVER_DIRECTORIES_H_

#include <chrono>
#include <string>

#include "base/result.h"
#include "base/unique_fd.h"
#include "supervisor/store/profile_directory.h"

namespace bravebot {

// Makes (0700) or finds the home `digest_hex` names, refusing one that is a
// link or that another user owns. Returns its path (the profile directory's,
// resolved).
Result<std::string> PrepareServerHome(const ProfileDirectory& profile,
                                      const std::string& digest_hex);

// How every run directory's name starts, under the system's temporary
// directory. Not bravebot-mcp-, the name of those made before runs held
// theirs: a sweep would take a live one of a run started before an upgrade.
inline constexpr char kRunDirectoryPrefix[] = "bravebot-run-";

// A run's temporary directory, held by the run while it lasts: an flock
// on the directory, which the kernel lets go when the process that made it
// ends, however it ends. SweepRunDirectories leaves a held one alone.
struct RunDirectory {
  std::string path;  // every link resolved
  UniqueFd hold;     // the directory, locked; closed once it is removed
};

// A fresh 0700 directory under `system_temporary_root`, held.
Result<RunDirectory> MakeRunDirectory(const std::string& system_temporary_root);

// Removes the run directories under `system_temporary_root` that no run
// holds: those of a run killed before it could remove its own (by SIGKILL;
// an incognito server's home is in it). Only this user's, never through a
// link, and none changed in the last `min_age`, since a directory is made a
// moment before it is held (a change dated in the future does not count).
void SweepRunDirectories(const std::string& system_temporary_root,
                         std::chrono::seconds min_age = std::chrono::seconds(60));
// The same on a thread of its own, left to run: what a server left can take
// minutes to remove, and no start waits for it. A process that ends first
// leaves the rest to the next sweep.
void SweepRunDirectoriesInBackground(const std::string& system_temporary_root);

// Removes a run directory and everything in it, never following a link.
// Returns whether it is gone.
bool RemoveRunDirectory(const std::string& path);

// RemoveRunDirectory on a thread of its own, with `run` held until it is
// done, so that no sweep takes it meanwhile; returns at once. What a server
// left can take seconds to remove (400,000 files), and an event loop serving
// other servers does not wait for it. The thread touches nothing but `run`
// and what lives as long as the process.
void RemoveRunDirectoryInBackground(RunDirectory run);

// Waits until every removal RemoveRunDirectoryInBackground began has ended,
// or `timeout` has passed; returns whether none is under way. A process ends
// after this: a removal it cuts short leaves its directory unheld, for the
// next sweep.
bool AwaitRunDirectoryRemovals(std::chrono::milliseconds timeout);
// How long a process that ends waits for them.
inline constexpr std::chrono::seconds kRemovalsAwaitedAtExit{5};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_STORE_SERVER_DIRECTORIES_H_
