// How a stdio server is stopped, wherever one is (the supervisor, mcp-run in
// each of its modes, reach --probe, confined-exec): RunningServer::Stop, in
// the steps the MCP specification gives a client of the stdio transport
// (basic/lifecycle, "Shutdown"), with one set of waits.
//
//   1. Its standard input is closed, so that a server that ends when its
//      input does (most do) ends by itself.
//   2. kInputClosedGrace later, while it runs: SIGTERM to its process group
//      (under bubblewrap, to the server itself).
//   3. kTerminateGrace later, while it runs: SIGKILL, which ends its PID
//      namespace and every process in it (where it has none, what it left
//      running is found and killed).
//
// A server that ends at any step ends the sequence there; none is waited for
// longer than kInputClosedGrace + kTerminateGrace. Its output is read
// throughout, so that a server that writes as it ends is not held up.
//
// Why these waits: the specification leaves each to "a reasonable time". The
// MCP SDKs' clients give 2 s at each step (the TypeScript SDK's
// StdioClientTransport.close()), and mcp-run --stdio stands between such a
// client and the server: 2 s after the client closes mcp-run's input it sends
// mcp-run SIGTERM, on which mcp-run kills the server at once. Our whole
// sequence fits in that first step, so the server is given its SIGTERM and a
// second to end on it before anything kills it. The supervisor answers a
// server/stop only once the server has ended; a second each keeps that
// answer, and a session's close, short.
#ifndef BRAVEBOT_SUPERVISOR_SERVERS_STOP_SEQUENCE_H_
#define BRAVEBOT_SUPERVISOR_SERVERS_STOP_SEQUENCE_H_

#include <chrono>

namespace bravebot {

inline constexpr std::chrono::milliseconds kInputClosedGrace{1000};
inline constexpr std::chrono::milliseconds kTerminateGrace{1000};

// Not a step of a stop: a server whose output closed while it runs is given
// this long to end by itself before it is taken as one that runs on with its
// output closed (and then stopped as above). Its output most often closes
// because it is ending, and its end comes within this.
inline constexpr std::chrono::milliseconds kEndAfterOutputClosed{500};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SERVERS_STOP_SEQUENCE_H_
