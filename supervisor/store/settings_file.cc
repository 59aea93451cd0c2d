#include "supervisor/store/settings_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <optional>
#include <unordered_set>

#include "base/files.h"
#include "base/unique_fd.h"
#include "confine/declaration.h"
#include "confine/paths.h"
#include "supervisor/store/file_bounds.h"
#include "supervisor/store/json_text.h"

namespace bravebot {
namespace {

using nlohmann::json;

Error Corrupt(const std::string& shown_path, const std::string& why) {
  return Error(ErrorCode::kCorrupt,
               shown_path + " " + why + ". It was left as it is: mend it by hand");
}

// `remedy` is what to do about the link ("replace the link with the file itself").
Error LinkInCheckout(const std::string& shown_path, const std::string& remedy) {
  return Error(ErrorCode::kRefused,
               shown_path + " is a link, and bravebot-mcp neither reads nor writes a checkout's " +
                   "settings through a link: " + remedy);
}

constexpr char kReplaceWithFile[] = "replace the link with the file itself";

std::string FileNameOf(Scope scope) {
  return scope == Scope::kLocal ? kLocalSettingsFileName : kSettingsFileName;
}

// Refuses `name` in `dir_fd` where it is a link; anything else (missing
// included) passes, for ReadFileAt and ReplaceFileAt to judge.
Status RefuseLinkInCheckout(int dir_fd, const std::string& name, const std::string& shown_path,
                            const std::string& remedy) {
  struct stat status;
  if (::fstatat(dir_fd, name.c_str(), &status, AT_SYMLINK_NOFOLLOW) != 0) {
    if (errno == ENOENT) return {};
    return Error::FromErrno("stat " + shown_path);
  }
  if (S_ISLNK(status.st_mode)) return LinkInCheckout(shown_path, remedy);
  return {};
}

// The checkout's .bravebot, opened without following a link. Where it is
// missing: kNotFound, or with `create`, made 0700.
Result<UniqueFd> OpenCheckoutSettingsDirectory(const std::string& checkout_directory, bool create) {
  UniqueFd checkout(::open(checkout_directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!checkout.valid()) {
    if (errno == ENOENT) {
      return Error(ErrorCode::kNotFound, "the directory " + checkout_directory + " does not exist",
                   errno);
    }
    return Error::FromErrno("open " + checkout_directory);
  }
  const std::string shown = JoinPath(checkout_directory, kCheckoutSettingsDirectoryName);
  bool created = false;
  if (create) {
    if (::mkdirat(checkout.get(), kCheckoutSettingsDirectoryName, 0700) == 0) {
      created = true;
    } else if (errno != EEXIST) {
      return Error::FromErrno("create " + shown);
    }
  }
  UniqueFd directory(::openat(checkout.get(), kCheckoutSettingsDirectoryName,
                              O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!directory.valid()) {
    if (errno == ENOENT) return Error(ErrorCode::kNotFound, shown + " does not exist", errno);
    if (errno == ELOOP || errno == ENOTDIR) {
      // Linux answers a link with ENOTDIR where O_DIRECTORY is given, so look.
      struct stat status;
      if (::fstatat(checkout.get(), kCheckoutSettingsDirectoryName, &status, AT_SYMLINK_NOFOLLOW) ==
              0 &&
          S_ISLNK(status.st_mode)) {
        return LinkInCheckout(shown, "replace the link with the directory itself");
      }
      return Error(ErrorCode::kRefused, shown + " is not a directory: move it away");
    }
    return Error::FromErrno("open " + shown);
  }
  // The mode given to mkdirat is narrowed by the umask; set it exactly.
  if (created && ::fchmod(directory.get(), 0700) != 0) {
    return Error::FromErrno("make " + shown + " private (chmod 0700)");
  }
  return directory;
}

// The document of `name` in `dir_fd`, or nothing where the file is missing.
Result<std::optional<json>> ReadDocumentAt(int dir_fd, const std::string& name,
                                           const std::string& shown_path,
                                           NumbersAsWritten* numbers = nullptr) {
  Result<std::string> text = ReadFileAt(dir_fd, name, shown_path, kSettingsFileBound);
  if (!text) {
    if (text.error().code() == ErrorCode::kNotFound) return std::optional<json>();
    return text.error();
  }
  BRAVEBOT_ASSIGN_OR_RETURN(json document, ParseSettingsDocument(*text, shown_path, numbers));
  return std::optional<json>(std::move(document));
}

// Reads, edits and writes back `name` in `dir_fd`; the caller holds the lock
// every writer of that file takes.
Result<RequestChange> ChangeRequestAt(int dir_fd, const std::string& name,
                                      const std::string& shown_path, const std::string& alias,
                                      bool add) {
  RemoveAbandonedTemporaries(dir_fd, name);
  NumbersAsWritten numbers;
  BRAVEBOT_ASSIGN_OR_RETURN(std::optional<json> read,
                            ReadDocumentAt(dir_fd, name, shown_path, &numbers));
  if (!read.has_value()) {
    if (!add) return RequestChange::kNotRequested;
    read.emplace(json::object());
  }
  json& document = *read;
  BRAVEBOT_RETURN_IF_ERROR(McpRequestOf(document, shown_path));
  if (add && !AddToMcpRequest(document, alias)) return RequestChange::kAlreadyRequested;
  if (!add && !RemoveFromMcpRequest(document, alias)) return RequestChange::kNotRequested;
  BRAVEBOT_ASSIGN_OR_RETURN(std::string text,
                            SerializeSettingsDocument(document, shown_path, numbers));
  BRAVEBOT_RETURN_IF_ERROR(ReplaceFileAt(dir_fd, name, text, 0600, shown_path));
  return add ? RequestChange::kAdded : RequestChange::kRemoved;
}

}  // namespace

std::string SettingsFilePath(Scope scope, std::string_view checkout_directory,
                             std::string_view profile_directory) {
  if (scope == Scope::kUser) return JoinPath(profile_directory, kSettingsFileName);
  return JoinPath(JoinPath(checkout_directory, kCheckoutSettingsDirectoryName), FileNameOf(scope));
}

bool McpRequest::Requests(std::string_view alias) const {
  return std::find(aliases.begin(), aliases.end(), alias) != aliases.end();
}

Result<json> ParseSettingsDocument(std::string_view text, const std::string& shown_path,
                                   NumbersAsWritten* numbers) {
  Result<json> parsed = ParseJsonText(text, numbers);
  if (!parsed) return Corrupt(shown_path, parsed.error().message());
  json document = std::move(*parsed);
  if (!document.is_object()) return Corrupt(shown_path, "is not a JSON object");
  if (document.contains("mcp") && !document["mcp"].is_object()) {
    return Corrupt(shown_path, "cannot be used: its mcp is not an object");
  }
  return document;
}

Result<McpRequest> McpRequestOf(const json& document, const std::string& shown_path) {
  McpRequest request;
  if (!document.is_object() || !document.contains("mcp")) return request;
  const json& mcp = document["mcp"];
  if (!mcp.is_object()) return Corrupt(shown_path, "cannot be used: its mcp is not an object");
  if (!mcp.contains("request")) return request;
  const json& list = mcp["request"];
  if (!list.is_array()) return Corrupt(shown_path, "cannot be used: its mcp.request is not a list");
  if (list.size() > kMaxRequestEntries) {
    return Corrupt(shown_path, "cannot be used: its mcp.request holds " +
                                   std::to_string(list.size()) + " entries, more than the " +
                                   std::to_string(kMaxRequestEntries) +
                                   " servers mcp.json can declare");
  }
  // Each alias once, found in a set rather than in the list so far: a file
  // of 100,000 names would otherwise cost their square.
  std::unordered_set<std::string_view> seen;
  for (size_t i = 0; i < list.size(); ++i) {
    if (!list[i].is_string()) {
      return Corrupt(shown_path,
                     "cannot be used: its mcp.request is not a list of aliases (entry " +
                         std::to_string(i + 1) + " is not a string)");
    }
    const std::string& entry = list[i].get_ref<const std::string&>();
    if (!IsValidAlias(entry)) {
      request.unusable_positions.push_back(i + 1);
    } else if (seen.insert(entry).second) {
      request.aliases.push_back(entry);
    }
  }
  return request;
}

bool AddToMcpRequest(json& document, const std::string& alias) {
  json& list = document["mcp"]["request"];
  if (list.is_null()) list = json::array();
  if (!list.is_array()) return false;  // McpRequestOf refuses such a document first
  for (const json& entry : list) {
    if (entry.is_string() && entry.get_ref<const std::string&>() == alias) return false;
  }
  list.push_back(alias);
  return true;
}

bool RemoveFromMcpRequest(json& document, const std::string& alias) {
  if (!document.contains("mcp") || !document["mcp"].is_object()) return false;
  json& mcp = document["mcp"];
  if (!mcp.contains("request") || !mcp["request"].is_array()) return false;
  auto& list = mcp["request"].get_ref<json::array_t&>();
  const size_t before = list.size();
  std::erase_if(list, [&](const json& entry) {
    return entry.is_string() && entry.get_ref<const std::string&>() == alias;
  });
  return list.size() != before;
}

Result<std::string> SerializeSettingsDocument(const json& document, const std::string& shown_path,
                                              const NumbersAsWritten& numbers) {
  try {
    return DumpKeepingNumbers(document, numbers) + "\n";
  } catch (const json::type_error&) {
    return Error(ErrorCode::kRefused, "a value meant for " + shown_path + " is not UTF-8 text");
  }
}

std::string DescribeUnusableEntries(const McpRequest& request, const std::string& shown_path) {
  const std::vector<size_t>& positions = request.unusable_positions;
  if (positions.empty()) return "";
  std::string list;
  for (size_t i = 0; i < positions.size(); ++i) {
    if (i > 0) list += i + 1 == positions.size() ? " and " : ", ";
    list += std::to_string(positions[i]);
  }
  const bool one = positions.size() == 1;
  return shown_path + " asks for nothing with " + (one ? "entry " : "entries ") + list +
         " of its mcp.request, since " + (one ? "it is no alias" : "they are no aliases") +
         " (letters, digits, - and _, starting with a letter or a digit, at most 64 characters)";
}

std::string SettingsFiles::PathOf(Scope scope) const {
  if (scope == Scope::kUser && profile_ == nullptr) return "";
  return SettingsFilePath(scope, checkout_directory_, profile_ ? profile_->path() : "");
}

Result<std::optional<json>> SettingsFiles::ReadDocument(Scope scope) const {
  const std::string shown = PathOf(scope);
  const std::string name = FileNameOf(scope);
  if (scope == Scope::kUser) {
    if (profile_ == nullptr) return std::optional<json>();
    return ReadDocumentAt(profile_->fd(), name, shown);
  }
  Result<UniqueFd> directory = OpenCheckoutSettingsDirectory(checkout_directory_, false);
  if (!directory) {
    if (directory.error().code() == ErrorCode::kNotFound) return std::optional<json>();
    return directory.error();
  }
  BRAVEBOT_RETURN_IF_ERROR(RefuseLinkInCheckout(directory->get(), name, shown, kReplaceWithFile));
  return ReadDocumentAt(directory->get(), name, shown);
}

Result<McpRequest> SettingsFiles::ReadRequest(Scope scope) const {
  BRAVEBOT_ASSIGN_OR_RETURN(std::optional<json> document, ReadDocument(scope));
  if (!document.has_value()) return McpRequest{};
  return McpRequestOf(*document, PathOf(scope));
}

FilesRequesting SettingsFiles::FindFilesRequesting(std::string_view alias) const {
  FilesRequesting found;
  for (Scope scope : {Scope::kLocal, Scope::kProject, Scope::kUser}) {
    Result<McpRequest> request = ReadRequest(scope);
    if (!request) {
      found.unreadable.push_back({scope, request.error()});
    } else if (request->Requests(alias)) {
      found.scopes.push_back(scope);
    }
  }
  return found;
}

Result<RequestChange> SettingsFiles::AddRequest(Scope scope, const std::string& alias,
                                                const FileLock* held_profile_lock) const {
  return Change(scope, alias, true, held_profile_lock);
}

Result<RequestChange> SettingsFiles::RemoveRequest(Scope scope, const std::string& alias,
                                                   const FileLock* held_profile_lock) const {
  return Change(scope, alias, false, held_profile_lock);
}

Result<RequestChange> SettingsFiles::Change(Scope scope, const std::string& alias, bool add,
                                            const FileLock* held_profile_lock) const {
  if (!IsValidAlias(alias)) {
    return Error(ErrorCode::kUsage,
                 "an alias is letters, digits, - and _, starting with a letter or a digit, at most "
                 "64 characters");
  }
  const std::string shown = PathOf(scope);
  const std::string name = FileNameOf(scope);

  if (scope == Scope::kUser) {
    if (profile_ == nullptr) return Error(ErrorCode::kRefused, NoProfileDirectoryMessage());
    std::optional<FileLock> own_lock;
    if (held_profile_lock == nullptr) {
      BRAVEBOT_ASSIGN_OR_RETURN(FileLock lock, profile_->Lock());
      own_lock.emplace(std::move(lock));
    }
    return ChangeRequestAt(profile_->fd(), name, shown, alias, add);
  }

  Result<UniqueFd> directory = OpenCheckoutSettingsDirectory(checkout_directory_, add);
  if (!directory) {
    if (!add && directory.error().code() == ErrorCode::kNotFound) {
      return RequestChange::kNotRequested;
    }
    return directory.error();
  }
  // Nothing to take out of a file that is not there, and no lock file to leave.
  if (struct stat status;
      !add && ::fstatat(directory->get(), name.c_str(), &status, AT_SYMLINK_NOFOLLOW) != 0 &&
      errno == ENOENT) {
    return RequestChange::kNotRequested;
  }
  const std::string directory_path = JoinPath(checkout_directory_, kCheckoutSettingsDirectoryName);
  const std::string lock_path = JoinPath(directory_path, kCheckoutSettingsLockName);
  // FileLock refuses a link as well; this says so in a checkout's words.
  BRAVEBOT_RETURN_IF_ERROR(
      RefuseLinkInCheckout(directory->get(), kCheckoutSettingsLockName, lock_path, "remove it"));
  BRAVEBOT_ASSIGN_OR_RETURN(
      FileLock lock, FileLock::Acquire(directory->get(), kCheckoutSettingsLockName, lock_path));
  BRAVEBOT_RETURN_IF_ERROR(RefuseLinkInCheckout(directory->get(), name, shown, kReplaceWithFile));
  return ChangeRequestAt(directory->get(), name, shown, alias, add);
}

}  // namespace bravebot
