#include "confine/system_paths.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "confine/etc_secrets.h"
#include "confine/paths.h"
#include "confine/whole_directory.h"

namespace bravebot {
namespace {

constexpr std::array<std::string_view, 9> kProgramDirectories = {
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt", "/nix/store"};

constexpr char kProgramsReason[] = "system programs and libraries";
constexpr char kKernelViewReason[] = "the kernel's view of processes and devices";
constexpr char kEtcReason[] = "system configuration";
constexpr char kEtcLinkReasonStart[] = "target of the link /etc/";
constexpr char kDeviceReason[] = "a device every program may use";
constexpr char kRandomReason[] = "random numbers";

// How deep GrantAround goes looking for what it must leave out.
constexpr int kMostLevels = 32;

bool IsEtcSecretPath(const std::string& path) {
  return IsSameOrBeneath(path, "/etc") && path != "/etc" && IsEtcSecret(path.substr(5));
}

// True for a directory a link may not be followed to, since secrets of /etc
// lie in it: /etc itself, what holds it, and one of /etc's directories with
// secrets (/etc/ssl, /etc/ssh).
bool HoldsEtcSecrets(const std::string& directory) {
  if (IsSameOrBeneath("/etc", directory)) return true;
  return IsSameOrBeneath(directory, "/etc") &&
         (IsEtcSecret(directory.substr(5)) || IsEtcDirectoryWithSecrets(directory.substr(5)));
}

// Grants `directory` (resolved) whole, or, where WhyNotWhole says it holds
// something never given, everything in it around that one thing.
void GrantWholeOrAround(const std::string& directory, PathAccess access, const std::string& reason,
                        const GrantRules& rules, ReachPaths& paths, int level = 0) {
  if (paths.Covers(directory)) return;
  const std::string why = WhyNotWhole(directory, rules.limits);
  if (why.empty()) {
    paths.Grant(directory, access, GrantExtent::kBeneath, reason);
    return;
  }
  if (!HoldsProtectedDirectory(directory, rules.limits) || level == kMostLevels) {
    paths.Refuse(directory, "not given, since " + why);
    return;
  }
  for (const std::string& name : rules.fs->ListDirectory(directory)) {
    Result<std::string> entry = rules.Resolve(JoinPath(directory, name));
    if (!entry) continue;
    if (*entry != JoinPath(directory, name) && LiesInPrivatePlace(*entry, rules.limits)) {
      // A link there (/opt/current -> the home's own files) is not followed.
      paths.Refuse(JoinPath(directory, name),
                   "a link into your home, the profile directory or /tmp, which are not given");
      continue;
    }
    if (rules.fs->KindOf(*entry, Follow::kNo) == FileKind::kDirectory) {
      GrantWholeOrAround(*entry, access, reason, rules, paths, level + 1);
    } else if (!paths.Covers(*entry)) {
      paths.Grant(*entry, access, GrantExtent::kFileOnly, reason);
    }
  }
}

void GrantEtcEntry(const GrantRules& rules, const std::string& relative, ReachPaths& paths) {
  const std::string path = JoinPath("/etc", relative);
  if (IsEtcSecret(relative)) {
    paths.Refuse(path, "a secret of the system's, which a server run by root could read");
    return;
  }
  const FileKind kind = rules.fs->KindOf(path, Follow::kNo);
  if (kind == FileKind::kLink) {
    // A rule is made on where a link leads, so a link to a secret is one.
    Result<std::string> target = rules.Resolve(path);
    if (!target) return;
    const bool directory = rules.fs->KindOf(*target, Follow::kNo) == FileKind::kDirectory;
    if (IsEtcSecretPath(*target) || (directory && HoldsEtcSecrets(*target))) {
      paths.Refuse(path, "a link to a secret of the system's, or to a directory holding one");
    } else if (LiesInPrivatePlace(*target, rules.limits)) {
      paths.Refuse(path,
                   "a link into your home, the profile directory or /tmp, which are not given");
    } else if (!paths.Covers(*target)) {
      if (directory) {
        GrantWholeOrAround(*target, PathAccess::kRead, kEtcLinkReasonStart + relative, rules,
                           paths);
      } else {
        paths.Grant(*target, PathAccess::kRead, GrantExtent::kFileOnly,
                    kEtcLinkReasonStart + relative);
      }
    }
    return;
  }
  if (kind == FileKind::kDirectory && IsEtcDirectoryWithSecrets(relative)) {
    for (const std::string& name : rules.fs->ListDirectory(path)) {
      GrantEtcEntry(rules, relative + "/" + name, paths);
    }
    return;
  }
  if (kind == FileKind::kDirectory) {
    GrantWholeOrAround(path, PathAccess::kRead, kEtcReason, rules, paths);
  } else if (kind != FileKind::kMissing) {
    paths.Grant(path, PathAccess::kRead, GrantExtent::kFileOnly, kEtcReason);
  }
}

}  // namespace

void GrantSystemPaths(const GrantRules& rules, ReachPaths& paths) {
  for (std::string_view name : kProgramDirectories) {
    Result<std::string> directory = rules.Resolve(std::string(name));
    if (!directory || rules.fs->KindOf(*directory, Follow::kNo) != FileKind::kDirectory) continue;
    GrantWholeOrAround(*directory, PathAccess::kReadExecute, kProgramsReason, rules, paths);
  }
  // Targets of links in /etc come after every directory, so that one already
  // given is not granted again.
  std::vector<std::string> entries = rules.fs->ListDirectory("/etc");
  std::stable_partition(entries.begin(), entries.end(), [&](const std::string& name) {
    return rules.fs->KindOf(JoinPath("/etc", name), Follow::kNo) != FileKind::kLink;
  });
  for (const char* directory : {"/proc", "/sys"}) {
    if (rules.fs->KindOf(directory, Follow::kNo) == FileKind::kDirectory) {
      GrantWholeOrAround(directory, PathAccess::kRead, kKernelViewReason, rules, paths);
    }
  }
  for (const std::string& name : entries) GrantEtcEntry(rules, name, paths);
  for (const char* device : {"/dev/null", "/dev/zero", "/dev/full"}) {
    paths.Grant(device, PathAccess::kReadWrite, GrantExtent::kFileOnly, kDeviceReason);
  }
  for (const char* device : {"/dev/random", "/dev/urandom"}) {
    paths.Grant(device, PathAccess::kRead, GrantExtent::kFileOnly, kRandomReason);
  }
}

bool IsInSystemTree(std::string_view path) {
  for (std::string_view tree : kProgramDirectories) {
    if (IsSameOrBeneath(path, tree)) return true;
  }
  for (std::string_view tree : {"/etc", "/proc", "/sys", "/dev"}) {
    if (IsSameOrBeneath(path, tree)) return true;
  }
  return false;
}

bool IsSystemPathReason(std::string_view reason) {
  return reason == kProgramsReason || reason == kKernelViewReason || reason == kEtcReason ||
         reason == kDeviceReason || reason == kRandomReason ||
         reason.starts_with(kEtcLinkReasonStart);
}

}  // namespace bravebot
