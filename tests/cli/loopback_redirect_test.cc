#include "cli/loopback_redirect.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <optional>
#include <thread>

#include "supervisor/servers/http_client.h"

namespace bravebot {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

// A browser's requests to the redirect, one after the other, while the
// listener waits for its answer with `state`.
struct Visit {
  std::vector<long> statuses;  // of each page the browser was shown
  std::string last_page;
  std::optional<Result<std::string>> received;
};

Visit VisitRedirect(const std::vector<std::string>& queries,
                    std::chrono::seconds timeout = std::chrono::seconds(5),
                    const std::string& path = "/callback") {
  boost::asio::io_context io;
  Result<std::unique_ptr<LoopbackRedirect>> redirect = LoopbackRedirect::Open(io.get_executor());
  EXPECT_TRUE(redirect) << redirect.error().message();
  std::string url = (*redirect)->Url();
  EXPECT_THAT(url, StartsWith("http://127.0.0.1:"));
  std::string base = url.substr(0, url.rfind('/')) + path;
  Visit visit;
  boost::asio::co_spawn(
      io,
      [&]() -> boost::asio::awaitable<void> {
        visit.received = co_await (*redirect)->Receive("st-1", timeout);
      },
      boost::asio::detached);
  HttpClient browser(io, "browser");
  std::function<void(std::size_t)> next = [&](std::size_t index) {
    if (index == queries.size()) return;
    browser.Send(index + 1 == queries.size() ? url + queries[index] : base + queries[index],
                 {"GET", {}, ""}, std::chrono::seconds(5),
                 {[&](const HttpResponseHead& head) { visit.statuses.push_back(head.status); },
                  [&](std::string_view bytes) { visit.last_page += bytes; },
                  [&, index](const Status&) { next(index + 1); }});
  };
  next(0);
  boost::asio::steady_timer guard(io, std::chrono::seconds(15));
  guard.async_wait([&](const boost::system::error_code& error) {
    if (!error) io.stop();
  });
  while (!visit.received && !io.stopped()) io.run_one();
  // The last page is written after the answer is known.
  for (int i = 0; i < 100 && visit.statuses.size() < queries.size() && !io.stopped(); ++i)
    io.run_one();
  return visit;
}

TEST(LoopbackRedirectTest, TheCodeIsTakenWithOurStateAndThePersonToldToGoBack) {
  Visit visit = VisitRedirect({"?code=c%2F1&state=st-1"});
  ASSERT_TRUE(visit.received);
  ASSERT_TRUE(*visit.received) << visit.received->error().message();
  EXPECT_EQ(**visit.received, "c/1");
  EXPECT_EQ(visit.statuses, std::vector<long>{200});
  EXPECT_THAT(visit.last_page, HasSubstr("Signed in."));
}

TEST(LoopbackRedirectTest, AnotherStateIsRefusedAndWaitedPast) {
  // Neither a forged code nor a forged error ends the wait for ours.
  Visit visit = VisitRedirect({"?code=planted&state=st-2", "?error=access_denied&state=st-3",
                               "?code=planted", "?code=c&state=st-1"});
  ASSERT_TRUE(visit.received);
  ASSERT_TRUE(*visit.received) << visit.received->error().message();
  EXPECT_EQ(**visit.received, "c");
  EXPECT_EQ(visit.statuses, (std::vector<long>{400, 400, 400, 200}));
}

TEST(LoopbackRedirectTest, OnlyAnotherStatesAnswerInTimeIsSaid) {
  Visit visit = VisitRedirect({"?code=planted&state=st-2"}, std::chrono::seconds(1));
  ASSERT_TRUE(visit.received);
  ASSERT_FALSE(*visit.received);
  EXPECT_THAT(visit.received->error().message(),
              HasSubstr("within 1 s: 1 with another state came and were refused"));
  EXPECT_EQ(visit.statuses, std::vector<long>{400});
}

TEST(LoopbackRedirectTest, TheServersErrorIsSaidEscapedInTheTerminalAndThePage) {
  Visit visit = VisitRedirect(
      {"?error=access_denied&error_description=%1B%5B2J%3Cb%3Eno%3C%2Fb%3E&state=st-1"});
  ASSERT_TRUE(visit.received);
  ASSERT_FALSE(*visit.received);
  EXPECT_THAT(visit.received->error().message(), HasSubstr("refused: access_denied"));
  EXPECT_THAT(visit.received->error().message(), Not(HasSubstr("\x1b")));
  EXPECT_THAT(visit.last_page, HasSubstr("&lt;b&gt;no&lt;/b&gt;"));
}

TEST(LoopbackRedirectTest, OtherPagesAreNotFoundAndWaitedPast) {
  Visit visit = VisitRedirect({"", "?code=c&state=st-1"}, std::chrono::seconds(5), "/favicon.ico");
  ASSERT_TRUE(visit.received);
  EXPECT_TRUE(*visit.received);
  EXPECT_EQ(visit.statuses, (std::vector<long>{404, 200}));
}

TEST(LoopbackRedirectTest, NoAnswerInTimeIsSaid) {
  Visit visit = VisitRedirect({}, std::chrono::seconds(1));
  ASSERT_TRUE(visit.received);
  ASSERT_FALSE(*visit.received);
  EXPECT_THAT(visit.received->error().message(),
              HasSubstr("no answer came from the browser within 1 s"));
}

// A connection to the redirect at `port`, from a thread of the test's own.
boost::asio::ip::tcp::socket Connect(boost::asio::io_context& io, unsigned short port) {
  boost::asio::ip::tcp::socket socket(io);
  socket.connect({boost::asio::ip::address_v4::loopback(), port});
  return socket;
}

// What the redirect answers `request` on `socket`: everything it wrote
// before it closed the connection ("" for a connection closed unanswered).
std::string Answer(boost::asio::ip::tcp::socket& socket, const std::string& request) {
  boost::system::error_code error;
  boost::asio::write(socket, boost::asio::buffer(request), error);
  std::string answer;
  boost::asio::read(socket, boost::asio::dynamic_buffer(answer), error);
  return answer;
}

std::string Callback(const std::string& query) {
  return "GET /callback?" + query + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
}

// A redirect waiting on a thread of its own for the answer with state
// "st-1" (at most 30 s), while the test connects to it as browsers and
// forgers would.
class RedirectOnAThread {
 public:
  RedirectOnAThread() {
    Result<std::unique_ptr<LoopbackRedirect>> opened = LoopbackRedirect::Open(io_.get_executor());
    if (!opened) {
      ADD_FAILURE() << opened.error().message();
      return;
    }
    redirect_ = std::move(*opened);
    const std::string url = redirect_->Url();
    port_ = static_cast<unsigned short>(
        std::stoi(url.substr(url.rfind(':') + 1, url.rfind('/') - url.rfind(':') - 1)));
    boost::asio::co_spawn(
        io_,
        [this]() -> boost::asio::awaitable<void> {
          received_ = co_await redirect_->Receive("st-1", std::chrono::seconds(30),
                                                  [this](const std::string&) { ++notes_; });
        },
        boost::asio::detached);
    guard_.async_wait([this](const boost::system::error_code& error) {
      if (!error) io_.stop();
    });
    listening_ = std::thread([this] { io_.run(); });
  }
  ~RedirectOnAThread() { Finish(); }
  RedirectOnAThread(const RedirectOnAThread&) = delete;
  RedirectOnAThread& operator=(const RedirectOnAThread&) = delete;

