// Which declared servers may write a checkout's settings files. A server may
// write its --dir, its home and its temporary directory; where the checkout's
// .bravebot lies in one of them, a server could answer a call by allowing its
// own calls there, or by asking for other servers, and the next session
// would ask less. Such a file is read for what narrows alone (deny and ask
// rules): what it would widen (allow rules, requests for servers) is read as
// nothing.
//
//   auto writers = WritersOfCheckoutSettings("/srv/proj", places);
//   if (!writers.empty()) note(DescribeServerWritableSettings(path, writers));
#ifndef BRAVEBOT_SUPERVISOR_POLICY_SETTINGS_WRITERS_H_
#define BRAVEBOT_SUPERVISOR_POLICY_SETTINGS_WRITERS_H_

#include <string>
#include <vector>

#include "confine/whole_directory.h"
#include "supervisor/store/declaration_file.h"

namespace bravebot {

// A place a server may write that holds a checkout's settings files.
struct SettingsWriter {
  std::string alias;  // the declaration's; "" where any server's run may write it
  std::string place;  // the directory it may write, as the reach grants it
  std::string what;   // "its --dir", "its home", ...
};

// Where the declared servers may write: each stdio declaration's --dir and
// home, the homes of every server (mcp-home), and the run directories made
// under the system's temporary directory (each run's temporary directory,
// and an incognito server's home).
struct ServerWritablePlaces {
  const DeclarationFile* declarations = nullptr;
  std::string profile_resolved_path;  // "" where there is no profile directory
  std::string system_temporary_root = kSystemTemporaryRoot;
};

// `directory` (absolute) with every link resolved, as it is when asked; as
// given where some part of it is missing. A session resolves its directory
// once, and decides and reads on what this gave: a link in it swapped
// meanwhile changes nothing, since a server can swap only a link that lies
// where it may write, and such a checkout is read for what narrows alone.
std::string ResolveCheckoutDirectory(const std::string& directory);

// Who may write the settings files of the checkout at `checkout_directory`
// (absolute, resolved by ResolveCheckoutDirectory): every place of `places`
// that is or holds its .bravebot. A place is found by its path with links
// resolved and by its identity (device and inode), so a link to it, or a
// bind mount of it or of a directory above it, is found too. Empty where no
// server may write there.
std::vector<SettingsWriter> WritersOfCheckoutSettings(const std::string& checkout_directory,
                                                      const ServerWritablePlaces& places);

// The sentence a session says once as it opens, and list and doctor show,
// for the settings file at `shown_path` that `writers` may write.
std::string DescribeServerWritableSettings(const std::string& shown_path,
                                           const std::vector<SettingsWriter>& writers);

// The checkouts' settings directories (.bravebot) a server given
// `directory` as its --dir could write: `directory` itself where it is one,
// and those beneath it, looked for without following a link to
// at most `kSettingsSearchDepth` levels and `kSettingsSearchEntries` entries,
// past .git and node_modules. What add says of a --dir.
inline constexpr int kSettingsSearchDepth = 4;
inline constexpr int kSettingsSearchEntries = 20000;
struct SettingsDirectoriesFound {
  std::vector<std::string> directories;  // .bravebot directories, sorted
  bool search_cut_short = false;         // the entries ran out before the depth
};
SettingsDirectoriesFound CheckoutSettingsDirectoriesIn(const std::string& directory);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_POLICY_SETTINGS_WRITERS_H_
