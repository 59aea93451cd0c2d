#include "base/version.h"

// Defined for this file alone by base/CMakeLists.txt, so a new version
// recompiles one file.
#ifndef BRAVEBOT_VERSION
#error "BRAVEBOT_VERSION is defined by base/CMakeLists.txt"
#endif

namespace bravebot {

std::string_view BravebotVersion() { return BRAVEBOT_VERSION; }

std::string VersionLine(std::string_view program) {
  return std::string(program) + " " + std::string(BravebotVersion()) + "\n";
}

}  // namespace bravebot
