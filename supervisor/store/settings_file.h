// The three settings files that ask for servers, as a list of aliases under
// mcp.request: local (.bravebot/settings.local.json in the checkout), project
// (.bravebot/settings.json in the checkout) and user (settings.json in the
// profile directory). Read by a session and by list; changed by enable and
// disable, one alias at a time.
//
//   SettingsFiles settings("/home/you/work/app", &profile);
//   auto change = settings.AddRequest(Scope::kProject, "weather");
//   if (change && *change == RequestChange::kAlreadyRequested) ...
//
// A change reads the whole file, edits mcp.request and writes the whole file
// back atomically with its keys sorted, every other key kept, mode 0600. A
// file that does not parse, or whose mcp.request is not a list of strings, is
// never written. In a checkout no link is followed: where .bravebot or the
// file in it is a link, nothing is read or written through it. The profile
// directory itself may be a link, as everywhere.
#ifndef BRAVEBOT_SUPERVISOR_STORE_SETTINGS_FILE_H_
#define BRAVEBOT_SUPERVISOR_STORE_SETTINGS_FILE_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/bounded_json.h"
#include "base/file_lock.h"
#include "base/result.h"
#include "supervisor/store/json_text.h"
#include "supervisor/store/profile_directory.h"
#include "supervisor/store/scope.h"

namespace bravebot {

inline constexpr char kCheckoutSettingsDirectoryName[] = ".bravebot";
inline constexpr char kLocalSettingsFileName[] = "settings.local.json";
inline constexpr char kSettingsFileName[] = "settings.json";  // project and user
// The lock every writer of a checkout's settings files takes, in .bravebot.
inline constexpr char kCheckoutSettingsLockName[] = ".lock";

// Where `scope`'s file is, for a checkout at `checkout_directory` and a
// profile directory at `profile_directory` (both absolute). Lexical only.
std::string SettingsFilePath(Scope scope, std::string_view checkout_directory,
                             std::string_view profile_directory);

// The most entries one file's mcp.request may hold. mcp.json declares 4096
// servers at most (an object of more members is refused, base/bounded_json.h),
// so a longer list asks for what can never all be declared; and each server
// a session is asked for is named in session/open's answer, one line, which a
// session reads only up to 16 MiB.
inline constexpr size_t kMaxRequestEntries = kMaxJsonObjectMembers;

// What one file's mcp.request asks for.
struct McpRequest {
  // The valid aliases, in the order written, each once.
  std::vector<std::string> aliases;
  // Where an entry is a string but no alias (letters, digits, - and _,
  // starting with a letter or a digit, at most 64 characters): its position
  // in the list, counted from 1. It asks for nothing, is kept in the file as
  // it is, and is never shown, since what a hand may write there could be a
  // command line and a token.
  std::vector<size_t> unusable_positions;

  bool Requests(std::string_view alias) const;
};

// What AddRequest and RemoveRequest did, so the command can say it.
enum class RequestChange {
  kAdded,             // the alias was added; the file was written
  kAlreadyRequested,  // it was asked for already; nothing was written
  kRemoved,           // every entry naming it was taken out; the file was written
  kNotRequested,      // it was not asked for; nothing was written or created
};

// --- Pure: text in, values out. `shown_path` names the file in messages.

// Parses a settings file. One that is not JSON is kCorrupt, naming the file,
// the line and the column where the parser stopped, and never quoting it; so
// is one that is not a JSON object, whose mcp is not an object, or that gives
// a key twice. With `numbers`, fills it for SerializeSettingsDocument, so
// every number comes back as it was written.
Result<nlohmann::json> ParseSettingsDocument(std::string_view text, const std::string& shown_path,
                                             NumbersAsWritten* numbers = nullptr);

// The mcp.request of a parsed document; nothing asked for where there is
// none. One that is not a list of strings is kCorrupt ("its mcp.request is not
// a list"), and so is one of more than kMaxRequestEntries entries. Linear in
// the list's length.
Result<McpRequest> McpRequestOf(const nlohmann::json& document, const std::string& shown_path);

// Adds `alias` to the end of mcp.request (making mcp and mcp.request where
// missing); false, changing nothing, where an entry already names it. The
// document must have passed McpRequestOf.
bool AddToMcpRequest(nlohmann::json& document, const std::string& alias);
// Takes every entry naming `alias` out of mcp.request, leaving the list (even
// empty) and everything else; false where none did.
bool RemoveFromMcpRequest(nlohmann::json& document, const std::string& alias);

// The text a settings file is written as: keys sorted, 2-space indentation,
// a final line break, and each number of `numbers` as it was written.
Result<std::string> SerializeSettingsDocument(const nlohmann::json& document,
                                              const std::string& shown_path,
                                              const NumbersAsWritten& numbers = {});

// One sentence for a file whose mcp.request holds entries that are no alias
// ("" where none do), naming the file and the positions, never the entries.
std::string DescribeUnusableEntries(const McpRequest& request, const std::string& shown_path);

// --- The files themselves.

// A settings file that could not be read, with why (the error names it).
struct UnreadableSettingsFile {
  Scope scope;
  Error error;
};

// Which files ask for an alias, in the order local, project, user.
struct FilesRequesting {
  std::vector<Scope> scopes;
  std::vector<UnreadableSettingsFile> unreadable;
};

class SettingsFiles {
 public:
  // `checkout_directory` is absolute, and may be a link (it is followed once,
  // to open it). `profile` may be null where the machine names no profile
  // directory or it does not exist: the user file then asks for nothing and
  // cannot be written.
  SettingsFiles(std::string checkout_directory, const ProfileDirectory* profile)
      : checkout_directory_(std::move(checkout_directory)), profile_(profile) {}

  // The path `scope`'s file is shown as; for the user scope with no profile
  // directory, "".
  std::string PathOf(Scope scope) const;

  // `scope`'s whole document, as ParseSettingsDocument reads it; nothing for
  // a missing file (or a missing checkout or .bravebot, or the user file with
  // no profile directory). A link there is kRefused.
  Result<std::optional<nlohmann::json>> ReadDocument(Scope scope) const;

  // What `scope`'s file asks for. A missing file asks for nothing.
  Result<McpRequest> ReadRequest(Scope scope) const;

  // Which of the three files ask for `alias` (for disable without -s, and
  // list). A file that cannot be read is reported beside them, not guessed.
  FilesRequesting FindFilesRequesting(std::string_view alias) const;

  // Adds `alias` to `scope`'s file, creating the file (and .bravebot, 0700)
  // where missing. `held_profile_lock` is the profile directory's lock where
  // the caller holds it already (as enable does while it approves); where it
  // is null, a change to the user file takes that lock itself. A checkout's
  // file is changed under .bravebot/.lock whatever it is. An invalid alias is
  // kUsage.
  Result<RequestChange> AddRequest(Scope scope, const std::string& alias,
                                   const FileLock* held_profile_lock = nullptr) const;

  // Takes `alias` out of `scope`'s file. A missing file (or .bravebot) is
  // kNotRequested, and nothing is created.
  Result<RequestChange> RemoveRequest(Scope scope, const std::string& alias,
                                      const FileLock* held_profile_lock = nullptr) const;

 private:
  Result<RequestChange> Change(Scope scope, const std::string& alias, bool add,
                               const FileLock* held_profile_lock) const;

  std::string checkout_directory_;
  const ProfileDirectory* profile_;
};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_STORE_SETTINGS_FILE_H_
