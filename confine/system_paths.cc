#include "confine/system_paths.h"

#include <array>
#include <string_view>

#include "confine/etc_secrets.h"
#include "confine/paths.h"

namespace bravebot {
namespace {

constexpr std::array<std::string_view, 9> kProgramDirectories = {
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt", "/nix/store"};

bool IsEtcSecretPath(const std::optional<std::string>& path) {
  return path && IsSameOrBeneath(*path, "/etc") && *path != "/etc" && IsEtcSecret(path->substr(5));
}

void GrantEtcEntry(const FileSystemView& fs, const std::string& relative, ReachPaths& paths,
                   std::vector<std::string>& links) {
  const std::string path = JoinPath("/etc", relative);
  if (IsEtcSecret(relative)) {
    paths.Refuse(path, "a secret of the system's, which a server run by root could read");
    return;
  }
  FileKind kind = fs.KindOf(path, Follow::kNo);
  if (kind == FileKind::kLink) {
    // A rule is made on what a path leads to, so a link to a secret is one.
    if (IsEtcSecretPath(fs.ResolvedPath(path))) {
      paths.Refuse(path, "a link to a secret of the system's");
      return;
    }
    links.push_back(path);
  }
  if (kind == FileKind::kDirectory && IsEtcDirectoryWithSecrets(relative)) {
    for (const std::string& name : fs.ListDirectory(path)) {
      GrantEtcEntry(fs, relative + "/" + name, paths, links);
    }
    return;
  }
  FileKind target = kind == FileKind::kLink ? fs.KindOf(path, Follow::kYes) : kind;
  if (target == FileKind::kMissing) return;
  paths.Grant(path, PathAccess::kRead, target != FileKind::kDirectory, "system configuration");
}

// A link in /etc that leads out of everything given (resolv.conf into
// /run/systemd/resolve, say) is given its target too, unless the target is a
// secret of /etc reached another way.
void GrantLinkTargets(const FileSystemView& fs, const std::vector<std::string>& links,
                      ReachPaths& paths) {
  for (const std::string& link : links) {
    std::optional<std::string> target = fs.ResolvedPath(link);
    if (!target || paths.Covers(*target)) continue;
    if (IsEtcSecretPath(target)) continue;
    paths.Grant(*target, PathAccess::kRead,
                fs.KindOf(*target, Follow::kYes) != FileKind::kDirectory,
                "target of the link " + link);
  }
}

}  // namespace

void GrantSystemPaths(const FileSystemView& fs, ReachPaths& paths) {
  for (std::string_view directory : kProgramDirectories) {
    std::string path(directory);
    if (fs.KindOf(path, Follow::kYes) == FileKind::kDirectory) {
      paths.Grant(path, PathAccess::kReadExecute, false, "system programs and libraries");
    }
  }
  std::vector<std::string> links;
  for (const std::string& name : fs.ListDirectory("/etc")) GrantEtcEntry(fs, name, paths, links);
  for (const char* directory : {"/proc", "/sys"}) {
    if (fs.KindOf(directory, Follow::kYes) == FileKind::kDirectory) {
      paths.Grant(directory, PathAccess::kRead, false,
                  "the kernel's view of processes and devices");
    }
  }
  for (const char* device : {"/dev/null", "/dev/zero", "/dev/full"}) {
    paths.Grant(device, PathAccess::kReadWrite, true, "a device every program may use");
  }
  for (const char* device : {"/dev/random", "/dev/urandom"}) {
    paths.Grant(device, PathAccess::kRead, true, "random numbers");
  }
  GrantLinkTargets(fs, links, paths);
}

}  // namespace bravebot
