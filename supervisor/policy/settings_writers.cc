#include "supervisor/policy/settings_writers.h"

#include <sys/stat.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <utility>

#include "confine/paths.h"
#include "confine/reach.h"
#include "supervisor/store/server_directories.h"
#include "supervisor/store/settings_file.h"

namespace bravebot {
namespace {

using Identity = std::pair<dev_t, ino_t>;

std::optional<Identity> IdentityOf(const std::string& path, bool follow) {
  struct stat status;
  const int got = follow ? ::stat(path.c_str(), &status) : ::lstat(path.c_str(), &status);
  if (got != 0) return std::nullopt;
  return Identity{status.st_dev, status.st_ino};
}

std::string Resolved(const std::string& path) {
  char resolved[PATH_MAX];
  return ::realpath(path.c_str(), resolved) != nullptr ? std::string(resolved) : path;
}

std::string BaseName(const std::string& path) { return path.substr(path.rfind('/') + 1); }

// Undoes mountinfo's escapes: a space is \040, a tab \011, a line break
// \012 and a backslash \134.
std::string Unescaped(const std::string& field) {
  std::string text;
  for (size_t i = 0; i < field.size(); ++i) {
    const std::string digits = field.substr(i + 1, 3);
    if (field[i] == '\\' && digits.size() == 3 &&
        digits.find_first_not_of("01234567") == std::string::npos) {
      text += static_cast<char>(std::stoi(digits, nullptr, 8));
      i += 3;
    } else {
      text += field[i];
    }
  }
  return text;
}

// Where `path` (resolved) lies within its filesystem, from the root of that
// filesystem: a bind mount shows a directory of it somewhere else, so the
// path it is reached by may not hold the path of a place above it. "" where
// the mount table cannot be read.
std::string PathWithinFilesystem(const std::string& path) {
  std::ifstream table("/proc/self/mountinfo");
  std::string line, best_root, best_point;
  bool found = false;
  while (std::getline(table, line)) {
    std::istringstream fields(line);
    std::string id, parent, device, root, point;
    if (!(fields >> id >> parent >> device >> root >> point)) continue;
    root = Unescaped(root);
    point = Unescaped(point);
    // The last mount on the longest mount point holding it is what it is in.
    if (IsSameOrBeneath(path, point) && (!found || point.size() >= best_point.size())) {
      best_root = root;
      best_point = point;
      found = true;
    }
  }
  if (!found) return "";
  const std::string below = path.substr(best_point == "/" ? 0 : best_point.size());
  return AbsolutePath(best_root + "/" + below, "/");
}

// The checkout's .bravebot and every directory above it, links resolved,
// with the identity of each that exists.
struct DirectoriesAbove {
  std::vector<std::string> paths;  // .bravebot first, "/" last
  std::vector<Identity> identities;
  std::string checkout_within;  // its .bravebot's path within its filesystem

  explicit DirectoriesAbove(const std::string& checkout_directory) {
    std::string path = JoinPath(checkout_directory, kCheckoutSettingsDirectoryName);
    // .bravebot itself is never followed: a link there is read by nobody.
    if (auto identity = IdentityOf(path, /*follow=*/false)) identities.push_back(*identity);
    paths.push_back(path);
    while (path != "/") {
      path = ParentPath(path);
      paths.push_back(path);
      if (auto identity = IdentityOf(path, /*follow=*/true)) identities.push_back(*identity);
    }
    checkout_within = PathWithinFilesystem(paths.front());
  }

