// The profile directory: $BRAVEBOT_HOME if set, else $HOME/.bravebot, and
// where neither is set, none at all (nothing is declared, nothing can be).
// Held open as a descriptor, so every file in it is reached without following
// a link; the directory itself may be a link, and is followed once, here.
//
//   auto location = LocateProfileDirectory(std::getenv);
//   auto profile = ProfileDirectory::Open(*location, Create::kYes);
//   ReadFileAt(profile->fd(), "mcp.json", profile->PathOf("mcp.json"), kDeclarationFileBound);
#ifndef BRAVEBOT_SUPERVISOR_STORE_PROFILE_DIRECTORY_H_
#define BRAVEBOT_SUPERVISOR_STORE_PROFILE_DIRECTORY_H_

#include <optional>
#include <string>

#include "base/environment.h"
#include "base/file_lock.h"
#include "base/result.h"
#include "base/unique_fd.h"

namespace bravebot {

// Where the profile directory is, from the environment; nothing when the
// machine names none. A relative BRAVEBOT_HOME is taken from `cwd`.
std::optional<std::string> LocateProfileDirectory(const EnvironmentLookup& getenv,
                                                  const std::string& cwd);

// The words a refused writing command says when there is no profile directory.
std::string NoProfileDirectoryMessage();

enum class Create { kNo, kYes };

class ProfileDirectory {
 public:
  // Opens the directory at `path`. With Create::kYes a missing one is made
  // 0700 (its parent must exist); with Create::kNo a missing one is kNotFound.
  // One that another user owns is refused, and one others may read is
  // narrowed to 0700, since it holds stored keys.
  static Result<ProfileDirectory> Open(const std::string& path, Create create);

  // The same directory on a descriptor of its own, for what may outlive
  // this one: not opened again by its path, which may name another now.
  Result<ProfileDirectory> Duplicate() const;

  int fd() const { return fd_.get(); }
  const std::string& path() const { return path_; }
  // `path` with every link resolved, for comparing with other paths.
  const std::string& resolved_path() const { return resolved_path_; }
  std::string PathOf(const std::string& name) const;

  // The lock every writer of the profile directory holds from its first read
  // to its last rename, so that changes to mcp.json and mcp-approved made
  // together are seen together.
  Result<FileLock> Lock() const;

 private:
  ProfileDirectory(UniqueFd fd, std::string path, std::string resolved_path)
      : fd_(std::move(fd)), path_(std::move(path)), resolved_path_(std::move(resolved_path)) {}

  UniqueFd fd_;
  std::string path_;
  std::string resolved_path_;
};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_STORE_PROFILE_DIRECTORY_H_
