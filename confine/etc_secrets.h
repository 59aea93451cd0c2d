// The entries of /etc a server is never given, though the rest of /etc is
// readable to it: what a server run by root could otherwise read that holds a
// password hash, a private key or a grant of privilege. Kept in one place, and
// listed in docs/reach.md.
#ifndef BRAVEBOT_CONFINE_ETC_SECRETS_H_
#define BRAVEBOT_CONFINE_ETC_SECRETS_H_

#include <string_view>

namespace bravebot {

// True when `relative` (a path below /etc, such as "shadow" or
// "ssh/ssh_host_ed25519_key") is a secret, or lies in a directory that is.
bool IsEtcSecret(std::string_view relative);

// True for a directory of /etc that is given entry by entry rather than
// whole, because some of its entries are secrets ("ssh", "ssl").
bool IsEtcDirectoryWithSecrets(std::string_view relative);

}  // namespace bravebot

#endif  // BRAVEBOT_CONFINE_ETC_SECRETS_H_
