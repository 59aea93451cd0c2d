// Where the programs under test are: BRAVEBOT_BIN when set (where CI stages
// them for an unprivileged user), else the build's bin/.
#ifndef BRAVEBOT_INTEGRATION_PROGRAMS_H_
#define BRAVEBOT_INTEGRATION_PROGRAMS_H_

#include <cstdlib>
#include <string>

namespace bravebot::testing {

inline std::string OurProgram(const std::string& name) {
  const char* bin = std::getenv("BRAVEBOT_BIN");
  return std::string(bin != nullptr && *bin != '\0' ? bin : BRAVEBOT_BIN_DIRECTORY) + "/" + name;
}

}  // namespace bravebot::testing

#endif  // BRAVEBOT_INTEGRATION_PROGRAMS_H_