  unsigned short port() const { return port_; }
  int notes() const { return notes_; }

  // Lets Receive take its turn after the last answer, then stops: what it
  // received, if it has.
  const std::optional<Result<std::string>>& Finish() {
    if (listening_.joinable()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      io_.stop();
      listening_.join();
    }
    return received_;
  }

 private:
  boost::asio::io_context io_;
  boost::asio::steady_timer guard_{io_, std::chrono::seconds(40)};
  std::unique_ptr<LoopbackRedirect> redirect_;
  unsigned short port_ = 0;
  std::optional<Result<std::string>> received_;
  int notes_ = 0;
  std::thread listening_;
};

// The listener serves 16 connections at once. Past them, one more is
// closed unanswered, even one with the browser's answer: whoever holds 16
// idle connections holds up the sign-in, for at most the 10 s a connection
// is given for its request, or until they close them. Then the browser's
// answer (a reload) is taken; what was refused meanwhile took nothing.
TEST(LoopbackRedirectTest, PastSixteenConnectionsAtOnceOneIsClosedUnansweredUntilTheyGo) {
  RedirectOnAThread redirect;
  const unsigned short port = redirect.port();

  boost::asio::io_context clients;
  std::vector<boost::asio::ip::tcp::socket> idle;
  idle.reserve(16);
  for (int i = 0; i < 16; ++i) idle.push_back(Connect(clients, port));
  // Accepted in the order they came: the 17th is past the bound.
  boost::asio::ip::tcp::socket seventeenth = Connect(clients, port);
  EXPECT_EQ(Answer(seventeenth, Callback("code=early&state=st-1")), "");

  for (boost::asio::ip::tcp::socket& socket : idle) socket.close();
  // Once the listener has seen them go; a browser's reload after a refusal.
  std::string answer;
  for (int attempt = 0; attempt < 100 && answer.empty(); ++attempt) {
    if (attempt > 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    boost::asio::ip::tcp::socket browser = Connect(clients, port);
    answer = Answer(browser, Callback("code=late&state=st-1"));
  }
  EXPECT_THAT(answer, StartsWith("HTTP/1.1 200"));
  const std::optional<Result<std::string>>& received = redirect.Finish();
  ASSERT_TRUE(received);
  ASSERT_TRUE(*received) << received->error().message();
  EXPECT_EQ(**received, "late");
}

// Any process of this machine, or a page in the person's browser, may send
// answers with another state without end; a line for each would scroll the
// sign-in's url away. Said once is enough: Receive counts the rest in its
// words where the browser's answer never comes.
TEST(LoopbackRedirectTest, ManyAnswersWithAnotherStateAreSaidOnce) {
  RedirectOnAThread redirect;
  const unsigned short port = redirect.port();
  boost::asio::io_context clients;
  for (int i = 0; i < 50; ++i) {
    boost::asio::ip::tcp::socket forger = Connect(clients, port);
    EXPECT_THAT(Answer(forger, Callback("code=x&state=forged")), StartsWith("HTTP/1.1 400"));
  }
  boost::asio::ip::tcp::socket browser = Connect(clients, port);
  EXPECT_THAT(Answer(browser, Callback("code=c&state=st-1")), StartsWith("HTTP/1.1 200"));
  const std::optional<Result<std::string>>& received = redirect.Finish();
  ASSERT_TRUE(received);
  EXPECT_TRUE(*received);
  EXPECT_EQ(redirect.notes(), 1);
}

// A head past 16 KiB, or a request with a body,
// is dropped unanswered and takes nothing; the browser's answer after it is
// taken.
TEST(LoopbackRedirectTest, AHugeHeadOrABodyIsDroppedAndTheAnswerStillTaken) {
  RedirectOnAThread redirect;
  const unsigned short port = redirect.port();
  boost::asio::io_context clients;
  boost::asio::ip::tcp::socket huge = Connect(clients, port);
  EXPECT_EQ(Answer(huge, "GET /callback?code=h&state=st-1 HTTP/1.1\r\nX-Pad: " +
                             std::string(std::size_t{20} * 1024, 'a') + "\r\n\r\n"),
            "");
  boost::asio::ip::tcp::socket bodied = Connect(clients, port);
  EXPECT_EQ(
      Answer(bodied,
             "GET /callback?code=b&state=st-1 HTTP/1.1\r\nContent-Length: 1000000000\r\n\r\nx"),
      "");
  boost::asio::ip::tcp::socket browser = Connect(clients, port);
  EXPECT_THAT(Answer(browser, Callback("code=c&state=st-1")), StartsWith("HTTP/1.1 200"));
  const std::optional<Result<std::string>>& received = redirect.Finish();
  ASSERT_TRUE(received);
  ASSERT_TRUE(*received) << received->error().message();
  EXPECT_EQ(**received, "c");
}

}  // namespace
}  // namespace bravebot
