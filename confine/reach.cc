#include "confine/reach.h"

#include <algorithm>

#include "confine/digest.h"
#include "confine/path_installs.h"
#include "confine/paths.h"
#include "confine/remembering_filesystem.h"
#include "confine/socket_places.h"
#include "confine/system_paths.h"
#include "confine/working_directory.h"

namespace bravebot {
namespace {

void ComputeEnvironment(const Declaration& declaration, const ReachInputs& inputs, Reach& reach) {
  for (const StoredVariable& stored : declaration.stored_variables) {
    reach.environment.push_back({stored.name, stored.value, "stored"});
  }
  for (const std::string& name : declaration.passed_variables) {
    if (const char* value = inputs.getenv(name.c_str())) {
      reach.environment.push_back({name, value, "named, read from your environment"});
    } else {
      reach.unset_variables.push_back(name);
    }
  }
  if (!declaration.NamesVariable("HOME")) {
    reach.environment.push_back({"HOME", reach.home, "its private home"});
  }
  if (!declaration.NamesVariable("TMPDIR")) {
    reach.environment.push_back({"TMPDIR", reach.temporary_directory, "its temporary directory"});
  }
  std::sort(reach.environment.begin(), reach.environment.end(),
            [](const ReachVariable& a, const ReachVariable& b) { return a.name < b.name; });
}

// A recorded file is given only while a value or an argument still names it,
// so an entry edited by hand into mcp.json widens nothing.
bool IsNamedByDeclaration(const std::string& path, const Declaration& declaration) {
  auto names = [&](const std::string& word) {
    return word.starts_with('/') && AbsolutePath(word, "/") == path;
  };
  for (const StoredVariable& stored : declaration.stored_variables) {
    if (names(stored.value)) return true;
  }
  for (const std::string& argument : declaration.arguments) {
    size_t equals = argument.find('=');
    if (names(argument) || (equals != std::string::npos && names(argument.substr(equals + 1)))) {
      return true;
    }
  }
  return false;
}

void GrantFilesItMayRead(const Declaration& declaration, const GrantRules& rules,
                         ReachPaths& paths) {
  for (const std::string& file : declaration.may_read) {
    if (!IsNamedByDeclaration(file, declaration)) {
      paths.Refuse(file, "no value or argument of the declaration names it");
      continue;
    }
    Result<std::string> resolved = rules.Resolve(file);
    const std::string writer = ServerWritableDirectoryHolding(file, rules.server_writable);
    if (!resolved) {
      paths.Refuse(file, resolved.error().message());
    } else if (!writer.empty() && *resolved != file) {
      // What add recorded, and nothing a server put in its place.
      paths.Refuse(file, "it is now a link, in " + writer +
                             ", a directory a server may write: a server may have planted it");
    } else if (rules.fs->KindOf(*resolved, Follow::kNo) != FileKind::kRegular) {
      paths.Refuse(file, "it is no longer a file");
    } else if (IsSameOrBeneath(*resolved, rules.limits.profile.resolved_path) ||
               IsSameOrBeneath(*resolved, rules.limits.profile.path)) {
      paths.Refuse(file, "it leads into the profile directory, which no server reads");
    } else {
      paths.Grant(*resolved, PathAccess::kRead, GrantExtent::kFileOnly,
                  *resolved == file
                      ? "a file add showed it may read"
                      : "a file add showed it may read, " + file + " (through links)");
    }
  }
}

// Where servers may write: its own --dir and every declared one, the homes
// under mcp-home, and the system's temporary directory, which holds every run
// directory.
ServerWritableDirectories ServerWritable(const Declaration& declaration,
                                         const ReachInputs& inputs) {
  ServerWritableDirectories writable = inputs.declared_directories;
  if (!declaration.directory.empty()) writable.push_back(declaration.directory);
  writable.push_back(JoinPath(inputs.profile.resolved_path, "mcp-home"));
  writable.push_back(inputs.system_temporary_root);
  return writable;
}

}  // namespace

std::string HomeOfDeclaration(const Declaration& declaration, const ProfileLocation& profile) {
  return JoinPath(JoinPath(profile.resolved_path, "mcp-home"), ComputeDigest(declaration).hex);
}

Result<std::string> LocateProgram(const Declaration& declaration, const EnvironmentLookup& getenv,
                                  const FileSystemView& fs) {
  return FindProgram(declaration.program, ValueGivenToServer(declaration, "PATH", getenv), fs);
}

Result<Reach> ComputeReach(const Declaration& declaration, const ReachInputs& asked) {
  // Every path is asked of the filesystem once (confine/remembering_filesystem.h).
  const RememberingFileSystem remembered(*asked.fs);
  ReachInputs inputs = asked;
  inputs.fs = &remembered;
  const GrantRules rules{
      inputs.fs,
      LimitsFor(inputs.user_home, inputs.profile, inputs.system_temporary_root, *inputs.fs),
      ServerWritable(declaration, inputs)};
  Reach reach;
  reach.home = inputs.home.empty() ? HomeOfDeclaration(declaration, inputs.profile) : inputs.home;
  reach.temporary_directory = inputs.temporary_directory;
  reach.working_directory = inputs.temporary_directory;
  if (!declaration.directory.empty()) {
    BRAVEBOT_ASSIGN_OR_RETURN(
        reach.working_directory,
        CheckDeclaredWorkingDirectory(declaration.directory, rules.limits, *inputs.fs));
  }

  const std::optional<std::string> path_value =
      ValueGivenToServer(declaration, "PATH", inputs.getenv);
  if (inputs.program.empty()) {
    BRAVEBOT_ASSIGN_OR_RETURN(std::string program,
                              FindProgram(declaration.program, path_value, *inputs.fs));
    reach.program = program;
  } else {
    reach.program = inputs.program;
  }
  reach.argv.push_back(declaration.program);
  reach.argv.insert(reach.argv.end(), declaration.arguments.begin(), declaration.arguments.end());
  ComputeEnvironment(declaration, inputs, reach);

  ReachPaths paths;
  paths.Grant(reach.home, PathAccess::kReadWriteExecute, GrantExtent::kBeneath, "its private home");
  paths.Grant(reach.temporary_directory, PathAccess::kReadWriteExecute, GrantExtent::kBeneath,
              "its temporary directory, removed when it stops");
  if (!declaration.directory.empty()) {
    paths.Grant(reach.working_directory, PathAccess::kReadWriteExecute, GrantExtent::kBeneath,
                "the directory --dir gave it");
  }
  GrantFilesItMayRead(declaration, rules, paths);
  // The system's directories first, so that what they give already is not
  // granted again, and an interpreter a server chose is seen to be given.
  GrantSystemPaths(rules, paths);
  if (path_value) GrantPathEntries(*path_value, rules, paths);
  BRAVEBOT_RETURN_IF_ERROR(GrantProgram(reach.program, path_value, rules, paths));

  reach.paths = paths.granted();
  reach.not_granted = paths.not_granted();
  reach.socket_directories = {reach.home, reach.temporary_directory};
  if (reach.working_directory != reach.temporary_directory) {
    reach.socket_directories.push_back(reach.working_directory);
  }
  reach.socket_places = UsualSocketPlaces(
      {inputs.user_home, inputs.account_home, inputs.profile.resolved_path}, *inputs.fs);
  return reach;
}

}  // namespace bravebot
