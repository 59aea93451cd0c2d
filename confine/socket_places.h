// Where the machine's local sockets usually are: /run (with /var/run, a link
// to it on most systems), /tmp, /dev/shm, /var/lib, the person's home (as
// HOME says and as the account has it), and the profile directory, where
// other servers' homes are.
// Below Landlock ABI 9 nothing refuses connecting to a pathname socket, so
// the launcher keeps the reach's promise (a socket only in a directory it may
// write) by hiding these places behind empty mounts; this says which they are
// on this machine. Pure: the filesystem is read through the view handed in.
#ifndef BRAVEBOT_CONFINE_SOCKET_PLACES_H_
#define BRAVEBOT_CONFINE_SOCKET_PLACES_H_

#include <string>
#include <vector>

#include "confine/filesystem.h"

namespace bravebot {

// The places that are directories here, each with every link resolved (a
// mount goes on the directory itself), none beneath another, sorted.
// `personal` are the homes and the profile directory, "" for one there is
// not.
std::vector<std::string> UsualSocketPlaces(const std::vector<std::string>& personal,
                                           const FileSystemView& fs);

}  // namespace bravebot

#endif  // BRAVEBOT_CONFINE_SOCKET_PLACES_H_
