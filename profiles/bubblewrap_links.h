// The links of the machine's that a server under bubblewrap would miss: its
// root holds only its binds, and a bind is made on where a path leads, so
// /bin on a merged /usr (-> usr/bin), /etc/resolv.conf (-> /run/...), a PATH
// entry that is a link, and the program as declared through one would not
// be there. Each is made again in its root as the same link; a link gives
// nothing by itself, only what it leads to, where that is bound.
//
//   std::vector<BubblewrapLink> links = BubblewrapLinks(reach, fs);
#ifndef BRAVEBOT_PROFILES_BUBBLEWRAP_LINKS_H_
#define BRAVEBOT_PROFILES_BUBBLEWRAP_LINKS_H_

#include <vector>

#include "confine/filesystem.h"
#include "confine/reach.h"
#include "profiles/bubblewrap_plan.h"

namespace bravebot {

// Every link among: the entries of / and of /etc, and each component of each
// PATH entry the server is given and of its program as declared. Read
// through `fs` only; nothing is followed.
std::vector<BubblewrapLink> BubblewrapLinks(const Reach& reach, const FileSystemView& fs);

}  // namespace bravebot

#endif  // BRAVEBOT_PROFILES_BUBBLEWRAP_LINKS_H_
