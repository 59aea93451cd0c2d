#include "confine/path_installs.h"

#include <algorithm>
#include <vector>

#include "confine/declaration.h"
#include "confine/paths.h"

namespace bravebot {
namespace {

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

// Why `directory` is never given whole, or "" when it may be.
std::string WhyNotWhole(const std::string& directory, const InstallRules& rules) {
  if (!rules.user_home.empty() && directory == rules.user_home) return "it is your home";
  if (!rules.user_home.empty() && IsSameOrBeneath(rules.user_home, directory)) {
    return "it holds your home";
  }
  if (IsSameOrBeneath(directory, rules.profile.path) ||
      IsSameOrBeneath(directory, rules.profile.resolved_path)) {
    return "it is in the profile directory";
  }
  if (directory == rules.system_temporary_root) {
    return "it is the system's temporary directory, where other programs keep their sockets";
  }
  return "";
}

// The installation around a bin directory: its parent, where the parent may
// be given and is not a shallow directory of the home (~/.local/bin gives
// only itself; ~/.nvm/versions/node/v20/bin gives ~/.nvm/versions/node/v20).
void GrantInstallationAround(const std::string& bin_directory, const std::string& why_there,
                             const InstallRules& rules, ReachPaths& paths) {
  const std::string name = BaseName(bin_directory);
  if (name != "bin" && name != "sbin" && name != ".bin") return;
  const std::string parent = ParentPath(bin_directory);
  if (parent == "/" || !WhyNotWhole(parent, rules).empty()) return;
  if (!rules.user_home.empty() && IsSameOrBeneath(parent, rules.user_home) &&
      DepthBelow(parent, rules.user_home) < 2) {
    return;
  }
  paths.Grant(parent, PathAccess::kReadExecute, false, "installation around " + why_there);
}

void GrantDirectoryOf(const std::string& file, const std::string& what, const InstallRules& rules,
                      ReachPaths& paths) {
  const std::string directory = ParentPath(file);
  if (std::string why = WhyNotWhole(directory, rules); !why.empty()) {
    paths.Grant(file, PathAccess::kReadExecute, true,
                what + ", alone: its directory is not given, since " + why);
    return;
  }
  paths.Grant(directory, PathAccess::kReadExecute, false, "directory of " + what);
  GrantInstallationAround(directory, "the directory of " + what, rules, paths);
}

// The directory as named and, where links lead elsewhere, as resolved.
void GrantFileAndItsTarget(const std::string& file, const std::string& what,
                           const InstallRules& rules, ReachPaths& paths) {
  GrantDirectoryOf(file, what + " " + file, rules, paths);
  std::optional<std::string> resolved = rules.fs->ResolvedPath(file);
  if (resolved && *resolved != file) {
    GrantDirectoryOf(*resolved, what + " " + file + " (through links, " + *resolved + ")", rules,
                     paths);
  }
}

// The interpreter a "#!" line names, and with `env`, the program it runs.
struct Interpreter {
  std::string path;
  std::string env_program;  // the NAME of "#!/usr/bin/env NAME", or ""
};

std::optional<Interpreter> ReadInterpreter(const std::string& program, const FileSystemView& fs) {
  std::optional<std::string> start = fs.ReadPrefix(program, 256);
  if (!start || !start->starts_with("#!")) return std::nullopt;
  std::string line = start->substr(2, start->find('\n') - 2);
  std::vector<std::string> words;
  size_t at = 0;
  while (at < line.size()) {
    size_t begin = line.find_first_not_of(" \t\r", at);
    if (begin == std::string::npos) break;
    size_t end = line.find_first_of(" \t\r", begin);
    words.push_back(line.substr(begin, end - begin));
    at = end == std::string::npos ? line.size() : end;
  }
  if (words.empty() || !words[0].starts_with('/')) return std::nullopt;
  Interpreter interpreter{words[0], ""};
  if (BaseName(words[0]) == "env") {
    // "#!/usr/bin/env -S node --flag": the first word that is not an option.
    for (size_t i = 1; i < words.size(); ++i) {
      if (!words[i].starts_with('-')) {
        interpreter.env_program = words[i];
        break;
      }
    }
  }
  return interpreter;
}

}  // namespace

Result<std::string> FindProgram(const std::string& program,
                                const std::optional<std::string>& path_value,
                                const FileSystemView& fs) {
  if (!IsProgramNamedByPath(program)) {
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

void GrantPathEntries(const std::string& path_value, const InstallRules& rules, ReachPaths& paths) {
  for (const std::string& entry : SplitPath(path_value)) {
    if (entry.empty() || !entry.starts_with('/')) {
      paths.Refuse(entry.empty() ? "(empty)" : entry,
                   "a PATH entry that is not an absolute path is not given");
      continue;
    }
    const std::string directory = AbsolutePath(entry, "/");
    if (std::string why = WhyNotWhole(directory, rules); !why.empty()) {
      paths.Refuse(directory, "PATH entry not given, since " + why);
      continue;
    }
    if (rules.fs->KindOf(directory, Follow::kYes) != FileKind::kDirectory) continue;
    paths.Grant(directory, PathAccess::kReadExecute, false, "PATH entry");
    GrantInstallationAround(directory, "PATH entry " + directory, rules, paths);
  }
}

void GrantProgram(const std::string& program_path, const std::optional<std::string>& path_value,
                  const InstallRules& rules, ReachPaths& paths) {
  GrantFileAndItsTarget(program_path, "the program", rules, paths);

  std::optional<std::string> resolved = rules.fs->ResolvedPath(program_path);
  std::optional<Interpreter> interpreter =
      ReadInterpreter(resolved ? *resolved : program_path, *rules.fs);
  if (!interpreter) return;
  GrantFileAndItsTarget(interpreter->path, "the interpreter", rules, paths);
  if (interpreter->env_program.empty()) return;
  Result<std::string> found = FindProgram(interpreter->env_program, path_value, *rules.fs);
  if (found) GrantFileAndItsTarget(*found, "the interpreter", rules, paths);
}

}  // namespace bravebot
