// The bubblewrap the bubblewrap backend runs: /usr/bin/bwrap, by that
// absolute path only (never one a PATH finds), asked its version once a
// process.
//
//   const BubblewrapProgram& bwrap = ProbeBubblewrapOnce();
//   if (!bwrap.usable) std::cerr << bwrap.why_not;
#ifndef BRAVEBOT_LAUNCHER_BUBBLEWRAP_PROGRAM_H_
#define BRAVEBOT_LAUNCHER_BUBBLEWRAP_PROGRAM_H_

#include <string>

namespace bravebot {

inline constexpr char kBubblewrapPath[] = "/usr/bin/bwrap";

struct BubblewrapProgram {
  bool usable = false;
  std::string version;  // its --version line: "bubblewrap 0.8.0"
  std::string why_not;  // when not usable: "/usr/bin/bwrap is not there"
};

// Runs `/usr/bin/bwrap --version` with an empty environment, once a process,
// and says whether it can be used.
const BubblewrapProgram& ProbeBubblewrapOnce();

}  // namespace bravebot

#endif  // BRAVEBOT_LAUNCHER_BUBBLEWRAP_PROGRAM_H_
