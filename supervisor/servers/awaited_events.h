// What a coroutine on the loop waits for, handed over by callbacks: a
// channel's answers, a person's answer, a channel opened. ServerLink writes
// its start and its redirects as coroutines (server_link.h) that wait here
// for what its callbacks are told.
//
//   AwaitedEvents<McpIncoming> answers;
//   ... in a coroutine:  std::optional<McpIncoming> next = co_await answers.Next();
//   ... in a callback:   answers.Give(std::move(incoming));
//   ... where it is over: answers.Close();   // the coroutine gets nullopt
//
// A coroutine waiting is resumed inside Give or Close, on the caller's stack,
// as a callback would run there: what it does comes in the same order as
// what the callback would have done. Nothing is posted.
//
// Its owner owns the coroutine while it waits: the handler that resumes it
// is held here, so destroying this destroys the coroutine without resuming
// it (Asio unwinds its frames from the loop). A coroutine that waits here
// therefore never outlives what it waits on, and holds no reference to it.
#ifndef BRAVEBOT_SUPERVISOR_SERVERS_AWAITED_EVENTS_H_
#define BRAVEBOT_SUPERVISOR_SERVERS_AWAITED_EVENTS_H_

#include <boost/asio/any_completion_handler.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <deque>
#include <optional>
#include <utility>

namespace bravebot {

template <typename Event>
class AwaitedEvents {
 public:
  AwaitedEvents() = default;
  AwaitedEvents(AwaitedEvents&&) noexcept = default;
  AwaitedEvents& operator=(AwaitedEvents&&) noexcept = default;

  // The next event given, in the order given; nullopt once closed. One
  // coroutine waits at a time.
  boost::asio::awaitable<std::optional<Event>> Next() {
    if (!given_.empty()) {
      Event event = std::move(given_.front());
      given_.pop_front();
      co_return event;
    }
    if (closed_) co_return std::nullopt;
    co_return co_await boost::asio::async_initiate<decltype(boost::asio::use_awaitable),
                                                   void(std::optional<Event>)>(
        [this](Handler handler) { waiting_.emplace(std::move(handler)); },
        boost::asio::use_awaitable);
  }

  // Resumes the coroutine waiting with `event`, or keeps it for the next
  // Next(). Nothing once closed.
  void Give(Event event) {
    if (closed_) return;
    if (!waiting_) {
      given_.push_back(std::move(event));
      return;
    }
    Resume(std::optional<Event>(std::move(event)));
  }

  // Nothing more comes: the coroutine waiting, and every later Next(), gets
  // nullopt. What was given and not taken goes.
  void Close() {
    if (closed_) return;
    closed_ = true;
    given_.clear();
    if (waiting_) Resume(std::nullopt);
  }

  bool closed() const { return closed_; }

 private:
  using Handler = boost::asio::any_completion_handler<void(std::optional<Event>)>;

  // The handler is taken out first: the coroutine it resumes may destroy
  // this object, which is not touched afterwards.
  void Resume(std::optional<Event> event) {
    Handler handler = std::move(*waiting_);
    waiting_.reset();
    std::move(handler)(std::move(event));
  }

  std::deque<Event> given_;
  std::optional<Handler> waiting_;
  bool closed_ = false;
};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SERVERS_AWAITED_EVENTS_H_
