// Where the real MCP servers the tests run are installed (scripts/
// install-peers.sh puts them in .peers/), and whether they are.
#ifndef BRAVEBOT_INTEGRATION_PEERS_H_
#define BRAVEBOT_INTEGRATION_PEERS_H_

#include <cstdlib>
#include <filesystem>
#include <string>

#include "integration/programs.h"

namespace bravebot::testing {

// BRAVEBOT_PEERS when set, else the folder the build was configured with.
inline std::string PeersDirectory() {
  const char* peers = std::getenv("BRAVEBOT_PEERS");
  return peers != nullptr && *peers != '\0' ? peers : BRAVEBOT_PEERS_DIRECTORY;
}

inline bool PeersInstalled() {
  return std::filesystem::exists(PeersDirectory() + "/bin/mcp-server-everything");
}

}  // namespace bravebot::testing

#define SKIP_WITHOUT_PEERS()                                                             \
  if (!::bravebot::testing::PeersInstalled())                                            \
  GTEST_SKIP() << "the MCP servers from the npm registry are not installed in "          \
               << ::bravebot::testing::PeersDirectory() << ": scripts/install-peers.sh " \
               << "installs them"

#endif  // BRAVEBOT_INTEGRATION_PEERS_H_
