// mcp-run --stdio: the confined server's standard input and output joined to
// mcp-run's own, byte for byte in both directions, so any MCP client can use
// the confined server as if it were the server itself.
//
// Each direction is relayed on its own, through a buffer of kBridgeBufferBytes:
// a side is read only while its buffer has room, and written while it holds
// bytes, so a client or a server that writes a whole message before it reads
// one (many do) never stops the other direction. A side that does not read
// holds back only the side that writes to it, as a pipe between the two would.
// Its standard error goes to mcp-run's the same way, in the same loop.
#ifndef BRAVEBOT_CLI_STDIO_BRIDGE_H_
#define BRAVEBOT_CLI_STDIO_BRIDGE_H_

#include <chrono>
#include <cstddef>

#include "supervisor/servers/confined_server.h"

namespace bravebot {

// The bytes on their way in one direction, at most.
inline constexpr std::size_t kBridgeBufferBytes = 256 * 1024;

// How long the server's output is still relayed once mcp-run's input has
// ended and the server's input was closed, for it to finish by itself.
inline constexpr std::chrono::milliseconds kBridgeGraceAfterInput{2000};

// How long it is then given at each step of stopping (ConfinedServer::Stop):
// before SIGTERM, and before SIGKILL.
inline constexpr std::chrono::milliseconds kBridgeStopGrace{500};

// Relays until the server's output ends (and all of it is written out), or
// mcp-run's output can no longer be written, or kBridgeGraceAfterInput after
// mcp-run's own input ended; then stops the server, and passes on what it
// wrote on its standard error last. mcp-run's standard input, output and
// error are non-blocking meanwhile, and get their flags back after.
// Returns the server's exit status as a shell gives it (128 + a signal).
int BridgeStdio(ConfinedServer& server);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_STDIO_BRIDGE_H_
