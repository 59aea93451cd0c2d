// mcp-run --stdio: the confined server's standard input and output joined to
// mcp-run's own, byte for byte in both directions, so any MCP client can use
// the confined server as if it were the server itself.
#ifndef BRAVEBOT_CLI_STDIO_BRIDGE_H_
#define BRAVEBOT_CLI_STDIO_BRIDGE_H_

#include "supervisor/confined_server.h"

namespace bravebot {

// Relays until the server's output ends; once mcp-run's own input ends, the
// server's is closed so it can finish. Returns the server's exit status.
int BridgeStdio(ConfinedServer& server);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_STDIO_BRIDGE_H_
