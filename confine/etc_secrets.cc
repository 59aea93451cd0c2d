#include "confine/etc_secrets.h"

#include <array>

namespace bravebot {
namespace {

// Whole entries: files, or directories with everything in them.
constexpr std::array<std::string_view, 13> kSecretEntries = {
    "shadow",           "shadow-",
    "gshadow",          "gshadow-",
    "sudoers",          "sudoers.d",
    "krb5.keytab",      "ssl/private",
    "security/opasswd", "NetworkManager/system-connections",
    "ppp/chap-secrets", "ppp/pap-secrets",
    "libvirt/secrets",
};

// Directories given entry by entry, since part of what they hold is secret.
constexpr std::array<std::string_view, 6> kDirectoriesWithSecrets = {
    "ssh", "ssl", "security", "NetworkManager", "ppp", "libvirt",
};

bool IsSameOrBelow(std::string_view path, std::string_view entry) {
  return path == entry || (path.starts_with(entry) && path[entry.size()] == '/');
}

// ssh's host keys: ssh_host_<type>_key, where the .pub beside each is public.
bool IsSshHostKey(std::string_view relative) {
  if (!relative.starts_with("ssh/ssh_host_")) return false;
  return relative.ends_with("_key");
}

}  // namespace

bool IsEtcSecret(std::string_view relative) {
  for (std::string_view entry : kSecretEntries) {
    if (IsSameOrBelow(relative, entry)) return true;
  }
  return IsSshHostKey(relative);
}

bool IsEtcDirectoryWithSecrets(std::string_view relative) {
  for (std::string_view directory : kDirectoriesWithSecrets) {
    if (relative == directory) return true;
  }
  return false;
}

}  // namespace bravebot
