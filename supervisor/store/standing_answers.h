// The standing answers: what answer 2 recorded, so the question is not asked
// again in that project. Two files in the profile directory, each a header
// line and then one entry a line:
//
//   mcp-projects                          answer 2 at the server question
//     # bravebot-mcp projects, format 1
//     /home/you/work/app
//
//   mcp-tools                             answer 2 at a call
//     # bravebot-mcp tools, format 1
//     weather<TAB>get_current_conditions<TAB>/home/you/work/app
//
// A project is an absolute path, compared as written: one that no longer
// exists is still the same words, so a deleted checkout can be forgotten. A
// path or tool name holding a tab or a line break cannot be written, and is
// refused. Both files are changed the way mcp-approved is: whole, atomically,
// mode 0600, under the profile directory's lock, and never overwritten when
// they cannot be read.
//
//   auto lock = profile.Lock();
//   StandingAnswers answers(profile);
//   answers.RecordTool("weather", "get_current_conditions", "/home/you/work/app", *lock);
//   auto forgotten = answers.Forget("/home/you/work/app", *lock);
//   for (const std::string& line : DescribeForgotten(*forgotten)) Print(line);
#ifndef BRAVEBOT_SUPERVISOR_STORE_STANDING_ANSWERS_H_
#define BRAVEBOT_SUPERVISOR_STORE_STANDING_ANSWERS_H_

#include <string>
#include <string_view>
#include <vector>

#include "base/file_lock.h"
#include "base/result.h"
#include "supervisor/store/profile_directory.h"

namespace bravebot {

inline constexpr char kProjectsFileName[] = "mcp-projects";
inline constexpr char kToolsFileName[] = "mcp-tools";
inline constexpr char kProjectsFileHeader[] = "# bravebot-mcp projects, format 1";
inline constexpr char kToolsFileHeader[] = "# bravebot-mcp tools, format 1";

// One tool answered 2 at a call: calls to it in the project run unasked.
struct ToolAnswer {
  std::string server;   // the alias
  std::string tool;     // the tool's name as the server gives it
  std::string project;  // absolute path

  bool operator==(const ToolAnswer&) const = default;
};

// --- Pure: text in, values out.

struct ProjectsFile {
  std::vector<std::string> projects;  // each once, in the order recorded

  bool Has(std::string_view project) const;
  // False, changing nothing, where it is there already.
  bool Add(const std::string& project);
  // False where it was not there.
  bool Drop(std::string_view project);
};

struct ToolsFile {
  std::vector<ToolAnswer> answers;  // each once, in the order recorded

  bool Has(const ToolAnswer& answer) const;
  bool Add(const ToolAnswer& answer);
  // Takes out every answer of `project`, returning them.
  std::vector<ToolAnswer> DropProject(std::string_view project);
  std::vector<ToolAnswer> Of(std::string_view project) const;
};

// A file whose first line is not its header, or with a line that is not an
// entry of its format, is kCorrupt, naming `shown_path` and the line number,
// never quoting it. Empty lines are skipped.
Result<ProjectsFile> ParseProjectsFile(std::string_view text, const std::string& shown_path);
std::string SerializeProjectsFile(const ProjectsFile& file);
Result<ToolsFile> ParseToolsFile(std::string_view text, const std::string& shown_path);
std::string SerializeToolsFile(const ToolsFile& file);

// Whether `project` can be recorded: refused (kRefused) where it is not
// absolute or holds a tab or a line break, with why, as the end of a sentence.
Status CheckProjectPath(std::string_view project);

// What Forget dropped for a project.
struct ForgottenAnswers {
  std::string project;
  bool servers_answered = false;  // answer 2 at the server question was dropped
  std::vector<ToolAnswer> tools;  // the tool answers dropped

  bool empty() const { return !servers_answered && tools.empty(); }
};

// The sentences forget says, one a line:
//   weather:get_current_conditions is asked about again before each call in /home/you/work/app
//   a server you have not approved is asked about again before it starts in /home/you/work/app
// or, where nothing was dropped,
//   nothing was recorded for /home/you/work/app
std::vector<std::string> DescribeForgotten(const ForgottenAnswers& forgotten);

// --- The files in the profile directory. A missing file records nothing.
// Every change takes `held`, the profile directory's lock, which the caller
// holds from before it reads to after the last rename.

class StandingAnswers {
 public:
  explicit StandingAnswers(const ProfileDirectory& profile) : profile_(profile) {}

  std::string projects_path() const { return profile_.PathOf(kProjectsFileName); }
  std::string tools_path() const { return profile_.PathOf(kToolsFileName); }

  Result<ProjectsFile> ReadProjects() const;
  Result<ToolsFile> ReadTools() const;

  // Whether answer 2 at the server question was given in `project`.
  Result<bool> ServersAnsweredIn(const std::string& project) const;
  // Records it; false where it was recorded already. A path CheckProjectPath
  // finds fault with is kRefused.
  Result<bool> RecordServersAnswered(const std::string& project, const FileLock& held);
  // Drops it; false where it was not recorded.
  Result<bool> DropServersAnswered(const std::string& project, const FileLock& held);

  // Whether answer 2 was given for `tool` of `server` at a call in `project`.
  Result<bool> ToolAnswered(const ToolAnswer& answer) const;
  // Every tool answered 2 in `project`, for list.
  Result<std::vector<ToolAnswer>> ToolsAnsweredIn(const std::string& project) const;
  // Records it; false where it was recorded already. An invalid alias, an
  // empty tool name, a tab or a line break is kRefused.
  Result<bool> RecordTool(const ToolAnswer& answer, const FileLock& held);
  // Drops every tool answer of `project`, returning them.
  Result<std::vector<ToolAnswer>> DropToolsOf(const std::string& project, const FileLock& held);

  // Drops every standing answer for `project`, in both files, and says what
  // it dropped. Both files are read before either is written, so one that
  // cannot be read leaves both as they are.
  Result<ForgottenAnswers> Forget(const std::string& project, const FileLock& held);

 private:
  const ProfileDirectory& profile_;
};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_STORE_STANDING_ANSWERS_H_
