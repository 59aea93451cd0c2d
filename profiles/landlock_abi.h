// The Landlock interface as the kernel defines it, for every ABI from 1 to 9.
// Debian 12's <linux/landlock.h> stops at ABI 2, so the rights and structures
// of the later ones are spelled out here, with the ABI that brought each.
#ifndef BRAVEBOT_PROFILES_LANDLOCK_ABI_H_
#define BRAVEBOT_PROFILES_LANDLOCK_ABI_H_

#include <cstdint>

namespace bravebot::landlock {

// The newest ABI this code knows every right of. A newer kernel is used as
// this one: what it adds is left unhandled, and so allowed.
inline constexpr int kNewestKnownAbi = 9;

// Filesystem rights (ABI 1 unless said).
inline constexpr uint64_t kExecute = 1ULL << 0;
inline constexpr uint64_t kWriteFile = 1ULL << 1;
inline constexpr uint64_t kReadFile = 1ULL << 2;
inline constexpr uint64_t kReadDir = 1ULL << 3;
inline constexpr uint64_t kRemoveDir = 1ULL << 4;
inline constexpr uint64_t kRemoveFile = 1ULL << 5;
inline constexpr uint64_t kMakeChar = 1ULL << 6;
inline constexpr uint64_t kMakeDir = 1ULL << 7;
inline constexpr uint64_t kMakeReg = 1ULL << 8;
inline constexpr uint64_t kMakeSock = 1ULL << 9;
inline constexpr uint64_t kMakeFifo = 1ULL << 10;
inline constexpr uint64_t kMakeBlock = 1ULL << 11;
inline constexpr uint64_t kMakeSym = 1ULL << 12;
inline constexpr uint64_t kRefer = 1ULL << 13;        // ABI 2: link or rename across directories
inline constexpr uint64_t kTruncate = 1ULL << 14;     // ABI 3
inline constexpr uint64_t kIoctlDev = 1ULL << 15;     // ABI 5: ioctl on a device
inline constexpr uint64_t kResolveUnix = 1ULL << 16;  // ABI 9: connect to a pathname socket

// Network rights (ABI 4), on TCP ports.
inline constexpr uint64_t kNetBindTcp = 1ULL << 0;
inline constexpr uint64_t kNetConnectTcp = 1ULL << 1;

// Scopes (ABI 6): what a domain may not reach outside itself.
inline constexpr uint64_t kScopeAbstractUnixSocket = 1ULL << 0;
inline constexpr uint64_t kScopeSignal = 1ULL << 1;

// Flags of landlock_create_ruleset.
inline constexpr uint32_t kCreateRulesetVersion = 1U << 0;

// Rule types of landlock_add_rule.
inline constexpr int kRulePathBeneath = 1;

// struct landlock_ruleset_attr at its ABI 6 size. An older kernel accepts it
// whole as long as the fields it does not know are zero.
struct RulesetAttr {
  uint64_t handled_access_fs;
  uint64_t handled_access_net;  // ABI 4
  uint64_t scoped;              // ABI 6
};

// struct landlock_path_beneath_attr, packed as the kernel declares it.
struct __attribute__((packed)) PathBeneathAttr {
  uint64_t allowed_access;
  int32_t parent_fd;
};

// Every filesystem right the kernel of `abi` knows.
constexpr uint64_t FilesystemRightsOf(int abi) {
  if (abi < 1) return 0;
  uint64_t rights = (kMakeSym << 1) - 1;  // ABI 1: bits 0 to 12
  if (abi >= 2) rights |= kRefer;
  if (abi >= 3) rights |= kTruncate;
  if (abi >= 5) rights |= kIoctlDev;
  if (abi >= 9) rights |= kResolveUnix;
  return rights;
}

// The rights that apply to a file, as opposed to a directory: the only ones a
// rule on a file may carry.
inline constexpr uint64_t kFileRights =
    kExecute | kWriteFile | kReadFile | kTruncate | kIoctlDev | kResolveUnix;

// The network rights the plan handles on a kernel of `abi`: binding a TCP
// port, with no rule to allow one, so the server listens on none. Connecting
// is left unhandled: the reach gives the network by IP address.
constexpr uint64_t HandledNetworkRightsOf(int abi) { return abi >= 4 ? kNetBindTcp : 0; }

// Every scope the kernel of `abi` knows.
constexpr uint64_t ScopesOf(int abi) {
  return abi >= 6 ? kScopeAbstractUnixSocket | kScopeSignal : 0;
}

}  // namespace bravebot::landlock

#endif  // BRAVEBOT_PROFILES_LANDLOCK_ABI_H_
