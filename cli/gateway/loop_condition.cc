#include "cli/gateway/loop_condition.h"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace bravebot {

boost::asio::awaitable<bool> LoopCondition::Wait(std::function<bool()> holds, Duration limit) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point now = Clock::now();
  // A limit too far to add to now is no limit.
  const Clock::time_point deadline =
      limit >= Clock::time_point::max() - now ? Clock::time_point::max() : now + limit;
  // Each waiter its own timer: NotifyAll cancels its wait, its limit ends it.
  boost::asio::steady_timer timer(executor_);
  while (!holds()) {
    if (Clock::now() >= deadline) co_return false;
    timer.expires_at(deadline);
    auto waiting = waiters_.insert(waiters_.end(), &timer);
    // Cancelled (notified) or expired: either way, it tests again.
    co_await timer.async_wait(boost::asio::as_tuple(boost::asio::use_awaitable));
    waiters_.erase(waiting);
  }
  co_return true;
}

void LoopCondition::NotifyAll() {
  for (boost::asio::steady_timer* waiter : waiters_) waiter->cancel();
}

}  // namespace bravebot
