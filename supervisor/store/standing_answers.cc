#include "supervisor/store/standing_answers.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <tuple>
#include <unordered_set>

#include "base/files.h"
#include "base/shown_text.h"
#include "confine/declaration.h"
#include "supervisor/store/file_bounds.h"
#include "supervisor/store/line_file.h"

namespace bravebot {
namespace {

constexpr char kAfterwards[] = "be asked again";

Error Corrupt(const std::string& shown_path, size_t line_number, const std::string& why) {
  return UnreadableLine(shown_path, line_number, why, kAfterwards);
}

bool HoldsTabOrLineBreak(std::string_view word) {
  return word.find_first_of("\t\n\r") != std::string_view::npos;
}

// Each line after the header, as line_file reads it.
Status ForEachEntry(std::string_view text, const char* header, const std::string& shown_path,
                    const std::function<Status(std::string_view line, size_t number)>& entry) {
  return ForEachLine(text, header, shown_path, kAfterwards, entry);
}

Status CheckToolAnswer(const ToolAnswer& answer) {
  if (!IsValidAlias(answer.server)) {
    return Error(ErrorCode::kRefused,
                 "the server's alias is not letters, digits, - and _, starting with a letter or a "
                 "digit, at most 64 characters");
  }
  if (answer.tool.empty()) return Error(ErrorCode::kRefused, "the tool has no name");
  if (HoldsTabOrLineBreak(answer.tool)) {
    return Error(ErrorCode::kRefused, "the tool's name holds a tab or a line break");
  }
  return CheckProjectPath(answer.project);
}

// Reads `name` from the profile directory; nothing where it is missing.
Result<std::optional<std::string>> ReadIfPresent(const ProfileDirectory& profile,
                                                 const std::string& name, const FileBound& bound) {
  Result<std::string> text = ReadFileAt(profile.fd(), name, profile.PathOf(name), bound);
  if (!text) {
    if (text.error().code() == ErrorCode::kNotFound) return std::optional<std::string>();
    return text.error();
  }
  return std::optional<std::string>(std::move(*text));
}

Result<ProjectsFile> ReadProjectsOf(const ProfileDirectory& profile) {
  BRAVEBOT_ASSIGN_OR_RETURN(std::optional<std::string> text,
                            ReadIfPresent(profile, kProjectsFileName, kProjectsFileBound));
  if (!text.has_value()) return ProjectsFile{};
  return ParseProjectsFile(*text, profile.PathOf(kProjectsFileName));
}

Result<ToolsFile> ReadToolsOf(const ProfileDirectory& profile) {
  BRAVEBOT_ASSIGN_OR_RETURN(std::optional<std::string> text,
                            ReadIfPresent(profile, kToolsFileName, kToolsFileBound));
  if (!text.has_value()) return ToolsFile{};
  return ParseToolsFile(*text, profile.PathOf(kToolsFileName));
}

Status Write(const ProfileDirectory& profile, const std::string& name, const std::string& text) {
  return ReplaceFileAt(profile.fd(), name, text, 0600, profile.PathOf(name));
}

}  // namespace

bool ProjectsFile::Has(std::string_view project) const {
  return std::find(projects.begin(), projects.end(), project) != projects.end();
}

bool ProjectsFile::Add(const std::string& project) {
  if (Has(project)) return false;
  projects.push_back(project);
  return true;
}

bool ProjectsFile::Drop(std::string_view project) { return std::erase(projects, project) > 0; }

bool ToolsFile::Has(const ToolAnswer& answer) const {
  return std::find(answers.begin(), answers.end(), answer) != answers.end();
}

bool ToolsFile::Add(const ToolAnswer& answer) {
  if (Has(answer)) return false;
  answers.push_back(answer);
  return true;
}

std::vector<ToolAnswer> ToolsFile::DropProject(std::string_view project) {
  std::vector<ToolAnswer> dropped = Of(project);
  std::erase_if(answers, [&](const ToolAnswer& answer) { return answer.project == project; });
  return dropped;
}

std::vector<ToolAnswer> ToolsFile::Of(std::string_view project) const {
  std::vector<ToolAnswer> found;
  for (const ToolAnswer& answer : answers) {
    if (answer.project == project) found.push_back(answer);
  }
  return found;
}

Status CheckProjectPath(std::string_view project) {
  if (project.empty() || project.front() != '/') {
    return Error(ErrorCode::kRefused, "the project's path is not absolute");
  }
  if (HoldsTabOrLineBreak(project)) {
    return Error(ErrorCode::kRefused, "the project's path holds a tab or a line break");
  }
  if (project.find('\0') != std::string_view::npos) {
    return Error(ErrorCode::kRefused, "the project's path holds a NUL");
  }
  return {};
}

Result<ProjectsFile> ParseProjectsFile(std::string_view text, const std::string& shown_path) {
  ProjectsFile file;
  // Each once, found in a set rather than in the list so far, which would
  // cost the square of the file's length.
  std::unordered_set<std::string_view> seen;
  BRAVEBOT_RETURN_IF_ERROR(ForEachEntry(
      text, kProjectsFileHeader, shown_path, [&](std::string_view line, size_t number) -> Status {
        if (Status usable = CheckProjectPath(line); !usable) {
          return Corrupt(shown_path, number, usable.error().message());
        }
        if (seen.insert(line).second) file.projects.emplace_back(line);
        return {};
      }));
  return file;
}

std::string SerializeProjectsFile(const ProjectsFile& file) {
  std::string text = std::string(kProjectsFileHeader) + "\n";
  for (const std::string& project : file.projects) text += project + "\n";
  return text;
}

Result<ToolsFile> ParseToolsFile(std::string_view text, const std::string& shown_path) {
  ToolsFile file;
  // Each once, as in ParseProjectsFile: a line is the answer whole, since
  // only the project may hold a tab.
  std::unordered_set<std::string_view> seen;
  BRAVEBOT_RETURN_IF_ERROR(ForEachEntry(
      text, kToolsFileHeader, shown_path, [&](std::string_view line, size_t number) -> Status {
        const size_t first = line.find('\t');
        const size_t second = first == std::string_view::npos ? first : line.find('\t', first + 1);
        if (second == std::string_view::npos) {
          return Corrupt(shown_path, number,
                         "it is not a server, a tool and a project separated by tabs");
        }
        ToolAnswer answer{std::string(line.substr(0, first)),
                          std::string(line.substr(first + 1, second - first - 1)),
                          std::string(line.substr(second + 1))};
        if (Status usable = CheckToolAnswer(answer); !usable) {
          return Corrupt(shown_path, number, usable.error().message());
        }
        if (seen.insert(line).second) file.answers.push_back(std::move(answer));
        return {};
      }));
  return file;
}

std::string SerializeToolsFile(const ToolsFile& file) {
  std::string text = std::string(kToolsFileHeader) + "\n";
  for (const ToolAnswer& answer : file.answers) {
    text += answer.server + "\t" + answer.tool + "\t" + answer.project + "\n";
  }
  return text;
}

std::vector<std::string> DescribeForgotten(const ForgottenAnswers& forgotten) {
  if (forgotten.empty())
    return {"nothing was recorded for " + forgotten.project + " where there was nothing"};
  std::vector<ToolAnswer> tools = forgotten.tools;
  std::sort(tools.begin(), tools.end(), [](const ToolAnswer& a, const ToolAnswer& b) {
    return std::tie(a.server, a.tool) < std::tie(b.server, b.tool);
  });
  std::vector<std::string> lines;
  for (const ToolAnswer& tool : tools) {
    // The names come from a file a hand may have edited: shown escaped.
    lines.push_back(EscapeControlCharacters(tool.server + ":" + tool.tool) +
                    " is asked about again before each call in " + forgotten.project);
  }
  if (forgotten.servers_answered) {
    lines.push_back("a server you have not approved is asked about again before it starts in " +
                    forgotten.project);
  }
  return lines;
}

Result<ProjectsFile> StandingAnswers::ReadProjects() const { return ReadProjectsOf(profile_); }

Result<ToolsFile> StandingAnswers::ReadTools() const { return ReadToolsOf(profile_); }

Result<bool> StandingAnswers::ServersAnsweredIn(const std::string& project) const {
  BRAVEBOT_ASSIGN_OR_RETURN(ProjectsFile file, ReadProjects());
  return file.Has(project);
}

Result<bool> StandingAnswers::RecordServersAnswered(const std::string& project,
                                                    const FileLock& /*held*/) {
  if (Status usable = CheckProjectPath(project); !usable) {
    return Error(ErrorCode::kRefused, "the answer cannot be recorded in " + projects_path() + ": " +
                                          usable.error().message());
  }
  RemoveAbandonedTemporaries(profile_.fd(), kProjectsFileName);
  BRAVEBOT_ASSIGN_OR_RETURN(ProjectsFile file, ReadProjects());
  if (!file.Add(project)) return false;
  BRAVEBOT_RETURN_IF_ERROR(Write(profile_, kProjectsFileName, SerializeProjectsFile(file)));
  return true;
}

Result<bool> StandingAnswers::DropServersAnswered(const std::string& project,
                                                  const FileLock& /*held*/) {
  RemoveAbandonedTemporaries(profile_.fd(), kProjectsFileName);
  BRAVEBOT_ASSIGN_OR_RETURN(ProjectsFile file, ReadProjects());
  if (!file.Drop(project)) return false;
  BRAVEBOT_RETURN_IF_ERROR(Write(profile_, kProjectsFileName, SerializeProjectsFile(file)));
  return true;
}

Result<bool> StandingAnswers::ToolAnswered(const ToolAnswer& answer) const {
  BRAVEBOT_ASSIGN_OR_RETURN(ToolsFile file, ReadTools());
  return file.Has(answer);
}

Result<std::vector<ToolAnswer>> StandingAnswers::ToolsAnsweredIn(const std::string& project) const {
  BRAVEBOT_ASSIGN_OR_RETURN(ToolsFile file, ReadTools());
  return file.Of(project);
}

Result<bool> StandingAnswers::RecordTool(const ToolAnswer& answer, const FileLock& /*held*/) {
  if (Status usable = CheckToolAnswer(answer); !usable) {
    return Error(ErrorCode::kRefused, "the answer cannot be recorded in " + tools_path() + ": " +
                                          usable.error().message());
  }
  RemoveAbandonedTemporaries(profile_.fd(), kToolsFileName);
  BRAVEBOT_ASSIGN_OR_RETURN(ToolsFile file, ReadTools());
  if (!file.Add(answer)) return false;
  BRAVEBOT_RETURN_IF_ERROR(Write(profile_, kToolsFileName, SerializeToolsFile(file)));
  return true;
}

Result<std::vector<ToolAnswer>> StandingAnswers::DropToolsOf(const std::string& project,
                                                             const FileLock& /*held*/) {
  RemoveAbandonedTemporaries(profile_.fd(), kToolsFileName);
  BRAVEBOT_ASSIGN_OR_RETURN(ToolsFile file, ReadTools());
  std::vector<ToolAnswer> dropped = file.DropProject(project);
  if (dropped.empty()) return dropped;
  BRAVEBOT_RETURN_IF_ERROR(Write(profile_, kToolsFileName, SerializeToolsFile(file)));
  return dropped;
}

Result<ForgottenAnswers> StandingAnswers::Forget(const std::string& project,
                                                 const FileLock& /*held*/) {
  RemoveAbandonedTemporaries(profile_.fd(), kProjectsFileName);
  RemoveAbandonedTemporaries(profile_.fd(), kToolsFileName);
  BRAVEBOT_ASSIGN_OR_RETURN(ProjectsFile projects, ReadProjects());
  BRAVEBOT_ASSIGN_OR_RETURN(ToolsFile tools, ReadTools());

  ForgottenAnswers forgotten;
  forgotten.project = project;
  forgotten.tools = tools.DropProject(project);
  forgotten.servers_answered = projects.Drop(project);
  if (!forgotten.tools.empty()) {
    BRAVEBOT_RETURN_IF_ERROR(Write(profile_, kToolsFileName, SerializeToolsFile(tools)));
  }
  if (forgotten.servers_answered) {
    BRAVEBOT_RETURN_IF_ERROR(Write(profile_, kProjectsFileName, SerializeProjectsFile(projects)));
  }
  return forgotten;
}

}  // namespace bravebot
