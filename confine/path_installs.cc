#include "confine/path_installs.h"

#include <algorithm>
#include <vector>

#include "confine/declaration.h"
#include "confine/interpreter_line.h"
#include "confine/paths.h"

namespace bravebot {
namespace {

// Where env looks for its program once PATH is cleared: the C library's
// default search path.
constexpr char kDefaultSearchPath[] = "/bin:/usr/bin";

std::vector<std::string> SplitPath(const std::string& value) {
  std::vector<std::string> entries;
  size_t start = 0;
  for (;;) {
    size_t colon = value.find(':', start);
    entries.push_back(value.substr(start, colon - start));
    if (colon == std::string::npos) return entries;
    start = colon + 1;
  }
}

std::string BaseName(const std::string& path) { return path.substr(path.rfind('/') + 1); }

// How many components `path` lies below `directory` (0 for the same).
size_t DepthBelow(const std::string& path, const std::string& directory) {
  if (path == directory) return 0;
  std::string rest = path.substr(directory == "/" ? 1 : directory.size() + 1);
  return static_cast<size_t>(std::count(rest.begin(), rest.end(), '/')) + 1;
}

// The installation around a bin directory (resolved): its parent, where the
// parent may be granted whole and is not a shallow directory of the home
// (~/.local/bin gives only itself; ~/.nvm/versions/node/v20/bin gives
// ~/.nvm/versions/node/v20).
void GrantInstallationAround(const std::string& bin_directory, const std::string& why_there,
                             const GrantRules& rules, ReachPaths& paths) {
  const std::string name = BaseName(bin_directory);
  if (name != "bin" && name != "sbin" && name != ".bin") return;
  const std::string parent = ParentPath(bin_directory);
  if (parent == "/" || !WhyNotWhole(parent, rules.limits).empty()) return;
  for (const std::string& home : rules.limits.Homes()) {
    if (IsSameOrBeneath(parent, home) && DepthBelow(parent, home) < 2) return;
  }
  paths.Grant(parent, PathAccess::kReadExecute, GrantExtent::kBeneath,
              "installation around " + why_there);
}

// Grants the directory holding `file` (both resolved) and the installation
// around it, or, where that directory is never granted whole, `file` alone.
void GrantDirectoryOf(const std::string& file, const std::string& what, const GrantRules& rules,
                      ReachPaths& paths) {
  const std::string directory = ParentPath(file);
  if (std::string why = WhyNotWhole(directory, rules.limits); !why.empty()) {
    paths.Grant(file, PathAccess::kReadExecute, GrantExtent::kFileOnly,
                what + ", alone: its directory is not given, since " + why);
    return;
  }
  paths.Grant(directory, PathAccess::kReadExecute, GrantExtent::kBeneath, "directory of " + what);
  GrantInstallationAround(directory, "the directory of " + what, rules, paths);
}

// Grants where `file` leads, and the directory it is named in when that is
// another (a bin directory of links into their packages). Returns where it
// leads.
Result<std::string> GrantFileAndItsTarget(const std::string& file, const std::string& what,
                                          const GrantRules& rules, ReachPaths& paths) {
  BRAVEBOT_ASSIGN_OR_RETURN(std::string target, rules.Resolve(file));
  Result<std::string> named_directory = rules.Resolve(ParentPath(AbsolutePath(file, "/")));
  if (named_directory && *named_directory != ParentPath(target) &&
      WhyNotWhole(*named_directory, rules.limits).empty()) {
    paths.Grant(*named_directory, PathAccess::kReadExecute, GrantExtent::kBeneath,
                "directory of " + what + " " + file);
    GrantInstallationAround(*named_directory, "the directory of " + what + " " + file, rules,
                            paths);
  }
  const std::string described = what + " " + file;
  GrantDirectoryOf(target,
                   target == file ? described : described + " (through links, " + target + ")",
                   rules, paths);
  return target;
}

// The interpreters a "#!" line runs: the one the kernel runs, and the program
// env runs, found as env finds it.
std::vector<std::string> InterpretersOf(const InterpreterLine& line,
                                        const std::optional<std::string>& path_value,
                                        const FileSystemView& fs) {
  std::vector<std::string> interpreters = {line.interpreter};
  if (line.env_program.empty()) return interpreters;
  std::optional<std::string> search = line.env_path_cleared ? kDefaultSearchPath : path_value;
  Result<std::string> found = FindProgram(line.env_program, search, fs);
  if (found) interpreters.push_back(*found);
  return interpreters;
}

void GrantInterpreters(const std::string& program_path, const std::string& program,
                       const std::optional<std::string>& path_value, const GrantRules& rules,
                       ReachPaths& paths) {
  std::optional<std::string> start = rules.fs->ReadPrefix(program, kInterpreterLineBytes);
  std::optional<InterpreterLine> line = start ? ReadInterpreterLine(*start) : std::nullopt;
  if (!line) return;
  if (!line->unread.empty()) {
    paths.Refuse(program_path, "nothing its #! line names beyond " +
                                   (line->interpreter.empty() ? "that" : line->interpreter) +
                                   " is given, since " + line->unread);
  }
  if (line->interpreter.empty()) return;
  const std::string writer = ServerWritableDirectoryHolding(program, rules.server_writable);
  for (const std::string& interpreter : InterpretersOf(*line, path_value, *rules.fs)) {
    if (!writer.empty()) {
      // The server may have written this line itself: it widens nothing.
      Result<std::string> target = rules.Resolve(interpreter);
      if (!target || !paths.Covers(*target)) {
        paths.Refuse(interpreter, "the interpreter the #! line of " + program +
                                      " names is not given, since that program lies in " + writer +
                                      ", a directory a server may write");
      }
      continue;
    }
    Result<std::string> granted =
        GrantFileAndItsTarget(interpreter, "the interpreter", rules, paths);
    if (!granted)
      paths.Refuse(interpreter, "the interpreter is not given: " + granted.error().message());
  }
}

}  // namespace

Result<std::string> FindProgram(const std::string& program,
                                const std::optional<std::string>& path_value,
                                const FileSystemView& fs) {
  if (!IsProgramFoundThroughPath(program)) {
    if (!fs.IsExecutableFile(program)) {
      return Error(ErrorCode::kNotFound, program + " is not an executable file here");
    }
    return program;
  }
  if (!path_value) {
    return Error(ErrorCode::kNotFound,
                 program +
                     " is given by name, and the server is given no PATH to find it "
                     "through: name PATH for it (-e PATH), or give the program's full path");
  }
  for (const std::string& entry : SplitPath(*path_value)) {
    if (!entry.starts_with('/')) continue;
    std::string candidate = JoinPath(entry, program);
    if (fs.IsExecutableFile(candidate)) return candidate;
  }
  return Error(ErrorCode::kNotFound,
               program +
                   " is not found in the PATH the server is given: name a PATH that holds "
                   "it, or give the program's full path");
}

void GrantPathEntries(const std::string& path_value, const GrantRules& rules, ReachPaths& paths) {
  for (const std::string& entry : SplitPath(path_value)) {
    if (entry.empty() || !entry.starts_with('/')) {
      paths.Refuse(entry.empty() ? "(empty)" : entry,
                   "a PATH entry that is not an absolute path is not given");
      continue;
    }
    // The rule first as the entry is spelled, then where it leads.
    if (std::string why = WhyNotWhole(AbsolutePath(entry, "/"), rules.limits); !why.empty()) {
      paths.Refuse(AbsolutePath(entry, "/"), "PATH entry not given, since " + why);
      continue;
    }
    Result<std::string> directory = rules.Resolve(entry);
    if (!directory) {
      if (directory.error().code() != ErrorCode::kNotFound) {
        paths.Refuse(entry, "PATH entry not given: " + directory.error().message());
      }
      continue;
    }
    if (rules.fs->KindOf(*directory, Follow::kNo) != FileKind::kDirectory) continue;
    if (std::string why = WhyNotWhole(*directory, rules.limits); !why.empty()) {
      paths.Refuse(*directory, "PATH entry not given, since " + why);
      continue;
    }
    const bool through_links = *directory != AbsolutePath(entry, "/");
    paths.Grant(*directory, PathAccess::kReadExecute, GrantExtent::kBeneath,
                through_links ? "PATH entry " + entry + " (through links)" : "PATH entry");
    GrantInstallationAround(*directory, "PATH entry " + *directory, rules, paths);
  }
}

Status GrantProgram(const std::string& program_path, const std::optional<std::string>& path_value,
                    const GrantRules& rules, ReachPaths& paths) {
  Result<std::string> program = GrantFileAndItsTarget(program_path, "the program", rules, paths);
  if (!program) {
    return Error(ErrorCode::kRefused,
                 "its program " + program_path + " is not started: " + program.error().message());
  }
  GrantInterpreters(program_path, *program, path_value, rules, paths);
  return {};
}

}  // namespace bravebot
