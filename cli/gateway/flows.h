// The gateway's flows (a request that waits for a person or the servers)
// each run as a coroutine of its own on the gateway's loop.
#ifndef BRAVEBOT_CLI_GATEWAY_FLOWS_H_
#define BRAVEBOT_CLI_GATEWAY_FLOWS_H_

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <functional>

namespace bravebot {

// Runs `flow` on `executor`; `done` (where given) runs once it has ended,
// however it ended. A member of another type than MCP gives it, met past
// the checks, gives up this flow alone, said on standard error, and the
// gateway goes on.
void SpawnFlow(const boost::asio::any_io_executor& executor, boost::asio::awaitable<void> flow,
               std::function<void()> done = nullptr);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_GATEWAY_FLOWS_H_
