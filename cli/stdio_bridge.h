// mcp-run --stdio: the confined server's standard input and output joined to
// mcp-run's own, byte for byte in both directions, so any MCP client can use
// the confined server as if it were the server itself.
//
// Each direction is relayed on its own, on one event loop: a piece of at most
// kBridgeBufferBytes is read, then written whole before the next is read, so
// a client or a server that writes a whole message before it reads one (many
// do) never stops the other direction, and a side that does not read holds
// back only the side that writes to it, as a pipe between the two would. Its
// standard error goes to mcp-run's the same way, beside the rest.
//
// The server is stopped as every server is (servers/stop_sequence.h) once the
// client's input ends, its own output ends, or mcp-run's output can no longer
// be written; its output is relayed until it has ended, and what it wrote
// last is passed on after, while mcp-run's output or error takes a byte at
// least every kPassOnIdleAfterEnd: a client that never reads mcp-run's
// standard error, say, loses the rest rather than keeping mcp-run for ever.
#ifndef BRAVEBOT_CLI_STDIO_BRIDGE_H_
#define BRAVEBOT_CLI_STDIO_BRIDGE_H_

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstddef>

#include "supervisor/servers/running_server.h"

namespace bravebot {

// The bytes on their way in one direction, at most.
inline constexpr std::size_t kBridgeBufferBytes = std::size_t{256} * 1024;

// Once the server has ended, how long mcp-run's output and error may take
// nothing of what it wrote before the rest is dropped.
inline constexpr std::chrono::seconds kPassOnIdleAfterEnd{2};

// Relays between `server`, started with RunningServer::StartWithRawPipes on
// `io`, and mcp-run's standard streams until the server has ended and what it
// wrote is passed on; runs `io` meanwhile. mcp-run's standard input, output
// and error are non-blocking meanwhile, and get their flags back after.
// Returns the server's exit status as a shell gives it (128 + a signal).
int BridgeStdio(boost::asio::io_context& io, RunningServer& server);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_STDIO_BRIDGE_H_
