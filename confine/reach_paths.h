// The paths of a reach as they are gathered: each granted once, with the
// access it allows and the reason in words, and what a rule left out.
#ifndef BRAVEBOT_CONFINE_REACH_PATHS_H_
#define BRAVEBOT_CONFINE_REACH_PATHS_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace bravebot {

enum class PathAccess {
  kRead,              // read a file, list a directory
  kReadExecute,       // and run what is in it
  kReadWrite,         // a device: read and write, nothing made or removed
  kReadWriteExecute,  // a directory of its own: everything
};

std::string_view PathAccessName(PathAccess access);

// What a grant of a path covers.
enum class GrantExtent {
  kBeneath,   // the path and everything below it
  kFileOnly,  // this one file, not a directory and what is below it
};

struct ReachPath {
  std::string path;
  PathAccess access;
  bool file_only;      // this one file, not a directory and what is below it
  std::string reason;  // "installation around PATH entry /home/u/.nvm/versions/node/v20/bin"
};

struct NotGranted {
  std::string path;
  std::string why;
};

class ReachPaths {
 public:
  // Grants `path`. A path granted already keeps its first reason, and gains
  // the wider access of the two.
  void Grant(const std::string& path, PathAccess access, GrantExtent extent, std::string reason);
  void Refuse(const std::string& path, std::string why);

  const std::vector<ReachPath>& granted() const { return granted_; }
  const std::vector<NotGranted>& not_granted() const { return not_granted_; }
  // True when `path` is granted, or lies beneath a directory that is.
  bool Covers(const std::string& path) const;

 private:
  std::vector<ReachPath> granted_;
  // Where each path is in granted_: a reach grants some 200 paths, and asks
  // whether one is covered for each it grants.
  std::unordered_map<std::string, std::size_t> index_;
  std::vector<NotGranted> not_granted_;
};

}  // namespace bravebot

#endif  // BRAVEBOT_CONFINE_REACH_PATHS_H_
