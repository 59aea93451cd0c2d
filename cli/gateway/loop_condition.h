// What a coroutine on the gateway's event loop waits for: a condition that
// other handlers on the same loop make true, as a condition variable is for
// threads, and with no lock, since nothing runs at once. Whoever changes
// what a waiter tests calls NotifyAll; each waiter then tests again.
//
//   co_await opened_.Wait([this] { return opened_ || ending_; });
//   bool started = co_await starts_.Wait([this] { return starting_ == 0; }, 90s);
#ifndef BRAVEBOT_CLI_GATEWAY_LOOP_CONDITION_H_
#define BRAVEBOT_CLI_GATEWAY_LOOP_CONDITION_H_

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <functional>
#include <list>

namespace bravebot {

class LoopCondition {
 public:
  using Duration = std::chrono::steady_clock::duration;

  explicit LoopCondition(boost::asio::any_io_executor executor) : executor_(std::move(executor)) {}
  LoopCondition(const LoopCondition&) = delete;
  LoopCondition& operator=(const LoopCondition&) = delete;

  // Completes once `holds()` is true (with true), or once `limit` passed
  // (with false). Waiters notified together test again in the order they
  // began to wait.
  boost::asio::awaitable<bool> Wait(std::function<bool()> holds, Duration limit = Duration::max());
  // Every waiter tests again.
  void NotifyAll();

 private:
  boost::asio::any_io_executor executor_;
  std::list<boost::asio::steady_timer*> waiters_;
};

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_GATEWAY_LOOP_CONDITION_H_
