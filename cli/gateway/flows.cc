#include "cli/gateway/flows.h"

#include <boost/asio/co_spawn.hpp>
#include <exception>
#include <iostream>
#include <nlohmann/json.hpp>
#include <utility>

namespace bravebot {

void SpawnFlow(const boost::asio::any_io_executor& executor, boost::asio::awaitable<void> flow,
               std::function<void()> done) {
  boost::asio::co_spawn(
      executor, std::move(flow), [done = std::move(done)](const std::exception_ptr& failure) {
        if (done) done();
        if (!failure) return;
        try {
          std::rethrow_exception(failure);
        } catch (const nlohmann::json::exception& wrong) {
          std::cerr << "bravebot-mcp gateway: a message was given up: " << wrong.what() << "\n";
        }
      });
}

}  // namespace bravebot
