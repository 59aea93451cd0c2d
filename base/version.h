// The version every program of bravebot-mcp says with --version: the one
// project() in the top CMakeLists.txt names.
#ifndef BRAVEBOT_BASE_VERSION_H_
#define BRAVEBOT_BASE_VERSION_H_

#include <string>
#include <string_view>

namespace bravebot {

// "0.1.0".
std::string_view BravebotVersion();

// The line --version prints: "bravebot-mcp 0.1.0\n".
std::string VersionLine(std::string_view program);

}  // namespace bravebot

#endif  // BRAVEBOT_BASE_VERSION_H_
