// mcp-run --stdio for a service server: each message the client writes on
// mcp-run's standard input, one JSON-RPC message a line, is sent to the
// service over streamable HTTP (servers/http_channel.h), and each message
// the service sends, in answer or of its own accord, is written to mcp-run's
// standard output, one a line. The client makes the handshake, as it does
// with a program server through the stdio bridge; a new initialize after the
// service ended its session makes a new one.
//
// Request ids are given ours on the way (cli/bridged_ids.h). A request that
// fails here (the service unreachable, an HTTP error, a redirect, which is
// refused as a one-shot run refuses it) is answered to the client with a
// JSON-RPC error in our words, said on standard error too. Bounded both
// ways: the client's input is not read while 16 requests are under way, and
// the service's answers are not read while more than kBridgeBufferBytes wait
// for the client to take them.
#ifndef BRAVEBOT_CLI_SERVICE_BRIDGE_H_
#define BRAVEBOT_CLI_SERVICE_BRIDGE_H_

#include <chrono>
#include <ostream>

#include "confine/declaration.h"
#include "supervisor/servers/confined_server.h"

namespace bravebot {

// How long the requests under way are given to be answered once mcp-run's
// input has ended.
inline constexpr std::chrono::milliseconds kBridgeGraceAfterInput{2000};

// The JSON-RPC error code a request that failed here is answered with.
inline constexpr int kBridgeRequestFailed = -32603;

// Bridges until the client's input ends and its requests are answered (or
// kBridgeGraceAfterInput has passed), or its output is gone, or a signal
// comes; then ends the service's session (DELETE). Says on `err`, after
// "mcp-run: ", what failed. Returns 0, or kExitFailed where the service was
// refused or sent what cannot be read; a signal ends mcp-run by it
// (EndBySignal) once the session is ended.
int BridgeService(const Declaration& declaration, const ServerStartOptions& options,
                  std::ostream& err);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_SERVICE_BRIDGE_H_