  bool LieIn(const std::string& place) const {
    const std::string resolved_place = Resolved(place);
    if (IsSameOrBeneath(paths.front(), resolved_place)) return true;
    const std::optional<Identity> identity = IdentityOf(place, /*follow=*/true);
    if (!identity) return false;
    if (std::find(identities.begin(), identities.end(), *identity) != identities.end()) {
      return true;
    }
    // A bind mount of a directory beneath the place: the same filesystem,
    // and the place's path within it holds the checkout's.
    const std::optional<Identity> checkout = IdentityOf(paths[1], /*follow=*/false);
    if (!checkout || checkout->first != identity->first) return false;
    const std::string place_within = PathWithinFilesystem(resolved_place);
    return !checkout_within.empty() && !place_within.empty() &&
           IsSameOrBeneath(checkout_within, place_within);
  }
};

std::string Join(const std::vector<std::string>& words, const std::string& last_separator) {
  std::string joined;
  for (size_t i = 0; i < words.size(); ++i) {
    if (i > 0) joined += i + 1 == words.size() ? last_separator : ", ";
    joined += words[i];
  }
  return joined;
}

}  // namespace

std::string ResolveCheckoutDirectory(const std::string& directory) { return Resolved(directory); }

std::vector<SettingsWriter> WritersOfCheckoutSettings(const std::string& checkout_directory,
                                                      const ServerWritablePlaces& places) {
  const DirectoriesAbove above(checkout_directory);
  std::vector<SettingsWriter> writers;
  if (places.declarations != nullptr) {
    const ProfileLocation profile{places.profile_resolved_path, places.profile_resolved_path};
    for (const Declaration& declaration : places.declarations->declarations) {
      if (declaration.transport != Transport::kStdio) continue;
      if (!declaration.directory.empty() && above.LieIn(declaration.directory)) {
        writers.push_back({declaration.alias, declaration.directory, "--dir"});
      }
      if (!places.profile_resolved_path.empty()) {
        const std::string home = HomeOfDeclaration(declaration, profile);
        if (above.LieIn(home)) writers.push_back({declaration.alias, home, "home"});
      }
    }
  }
  // The homes no declaration names any more are a server's again once one
  // that resolves to them is declared.
  const bool a_home = std::any_of(writers.begin(), writers.end(), [](const SettingsWriter& writer) {
    return writer.what == "home";
  });
  if (!places.profile_resolved_path.empty() && !a_home) {
    const std::string homes = JoinPath(places.profile_resolved_path, "mcp-home");
    if (above.LieIn(homes)) writers.push_back({"", homes, "home"});
  }
  const std::string temporary_root = Resolved(places.system_temporary_root);
  for (const std::string& path : above.paths) {
    if (path != "/" && ParentPath(path) == temporary_root &&
        BaseName(path).starts_with(kRunDirectoryPrefix)) {
      writers.push_back({"", path, "temporary directory"});
    }
  }
  return writers;
}

std::string DescribeServerWritableSettings(const std::string& shown_path,
                                           const std::vector<SettingsWriter>& writers) {
  std::vector<std::string> who;
  std::vector<std::string> where;
  std::vector<std::string> given_the_directory;
  for (const SettingsWriter& writer : writers) {
    const std::string name = writer.alias.empty() ? "a server" : writer.alias;
    if (std::find(who.begin(), who.end(), name) == who.end()) who.push_back(name);
    where.push_back((writer.alias.empty() ? "a server" : writer.alias) + "'s " + writer.what +
                    ", " + writer.place);
    if (writer.what == "--dir") given_the_directory.push_back(writer.alias);
  }
  const std::string settings_directory = ParentPath(shown_path);
  const std::string remedy =
      "read it, take out what you did not write, and " +
      (given_the_directory.empty() ? "move the checkout out of " + writers.front().place
                                   : "give " + Join(given_the_directory, " and ") +
                                         " a --dir that does not hold " + settings_directory);
  return shown_path + " is read for its deny and ask rules alone, since " + Join(who, " and ") +
         " may write it (" + Join(where, "; ") +
         "): the servers it requests and its allow rules count for nothing, so that nothing a "
         "server writes makes a session ask less. To have them count, " +
         remedy + "; a rule that must hold whatever a server writes belongs in the profile " +
         "directory's settings.json";
}

SettingsDirectoriesFound CheckoutSettingsDirectoriesIn(const std::string& directory) {
  namespace fs = std::filesystem;
  SettingsDirectoriesFound found;
  if (BaseName(directory) == kCheckoutSettingsDirectoryName) {
    found.directories.push_back(directory);
    return found;
  }
  std::error_code error;
  fs::recursive_directory_iterator entry(directory, fs::directory_options::skip_permission_denied,
                                         error);
  int seen = 0;
  for (; !error && entry != fs::recursive_directory_iterator(); entry.increment(error)) {
    if (++seen > kSettingsSearchEntries) {
      found.search_cut_short = true;
      break;
    }
    if (!entry->is_directory(error) || entry->is_symlink(error)) continue;
    const std::string name = entry->path().filename().string();
    if (name == kCheckoutSettingsDirectoryName) {
      found.directories.push_back(entry->path().string());
      entry.disable_recursion_pending();
    } else if (name == ".git" || name == "node_modules" ||
               entry.depth() + 1 >= kSettingsSearchDepth) {
      entry.disable_recursion_pending();
    }
  }
  std::sort(found.directories.begin(), found.directories.end());
  return found;
}

}  // namespace bravebot
