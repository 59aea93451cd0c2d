// Where the real MCP servers the tests run are installed (scripts/
// install-peers.sh puts them in .peers/), and whether they are.
#ifndef BRAVEBOT_INTEGRATION_PEERS_H_
#define BRAVEBOT_INTEGRATION_PEERS_H_

#include <cstdlib>
#include <filesystem>
#include <fstream>
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

// Writes `name` in `directory`: a Node.js script that starts its own
// arguments (COMMAND ARGS...) as an MCP server through the TypeScript SDK's
// stdio client, connects `client` to it, then runs `body`. Beside it, a
// link to the SDK, since ES modules do not read NODE_PATH. Its path.
inline std::string WriteSdkClientScript(const std::string& directory, const std::string& name,
                                        const std::string& body) {
  const std::string modules = directory + "/node_modules";
  if (!std::filesystem::exists(modules)) {
    std::filesystem::create_directory_symlink(PeersDirectory() + "/client/node_modules", modules);
  }
  const std::string script = directory + "/" + name;
  std::ofstream(script) << R"(
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
const [command, ...args] = process.argv.slice(2);
const client = new Client({ name: "bravebot-test", version: "1.0.0" });
await client.connect(new StdioClientTransport({ command, args, env: process.env }));
)" << body;
  return script;
}

}  // namespace bravebot::testing

#define SKIP_WITHOUT_PEERS()                                                             \
  if (!::bravebot::testing::PeersInstalled())                                            \
  GTEST_SKIP() << "the MCP servers from the npm registry are not installed in "          \
               << ::bravebot::testing::PeersDirectory() << ": scripts/install-peers.sh " \
               << "installs them"

#endif  // BRAVEBOT_INTEGRATION_PEERS_H_
