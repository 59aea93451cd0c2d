// A reach rendered as a macOS Seatbelt profile (SBPL), for
// `sandbox-exec -f PROFILE`: everything denied but what the reach gives.
//
//   (version 1) (deny default)
//   the look at any path          file-read-metadata, everywhere
//   what it may read, run, write  file-read*, process-exec, file-write* per
//                                 path, each canonical (/tmp is /private/tmp)
//   a local socket                only beneath a directory it may write
//   the network                   by IP address, listening nowhere
//   what a program needs to start process-fork, signals to itself, sysctl
//                                 reads, the mach services that resolve names
//                                 and check certificates
//   no .git written anywhere      in any case of its letters, its making
//                                 refused too: the last rule, so that it
//                                 wins over every grant before it
//
// Pure: rendered on any machine; only macOS runs it. docs/macos.md says what
// differs there.
#ifndef BRAVEBOT_PROFILES_SEATBELT_PROFILE_H_
#define BRAVEBOT_PROFILES_SEATBELT_PROFILE_H_

#include <string>
#include <string_view>

#include "confine/reach.h"

namespace bravebot {

// The profile for `reach`, one rule a line, each grant with its reason as a
// comment above it.
std::string RenderSeatbeltProfile(const Reach& reach);

// `path` as macOS names it where it is a link in the system: /tmp, /var and
// /etc are links into /private, and Seatbelt matches the path a link leads to.
std::string CanonicalMacPath(std::string_view path);

// `text` as an SBPL string literal, quoted, with `"` and `\` escaped and a
// control byte or a byte past ASCII written as \xHH (an SBPL string takes
// C escapes), so no bidirectional or invisible character reaches a terminal
// that shows the profile.
std::string SeatbeltString(std::string_view text);

}  // namespace bravebot

#endif  // BRAVEBOT_PROFILES_SEATBELT_PROFILE_H_
