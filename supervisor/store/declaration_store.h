// mcp.json in the profile directory: read it, and change it one declaration
// at a time. Every change holds the profile directory's lock from its read to
// its rename, so concurrent commands never lose each other's declarations, and
// writes the whole file anew atomically, so a reader or a crash never sees half
// of one. A file that does not parse is never overwritten. Entries this code
// cannot use are written back as they were.
//
//   DeclarationStore store(profile);
//   auto replaced = store.Put(weather);   // the declaration it replaced, if any
//   auto file = store.Read();
#ifndef BRAVEBOT_SUPERVISOR_STORE_DECLARATION_STORE_H_
#define BRAVEBOT_SUPERVISOR_STORE_DECLARATION_STORE_H_

#include <functional>
#include <optional>
#include <string>

#include "base/result.h"
#include "confine/declaration.h"
#include "supervisor/store/declaration_file.h"
#include "supervisor/store/profile_directory.h"

namespace bravebot {

inline constexpr char kDeclarationFileName[] = "mcp.json";

class DeclarationStore {
 public:
  explicit DeclarationStore(const ProfileDirectory& profile) : profile_(profile) {}

  std::string path() const { return profile_.PathOf(kDeclarationFileName); }

  // What mcp.json declares; a missing file declares nothing.
  Result<DeclarationFile> Read() const;

  // Declares `declaration` under its alias, replacing what was declared there.
  // Returns the declaration replaced, if there was a usable one.
  // `held` is the profile directory's lock (ProfileDirectory::Lock).
  Result<std::optional<Declaration>> Put(const Declaration& declaration, const FileLock& held);

  // Removes the declaration of `alias`, usable or not; the removed entry's
  // declaration when it was usable. kNotFound when nothing is declared there.
  Result<std::optional<Declaration>> Remove(const std::string& alias, const FileLock& held);

 private:
  // Reads the document (or starts an empty one), lets `change` edit it, and
  // writes it back when `change` succeeds.
  Status Change(const std::function<Status(nlohmann::json& servers)>& change);
  Result<nlohmann::json> ReadDocument() const;

  const ProfileDirectory& profile_;
};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_STORE_DECLARATION_STORE_H_
