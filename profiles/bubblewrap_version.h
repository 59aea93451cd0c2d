// Whether a bubblewrap is recent enough for the bubblewrap backend, from what
// `bwrap --version` printed. Pure: launcher/bubblewrap_program.h runs it.
//
//   std::string problem = BubblewrapVersionProblem("bubblewrap 0.8.0\n");  // ""
#ifndef BRAVEBOT_PROFILES_BUBBLEWRAP_VERSION_H_
#define BRAVEBOT_PROFILES_BUBBLEWRAP_VERSION_H_

#include <string>
#include <string_view>

namespace bravebot {

// The oldest bubblewrap the backend runs: 0.8.0 brought --bind-fd and
// --ro-bind-fd (binds of what we opened without following links) and
// --disable-userns.
inline constexpr char kOldestBubblewrap[] = "0.8.0";

// "" when `version_output` names a bubblewrap at least kOldestBubblewrap;
// otherwise why not, in words ("it is 0.4.1, and 0.8.0 is needed").
std::string BubblewrapVersionProblem(std::string_view version_output);

}  // namespace bravebot

#endif  // BRAVEBOT_PROFILES_BUBBLEWRAP_VERSION_H_
